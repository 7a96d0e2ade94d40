//! `agon-ladder`: continuous play among a watched folder of team builds (hot swap).
//!
//! A slot is a file name in the watched folder; each build of it that passes validation becomes
//! the slot's current version for the games that start afterwards. The folder intake and the
//! validation of builds are in `agon_play::swap`; the pieces here:
//!
//! | file | role |
//! |---|---|
//! | `builds.rs` | slots and their builds (`agon_play::swap::build`), numbered by content |
//! | `configured.rs` | the `--bot` slots, checked at start-up against the files already there |
//! | `entry.rs` | one journal line: a finished game and every seat's build |
//! | `events.rs` | `events.jsonl`: builds accepted, refused and retired; starts and stops |
//! | `pairing.rs` | which slots play next, in which seats, to keep game counts balanced |
//! | `restore.rs` | what a restarted ladder plays on with: each slot's last accepted build, by content |
//! | `board.rs` | the board: `standings.json` and `ladder.html` (tallies and ratings from `agon_play::standings`), rewritten after every game |
//! | `game_pages.rs` | what the page's game links open: each game's viewer data file |
//! | `run.rs` | the loop that ties them together |
//! | `error.rs` | `LadderError`: what stops a ladder |

pub mod board;
pub mod builds;
pub mod configured;
pub mod entry;
mod error;
pub mod events;
pub mod game_pages;
pub mod pairing;
pub mod restore;
pub mod run;

pub use error::{GameNotPlayed, LadderError};
