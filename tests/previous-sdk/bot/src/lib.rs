//! A bot as a team wrote it against agon-plugin-api 0.2.0: it plays the legal move that takes
//! a worker furthest toward the opponent's home row, the last such move on ties.

use agon_plugin_api::breakthrough::{Breakthrough, Move, Position, Side};
use agon_plugin_api::{Bot, Turn};

#[derive(Default)]
pub struct Runner;

impl Bot for Runner {
    type Game = Breakthrough;

    fn play(&mut self, position: &Position, _turn: &mut Turn<'_, Breakthrough>) -> Move {
        let white = position.to_move() == Side::White;
        let progress = |m: &Move| if white { m.to.row } else { u8::MAX - m.to.row };
        position
            .legal_moves()
            .into_iter()
            .max_by_key(progress)
            .expect("the engine asks only when a move exists")
    }
}

agon_plugin_api::export_plugin! {
    team: "Previous release",
    bots: {
        "runner" => Runner: "runs its furthest worker forward",
    },
}
