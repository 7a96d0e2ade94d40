//! One line of a tournament's journal: a finished game of the plan, its seats named by entrant.

use agon_engine::MatchRecord;
use agon_engine::SeedSecret;
use agon_play::journal::{GameResult, GameTime, JournalEntry, REJECTED};
use serde::{Deserialize, Serialize};
use std::path::Path;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Entry {
    pub id: String,
    pub param_set: usize,
    pub seed: u64,
    /// The secret the seat seeds were derived under (see `agon_engine::seed`); none for a game
    /// not played (a forfeit) or journalled before secrets existed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed_secret: Option<SeedSecret>,
    /// Entrant index per seat.
    pub seats: Vec<usize>,
    pub names: Vec<String>,
    pub sha256: Vec<String>,
    #[serde(flatten)]
    pub result: GameResult,
    /// Each seat's mean time per move (ms). Not used in grading.
    pub ms_per_move: Vec<f64>,
    /// Search nodes each seat reported (puzzles: attempted assignments).
    #[serde(default)]
    pub nodes: Vec<Option<u64>>,
}

impl Entry {
    /// The entry of game `id`, played by `seats` (entrant indices) named `names`.
    pub fn new(
        id: &str,
        param_set: usize,
        seats: &[usize],
        names: Vec<String>,
        record: &MatchRecord,
        time: GameTime,
    ) -> Entry {
        Entry {
            id: id.to_string(),
            param_set,
            seed: record.seed,
            seed_secret: record.seed_secret,
            seats: seats.to_vec(),
            names,
            sha256: record.seats.iter().map(|s| s.sha256.clone()).collect(),
            result: GameResult::of_record(record, time),
            ms_per_move: record.metrics.iter().map(|m| m.time_per_move_ms).collect(),
            nodes: record.metrics.iter().map(|m| m.nodes).collect(),
        }
    }
}

#[cfg(test)]
impl Entry {
    /// A drawn one-move game `id` of entrants 0 and 1 (`a`, `b`), with `faults`: for tests.
    pub(crate) fn drawn(id: &str, faults: Vec<agon_play::journal::JournalFault>) -> Entry {
        Entry {
            id: id.into(),
            param_set: 0,
            seed: 1,
            seed_secret: None,
            seats: vec![0, 1],
            names: vec!["a".into(), "b".into()],
            sha256: vec![String::new(); 2],
            result: GameResult {
                winner: None,
                scores: vec![0.5, 0.5],
                ranks: Vec::new(),
                game_scores: vec![0.0, 0.0],
                termination: agon_games::contract::Termination::Rules,
                reason: "draw".into(),
                moves: 1,
                faults,
                game_ms: 1.0,
                cpu_pressure: None,
                cpu_wait_ms: None,
                replayed: Vec::new(),
            },
            ms_per_move: vec![0.0; 2],
            nodes: Vec::new(),
        }
    }
}

impl JournalEntry for Entry {
    type Refusal = crate::NotOfThePlan;

    fn repair_hint(dir: &Path) -> String {
        format!(
            "`agon tournament repair {}` moves damaged lines to {REJECTED}, and `resume` plays \
             those games again",
            dir.display()
        )
    }
}
