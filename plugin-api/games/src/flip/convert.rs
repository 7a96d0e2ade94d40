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

/// The table an observation shows, as a rules object: the coins, the turn, the observing player
/// to move (a bot is sent the table on its own half-turn) and the recorded scores.
pub fn table(observation: &wire::Observation) -> Flip {
    let me: Player = observation.you.into();
    let mut coins = [Vec::new(), Vec::new()];
    coins[me.index()] = points(&observation.own);
    coins[me.other().index()] = points(&observation.opponent);
    Flip::resume(
        Config {
            n: observation.n,
            turns: observation.turn_limit,
            seed: 0,
        },
        coins,
        observation.turn,
        me,
        observation.scores,
    )
}

/// What the engine sends `me` about `game` (the session's observation; a bot's own tests can
/// build one with it).
pub fn observation(game: &Flip, me: Player) -> wire::Observation {
    let coins = |p: Player| {
        game.coins(p)
            .iter()
            .map(|c| wire::Coin { x: c.x, y: c.y })
            .collect()
    };
    wire::Observation {
        you: me.into(),
        n: game.config().n,
        turn: game.turn(),
        turn_limit: game.config().turns,
        moves_allowed: game.moves_allowed() as u32,
        own: coins(me),
        opponent: coins(me.other()),
        scores: game.scores(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_table_rebuilt_from_an_observation_is_the_game_s_own() {
        let mut game = Flip::new(Config {
            n: 10,
            turns: 200,
            seed: 42,
        })
        .unwrap();
        for _ in 0..5 {
            let me = game.to_move();
            let table = table(&observation(&game, me));
            assert_eq!(table.turn(), game.turn());
            assert_eq!(table.to_move(), game.to_move());
            assert_eq!(table.scores(), game.scores());
            assert_eq!(table.moves_allowed(), game.moves_allowed());
            assert_eq!(table.coins(me), game.coins(me));
            // Each player moves its first coin two units toward its goal.
            let from = game.coins(me)[0];
            let to = Point::new(from.x + 2.0 * me.forward(), from.y);
            game.play(&[(0, to)]);
        }
        assert!(game.turn() >= 2, "the half-turns advanced the game");
    }
}
