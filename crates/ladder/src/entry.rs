//! One line of a ladder's journal: a finished game, with the build every seat played.

use agon_engine::MatchRecord;
use agon_engine::SeedSecret;
use agon_play::journal::{GameResult, GameTime, JournalEntry};
use agon_play::swap::build::Build;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// The build a seat played.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatBuild {
    /// The slot: the plugin's file name in the watched folder.
    pub slot: String,
    /// The slot's build number (1 for its first build).
    pub version: u32,
    /// The team its plugin names (empty in journals written before it was kept).
    #[serde(default)]
    pub team: String,
    pub bot: String,
    /// The version the plugin's manifest states.
    pub plugin_version: String,
    pub sha256: String,
}

impl SeatBuild {
    /// What the journal keeps of the build a seat plays.
    pub fn of(build: &Build) -> SeatBuild {
        SeatBuild {
            slot: build.slot.clone(),
            version: build.version,
            team: build.team.clone(),
            bot: build.bot_text(),
            plugin_version: build.plugin_version.clone(),
            sha256: build.sha256.clone(),
        }
    }

    /// Who played the seat, as pages name it: the team, or the slot (its file name) when the
    /// journal line predates team names.
    pub fn team_or_slot(&self) -> &str {
        if self.team.is_empty() {
            &self.slot
        } else {
            &self.team
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LadderGame {
    /// `game-N`, also the record's file name in `records/`.
    pub id: String,
    pub number: u64,
    pub seed: u64,
    /// The secret the seat seeds were derived under (see `agon_engine::seed`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed_secret: Option<SeedSecret>,
    pub seats: Vec<SeatBuild>,
    /// Its ranks always present: every seat's, 1 best, ties sharing the better rank.
    #[serde(flatten)]
    pub result: GameResult,
    /// When the game's seats were taken and when it ended (milliseconds since the Unix epoch).
    pub started_unix_ms: u64,
    pub finished_unix_ms: u64,
}

impl JournalEntry for LadderGame {
    type Refusal = NotALadderGame;

    fn repair_hint(dir: &Path) -> String {
        format!(
            "move that line out of {}/journal.jsonl (the ladder's ratings are rebuilt from the \
             remaining games when it continues)",
            dir.display()
        )
    }
}

impl LadderGame {
    pub fn new(
        number: u64,
        seats: Vec<SeatBuild>,
        record: &MatchRecord,
        time: GameTime,
        (started_unix_ms, finished_unix_ms): (u64, u64),
    ) -> LadderGame {
        LadderGame {
            id: id(number),
            number,
            seed: record.seed,
            seed_secret: record.seed_secret,
            seats,
            result: GameResult {
                ranks: ranks(&record.outcome.ranks, &record.outcome.scores),
                ..GameResult::of_record(record, time)
            },
            started_unix_ms,
            finished_unix_ms,
        }
    }

    /// A line that parses but could not have been written by a ladder is damage too.
    pub fn check(&self) -> Result<(), NotALadderGame> {
        let seats = self.seats.len();
        let result = &self.result;
        if seats == 0 {
            return Err(NotALadderGame::NoSeats);
        }
        if result.scores.len() != seats || result.ranks.len() != seats {
            return Err(NotALadderGame::Lengths {
                seats,
                scores: result.scores.len(),
                ranks: result.ranks.len(),
            });
        }
        if result.ranks.iter().any(|&r| r == 0 || r > seats) {
            return Err(NotALadderGame::Ranks {
                ranks: result.ranks.clone(),
                seats,
            });
        }
        if result.faults.iter().any(|f| f.seat >= seats) {
            return Err(NotALadderGame::FaultBeyondSeats);
        }
        if self.seats.iter().any(|s| s.version == 0) {
            return Err(NotALadderGame::BuildZero);
        }
        for (i, seat) in self.seats.iter().enumerate() {
            if self.seats[..i].iter().any(|other| other.slot == seat.slot) {
                return Err(NotALadderGame::SlotTwice(seat.slot.clone()));
            }
        }
        Ok(())
    }
}

/// Why a journal line that parses could not have been written by a ladder.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum NotALadderGame {
    #[error("a game without seats")]
    NoSeats,
    #[error("{seats} seats but {scores} scores and {ranks} ranks")]
    Lengths {
        seats: usize,
        scores: usize,
        ranks: usize,
    },
    #[error("ranks {ranks:?} out of 1..={seats}")]
    Ranks { ranks: Vec<usize>, seats: usize },
    #[error("a fault of a seat the game does not have")]
    FaultBeyondSeats,
    #[error("build number 0 (they start at 1)")]
    BuildZero,
    #[error("slot `{0}` holds two seats")]
    SlotTwice(String),
}

pub fn id(number: u64) -> String {
    format!("game-{number}")
}

/// The record's ranks (games of more than two seats), else ranks from the points: one more than
/// the number of seats that scored more.
fn ranks(recorded: &[usize], scores: &[f64]) -> Vec<usize> {
    if recorded.len() == scores.len() && !recorded.is_empty() {
        return recorded.to_vec();
    }
    scores
        .iter()
        .map(|s| 1 + scores.iter().filter(|other| *other > s).count())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_from_points_share_ties() {
        assert_eq!(ranks(&[], &[1.0, 0.0]), vec![1, 2]);
        assert_eq!(ranks(&[], &[0.5, 0.5]), vec![1, 1]);
        assert_eq!(ranks(&[], &[0.0, 2.0, 2.0]), vec![3, 1, 1]);
        assert_eq!(ranks(&[2, 1, 3], &[0.5, 1.0, 0.0]), vec![2, 1, 3]);
    }

    #[test]
    fn a_line_no_ladder_wrote_is_refused_with_why() {
        let seat = |slot: &str, version: u32| {
            serde_json::json!({"slot": slot, "version": version, "bot": "bot",
                "plugin_version": "1", "sha256": "0"})
        };
        let game = |seats: Vec<serde_json::Value>, ranks: Vec<usize>| -> LadderGame {
            serde_json::from_value(serde_json::json!({
                "id": "game-1", "number": 1, "seed": 1, "seats": seats,
                "winner": null, "scores": vec![0.5; ranks.len()], "ranks": ranks,
                "game_scores": [0.0, 0.0], "termination": "rules", "reason": "draw",
                "moves": 1, "faults": [], "game_ms": 1.0,
                "started_unix_ms": 0, "finished_unix_ms": 1,
            }))
            .unwrap()
        };
        assert_eq!(
            game(vec![seat("a", 1), seat("b", 1)], vec![1, 1]).check(),
            Ok(())
        );
        assert_eq!(
            game(vec![seat("a", 1), seat("a", 2)], vec![1, 2]).check(),
            Err(NotALadderGame::SlotTwice("a".into()))
        );
        assert_eq!(
            game(vec![seat("a", 0), seat("b", 1)], vec![1, 2]).check(),
            Err(NotALadderGame::BuildZero)
        );
        let out_of_range = game(vec![seat("a", 1), seat("b", 1)], vec![1, 3]).check();
        assert_eq!(
            out_of_range.unwrap_err().to_string(),
            "ranks [1, 3] out of 1..=2"
        );
        assert_eq!(
            game(Vec::new(), Vec::new()).check(),
            Err(NotALadderGame::NoSeats)
        );
        let mut fault_of_a_third = game(vec![seat("a", 1), seat("b", 1)], vec![1, 2]);
        fault_of_a_third.result.faults = serde_json::from_value(serde_json::json!([
            {"seat": 2, "cause": "timeout", "detail": "late"}
        ]))
        .unwrap();
        assert_eq!(
            fault_of_a_third.check(),
            Err(NotALadderGame::FaultBeyondSeats)
        );
        assert_eq!(
            game(vec![seat("a", 1), seat("b", 1)], vec![1]).check(),
            Err(NotALadderGame::Lengths {
                seats: 2,
                scores: 1,
                ranks: 1
            })
        );
    }
}
