//! Plays a game of {{game}} with each bot this library enters in tournaments, through the
//! `agon` you installed, as `agon match` plays it: `$AGON` if set, else `agon` on the PATH
//! (`cargo install --path harness` in Agon's repository puts it there).

use std::path::PathBuf;
use std::process::Command;

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

/// `agon ARGS`, which must succeed: the JSON it prints.
fn agon(args: &[String]) -> serde_json::Value {
    let program = std::env::var_os("AGON").unwrap_or_else(|| "agon".into());
    let out = Command::new(&program).args(args).output().unwrap_or_else(|e| {
        panic!(
            "cannot run {program:?} ({e}): install agon (`cargo install --path harness` in \
             Agon's repository) or set AGON=/path/to/agon"
        )
    });
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "agon {}\n{stderr}", args.join(" "));
    serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("agon {} printed no JSON ({e})\n{stderr}", args.join(" ")))
}

/// The library's bots of {{game}} that tournaments enter (not those marked `[hidden]`).
fn tournament_bots(library: &str) -> Vec<String> {
    let listed = agon(&["plugins".into(), "--json".into(), library.into()]);
    let bots = listed["plugins"][0]["manifest"]["bots"].as_array();
    bots.expect("agon plugins lists the library's bots")
        .iter()
        .filter(|bot| bot["tournament"] == true && bot["game"] == "{{game}}")
        .map(|bot| bot["name"].as_str().expect("a bot has a name").to_string())
        .collect()
}

#[test]
fn every_bot_plays_a_game_without_a_fault() {
    let library = library().display().to_string();
    let bots = tournament_bots(&library);
    assert!(!bots.is_empty(), "{library} enters no bot in tournaments");
    for bot in bots {
        let mut args: Vec<String> = ["match", "--game", "{{game}}", "--json", "--seed", "7"]
            .map(String::from)
            .to_vec();
        for seat in [format!("{library}:{bot}"), {{opponents}}] {
            args.extend(["--bot".to_string(), seat]);
        }
        let params: &[&str] = &[{{params}}];
        for param in params {
            args.extend(["--param".to_string(), param.to_string()]);
        }
        let record = agon(&args);
        assert_eq!(record["faults"], serde_json::json!([]), "{bot}: {record:#}");
        println!("{bot}: {}", record["reason"]);
    }
}
