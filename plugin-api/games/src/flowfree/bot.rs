//! Flow Free (`docs/games/flowfree.md`), a puzzle: one set of types for a bot. A bot is
//! handed the rules' [`Puzzle`] and answers every cell's letter, or that it gave up; the
//! engine's own [`verify`] checks a solution.

use crate::contract::{BotGame, Draw, Sparring};

/// Conversions from what a bot is sent to the rules' own types, for a `WireBot` (the SDK's)
/// that searches with the rules.
pub use super::convert;
#[doc(inline)]
pub use super::protocol::{Answer, FlowFree, Observation, Setup};
#[doc(inline)]
pub use super::{verify, Puzzle};

impl BotGame for FlowFree {
    type State = Puzzle;
    type Move = Answer;

    fn state(_setup: &Setup, observation: &Observation) -> Result<Puzzle, String> {
        super::convert::puzzle(observation)
    }

    fn answer(answer: Answer) -> Answer {
        answer
    }
}

/// The sparring bot (the SDK's `RandomBot` of the game): a random filling of a puzzle is as
/// good as no answer, so it gives up. It is a baseline every solver beats.
#[derive(Default)]
pub struct RandomBot;

impl Sparring for RandomBot {
    type Game = FlowFree;

    fn play(_: &Puzzle, _: &Setup, _: &Observation, _: &mut dyn Draw) -> Answer {
        Answer::GaveUp {
            reason: "the sparring bot does not solve puzzles".into(),
        }
    }
}
