//! Merging the shard folders of one tournament: every planned game once, with its record.
//!
//! The folders must be shards of one layout (`shard.rs`): the same tournament in the same
//! number of shards. A shard with no folder, or a folder with no journal, is named. Copies of a
//! game that shards decided differently under the same seeds stop the merge. Journals are read
//! a line at a time and records are linked, not copied, so a merge holds no more than the set of
//! game ids it has seen, whatever the tournament's size. The merged folder is built beside its
//! destination and renamed into place, so it appears whole or not at all.

mod error;

use crate::entry::Entry;
use crate::plan::{GameSpec, Plan};
use crate::shard::Shard;
use agon_engine::OnPath;
use agon_engine::SeedSecret;
use agon_play::journal::{self, Journal};
use agon_play::record_files;
use agon_play::view::game_files;
use std::collections::hash_map::DefaultHasher;
use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};

pub use error::MergeError;

/// What a merge put together.
#[derive(Debug)]
pub struct Merged {
    /// The merged tournament's plan: every game of the shards merged, in plan order.
    pub plan: Plan,
    pub counts: Counts,
}

/// How many games a merge took, found twice, and missed.
#[derive(Debug)]
pub struct Counts {
    pub games: usize,
    /// Games found in more than one shard folder (the first folder's copy is merged).
    pub duplicates: usize,
    /// Planned games with no result in any folder.
    pub missing: usize,
}

/// A folder given to a merge: a shard's, or a whole run's.
struct Part {
    dir: PathBuf,
    plan: Plan,
    shard: Option<Shard>,
}

impl Part {
    fn name(&self) -> String {
        match self.shard {
            Some(s) => format!("shard {} of {} ({})", s.index, s.count, self.dir.display()),
            None => self.dir.display().to_string(),
        }
    }
}

/// Merges the folders `dirs` of one tournament into the new folder `out`. A shard or planned
/// game with no result is an error, unless `allow_missing`.
pub fn merge(dirs: &[PathBuf], out: &Path, allow_missing: bool) -> Result<Merged, MergeError> {
    let parts = read_parts(dirs)?;
    let plan = whole_plan(&parts, allow_missing)?;
    let staging = staging_folder(out)?;
    // A folder of this merge's own: never one an earlier merge left (a process id repeats).
    std::fs::create_dir(&staging)
        .on_path(&staging)
        .map_err(MergeError::Create)?;
    let counts = match stage(&plan, &parts, &staging, allow_missing) {
        Ok(counts) => counts,
        Err(e) => {
            let _ = std::fs::remove_dir_all(&staging);
            return Err(e);
        }
    };
    // An empty --out folder is replaced; rename(2) refuses a non-empty one.
    std::fs::rename(&staging, out).map_err(|source| {
        let _ = std::fs::remove_dir_all(&staging);
        MergeError::Move {
            out: out.to_path_buf(),
            source,
        }
    })?;
    Ok(Merged { plan, counts })
}

fn read_parts(dirs: &[PathBuf]) -> Result<Vec<Part>, MergeError> {
    let mut parts: Vec<Part> = Vec::new();
    for dir in dirs {
        let plan = Plan::read(dir)?;
        let shard = plan.shard;
        if let Some(first) = parts.first() {
            if plan.config_hash != first.plan.config_hash {
                return Err(MergeError::OtherTournament {
                    dir: dir.clone(),
                    hash: plan.config_hash,
                    first: first.dir.clone(),
                    first_hash: first.plan.config_hash.clone(),
                });
            }
            let count = |s: Option<Shard>| s.map(|s| s.count);
            if shard.is_some() && first.shard.is_some() && count(shard) != count(first.shard) {
                return Err(MergeError::OtherLayout {
                    dir: dir.clone(),
                    shard: shard.map(|s| s.to_string()).unwrap_or_default(),
                    first: first.dir.clone(),
                    first_shard: first.shard.map(|s| s.to_string()).unwrap_or_default(),
                });
            }
        }
        parts.push(Part {
            dir: dir.clone(),
            plan,
            shard,
        });
    }
    Ok(parts)
}

/// The plan of the whole tournament the parts belong to, with every game of the parts given
/// in plan order; a shard no folder holds is an error unless `allow_missing`.
fn whole_plan(parts: &[Part], allow_missing: bool) -> Result<Plan, MergeError> {
    let first = parts.first().ok_or(MergeError::NoFolders)?;
    if let Some(whole) = parts.iter().find(|p| p.shard.is_none()) {
        for part in parts.iter().filter(|p| p.shard.is_some()) {
            check_slice(&whole.plan.games, part)?;
        }
        return Ok(whole.plan.clone());
    }
    let count = first.shard.map_or(1, |s| s.count);
    let total = first.plan.games_total.unwrap_or(first.plan.games.len());
    let mut games: Vec<Option<GameSpec>> = vec![None; total];
    for part in parts {
        if part.plan.games_total != Some(total) {
            return Err(MergeError::OtherTotal {
                dir: part.dir.clone(),
                planned: part.plan.games_total.unwrap_or(0),
                first: first.dir.clone(),
                total,
            });
        }
        let shard = part.shard.expect("only shards are left");
        for (k, game) in part.plan.games.iter().enumerate() {
            let slot = games
                .get_mut(shard.position(k))
                .ok_or_else(|| MergeError::TooManyGames { part: part.name() })?;
            if slot.as_ref().is_some_and(|g| g != game) {
                return Err(MergeError::OtherGames { part: part.name() });
            }
            *slot = Some(game.clone());
        }
    }
    let absent: Vec<u32> = (0..count)
        .filter(|&i| !parts.iter().any(|p| p.shard.is_some_and(|s| s.index == i)))
        .collect();
    for &index in &absent {
        let games = Shard { index, count }.share_of(total);
        if !allow_missing {
            return Err(MergeError::ShardMissing {
                index,
                count,
                games,
            });
        }
        eprintln!(
            "agon: warning: shard {index} of {count} has no folder among those given ({games} \
             games); merging without it"
        );
    }
    let mut plan = first.plan.clone();
    plan.shard = None;
    plan.games = games.into_iter().flatten().collect();
    plan.games_total = (!absent.is_empty()).then_some(total);
    Ok(plan)
}

/// A shard's plan must hold the games its shard takes of the whole plan `games`.
fn check_slice(games: &[GameSpec], part: &Part) -> Result<(), MergeError> {
    let shard = part.shard.expect("a shard");
    if part.plan.games_total != Some(games.len()) || shard.select(games) != part.plan.games {
        return Err(MergeError::NotItsSlice { part: part.name() });
    }
    Ok(())
}

/// A game seen in an earlier folder: under which secret, what it decided, where.
struct Seen {
    secret: Option<SeedSecret>,
    result: u64,
    part: usize,
    copies: u32,
}

/// Writes the plan, each game's record and the journal into `staging`, one folder and one
/// journal line at a time.
fn stage(
    plan: &Plan,
    parts: &[Part],
    staging: &Path,
    allow_missing: bool,
) -> Result<Counts, MergeError> {
    for folder in [
        record_files::folder(staging),
        staging.join(game_files::FOLDER),
    ] {
        std::fs::create_dir_all(&folder)
            .on_path(&folder)
            .map_err(MergeError::Create)?;
    }
    plan.write(staging)
        .on_path(&staging.join("tournament.json"))?;
    let check = plan.entry_check();
    let (mut journal, _) = Journal::open(staging, &check)?;
    let mut seen: HashMap<String, Seen> = HashMap::new();
    let mut conflicts = Vec::new();
    let mut without_journal = Vec::new();
    for (index, part) in parts.iter().enumerate() {
        let had_journal = journal::stream(
            &part.dir,
            &check,
            |entry: Entry| -> Result<(), MergeError> {
                let result = result_digest(&entry);
                if let Some(first) = seen.get_mut(&entry.id) {
                    first.copies += 1;
                    if first.secret == entry.seed_secret && first.result != result {
                        conflicts.push(format!(
                            "{} ({} / {}: {})",
                            entry.id,
                            parts[first.part].dir.display(),
                            part.dir.display(),
                            entry.result.reason
                        ));
                    }
                    return Ok(());
                }
                // The record first: a journal line always has its record.
                link_record(&part.dir, staging, &entry.id)?;
                // The viewer's data file too, where the shard's report wrote one (else the merged
                // report writes it).
                let data = game_files::data_path(&part.dir, &entry.id);
                if data.is_file() {
                    link_or_copy(&data, &game_files::data_path(staging, &entry.id))?;
                }
                journal.append_unsynced(&entry)?;
                let first = Seen {
                    secret: entry.seed_secret,
                    result,
                    part: index,
                    copies: 1,
                };
                seen.insert(entry.id, first);
                Ok(())
            },
        )?;
        if !had_journal {
            without_journal.push(part.name());
        }
    }
    journal.sync()?;
    if !conflicts.is_empty() {
        return Err(MergeError::Conflicts { conflicts });
    }
    let missing = missing_games(plan, parts, &seen, &without_journal, allow_missing)?;
    Ok(Counts {
        games: seen.len(),
        duplicates: seen.values().filter(|s| s.copies > 1).count(),
        missing: missing + plan.games_planned() - plan.games.len(),
    })
}

/// A digest of what a game decided, to tell two copies of it apart without keeping either.
fn result_digest(entry: &Entry) -> u64 {
    let r = &entry.result;
    let mut h = DefaultHasher::new();
    r.winner.hash(&mut h);
    r.ranks.hash(&mut h);
    r.moves.hash(&mut h);
    format!("{:?}", r.termination).hash(&mut h);
    for x in r.scores.iter().chain(&r.game_scores) {
        x.to_bits().hash(&mut h);
    }
    h.finish()
}

/// Links a game's record into the merged folder (a copy where a link cannot be made, such as
/// across file systems); a record that is missing is merged without, with a warning.
fn link_record(dir: &Path, staging: &Path, id: &str) -> Result<(), MergeError> {
    let (from, to) = (record_files::path(dir, id), record_files::path(staging, id));
    if !from.is_file() {
        eprintln!(
            "agon: warning: {} is missing; the game is merged without its record",
            from.display()
        );
        return Ok(());
    }
    link_or_copy(&from, &to)
}

/// A hard link of `from` at `to`, or a copy where a link cannot be made.
fn link_or_copy(from: &Path, to: &Path) -> Result<(), MergeError> {
    std::fs::hard_link(from, to)
        .or_else(|_| std::fs::copy(from, to).map(|_| ()))
        .on_path(from)
        .map_err(MergeError::Copy)
}

/// How many planned games of the shards given have no result: an error naming the shards
/// they belong to unless `allow_missing`, then a warning.
fn missing_games(
    plan: &Plan,
    parts: &[Part],
    seen: &HashMap<String, Seen>,
    without_journal: &[String],
    allow_missing: bool,
) -> Result<usize, MergeError> {
    let missing: Vec<&str> = plan
        .games
        .iter()
        .filter(|g| !seen.contains_key(&g.id))
        .map(|g| g.id.as_str())
        .collect();
    if missing.is_empty() {
        return Ok(0);
    }
    let mut lines: Vec<String> = without_journal
        .iter()
        .map(|name| format!("{name} has no journal"))
        .collect();
    for part in parts
        .iter()
        .filter(|p| !without_journal.contains(&p.name()))
    {
        let lacking: Vec<&str> = part
            .plan
            .games
            .iter()
            .filter(|g| !seen.contains_key(&g.id))
            .map(|g| g.id.as_str())
            .collect();
        if !lacking.is_empty() {
            lines.push(format!(
                "{}: {} of its {} games have no result ({})",
                part.name(),
                lacking.len(),
                part.plan.games.len(),
                first_few(&lacking)
            ));
        }
    }
    let summary = format!(
        "{} planned games are in no shard folder: {}",
        missing.len(),
        lines.join("; ")
    );
    if !allow_missing {
        return Err(MergeError::GamesMissing { summary });
    }
    eprintln!("agon: warning: {summary}; merging without them");
    Ok(missing.len())
}

fn first_few(ids: &[&str]) -> String {
    let more = if ids.len() > 5 { ", ..." } else { "" };
    format!(
        "{}{more}",
        ids.iter().take(5).copied().collect::<Vec<_>>().join(", ")
    )
}

/// A fresh folder beside `out` to build the merge in (so it appears whole, or not at all), after
/// checking `out` can receive it and removing what earlier killed merges left.
fn staging_folder(out: &Path) -> Result<PathBuf, MergeError> {
    if let Ok(mut entries) = std::fs::read_dir(out) {
        if entries.next().is_some() {
            return Err(MergeError::OutNotEmpty {
                out: out.to_path_buf(),
            });
        }
    } else if out.exists() {
        return Err(MergeError::OutNotAFolder {
            out: out.to_path_buf(),
        });
    }
    let parent = match out.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let name = out
        .file_name()
        .ok_or_else(|| MergeError::NotAFolderName {
            out: out.to_path_buf(),
        })?
        .to_string_lossy()
        .into_owned();
    let prefix = format!(".{name}.merging.");
    if let Ok(entries) = std::fs::read_dir(&parent) {
        for entry in entries.flatten() {
            let file = entry.file_name().to_string_lossy().into_owned();
            let pid = file
                .strip_prefix(&prefix)
                .and_then(|p| p.split('-').next()?.parse::<i32>().ok());
            if pid.is_some_and(|pid| !process_alive(pid)) {
                let _ = std::fs::remove_dir_all(entry.path());
            }
        }
    }
    Ok(parent.join(format!(
        "{prefix}{}-{:016x}",
        std::process::id(),
        rand::random::<u64>()
    )))
}

/// Whether process `pid` runs (one of another user's, which may not be signalled, does).
fn process_alive(pid: i32) -> bool {
    rustix::process::Pid::from_raw(pid).is_some_and(|p| {
        !matches!(
            rustix::process::test_kill_process(p),
            Err(rustix::io::Errno::SRCH)
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use agon_engine::output_file::fresh_scratch;

    #[test]
    fn nothing_to_merge_is_said() {
        let out = fresh_scratch("merge-none").unwrap().join("out");
        let error = merge(&[], &out, false).unwrap_err();
        assert!(matches!(error, MergeError::NoFolders), "{error:?}");
        std::fs::remove_dir_all(out.parent().unwrap()).unwrap();
    }

    #[test]
    fn an_out_folder_that_cannot_receive_the_merge_is_refused() {
        let dir = fresh_scratch("merge-out").unwrap();
        let full = dir.join("full");
        std::fs::create_dir(&full).unwrap();
        std::fs::write(full.join("standings.json"), b"{}").unwrap();
        let error = staging_folder(&full).unwrap_err();
        assert!(matches!(&error, MergeError::OutNotEmpty { out } if *out == full));
        assert!(error
            .to_string()
            .contains("choose a new or empty --out folder"));
        let file = dir.join("file");
        std::fs::write(&file, b"").unwrap();
        let error = staging_folder(&file).unwrap_err();
        assert!(matches!(&error, MergeError::OutNotAFolder { out } if *out == file));
        let staging = staging_folder(&dir.join("fresh")).unwrap();
        assert_eq!(staging.parent(), Some(dir.as_path()));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn refusals_say_what_is_wrong_and_that_nothing_was_merged() {
        let other = MergeError::OtherTournament {
            dir: PathBuf::from("b"),
            hash: "h2".into(),
            first: PathBuf::from("a"),
            first_hash: "h1".into(),
        };
        assert_eq!(
            other.to_string(),
            "b belongs to tournament h2, a to h1: shards of different configurations cannot be \
             merged"
        );
        let conflicts = MergeError::Conflicts {
            conflicts: vec!["g1 (a / b: timeout)".into(), "g2 (a / b: rules)".into()],
        };
        assert_eq!(
            conflicts.to_string(),
            "2 games have different results in different shards; nothing was merged:\n  g1 (a / \
             b: timeout)\n  g2 (a / b: rules)"
        );
        let missing = MergeError::GamesMissing {
            summary: "3 planned games are in no shard folder: x".into(),
        };
        assert!(missing
            .to_string()
            .starts_with("3 planned games are in no shard folder: x. Run or resume"));
        assert!(missing.to_string().ends_with("nothing was merged"));
        let slice = MergeError::NotItsSlice {
            part: "shard 1 of 4 (s1)".into(),
        };
        assert_eq!(
            slice.to_string(),
            "shard 1 of 4 (s1) does not hold the games its shard takes of the whole plan"
        );
    }

    #[test]
    fn a_record_that_cannot_be_copied_names_its_file() {
        let dir = fresh_scratch("merge-copy").unwrap();
        let from = dir.join("missing.json");
        let error = link_or_copy(&from, &dir.join("to.json")).unwrap_err();
        match &error {
            MergeError::Copy(e) => assert_eq!(e.path, from),
            other => panic!("not a copy error: {other:?}"),
        }
        assert!(error.to_string().starts_with("cannot copy "), "{error}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
