//! Lights Out (`shared/rules/puzzles.md`, "Lights Out"), a puzzle: one set of types for a bot. A bot is
//! handed the rules' [`Board`] and answers the clicks that clear it, or that none does; the
//! engine's own algebra ([`Analysis`]) solves any board.

use crate::contract::BotGame;

/// Conversions from what a bot is sent to the rules' own types, for a `WireBot` (the SDK's)
/// that searches with the rules.
pub use super::convert;
#[doc(inline)]
pub use super::protocol::{pack, unpack, Answer, LightsOut, Observation, Setup};
#[doc(inline)]
pub use super::{nullity, Analysis, Bits, Board, Click};

impl BotGame for LightsOut {
    type State = Board;
    type Move = Answer;

    fn state(_setup: &Setup, observation: &Observation) -> Result<Board, String> {
        super::convert::board(observation)
    }

    fn answer(answer: Answer) -> Answer {
        answer
    }
}
