//! ReversiXT (`docs/games/reversixt.md`): one set of types for a bot. A bot is handed the
//! rules' [`Position`] and answers one of its [`Position::legal_moves`]; the observation's time
//! account and depth limit are in [`Turn::observation`].

use crate::game::Game;
use crate::turn::Turn;
use crate::Bot;
use rand::Rng;

#[doc(inline)]
pub use agon_games::reversixt::protocol::{Observation, ReversiXt, Setup};
#[doc(inline)]
pub use agon_games::reversixt::{
    Direction, IllegalMove, Map, MapError, Move, Phase, Position, Square, Transition, BONUS_BOMB,
    BONUS_OVERRIDE, MAX_SIDE,
};

impl Game for ReversiXt {
    type State = Position;
    type Move = Move;

    fn state(_setup: &Setup, observation: &Observation) -> Result<Position, String> {
        agon_games::reversixt::convert::position(observation).map_err(|e| e.to_string())
    }

    fn answer(mv: Move) -> agon_games::reversixt::protocol::Move {
        mv.into()
    }

    /// The course's time limit per move (rules file, "Time and depth limits (course server)"), when set.
    fn call_budget_ms(observation: &Observation) -> Option<u64> {
        (observation.time_account_ms > 0).then_some(observation.time_account_ms)
    }
}

/// A sparring bot built into the SDK: a uniformly random legal move (seeded).
#[derive(Default)]
pub struct RandomBot;

impl Bot for RandomBot {
    type Game = ReversiXt;

    fn play(&mut self, position: &Position, turn: &mut Turn<'_, ReversiXt>) -> Move {
        let moves = position.legal_moves();
        moves[turn.rng().random_range(0..moves.len())]
    }
}
