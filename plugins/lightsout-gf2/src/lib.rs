//! `gf2`: Lights Out by linear algebra over GF(2) (`docs/games/lightsout.md`;
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

use agon_sdk::export::{ParamReader, WireBot};
use agon_sdk::lightsout::Analysis;
use agon_sdk::protocol::lightsout::{pack, Answer, LightsOut, Observation, Setup};
use agon_sdk::protocol::{Reply, Start};
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

impl WireBot for Gf2 {
    type Game = LightsOut;
    const PARAMS: &'static [&'static str] = &["max_nullity"];

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
        let board = match agon_sdk::lightsout::convert::board(observation) {
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
        let deadline = Instant::now() + self.search_time;
        let (pattern, proven_minimal, looked) = analysis
            .fewest_clicks(self.max_nullity as usize, &mut || Instant::now() > deadline)
            .expect("solvable");
        let clicks = pack(pattern.rows(), pattern.cols(), |r, c| pattern.get(r, c));
        Reply::new(Answer::Clicks {
            clicks,
            proven_minimal,
        })
        .with_nodes(looked)
    }
}

agon_sdk::export_plugin! {
    team: "An Algorithm for Flip (seed)",
    wire_bots: {
        "gf2" => Gf2: "minimum-click solution by GF(2) elimination and a null-space search",
    },
}
