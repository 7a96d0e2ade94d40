//! Ratings, the two ways Agon rates: a tournament has all its games before it rates and fits
//! Bradley-Terry to them at once; a ladder never has, and updates Weng-Lin ratings game by game.
//!
//! | file               | method                                                        |
//! |--------------------|---------------------------------------------------------------|
//! | `bradley_terry.rs` | Bradley-Terry strengths of a finished tournament (`grading`)  |
//! | `weng_lin.rs`      | Weng-Lin ratings per build, one game at a time (`ladder`)     |

pub mod bradley_terry;
pub mod weng_lin;
