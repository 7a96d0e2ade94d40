//! `agon cache path | list | gc`: the content-addressed cache of plugin copies.

use crate::cli::{CacheCommand, CacheGcArgs, CacheListArgs};
use agon_engine::loader::cache_dir;
use agon_engine::{
    loader::cache::collect, loader::cache::days, loader::cache::entry_in_use, loader::cache::scan,
    CacheEntry, Collection, CollectionPolicy, Oddity, RemovalReason,
};
use agon_play::console::{name, outln, path_name};
use anyhow::bail;
use serde_json::{json, Value};
use std::time::{Duration, SystemTime};

/// Hex digits of an entry's hash shown in text (JSON has all 64).
const SHOWN_HASH: usize = 16;

pub fn run(command: CacheCommand) -> anyhow::Result<()> {
    match command {
        CacheCommand::Path => {
            outln!("{}", cache_dir().display());
            Ok(())
        }
        CacheCommand::List(args) => list(args),
        CacheCommand::Gc(args) => gc(args),
    }
}

fn list(args: CacheListArgs) -> anyhow::Result<()> {
    let cache = cache_dir();
    let contents = scan(&cache);
    let now = SystemTime::now();
    let in_use = |entry: &CacheEntry| entry_in_use(&contents.plugins, &entry.sha256).ok();
    if args.json {
        let entries: Vec<Value> = contents
            .entries
            .iter()
            .map(|e| {
                let mut shown = entry_json(e);
                shown["in_use"] = json!(in_use(e));
                shown
            })
            .collect();
        let out = json!({
            "cache": cache,
            "entries": entries,
            "bytes": contents.bytes(),
            "oddities": contents.oddities.iter().map(oddity_json).collect::<Vec<_>>(),
        });
        outln!(
            "{}",
            agon_play::console::json_text(&serde_json::to_string_pretty(&out)?)
        );
        return Ok(());
    }
    for entry in &contents.entries {
        let using = match in_use(entry) {
            Some(true) => "in use",
            Some(false) => "",
            None => "in use?",
        };
        outln!(
            "{:<16}  {:>10}  {:<22} {:<7} {}",
            &entry.sha256[..SHOWN_HASH],
            size(entry.bytes),
            format!("used {}", ago(now, entry.last_use)),
            using,
            file_names(entry)
        );
    }
    outln!(
        "{}, {} in {}",
        entries(contents.entries.len()),
        size(contents.bytes()),
        contents.plugins.display()
    );
    for oddity in &contents.oddities {
        outln!("left alone: {}", describe(oddity));
    }
    Ok(())
}

fn gc(args: CacheGcArgs) -> anyhow::Result<()> {
    if !(args.older_than >= 0.0 && args.older_than.is_finite()) {
        bail!("--older-than-days takes a number of days, 0 or more");
    }
    let max_bytes = match args.max_size {
        None => None,
        Some(mib) if mib >= 0.0 && mib.is_finite() => Some((mib * 1024.0 * 1024.0) as u64),
        Some(_) => bail!("--max-size-mib takes a number of MiB, 0 or more"),
    };
    let policy = CollectionPolicy {
        unused_for: days(args.older_than),
        max_bytes,
        dry_run: args.dry_run,
    };
    let cache = cache_dir();
    let now = SystemTime::now();
    let done = collect(&cache, &policy, now)?;
    if args.json {
        outln!(
            "{}",
            agon_play::console::json_text(&serde_json::to_string_pretty(&collection_json(&done))?)
        );
    } else {
        print_collection(&done, &args, now);
    }
    if !done.failures.is_empty() {
        let shown: Vec<_> = done.failures.iter().map(|f| name(f)).collect();
        bail!("{}", shown.join("\nagon: error: "));
    }
    Ok(())
}

fn print_collection(done: &Collection, args: &CacheGcArgs, now: SystemTime) {
    let (remove, free) = if done.dry_run {
        ("would remove", "would free")
    } else {
        ("removed", "freed")
    };
    for removal in &done.removed {
        let entry = &removal.entry;
        let why = match removal.reason {
            RemovalReason::Unused => format!("unused for {}", span(now, entry.last_use)),
            RemovalReason::OverSize => format!(
                "least recently used (used {}) while over --max-size-mib",
                ago(now, entry.last_use)
            ),
        };
        outln!("{remove} {}  {why}", summary(entry));
    }
    for stray in &done.stray {
        outln!(
            "{remove} stray {} ({})",
            path_name(&stray.path),
            size(stray.bytes)
        );
    }
    for entry in &done.in_use {
        outln!("kept    {}  in use by a running agon", summary(entry));
    }
    for oddity in &done.oddities {
        outln!("left alone: {}", describe(oddity));
    }
    let stray = match done.stray.len() {
        0 => String::new(),
        1 => " and 1 stray file".into(),
        n => format!(" and {n} stray files"),
    };
    outln!(
        "{free} {} ({}{stray}); {} ({}) stay, {} of them in use; policy: unused for {} \
         days{}",
        size(done.bytes_freed()),
        entries(done.removed.len()),
        entries(done.kept.len() + done.in_use.len()),
        size(done.bytes_kept()),
        done.in_use.len(),
        args.older_than,
        args.max_size
            .map_or(String::new(), |mib| format!(", at most {mib} MiB"))
    );
}

fn collection_json(done: &Collection) -> Value {
    let reason = |r: RemovalReason| match r {
        RemovalReason::Unused => "unused",
        RemovalReason::OverSize => "over-size",
    };
    json!({
        "dry_run": done.dry_run,
        "removed": done.removed.iter().map(|r| {
            let mut shown = entry_json(&r.entry);
            shown["reason"] = json!(reason(r.reason));
            shown
        }).collect::<Vec<_>>(),
        "in_use": done.in_use.iter().map(entry_json).collect::<Vec<_>>(),
        "kept": done.kept.iter().map(entry_json).collect::<Vec<_>>(),
        "stray": done.stray.iter().map(|s| json!({"path": s.path, "bytes": s.bytes})).collect::<Vec<_>>(),
        "bytes_freed": done.bytes_freed(),
        "left_alone": done.oddities.iter().map(oddity_json).collect::<Vec<_>>(),
        "failures": done.failures,
    })
}

fn entry_json(entry: &CacheEntry) -> Value {
    json!({
        "sha256": entry.sha256,
        "dir": entry.dir,
        "files": entry.files,
        "bytes": entry.bytes,
        "last_use_unix": entry
            .last_use
            .duration_since(SystemTime::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs()),
        "problems": entry.problems,
    })
}

fn oddity_json(oddity: &Oddity) -> Value {
    json!({"path": oddity.path, "what": oddity.what})
}

fn describe(oddity: &Oddity) -> String {
    format!("{}: {}", path_name(&oddity.path), name(&oddity.what))
}

/// An entry as `agon cache gc` lists it: its shortened hash, size and files.
fn summary(entry: &CacheEntry) -> String {
    format!(
        "{}  {}  {}",
        &entry.sha256[..SHOWN_HASH],
        size(entry.bytes),
        files(entry)
    )
}

fn files(entry: &CacheEntry) -> String {
    if entry.files.is_empty() {
        "(no copy)".into()
    } else {
        file_names(entry)
    }
}

/// The names the entry's copies were staged under: the plugin files' own names.
fn file_names(entry: &CacheEntry) -> String {
    let names: Vec<_> = entry.files.iter().map(|f| name(f)).collect();
    names.join(", ")
}

fn entries(count: usize) -> String {
    match count {
        1 => "1 entry".into(),
        n => format!("{n} entries"),
    }
}

/// `bytes` for people: B, KiB, MiB or GiB.
fn size(bytes: u64) -> String {
    const UNITS: [&str; 4] = ["B", "KiB", "MiB", "GiB"];
    let mut value = bytes as f64;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    if unit == 0 {
        format!("{bytes} B")
    } else {
        format!("{value:.1} {}", UNITS[unit])
    }
}

/// How long ago `then` was, as `3 days ago`.
fn ago(now: SystemTime, then: SystemTime) -> String {
    let elapsed = now.duration_since(then).unwrap_or_default();
    if elapsed < Duration::from_secs(60) {
        "just now".into()
    } else {
        format!("{} ago", span(now, then))
    }
}

/// The time from `then` to `now` in its largest whole unit: `41 days`, `5 hours`.
fn span(now: SystemTime, then: SystemTime) -> String {
    let seconds = now.duration_since(then).unwrap_or_default().as_secs();
    let (count, unit) = match seconds {
        s if s >= 86_400 => (s / 86_400, "day"),
        s if s >= 3_600 => (s / 3_600, "hour"),
        s if s >= 60 => (s / 60, "minute"),
        s => (s, "second"),
    };
    let plural = if count == 1 { "" } else { "s" };
    format!("{count} {unit}{plural}")
}
