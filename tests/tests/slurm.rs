//! The project's own Slurm script on a real one-node Slurm cluster (`agon_tests::slurm`): a
//! job array of four shards merges into the standings of one run, byte for byte; a task
//! cancelled before it ran leaves its shard named as missing, and its index resubmitted alone
//! plays that shard and nothing more. Skips, saying so, where Slurm is not installed or the test
//! is not root (`.ci/run` installs the packages).

use agon_tests::slurm::{self, Cluster};
use agon_tests::{agon_output, assert_has, scratch, spec, tournament_config, TEST_SECRET};
use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Long enough for a loaded 2-core machine; the queue is polled.
const PATIENCE: Duration = Duration::from_secs(300);

/// The byte-for-byte outputs a merge must share with one run.
const OUTPUTS: [&str; 4] = [
    "standings.json",
    "standings.csv",
    "crosstable.csv",
    "per_param.csv",
];

fn merge(out: &Path, shards: &[PathBuf]) -> agon_tests::Ran {
    let mut args: Vec<&str> = vec!["tournament", "merge"];
    args.extend(shards.iter().map(|s| s.to_str().unwrap()));
    args.extend(["--out", out.to_str().unwrap()]);
    agon_output(&args)
}

fn assert_same_outputs(merged: &Path, whole: &Path) {
    for file in OUTPUTS {
        let (a, b) = (merged.join(file), whole.join(file));
        assert!(
            std::fs::read(&a).unwrap() == std::fs::read(&b).unwrap(),
            "{} differs from {}",
            a.display(),
            b.display()
        );
    }
}

#[test]
fn a_job_array_merges_into_one_run_and_a_resubmitted_task_plays_only_its_shard() {
    if let Some(why) = slurm::unavailable() {
        eprintln!("\n*** SKIPPED: no Slurm cluster can be started here: {why} ***\n");
        return;
    }
    let dir = scratch("slurm");
    let cluster = Cluster::start(&dir.join("cluster")).unwrap_or_else(|e| panic!("{e}"));
    eprintln!("one-node Slurm idle after {:?}", cluster.start_up);
    let cfg = tournament_config(
        &dir,
        "game = \"breakthrough\"\nseed = 5\ngames_per_pairing = 8\nhost = \"process\"",
        &[
            ("random", spec("breakthrough-random", "random")),
            (
                "shallow",
                format!("{}?depth=1", spec("breakthrough-alphabeta", "alphabeta")),
            ),
            (
                "deeper",
                format!("{}?depth=2", spec("breakthrough-alphabeta", "alphabeta")),
            ),
        ],
    );
    let whole = dir.join("whole");
    agon_tests::tournament_standings(&cfg, &whole);
    let script = agon_tests::workspace_root().join("docs/slurm/tournament.sbatch");
    let secret = TEST_SECRET.to_string();
    let agon = agon_tests::artifacts().join("agon");
    let cache = agon_tests::cache_dir();
    let env: [(&str, &OsStr); 3] = [
        ("AGON", agon.as_os_str()),
        ("AGON_CACHE_DIR", cache.as_os_str()),
        ("AGON_SEED_SECRET", OsStr::new(&secret)),
    ];
    let submit = |results: &Path, array: &str, extra: &[&str]| {
        let logs = dir.join("logs/%A_%a.log");
        std::fs::create_dir_all(dir.join("logs")).unwrap();
        let mut args: Vec<&OsStr> = vec![
            OsStr::new(array),
            OsStr::new("--cpus-per-task=1"),
            // The script asks 8 GiB per task, for real tournaments; these games need little.
            OsStr::new("--mem=1G"),
            OsStr::new("--output"),
            logs.as_os_str(),
        ];
        args.extend(extra.iter().map(OsStr::new));
        args.extend([script.as_os_str(), cfg.as_os_str(), results.as_os_str()]);
        cluster
            .submit(&args, &env)
            .unwrap_or_else(|e| panic!("{e}"))
    };
    let shards = |results: &Path| -> Vec<PathBuf> {
        (0..4).map(|i| results.join(format!("shard-{i}"))).collect()
    };

    // The whole array: four tasks, four shards of six games, merged as one run.
    let results = dir.join("results");
    let job = submit(&results, "--array=0-3", &[]);
    cluster
        .wait(&job, PATIENCE)
        .unwrap_or_else(|e| panic!("{e}"));
    for shard in shards(&results) {
        let journal = std::fs::read_to_string(shard.join("journal.jsonl"))
            .unwrap_or_else(|e| panic!("{}: {e} (see {}/logs)", shard.display(), dir.display()));
        assert_eq!(journal.lines().count(), 6, "{}", shard.display());
    }
    let merged = dir.join("merged");
    assert_has(
        &merge(&merged, &shards(&results)).expect_success().stdout,
        "24 games, 0 duplicates, 0 missing",
    );
    assert_same_outputs(&merged, &whole);

    // Task 2 cancelled before it ran (the array held, task 2 cancelled, the rest released).
    let held = dir.join("held");
    let job = submit(&held, "--array=0-3", &["--hold"]);
    cluster.control("scancel", &[format!("{job}_2")]).unwrap();
    cluster.control("scontrol", &["release", &job]).unwrap();
    cluster
        .wait(&job, PATIENCE)
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(!held.join("shard-2").exists());
    let mut three = shards(&held);
    three.remove(2);
    let refused = merge(&dir.join("never"), &three).expect_failure().stderr;
    assert_has(
        &refused,
        "shard 2 of 4 has no folder among those given (6 games)",
    );
    // Resubmitted alone, Slurm calls it the only task of a new array; it plays shard 2 of 4.
    let job = submit(&held, "--array=2", &[]);
    cluster
        .wait(&job, PATIENCE)
        .unwrap_or_else(|e| panic!("{e}"));
    let journal = agon_tests::read(held.join("shard-2/journal.jsonl"));
    assert_eq!(journal.lines().count(), 6);
    let merged = dir.join("merged-held");
    assert_has(
        &merge(&merged, &shards(&held)).expect_success().stdout,
        "24 games, 0 duplicates, 0 missing",
    );
    assert_same_outputs(&merged, &whole);

    // A task cancelled while it plays says what it recorded and how to go on; resubmitted, it
    // plays the rest of its shard and nothing twice.
    let slow_cfg = tournament_config(
        &dir.join("logs"),
        "game = \"breakthrough\"\nseed = 9\ngames_per_pairing = 8\nhost = \"process\"",
        &[
            ("random", spec("breakthrough-random", "random")),
            (
                "deep",
                format!("{}?depth=5", spec("breakthrough-alphabeta", "alphabeta")),
            ),
        ],
    );
    let cancelled = dir.join("cancelled");
    let submit_slow = |array: &str| {
        let logs = dir.join("logs/slow-%A_%a.log");
        let args: Vec<&OsStr> = vec![
            OsStr::new(array),
            OsStr::new("--cpus-per-task=1"),
            OsStr::new("--mem=1G"),
            OsStr::new("--output"),
            logs.as_os_str(),
            script.as_os_str(),
            slow_cfg.as_os_str(),
            cancelled.as_os_str(),
        ];
        cluster
            .submit(&args, &env)
            .unwrap_or_else(|e| panic!("{e}"))
    };
    let job = submit_slow("--array=0-1");
    let journal = cancelled.join("shard-0/journal.jsonl");
    let waited = std::time::Instant::now();
    while std::fs::read_to_string(&journal).map_or(0, |j| j.lines().count()) == 0 {
        assert!(waited.elapsed() < PATIENCE, "shard 0 recorded no game");
        std::thread::sleep(Duration::from_millis(50));
    }
    // The task may have finished its four games already: then there is nothing to cancel.
    let _ = cluster.control("scancel", &[format!("{job}_0")]);
    cluster
        .wait(&job, PATIENCE)
        .unwrap_or_else(|e| panic!("{e}"));
    let recorded = agon_tests::read(&journal).lines().count();
    let log = agon_tests::read(dir.join(format!("logs/slow-{job}_0.log")));
    if recorded < 4 {
        assert_has(&log, "games are recorded");
        assert_has(&log, "agon tournament resume");
    }
    let job = submit_slow("--array=0");
    cluster
        .wait(&job, PATIENCE)
        .unwrap_or_else(|e| panic!("{e}"));
    let ids: Vec<String> = std::fs::read_to_string(&journal)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["id"].to_string())
        .collect();
    let mut unique = ids.clone();
    unique.sort();
    unique.dedup();
    assert_eq!((ids.len(), unique.len()), (4, 4), "{ids:?}");

    drop(cluster);
    assert!(
        !std::fs::read_dir("/proc").unwrap().flatten().any(|p| {
            std::fs::read_to_string(p.path().join("cmdline"))
                .is_ok_and(|c| c.contains(&*dir.join("cluster").to_string_lossy()))
        }),
        "a daemon of the test's cluster outlived it"
    );
}
