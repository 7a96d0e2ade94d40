//! The journal file: one JSON line per finished game, appended and flushed to disk (fsync)
//! before the game counts. A resumed run reads it back under the folder's writer lock; a torn
//! last line (power lost mid-write) is cut off, blank lines are skipped, and a damaged line
//! elsewhere is an error that names it and its game, with what the mode offers to set it aside
//! ([`JournalEntry::repair_hint`]).
//!
//! Journals are read line by line ([`crate::json_lines`]), whatever their size: memory grows with the
//! games, not with a line, since a line longer than [`MAX_LINE`] is damage that is skipped (and
//! copied aside by a repair) without being held.

use super::error::JournalError;
use super::folder_lock::{self, FolderLock};
use crate::json_lines::{self, BoundedLines, Content, Line, LineProblem, MAX_LINE};
use crate::record_files;
use agon_engine::{output_file, OnPath, PathError};
use serde::de::DeserializeOwned;
use serde::Serialize;
use std::fs::{File, OpenOptions};
use std::io::{BufReader, Read, Seek, SeekFrom, Write};
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// A kind of journal line: a tournament's games, a ladder's games.
pub trait JournalEntry: Serialize + DeserializeOwned {
    /// Why the mode's [`EntryCheck`] refuses an entry that parses.
    type Refusal: std::error::Error + Send + Sync + 'static;

    /// What a user can do about damaged lines in the journal of `dir`.
    fn repair_hint(dir: &Path) -> String;
}

/// Checks an entry against what its mode knows (a tournament's plan, `Plan::entry_check`; a
/// ladder's own sense, `LadderGame::check`): an entry that parses but names a seat, entrant or
/// game that cannot be is damage too.
pub type EntryCheck<'a, E> = &'a dyn Fn(&E) -> Result<(), <E as JournalEntry>::Refusal>;

/// Accepts every well-formed entry (benchmarks, tests).
pub fn any_entry<E: JournalEntry>(_: &E) -> Result<(), E::Refusal> {
    Ok(())
}

pub const FILE: &str = "journal.jsonl";
/// Where `agon tournament repair` moves damaged lines.
pub const REJECTED: &str = "journal.rejected";

/// The journal of a folder, open for appending, with the folder's writer lock held.
pub struct Journal {
    file: File,
    path: PathBuf,
    _lock: FolderLock,
}

/// A complete line that is not an entry of this folder's journal.
#[derive(Debug, Clone)]
pub struct Damaged {
    /// 1-based.
    pub line: usize,
    /// The game id, when the line still shows one.
    pub game: Option<String>,
    pub problem: LineProblem,
    /// Its length in bytes, newline not counted.
    pub size: u64,
    /// Where it starts in the journal.
    offset: u64,
}

impl Damaged {
    /// The damaged `line`, with its `problem` and the game id it still shows.
    fn of(line: &Line<'_>, problem: LineProblem) -> Damaged {
        Damaged {
            line: line.number,
            game: game_id(match line.content {
                Content::Whole(text) => text,
                Content::TooLong { start } => start,
            }),
            problem,
            size: line.size,
            offset: line.offset,
        }
    }
}

impl std::fmt::Display for Damaged {
    /// Where it is: `line 7`, or `line 7 (game r1-g3)` when the line still shows its game.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "line {}", self.line)?;
        match &self.game {
            Some(game) => write!(f, " (game {game})"),
            None => Ok(()),
        }
    }
}

/// What a journal file holds.
struct Scan<E> {
    entries: Vec<E>,
    damaged: Vec<Damaged>,
    /// Bytes up to the end of the last complete line, when an unterminated last line follows.
    torn_at: Option<u64>,
}

impl Journal {
    /// Takes the folder's writer lock, then opens `dir/journal.jsonl` for appending, cuts a
    /// torn last line and removes temporary files that a dead writer left in the folder.
    /// Returns the games already in it. A damaged line is an error that names the line and its
    /// game and offers `agon tournament repair`.
    pub fn open<E: JournalEntry>(
        dir: &Path,
        check: EntryCheck<E>,
    ) -> Result<(Journal, Vec<E>), JournalError> {
        let (journal, scan) = Journal::open_scanned(dir, check, MAX_LINE)?;
        if let Some(error) = damaged::<E>(&journal.path, dir, scan.damaged) {
            return Err(error);
        }
        Ok((journal, scan.entries))
    }

    fn open_scanned<E: JournalEntry>(
        dir: &Path,
        check: EntryCheck<E>,
        max_line: u64,
    ) -> Result<(Journal, Scan<E>), JournalError> {
        let lock = FolderLock::try_acquire(dir, folder_lock::WRITER)?;
        let path = dir.join(FILE);
        let file = OpenOptions::new()
            .read(true)
            .append(true)
            .create(true)
            .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK | libc::O_CLOEXEC)
            .open(&path)
            .map_err(|e| open_error(&path, e))?;
        check_regular(&file, &path)?;
        let copy = file.try_clone().on_path(&path)?;
        let scan = scan(&mut BoundedLines::new(copy, &path, max_line), check)?;
        if let Some(offset) = scan.torn_at {
            log::warn!("{}: cutting a torn last line", path.display());
            file.set_len(offset)
                .and_then(|()| file.sync_all())
                .on_path(&path)?;
        }
        for folder in [dir.to_path_buf(), record_files::folder(dir)] {
            match output_file::remove_leftovers(&folder) {
                Ok(0) => {}
                Ok(n) => log::info!(
                    "{}: removed {n} unfinished temporary files",
                    folder.display()
                ),
                Err(e) => return Err(PathError::new(&folder, e).into()),
            }
        }
        Ok((
            Journal {
                file,
                path,
                _lock: lock,
            },
            scan,
        ))
    }

    /// Appends one game and forces it to disk.
    pub fn append<E: JournalEntry>(&mut self, entry: &E) -> Result<(), JournalError> {
        self.append_unsynced(entry)?;
        self.sync()
    }

    /// Forces what was appended to disk.
    pub fn sync(&mut self) -> Result<(), JournalError> {
        Ok(self.file.sync_data().on_path(&self.path)?)
    }

    /// Appends one game without forcing it to disk: for a journal that counts only once whole
    /// (a merge's, renamed into place after one [`Journal::sync`]), where a disk flush per line
    /// cost a million-game merge most of its time.
    pub fn append_unsynced<E: JournalEntry>(&mut self, entry: &E) -> Result<(), JournalError> {
        let mut line = serde_json::to_string(entry).expect("entries serialize");
        line.push('\n');
        if line.len() as u64 > MAX_LINE {
            return Err(JournalError::EntryTooLong {
                path: self.path.clone(),
                size: line.len(),
            });
        }
        Ok(self.file.write_all(line.as_bytes()).on_path(&self.path)?)
    }
}

/// What `repair` did.
#[derive(Debug)]
pub struct Repair {
    pub kept: usize,
    pub rejected: Vec<Damaged>,
}

/// Moves the damaged lines of `dir`'s journal to `journal.rejected` (appended, so earlier
/// repairs stay) and keeps the rest; their games are played again by `resume`.
pub fn repair<E: JournalEntry>(dir: &Path, check: EntryCheck<E>) -> Result<Repair, JournalError> {
    repair_within(dir, check, MAX_LINE)
}

fn repair_within<E: JournalEntry>(
    dir: &Path,
    check: EntryCheck<E>,
    max_line: u64,
) -> Result<Repair, JournalError> {
    let (journal, scan) = Journal::open_scanned(dir, check, max_line)?;
    let kept = scan.entries.len();
    if scan.damaged.is_empty() {
        return Ok(Repair {
            kept,
            rejected: Vec::new(),
        });
    }
    drop(scan.entries);
    let rejected_path = dir.join(REJECTED);
    let mut rejected = OpenOptions::new()
        .create(true)
        .append(true)
        .custom_flags(libc::O_NOFOLLOW)
        .open(&rejected_path)
        .map_err(|e| open_error(&rejected_path, e))?;
    check_regular(&rejected, &rejected_path)?;
    let sound = set_apart(&journal, &scan.damaged, &mut rejected)?;
    rejected.sync_all().on_path(&rejected_path)?;
    // The rejected lines are safe in their file before the journal loses them.
    output_file::replace(&journal.path, &sound).on_path(&journal.path)?;
    Ok(Repair {
        kept,
        rejected: scan.damaged,
    })
}

/// Copies the `damaged` lines of the journal (in file order) to `rejected` a buffer at a time,
/// never holding one whole, and returns the rest of the journal byte for byte: held, so that it
/// replaces the journal in one step (a crash leaves the old journal or the new, never half),
/// and no larger than the entries a resume holds anyway.
fn set_apart(
    journal: &Journal,
    damaged: &[Damaged],
    rejected: &mut File,
) -> Result<Vec<u8>, JournalError> {
    let path = &journal.path;
    let mut source = journal
        .file
        .try_clone()
        .and_then(|mut file| file.seek(SeekFrom::Start(0)).map(|_| BufReader::new(file)))
        .on_path(path)?;
    let mut sound = Vec::new();
    let mut at = 0;
    for line in damaged {
        copy_exactly(&mut source, line.offset - at, &mut sound, path)?;
        copy_exactly(&mut source, line.size + 1, rejected, path)?;
        at = line.offset + line.size + 1;
    }
    source.read_to_end(&mut sound).on_path(path)?;
    Ok(sound)
}

/// Copies the next `len` bytes of the journal at `path`, which the writer lock keeps as scanned.
fn copy_exactly(
    source: &mut BufReader<File>,
    len: u64,
    sink: &mut impl Write,
    path: &Path,
) -> Result<(), JournalError> {
    match std::io::copy(&mut source.take(len), sink) {
        Ok(copied) if copied == len => Ok(()),
        Ok(copied) => Err(JournalError::Changed {
            path: path.to_path_buf(),
            copied,
            len,
        }),
        Err(e) => Err(PathError::new(path, e).into()),
    }
}

/// The entries of `dir`'s journal, for reading only (a report, a merge): a torn last line is
/// left alone (the writer may be in the middle of it), a damaged line is an error.
pub fn read<E: JournalEntry>(dir: &Path, check: EntryCheck<E>) -> Result<Vec<E>, JournalError> {
    read_within(dir, check, MAX_LINE)
}

/// Hands each entry of `dir`'s journal to `each` as it is read, holding one line at a time
/// (a merge of a million games holds no journal whole). A damaged line is an error naming it;
/// a torn last line is left alone. `Ok(false)`: the folder has no journal. `each`'s own errors
/// (`X`) stop the stream and are returned as they are.
pub fn stream<E: JournalEntry, X: From<JournalError>>(
    dir: &Path,
    check: EntryCheck<E>,
    mut each: impl FnMut(E) -> Result<(), X>,
) -> Result<bool, X> {
    let path = dir.join(FILE);
    let opened = json_lines::open("journal", &path, MAX_LINE).map_err(JournalError::from)?;
    let Some(mut lines) = opened else {
        return Ok(false);
    };
    while let Some(line) = lines.next_line().map_err(JournalError::from)? {
        if !line.terminated {
            break;
        }
        if line.is_blank() {
            continue;
        }
        match line.text().and_then(|text| parse_entry(text, check)) {
            Ok(entry) => each(entry)?,
            Err(problem) => {
                let first = Damaged::of(&line, problem);
                return Err(damaged_from::<E>(&path, dir, first, 1).into());
            }
        }
    }
    Ok(true)
}

fn read_within<E: JournalEntry>(
    dir: &Path,
    check: EntryCheck<E>,
    max_line: u64,
) -> Result<Vec<E>, JournalError> {
    let path = dir.join(FILE);
    let Some(mut lines) = json_lines::open("journal", &path, max_line)? else {
        return Ok(Vec::new());
    };
    let scan = scan(&mut lines, check)?;
    match damaged::<E>(&path, dir, scan.damaged) {
        Some(error) => Err(error),
        None => Ok(scan.entries),
    }
}

fn open_error(path: &Path, e: std::io::Error) -> JournalError {
    if e.raw_os_error() == Some(libc::ELOOP) {
        JournalError::Link {
            path: path.to_path_buf(),
        }
    } else {
        PathError::new(path, e).into()
    }
}

fn check_regular(file: &File, path: &Path) -> Result<(), JournalError> {
    let meta = file.metadata().on_path(path)?;
    if !meta.is_file() {
        return Err(JournalError::NotAFile {
            path: path.to_path_buf(),
            kind: agon_engine::input_file::describe(&meta.file_type()),
        });
    }
    Ok(())
}

/// The error of the `damaged` lines of the journal at `path`, naming the first of them; `None`
/// when there are none.
fn damaged<E: JournalEntry>(
    path: &Path,
    dir: &Path,
    damaged: Vec<Damaged>,
) -> Option<JournalError> {
    let count = damaged.len();
    let first = damaged.into_iter().next()?;
    Some(damaged_from::<E>(path, dir, first, count))
}

/// The error of `count` damaged lines of the journal at `path`, of which `first` is named.
fn damaged_from<E: JournalEntry>(
    path: &Path,
    dir: &Path,
    first: Damaged,
    count: usize,
) -> JournalError {
    JournalError::Damaged {
        path: path.to_path_buf(),
        first: Box::new(first),
        count,
        hint: E::repair_hint(dir),
    }
}

fn scan<E: JournalEntry>(
    lines: &mut BoundedLines<impl Read>,
    check: EntryCheck<E>,
) -> Result<Scan<E>, JournalError> {
    let mut result = Scan {
        entries: Vec::new(),
        damaged: Vec::new(),
        torn_at: None,
    };
    while let Some(line) = lines.next_line()? {
        if !line.terminated {
            // The last line, cut short by a crash: the game did not count.
            result.torn_at = Some(line.offset);
            break;
        }
        if line.is_blank() {
            continue;
        }
        match line.text().and_then(|text| parse_entry(text, check)) {
            Ok(entry) => result.entries.push(entry),
            Err(problem) => result.damaged.push(Damaged::of(&line, problem)),
        }
    }
    Ok(result)
}

fn parse_entry<E: JournalEntry>(line: &[u8], check: EntryCheck<E>) -> Result<E, LineProblem> {
    let text = std::str::from_utf8(line).map_err(|_| LineProblem::NotText)?;
    let entry = serde_json::from_str::<E>(text.trim_end())
        .map_err(|e| LineProblem::NotJson(e.to_string()))?;
    check(&entry).map_err(|refusal| LineProblem::Refused(Arc::new(refusal)))?;
    Ok(entry)
}

/// The game id a damaged line still shows (`"id":"..."`), if any.
fn game_id(line: &[u8]) -> Option<String> {
    let text = String::from_utf8_lossy(line);
    let start = text.find("\"id\":\"")? + 6;
    let rest = &text[start..];
    let id: String = rest
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '-')
        .take(80)
        .collect();
    (!id.is_empty()).then_some(id)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::journal::GameResult;
    use serde::Deserialize;

    /// A journal row of the tests' own: an id, as every mode's row has, and a result.
    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
    struct Entry {
        id: String,
        #[serde(flatten)]
        result: GameResult,
    }

    /// The test entries' refusal: a game the test's plan does not have.
    #[derive(Debug, thiserror::Error)]
    #[error("game {0} is not planned")]
    struct NotPlanned(String);

    impl JournalEntry for Entry {
        type Refusal = NotPlanned;

        fn repair_hint(dir: &Path) -> String {
            format!("`agon tournament repair {}` sets them aside", dir.display())
        }
    }

    fn entry(id: &str) -> Entry {
        Entry {
            id: id.into(),
            result: GameResult {
                moves: 10,
                ..GameResult::by_rules(&[1.0, 0.0], &[], "r")
            },
        }
    }

    fn scratch(name: &str) -> PathBuf {
        let dir = output_file::fresh_scratch(&format!("journal-{name}")).unwrap();
        std::fs::create_dir_all(record_files::folder(&dir)).unwrap();
        dir
    }

    fn ids(entries: &[Entry]) -> Vec<&str> {
        entries.iter().map(|e| e.id.as_str()).collect()
    }

    /// A scratch folder (see [`scratch`]) whose journal holds the entries of `games`, its
    /// writer gone.
    fn journal_of(name: &str, games: &[&str]) -> PathBuf {
        let dir = scratch(name);
        let (mut journal, _) = Journal::open(&dir, &any_entry::<Entry>).unwrap();
        for id in games {
            journal.append(&entry(id)).unwrap();
        }
        dir
    }

    /// What reading and opening the journal at `dir` say: a damaged journal refuses both alike.
    fn refusals_of_read_and_open(dir: &Path) -> [String; 2] {
        [
            read(dir, &any_entry::<Entry>).unwrap_err().to_string(),
            Journal::open(dir, &any_entry::<Entry>)
                .err()
                .unwrap()
                .to_string(),
        ]
    }

    fn append_raw(dir: &Path, bytes: &[u8]) {
        let mut f = OpenOptions::new()
            .append(true)
            .open(dir.join(FILE))
            .unwrap();
        f.write_all(bytes).unwrap();
    }

    #[test]
    fn appends_survive_and_a_torn_line_is_cut() {
        let dir = scratch("torn");
        let (mut journal, old) = Journal::open(&dir, &any_entry::<Entry>).unwrap();
        assert!(old.is_empty());
        journal.append(&entry("g1")).unwrap();
        journal.append(&entry("g2")).unwrap();
        drop(journal);
        // A crash in the middle of the third line.
        append_raw(&dir, b"{\"id\":\"g3\",\"par");
        let (mut journal, entries) = Journal::open(&dir, &any_entry::<Entry>).unwrap();
        assert_eq!(ids(&entries), ["g1", "g2"]);
        journal.append(&entry("g3")).unwrap();
        let entries = read(&dir, &any_entry::<Entry>).unwrap();
        assert_eq!(entries.len(), 3);
        assert_eq!(entries[2], entry("g3"));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_refused_second_writer_leaves_the_first_writers_line_alone() {
        let dir = scratch("second-writer");
        let (mut journal, _) = Journal::open(&dir, &any_entry::<Entry>).unwrap();
        journal.append(&entry("g1")).unwrap();
        // The running writer is in the middle of its next line (a slow disk).
        append_raw(&dir, b"{\"id\":\"g2\",");
        let before = std::fs::read(dir.join(FILE)).unwrap();
        let err = Journal::open(&dir, &any_entry::<Entry>).err().unwrap();
        assert!(matches!(err, JournalError::Busy { .. }), "{err}");
        assert!(err.to_string().contains("another agon is running"), "{err}");
        assert_eq!(std::fs::read(dir.join(FILE)).unwrap(), before);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn blank_lines_are_skipped_and_a_damaged_line_names_its_game_until_repaired() {
        let dir = journal_of("damaged", &["g1", "g2", "g3"]);
        append_raw(&dir, b"\n  \n");
        assert_eq!(read(&dir, &any_entry::<Entry>).unwrap().len(), 3);
        let text = std::fs::read_to_string(dir.join(FILE)).unwrap().replacen(
            "\"moves\":10",
            "\"moves\":x",
            2,
        );
        std::fs::write(dir.join(FILE), text).unwrap();
        for err in refusals_of_read_and_open(&dir) {
            assert!(err.contains("line 1 (game g1)"), "{err}");
            assert!(err.contains("1 more lines are damaged"), "{err}");
            assert!(err.contains("agon tournament repair"), "{err}");
        }
        let repair = repair(&dir, &any_entry::<Entry>).unwrap();
        assert_eq!(repair.kept, 1);
        assert_eq!(repair.rejected.len(), 2);
        assert_eq!(ids(&read(&dir, &any_entry::<Entry>).unwrap()), ["g3"]);
        let rejected = std::fs::read_to_string(dir.join(REJECTED)).unwrap();
        assert_eq!(rejected.lines().count(), 2);
        assert!(rejected.contains("\"id\":\"g2\""));
        // The games come back on resume: the journal opens and takes them again.
        let (mut journal, entries) = Journal::open(&dir, &any_entry::<Entry>).unwrap();
        assert_eq!(ids(&entries), ["g3"]);
        journal.append(&entry("g1")).unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn entries_the_plan_does_not_have_are_damage() {
        let dir = journal_of("check", &["g1"]);
        let only_g2 = |e: &Entry| {
            if e.id == "g2" {
                Ok(())
            } else {
                Err(NotPlanned(e.id.clone()))
            }
        };
        let err = read(&dir, &only_g2).unwrap_err().to_string();
        assert!(err.contains("game g1 is not planned"), "{err}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn links_and_special_files_are_refused_as_journals() {
        let dir = scratch("links");
        let victim = dir.join("victim.txt");
        std::fs::write(&victim, b"precious, no newline at the end").unwrap();
        std::os::unix::fs::symlink(&victim, dir.join(FILE)).unwrap();
        let err = Journal::open(&dir, &any_entry::<Entry>).err().unwrap();
        assert!(matches!(err, JournalError::Link { .. }), "{err}");
        assert!(read(&dir, &any_entry::<Entry>)
            .unwrap_err()
            .to_string()
            .contains("symbolic link"));
        assert_eq!(
            std::fs::read(&victim).unwrap(),
            b"precious, no newline at the end"
        );
        std::fs::remove_file(dir.join(FILE)).unwrap();
        std::os::unix::fs::symlink("/dev/zero", dir.join(FILE)).unwrap();
        assert!(read(&dir, &any_entry::<Entry>).is_err());
        assert!(Journal::open(&dir, &any_entry::<Entry>).is_err());
        std::fs::remove_file(dir.join(FILE)).unwrap();
        std::os::unix::fs::symlink(dir.join("nowhere"), dir.join(FILE)).unwrap();
        assert!(Journal::open(&dir, &any_entry::<Entry>).is_err());
        assert!(!dir.join("nowhere").exists());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn opening_removes_what_dead_writers_left() {
        let dir = scratch("leftovers");
        std::fs::write(record_files::folder(&dir).join("g1.tmp.4242"), b"{").unwrap();
        std::fs::write(record_files::folder(&dir).join(".g2.json.tmp.4242.0"), b"{").unwrap();
        std::fs::write(record_files::folder(&dir).join("g3.json"), b"{}").unwrap();
        let _journal = Journal::open(&dir, &any_entry::<Entry>).unwrap();
        let left: Vec<_> = std::fs::read_dir(record_files::folder(&dir))
            .unwrap()
            .collect();
        assert_eq!(left.len(), 1);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    fn line_of(entry: &Entry) -> Vec<u8> {
        let mut line = serde_json::to_vec(entry).unwrap();
        line.push(b'\n');
        line
    }

    /// The entries and damaged lines of `dir`'s journal, read with lines of up to `max_line`.
    fn scan_of(dir: &Path, max_line: u64) -> Scan<Entry> {
        let path = dir.join(FILE);
        let file = File::open(&path).unwrap();
        scan(
            &mut BoundedLines::new(file, &path, max_line),
            &any_entry::<Entry>,
        )
        .unwrap()
    }

    #[test]
    fn an_over_long_line_is_damage_named_by_its_number_and_size_until_repair_moves_it() {
        let dir = journal_of("over-long", &["g1", "g2"]);
        let sound_before = std::fs::read(dir.join(FILE)).unwrap();
        let long = format!(
            "{{\"id\":\"g9\",\"pad\":\"{}\"}}",
            "x".repeat(MAX_LINE as usize)
        );
        append_raw(&dir, format!("{long}\n").as_bytes());
        append_raw(&dir, &line_of(&entry("g3")));
        for err in refusals_of_read_and_open(&dir) {
            assert!(err.contains("line 3 (game g9)"), "{err}");
            assert!(
                err.contains(&format!("{} bytes long, more than", long.len())),
                "{err}"
            );
            assert!(err.contains("agon tournament repair"), "{err}");
        }
        let repair = repair(&dir, &any_entry::<Entry>).unwrap();
        assert_eq!(repair.kept, 3);
        assert_eq!(repair.rejected.len(), 1);
        assert_eq!(repair.rejected[0].size, long.len() as u64);
        let rejected = std::fs::read(dir.join(REJECTED)).unwrap();
        assert!(rejected == format!("{long}\n").as_bytes(), "moved whole");
        let sound_after = [sound_before, line_of(&entry("g3"))].concat();
        assert_eq!(std::fs::read(dir.join(FILE)).unwrap(), sound_after);
        assert_eq!(
            ids(&read(&dir, &any_entry::<Entry>).unwrap()),
            ["g1", "g2", "g3"]
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_line_of_the_bound_is_read_one_byte_more_is_damage_and_lines_after_it_are_read() {
        let dir = journal_of("bound", &["g1"]);
        let max_line = 400;
        // JSON allows the spaces that pad an entry to the length wanted.
        let padded = |e: &Entry, size: usize| {
            let mut line = serde_json::to_vec(e).unwrap();
            line.resize(size, b' ');
            line.push(b'\n');
            line
        };
        append_raw(&dir, &padded(&entry("g2"), max_line));
        append_raw(&dir, &padded(&entry("g3"), max_line + 1));
        append_raw(&dir, &line_of(&entry("g4")));
        let scan = scan_of(&dir, max_line as u64);
        assert_eq!(ids(&scan.entries), ["g1", "g2", "g4"]);
        assert_eq!(scan.damaged.len(), 1);
        assert_eq!(scan.damaged[0].line, 3);
        assert_eq!(scan.damaged[0].game.as_deref(), Some("g3"));
        let err = read_within(&dir, &any_entry::<Entry>, max_line as u64)
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("line 3 (game g3) is not a journal entry of this folder (401 bytes long, more than the 400 bytes a line may have)"),
            "{err}"
        );
        let repair = repair_within(&dir, &any_entry::<Entry>, max_line as u64).unwrap();
        assert_eq!(repair.kept, 3);
        assert_eq!(
            ids(&read_within(&dir, &any_entry::<Entry>, max_line as u64).unwrap()),
            ["g1", "g2", "g4"]
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_torn_last_line_longer_than_the_bound_is_left_to_its_writer_or_cut() {
        let dir = journal_of("torn-long", &["g1"]);
        let sound = std::fs::read(dir.join(FILE)).unwrap();
        append_raw(&dir, &[b'x'; 5000]);
        let read = read_within(&dir, &any_entry::<Entry>, 1000).unwrap();
        assert_eq!(ids(&read), ["g1"]);
        let (_journal, scan) = Journal::open_scanned(&dir, &any_entry::<Entry>, 1000).unwrap();
        assert_eq!(ids(&scan.entries), ["g1"]);
        assert!(scan.damaged.is_empty());
        assert_eq!(std::fs::read(dir.join(FILE)).unwrap(), sound);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// Journals were read whole, up to 4 GiB: a journal past that (sparse here, its hole one
    /// long line of zero bytes) is scanned to its end, through the hole a buffer at a time.
    #[test]
    fn a_journal_past_the_old_whole_file_limit_is_scanned_to_its_end() {
        let dir = journal_of("past-limit", &["g1"]);
        let first = line_of(&entry("g1")).len() as u64;
        let hole_end = (4u64 << 30) + 4096;
        let file = OpenOptions::new().write(true).open(dir.join(FILE)).unwrap();
        file.set_len(hole_end).unwrap();
        append_raw(&dir, b"\n{\"id\":\"g3\",\"seed\":\"x\"}\n");
        append_raw(&dir, &line_of(&entry("g4")));
        let err = read(&dir, &any_entry::<Entry>).unwrap_err().to_string();
        let hole = format!(
            "line 2 is not a journal entry of this folder ({} bytes long",
            hole_end - first
        );
        assert!(err.contains(&hole), "{err}");
        assert!(err.contains("and 1 more lines are damaged"), "{err}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
