//! `events.jsonl` beside the journal: what happened to the builds (accepted, refused, retired)
//! and when the ladder started and stopped. Appended and flushed line by line; read back when a
//! ladder continues (its accepted builds keep their version numbers), where a torn or damaged
//! line is skipped with a warning: events explain, the journal alone decides results.

use crate::LadderError;
use agon_engine::{OnPath, PathError};
use agon_play::json_lines::{self, LinesError};
use agon_play::swap::build::Build;
use serde::{Deserialize, Serialize};
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};

pub const FILE: &str = "events.jsonl";

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum Event {
    Started {
        seed: u64,
        game: String,
        params: agon_games::contract::RawParams,
        host: String,
        games_so_far: u64,
    },
    /// A build passed validation and plays every game that starts from now on.
    Accepted {
        build: Build,
        /// Its validation games: the host, its seat, whom it met and how the game ended.
        smoke: Vec<String>,
        validation_ms: f64,
        /// The inode of the file judged: which of the slot's files the verdict is on (content
        /// alone cannot tell two uploads of the same build apart).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        inode: Option<u64>,
    },
    /// A build was refused; its slot keeps its last good build.
    Refused {
        slot: String,
        sha256: Option<String>,
        reason: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        inode: Option<u64>,
    },
    /// The slot's file was removed: its build plays no new game.
    Retired {
        slot: String,
    },
    Stopped {
        games: u64,
        why: String,
    },
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Logged {
    pub unix_ms: u64,
    #[serde(flatten)]
    pub event: Event,
}

pub struct EventLog {
    file: File,
    path: PathBuf,
}

impl EventLog {
    /// Opens `dir/events.jsonl` for appending and returns what it holds.
    pub fn open(dir: &Path) -> Result<(EventLog, Vec<Logged>), LadderError> {
        let path = dir.join(FILE);
        let earlier = read(dir)?;
        let file = OpenOptions::new()
            .create(true)
            .append(true)
            .custom_flags(libc::O_NOFOLLOW | libc::O_CLOEXEC)
            .open(&path)
            .on_path(&path)?;
        let mut log = EventLog { file, path };
        // A torn last line (a crash mid-write) is ended, so the next event starts a line.
        if std::fs::read(&log.path).is_ok_and(|b| !b.is_empty() && !b.ends_with(b"\n")) {
            log.file.write_all(b"\n").on_path(&log.path)?;
        }
        Ok((log, earlier))
    }

    pub fn append(&mut self, event: Event) -> Result<(), PathError> {
        let logged = Logged {
            unix_ms: unix_ms(),
            event,
        };
        let mut line = serde_json::to_string(&logged).expect("events serialize");
        line.push('\n');
        self.file
            .write_all(line.as_bytes())
            .and_then(|()| self.file.sync_data())
            .on_path(&self.path)
    }
}

/// The events in `dir` (none if there is no file yet).
pub fn read(dir: &Path) -> Result<Vec<Logged>, LinesError> {
    let path = dir.join(FILE);
    let Some(mut lines) = json_lines::open("ladder events", &path, json_lines::MAX_LINE)? else {
        return Ok(Vec::new());
    };
    let mut events = Vec::new();
    while let Some(line) = lines.next_line()? {
        if line.is_blank() {
            continue;
        }
        match line.parse::<Logged>() {
            Ok(event) => events.push(event),
            Err(e) => log::warn!("{}: line {}: skipped: {e}", path.display(), line.number),
        }
    }
    Ok(events)
}

pub fn unix_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use agon_engine::output_file::fresh_scratch;

    #[test]
    fn events_are_read_back_in_order() {
        let dir = fresh_scratch("events-order").unwrap();
        let (mut log, earlier) = EventLog::open(&dir).unwrap();
        assert!(earlier.is_empty());
        log.append(Event::Retired {
            slot: "a.so".into(),
        })
        .unwrap();
        log.append(Event::Stopped {
            games: 3,
            why: "done".into(),
        })
        .unwrap();
        let events: Vec<Event> = read(&dir).unwrap().into_iter().map(|l| l.event).collect();
        assert_eq!(
            events,
            vec![
                Event::Retired {
                    slot: "a.so".into()
                },
                Event::Stopped {
                    games: 3,
                    why: "done".into()
                }
            ]
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_folder_that_is_not_there_is_named() {
        let dir = fresh_scratch("events-missing").unwrap().join("gone");
        let Err(error) = EventLog::open(&dir) else {
            panic!("opened an events file in a missing folder");
        };
        match &error {
            LadderError::Io(e) => assert_eq!(e.path, dir.join(FILE)),
            other => panic!("not an I/O error on the events file: {other:?}"),
        }
        assert!(error
            .to_string()
            .starts_with(&dir.join(FILE).display().to_string()));
        std::fs::remove_dir_all(dir.parent().unwrap()).unwrap();
    }

    #[test]
    fn an_events_file_that_is_a_folder_is_refused_when_read() {
        let dir = fresh_scratch("events-folder").unwrap();
        std::fs::create_dir(dir.join(FILE)).unwrap();
        let Err(error) = EventLog::open(&dir) else {
            panic!("read a folder as the events file");
        };
        assert!(matches!(error, LadderError::Events(_)), "{error:?}");
        assert!(error.to_string().contains(FILE), "{error}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
