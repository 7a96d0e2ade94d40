//! Breakthrough (`docs/games/breakthrough.md`): one set of types for a bot. A bot is handed
//! the rules' [`Position`] and answers one of its [`Position::legal_moves`].

use crate::contract::{BotGame, Draw, Sparring};

/// Conversions from what a bot is sent to the rules' own types, for a `WireBot` (the SDK's)
/// that searches with the rules.
pub use super::convert;
#[doc(inline)]
pub use super::protocol::{Breakthrough, Cell, Observation, Setup};
#[doc(inline)]
pub use super::{
    perft, Config, EndReason, IllegalMove, LegalMoves, Move, Outcome, Position, Side, Square,
};

impl BotGame for Breakthrough {
    type State = Position;
    type Move = Move;

    fn state(setup: &Setup, observation: &Observation) -> Result<Position, String> {
        super::convert::position(setup, observation)
    }

    fn answer(mv: Move) -> Move {
        mv
    }
}

/// The sparring bot (the SDK's `RandomBot` of the game): a uniformly random legal move (seeded).
#[derive(Default)]
pub struct RandomBot;

impl Sparring for RandomBot {
    type Game = Breakthrough;

    fn play(position: &Position, _: &Setup, _: &Observation, draw: &mut dyn Draw) -> Move {
        let moves = position.legal_moves();
        moves[draw.below(moves.len())]
    }
}
