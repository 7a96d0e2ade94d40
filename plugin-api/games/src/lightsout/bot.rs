//! Lights Out (`docs/games/lightsout.md`), a puzzle: one set of types for a bot. A bot is
//! handed the rules' [`Board`] and answers the clicks that clear it, or that none does; the
//! engine's own algebra ([`Analysis`]) solves any board.

use crate::contract::{BotGame, Draw, Sparring};

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

/// The sparring bot (the SDK's `RandomBot` of the game): clicks a random half of the cells. It
/// is a baseline every solver beats, not a solver.
#[derive(Default)]
pub struct RandomBot;

impl Sparring for RandomBot {
    type Game = LightsOut;

    fn play(board: &Board, _: &Setup, _: &Observation, draw: &mut dyn Draw) -> Answer {
        let (rows, cols) = (board.rows(), board.cols());
        let clicked: Vec<bool> = (0..rows * cols).map(|_| draw.below(2) == 1).collect();
        Answer::Clicks {
            clicks: pack(rows, cols, |r, c| clicked[r * cols + c]),
            proven_minimal: false,
        }
    }
}
