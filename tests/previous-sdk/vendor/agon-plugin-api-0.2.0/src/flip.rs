//! Flip (`docs/games/flip.md`): one set of types for a bot. A bot is handed the rules' table
//! ([`Table`], with every coin and a move check) and answers its coin moves for the turn.

use crate::game::Game;
use crate::turn::Turn;
use crate::Bot;
use rand::Rng;

#[doc(inline)]
pub use agon_games::flip::protocol::{Coin, Flip, FlipMove, Observation, Setup, Side};
/// The rules' table: both players' coins, the turn, and the move checks.
pub use agon_games::flip::Flip as Table;
#[doc(inline)]
pub use agon_games::flip::{
    Config, FlipOutcome, HalfTurn, Invalid, MoveResult, Player, Point, EPS,
};

impl Game for Flip {
    type State = Table;
    type Move = Vec<FlipMove>;

    fn state(_setup: &Setup, observation: &Observation) -> Result<Table, String> {
        Ok(agon_games::flip::convert::table(observation))
    }

    fn answer(moves: Vec<FlipMove>) -> Vec<FlipMove> {
        moves
    }
}

/// Attempts per coin move before the sparring bot settles for fewer moves.
const TRIES: usize = 100;

/// A sparring bot built into the SDK: random coins moved forward at random angles, each
/// checked with the rules before it is answered.
#[derive(Default)]
pub struct RandomBot;

impl Bot for RandomBot {
    type Game = Flip;

    fn play(&mut self, table: &Table, turn: &mut Turn<'_, Flip>) -> Vec<FlipMove> {
        let me: Player = turn.observation().you.into();
        let allowed = turn.observation().moves_allowed;
        let mut table = table.clone();
        let mut moves = Vec::new();
        for _ in 0..allowed {
            for _ in 0..TRIES {
                let rng = turn.rng();
                let id = rng.random_range(0..table.coins(me).len() as u32);
                let angle =
                    rng.random_range(-std::f64::consts::FRAC_PI_2..std::f64::consts::FRAC_PI_2);
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
