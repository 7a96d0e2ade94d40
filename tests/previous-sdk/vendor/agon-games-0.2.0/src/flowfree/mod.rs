//! Flow Free (`docs/games/flowfree.md`), as set in UIUC CS440 Fall 2017, A2.
//!
//! A puzzle is a grid of empty cells (`_`) and sources (uppercase letters, each exactly twice).
//! A solution gives every cell a letter so that each letter's cells form one path between its
//! two sources: every source has exactly one 4-neighbour of its letter, every other cell exactly
//! two, and each letter's cells are connected (no separate loop).

pub mod convert;
#[cfg(test)]
mod playthrough;
pub mod protocol;
pub mod session;

mod puzzle;
mod verify;
mod view;

pub use puzzle::{ParseError, Puzzle};
pub use verify::verify;

#[cfg(test)]
mod tests;
