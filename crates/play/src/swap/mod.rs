//! Hot swap: taking a new build of a team's plugin while the engine runs, for the ladder and
//! for `agon tournament run --watch`. `intake` watches a folder and hands over files only when
//! they are whole; `validation` plays a candidate in a game that looks like a real one before any game uses
//! it, against opponents `sparring` draws; what passes is a `build`.

pub mod build;
pub mod intake;
pub mod sparring;
pub mod validation;
mod validation_error;

pub use validation_error::ValidationError;
