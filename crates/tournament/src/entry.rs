//! One line of a tournament's journal: a finished game of the plan, its seats named by entrant.

use agon_engine::MatchRecord;
use agon_engine::SeedSecret;
use agon_play::journal::{GameResult, JournalEntry, REJECTED};
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
        game_ms: f64,
    ) -> Entry {
        Entry {
            id: id.to_string(),
            param_set,
            seed: record.seed,
            seed_secret: record.seed_secret,
            seats: seats.to_vec(),
            names,
            sha256: record.seats.iter().map(|s| s.sha256.clone()).collect(),
            result: GameResult::of_record(record, game_ms),
            ms_per_move: record.metrics.iter().map(|m| m.time_per_move_ms).collect(),
            nodes: record.metrics.iter().map(|m| m.nodes).collect(),
        }
    }
}

impl JournalEntry for Entry {
    fn repair_hint(dir: &Path) -> String {
        format!(
            "`agon tournament repair {}` moves damaged lines to {REJECTED}, and `resume` plays \
             those games again",
            dir.display()
        )
    }
}
