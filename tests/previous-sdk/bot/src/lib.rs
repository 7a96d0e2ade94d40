//! A bot as a team wrote it against agon-plugin-api 0.2.0 (the SDK's own example): it captures
//! when it can and moves at random otherwise.

use agon_plugin_api::breakthrough::{Breakthrough, Move, Position};
use agon_plugin_api::rand::seq::IndexedRandom;
use agon_plugin_api::{Bot, Turn};

#[derive(Default)]
pub struct Capturer;

impl Bot for Capturer {
    type Game = Breakthrough;

    fn play(&mut self, position: &Position, turn: &mut Turn<'_, Breakthrough>) -> Move {
        let moves = position.legal_moves();
        let captures: Vec<Move> = moves
            .iter()
            .copied()
            .filter(|m| position.piece_at(m.to).is_some())
            .collect();
        let pool = if captures.is_empty() { &moves } else { &captures };
        *pool
            .choose(turn.rng())
            .expect("the engine asks only when a move exists")
    }
}

agon_plugin_api::export_plugin! {
    team: "Previous release",
    bots: {
        "capturer" => Capturer: "captures when it can, else moves at random",
    },
}
