//! Rectangles (`docs/games/rectangles.md`): one set of types for a bot. A bot is handed the
//! rules' [`Game`](RectanglesGame) (board, robots, scores; `step` plays a round on a copy) and
//! answers its robots' start cells in round 0 and one [`Direction`] per robot after that.

use crate::game::Game;
use crate::turn::Turn;
use crate::Bot;
use rand::Rng;

#[doc(inline)]
pub use agon_games::rectangles::protocol::{Action, Observation, Rectangles, Setup};
/// The rules' game state.
pub use agon_games::rectangles::Game as RectanglesGame;
#[doc(inline)]
pub use agon_games::rectangles::{
    Board, Cell, Claim, Config, Direction, End, Invalid, Paint, Rect, RoundReport, FILLED,
    UNPAINTED,
};

impl Game for Rectangles {
    type State = RectanglesGame;
    type Move = Action;

    fn state(setup: &Setup, observation: &Observation) -> Result<RectanglesGame, String> {
        agon_games::rectangles::convert::game(setup, observation)
            .ok_or_else(|| "the observation does not fit the setup".to_string())
    }

    fn answer(action: Action) -> Action {
        action
    }
}

/// A sparring bot built into the SDK: robots start anywhere and wander at random.
#[derive(Default)]
pub struct RandomBot;

impl Bot for RandomBot {
    type Game = Rectangles;

    fn play(&mut self, game: &RectanglesGame, turn: &mut Turn<'_, Rectangles>) -> Action {
        let (n, robots) = (turn.setup().n.max(1), turn.setup().robots as usize);
        let rng = turn.rng();
        if game.round() == 0 {
            Action::Place(
                (0..robots)
                    .map(|_| Cell {
                        row: rng.random_range(0..n),
                        col: rng.random_range(0..n),
                    })
                    .collect(),
            )
        } else {
            Action::Move(
                (0..robots)
                    .map(|_| Direction::ALL[rng.random_range(0..Direction::ALL.len())])
                    .collect(),
            )
        }
    }
}
