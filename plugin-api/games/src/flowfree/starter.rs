//! {{team}}'s Flow Free solver. `play` is called once with the rules' puzzle: answer every
//! cell's letter, or give up.

use agon_sdk::flowfree::{verify, Answer, FlowFree, Puzzle};
use agon_sdk::{Bot, Turn};

/// Fills each empty cell with the letter of the nearest source, and answers that if the
/// engine's own check accepts it; else gives up. Replace with a real search.
#[derive(Default)]
pub struct MyBot;

impl Bot for MyBot {
    type Game = FlowFree;

    fn play(&mut self, puzzle: &Puzzle, _turn: &mut Turn<'_, FlowFree>) -> Answer {
        let cols = puzzle.cols();
        let sources: Vec<(usize, u8)> = puzzle
            .cells()
            .iter()
            .enumerate()
            .filter_map(|(i, c)| c.map(|letter| (i, letter)))
            .collect();
        let distance = |a: usize, b: usize| (a / cols).abs_diff(b / cols) + (a % cols).abs_diff(b % cols);
        let cells: Vec<u8> = (0..puzzle.cells().len())
            .map(|i| {
                let nearest = sources.iter().min_by_key(|(at, _)| distance(i, *at));
                nearest.map_or(b'_', |(_, letter)| *letter)
            })
            .collect();
        match verify(puzzle, &cells) {
            Ok(()) => Answer::Solved { cells },
            Err(why) => Answer::GaveUp { reason: format!("no solution yet ({why})") },
        }
    }
}

agon_sdk::export_plugin! {
    team: {{team_literal}},
    bots: {
        "{{bot}}" => MyBot: "nearest source, checked with the rules",
    },
}
