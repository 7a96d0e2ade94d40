//! {{team}}'s ReversiXT bot. `play` is called once per move with the rules' position;
//! answer one of its legal moves.

use agon_sdk::reversixt::{Move, Position, RandomBot, ReversiXt};
use agon_sdk::{Bot, Turn};

/// Looks one move ahead: the move after which it ranks best (most stones).
#[derive(Default)]
pub struct MyBot;

impl Bot for MyBot {
    type Game = ReversiXt;

    fn play(&mut self, position: &Position, turn: &mut Turn<'_, ReversiXt>) -> Move {
        let me = turn.observation().you;
        let rank_after = |m: Move| {
            let mut next = position.clone();
            match next.play(me, m) {
                Ok(()) => next.ranks()[me as usize - 1],
                Err(_) => usize::MAX,
            }
        };
        let moves = position.legal_moves();
        let best = moves.iter().copied().min_by_key(|&m| rank_after(m));
        best.expect("the engine asks only when a move exists")
    }
}

agon_sdk::export_plugin! {
    team: {{team_literal}},
    bots: {
        "{{bot}}" => MyBot: "the move after which it ranks best",
        "random" => RandomBot: "the SDK's sparring partner" [hidden],
    },
}
