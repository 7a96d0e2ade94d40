//! A team's build survives engine upgrades: the plugin ABI (`plugin-api/abi`, package
//! `agon-plugin-api`) has a version of its own, and only that version decides whether a library
//! loads. Each test builds real libraries with cargo, into the starter kit's shared target
//! folder (`target/starter-kit`), so dependencies are compiled once per checkout.

use agon_tests::{
    agon, assert_has, assert_has_all, kit_cargo, kit_target, plugin, run, scratch, workspace_root,
    Ran,
};
use std::path::{Path, PathBuf};
use std::process::Command;

/// `cargo build --release` in `project` with the workspace's lock file (the same dependency
/// versions as the project, so nothing new is fetched or compiled); the library it built.
fn build(project: &Path, library: &str) -> PathBuf {
    std::fs::copy(
        workspace_root().join("Cargo.lock"),
        project.join("Cargo.lock"),
    )
    .unwrap();
    kit_cargo(project, &["build", "--release"]);
    kit_target()
        .join("release")
        .join(format!("lib{library}.so"))
}

fn copy_tree(from: &Path, to: &Path) {
    run(Command::new("cp").arg("-R").arg(from).arg(to)).expect_success();
}

/// `agon match` of `bot` (a `FILE:NAME`) against the engine's random Breakthrough bot in the
/// process host.
fn match_against_random(bot: &str) -> Ran {
    run(agon().args([
        "match",
        "--game",
        "breakthrough",
        "--host",
        "process",
        "--bot",
        bot,
        "--bot",
        &format!("{}:random", plugin("breakthrough-random").display()),
    ]))
}

/// A library built against the SDK as teams linked it in Agon 0.2.0 (`tests/previous-sdk`,
/// frozen source) loads and plays a whole match in today's engine.
#[test]
fn a_library_built_with_the_previous_sdk_release_loads_and_plays() {
    let dir = scratch("previous-sdk");
    let project = dir.join("previous-sdk");
    copy_tree(&workspace_root().join("tests/previous-sdk"), &project);
    let library = build(&project, "previous_sdk_bot");

    let listed = run(agon().arg("plugins").arg(&library)).expect_success();
    assert_has_all(&listed.stdout, &["runner", "Previous release"]);
    let played = match_against_random(&format!("{}:runner", library.display())).expect_success();
    let result = played.stdout.lines().find(|l| l.starts_with("result:"));
    assert!(
        result.is_some_and(|r| !r.contains("fault")),
        "a result without a fault: {}",
        played.stdout
    );
}

/// A copy of today's `plugin-api/` (ABI, rules and SDK) in a workspace of its own, with the
/// workspace version (the SDK's and the rules') and the ABI crate's version set as given.
fn released_copy(dir: &Path, workspace_version: &str, abi_version: &str) -> PathBuf {
    let root = dir.join(format!("release-{workspace_version}-abi-{abi_version}"));
    std::fs::create_dir_all(root.join("plugin-api")).unwrap();
    for part in ["abi", "games", "sdk"] {
        copy_tree(
            &workspace_root().join("plugin-api").join(part),
            &root.join("plugin-api").join(part),
        );
    }
    let abi_manifest = root.join("plugin-api/abi/Cargo.toml");
    let abi: String = agon_tests::read(&abi_manifest);
    let mut abi: toml::Table = abi.parse().unwrap();
    abi["package"]["version"] = abi_version.into();
    std::fs::write(&abi_manifest, toml::to_string(&abi).unwrap()).unwrap();

    let manifest = agon_tests::read(workspace_root().join("Cargo.toml"));
    let mut manifest: toml::Table = manifest.parse().unwrap();
    let workspace = manifest["workspace"].as_table_mut().unwrap();
    workspace.remove("default-members");
    workspace["members"] = toml::Value::Array(
        ["plugin-api/abi", "plugin-api/games", "plugin-api/sdk"]
            .map(toml::Value::from)
            .to_vec(),
    );
    workspace["package"]["version"] = workspace_version.into();
    let dependencies = workspace["dependencies"].as_table_mut().unwrap();
    dependencies.remove("agon-engine");
    // Path dependencies within the copy: their versions are whatever the copy says.
    for (_, spec) in dependencies.iter_mut() {
        if let Some(spec) = spec.as_table_mut().filter(|s| s.contains_key("path")) {
            spec.remove("version");
        }
    }
    std::fs::write(root.join("Cargo.toml"), toml::to_string(&manifest).unwrap()).unwrap();
    root
}

/// A one-bot plugin crate named `name` built against the SDK in `release`.
fn bot_against(release: &Path, name: &str) -> PathBuf {
    let project = release.parent().unwrap().join(name);
    std::fs::create_dir_all(project.join("src")).unwrap();
    let sdk = release.join("plugin-api/sdk").display().to_string();
    std::fs::write(
        project.join("Cargo.toml"),
        format!(
            "[package]\nname = {name:?}\nversion = \"0.1.0\"\nedition = \"2021\"\n\n\
             [lib]\ncrate-type = [\"cdylib\"]\n\n\
             [dependencies]\nagon-sdk = {{ path = {sdk:?} }}\n\n[workspace]\n"
        ),
    )
    .unwrap();
    std::fs::write(
        project.join("src/lib.rs"),
        "agon_sdk::export_plugin! {\n    team: \"Later release\",\n    bots: {\n        \
         \"walker\" => agon_sdk::breakthrough::RandomBot: \"moves at random\",\n    },\n}\n",
    )
    .unwrap();
    build(&project, name)
}

/// The engine checks the ABI's version, not the release's: a library built with an SDK and
/// rules of another release (9.0.0 against this engine's, which is what an engine built with a
/// bumped workspace version sees of today's plugins) and a compatible ABI (a newer patch
/// version) plays; one built against another minor version of the ABI is refused, naming both
/// versions and what to rebuild with.
#[test]
fn only_the_abi_version_decides_whether_a_library_loads() {
    let dir = scratch("abi-versions");
    let engine_abi = agon_engine::loader::api_version();
    let (major, minor) = {
        let mut parts = engine_abi.split('.').map(|p| p.parse::<u32>().unwrap());
        (parts.next().unwrap(), parts.next().unwrap())
    };

    let compatible = format!("{major}.{minor}.99");
    let release = released_copy(&dir, "9.0.0", &compatible);
    let library = bot_against(&release, "later_release_bot");
    let played = match_against_random(&format!("{}:walker", library.display())).expect_success();
    assert_has(&played.stdout, "result: seat");

    let incompatible = format!("{major}.{}.0", minor + 1);
    let release = released_copy(&dir, "9.0.0", &incompatible);
    let library = bot_against(&release, "next_abi_bot");
    let refused = match_against_random(&format!("{}:walker", library.display())).expect_failure();
    for expected in [
        format!("plugin ABI {incompatible}"),
        format!("plugin ABI {engine_abi}"),
        format!("agon-sdk {}", agon_engine::loader::sdk_version()),
    ] {
        assert!(
            refused.stderr.contains(&expected),
            "{expected}: {}",
            refused.stderr
        );
    }
}
