//! Agon's authoritative game rules.
//!
//! Every game lives in its own module with the same shape: a `Config` parsed from string
//! parameters, a position type whose methods are the rules (legal moves, apply, outcome), and a
//! text notation for moves. Nothing here does IO or spawns threads, so a plugin that wants to
//! search can depend on this crate cheaply; the engine never trusts a bot's copy of the rules.

pub mod breakthrough;
pub mod flip;
pub mod flowfree;
pub mod lightsout;
pub mod params;
pub mod reversixt;
pub mod text_error;
