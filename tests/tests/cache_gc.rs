//! `agon cache gc` on caches set up by hand (entries of chosen sizes and ages, leftovers of
//! crashed writers, links pointing out of the cache) and by real plugin loads, also while other
//! agon processes use the cache.

use agon_engine::StagedPlugin;
use agon_tests::{agon, assert_has, plugin, run, scratch, Ran};
use std::fs::FileTimes;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

/// A fresh cache for one test (its own, so no other test's agon holds its entries).
fn fresh_cache(name: &str) -> PathBuf {
    scratch(name).join("cache")
}

fn agon_in(cache: &Path, args: &[&str]) -> Ran {
    run(agon().env("AGON_CACHE_DIR", cache).args(args))
}

/// `agon cache gc ARGS` on `cache`, which must succeed; its standard output.
fn gc(cache: &Path, args: &[&str]) -> String {
    agon_in(cache, &[&["cache", "gc"], args].concat())
        .expect_success()
        .stdout
}

fn days_ago(days: f64) -> SystemTime {
    SystemTime::now() - Duration::from_secs_f64(days * 86_400.0)
}

/// Sets the last use of the entry (or any folder) `dir`.
fn last_used(dir: &Path, when: SystemTime) {
    let times = FileTimes::new().set_accessed(when).set_modified(when);
    std::fs::File::open(dir)
        .and_then(|folder| folder.set_times(times))
        .expect("set the folder's times");
}

fn modified(path: &Path) -> SystemTime {
    std::fs::symlink_metadata(path).unwrap().modified().unwrap()
}

/// The entry name for content made of `fill`.
fn sha(fill: char) -> String {
    fill.to_string().repeat(64)
}

/// An entry as a finished agon leaves it: `libteam.so` of `bytes` bytes, last used `age` days
/// ago.
fn entry(cache: &Path, fill: char, bytes: usize, age: f64) -> PathBuf {
    let dir = cache.join("plugins").join(sha(fill));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("libteam.so"), vec![0x7f; bytes]).unwrap();
    last_used(&dir, days_ago(age));
    dir
}

fn sha256_of(file: &Path) -> String {
    agon_engine::loader::sha256_hex(&std::fs::read(file).unwrap())
}

#[test]
fn removes_entries_unused_for_longer_than_the_limit_and_keeps_recent_ones() {
    let cache = fresh_cache("gc-age");
    let old = entry(&cache, 'a', 1000, 40.0);
    let recent = entry(&cache, 'b', 1000, 1.0);
    let out = gc(&cache, &[]);
    assert!(
        !old.exists(),
        "unused for 40 days, over the default 30: {out}"
    );
    assert!(recent.join("libteam.so").is_file(), "used yesterday: {out}");
    assert!(
        out.contains(&format!("removed {}", &sha('a')[..16])),
        "{out}"
    );
    assert_has(&out, "freed 1000 B (1 entry)");

    let out = gc(&cache, &["--older-than-days", "0.5"]);
    assert!(!recent.exists(), "unused for a day, over half a day: {out}");
}

#[test]
fn over_the_size_limit_the_least_recently_used_go_first() {
    let cache = fresh_cache("gc-size");
    let kib = 1024;
    let oldest = entry(&cache, '1', 400 * kib, 3.0);
    let middle = entry(&cache, '2', 400 * kib, 2.0);
    let newest = entry(&cache, '3', 400 * kib, 1.0);
    // 1200 KiB in all; at most 1 MiB leaves two.
    let out = gc(&cache, &["--max-size-mib", "1"]);
    assert!(!oldest.exists(), "{out}");
    assert!(middle.exists() && newest.exists(), "{out}");
    assert_has(&out, "while over --max-size-mib");
}

#[test]
fn a_dry_run_removes_nothing_and_says_what_it_would() {
    let cache = fresh_cache("gc-dry");
    let old = entry(&cache, 'a', 1000, 40.0);
    let recent = entry(&cache, 'b', 1000, 1.0);
    let temp = recent.join(".libteam.so.4242.0.tmp");
    std::fs::write(&temp, b"half a library").unwrap();
    last_used(&recent, days_ago(1.0));
    let out = gc(&cache, &["--dry-run"]);
    assert!(old.join("libteam.so").is_file() && temp.is_file(), "{out}");
    assert!(
        out.contains(&format!("would remove {}", &sha('a')[..16])),
        "{out}"
    );
    assert_has(&out, "would remove stray");
    assert_has(&out, "would free");
    assert!(!out.contains("freed"), "{out}");
}

#[test]
fn stray_temporary_files_and_abandoned_removals_go_without_refreshing_the_entry() {
    let cache = fresh_cache("gc-stray");
    let recent = entry(&cache, 'b', 1000, 2.0);
    // A writer that died between writing its temporary copy and renaming it.
    let temp = recent.join(".libteam.so.4242.0.tmp");
    std::fs::write(&temp, b"half a library").unwrap();
    last_used(&recent, days_ago(2.0));
    let two_days_ago = modified(&recent);
    // A collector that died between renaming an entry away and deleting it.
    let abandoned = cache
        .join("plugins")
        .join(format!(".removing.{}.4242.0", sha('c')));
    std::fs::create_dir_all(&abandoned).unwrap();
    std::fs::write(abandoned.join("libold.so"), b"old").unwrap();

    let out = gc(&cache, &[]);
    assert!(!temp.exists(), "{out}");
    assert!(!abandoned.exists(), "{out}");
    assert!(
        recent.join("libteam.so").is_file(),
        "the entry stays: {out}"
    );
    assert_eq!(
        modified(&recent),
        two_days_ago,
        "removing the stray file is not a use of the entry"
    );
    assert_has(&out, "removed stray");
}

#[test]
fn links_in_the_cache_are_never_followed() {
    let dir = scratch("gc-links");
    let outside = dir.join("outside");
    std::fs::create_dir_all(&outside).unwrap();
    let precious = outside.join("precious.so");
    std::fs::write(&precious, b"not the cache's").unwrap();

    let cache = dir.join("cache");
    let plugins = cache.join("plugins");
    // A link named like an entry, to a folder outside.
    std::fs::create_dir_all(&plugins).unwrap();
    let entry_link = plugins.join(sha('c'));
    std::os::unix::fs::symlink(&outside, &entry_link).unwrap();
    // A real, old entry holding a link to a file outside.
    let real = entry(&cache, 'd', 10, 100.0);
    std::os::unix::fs::symlink(&precious, real.join("escape.so")).unwrap();
    last_used(&real, days_ago(100.0));

    let out = gc(&cache, &["--older-than-days", "0"]);
    assert!(
        !real.exists(),
        "the real entry goes, its link as a link: {out}"
    );
    assert_eq!(std::fs::read(&precious).unwrap(), b"not the cache's");
    assert!(
        std::fs::symlink_metadata(&entry_link).is_ok(),
        "what agon did not make is left alone: {out}"
    );
    assert_has(&out, "left alone");

    // The whole plugins folder a link to somewhere else: nothing there is touched.
    let linked_cache = dir.join("linked-cache");
    std::fs::create_dir_all(&linked_cache).unwrap();
    let elsewhere = dir.join("elsewhere");
    let foreign = entry(&elsewhere, 'e', 10, 100.0);
    std::os::unix::fs::symlink(elsewhere.join("plugins"), linked_cache.join("plugins")).unwrap();
    let out = gc(&linked_cache, &["--older-than-days", "0"]);
    assert!(foreign.join("libteam.so").is_file(), "{out}");
    assert_has(&out, "left alone");
}

#[test]
fn an_entry_a_running_agon_uses_is_kept() {
    let cache = fresh_cache("gc-in-use");
    // This test process stages the plugin and so uses its entry until it exits.
    let staged = StagedPlugin::stage(&plugin("noop"), &cache).unwrap();
    let held = staged.copy.parent().unwrap().to_path_buf();
    last_used(&held, days_ago(100.0));
    let free = entry(&cache, 'f', 10, 100.0);
    let out = gc(&cache, &[]);
    assert!(staged.copy.is_file(), "in use: {out}");
    assert!(!free.exists(), "not in use: {out}");
    assert!(
        out.contains(&format!("kept    {}", &staged.sha256[..16])) && out.contains("in use"),
        "{out}"
    );
}

#[test]
fn a_plugin_loads_again_after_gc_removed_its_entry() {
    let cache = fresh_cache("gc-reload");
    let noop = plugin("noop");
    let entry = cache.join("plugins").join(sha256_of(&noop));
    let listed = |cache: &Path| {
        agon_in(cache, &["plugins", noop.to_str().unwrap()]).expect_success();
    };
    listed(&cache);
    assert!(entry.is_dir());
    let out = gc(&cache, &["--older-than-days", "0"]);
    assert!(!entry.exists(), "{out}");
    listed(&cache);
    assert!(
        entry.join("libnoop.so").is_file(),
        "the entry is written afresh"
    );
}

/// Loads racing collections: every load finds its whole copy (gc either leaves an entry whole
/// or removes it before the loader holds it, and then the loader writes it afresh).
#[test]
fn loads_succeed_while_gc_runs_over_and_over() {
    let cache = fresh_cache("gc-race");
    let noop = plugin("noop");
    let stop = std::sync::atomic::AtomicBool::new(false);
    std::thread::scope(|scope| {
        let collector = scope.spawn(|| {
            let mut runs = 0;
            while !stop.load(std::sync::atomic::Ordering::SeqCst) {
                agon_in(&cache, &["cache", "gc", "--older-than-days", "0"]);
                runs += 1;
            }
            runs
        });
        // Every load first, the verdict after: a failed assertion here would leave the
        // collector running and the scope waiting for it.
        let failures: Vec<String> = (0..12)
            .map(|_| agon_in(&cache, &["plugins", noop.to_str().unwrap()]))
            .filter(|out| !out.status.success())
            .map(|out| out.stderr)
            .collect();
        stop.store(true, std::sync::atomic::Ordering::SeqCst);
        assert!(failures.is_empty(), "{failures:#?}");
        assert!(collector.join().unwrap() > 0);
    });
}

#[test]
fn the_loader_replaces_a_link_where_an_entry_belongs_instead_of_writing_through_it() {
    let dir = scratch("gc-loader-link");
    let outside = dir.join("outside");
    std::fs::create_dir_all(&outside).unwrap();
    let cache = dir.join("cache");
    let noop = plugin("noop");
    let entry = cache.join("plugins").join(sha256_of(&noop));
    std::fs::create_dir_all(entry.parent().unwrap()).unwrap();
    std::os::unix::fs::symlink(&outside, &entry).unwrap();
    agon_in(&cache, &["plugins", noop.to_str().unwrap()]).expect_success();
    assert!(std::fs::symlink_metadata(&entry).unwrap().is_dir());
    assert_eq!(std::fs::read_dir(&outside).unwrap().count(), 0);
}
