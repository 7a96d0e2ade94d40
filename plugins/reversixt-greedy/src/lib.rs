//! `greedy`: the move after which it holds the most stones; ties go to the move that leaves the
//! others the fewest stones, then to the first in board order. In the bombing phase the same
//! rule picks the bomb that costs it least and the rivals most.

use agon_sdk::export::WireBot;
use agon_sdk::protocol::reversixt::{Move, Observation, ReversiXt};
use agon_sdk::protocol::Reply;
use agon_sdk::reversixt::convert::position;
use agon_sdk::reversixt::{Move as RulesMove, Position};

#[derive(Default)]
pub struct Greedy;

/// The greedy choice for the player to move; `None` when it has no move.
fn greedy_move(position: &Position) -> Option<RulesMove> {
    let me = position.to_move;
    let mut best: Option<((usize, std::cmp::Reverse<usize>), RulesMove)> = None;
    for m in position.legal_moves() {
        let mut after = position.clone();
        if after.play(me, m).is_err() {
            continue;
        }
        let stones = after.map.stones();
        let own = stones[me as usize - 1];
        let others: usize = stones.iter().sum::<usize>() - own;
        let key = (own, std::cmp::Reverse(others));
        if best.as_ref().is_none_or(|(k, _)| key > *k) {
            best = Some((key, m));
        }
    }
    best.map(|(_, m)| m)
}

impl WireBot for Greedy {
    type Game = ReversiXt;

    fn act(&mut self, observation: &Observation) -> Reply<Move> {
        let position = position(observation).expect("the engine sends valid boards");
        let m = greedy_move(&position).expect("a player is only asked when it has a move");
        Reply::new(m.into())
    }
}

agon_sdk::export_plugin! {
    team: "Agon staff",
    wire_bots: { "greedy" => Greedy: "the move after which it holds the most stones" },
}
