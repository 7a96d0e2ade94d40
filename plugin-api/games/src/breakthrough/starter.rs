//! {{team}}'s Breakthrough bot. `play` is called once per move with the rules' position;
//! answer one of its legal moves.

use agon_sdk::breakthrough::{Breakthrough, Move, Position, RandomBot};
use agon_sdk::rand::seq::IndexedRandom;
use agon_sdk::{Bot, Turn};

/// Captures when it can, else moves at random.
#[derive(Default)]
pub struct MyBot;

impl Bot for MyBot {
    type Game = Breakthrough;

    fn play(&mut self, position: &Position, turn: &mut Turn<'_, Breakthrough>) -> Move {
        let moves = position.legal_moves();
        let captures: Vec<Move> = moves
            .iter()
            .copied()
            .filter(|m| position.piece_at(m.to).is_some())
            .collect();
        let pool = if captures.is_empty() { &moves } else { &captures };
        *pool.choose(turn.rng()).expect("the engine asks only when a move exists")
    }
}

agon_sdk::export_plugin! {
    team: {{team_literal}},
    bots: {
        "{{bot}}" => MyBot: "captures when it can, else moves at random",
        "random" => RandomBot: "the SDK's sparring partner" [hidden],
    },
}
