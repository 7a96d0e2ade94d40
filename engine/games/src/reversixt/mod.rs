//! ReversiXT: the multi-player Reversi of the RWTH Softwarepraktikum (`shared/rules/reversixt.md`).
//!
//! So far: maps (parsing with positioned errors, squares, directions, transitions). The move
//! rules, phases and the course's TCP protocol build on these types.

mod direction;
mod map;
mod square;
#[cfg(test)]
mod tests;

pub use direction::Direction;
pub use map::{Map, MapError, Transition, MAX_SIDE};
pub use square::Square;
