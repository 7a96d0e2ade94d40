//! How a game ended, as every mode's journal row keeps it, and what that means for one seat.

use agon_engine::FaultCause;
use agon_engine::MatchRecord;
use agon_games::contract::Termination;
use serde::{Deserialize, Serialize};

/// How a game ended, as every journal keeps it (a tournament's `Entry`, a ladder's `LadderGame`):
/// its fields are written into the line beside the journal's own.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GameResult {
    pub winner: Option<usize>,
    pub scores: Vec<f64>,
    /// Games of more than two seats, and every ladder game: each seat's rank (1 best).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ranks: Vec<usize>,
    pub game_scores: Vec<f64>,
    pub termination: Termination,
    pub reason: String,
    pub moves: usize,
    pub faults: Vec<JournalFault>,
    /// Wall time of the game (ms). Not used in grading.
    pub game_ms: f64,
    /// The share (0 to 1) of the game's time during which some task waited for a CPU (see
    /// `agon_engine::cpu_pressure`), where the kernel says. Not used in grading.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cpu_pressure: Option<f64>,
    /// How long (ms) the game's bots, every seat's together, waited for a CPU they wanted
    /// (`agon_engine::RunQueue`), where the kernel says. Not used in grading.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cpu_wait_ms: Option<f64>,
    /// Why earlier attempts at the game were not finished, through nobody's fault among its
    /// bots (the machine starved a bot, a bot's process was stopped or killed from outside).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub replayed: Vec<String>,
}

/// The time a game took, and the load it met.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct GameTime {
    /// Wall time of the match, seating excluded.
    pub game_ms: f64,
    pub cpu_pressure: Option<f64>,
}

impl GameResult {
    /// What `record`, played in `time`, leaves in a journal (its reason cut to 1,000
    /// characters, its faults as [`JournalFault::of_record`] keeps them).
    pub fn of_record(record: &MatchRecord, time: GameTime) -> GameResult {
        GameResult {
            winner: record.outcome.winner,
            scores: record.outcome.scores.clone(),
            ranks: record.outcome.ranks.clone(),
            game_scores: record.game_scores.clone(),
            termination: record.outcome.termination,
            reason: record.outcome.reason.chars().take(1000).collect(),
            moves: record.moves.len(),
            faults: JournalFault::of_record(record),
            game_ms: time.game_ms,
            cpu_pressure: time.cpu_pressure,
            cpu_wait_ms: bots_wait_ms(record),
            replayed: Vec::new(),
        }
    }
}

/// Every seat's wait for a CPU together (ms); `None` when no seat's was measured.
fn bots_wait_ms(record: &MatchRecord) -> Option<f64> {
    let waited_us = record
        .seats
        .iter()
        .filter_map(|seat| Some(seat.run_queue?.waited_us))
        .reduce(u64::saturating_add)?;
    Some(waited_us as f64 / 1000.0)
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct JournalFault {
    pub seat: usize,
    pub cause: FaultCause,
    pub detail: String,
}

impl JournalFault {
    /// The record's faults, each detail cut to 500 characters (the record keeps it whole), and
    /// past the first [`DETAILED_FAULTS`] without a detail: a game under `skip` may fault on
    /// 100,000 turns, and its line must stay well under [`MAX_LINE`] while every fault still
    /// counts in the standings.
    pub fn of_record(record: &MatchRecord) -> Vec<JournalFault> {
        JournalFault::of_faults(&record.faults)
    }

    fn of_faults(faults: &[agon_engine::Fault]) -> Vec<JournalFault> {
        faults
            .iter()
            .enumerate()
            .map(|(i, f)| JournalFault {
                seat: f.seat,
                cause: f.cause,
                detail: if i < DETAILED_FAULTS {
                    f.detail.chars().take(500).collect()
                } else {
                    String::new()
                },
            })
            .collect()
    }
}

/// Faults of a game whose details a journal line keeps (see [`JournalFault::of_record`]).
pub const DETAILED_FAULTS: usize = 200;

/// What a game was for one seat.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    Win,
    Draw,
    Loss,
}

impl GameResult {
    /// A game that ended by the rules with `scores` (and `ranks`, in games of more than two
    /// seats), won by the sole best score, with `reason`; no moves, faults or time. For what
    /// needs a result rather than a game: benchmarks of the journal, tests.
    pub fn by_rules(scores: &[f64], ranks: &[usize], reason: &str) -> GameResult {
        let best = scores.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let leaders: Vec<usize> = (0..scores.len()).filter(|&s| scores[s] == best).collect();
        GameResult {
            winner: (leaders.len() == 1).then(|| leaders[0]),
            scores: scores.to_vec(),
            ranks: ranks.to_vec(),
            game_scores: vec![0.0; scores.len()],
            termination: Termination::Rules,
            reason: reason.to_string(),
            moves: 0,
            faults: Vec::new(),
            game_ms: 0.0,
            cpu_pressure: None,
            cpu_wait_ms: None,
            replayed: Vec::new(),
        }
    }

    /// The points `seat` scored (1 / 0.5 / 0 in two-seat games).
    pub fn points(&self, seat: usize) -> f64 {
        self.scores.get(seat).copied().unwrap_or(0.0)
    }

    /// What the game was for `seat`. With ranks (games of more than two seats, every ladder
    /// game), the sole first rank wins, a shared first draws, any other rank loses; without,
    /// a point wins, a part of one draws and nothing loses.
    pub fn outcome(&self, seat: usize) -> Outcome {
        match self.ranks.get(seat) {
            Some(&rank) => match (rank, self.ranks.iter().filter(|&&r| r == 1).count()) {
                (1, 1) => Outcome::Win,
                (1, _) => Outcome::Draw,
                _ => Outcome::Loss,
            },
            None => match self.points(seat) {
                p if p >= 1.0 => Outcome::Win,
                p if p > 0.0 => Outcome::Draw,
                _ => Outcome::Loss,
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json_lines::MAX_LINE;

    #[test]
    fn a_game_of_many_faults_keeps_every_fault_in_a_bounded_line() {
        let fault = agon_engine::Fault {
            seat: 1,
            phase: agon_engine::Phase::Move,
            ply: 0,
            cause: FaultCause::Timeout,
            detail: "x".repeat(2000),
            wall_us: 0,
            answer: None,
        };
        let faults = JournalFault::of_faults(&vec![fault; 100_000]);
        assert_eq!(faults.len(), 100_000, "every fault counts");
        assert_eq!(faults[0].detail.len(), 500);
        assert!(faults[DETAILED_FAULTS..]
            .iter()
            .all(|f| f.detail.is_empty()));
        let line = serde_json::to_string(&faults).unwrap();
        assert!((line.len() as u64) < MAX_LINE / 2, "{} bytes", line.len());
    }

    fn result(scores: &[f64], ranks: &[usize]) -> GameResult {
        GameResult::by_rules(scores, ranks, "")
    }

    #[test]
    fn outcomes_follow_ranks_when_there_are_ranks_else_points() {
        use Outcome::*;
        let duel = result(&[1.0, 0.0], &[]);
        assert_eq!((duel.outcome(0), duel.outcome(1)), (Win, Loss));
        let drawn = result(&[0.5, 0.5], &[]);
        assert_eq!((drawn.outcome(0), drawn.outcome(1)), (Draw, Draw));
        // Nobody scored (a stalled duel): a loss for both, as the points say.
        let stalled = result(&[0.0, 0.0], &[]);
        assert_eq!((stalled.outcome(0), stalled.outcome(1)), (Loss, Loss));
        let ranked = result(&[0.5, 0.5, 0.0], &[1, 1, 3]);
        assert_eq!(
            (ranked.outcome(0), ranked.outcome(1), ranked.outcome(2)),
            (Draw, Draw, Loss)
        );
        let sole = result(&[0.0, 1.0, 0.0], &[2, 1, 3]);
        assert_eq!(sole.outcome(1), Win);
        assert_eq!((sole.winner, ranked.winner), (Some(1), None));
        assert_eq!(sole.points(1), 1.0);
        assert_eq!(
            sole.points(7),
            0.0,
            "a seat the game does not have scored nothing"
        );
    }
}
