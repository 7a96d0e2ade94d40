//! Plays one game of {{game}} with this library through Agon's real loader, as `agon match`
//! would.

use std::path::PathBuf;

/// This crate's library as `cargo test` builds it: beside the test in `target/<profile>/deps/`
/// (`cargo build` puts it one folder up).
fn library() -> PathBuf {
    let test = std::env::current_exe().expect("the test's path");
    let deps = test.parent().expect("tests run from target/<profile>/deps");
    let name = format!("lib{}.so", env!("CARGO_PKG_NAME").replace('-', "_"));
    [deps.join(&name), deps.join("..").join(&name)]
        .into_iter()
        .find(|candidate| candidate.is_file())
        .unwrap_or_else(|| panic!("{name} was not built beside {}", deps.display()))
}

#[test]
fn plays_a_game_without_a_fault() {
    let library = library().display().to_string();
    let bots: Vec<String> = [{{seats}}]
        .iter()
        .map(|bot| format!("{library}:{bot}"))
        .collect();
    let record = agon_engine::local_match::play("{{game}}", &[{{params}}], &bots, 7, 1000)
        .unwrap_or_else(|e| panic!("the match did not start: {e}"));
    assert!(record.faults.is_empty(), "faults: {:#?}", record.faults);
    println!("{}: {}", record.game, record.outcome.reason);
}
