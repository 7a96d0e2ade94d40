//! {{team}}'s Lights Out solver. `play` is called once with the rules' board: answer the
//! cells to click, or that no clicks clear it.

use agon_sdk::lightsout::{pack, Analysis, Answer, Board, LightsOut};
use agon_sdk::{Bot, Turn};

/// Solves with the engine's own linear algebra over GF(2) (any solution, not the fewest
/// clicks: try `Analysis::fewest_clicks` next).
#[derive(Default)]
pub struct MyBot;

impl Bot for MyBot {
    type Game = LightsOut;

    fn play(&mut self, board: &Board, _turn: &mut Turn<'_, LightsOut>) -> Answer {
        match Analysis::new(board).solution() {
            Some(clicks) => Answer::Clicks {
                clicks: pack(clicks.rows(), clicks.cols(), |r, c| clicks.get(r, c)),
                proven_minimal: false,
            },
            None => Answer::Unsolvable {
                reason: "the board is outside the span of the clicks".into(),
            },
        }
    }
}

agon_sdk::export_plugin! {
    team: {{team_literal}},
    bots: {
        "{{bot}}" => MyBot: "any solution, by linear algebra",
    },
}
