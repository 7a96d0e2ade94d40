//! The shape of `agon-games` (docs/architecture.md, "Layout"): one folder per game with the same role
//! files (the crate documentation's table), one registry nothing imports back, and a crate that
//! stays cheap for a plugin to depend on (no IO, no threads, no engine, no `abi_stable`). These
//! checks fail when a change breaks any of it.

use agon_games::registry::Registry;
use std::path::{Path, PathBuf};

/// The only dependencies the rules crate may have: data formats and error types, no IO
/// (serde_json carries the viewer's drawing data, `contract/view.rs`), and the ABI crate for
/// the wire envelope alone (without its `abi_stable` root module: the workspace declares it
/// with `default-features = false`).
const ALLOWED_DEPENDENCIES: &[&str] = &["serde", "serde_json", "bincode", "thiserror", "agon-abi"];

/// Files compiled only for tests (declared under `#[cfg(test)]`), which may read test data.
const TEST_ONLY_FILES: &[&str] = &[
    "tests.rs",
    "playthrough.rs",
    "transcript.rs",
    "properties.rs",
];

/// What the crate's own code must not use.
const FORBIDDEN: &[&str] = &[
    "std::fs",
    "std::thread",
    "std::net",
    "std::process",
    "std::env",
    "File::",
    "abi_stable",
    "agon_engine",
];

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn the_crate_depends_only_on_data_format_crates() {
    let manifest = std::fs::read_to_string(root().join("Cargo.toml")).unwrap();
    let mut in_dependencies = false;
    for line in manifest.lines().map(str::trim) {
        if line.starts_with('[') {
            in_dependencies = line == "[dependencies]";
        } else if in_dependencies && !line.is_empty() && !line.starts_with('#') {
            let name = line.split(['=', '.', ' ']).next().unwrap_or_default();
            assert!(
                !line.contains("root-module"),
                "agon-games takes the ABI crate's root module: {line}"
            );
            assert!(
                ALLOWED_DEPENDENCIES.contains(&name),
                "agon-games depends on `{name}`; it may depend only on {ALLOWED_DEPENDENCIES:?}"
            );
        }
    }
}

fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn the_rules_do_no_io_and_start_no_threads() {
    let mut files = Vec::new();
    sources(&src(), &mut files);
    assert!(files.len() > 20, "found only {} source files", files.len());
    for path in files {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if TEST_ONLY_FILES.contains(&name.as_str()) {
            continue;
        }
        let text = text(&path);
        // A file's own test module comes last; only the code before it ships.
        let shipped = text
            .split("#[cfg(test)]\nmod tests")
            .next()
            .unwrap_or_default();
        for forbidden in FORBIDDEN {
            assert!(
                !shipped.contains(forbidden),
                "{} uses `{forbidden}` outside its tests",
                path.display()
            );
        }
    }
}

/// The files every game folder has, for the roles the crate documentation's table names.
const ROLE_FILES: &[&str] = &[
    "mod.rs",
    "protocol.rs",
    "session.rs",
    "tests.rs",
    "playthrough.rs",
    "view.rs",
    "view.js",
    "starter.rs",
    "bot.rs",
];

/// Folders of `src/` that are not games.
const NOT_GAMES: &[&str] = &["contract"];

fn src() -> PathBuf {
    root().join("src")
}

fn text(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The convention of the crate documentation: every registered game has a folder of its
/// name with the same role files, declared the same way, golden transcripts its
/// `playthrough.rs` checks, and nothing else under `src/` looks like a game.
#[test]
fn every_game_has_the_same_role_files() {
    let registry = Registry::builtin();
    for game in registry.games() {
        let folder = src().join(game.name());
        for role in ROLE_FILES {
            assert!(
                folder.join(role).is_file(),
                "game `{}` has no {role} in {}",
                game.name(),
                folder.display()
            );
        }
        let module = text(&folder.join("mod.rs"));
        for declaration in [
            "pub mod bot;",
            "pub mod protocol;",
            "pub mod session;",
            "mod playthrough;",
            "mod tests;",
            "mod view;",
        ] {
            assert!(
                module.contains(declaration),
                "{}/mod.rs does not declare `{declaration}`",
                game.name()
            );
        }
        let playthrough = text(&folder.join("playthrough.rs"));
        let goldens: Vec<String> = std::fs::read_dir(folder.join("golden"))
            .unwrap_or_else(|e| panic!("game `{}` has no golden/ folder: {e}", game.name()))
            .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert!(!goldens.is_empty(), "{}/golden/ is empty", game.name());
        for golden in &goldens {
            assert!(
                golden.ends_with(".txt") && playthrough.contains(&format!("\"{golden}\"")),
                "{}/golden/{golden} is not a transcript its playthrough.rs checks",
                game.name()
            );
        }
        let session = text(&folder.join("session.rs"));
        assert!(
            session.contains("impl GameRules for"),
            "{}/session.rs does not implement GameRules",
            game.name()
        );
        assert!(
            game.view_script() == text(&folder.join("view.js")),
            "{}'s GameRules::view_script is not its view.js",
            game.name()
        );
    }
    for entry in std::fs::read_dir(src()).unwrap() {
        let entry = entry.unwrap();
        let name = entry.file_name().to_string_lossy().into_owned();
        if entry.path().is_dir() && !NOT_GAMES.contains(&name.as_str()) {
            assert!(
                registry.get(&name).is_ok(),
                "src/{name}/ is a game folder the registry does not list"
            );
        }
    }
}

/// The registry imports every game's session; no game or contract file may import the
/// registry back (a loop the engine's old registry had).
#[test]
fn nothing_imports_the_registry() {
    let mut files = Vec::new();
    sources(&src(), &mut files);
    for path in files {
        if !path.ends_with("registry.rs") && !path.ends_with("lib.rs") {
            assert!(
                !text(&path).contains("registry::"),
                "{} imports the registry",
                path.display()
            );
        }
    }
}
