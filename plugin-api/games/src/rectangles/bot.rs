//! Rectangles (`docs/games/rectangles.md`): one set of types for a bot. A bot is handed the
//! rules' [`Game`](RectanglesGame) (board, robots, scores; `step` plays a round on a copy) and
//! answers its robots' start cells in round 0 and one [`Direction`] per robot after that.

use crate::contract::{BotGame, Draw, Sparring};

/// Conversions from what a bot is sent to the rules' own types, for a `WireBot` (the SDK's)
/// that searches with the rules.
pub use super::convert;
#[doc(inline)]
pub use super::protocol::{Action, Observation, Rectangles, Setup};
/// The rules' game state.
pub use super::Game as RectanglesGame;
#[doc(inline)]
pub use super::{
    Board, Cell, Claim, Config, Direction, End, Invalid, Paint, Rect, RoundReport, FILLED,
    UNPAINTED,
};

impl BotGame for Rectangles {
    type State = RectanglesGame;
    type Move = Action;

    fn state(setup: &Setup, observation: &Observation) -> Result<RectanglesGame, String> {
        super::convert::game(setup, observation)
            .ok_or_else(|| "the observation does not fit the setup".to_string())
    }

    fn answer(action: Action) -> Action {
        action
    }
}

/// The sparring bot (the SDK's `RandomBot` of the game): robots start anywhere and wander at random.
#[derive(Default)]
pub struct RandomBot;

impl Sparring for RandomBot {
    type Game = Rectangles;

    fn play(game: &RectanglesGame, setup: &Setup, _: &Observation, draw: &mut dyn Draw) -> Action {
        let (n, robots) = (setup.n.max(1), setup.robots as usize);
        if game.round() == 0 {
            Action::Place(
                (0..robots)
                    .map(|_| Cell {
                        row: draw.below_u16(n),
                        col: draw.below_u16(n),
                    })
                    .collect(),
            )
        } else {
            Action::Move(
                (0..robots)
                    .map(|_| Direction::ALL[draw.below(Direction::ALL.len())])
                    .collect(),
            )
        }
    }
}
