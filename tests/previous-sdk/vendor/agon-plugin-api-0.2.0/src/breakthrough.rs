//! Breakthrough (`docs/games/breakthrough.md`): one set of types for a bot. A bot is handed
//! the rules' [`Position`] and answers one of its [`Position::legal_moves`].

use crate::game::Game;
use crate::turn::Turn;
use crate::Bot;
use rand::Rng;

#[doc(inline)]
pub use agon_games::breakthrough::protocol::{Breakthrough, Cell, Observation, Setup};
#[doc(inline)]
pub use agon_games::breakthrough::{
    perft, Config, EndReason, IllegalMove, Move, Outcome, Position, Side, Square,
};

impl Game for Breakthrough {
    type State = Position;
    type Move = Move;

    fn state(setup: &Setup, observation: &Observation) -> Result<Position, String> {
        agon_games::breakthrough::convert::position(setup, observation)
    }

    fn answer(mv: Move) -> Move {
        mv
    }
}

/// A sparring bot built into the SDK: a uniformly random legal move (seeded).
#[derive(Default)]
pub struct RandomBot;

impl Bot for RandomBot {
    type Game = Breakthrough;

    fn play(&mut self, position: &Position, turn: &mut Turn<'_, Breakthrough>) -> Move {
        let moves = position.legal_moves();
        moves[turn.rng().random_range(0..moves.len())]
    }
}
