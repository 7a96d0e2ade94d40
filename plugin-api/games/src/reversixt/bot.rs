//! ReversiXT (`docs/games/reversixt.md`): one set of types for a bot. A bot is handed the
//! rules' [`Position`] and answers one of its [`Position::legal_moves`]; the observation's time
//! account and depth limit are in the SDK's `Turn::observation`.

use crate::contract::{BotGame, Draw, Sparring};

/// Conversions from what a bot is sent to the rules' own types, for a `WireBot` (the SDK's)
/// that searches with the rules.
pub use super::convert;
#[doc(inline)]
pub use super::protocol::{Observation, ReversiXt, Setup};
#[doc(inline)]
pub use super::{
    Direction, IllegalMove, Map, MapError, Move, Phase, Position, Square, Transition, BONUS_BOMB,
    BONUS_OVERRIDE, MAX_SIDE,
};

impl BotGame for ReversiXt {
    type State = Position;
    type Move = Move;

    fn state(_setup: &Setup, observation: &Observation) -> Result<Position, String> {
        super::convert::position(observation).map_err(|e| e.to_string())
    }

    fn answer(mv: Move) -> super::protocol::Move {
        mv.into()
    }

    /// The course's time limit per move (rules file, "Time and depth limits (course server)"), when set.
    fn call_budget_ms(observation: &Observation) -> Option<u64> {
        (observation.time_account_ms > 0).then_some(observation.time_account_ms)
    }
}

/// The sparring bot (the SDK's `RandomBot` of the game): a uniformly random legal move (seeded).
#[derive(Default)]
pub struct RandomBot;

impl Sparring for RandomBot {
    type Game = ReversiXt;

    fn play(position: &Position, _: &Setup, _: &Observation, draw: &mut dyn Draw) -> Move {
        let moves = position.legal_moves();
        moves[draw.below(moves.len())]
    }
}
