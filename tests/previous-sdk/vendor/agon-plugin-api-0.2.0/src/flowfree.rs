//! Flow Free (`docs/games/flowfree.md`), a puzzle: one set of types for a bot. A bot is
//! handed the rules' [`Puzzle`] and answers every cell's letter, or that it gave up; the
//! engine's own [`verify`] checks a solution.

use crate::game::Game;

#[doc(inline)]
pub use agon_games::flowfree::protocol::{Answer, FlowFree, Observation, Setup};
#[doc(inline)]
pub use agon_games::flowfree::{verify, Puzzle};

impl Game for FlowFree {
    type State = Puzzle;
    type Move = Answer;

    fn state(_setup: &Setup, observation: &Observation) -> Result<Puzzle, String> {
        agon_games::flowfree::convert::puzzle(observation)
    }

    fn answer(answer: Answer) -> Answer {
        answer
    }
}
