//! Lights Out, the seed paper's "Flip" board (`docs/games/lightsout.md`).
//!
//! A board is `rows x cols` cells, black (1) or white (0); clicking a cell flips it and its
//! orthogonal neighbours; the goal is all white. Over GF(2) a solution is a set of cells, and
//! everything here is linear algebra on bit rows: [`Board`] holds the cells, [`algebra`] the
//! light-chasing reduction that turns an `r x c` board into a `min(r, c)`-variable system.
//!
//! Instance files: one line per row, `.` (or `0`) white, `#` (or `1`) black; blank lines at the
//! end and `\r` line ends are ignored.

pub mod bot;
pub mod convert;
#[cfg(test)]
mod playthrough;
pub mod protocol;
pub mod session;

pub mod algebra;
mod bits;
mod board;
mod view;

pub use algebra::{nullity, Analysis};
pub use bits::Bits;
pub use board::{Board, Click, OffBoard, ParseError};

#[cfg(test)]
mod tests;
