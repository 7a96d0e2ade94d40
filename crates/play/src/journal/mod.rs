//! The journal every mode keeps: one JSON line per finished game, whatever schedules the games
//! (a tournament's plan, a ladder's pairing). Each mode has a row of its own for how its seats
//! are named (a tournament's entrants, a ladder's builds) around one [`GameResult`].
//!
//! | file             | what                                                                |
//! |------------------|---------------------------------------------------------------------|
//! | `error.rs`       | what can go wrong with one, as callers can tell apart               |
//! | `file.rs`        | the file: append with fsync, read back, cut a torn line, repair     |
//! | `result.rs`      | how a game ended, and what it was for a seat ([`Outcome`])          |
//! | `folder_lock.rs` | the folder's locks: one writer, reports taking turns                |

mod error;
mod file;
pub mod folder_lock;
mod result;

pub use error::JournalError;
pub use file::{any_entry, read, repair, stream, Damaged, Journal, JournalEntry, FILE, REJECTED};
pub use result::{GameResult, GameTime, JournalFault, Outcome};
