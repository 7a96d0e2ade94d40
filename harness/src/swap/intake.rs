//! Watching the folder of builds. `notify` watches the folder itself (not its files: a build
//! replaced by a rename is a new inode that a watch on the old file would never see); every
//! event, and a rescan every second in case the kernel's queue overflowed, leads to a listing
//! of the folder, compared with the last one.
//!
//! A file is taken only when it is whole:
//! - one renamed into the folder (the atomic way to publish a build) is taken at once;
//! - one written in place (`cp` over the old build) is taken once its size, modification and
//!   change times have stayed the same for the settle time;
//! - and in both cases only when its content is the whole ELF file its own header describes
//!   (a writer that pauses longer than the settle time still does not hand over half a
//!   library). A file that stays cut short is refused after [`INCOMPLETE_LIMIT`].
//!
//! Hidden files (`.name`) and editors' and copiers' temporary names are ignored.

use crate::swap::validation::Candidate;
use agon_engine::loader::{elf_extent, file_version, FileVersion, StagedPlugin};
use crossbeam_channel::Sender;
use notify::event::{ModifyKind, RenameMode};
use notify::{EventKind, RecursiveMode, Watcher};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// A rescan this often, whatever the events say.
const RESCAN: Duration = Duration::from_secs(1);

/// A file still cut short after staying unchanged this long is refused.
pub const INCOMPLETE_LIMIT: Duration = Duration::from_secs(10);

/// What the intake reports.
pub enum Arrival {
    /// A whole file, new or changed, to validate.
    Candidate(Candidate),
    /// A file that cannot be a build (unreadable, cut short for good).
    Unusable { slot: String, reason: String },
    /// The slot's file is gone.
    Removed { slot: String },
    /// Everything the folder held at the start has been handed over.
    FirstListingDone,
}

/// Which file, in which state (see `FileVersion`).
type Identity = FileVersion;

struct Seen {
    identity: Identity,
    changed_at: Instant,
    renamed_in: bool,
    /// Not looked at again before this (a file found cut short).
    retry_at: Instant,
    /// Handed over (or refused) in this state; a new change makes it a candidate again.
    done: bool,
}

pub struct Intake {
    dir: PathBuf,
    settle: Duration,
    seen: BTreeMap<String, Seen>,
    /// The first listing was made: files found then are taken without waiting out the settle
    /// time (the ELF check still stops one that is being written).
    listed_once: bool,
}

impl Intake {
    pub fn new(dir: &Path, settle: Duration) -> Intake {
        Intake {
            dir: dir.to_path_buf(),
            settle,
            seen: BTreeMap::new(),
            listed_once: false,
        }
    }

    /// Watches until `stop` is set, sending every arrival to `to`. The first listing hands
    /// over every file already in the folder.
    pub fn run(mut self, to: Sender<Arrival>, stop: Arc<AtomicBool>) -> Result<(), String> {
        return_large_buffers_to_the_system();
        let (events_tx, events_rx) = crossbeam_channel::unbounded();
        let mut watcher = notify::recommended_watcher(move |event| {
            let _ = events_tx.send(event);
        })
        .map_err(|e| format!("cannot watch {}: {e}", self.dir.display()))?;
        watcher
            .watch(&self.dir, RecursiveMode::NonRecursive)
            .map_err(|e| format!("cannot watch {}: {e}", self.dir.display()))?;
        let mut renamed_in = BTreeSet::new();
        let mut first_listing = true;
        loop {
            for arrival in self.scan(&mut renamed_in) {
                if to.send(arrival).is_err() {
                    return Ok(());
                }
            }
            // Files still being written at the start are not waited for.
            if std::mem::take(&mut first_listing) && to.send(Arrival::FirstListingDone).is_err() {
                return Ok(());
            }
            let wait = self.next_due().unwrap_or(RESCAN).min(RESCAN);
            let deadline = Instant::now() + wait;
            // Any event means a listing now (in-place writes then wait out their settle time);
            // what arrived with it is gathered first.
            if let Ok(event) = events_rx.recv_deadline(deadline) {
                note_renames(event, &mut renamed_in);
                while let Ok(more) = events_rx.try_recv() {
                    note_renames(more, &mut renamed_in);
                }
            }
            if stop.load(Ordering::SeqCst) {
                return Ok(());
            }
        }
    }

    /// How long until a file written in place has settled.
    fn next_due(&self) -> Option<Duration> {
        let now = Instant::now();
        self.seen
            .values()
            .filter(|s| !s.done)
            .map(|s| {
                (s.changed_at + self.settle)
                    .max(s.retry_at)
                    .saturating_duration_since(now)
            })
            .min()
            .map(|d| d.max(Duration::from_millis(10)))
    }

    /// Lists the folder and returns what is ready, unusable or gone.
    fn scan(&mut self, renamed_in: &mut BTreeSet<String>) -> Vec<Arrival> {
        let now = Instant::now();
        let first = !std::mem::replace(&mut self.listed_once, true);
        let mut arrivals = Vec::new();
        let listed = match list(&self.dir) {
            Ok(listed) => listed,
            Err(e) => {
                log::warn!("cannot list {}: {e}", self.dir.display());
                return arrivals;
            }
        };
        let gone: Vec<String> = self
            .seen
            .keys()
            .filter(|name| !listed.contains_key(*name))
            .cloned()
            .collect();
        for slot in gone {
            self.seen.remove(&slot);
            arrivals.push(Arrival::Removed { slot });
        }
        for (name, identity) in listed {
            let renamed = renamed_in.remove(&name) || first;
            let fresh = || Seen {
                identity,
                changed_at: now,
                renamed_in: renamed,
                retry_at: now,
                done: false,
            };
            let seen = self.seen.entry(name.clone()).or_insert_with(fresh);
            if seen.identity != identity {
                *seen = fresh();
            }
            seen.renamed_in |= renamed;
            let settled = now.duration_since(seen.changed_at) >= self.settle;
            if seen.done || now < seen.retry_at || !(seen.renamed_in || settled) {
                continue;
            }
            match take(&self.dir.join(&name), identity) {
                Taken::Whole(bytes) => {
                    seen.done = true;
                    arrivals.push(Arrival::Candidate(Candidate {
                        slot: name.clone(),
                        path: self.dir.join(&name),
                        bytes,
                    }));
                }
                Taken::Changed => {}
                Taken::CutShort(why) => {
                    // Rename or not, a file cut short waits for its writer.
                    seen.renamed_in = false;
                    seen.retry_at = now + self.settle.max(Duration::from_millis(100));
                    if now.duration_since(seen.changed_at) >= INCOMPLETE_LIMIT {
                        seen.done = true;
                        arrivals.push(Arrival::Unusable {
                            slot: name.clone(),
                            reason: format!(
                                "{why}, and unchanged for {} s",
                                INCOMPLETE_LIMIT.as_secs()
                            ),
                        });
                    } else {
                        log::debug!("{name}: not whole yet: {why}");
                    }
                }
                Taken::Unusable(reason) => {
                    seen.done = true;
                    arrivals.push(Arrival::Unusable {
                        slot: name.clone(),
                        reason,
                    });
                }
            }
        }
        arrivals
    }
}

enum Taken {
    Whole(Vec<u8>),
    /// Changed while being read: the next listing sees the new state.
    Changed,
    CutShort(String),
    Unusable(String),
}

fn take(path: &Path, identity: Identity) -> Taken {
    let bytes = match StagedPlugin::read(path) {
        Ok(bytes) => bytes,
        Err(e) => return Taken::Unusable(e.to_string()),
    };
    match std::fs::metadata(path).map(|m| file_version(&m)) {
        Ok(now) if now == identity => {}
        _ => return Taken::Changed,
    }
    if !bytes.starts_with(b"\x7fELF") {
        // Not a library at all: validation says so with the loader's words.
        return Taken::Whole(bytes);
    }
    use elf_extent::ExtentError;
    match elf_extent::check_complete(&bytes) {
        Ok(()) => Taken::Whole(bytes),
        // A writer may still be at work: wait for it.
        Err(why @ (ExtentError::CutShort { .. } | ExtentError::HeadersCutShort { .. })) => {
            Taken::CutShort(why.to_string())
        }
        // No writer makes a damaged header whole: refused at once.
        Err(why) => Taken::Unusable(format!("not a usable library: {why}")),
    }
}

fn note_renames(event: notify::Result<notify::Event>, renamed_in: &mut BTreeSet<String>) {
    let Ok(event) = event else {
        return; // a lost event: the rescan finds the change
    };
    let target = match event.kind {
        EventKind::Modify(ModifyKind::Name(RenameMode::To)) => event.paths.first(),
        EventKind::Modify(ModifyKind::Name(RenameMode::Both)) => event.paths.get(1),
        _ => None,
    };
    if let Some(name) = target.and_then(|p| p.file_name()) {
        renamed_in.insert(name.to_string_lossy().into_owned());
    }
}

/// The regular files of `dir` that may be builds, with their identities.
fn list(dir: &Path) -> std::io::Result<BTreeMap<String, Identity>> {
    let mut files = BTreeMap::new();
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        let Ok(name) = entry.file_name().into_string() else {
            continue; // a slot is named in JSON and HTML: UTF-8 names only
        };
        if ignored(&name) {
            continue;
        }
        // Following a symbolic link: a slot may point at a team's build folder.
        let Ok(meta) = std::fs::metadata(entry.path()) else {
            continue;
        };
        if meta.is_file() {
            files.insert(name, file_version(&meta));
        }
    }
    Ok(files)
}

/// Every candidate build is read whole (megabytes). glibc's malloc raises its mmap threshold to
/// the size of the largest block freed, after which such blocks come from the heap and stay
/// there: the engine's memory would grow by a few builds' worth after the first swaps. A fixed
/// threshold (which also turns the raising off) keeps large blocks mapped and unmapped on free.
fn return_large_buffers_to_the_system() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        const THRESHOLD: libc::c_int = 1 << 20;
        // SAFETY: mallopt only changes the allocator's tuning; any value is valid.
        if unsafe { libc::mallopt(libc::M_MMAP_THRESHOLD, THRESHOLD) } != 1 {
            log::debug!("mallopt(M_MMAP_THRESHOLD) was refused");
        }
    }
}

/// Hidden files and the temporary names of editors, copiers and downloads.
pub fn ignored(name: &str) -> bool {
    name.starts_with('.')
        || name.ends_with('~')
        || [".tmp", ".part", ".swp", ".crdownload"]
            .iter()
            .any(|suffix| name.ends_with(suffix))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn temporary_and_hidden_names_are_not_slots() {
        for name in [
            ".libteam.so.tmp",
            "libteam.so~",
            "libteam.so.part",
            ".hidden",
        ] {
            assert!(ignored(name), "{name}");
        }
        assert!(!ignored("libteam.so"));
        assert!(!ignored("team-7"));
    }

    #[test]
    fn a_damaged_header_is_refused_at_once_and_a_cut_file_waits() {
        let dir = agon_engine::output_file::fresh_scratch("intake-take").unwrap();
        let taken = |name: &str, bytes: &[u8]| {
            let path = dir.join(name);
            std::fs::write(&path, bytes).unwrap();
            take(&path, file_version(&std::fs::metadata(&path).unwrap()))
        };
        // ELF magic, then a class no ELF file has.
        assert!(matches!(
            taken("damaged.so", b"\x7fELF\x09\x01"),
            Taken::Unusable(why) if why.contains("unknown ELF class 9")
        ));
        let whole = std::fs::read(std::env::current_exe().unwrap()).unwrap();
        assert!(matches!(
            taken("cut.so", &whole[..whole.len() / 2]),
            Taken::CutShort(_)
        ));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
