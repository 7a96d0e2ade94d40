//! Flip, the coin game of Columbia COMS W4444, Fall 2019, Project 1 (`docs/games/flip.md`),
//! exactly as the course's Java simulator played it.
//!
//! The table is x in [-60, 60], y in [-20, 20]. Player 1 starts in the right third and attacks
//! toward -x; player 2 starts in the left third and attacks toward +x ("Table and coins"). Every
//! coin is a disc of diameter 2; a move flips one coin exactly one diameter, to anywhere not
//! overlapping another coin and on the table ("Moves"). Seat 0 is player 1.

pub mod bot;
pub mod convert;
#[cfg(test)]
mod playthrough;
pub mod protocol;
pub mod session;

mod config;
mod course_tournament;
mod game;
mod geometry;
mod grid;
mod java_random;
mod placement;
mod view;

pub use config::Config;
pub use course_tournament::course_board_seed;
pub use game::{Flip, HalfTurn, Invalid, MoveResult, Outcome as FlipOutcome, Player};
pub use geometry::{Point, EPS};
pub use java_random::JavaRandom;
pub use placement::{place, place_within, PlacementJam, MAX_DRAWS, PRACTICAL_COINS};

#[cfg(test)]
mod tests;
