//! Flip (`docs/games/flip.md`): one set of types for a bot. A bot is handed the rules' table
//! ([`Table`], with every coin and a move check) and answers its coin moves for the turn.

use crate::contract::{BotGame, Draw, Sparring};

/// Conversions from what a bot is sent to the rules' own types, for a `WireBot` (the SDK's)
/// that searches with the rules.
pub use super::convert;
#[doc(inline)]
pub use super::protocol::{Coin, Flip, FlipMove, Observation, Setup, Side};
/// The rules' table: both players' coins, the turn, and the move checks.
pub use super::Flip as Table;
#[doc(inline)]
pub use super::{Config, FlipOutcome, HalfTurn, Invalid, MoveResult, Player, Point, EPS};

impl BotGame for Flip {
    type State = Table;
    type Move = Vec<FlipMove>;

    fn state(_setup: &Setup, observation: &Observation) -> Result<Table, String> {
        Ok(super::convert::table(observation))
    }

    fn answer(moves: Vec<FlipMove>) -> Vec<FlipMove> {
        moves
    }
}

/// Attempts per coin move before the sparring bot settles for fewer moves.
const TRIES: usize = 100;

/// The sparring bot (the SDK's `RandomBot` of the game): random coins moved forward at random angles, each
/// checked with the rules before it is answered.
#[derive(Default)]
pub struct RandomBot;

impl Sparring for RandomBot {
    type Game = Flip;

    fn play(
        table: &Table,
        _setup: &Setup,
        observation: &Observation,
        draw: &mut dyn Draw,
    ) -> Vec<FlipMove> {
        let me: Player = observation.you.into();
        let allowed = observation.moves_allowed;
        let mut table = table.clone();
        let mut moves = Vec::new();
        for _ in 0..allowed {
            for _ in 0..TRIES {
                let id = draw.below_u32(table.coins(me).len() as u32);
                let angle = draw.between(-std::f64::consts::FRAC_PI_2, std::f64::consts::FRAC_PI_2);
                let from = table.coins(me)[id as usize];
                let to = Point::new(
                    from.x + 2.0 * me.forward() * angle.cos(),
                    from.y + 2.0 * angle.sin(),
                );
                if table.move_coin(me, id, to).is_ok() {
                    moves.push(FlipMove {
                        id,
                        x: to.x,
                        y: to.y,
                    });
                    break;
                }
            }
        }
        moves
    }
}
