//! `cargo install --path harness` installs agon as users run it: the `agon` package builds both
//! `agon` and `agon-host`, and an `agon` finds the `agon-host` beside it (no `$AGON_HOST`, no
//! build folder around). Cheap stand-ins for a real install, which README.md describes.

use agon_tests::{artifacts, assert_has, cache_dir, run, scratch, spec, workspace_root, Ran};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The binaries of every package of the workspace, by package name (from `cargo metadata`).
fn binaries_by_package() -> Vec<(String, Vec<String>)> {
    let out = run(Command::new(env!("CARGO"))
        .current_dir(workspace_root())
        .args([
            "metadata",
            "--no-deps",
            "--format-version",
            "1",
            "--offline",
        ]))
    .expect_success();
    let metadata: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    metadata["packages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|package| {
            let mut bins: Vec<String> = package["targets"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|t| t["kind"].as_array().unwrap().iter().any(|k| k == "bin"))
                .map(|t| t["name"].as_str().unwrap().to_string())
                .collect();
            bins.sort();
            (package["name"].as_str().unwrap().to_string(), bins)
        })
        .collect()
}

#[test]
fn the_agon_package_installs_exactly_agon_and_agon_host() {
    let packages = binaries_by_package();
    let agon = packages.iter().find(|(name, _)| name == "agon").unwrap();
    assert_eq!(agon.1, ["agon", "agon-host"]);
    // A second `agon-host` elsewhere in the workspace would collide with it in target/.
    let hosts: Vec<&str> = packages
        .iter()
        .filter(|(_, bins)| bins.iter().any(|b| b == "agon-host"))
        .map(|(name, _)| name.as_str())
        .collect();
    assert_eq!(hosts, ["agon"]);
}

/// `names` from the build folder placed in `dir` (linked where possible: they are large).
fn install(dir: &Path, names: &[&str]) -> PathBuf {
    std::fs::create_dir_all(dir).unwrap();
    for name in names {
        let (from, to) = (artifacts().join(name), dir.join(name));
        if std::fs::hard_link(&from, &to).is_err() {
            std::fs::copy(&from, &to).unwrap();
        }
    }
    dir.join("agon")
}

fn process_match(agon: &Path) -> Ran {
    let bot = spec("breakthrough-random", "random");
    run(Command::new(agon)
        .env_remove("AGON_HOST")
        .env("AGON_CACHE_DIR", cache_dir())
        .args(["match", "--game", "breakthrough", "--host", "process"])
        .args(["--bot", &bot, "--bot", &bot, "--seed", "1"]))
}

#[test]
fn an_installed_agon_plays_with_the_agon_host_beside_it() {
    let root = scratch("install");
    let installed = install(&root.join("bin"), &["agon", "agon-host"]);
    process_match(&installed).expect_success();

    // Without its agon-host, the same agon cannot: the one beside it is the one it found.
    let alone = install(&root.join("alone"), &["agon"]);
    let stderr = process_match(&alone).expect_failure().stderr;
    assert_has(&stderr, "agon-host not found");
}
