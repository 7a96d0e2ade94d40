//! `agon-games` must stay cheap for a plugin to depend on: no IO, no threads, no engine, no
//! `abi_stable` (DESIGN.md, "Layout"). These checks fail when a change pulls any of them in.

use std::path::{Path, PathBuf};

/// The only dependencies the rules crate may have.
const ALLOWED_DEPENDENCIES: &[&str] = &["serde", "bincode", "thiserror"];

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
fn the_crate_depends_only_on_serde_bincode_and_thiserror() {
    let manifest = std::fs::read_to_string(root().join("Cargo.toml")).unwrap();
    let mut in_dependencies = false;
    for line in manifest.lines().map(str::trim) {
        if line.starts_with('[') {
            in_dependencies = line == "[dependencies]";
        } else if in_dependencies && !line.is_empty() && !line.starts_with('#') {
            let name = line.split(['=', '.', ' ']).next().unwrap_or_default();
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
    sources(&root().join("src"), &mut files);
    assert!(files.len() > 20, "found only {} source files", files.len());
    for path in files {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if TEST_ONLY_FILES.contains(&name.as_str()) {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
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
