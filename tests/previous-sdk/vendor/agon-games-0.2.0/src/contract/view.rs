//! What the replay viewer (`agon view`) draws of a position. Each game's folder holds the two
//! halves: `view.rs` turns the rules' state into [`ViewData`] ([`Session::view`](super::Session::view),
//! [`Session::view_action`](super::Session::view_action)), and `view.js` draws that data in
//! the page. The page never applies a rule: every position it shows was computed here.

/// Drawing data: JSON, so that the page reads it as it is.
pub type ViewData = serde_json::Value;
