//! `gf2`: Lights Out by linear algebra over GF(2) (`shared/rules/puzzles.md`, "Lights Out";
//! the seed paper "An Algorithm for Flip").
//!
//! Light chasing reduces the board to `min(rows, cols)` unknowns (see
//! `agon_games::lightsout::algebra`); one solution plus the null space give every solution.
//! The bot answers the one with the fewest clicks: it walks all `2^nullity` solutions in Gray
//! code order (one XOR and a popcount per step) when `nullity <= 24`, and otherwise as many as
//! its time allows, saying so. An unsolvable board is answered with the proof: a click pattern
//! that toggles nothing yet covers an odd number of black cells.
//!
//! Parameter: `max_nullity` (default 24), the largest null space searched completely.

use agon_plugin_api::games::lightsout::{Analysis, Board};
use agon_plugin_api::protocol::lightsout::{Answer, Click, LightsOut, Observation, Setup};
use agon_plugin_api::protocol::{Reply, Start};
use agon_plugin_api::sdk::{Bot, ParamReader};
use std::time::{Duration, Instant};

const DEFAULT_MAX_NULLITY: u32 = 24;

pub struct Gf2 {
    max_nullity: u32,
    /// Time the search for fewer clicks may take: half the move budget, at most 2 s.
    search_time: Duration,
}

impl Default for Gf2 {
    fn default() -> Gf2 {
        Gf2 {
            max_nullity: DEFAULT_MAX_NULLITY,
            search_time: Duration::from_secs(2),
        }
    }
}

/// A click pattern as one flat bit string (rows padded to whole words).
fn flat(pattern: &Board) -> Vec<u64> {
    (0..pattern.rows())
        .flat_map(|r| pattern.row(r).words().to_vec())
        .collect()
}

fn board(observation: &Observation) -> Result<Board, String> {
    let (rows, cols) = (observation.rows as usize, observation.cols as usize);
    if rows == 0 || cols == 0 || observation.black.len() != rows * cols {
        return Err(format!(
            "{} cells for a {rows} x {cols} board",
            observation.black.len()
        ));
    }
    let mut board = Board::new(rows, cols);
    for (i, &black) in observation.black.iter().enumerate() {
        if black {
            board.set(i / cols, i % cols, true);
        }
    }
    Ok(board)
}

impl Gf2 {
    /// The fewest-click solution: exhaustive over the null space when it is small enough, else
    /// the best within the time; `true` when proven minimal.
    fn fewest_clicks(&self, analysis: &Analysis) -> (Board, bool) {
        let first = analysis.solution().expect("solvable");
        let basis = analysis.null_patterns();
        if basis.is_empty() {
            return (first, true);
        }
        let (rows, cols) = (first.rows(), first.cols());
        let words_per_row = first.row(0).words().len();
        let mut current = flat(&first);
        let null: Vec<Vec<u64>> = basis.iter().map(flat).collect();
        let count = |v: &[u64]| v.iter().map(|w| w.count_ones() as u64).sum::<u64>();
        let (mut best, mut best_clicks) = (current.clone(), count(&current));
        let exhaustive = basis.len() as u32 <= self.max_nullity;
        let deadline = Instant::now() + self.search_time;
        let steps: u64 = if exhaustive {
            1 << basis.len()
        } else {
            u64::MAX
        };
        let mut proven = exhaustive;
        for step in 1..steps {
            // Gray code: step i flips the basis vector of its lowest set bit.
            let flip = step.trailing_zeros() as usize;
            if flip >= null.len() {
                break;
            }
            for (a, b) in current.iter_mut().zip(&null[flip]) {
                *a ^= b;
            }
            let clicks = count(&current);
            if clicks < best_clicks {
                best_clicks = clicks;
                best.clone_from(&current);
            }
            if step % 4096 == 0 && Instant::now() > deadline {
                proven = false;
                break;
            }
        }
        let mut pattern = Board::new(rows, cols);
        for r in 0..rows {
            for c in 0..cols {
                let word = best[r * words_per_row + c / 64];
                if word >> (c % 64) & 1 == 1 {
                    pattern.set(r, c, true);
                }
            }
        }
        (pattern, proven)
    }
}

impl Bot for Gf2 {
    type Game = LightsOut;

    fn start(&mut self, start: &Start<Setup>) -> Result<(), String> {
        let mut reader = ParamReader::new(&start.bot_params);
        self.max_nullity = reader
            .get(
                "max_nullity",
                "a null-space dimension from 0 to 40",
                DEFAULT_MAX_NULLITY,
            )
            .map_err(|e| e.to_string())?;
        if self.max_nullity > 40 {
            return Err(format!("max_nullity {} is above 40", self.max_nullity));
        }
        reader.finish().map_err(|e| e.to_string())?;
        if start.move_budget_ms > 0 {
            self.search_time =
                Duration::from_millis(start.move_budget_ms / 2).min(self.search_time);
        }
        Ok(())
    }

    fn act(&mut self, observation: &Observation) -> Reply<Answer> {
        let board = match board(observation) {
            Ok(b) => b,
            Err(e) => {
                return Reply::new(Answer::Unsolvable {
                    reason: format!("unreadable board: {e}"),
                })
            }
        };
        let analysis = Analysis::new(&board);
        if !analysis.solvable() {
            let reason = match analysis.obstruction(&board) {
                Some(z) => {
                    let overlap = board
                        .cells()
                        .iter()
                        .filter(|c| z.get(c.row as usize, c.col as usize))
                        .count();
                    format!(
                        "clicking the {} cells of a null pattern (first at row {}, column {}) \
                         toggles nothing, and that pattern covers {overlap} black cells, an odd \
                         number; every sequence of clicks keeps that parity, so the board never \
                         clears (nullity {})",
                        z.black_cells(),
                        z.cells()[0].row,
                        z.cells()[0].col,
                        analysis.nullity()
                    )
                }
                None => "the board is outside the column space of the click matrix".into(),
            };
            return Reply::new(Answer::Unsolvable { reason });
        }
        let (pattern, proven_minimal) = self.fewest_clicks(&analysis);
        let clicks = pattern
            .cells()
            .into_iter()
            .map(|c| Click {
                row: c.row,
                col: c.col,
            })
            .collect();
        Reply::new(Answer::Clicks {
            clicks,
            proven_minimal,
        })
        .with_nodes(1u64 << analysis.nullity().min(63))
    }
}

agon_plugin_api::export_plugin! {
    team: "An Algorithm for Flip (seed)",
    bots: {
        "gf2" => Gf2: "minimum-click solution by GF(2) elimination and a null-space search",
    },
}
