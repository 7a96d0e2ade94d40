//! `greedy`: straight ahead. Each move takes the most advanced coin not yet home and flips it
//! straight toward the target; when that is blocked, the smallest deviation (1-degree steps, up
//! to 90 degrees either way) that is valid; a coin that cannot move gives way to the next.

use agon_sdk::export::WireBot;
use agon_sdk::flip::convert::table;
use agon_sdk::flip::{Player, Point, Table};
use agon_sdk::protocol::flip::{Flip, FlipMove, Observation};
use agon_sdk::protocol::Reply;

#[derive(Default)]
pub struct Greedy;

/// How far `p` still is from `me`'s target third (0 when home).
fn to_go(me: Player, p: Point) -> f64 {
    match me {
        Player::One => (p.x - (-21.0)).max(0.0),
        Player::Two => (21.0 - p.x).max(0.0),
    }
}

/// The smallest valid deviation from straight ahead for coin `id`, if any.
pub fn straightest(board: &Table, me: Player, id: u32) -> Option<Point> {
    let from = board.coins(me)[id as usize];
    for step in 0..=90 {
        for sign in [1.0, -1.0] {
            if step == 0 && sign < 0.0 {
                continue;
            }
            let angle = (sign * step as f64).to_radians();
            let to = Point::new(
                from.x + 2.0 * me.forward() * angle.cos(),
                from.y + 2.0 * angle.sin(),
            );
            if board.validate(me, id, to).is_ok() {
                return Some(to);
            }
        }
    }
    None
}

impl WireBot for Greedy {
    type Game = Flip;

    fn act(&mut self, observation: &Observation) -> Reply<Vec<FlipMove>> {
        let me: Player = observation.you.into();
        let mut board = table(observation);
        let mut moves = Vec::new();
        for _ in 0..observation.moves_allowed {
            let mut order: Vec<u32> = (0..observation.n)
                .filter(|&id| !Table::in_target(me, board.coins(me)[id as usize]))
                .collect();
            order.sort_by(|&a, &b| {
                to_go(me, board.coins(me)[a as usize])
                    .total_cmp(&to_go(me, board.coins(me)[b as usize]))
            });
            let chosen = order
                .iter()
                .find_map(|&id| straightest(&board, me, id).map(|to| (id, to)));
            let Some((id, to)) = chosen else { break };
            board.move_coin(me, id, to).expect("checked");
            moves.push(FlipMove {
                id,
                x: to.x,
                y: to.y,
            });
        }
        Reply::new(moves)
    }
}

agon_sdk::export_plugin! {
    team: "Agon staff",
    wire_bots: { "greedy" => Greedy: "the most advanced coin straight ahead, else the smallest valid deviation" },
}
