//! Rectangles, the robot painting game of Columbia COMS W4444, Fall 2003
//! (`docs/games/rectangles.md`): p players each steer b robots at once on an n x n grid,
//! painting the cells they stand on and closing rectangles of their colour to claim the
//! interiors. The first game of simultaneous moves: every round asks all players at once.
//!
//! The rules are pure state changes on a [`Game`]; claims are found incrementally, only through
//! the cells painted in the round (see `claims`), and checked against a brute-force search by
//! property tests.

pub mod convert;
#[cfg(test)]
mod playthrough;
pub mod protocol;
pub mod session;

mod board;
mod claims;
mod direction;
mod game;
#[cfg(test)]
mod properties;
#[cfg(test)]
mod tests;
mod view;

pub use board::{colour, paint_char, Board, Cell, Paint, FILLED, UNPAINTED};
pub use claims::{rectangles_through, resolve, value, Claim, Rect};
pub use direction::Direction;
pub use game::{Config, End, Game, Invalid, RoundReport};
