//! Merging the shard folders of one tournament: every planned game once, with its record.
//! Copies of a game that shards decided differently under the same seeds stop the merge. The
//! merged folder is built beside its destination and renamed into place, so it appears whole or
//! not at all.

use super::entry::Entry;
use super::plan::Plan;
use crate::journal::{self, EntryCheck, Journal};
use anyhow::{anyhow, bail, Context};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// What a merge put together.
#[derive(Debug)]
pub struct Merged {
    pub games: usize,
    /// Games found in more than one shard folder (the first folder's copy is merged).
    pub duplicates: usize,
    /// Planned games found in no shard folder.
    pub missing: usize,
}

/// Every copy of each game, with the folder it came from, by game id.
type Copies<'a> = BTreeMap<&'a str, Vec<&'a (Entry, &'a Path)>>;

/// The plan of the whole tournament that the shard folders `dirs` are parts of.
pub fn whole_plan(dirs: &[PathBuf]) -> anyhow::Result<Plan> {
    let mut plans = Vec::new();
    for dir in dirs {
        plans.push(Plan::read(dir).map_err(|e| anyhow!(e))?);
    }
    let first = &plans[0];
    for (dir, p) in dirs.iter().zip(&plans).skip(1) {
        if p.config_hash != first.config_hash || p.games != first.games {
            bail!(
                "{} belongs to tournament {}, {} to {}: shards of different configurations \
                 cannot be merged",
                dir.display(),
                p.config_hash,
                dirs[0].display(),
                first.config_hash
            );
        }
    }
    let mut whole = first.clone();
    whole.shard = None;
    Ok(whole)
}

/// Merges the games of the shard folders `dirs` into the new folder `out`, under `plan` (see
/// [`whole_plan`]). Planned games that are in no shard are an error, unless `allow_missing`.
pub fn merge(
    plan: &Plan,
    dirs: &[PathBuf],
    out: &Path,
    allow_missing: bool,
) -> anyhow::Result<Merged> {
    let check = plan.entry_check();
    let found = every_entry(dirs, &check)?;
    let mut by_id: Copies = BTreeMap::new();
    for item in &found {
        by_id.entry(item.0.id.as_str()).or_default().push(item);
    }
    refuse_conflicts(&by_id)?;
    let duplicates = by_id.values().filter(|copies| copies.len() > 1).count();
    let missing = missing_games(plan, &by_id, allow_missing)?;
    let staging = staging_folder(out)?;
    let games = match stage(plan, &check, &by_id, &staging) {
        Ok(n) => n,
        Err(e) => {
            let _ = std::fs::remove_dir_all(&staging);
            return Err(e);
        }
    };
    // An empty --out folder is replaced; rename(2) refuses a non-empty one.
    std::fs::rename(&staging, out).map_err(|e| {
        let _ = std::fs::remove_dir_all(&staging);
        anyhow!(
            "cannot move the merged tournament to {}: {e}",
            out.display()
        )
    })?;
    Ok(Merged {
        games,
        duplicates,
        missing,
    })
}

/// Every shard's entries, with the folder each came from.
fn every_entry<'a>(
    dirs: &'a [PathBuf],
    check: EntryCheck<Entry>,
) -> anyhow::Result<Vec<(Entry, &'a Path)>> {
    let mut found = Vec::new();
    for dir in dirs {
        let entries = journal::read(dir, check).map_err(|e| anyhow!(e))?;
        found.extend(entries.into_iter().map(|e| (e, dir.as_path())));
    }
    Ok(found)
}

fn refuse_conflicts(by_id: &Copies) -> anyhow::Result<()> {
    let conflicts: Vec<String> = by_id
        .iter()
        .filter(|(_, copies)| disagree(copies.iter().map(|(entry, _)| entry)))
        .map(|(id, copies)| {
            format!(
                "{id} ({})",
                copies
                    .iter()
                    .map(|(e, dir)| format!("{}: {}", dir.display(), e.result.reason))
                    .collect::<Vec<_>>()
                    .join(" / ")
            )
        })
        .collect();
    if !conflicts.is_empty() {
        bail!(
            "{} games have different results in different shards; nothing was merged:\n  {}",
            conflicts.len(),
            conflicts.join("\n  ")
        );
    }
    Ok(())
}

/// How many planned games are in no shard: an error unless `allow_missing`, then a warning.
fn missing_games(plan: &Plan, by_id: &Copies, allow_missing: bool) -> anyhow::Result<usize> {
    let missing: Vec<&str> = plan
        .games
        .iter()
        .filter(|g| !by_id.contains_key(g.id.as_str()))
        .map(|g| g.id.as_str())
        .collect();
    if !missing.is_empty() {
        let list = missing
            .iter()
            .take(20)
            .copied()
            .collect::<Vec<_>>()
            .join(", ");
        let more = if missing.len() > 20 { ", ..." } else { "" };
        if !allow_missing {
            bail!(
                "{} planned games are in no shard folder ({list}{more}); run the missing \
                 shards and merge again, or pass --allow-missing for a partial merge; nothing \
                 was merged",
                missing.len()
            );
        }
        eprintln!(
            "agon: warning: {} planned games are in no shard ({list}{more}); merging without them",
            missing.len()
        );
    }
    Ok(missing.len())
}

/// Writes the plan, each game's record and the journal into `staging`; returns the games
/// written.
fn stage(
    plan: &Plan,
    check: EntryCheck<Entry>,
    by_id: &Copies,
    staging: &Path,
) -> anyhow::Result<usize> {
    std::fs::create_dir_all(staging.join("records"))
        .with_context(|| format!("cannot create {}", staging.display()))?;
    plan.write(staging)?;
    let (mut journal, _) = Journal::open(staging, check).map_err(|e| anyhow!(e))?;
    for copies in by_id.values() {
        let (entry, dir) = copies[0];
        let name = format!("{}.json", entry.id);
        let from = dir.join("records").join(&name);
        // The record first: a journal line always has its record.
        if from.is_file() {
            std::fs::copy(&from, staging.join("records").join(&name))
                .with_context(|| format!("cannot copy {}", from.display()))?;
        } else {
            eprintln!(
                "agon: warning: {} is missing; the game is merged without its record",
                from.display()
            );
        }
        journal.append(entry).map_err(|e| anyhow!(e))?;
    }
    Ok(by_id.len())
}

/// Whether copies of one game that were played under the same seeds decided it differently.
/// Copies under different seed secrets (shards draw their own) are different plays of the
/// game, which may well differ; the first folder's is merged.
fn disagree<'e>(copies: impl Iterator<Item = &'e Entry> + Clone) -> bool {
    copies.clone().enumerate().any(|(i, a)| {
        copies
            .clone()
            .skip(i + 1)
            .any(|b| a.seed_secret == b.seed_secret && !same_result(a, b))
    })
}

/// Whether two entries of one game agree on what the game decided.
fn same_result(a: &Entry, b: &Entry) -> bool {
    a.result.scores == b.result.scores
        && a.result.winner == b.result.winner
        && a.result.ranks == b.result.ranks
        && a.result.termination == b.result.termination
        && a.result.moves == b.result.moves
        && a.result.game_scores == b.result.game_scores
}

/// A fresh folder beside `out` to build the merge in (so it appears whole, or not at all), after
/// checking `out` can receive it and removing what earlier killed merges left.
fn staging_folder(out: &Path) -> anyhow::Result<PathBuf> {
    if let Ok(mut entries) = std::fs::read_dir(out) {
        if entries.next().is_some() {
            bail!(
                "{} exists and is not empty; choose a new or empty --out folder",
                out.display()
            );
        }
    } else if out.exists() {
        bail!("{} exists and is not a folder", out.display());
    }
    let parent = match out.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let name = out
        .file_name()
        .ok_or_else(|| anyhow!("{}: not a folder name", out.display()))?
        .to_string_lossy()
        .into_owned();
    let prefix = format!(".{name}.merging.");
    if let Ok(entries) = std::fs::read_dir(&parent) {
        for entry in entries.flatten() {
            let file = entry.file_name().to_string_lossy().into_owned();
            let pid = file
                .strip_prefix(&prefix)
                .and_then(|p| p.parse::<i32>().ok());
            if pid.is_some_and(|pid| !process_alive(pid)) {
                let _ = std::fs::remove_dir_all(entry.path());
            }
        }
    }
    Ok(parent.join(format!("{prefix}{}", std::process::id())))
}

fn process_alive(pid: i32) -> bool {
    rustix::process::Pid::from_raw(pid)
        .is_some_and(|p| rustix::process::test_kill_process(p).is_ok())
}
