//! Standings, for both modes: how games count for a participant ([`Tally`]) and the two ways
//! Agon rates. A tournament has all its games before it rates and fits Bradley-Terry to them at
//! once; a ladder never has, and updates Weng-Lin ratings game by game. Each mode lays out its
//! own table from these: a tournament's per entrant (`agon_tournament::grading::grade`), a ladder's per
//! build (`agon_ladder::board`).
//!
//! | file               | what                                                          |
//! |--------------------|---------------------------------------------------------------|
//! | `tally.rs`         | games, wins, draws, losses and points of one participant      |
//! | `bradley_terry.rs` | Bradley-Terry strengths of a finished tournament (`grading`)  |
//! | `weng_lin.rs`      | Weng-Lin ratings per build, one game at a time (`ladder`)     |
//! | `sprt.rs`          | the sequential test between two builds (pentanomial, GSPRT)   |

pub mod bradley_terry;
pub mod sprt;
mod tally;
pub mod weng_lin;

pub use tally::Tally;
