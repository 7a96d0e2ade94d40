//! ReversiXT: the multi-player Reversi of the RWTH Softwarepraktikum (`docs/games/reversixt.md`).
//!
//! Maps (parsing with positioned errors, squares, directions, transitions) and the rules of
//! both phases on a `Position`, the protocol and the engine session. The course's TCP protocol
//! lives in `agon-engine`, the bots in `plugins/reversixt-*`.

pub mod bot;
pub mod convert;
pub mod course_wire;
#[cfg(test)]
mod playthrough;
pub mod protocol;
pub mod session;

mod board_targets;
mod direction;
mod map;
#[cfg(test)]
mod perft;
mod position;
#[cfg(test)]
mod properties;
mod square;
mod square_set;
mod targets;
#[cfg(test)]
mod targets_agree;
#[cfg(test)]
mod tests;
mod topology;
mod view;

pub use direction::Direction;
pub use map::{Map, MapError, Transition, MAX_SIDE};
pub use position::{IllegalMove, Move, Phase, Position, BONUS_BOMB, BONUS_OVERRIDE};
pub use square::Square;
