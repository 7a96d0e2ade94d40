//! {{team}}'s Rectangles bot. `play` is called once per round with the rules' game: answer
//! your robots' start cells in round 0, then one direction per robot.

use agon_sdk::rectangles::{Action, Cell, Direction, RandomBot, Rectangles, RectanglesGame};
use agon_sdk::{Bot, Turn};

/// The robots circle the board's edge, spread out along it: once the whole edge is in your
/// colour, the rectangle it outlines claims every unfilled cell inside.
#[derive(Default)]
pub struct MyBot;

impl Bot for MyBot {
    type Game = Rectangles;

    fn play(&mut self, game: &RectanglesGame, turn: &mut Turn<'_, Rectangles>) -> Action {
        let setup = turn.setup();
        let (n, robots) = (usize::from(setup.n).max(2), usize::from(setup.robots).max(1));
        if game.round() == 0 {
            let edge = 4 * (n - 1);
            return Action::Place((0..robots).map(|i| edge_cell(i * edge / robots, n)).collect());
        }
        let mine = &game.robots[usize::from(setup.you)];
        Action::Move(mine.iter().map(|&cell| clockwise(cell, n)).collect())
    }
}

/// The cell `step` steps clockwise along the edge from the North-West corner.
fn edge_cell(step: usize, n: usize) -> Cell {
    let (side, along) = (step / (n - 1), step % (n - 1));
    match side {
        0 => Cell::new(0, along),
        1 => Cell::new(along, n - 1),
        2 => Cell::new(n - 1, n - 1 - along),
        _ => Cell::new(n - 1 - along, 0),
    }
}

/// The next step clockwise along the edge (a robot inside the board heads North to it).
fn clockwise(cell: Cell, n: usize) -> Direction {
    let (row, col, last) = (usize::from(cell.row), usize::from(cell.col), n - 1);
    if row == 0 && col < last {
        Direction::East
    } else if col == last && row < last {
        Direction::South
    } else if row == last && col > 0 {
        Direction::West
    } else {
        Direction::North
    }
}

agon_sdk::export_plugin! {
    team: {{team_literal}},
    bots: {
        "{{bot}}" => MyBot: "every robot circles the board's edge",
        "random" => RandomBot: "the SDK's sparring partner" [hidden],
    },
}
