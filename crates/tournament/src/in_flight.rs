//! Which games are being played on an in-process host (thread, inline), and which seat's call
//! was running when the engine died. A bot that crashes there (a segfault in team code kills
//! every thread) takes the engine down; the next run must name it, and only it, and only on
//! evidence. A process host needs none of this: a crash there ends only the bot's own process.
//!
//! Before such a game starts, `in-flight/<game id>` is written with its entrants; it is removed
//! once the game is recorded. While a bot is in a call, the engine's fatal-signal handler knows
//! which seat it is (`agon_engine::crash_evidence`) and appends a line to
//! `in-flight/evidence.jsonl` before the crash takes its course. Files left behind when the
//! engine opens the folder again (under the journal's lock, so no running writer owns them) mean
//! the engine died with those games in flight: each such death is appended to `crashes.jsonl`,
//! with the evidence of who crashed it, if any.
//!
//! An entrant named by evidence is excluded at once: it crashes the engine. A death without
//! evidence (SIGKILL from a user or the out-of-memory killer, a power loss) blames nobody: its
//! games are played again.

use super::entry::Entry;
use super::plan::{GameSpec, Plan};
use crate::TournamentError;
use agon_engine::{FaultCause, OnPath, PathError};
use agon_games::contract::{Outcome, Termination};
use agon_play::journal::{GameResult, JournalFault};
use agon_play::json_lines;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashSet};
use std::io::Write;
use std::path::{Path, PathBuf};

pub const FOLDER: &str = "in-flight";
pub const CRASHES: &str = "crashes.jsonl";
/// In [`FOLDER`]: what the fatal-signal handler wrote (no game id ends so).
pub const EVIDENCE: &str = "evidence.jsonl";

/// One death of the engine: the games that were in flight, and who crashed it, if known.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Crash {
    pub games: Vec<CrashedGame>,
    /// The calls running on threads that crashed (empty: a death without evidence).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub evidence: Vec<Evidence>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CrashedGame {
    pub id: String,
    /// Its entrants (empty when its marker was unreadable).
    pub entrants: Vec<String>,
}

/// A fatal signal caught while a seat's call was running on the thread that received it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Evidence {
    pub game: String,
    pub seat: usize,
    pub entrant: String,
    pub signal: i32,
}

/// The marker of one game in flight.
#[derive(Debug, Serialize, Deserialize)]
struct Marker {
    entrants: Vec<String>,
}

fn marker_path(dir: &Path, id: &str) -> PathBuf {
    dir.join(FOLDER).join(id)
}

/// Starts watching for crashes in this run: from here on a crash during a bot's call on an
/// in-process host leaves evidence in `dir`.
pub fn watch_for_crashes(dir: &Path) -> Result<(), PathError> {
    let folder = dir.join(FOLDER);
    std::fs::create_dir_all(&folder)
        .and_then(|()| agon_engine::crash_evidence::install(&folder.join(EVIDENCE)))
        .on_path(&folder)
}

/// Marks game `game` as in flight (before its first call to a bot).
pub fn mark(dir: &Path, plan: &Plan, game: &GameSpec) -> Result<(), PathError> {
    let marker = Marker {
        entrants: game
            .seats
            .iter()
            .map(|&e| plan.entrants[e].name.clone())
            .collect(),
    };
    let path = marker_path(dir, &game.id);
    std::fs::create_dir_all(dir.join(FOLDER))
        .and_then(|()| {
            std::fs::write(
                &path,
                serde_json::to_vec(&marker).expect("a marker serializes"),
            )
        })
        .on_path(&path)
}

/// The game is recorded (or was abandoned unrecorded): it is no longer in flight.
pub fn clear(dir: &Path, id: &str) {
    let _ = std::fs::remove_file(marker_path(dir, id));
}

/// Turns the markers and evidence a dead engine left into a line of `crashes.jsonl` (games
/// already in the journal do not count: the engine died after recording them); returns that
/// new crash, if any, and every crash so far. Call it holding the journal's lock.
pub fn collect_crashes(
    dir: &Path,
    recorded: &HashSet<&str>,
) -> Result<(Option<Crash>, Vec<Crash>), TournamentError> {
    let folder = dir.join(FOLDER);
    let evidence = read_evidence(&folder.join(EVIDENCE));
    let mut games = Vec::new();
    if let Ok(listing) = std::fs::read_dir(&folder) {
        for file in listing.flatten() {
            let id = file.file_name().to_string_lossy().into_owned();
            if id != EVIDENCE && !recorded.contains(id.as_str()) {
                // A marker that does not parse still names its game; its entrants are unknown.
                let marker = std::fs::read(file.path())
                    .ok()
                    .and_then(|b| serde_json::from_slice::<Marker>(&b).ok());
                games.push(CrashedGame {
                    id,
                    entrants: marker.map(|m| m.entrants).unwrap_or_default(),
                });
            }
            let _ = std::fs::remove_file(file.path());
        }
    }
    let path = dir.join(CRASHES);
    let mut new = None;
    if !games.is_empty() {
        games.sort_by(|a, b| a.id.cmp(&b.id));
        let crash = Crash {
            evidence: evidence_for(&games, evidence),
            games,
        };
        let mut line = serde_json::to_vec(&crash).expect("a crash serializes");
        line.push(b'\n');
        std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&path)
            .and_then(|mut f| f.write_all(&line).and_then(|()| f.sync_all()))
            .on_path(&path)?;
        new = Some(crash);
    }
    Ok((new, read_crashes(&path)?))
}

/// The evidence lines of `file`: the handler's, each whole; anything else is passed over (a
/// bot cannot write there, but a line must never name an entrant by accident).
fn read_evidence(file: &Path) -> Vec<Evidence> {
    let mut evidence = Vec::new();
    // Unreadable evidence names nobody: the games are played again.
    let Ok(Some(mut lines)) = json_lines::open("crash evidence", file, json_lines::MAX_LINE) else {
        return evidence;
    };
    while let Ok(Some(line)) = lines.next_line() {
        evidence.extend(line.parse::<Evidence>().ok());
    }
    evidence
}

/// The evidence about games that were in flight and are not recorded, each line once, each
/// checked against the game's marker (the seat must hold that entrant).
fn evidence_for(games: &[CrashedGame], evidence: Vec<Evidence>) -> Vec<Evidence> {
    let mut kept: Vec<Evidence> = Vec::new();
    for line in evidence {
        let fits = games
            .iter()
            .any(|g| g.id == line.game && g.entrants.get(line.seat) == Some(&line.entrant));
        if fits && !kept.contains(&line) {
            kept.push(line);
        }
    }
    kept
}

fn read_crashes(path: &Path) -> Result<Vec<Crash>, TournamentError> {
    let mut lines = match json_lines::open("crash log", path, json_lines::MAX_LINE) {
        Ok(Some(lines)) => lines,
        Ok(None) => return Ok(Vec::new()),
        Err(_) if !path.exists() => return Ok(Vec::new()),
        Err(e) => return Err(e.into()),
    };
    let mut crashes = Vec::new();
    while let Some(line) = lines.next_line()? {
        if line.is_blank() {
            continue;
        }
        let crash = line.parse().map_err(|problem| TournamentError::NotACrash {
            path: path.to_path_buf(),
            line: line.number,
            problem,
        })?;
        crashes.push(crash);
    }
    Ok(crashes)
}

/// How often each game was in flight at a crash: such games are played last, fewest crashes
/// first.
pub fn crashed_games(crashes: &[Crash]) -> BTreeMap<&str, usize> {
    let mut counts = BTreeMap::new();
    for game in crashes.iter().flat_map(|c| &c.games) {
        *counts.entry(game.id.as_str()).or_default() += 1;
    }
    counts
}

/// Entrants that evidence names as having crashed the engine, with the reason to give. No one
/// else: a death without evidence, or another seat of the same game, is not a crash of theirs.
pub fn entrants_to_exclude(crashes: &[Crash]) -> BTreeMap<String, String> {
    let mut excluded = BTreeMap::new();
    for evidence in crashes.iter().flat_map(|c| &c.evidence) {
        excluded.entry(evidence.entrant.clone()).or_insert_with(|| {
            format!(
                "the engine died of {} in game {} while this entrant's bot (seat {}) was in a \
                 call on an in-process host: it crashes the engine, so it is excluded and its \
                 remaining games are forfeits",
                signal_name(evidence.signal),
                evidence.game,
                evidence.seat
            )
        });
    }
    excluded
}

fn signal_name(signal: i32) -> String {
    match signal {
        libc::SIGSEGV => "SIGSEGV".into(),
        libc::SIGBUS => "SIGBUS".into(),
        libc::SIGILL => "SIGILL".into(),
        libc::SIGFPE => "SIGFPE".into(),
        libc::SIGABRT => "SIGABRT (an abort, or a stack overflow)".into(),
        other => format!("signal {other}"),
    }
}

/// The journal entry of a game not played because entrant seat `loser` is excluded.
pub fn forfeit_entry(plan: &Plan, game: &GameSpec, loser: usize, reason: &str) -> Entry {
    let seats = game.seats.len();
    let outcome = Outcome::forfeit(seats, loser, Termination::Forfeit, reason.to_string());
    Entry {
        id: game.id.clone(),
        param_set: game.param_set,
        seed: game.seed,
        seed_secret: None,
        seats: game.seats.clone(),
        names: game
            .seats
            .iter()
            .map(|&e| plan.entrants[e].name.clone())
            .collect(),
        sha256: game
            .seats
            .iter()
            .map(|&e| plan.entrants[e].sha256.clone())
            .collect(),
        result: GameResult {
            winner: outcome.winner,
            scores: outcome.scores,
            ranks: outcome.ranks,
            game_scores: vec![0.0; seats],
            termination: outcome.termination,
            reason: outcome.reason,
            moves: 0,
            faults: vec![JournalFault {
                seat: loser,
                cause: FaultCause::Crash,
                detail: reason.to_string(),
            }],
            game_ms: 0.0,
            cpu_pressure: None,
            cpu_wait_ms: None,
            replayed: Vec::new(),
        },
        ms_per_move: vec![0.0; seats],
        nodes: vec![None; seats],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn crash(game: &str, entrants: &[&str]) -> Crash {
        Crash {
            games: vec![CrashedGame {
                id: game.into(),
                entrants: entrants.iter().map(|s| s.to_string()).collect(),
            }],
            evidence: Vec::new(),
        }
    }

    fn evidence(game: &str, seat: usize, entrant: &str) -> Evidence {
        Evidence {
            game: game.into(),
            seat,
            entrant: entrant.into(),
            signal: libc::SIGSEGV,
        }
    }

    #[test]
    fn deaths_without_evidence_blame_no_one_however_many() {
        let crashes = vec![
            crash("g1", &["a", "b"]),
            crash("g2", &["b", "c"]),
            crash("g3", &["b", "a"]),
        ];
        assert!(entrants_to_exclude(&crashes).is_empty());
        assert_eq!(crashed_games(&crashes)["g1"], 1);
    }

    #[test]
    fn evidence_names_the_seat_in_the_call_and_no_co_entrant() {
        let mut with = crash("g1", &["bad", "a"]);
        with.evidence.push(evidence("g1", 0, "bad"));
        let excluded = entrants_to_exclude(&[with]);
        assert_eq!(excluded.keys().collect::<Vec<_>>(), ["bad"]);
        assert!(
            excluded["bad"].contains("SIGSEGV in game g1"),
            "{}",
            excluded["bad"]
        );
    }

    #[test]
    fn evidence_must_fit_a_game_in_flight() {
        let games = crash("g1", &["bad", "a"]).games;
        let lines = vec![
            evidence("g1", 0, "bad"),
            evidence("g1", 0, "bad"),
            evidence("g1", 1, "bad"),
            evidence("g9", 0, "bad"),
        ];
        assert_eq!(evidence_for(&games, lines), vec![evidence("g1", 0, "bad")]);
    }

    #[test]
    fn markers_and_evidence_left_behind_become_one_crash() {
        let dir = agon_engine::output_file::fresh_scratch("in-flight").unwrap();
        std::fs::create_dir_all(dir.join(FOLDER)).unwrap();
        std::fs::write(dir.join(FOLDER).join("g7"), br#"{"entrants":["bad","a"]}"#).unwrap();
        std::fs::write(dir.join(FOLDER).join("g6"), br#"{"entrants":["b","c"]}"#).unwrap();
        std::fs::write(dir.join(FOLDER).join("g8"), b"torn").unwrap();
        std::fs::write(
            dir.join(FOLDER).join(EVIDENCE),
            b"{\"game\":\"g7\",\"seat\":0,\"entrant\":\"bad\",\"signal\":11}\n{\"game\":\"g7\",\"se",
        )
        .unwrap();
        let recorded = HashSet::from(["g6"]);
        let (new, crashes) = collect_crashes(&dir, &recorded).unwrap();
        let expected = Crash {
            games: vec![
                CrashedGame {
                    id: "g7".into(),
                    entrants: vec!["bad".into(), "a".into()],
                },
                CrashedGame {
                    id: "g8".into(),
                    entrants: Vec::new(),
                },
            ],
            evidence: vec![evidence("g7", 0, "bad")],
        };
        assert_eq!(new.as_ref(), Some(&expected));
        assert_eq!(crashes, vec![expected]);
        assert_eq!(std::fs::read_dir(dir.join(FOLDER)).unwrap().count(), 0);
        // Nothing left behind: no new crash, the old ones are kept.
        let (new, crashes) = collect_crashes(&dir, &recorded).unwrap();
        assert!(new.is_none());
        assert_eq!(crashes.len(), 1);
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// The crash log is read a line at a time: an over-long line is named by its number and
    /// size, and never held whole.
    #[test]
    fn an_over_long_crash_line_is_named_by_its_number_and_size() {
        let dir = std::env::temp_dir().join(format!("agon-crash-log-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(CRASHES);
        let mut log = serde_json::to_vec(&crash("g1", &["a", "b"])).unwrap();
        log.push(b'\n');
        log.resize(log.len() + json_lines::MAX_LINE as usize + 1, b'x');
        log.push(b'\n');
        std::fs::write(&path, &log).unwrap();
        let err = read_crashes(&path).unwrap_err();
        let expected = format!(
            "line 2: not a crash entry: {} bytes long, more than the {} bytes",
            json_lines::MAX_LINE + 1,
            json_lines::MAX_LINE
        );
        assert!(err.to_string().contains(&expected), "{err}");
        assert!(
            matches!(err, TournamentError::NotACrash { line: 2, .. }),
            "{err:?}"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
