//! `army` (the 2002 "Army", `docs/games/rectangles.md`, "The seed's vocabulary"): the robots
//! keep a formation and sweep parallel lines across the board, first rows, then columns, so the
//! lines grid the board and the columns close rectangles as they cross the rows. Every full
//! sweep shifts the lines by half their spacing, so the next grid cuts what is left.

use agon_sdk::export::WireBot;
use agon_sdk::protocol::rectangles::{Action, Cell, Direction, Observation, Rectangles, Setup};
use agon_sdk::protocol::{Reply, Start};

#[derive(Default)]
pub struct Army {
    n: usize,
    robots: usize,
    you: usize,
    /// Sweeps done: even ones run along rows, odd ones along columns.
    sweep: usize,
    /// Whether the robots are on their way to the start of the sweep (else sweeping).
    forming: bool,
}

impl Army {
    /// The lines of a sweep: `robots` of them spread over the board, offset on later sweeps.
    fn line(&self, k: usize) -> usize {
        let b = self.robots.max(1);
        let spacing = (self.n - 1) as f64 / b.max(2).saturating_sub(1) as f64;
        let shift = if (self.sweep / 2) % 2 == 1 {
            spacing / 2.0
        } else {
            0.0
        };
        let at = if b == 1 {
            (self.n - 1) as f64 / 2.0
        } else {
            k as f64 * spacing + shift
        };
        (at.round() as usize).min(self.n - 1)
    }

    /// Where robot `k` starts the current sweep, and where it ends it.
    fn ends(&self, k: usize) -> (Cell, Cell) {
        let line = self.line(k);
        let far = self.n - 1;
        // Sweeps alternate their direction so that the robots start where they are.
        let forward = (self.sweep / 2).is_multiple_of(2);
        let (a, b) = if forward { (0, far) } else { (far, 0) };
        if self.sweep.is_multiple_of(2) {
            (Cell::new(line, a), Cell::new(line, b))
        } else {
            (Cell::new(a, line), Cell::new(b, line))
        }
    }
}

impl WireBot for Army {
    type Game = Rectangles;

    fn start(&mut self, start: &Start<Setup>) -> Result<(), String> {
        self.n = start.game.n as usize;
        self.robots = start.game.robots as usize;
        self.you = start.game.you as usize;
        Ok(())
    }

    fn act(&mut self, observation: &Observation) -> Reply<Action> {
        if observation.round == 0 {
            return Reply::new(Action::Place(
                (0..self.robots).map(|k| self.ends(k).0).collect(),
            ));
        }
        let Some(mine) = observation.robots.get(self.you) else {
            return Reply::new(Action::Move(vec![Direction::Stay; self.robots]));
        };
        let target = |army: &Army, k: usize| {
            let (from, to) = army.ends(k);
            if army.forming {
                from
            } else {
                to
            }
        };
        // The formation moves on when every robot is where the stage wants it.
        if mine.iter().enumerate().all(|(k, &c)| c == target(self, k)) {
            if self.forming {
                self.forming = false;
            } else {
                self.sweep += 1;
                self.forming = true;
            }
        }
        let moves = mine
            .iter()
            .enumerate()
            .map(|(k, &c)| c.step_toward(target(self, k)))
            .collect();
        Reply::new(Action::Move(moves))
    }
}

agon_sdk::export_plugin! {
    team: "Agon staff",
    wire_bots: { "army" => Army: "a formation sweeping parallel rows, then columns, gridding the board" },
}
