//! The seed report's four evaluation functions (rules file, "The seed's agents"), always from
//! the searching player's point of view.

use agon_sdk::breakthrough::{Position, Side, Square};
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use std::str::FromStr;

/// The score of a won position for the two improved heuristics, before the depth adjustment.
/// The seed report calls it `maxScore` without a value; any value above the largest
/// non-terminal score (under 200 on an 8x8 board) keeps wins and losses outside that range.
pub const MAX_SCORE: f64 = 1000.0;

/// The constant of Offensive Heuristic 1: `2 * (30 - opponent pieces remaining)` (rules file,
/// "The seed's agents").
const OFFENSIVE_BASE: f64 = 30.0;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Heuristic {
    Defensive1,
    Offensive1,
    Defensive2,
    Offensive2,
}

impl FromStr for Heuristic {
    type Err = ();
    fn from_str(s: &str) -> Result<Heuristic, ()> {
        match s {
            "defensive1" => Ok(Heuristic::Defensive1),
            "offensive1" => Ok(Heuristic::Offensive1),
            "defensive2" => Ok(Heuristic::Defensive2),
            "offensive2" => Ok(Heuristic::Offensive2),
            _ => Err(()),
        }
    }
}

/// A heuristic bound to the searching side and its source of `random()`.
pub struct Evaluator {
    pub heuristic: Heuristic,
    pub me: Side,
    rng: ChaCha8Rng,
    /// The seed's `random()` term; off only in tests that compare searches exactly.
    noise: bool,
}

impl Evaluator {
    pub fn new(heuristic: Heuristic, me: Side, rng: ChaCha8Rng) -> Evaluator {
        Evaluator {
            heuristic,
            me,
            rng,
            noise: true,
        }
    }

    pub fn without_noise(mut self) -> Evaluator {
        self.noise = false;
        self
    }

    fn random(&mut self) -> f64 {
        if self.noise {
            self.rng.random::<f64>()
        } else {
            0.0
        }
    }

    /// The value of `position`, reached `ply` plies below the search root.
    pub fn evaluate(&mut self, position: &Position, ply: u32) -> f64 {
        let me = self.me;
        let them = me.opponent();
        let own = position.workers(me) as f64;
        let opponents = position.workers(them) as f64;
        match self.heuristic {
            // 2 * (own pieces remaining) + random()
            Heuristic::Defensive1 => 2.0 * own + self.random(),
            // 2 * (30 - opponent pieces remaining) + random()
            Heuristic::Offensive1 => 2.0 * (OFFENSIVE_BASE - opponents) + self.random(),
            Heuristic::Defensive2 | Heuristic::Offensive2 => {
                if let Some(outcome) = position.outcome() {
                    // Wins and losses scored +-max adjusted by depth: win sooner, lose later.
                    return match outcome.winner {
                        Some(w) if w == me => MAX_SCORE - ply as f64,
                        Some(_) => -MAX_SCORE + ply as f64,
                        None => 0.0,
                    };
                }
                let depth = ply as f64;
                if self.heuristic == Heuristic::Defensive2 {
                    // Defensive 1 plus the least advanced own worker (keeps a wall), minus the
                    // opponent's Defensive 1.
                    let closest = advances(position, me).min().unwrap_or(0) as f64;
                    let opponent_d1 = 2.0 * opponents + self.random();
                    2.0 * own + self.random() - depth + closest - opponent_d1
                } else {
                    // Capture weight 3 instead of 2, twice the farthest worker's (advance * 2 +
                    // column), minus the opponent's Offensive 1.
                    let farthest = farthest_term(position, me) as f64;
                    let opponent_o1 = 2.0 * (OFFENSIVE_BASE - own) + self.random();
                    3.0 * (OFFENSIVE_BASE - opponents) + self.random() - depth + 2.0 * farthest
                        - opponent_o1
                }
            }
        }
    }
}

/// How far a worker of `side` on `square` has come from its own back row.
fn advance(rows: u8, side: Side, square: Square) -> u32 {
    match side {
        Side::White => square.row as u32,
        Side::Black => (rows - 1 - square.row) as u32,
    }
}

/// The advance of each of `side`'s workers.
fn advances(position: &Position, side: Side) -> impl Iterator<Item = u32> + '_ {
    let rows = position.config().rows;
    position
        .pieces()
        .filter(move |(_, s)| *s == side)
        .map(move |(square, _)| advance(rows, side, square))
}

/// The seed's `getFarthestPiece(.., isOffensive)`: the largest `advance * 2 + column`.
fn farthest_term(position: &Position, side: Side) -> u32 {
    let rows = position.config().rows;
    position
        .pieces()
        .filter(|(_, s)| *s == side)
        .map(|(square, _)| advance(rows, side, square) * 2 + square.col as u32)
        .max()
        .unwrap_or(0)
}
