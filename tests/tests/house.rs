//! The house bots: `--bot house:NAME` plays the repository's reference bots from any folder,
//! with no plugin file at hand: `agon` builds them from the source it carries the first time,
//! then plays the build it keeps.

use agon_tests::{agon, assert_has, assert_has_all, kit_target, run, scratch};
use std::process::Command;

/// `agon` in a folder of its own, with a cache of its own (so the first use builds), building
/// into the kit's target folder (so the dependencies are compiled once per checkout).
fn agon_elsewhere(dir: &std::path::Path) -> Command {
    let mut command = agon();
    command
        .current_dir(dir)
        .env("AGON_CACHE_DIR", dir.join("cache"))
        .env("CARGO_TARGET_DIR", kit_target());
    command
}

#[test]
fn house_bots_play_from_any_folder_built_once() {
    let dir = scratch("house");
    let play = |dir: &std::path::Path| {
        run(agon_elsewhere(dir).args([
            "match",
            "--game",
            "breakthrough",
            "--bot",
            "house:alphabeta",
            "--bot",
            "house:random",
            "--move-ms",
            "1000",
            "--seed",
            "3",
        ]))
        .expect_success()
    };
    let first = play(&dir);
    assert_has(&first.stderr, "building the house bots");
    assert_has_all(&first.stdout, &["alphabeta", "random"]);
    let again = play(&dir);
    assert!(
        !again.stderr.contains("building"),
        "built again:\n{}",
        again.stderr
    );

    let listed = run(agon_elsewhere(&dir).args(["house", "--game", "breakthrough"]))
        .expect_success()
        .stdout;
    assert_has_all(&listed, &["house:alphabeta", "house:random"]);

    let unknown = run(agon_elsewhere(&dir).args([
        "match",
        "--game",
        "breakthrough",
        "--bot",
        "house:nosuch",
        "--bot",
        "house:random",
    ]))
    .expect_failure();
    assert_has(
        &unknown.stderr,
        "no house bot `nosuch` for breakthrough; its house bots: alphabeta, random",
    );

    // A tournament's entrant may be a house bot too.
    let config = dir.join("house.toml");
    std::fs::write(
        &config,
        "game = \"breakthrough\"\ngames_per_pairing = 2\nmove_ms = 1000\n\
         [[entrant]]\nbot = \"house:alphabeta\"\n[[entrant]]\nbot = \"house:random\"\n",
    )
    .unwrap();
    let out = dir.join("out");
    run(agon_elsewhere(&dir)
        .args(["tournament", "run", "--quiet"])
        .arg(&config)
        .arg("--out")
        .arg(&out))
    .expect_success();
    assert!(out.join("report.html").is_file());
}
