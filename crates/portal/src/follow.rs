//! What the portal learns from the ladder, by reading the files the ladder appends to (the
//! ladder knows nothing of the portal): `events.jsonl` says which build was accepted or refused,
//! which the portal writes into its database; `journal.jsonl` lists the games, of which the
//! portal keeps each team's latest in memory. Both are read from where the last look stopped,
//! whole lines only (a line being written is read once it is complete).

use super::store::{BuildStatus, Store, Verdict};
use super::team_name::TeamName;
use crate::StoreError;
use agon_ladder::entry::LadderGame;
use agon_ladder::events::{Event, Logged};
use std::collections::{HashMap, VecDeque};
use std::io::{Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};

/// Games kept per team for its page.
pub const LATEST_PER_TEAM: usize = 20;

/// What the ladder has said so far of the games.
#[derive(Default)]
pub struct LadderNews {
    latest: HashMap<String, VecDeque<LadderGame>>,
}

impl LadderNews {
    /// The team's latest games, newest first.
    pub fn latest_games(&self, team: &TeamName) -> Vec<LadderGame> {
        self.latest
            .get(team.as_str())
            .map(|games| games.iter().cloned().collect())
            .unwrap_or_default()
    }

    fn add_game(&mut self, game: LadderGame) {
        let mut teams: Vec<&str> = game.seats.iter().map(|s| s.slot.as_str()).collect();
        teams.dedup();
        for slot in teams {
            let Some(team) = TeamName::of_slot(slot) else {
                continue;
            };
            let games = self.latest.entry(team.as_str().to_string()).or_default();
            if games.len() == LATEST_PER_TEAM {
                games.pop_back();
            }
            games.push_front(game.clone());
        }
    }
}

/// Reads a file of JSON lines from an offset, a whole line at a time.
pub struct LineReader {
    path: PathBuf,
    offset: u64,
}

impl LineReader {
    pub fn new(path: PathBuf, offset: u64) -> LineReader {
        LineReader { path, offset }
    }

    /// The complete lines added since the last call, each with the offset after it. A file
    /// now shorter than what was read (rewritten by a repair) is read again from its start.
    pub fn new_lines(&mut self) -> Vec<(String, u64)> {
        let Ok(mut file) = std::fs::File::open(&self.path) else {
            return Vec::new();
        };
        let length = file.metadata().map_or(0, |m| m.len());
        if length < self.offset {
            self.offset = 0;
        }
        let mut bytes = Vec::new();
        if file.seek(SeekFrom::Start(self.offset)).is_err() || file.read_to_end(&mut bytes).is_err()
        {
            return Vec::new();
        }
        let mut lines = Vec::new();
        let mut start = 0;
        while let Some(end) = bytes[start..].iter().position(|&b| b == b'\n') {
            let line = String::from_utf8_lossy(&bytes[start..start + end]).into_owned();
            start += end + 1;
            lines.push((line, self.offset + start as u64));
        }
        self.offset += start as u64;
        lines
    }
}

/// Follows the ladder in `ladder_dir` for the portal: events into `store` and `news`.
pub struct Follower {
    events: LineReader,
    journal: LineReader,
    /// Events before this offset are already in the database.
    applied: u64,
}

const EVENTS_KEY: &str = "events.jsonl";

impl Follower {
    /// Starts reading both files from their beginning (the news are rebuilt in memory; the
    /// database takes only the events it has not taken before).
    pub fn new(ladder_dir: &Path, store: &Store) -> Result<Follower, StoreError> {
        Ok(Follower {
            events: LineReader::new(ladder_dir.join(agon_ladder::events::FILE), 0),
            journal: LineReader::new(ladder_dir.join(agon_play::journal::FILE), 0),
            applied: store.read_offset(EVENTS_KEY)?,
        })
    }

    /// Reads what is new; returns how many lines it took.
    pub fn poll(&mut self, store: &Store, news: &std::sync::Mutex<LadderNews>) -> usize {
        let events = self.events.new_lines();
        let games = self.journal.new_lines();
        let taken = events.len() + games.len();
        let mut news = news.lock().unwrap_or_else(|p| p.into_inner());
        let mut before = self.events.offset;
        for (line, after) in events {
            let Ok(logged) = serde_json::from_str::<Logged>(&line) else {
                before = after;
                continue; // a damaged line; the ladder has warned of it
            };
            if after > self.applied {
                if let Err(e) = apply(store, &logged, (EVENTS_KEY, after)) {
                    // Tried again at the next look, from this line on.
                    log::warn!("portal: {e}");
                    self.events.offset = before;
                    break;
                }
                self.applied = after;
            }
            before = after;
        }
        for (line, _) in games {
            if let Ok(game) = serde_json::from_str::<LadderGame>(&line) {
                news.add_game(game);
            }
        }
        taken
    }
}

/// Writes the ladder's verdict on a team's build into the database, with the events' read
/// offset `read_to` after it, in one transaction.
pub(super) fn apply(
    store: &Store,
    logged: &Logged,
    read_to: (&str, u64),
) -> Result<(), StoreError> {
    let (slot, verdict) = match &logged.event {
        Event::Accepted { build, inode, .. } => (
            &build.slot,
            Verdict {
                sha256: &build.sha256,
                inode: *inode,
                status: BuildStatus::Accepted,
                version: Some(build.version),
                message: &build.bot,
                at_ms: logged.unix_ms,
            },
        ),
        Event::Refused {
            slot,
            sha256: Some(sha256),
            reason,
            inode,
        } => (
            slot,
            Verdict {
                sha256,
                inode: *inode,
                status: BuildStatus::Refused,
                version: None,
                message: reason,
                at_ms: logged.unix_ms,
            },
        ),
        // Refused before its content could be read (an unreadable file): the team's build in
        // the slot then, found by its inode, else its newest build still validating.
        Event::Refused {
            slot,
            sha256: None,
            reason,
            inode,
        } => {
            return match TeamName::of_slot(slot) {
                Some(team) => {
                    let refusal = (*inode, reason.as_str(), logged.unix_ms);
                    store.refuse_unread(team.as_str(), refusal, read_to)
                }
                None => store.set_read_offset(read_to.0, read_to.1),
            }
        }
        _ => return store.set_read_offset(read_to.0, read_to.1),
    };
    match TeamName::of_slot(slot) {
        Some(team) => store.judge(team.as_str(), &verdict, read_to).map(drop),
        None => store.set_read_offset(read_to.0, read_to.1),
    }
}
