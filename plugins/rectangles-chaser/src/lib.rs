//! `chaser` (`docs/games/rectangles.md`, "The seed's vocabulary"): each robot follows the
//! nearest enemy robot that no other of its robots follows, to repaint the borders the enemy is
//! drawing (robots of two players on one cell leave it unpainted).

use agon_sdk::export::WireBot;
use agon_sdk::protocol::rectangles::{Action, Cell, Direction, Observation, Rectangles, Setup};
use agon_sdk::protocol::{Reply, Start};

#[derive(Default)]
pub struct Chaser {
    n: usize,
    robots: usize,
    you: usize,
}

impl WireBot for Chaser {
    type Game = Rectangles;

    fn start(&mut self, start: &Start<Setup>) -> Result<(), String> {
        self.n = start.game.n as usize;
        self.robots = start.game.robots as usize;
        self.you = start.game.you as usize;
        Ok(())
    }

    fn act(&mut self, observation: &Observation) -> Reply<Action> {
        if observation.round == 0 {
            // Spread over the board, so every enemy robot has a chaser near it.
            let side = (self.robots as f64).sqrt().ceil() as usize;
            let cells = (0..self.robots)
                .map(|k| {
                    let at = |i: usize| (2 * i + 1) * self.n / (2 * side);
                    Cell::new(at(k / side), at(k % side))
                })
                .collect();
            return Reply::new(Action::Place(cells));
        }
        let Some(mine) = observation.robots.get(self.you) else {
            return Reply::new(Action::Move(vec![Direction::Stay; self.robots]));
        };
        let enemies: Vec<Cell> = observation
            .robots
            .iter()
            .enumerate()
            .filter(|(p, _)| *p != self.you)
            .flat_map(|(_, r)| r.iter().copied())
            .collect();
        // Greedy pairing, closest pairs first: each enemy robot draws one chaser.
        let mut pairs: Vec<(usize, usize, usize)> = mine
            .iter()
            .enumerate()
            .flat_map(|(k, &c)| {
                enemies
                    .iter()
                    .enumerate()
                    .map(move |(e, &t)| (c.distance(t), k, e))
            })
            .collect();
        pairs.sort_unstable();
        let mut target: Vec<Option<Cell>> = vec![None; mine.len()];
        let mut taken = vec![false; enemies.len()];
        for (_, k, e) in pairs {
            if target[k].is_none() && !taken[e] {
                target[k] = Some(enemies[e]);
                taken[e] = true;
            }
        }
        let moves = mine
            .iter()
            .zip(&target)
            .map(|(&c, t)| {
                // Robots left over follow the nearest enemy robot of all.
                let t = t.or_else(|| enemies.iter().copied().min_by_key(|&e| c.distance(e)));
                t.map_or(Direction::Stay, |t| c.step_toward(t))
            })
            .collect();
        Reply::new(Action::Move(moves))
    }
}

agon_sdk::export_plugin! {
    team: "Agon staff",
    wire_bots: { "chaser" => Chaser: "each robot follows the nearest enemy robot to repaint its borders" },
}
