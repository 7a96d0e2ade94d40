//! ReversiXT: the multi-player Reversi of the RWTH Softwarepraktikum (`shared/rules/reversixt.md`).
//!
//! Maps (parsing with positioned errors, squares, directions, transitions) and the rules of
//! both phases on a `Position`. The engine session and the course's TCP protocol live in
//! `agon-engine`, the bots in `plugins/reversixt-*`.

mod direction;
mod map;
mod position;
#[cfg(test)]
mod properties;
mod square;
#[cfg(test)]
mod tests;

pub use direction::Direction;
pub use map::{Map, MapError, Transition, MAX_SIDE};
pub use position::{IllegalMove, Move, Phase, Position, BONUS_BOMB, BONUS_OVERRIDE};
pub use square::Square;
