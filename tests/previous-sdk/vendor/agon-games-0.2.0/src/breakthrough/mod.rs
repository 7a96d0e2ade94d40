//! Breakthrough, as set in UIUC CS440/ECE448 Fall 2017, Assignment 2
//! (`docs/games/breakthrough.md`).
//!
//! Orientation: White's home rows are rows 0 and 1 (notation ranks 1 and 2) and White moves
//! toward higher rows; Black's home rows are the last two rows and Black moves toward row 0
//! (rules file, "Board and pieces": "any equivalent orientation, documented"). Columns are
//! lettered from `a`, rows numbered from 1, as in chess: `b2-b3`, captures `b2xc3`.
//!
//! The position is a pair of bitboards, so boards of at most 64 squares are supported; that
//! covers every board of the rules file (8x8, 5x10, 10x5).

pub mod convert;
#[cfg(test)]
mod playthrough;
pub mod protocol;
pub mod session;

mod config;
mod moves;
mod outcome;
mod perft;
mod position;
mod side;
mod square;
mod view;

pub use config::Config;
pub use moves::{IllegalMove, Move};
pub use outcome::{EndReason, Outcome};
pub use perft::perft;
pub use position::Position;
pub use side::Side;
pub use square::{ParseSquareError, Square};

#[cfg(test)]
mod tests;
