//! What `agon match` tells a student about their bot: the summary of the match and, in it, each
//! fault with what to do about it and the end of a faulty seat's stderr (or every seat's whole
//! stderr); with `--trace`, each position and answer as the match runs.

pub mod faults;
pub mod hints;
pub mod seat_stderr;
pub mod summary;
pub mod trace;
