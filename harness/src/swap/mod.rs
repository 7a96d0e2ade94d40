//! Hot swap: taking a new build of a team's plugin while the engine runs, for the ladder and
//! for `agon tournament run --watch`. `intake` watches a folder and hands over files only when
//! they are whole; `validation` tries a candidate in process hosts before any game uses it.

pub mod intake;
pub mod validation;
