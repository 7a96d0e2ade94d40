//! Lights Out (`docs/games/lightsout.md`), a puzzle: one set of types for a bot. A bot is
//! handed the rules' [`Board`] and answers the clicks that clear it, or that none does; the
//! engine's own algebra ([`Analysis`]) solves any board.

use crate::game::Game;

#[doc(inline)]
pub use agon_games::lightsout::protocol::{pack, unpack, Answer, LightsOut, Observation, Setup};
#[doc(inline)]
pub use agon_games::lightsout::{nullity, Analysis, Bits, Board, Click};

impl Game for LightsOut {
    type State = Board;
    type Move = Answer;

    fn state(_setup: &Setup, observation: &Observation) -> Result<Board, String> {
        agon_games::lightsout::convert::board(observation)
    }

    fn answer(answer: Answer) -> Answer {
        answer
    }
}
