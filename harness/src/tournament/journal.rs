//! The journal: one JSON line per finished game, appended and flushed to disk (fsync) before
//! the game counts. A resumed run reads it back; a torn last line (power lost mid-write) is cut
//! off, a damaged line elsewhere is an error.

use agon_engine::fault::FaultCause;
use agon_engine::game::Termination;
use agon_engine::record::MatchRecord;
use serde::{Deserialize, Serialize};
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Entry {
    pub id: String,
    pub param_set: usize,
    pub seed: u64,
    /// Entrant index per seat.
    pub seats: Vec<usize>,
    pub names: Vec<String>,
    pub sha256: Vec<String>,
    pub winner: Option<usize>,
    pub scores: Vec<f64>,
    /// Games of more than two seats: each seat's rank (1 best).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ranks: Vec<usize>,
    pub game_scores: Vec<f64>,
    pub termination: Termination,
    pub reason: String,
    pub moves: usize,
    pub faults: Vec<JournalFault>,
    /// Wall time of the game, and each seat's mean time per move (ms). Not used in grading.
    pub game_ms: f64,
    pub ms_per_move: Vec<f64>,
    /// Search nodes each seat reported (puzzles: attempted assignments).
    #[serde(default)]
    pub nodes: Vec<Option<u64>>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct JournalFault {
    pub seat: usize,
    pub cause: FaultCause,
    pub detail: String,
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
            seats: seats.to_vec(),
            names,
            sha256: record.seats.iter().map(|s| s.sha256.clone()).collect(),
            winner: record.outcome.winner,
            scores: record.outcome.scores.clone(),
            ranks: record.outcome.ranks.clone(),
            game_scores: record.game_scores.clone(),
            termination: record.outcome.termination,
            reason: record.outcome.reason.chars().take(1000).collect(),
            moves: record.moves.len(),
            faults: record
                .faults
                .iter()
                .map(|f| JournalFault {
                    seat: f.seat,
                    cause: f.cause,
                    detail: f.detail.chars().take(500).collect(),
                })
                .collect(),
            game_ms,
            ms_per_move: record.metrics.iter().map(|m| m.time_per_move_ms).collect(),
            nodes: record.metrics.iter().map(|m| m.nodes).collect(),
        }
    }
}

pub struct Journal {
    file: File,
    path: PathBuf,
}

impl Journal {
    /// Opens `dir/journal.jsonl` for appending and returns the games already in it.
    pub fn open(dir: &Path) -> Result<(Journal, Vec<Entry>), String> {
        let path = dir.join("journal.jsonl");
        let entries = read(&path, true)?;
        let file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(&path)
            .map_err(|e| format!("{}: {e}", path.display()))?;
        // One writer per journal: a second `resume` of the same folder (say, a requeued job
        // while the old one still runs) would play the same games twice.
        rustix::fs::flock(&file, rustix::fs::FlockOperation::NonBlockingLockExclusive).map_err(
            |_| {
                format!(
                    "{}: another agon is running this tournament (the journal is locked)",
                    path.display()
                )
            },
        )?;
        Ok((Journal { file, path }, entries))
    }

    /// Appends one game and forces it to disk.
    pub fn append(&mut self, entry: &Entry) -> Result<(), String> {
        let mut line = serde_json::to_string(entry).expect("entries serialize");
        line.push('\n');
        self.file
            .write_all(line.as_bytes())
            .and_then(|()| self.file.sync_data())
            .map_err(|e| format!("{}: {e}", self.path.display()))
    }
}

/// The entries of a journal. With `repair`, a torn last line is cut off the file.
pub fn read(path: &Path, repair: bool) -> Result<Vec<Entry>, String> {
    let text = match std::fs::read(path) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(format!("{}: {e}", path.display())),
    };
    let mut entries = Vec::new();
    let mut offset = 0usize;
    for (number, line) in text.split_inclusive(|&b| b == b'\n').enumerate() {
        let complete = line.ends_with(b"\n");
        let parsed = std::str::from_utf8(line)
            .ok()
            .and_then(|l| serde_json::from_str::<Entry>(l.trim_end()).ok());
        match (parsed, complete) {
            (Some(entry), true) => entries.push(entry),
            // The last line, cut short by a crash: the game did not count.
            (_, false) => {
                log::warn!(
                    "{}: dropping a torn last line ({} bytes)",
                    path.display(),
                    line.len()
                );
                if repair {
                    let file = OpenOptions::new()
                        .write(true)
                        .open(path)
                        .map_err(|e| format!("{}: {e}", path.display()))?;
                    file.set_len(offset as u64)
                        .and_then(|()| file.sync_all())
                        .map_err(|e| format!("{}: {e}", path.display()))?;
                }
                break;
            }
            (None, true) => {
                return Err(format!(
                    "{}: line {} is not a journal entry; the journal is damaged",
                    path.display(),
                    number + 1
                ))
            }
        }
        offset += line.len();
    }
    Ok(entries)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(id: &str) -> Entry {
        Entry {
            id: id.into(),
            param_set: 0,
            seed: 1,
            seats: vec![0, 1],
            names: vec!["a".into(), "b".into()],
            sha256: vec!["x".into(), "y".into()],
            winner: Some(0),
            scores: vec![1.0, 0.0],
            ranks: Vec::new(),
            game_scores: vec![2.0, 1.0],
            termination: Termination::Rules,
            reason: "r".into(),
            moves: 10,
            faults: vec![],
            game_ms: 1.5,
            ms_per_move: vec![0.1, 0.2],
            nodes: vec![None, Some(7)],
        }
    }

    #[test]
    fn appends_survive_and_a_torn_line_is_cut() {
        let dir = std::env::temp_dir().join(format!("agon-journal-test-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let (mut journal, old) = Journal::open(&dir).unwrap();
        assert!(old.is_empty());
        journal.append(&entry("g1")).unwrap();
        journal.append(&entry("g2")).unwrap();
        drop(journal);
        // A crash in the middle of the third line.
        let path = dir.join("journal.jsonl");
        let mut f = OpenOptions::new().append(true).open(&path).unwrap();
        f.write_all(b"{\"id\":\"g3\",\"par").unwrap();
        drop(f);
        let (mut journal, entries) = Journal::open(&dir).unwrap();
        assert_eq!(
            entries.iter().map(|e| e.id.as_str()).collect::<Vec<_>>(),
            ["g1", "g2"]
        );
        journal.append(&entry("g3")).unwrap();
        let entries = read(&path, false).unwrap();
        assert_eq!(entries.len(), 3);
        assert_eq!(entries[2], entry("g3"));
        // Damage in the middle is not silently dropped.
        let text = std::fs::read_to_string(&path)
            .unwrap()
            .replacen("\"g2\"", "\"g2", 1);
        std::fs::write(&path, text).unwrap();
        assert!(read(&path, false).unwrap_err().contains("line 2"));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
