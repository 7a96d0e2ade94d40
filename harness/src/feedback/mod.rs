//! What `agon match` tells a student about their bot besides the result: each fault with what
//! to do about it, the end of a faulty seat's stderr (or every seat's whole stderr), and with
//! `--trace` each position and answer as the match runs.

pub mod faults;
pub mod hints;
pub mod seat_stderr;
pub mod trace;
