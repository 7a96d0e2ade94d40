//! The match record (JSON): everything needed to know who played, what happened, and to replay
//! the game with the rules (docs/architecture.md, "Records and determinism").

use crate::fault::Fault;
use crate::host::sandbox::SandboxReport;
use crate::host::{Clock, HostKind};
use crate::input_file::{limits, Input};
use crate::seed::SeedSecret;
use agon_games::contract::{FaultPolicy, Outcome, RawParams};
use serde::{Deserialize, Serialize};
use std::path::Path;

/// Bumped when the record's shape changes incompatibly.
pub const RECORD_FORMAT: u32 = 1;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MatchRecord {
    pub format: u32,
    /// The engine version that played the match.
    pub engine: String,
    pub game: String,
    pub protocol_version: u32,
    /// Every game parameter in effect (defaults filled in).
    pub params: RawParams,
    pub seed: u64,
    /// The key of the seat seeds' derivation (absent in records made before it existed): with
    /// `seed` it reproduces every seat's seed (`agon match --seed N --seed-secret S`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed_secret: Option<SeedSecret>,
    pub host: HostKind,
    pub budgets: Budgets,
    pub fault_policy: FaultPolicy,
    pub seats: Vec<SeatRecord>,
    /// `winner`, `scores`, `termination` and `reason`.
    #[serde(flatten)]
    pub outcome: Outcome,
    /// Each seat's score in the game's own terms (Breakthrough: workers captured).
    #[serde(default)]
    pub game_scores: Vec<f64>,
    /// Every applied action, in order.
    pub moves: Vec<MoveRecord>,
    pub faults: Vec<Fault>,
    /// Seats whose host was started again after it died or was killed (under a fault policy
    /// that plays on: `skip`, `skip-stall`, `random-legal`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub restarts: Vec<Restart>,
    pub metrics: Vec<SeatMetrics>,
    pub final_board: String,
}

/// A seat's host started again before the seat's turn at `ply`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Restart {
    pub seat: usize,
    pub ply: u32,
    /// Why the previous host was gone.
    pub reason: String,
}

/// Per-call time budgets; `None`: unlimited (the default).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Budgets {
    pub start_ms: Option<u64>,
    pub move_ms: Option<u64>,
    /// Which clock the budgets count.
    #[serde(default)]
    pub clock: Clock,
}

/// Who sat in a seat.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatRecord {
    pub seat: usize,
    pub bot: String,
    pub bot_params: RawParams,
    pub plugin: String,
    pub plugin_version: String,
    pub team: String,
    /// The plugin file's name as given (not the content-addressed copy).
    pub file: String,
    pub sha256: String,
    /// What the process host's sandbox enforced.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub sandbox: Option<SandboxReport>,
    /// The bot's standard error (process host): its first 48 KiB and its last 16 KiB, with what
    /// lay between counted and dropped.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub stderr: Option<String>,
    /// What the kernel says of the bot's answering thread over the match, where it keeps
    /// scheduler statistics (process and thread hosts). Not used in grading.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub run_queue: Option<RunQueue>,
}

/// The CPU time a bot's answering thread ran, and the time it waited on a run queue for a CPU
/// it wanted (the machine's doing: other tasks, or its cgroup's quota).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunQueue {
    pub ran_us: u64,
    pub waited_us: u64,
}

impl RunQueue {
    /// Both times together (a seat's host and the hosts its restarts replaced).
    pub fn plus(self, other: RunQueue) -> RunQueue {
        RunQueue {
            ran_us: self.ran_us.saturating_add(other.ran_us),
            waited_us: self.waited_us.saturating_add(other.waited_us),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoveRecord {
    pub ply: u32,
    pub seat: usize,
    /// The action in the game's notation.
    pub action: String,
    pub wall_us: u64,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub cpu_us: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub nodes: Option<u64>,
    #[serde(skip_serializing_if = "is_zero", default)]
    pub captures: u32,
    /// Set when the engine chose this action after a fault of the seat (see `faults`).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub forced: Option<Forced>,
    /// Games of simultaneous moves: the round this action belongs to (0 first). The actions of
    /// one round were all chosen on the same position and applied together.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub round: Option<u32>,
}

/// An action the fault policy imposed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Forced {
    /// The turn passed (`skip`).
    Skip,
    /// The engine played a random legal action (`random-legal`).
    RandomLegal,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// Per-seat figures over the applied moves.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SeatMetrics {
    pub seat: usize,
    pub moves: u32,
    pub total_time_ms: f64,
    pub time_per_move_ms: f64,
    pub max_time_ms: f64,
    /// CPU time of the bot's thread; absent where the host cannot measure it.
    pub cpu_per_move_ms: Option<f64>,
    /// Search nodes, where the bot reports them.
    pub nodes: Option<u64>,
    pub nodes_per_move: Option<f64>,
    pub captures: u32,
}

impl SeatMetrics {
    pub fn from_moves(seat: usize, moves: &[MoveRecord]) -> SeatMetrics {
        // The bot's own answers only: forced actions took none of its time.
        let mine: Vec<&MoveRecord> = moves
            .iter()
            .filter(|m| m.seat == seat && m.forced.is_none())
            .collect();
        let n = mine.len() as u32;
        let per_move = |total: f64| if n == 0 { 0.0 } else { total / n as f64 };
        // Saturating: node counts come from bots, and records from files.
        let total_us = mine.iter().fold(0u64, |t, m| t.saturating_add(m.wall_us));
        let cpu = mine
            .iter()
            .try_fold(0u64, |t, m| m.cpu_us.map(|c| t.saturating_add(c)));
        let reported: Vec<u64> = mine.iter().filter_map(|m| m.nodes).collect();
        let nodes =
            (!reported.is_empty()).then(|| reported.iter().fold(0u64, |t, &n| t.saturating_add(n)));
        SeatMetrics {
            seat,
            moves: n,
            total_time_ms: total_us as f64 / 1000.0,
            time_per_move_ms: per_move(total_us as f64 / 1000.0),
            max_time_ms: mine.iter().map(|m| m.wall_us).max().unwrap_or(0) as f64 / 1000.0,
            cpu_per_move_ms: cpu.map(|c| per_move(c as f64 / 1000.0)),
            nodes,
            nodes_per_move: nodes.map(|t| t as f64 / reported.len() as f64),
            captures: mine.iter().fold(0u32, |t, m| t.saturating_add(m.captures)),
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum RecordError {
    #[error("cannot read the record: {0}")]
    Read(#[from] crate::input_file::InputError),
    #[error("{path}: not a match record: {source}")]
    Parse {
        path: String,
        source: serde_json::Error,
    },
    #[error("{path}: record format {found}, this engine reads format {RECORD_FORMAT}")]
    Format { path: String, found: u32 },
}

impl MatchRecord {
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("records serialize")
    }

    /// Writes the record whole or not at all (see [`crate::output_file`]), compact: a
    /// tournament keeps one per game (a 64-ply game took 9.5 KB pretty-printed), and the
    /// programs that read records (`replay`, `view`, merges) do not need the indentation.
    pub fn write(&self, path: &Path) -> std::io::Result<()> {
        let text = serde_json::to_string(self).expect("records serialize") + "\n";
        crate::output_file::replace(path, text.as_bytes())
    }

    pub fn read(path: &Path) -> Result<MatchRecord, RecordError> {
        let name = path.display().to_string();
        let text = Input::new("match record", limits::RECORD).read_text(path)?;
        let value: serde_json::Value =
            serde_json::from_str(&text).map_err(|source| RecordError::Parse {
                path: name.clone(),
                source,
            })?;
        if let Some(found) = value.get("format").and_then(|f| f.as_u64()) {
            if found != RECORD_FORMAT as u64 {
                return Err(RecordError::Format {
                    path: name,
                    found: found as u32,
                });
            }
        }
        serde_json::from_value(value).map_err(|source| RecordError::Parse { path: name, source })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn metrics_saturate_instead_of_overflowing() {
        let mv = |ply| MoveRecord {
            ply,
            seat: 0,
            action: "a2-a3".into(),
            wall_us: u64::MAX,
            cpu_us: Some(u64::MAX),
            nodes: Some(u64::MAX),
            captures: u32::MAX,
            forced: None,
            round: None,
        };
        let m = SeatMetrics::from_moves(0, &[mv(0), mv(1)]);
        assert_eq!(m.nodes, Some(u64::MAX));
        assert_eq!(m.captures, u32::MAX);
        assert_eq!(m.moves, 2);
    }
}
