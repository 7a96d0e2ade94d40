//! Conversions between the Flip protocol and the rules in `agon_games`, so a bot can check its
//! moves with the engine's own rules.

use super::protocol as wire;
use super::{Config, Flip, Player, Point};

impl From<wire::Side> for Player {
    fn from(side: wire::Side) -> Player {
        match side {
            wire::Side::One => Player::One,
            wire::Side::Two => Player::Two,
        }
    }
}

impl From<Player> for wire::Side {
    fn from(p: Player) -> wire::Side {
        match p {
            Player::One => wire::Side::One,
            Player::Two => wire::Side::Two,
        }
    }
}

fn points(coins: &[wire::Coin]) -> Vec<Point> {
    coins.iter().map(|c| Point::new(c.x, c.y)).collect()
}

/// The table an observation shows, as a rules object (positions only: the turn counters are
/// not needed to check moves).
pub fn table(observation: &wire::Observation) -> Flip {
    let me: Player = observation.you.into();
    let mut coins = [Vec::new(), Vec::new()];
    coins[me.index()] = points(&observation.own);
    coins[me.other().index()] = points(&observation.opponent);
    Flip::from_positions(
        Config {
            n: observation.n,
            turns: observation.turn_limit,
            seed: 0,
        },
        coins,
    )
}
