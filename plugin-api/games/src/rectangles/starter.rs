//! {{team}}'s Rectangles bot. `play` is called once per round with the rules' game: answer
//! your robots' start cells in round 0, then one direction per robot.

use agon_sdk::rectangles::{Action, Cell, Direction, RandomBot, Rectangles, RectanglesGame};
use agon_sdk::{Bot, Turn};

/// Each robot walks the outline of a square, over and over, to claim its inside.
#[derive(Default)]
pub struct MyBot;

/// The side of each robot's square, in steps.
const SIDE: u32 = 4;

impl Bot for MyBot {
    type Game = Rectangles;

    fn play(&mut self, game: &RectanglesGame, turn: &mut Turn<'_, Rectangles>) -> Action {
        let setup = turn.setup();
        let (n, robots) = (setup.n, setup.robots);
        if game.round() == 0 {
            // Spread along the main diagonal, leaving room for each square.
            let spacing = (n.saturating_sub(SIDE as u16 + 1) / robots.max(1)).max(1);
            let cells = (0..robots)
                .map(|i| {
                    let at = (i * spacing).min(n - 1);
                    Cell { row: at, col: at }
                })
                .collect();
            return Action::Place(cells);
        }
        // East, south, west, north: SIDE steps each.
        let leg = [Direction::East, Direction::South, Direction::West, Direction::North];
        let step = (game.round() - 1) / SIDE % 4;
        Action::Move(vec![leg[step as usize]; robots as usize])
    }
}

agon_sdk::export_plugin! {
    team: {{team_literal}},
    bots: {
        "{{bot}}" => MyBot: "every robot walks a square's outline",
        "random" => RandomBot: "the SDK's sparring partner" [hidden],
    },
}
