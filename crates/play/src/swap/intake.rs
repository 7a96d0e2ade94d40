//! Watching the folder of builds. `notify` watches the folder itself (not its files: a build
//! replaced by a rename is a new inode that a watch on the old file would never see); every
//! event that changes the folder leads to a listing of it, compared with the last one. Reading
//! the folder is itself an event to the kernel (an open), so events that only read are let
//! pass: otherwise each listing would cause the next, and an idle ladder would burn a core.
//! Where the kernel's events cannot be trusted, the folder is listed on a timer as well: after
//! its event queue overflowed, and on network file systems, whose changes made by other
//! machines raise no event here. An idle intake on a local folder wakes for nothing.
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

use crate::stop::Stop;
use crate::swap::validation::Candidate;
use agon_engine::{loader::elf_extent, loader::file_version, FileVersion, StagedPlugin};
use crossbeam_channel::select;
use crossbeam_channel::Sender;
use notify::event::{AccessKind, AccessMode, ModifyKind, RenameMode};
use notify::{EventKind, RecursiveMode, Watcher};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// How often a folder whose events cannot be trusted is listed anyway.
const RESCAN: Duration = Duration::from_secs(1);

/// A file still cut short after staying unchanged this long is refused.
pub const INCOMPLETE_LIMIT: Duration = Duration::from_secs(10);

/// What the intake reports.
pub enum Arrival {
    /// A whole file, new or changed, to validate.
    Candidate(Candidate),
    /// A file that cannot be a build (unreadable, cut short for good); the hash of what was
    /// read of it, if anything was.
    Unusable {
        slot: String,
        sha256: Option<String>,
        inode: u64,
        reason: String,
    },
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
    /// Counts the listings, for the test that an idle folder is not listed over and over.
    #[cfg(test)]
    listings: Option<std::sync::Arc<std::sync::atomic::AtomicUsize>>,
}

/// The watched folder cannot be watched.
#[derive(Debug, thiserror::Error)]
#[error("cannot watch {}: {source}", dir.display())]
pub struct WatchError {
    pub dir: PathBuf,
    #[source]
    pub source: notify::Error,
}

impl WatchError {
    fn watching(dir: &Path) -> impl FnOnce(notify::Error) -> WatchError + '_ {
        move |source| WatchError {
            dir: dir.to_path_buf(),
            source,
        }
    }
}

impl Intake {
    pub fn new(dir: &Path, settle: Duration) -> Intake {
        Intake {
            dir: dir.to_path_buf(),
            settle,
            seen: BTreeMap::new(),
            listed_once: false,
            #[cfg(test)]
            listings: None,
        }
    }

    /// Watches until `stop` is asked, sending every arrival to `to`. The first listing hands
    /// over every file already in the folder.
    pub fn run(mut self, to: Sender<Arrival>, stop: &Stop) -> Result<(), WatchError> {
        return_large_buffers_to_the_system();
        let (events_tx, events_rx) = crossbeam_channel::unbounded();
        let mut watcher = notify::recommended_watcher(move |event| {
            let _ = events_tx.send(event);
        })
        .map_err(WatchError::watching(&self.dir))?;
        watcher
            .watch(&self.dir, RecursiveMode::NonRecursive)
            .map_err(WatchError::watching(&self.dir))?;
        let mut rescan = events_untrusted(&self.dir).then_some(RESCAN);
        if let Some(every) = rescan {
            log::info!(
                "{} is on a network file system: listed every {} s as well as on events",
                self.dir.display(),
                every.as_secs()
            );
        }
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
            let wait = [self.next_due(), rescan].into_iter().flatten().min();
            let timer = wait.map_or_else(crossbeam_channel::never, crossbeam_channel::after);
            // Sleeps until the folder changes, a file settles, or the stop; what arrived with
            // a change is gathered first.
            loop {
                select! {
                    recv(events_rx) -> event => {
                        let Ok(event) = event else { return Ok(()) };
                        let mut changed = note(event, &mut renamed_in, &mut rescan);
                        while let Ok(more) = events_rx.try_recv() {
                            changed |= note(more, &mut renamed_in, &mut rescan);
                        }
                        if changed {
                            break;
                        }
                    }
                    recv(timer) -> _ => break,
                    recv(stop.receiver()) -> _ => return Ok(()),
                }
            }
            if stop.is_requested() {
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
        #[cfg(test)]
        if let Some(listings) = &self.listings {
            listings.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        }
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
                        inode: identity.1,
                    }));
                }
                Taken::Changed => {}
                Taken::CutShort(why, sha256) => {
                    // Rename or not, a file cut short waits for its writer.
                    seen.renamed_in = false;
                    seen.retry_at = now + self.settle.max(Duration::from_millis(100));
                    if now.duration_since(seen.changed_at) >= INCOMPLETE_LIMIT {
                        seen.done = true;
                        arrivals.push(Arrival::Unusable {
                            slot: name.clone(),
                            sha256: Some(sha256),
                            inode: identity.1,
                            reason: format!(
                                "{why}, and unchanged for {} s",
                                INCOMPLETE_LIMIT.as_secs()
                            ),
                        });
                    } else {
                        log::debug!("{name}: not whole yet: {why}");
                    }
                }
                Taken::Unusable(reason, sha256) => {
                    seen.done = true;
                    arrivals.push(Arrival::Unusable {
                        slot: name.clone(),
                        sha256,
                        inode: identity.1,
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
    /// Why, and the hash of what was read.
    CutShort(String, String),
    /// Why, and the hash of what was read, if it could be.
    Unusable(String, Option<String>),
}

fn take(path: &Path, identity: Identity) -> Taken {
    let bytes = match StagedPlugin::read(path) {
        Ok(bytes) => bytes,
        Err(e) => return Taken::Unusable(e.to_string(), None),
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
    let sha256 = || agon_engine::loader::sha256_hex(&bytes);
    match elf_extent::check_complete(&bytes) {
        Ok(()) => Taken::Whole(bytes),
        // A writer may still be at work: wait for it.
        Err(why @ (ExtentError::CutShort { .. } | ExtentError::HeadersCutShort { .. })) => {
            Taken::CutShort(why.to_string(), sha256())
        }
        // No writer makes a damaged header whole: refused at once.
        Err(why) => Taken::Unusable(format!("not a usable library: {why}"), Some(sha256())),
    }
}

/// Notes what `event` says; true when it may have changed the folder's listing. An event the
/// kernel lost (its queue overflowed) turns on the timed listing from then on.
fn note(
    event: notify::Result<notify::Event>,
    renamed_in: &mut BTreeSet<String>,
    rescan: &mut Option<Duration>,
) -> bool {
    let event = match event {
        Ok(event) => event,
        Err(e) => {
            log::warn!("the folder watch failed ({e}): the folder is listed every second");
            *rescan = Some(RESCAN);
            return true;
        }
    };
    if event.need_rescan() {
        *rescan = Some(RESCAN);
        return true;
    }
    let target = match event.kind {
        EventKind::Modify(ModifyKind::Name(RenameMode::To)) => event.paths.first(),
        EventKind::Modify(ModifyKind::Name(RenameMode::Both)) => event.paths.get(1),
        _ => None,
    };
    if let Some(name) = target.and_then(|p| p.file_name()) {
        renamed_in.insert(name.to_string_lossy().into_owned());
    }
    changes_the_folder(&event.kind)
}

/// Whether an event of this kind can change what a listing finds: opening, reading and
/// closing a file unwritten cannot (and the intake's own listings cause them).
fn changes_the_folder(kind: &EventKind) -> bool {
    match kind {
        EventKind::Access(AccessKind::Close(AccessMode::Write)) => true,
        EventKind::Access(_) => false,
        _ => true,
    }
}

/// Whether the kernel's events may miss changes to `dir`: on network and user-space file
/// systems another machine (or the server behind them) changes files without telling this one.
fn events_untrusted(dir: &Path) -> bool {
    const NETWORK: [i64; 11] = [
        0x6969,     // NFS
        0x517B,     // SMB
        0xFF534D42, // CIFS
        0xFE534D42, // SMB2
        0x65735546, // FUSE
        0x01021997, // 9P
        0x00C36400, // Ceph
        0x5346414F, // AFS
        0x0BD00BD0, // Lustre
        0x47504653, // GPFS
        0x013111A8, // IBRIX
    ];
    match rustix::fs::statfs(dir) {
        // f_type is an i64 here, a u32 or an i32 on other architectures.
        #[allow(clippy::unnecessary_cast)]
        Ok(stat) => NETWORK.contains(&(stat.f_type as i64)),
        Err(_) => true,
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
    fn reading_the_folder_is_not_a_change_to_it() {
        use notify::event::{CreateKind, DataChange, RemoveKind};
        let (read, write) = (AccessMode::Read, AccessMode::Write);
        for quiet in [
            EventKind::Access(AccessKind::Open(AccessMode::Any)),
            EventKind::Access(AccessKind::Close(read)),
            EventKind::Access(AccessKind::Read),
        ] {
            assert!(!changes_the_folder(&quiet), "{quiet:?}");
        }
        for change in [
            EventKind::Access(AccessKind::Close(write)),
            EventKind::Create(CreateKind::File),
            EventKind::Modify(ModifyKind::Data(DataChange::Any)),
            EventKind::Modify(ModifyKind::Name(RenameMode::To)),
            EventKind::Remove(RemoveKind::File),
        ] {
            assert!(changes_the_folder(&change), "{change:?}");
        }
        let here = std::env::temp_dir();
        assert!(!events_untrusted(&here), "{} is local", here.display());
    }

    /// The intake's own listing opens the folder; before it let such events pass, every
    /// listing caused the next one.
    #[test]
    fn an_idle_intake_does_not_list_its_folder_again_and_again() {
        let dir = agon_engine::output_file::fresh_scratch("intake-idle").unwrap();
        let stop = Stop::default();
        let (to, arrivals) = crossbeam_channel::unbounded();
        let listings = std::thread::scope(|scope| {
            let intake = Intake::new(&dir, Duration::from_millis(100));
            let running = scope.spawn(|| {
                let mut intake = intake;
                let counted = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
                intake.listings = Some(counted.clone());
                intake.run(to, &stop).unwrap();
                counted.load(std::sync::atomic::Ordering::SeqCst)
            });
            assert!(matches!(arrivals.recv(), Ok(Arrival::FirstListingDone)));
            std::thread::sleep(Duration::from_millis(1500));
            stop.request();
            running.join().unwrap()
        });
        assert!(
            listings <= 2,
            "{listings} listings of an idle folder in 1.5 s"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_folder_that_cannot_be_watched_is_named() {
        let missing = std::env::temp_dir().join(format!("agon-no-such-{}", std::process::id()));
        let (to, _arrivals) = crossbeam_channel::unbounded();
        let error = Intake::new(&missing, Duration::from_millis(100))
            .run(to, &Stop::default())
            .unwrap_err();
        assert_eq!(error.dir, missing);
        let text = error.to_string();
        assert!(
            text.starts_with(&format!("cannot watch {}: ", missing.display())),
            "{text}"
        );
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
            Taken::Unusable(why, Some(_)) if why.contains("unknown ELF class 9")
        ));
        let whole = std::fs::read(std::env::current_exe().unwrap()).unwrap();
        assert!(matches!(
            taken("cut.so", &whole[..whole.len() / 2]),
            Taken::CutShort(..)
        ));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
