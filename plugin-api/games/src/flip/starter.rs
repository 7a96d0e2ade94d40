//! {{team}}'s Flip bot. `play` is called once per turn with the rules' table; answer up to
//! `moves_allowed` coin moves, each checked with the rules first.

use agon_sdk::flip::{Flip, FlipMove, Player, Point, RandomBot, Table};
use agon_sdk::{Bot, Turn};

/// Moves its rearmost coins straight ahead, the furthest behind first.
#[derive(Default)]
pub struct MyBot;

impl Bot for MyBot {
    type Game = Flip;

    fn play(&mut self, table: &Table, turn: &mut Turn<'_, Flip>) -> Vec<FlipMove> {
        let me: Player = turn.observation().you.into();
        let mut table = table.clone();
        let mut coins: Vec<u32> = (0..table.coins(me).len() as u32).collect();
        // Furthest from the goal first: smallest progress along my forward direction.
        coins.sort_by(|&a, &b| {
            let progress = |id: u32| table.coins(me)[id as usize].x * me.forward();
            progress(a).total_cmp(&progress(b))
        });
        let mut moves = Vec::new();
        for id in coins {
            if moves.len() == turn.observation().moves_allowed as usize {
                break;
            }
            let from = table.coins(me)[id as usize];
            let to = Point::new(from.x + 2.0 * me.forward(), from.y);
            if table.move_coin(me, id, to).is_ok() {
                moves.push(FlipMove { id, x: to.x, y: to.y });
            }
        }
        moves
    }
}

agon_sdk::export_plugin! {
    team: {{team_literal}},
    bots: {
        "{{bot}}" => MyBot: "moves its rearmost coins straight ahead",
        "random" => RandomBot: "the SDK's sparring partner" [hidden],
    },
}
