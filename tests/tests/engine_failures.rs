//! Failures that are not the bots': the engine's own resources failing (its plugin cache on a
//! full or broken file system), an entrant's file replaced while a run that is not watching
//! plays it, and a cached copy changed after its build was pinned. None may charge, exclude or
//! blame an entrant.

use agon_tests::{
    agon_output, assert_has_all, plugin, scratch, seat_of, spec, tournament_config, tournament_run,
    tournament_run_args, Ran,
};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// A thread-host Breakthrough tournament of two random players; its config.
fn two_random_players(dir: &Path) -> PathBuf {
    let random = spec("breakthrough-random", "random");
    tournament_config(
        dir,
        "game = \"breakthrough\"\nseed = 3\ngames_per_pairing = 2\nhost = \"thread\"",
        &[("a", random.clone()), ("b", random)],
    )
}

/// The run failed naming the plugin cache, and charged no entrant.
fn assert_the_cache_is_blamed(out: Ran, run: &Path, words: &str) {
    let stderr = out.expect_failure().stderr;
    assert!(
        stderr.contains("the plugin cache") && stderr.contains(words),
        "{stderr}"
    );
    assert!(
        !stderr.contains("excluded") && !stderr.contains("cannot read the file"),
        "{stderr}"
    );
    assert!(
        !run.join("journal.jsonl").exists(),
        "no game may be recorded"
    );
}

#[test]
fn a_cache_that_cannot_hold_a_copy_stops_the_run_and_blames_no_entrant() {
    let dir = scratch("engine-failure-cache-folder");
    let cache = dir.join("cache");
    std::fs::create_dir_all(&cache).unwrap();
    // Where the cache keeps its copies there is a file: no copy can be stored.
    std::fs::write(cache.join("plugins"), b"not a folder").unwrap();
    let cfg = two_random_players(&dir);
    let run = dir.join("out");
    let out = agon_tests::run(tournament_run(&cfg, &run).env("AGON_CACHE_DIR", &cache));
    assert_the_cache_is_blamed(out, &run, &cache.display().to_string());
}

/// The scenario as reported: the cache on a 64 KiB file system, full before the first copy is
/// whole. The file system is mounted in a user namespace of the test's own, so it needs no
/// root; a kernel without unprivileged user namespaces skips it.
#[test]
fn a_full_cache_file_system_stops_the_run_and_blames_no_entrant() {
    let usable = Command::new("unshare")
        .args(["-Urm", "true"])
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !usable {
        eprintln!("skipped: no unprivileged user and mount namespaces here (unshare -Urm)");
        return;
    }
    let dir = scratch("engine-failure-cache-full");
    let cache = dir.join("cache");
    std::fs::create_dir_all(&cache).unwrap();
    let cfg = two_random_players(&dir);
    let run = dir.join("out");
    let agon_binary = agon_tests::artifacts().join("agon");
    let out = agon_tests::run(
        Command::new("unshare")
            .args(["-Urm", "sh", "-c"])
            .arg("mount -t tmpfs -o size=64k tmpfs \"$1\" && shift && exec \"$@\"")
            .arg("sh")
            .arg(&cache)
            .arg(&agon_binary)
            .args(tournament_run_args(&cfg, &run))
            .env("AGON_CACHE_DIR", &cache),
    );
    assert_the_cache_is_blamed(out, &run, "No space left on device");
}

/// Lines of a journal (each a recorded game).
fn journal(dir: &Path) -> Vec<serde_json::Value> {
    let text = std::fs::read_to_string(dir.join("journal.jsonl")).unwrap_or_default();
    let whole = text.rfind('\n').map_or("", |end| &text[..end]);
    whole
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn sha256_of(path: &Path) -> String {
    use sha2::Digest;
    let digest = sha2::Sha256::digest(std::fs::read(path).unwrap());
    digest.iter().map(|b| format!("{b:02x}")).collect()
}

/// Polls until `dir`'s journal holds `games` games; panics naming `what` if the run ends first.
fn wait_for_games(child: &mut std::process::Child, dir: &Path, games: usize, what: &str) {
    let start = Instant::now();
    while journal(dir).len() < games {
        if let Ok(Some(status)) = child.try_wait() {
            panic!("the run ended ({status}) before {what}");
        }
        assert!(start.elapsed() < Duration::from_secs(120), "no {what}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// A team replaces its plugin file (an atomic rename) while a tournament that is not watching
/// runs: the run plays the build its plan recorded to the end, from the plugin cache, and warns
/// once; so does `resume` later.
#[test]
fn a_replaced_plugin_file_does_not_stop_a_run_that_is_not_watching() {
    let dir = scratch("engine-failure-replaced");
    let team = dir.join("team.so");
    std::fs::copy(plugin("misbehave"), &team).unwrap();
    let planned = sha256_of(&team);
    let cfg = tournament_config(
        &dir,
        "game = \"breakthrough\"\nseed = 4\ngames_per_pairing = 12\nconcurrency = 1",
        &[
            ("team", format!("{}:slow?ms=5", team.display())),
            ("random", spec("breakthrough-random", "random")),
        ],
    );
    let run = dir.join("out");
    let stderr_file = dir.join("run.stderr");
    let mut child = tournament_run(&cfg, &run)
        .arg("--quiet")
        .stderr(std::fs::File::create(&stderr_file).unwrap())
        .spawn()
        .unwrap();
    wait_for_games(&mut child, &run, 1, "the first game");
    // The new build offers no `slow` bot at all.
    let temp = dir.join(".team.so.tmp");
    std::fs::copy(plugin("breakthrough-random"), &temp).unwrap();
    std::fs::rename(&temp, &team).unwrap();
    wait_for_games(&mut child, &run, 3, "two games after the replacement");
    // SAFETY: a plain kill(2) of our own child.
    unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
    let status = child.wait().unwrap();
    let stderr = agon_tests::read(&stderr_file);
    // The refusal the new build would get (`no bot `slow``), not the engine-stall line's "no bot
    // was charged", which a loaded machine prints.
    assert!(!stderr.contains("no bot `"), "{stderr}");
    assert_eq!(status.code(), Some(130), "stopped by SIGINT: {stderr}");
    assert_eq!(
        stderr.matches("team.so changed;").count(),
        1,
        "one warning: {stderr}"
    );

    let stderr = agon_output(&["tournament", "resume", run.to_str().unwrap(), "--quiet"])
        .expect_success()
        .stderr;
    assert_eq!(
        stderr
            .matches("holds another build than the plan's")
            .count(),
        1,
        "one warning: {stderr}"
    );
    assert_has_all(&stderr, &["from the plugin cache", "--watch"]);
    let games = journal(&run);
    assert_eq!(games.len(), 12);
    for game in &games {
        assert_eq!(
            game["sha256"][seat_of(game, "team")],
            planned.as_str(),
            "{game}"
        );
        assert_eq!(game["faults"], serde_json::json!([]), "{game}");
    }
}

/// A build's cached copy changed in place after it was pinned (one byte of its `.comment`
/// section, so it still loads): the game that seats it fails as the engine's, naming the bot,
/// the hash the copy holds now and the pinned one, and plays no move, since its results would
/// mix two builds. With the copy whole again, the same game is played.
#[test]
fn a_cached_copy_changed_after_it_was_pinned_fails_the_game_and_blames_no_bot() {
    use agon_play::game_runner::{self, FailureCause, PinnedBot, Played};
    let registry = agon_games::registry::Registry::builtin();
    let rules = registry.get("breakthrough").unwrap();
    let cache = scratch("engine-failure-pinned-copy").join("cache");
    let staged = agon_engine::StagedPlugin::stage(&plugin("breakthrough-random"), &cache).unwrap();
    let whole = std::fs::read(&staged.copy).unwrap();
    let mut changed = whole.clone();
    let comment = changed
        .windows(13)
        .position(|w| w == b"rustc version")
        .expect("rustc's .comment note in the library");
    changed[comment] = b'R';
    let changed_sha256 = agon_engine::loader::sha256_hex(&changed);
    let pinned_copy = |name: &str| PinnedBot {
        spec: format!("{}:random", staged.copy.display()).parse().unwrap(),
        sha256: staged.sha256.clone(),
        name: name.to_string(),
        crash_label: None,
    };
    let hosting = agon_engine::Hosting {
        kind: agon_engine::HostKind::Thread,
        process: None,
        cache: cache.clone(),
    };
    let settings = agon_engine::MatchSettings {
        params: Default::default(),
        seed: 5,
        seed_secret: agon_tests::TEST_SECRET,
        budgets: Default::default(),
        fault_policy: None,
    };
    let play = || {
        let bots = [pinned_copy("a"), pinned_copy("b")];
        game_runner::play(rules, &hosting, &bots, &settings, "game 1")
    };

    std::fs::write(&staged.copy, &changed).unwrap();
    match play() {
        Played::Failed(failure) => {
            let text = failure.to_string();
            match failure.why {
                FailureCause::CopyChanged {
                    bot, found, pinned, ..
                } => assert_eq!(
                    (bot.as_str(), found, pinned),
                    ("a", changed_sha256, staged.sha256.clone())
                ),
                why => panic!("{why}"),
            }
            assert_has_all(
                &text,
                &[
                    "game 1: the cached copy of a's build",
                    "results would mix two builds",
                ],
            );
        }
        Played::Game { .. } | Played::Unplayed(_) => panic!("a game was played on a changed copy"),
    }

    std::fs::write(&staged.copy, &whole).unwrap();
    match play() {
        Played::Game { record, .. } => assert!(!record.moves.is_empty()),
        Played::Failed(failure) => panic!("{failure}"),
        Played::Unplayed(why) => panic!("{why}"),
    }
}
