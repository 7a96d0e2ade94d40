//! The loader against real files: good plugins, and every kind of bad file it must refuse with
//! a message naming the file.

use agon_engine::loader::{LoadError, Plugin};
use agon_games::contract::{
    FaultPolicy, GameRules, GameType, ParamError, ParamFiles, RawParams, Seats, Session,
    SolutionView, Starter,
};
use agon_games::registry::Registry;
use agon_tests::{agon_output, artifacts, assert_has, assert_has_all, cache_dir, plugin, scratch};
use std::path::Path;

fn load(path: &Path) -> Result<Plugin, LoadError> {
    Plugin::load_with_cache(path, &cache_dir())
}

fn breakthrough() -> &'static dyn GameRules {
    &agon_games::breakthrough::session::BreakthroughRules
}

/// Why `bot` of the built plugin `package` cannot be created for `game` (the plugin itself must
/// load; panics if the bot is created).
fn bot_refusal(package: &str, bot: &str, game: &dyn GameRules) -> LoadError {
    load(&plugin(package))
        .unwrap()
        .new_bot(bot, game)
        .map(|_| ())
        .unwrap_err()
}

fn load_error(path: &Path) -> LoadError {
    match load(path) {
        Ok(p) => panic!("{} loaded as {:?}", path.display(), p.manifest),
        Err(e) => {
            assert!(
                e.to_string().contains(&path.display().to_string()),
                "the message names the file: {e}"
            );
            assert_eq!(e.path(), path);
            e
        }
    }
}

#[test]
fn builtin_plugins_load_with_their_manifests() {
    let random = load(&plugin("breakthrough-random")).unwrap();
    assert_eq!(random.manifest.plugin, "breakthrough-random");
    assert_eq!(random.bot_names(), ["random"]);
    assert_eq!(random.sha256.len(), 64);
    assert!(random
        .loaded_from
        .starts_with(cache_dir().join("plugins").join(&random.sha256)));
    let misbehave = load(&plugin("misbehave")).unwrap();
    for bot in [
        "panic",
        "panic-start",
        "loop",
        "sleep",
        "illegal",
        "malformed",
    ] {
        assert!(misbehave.bot_names().contains(&bot), "{bot}");
        misbehave.new_bot(bot, breakthrough()).unwrap();
    }
}

/// abi_stable's `load_from_file` family would hand the first library to every later load; each
/// plugin here must keep its own bots.
#[test]
fn plugins_loaded_in_one_process_stay_distinct() {
    let random = load(&plugin("breakthrough-random")).unwrap();
    let alphabeta = load(&plugin("breakthrough-alphabeta")).unwrap();
    assert_ne!(random.manifest, alphabeta.manifest);
    assert!(random.new_bot("alphabeta", breakthrough()).is_err());
    alphabeta.new_bot("alphabeta", breakthrough()).unwrap();
    random.new_bot("random", breakthrough()).unwrap();
}

/// A new build dropped at the same path is a new file to the linker: the content-addressed copy
/// gives it a new path, so it is really loaded.
#[test]
fn a_new_build_at_the_same_path_is_loaded() {
    let dir = scratch("new-build");
    let team = dir.join("libteam.so");
    std::fs::copy(plugin("breakthrough-random"), &team).unwrap();
    let first = load(&team).unwrap();
    std::fs::copy(plugin("breakthrough-alphabeta"), &team).unwrap();
    let second = load(&team).unwrap();
    assert_eq!(first.manifest.plugin, "breakthrough-random");
    assert_eq!(second.manifest.plugin, "breakthrough-alphabeta");
    assert_ne!(first.loaded_from, second.loaded_from);
    second.new_bot("alphabeta", breakthrough()).unwrap();
}

#[test]
fn a_missing_file_is_named() {
    let missing = artifacts().join("no-such-plugin.so");
    assert!(matches!(load_error(&missing), LoadError::Io { .. }));
}

#[test]
fn a_text_file_or_an_empty_file_is_not_a_shared_library() {
    let dir = scratch("not-a-library");
    let text = dir.join("notes.so");
    std::fs::write(&text, "this is not a library\n").unwrap();
    let empty = dir.join("empty.so");
    std::fs::write(&empty, "").unwrap();
    for path in [text, empty] {
        let e = load_error(&path);
        assert!(matches!(e, LoadError::NotSharedLibrary { .. }), "{e}");
    }
}

#[test]
fn an_executable_is_not_a_shared_library() {
    let e = load_error(&artifacts().join("agon"));
    assert!(matches!(e, LoadError::NotSharedLibrary { .. }), "{e}");
}

#[test]
fn a_library_without_the_root_module_is_refused() {
    let e = load_error(&plugin("fixture-not-agon"));
    assert!(matches!(e, LoadError::NoRootModule { .. }), "{e}");
    assert!(e.to_string().contains("not an Agon plugin"));
}

#[test]
fn an_incompatible_root_module_layout_is_refused() {
    let e = load_error(&plugin("fixture-abi-mismatch"));
    assert!(matches!(e, LoadError::AbiLayout { .. }), "{e}");
    assert!(e.to_string().contains("ABI layout is incompatible"), "{e}");
    assert!(e.to_string().contains("expected: agon-plugin-api"), "{e}");
}

#[test]
fn an_incompatible_api_version_is_refused() {
    let e = load_error(&plugin("fixture-api-version-mismatch"));
    match &e {
        LoadError::ApiVersion { plugin, engine, .. } => {
            assert_eq!(plugin, "1.0.0");
            assert_eq!(engine, &agon_engine::loader::api_version());
        }
        other => panic!("{other}"),
    }
}

#[test]
fn a_bot_for_another_protocol_version_is_refused() {
    let e = bot_refusal("fixture-future-protocol", "future", breakthrough());
    assert!(
        matches!(
            e,
            LoadError::ProtocolMismatch {
                plugin: 99,
                engine: 1,
                ..
            }
        ),
        "{e}"
    );
    let words = agon_engine::loader::protocol_mismatch("breakthrough", 99, 1);
    assert_has_all(&e.to_string(), &["`future`", &words]);
    assert_has(&words, "rebuild the plugin with agon-sdk");
    // `agon plugins` refuses it in the same words.
    let listing = agon_output(&[
        "plugins",
        plugin("fixture-future-protocol").to_str().unwrap(),
    ]);
    assert_has(&listing.stdout, &format!("refused: it {words}"));
}

#[test]
fn unknown_bots_list_what_the_plugin_offers() {
    let e = bot_refusal("misbehave", "nice", breakthrough());
    assert!(matches!(e, LoadError::UnknownBot { .. }), "{e}");
    assert!(e.to_string().contains("panic-start"), "lists the bots: {e}");
}

/// A game the bot does not play.
struct Chess;

const CHESS: GameType = GameType {
    name: "chess",
    title: "Chess",
    protocol_version: 1,
    seats: Seats::Fixed(2),
    file_params: &[],
    parameter_help: "",
    default_fault_policy: FaultPolicy::Forfeit,
    game_score_meaning: "",
    view_script: "",
    nodes_meaning: "nodes",
    solution_shown_as: SolutionView::Answer,
    example_params: &[],
    starter: Starter {
        source: "",
        match_params: "",
    },
};

impl GameRules for Chess {
    fn game_type(&self) -> &'static GameType {
        &CHESS
    }
    fn new_session(
        &self,
        _: &RawParams,
        _: &dyn ParamFiles,
    ) -> Result<Box<dyn Session>, ParamError> {
        unreachable!("only the loader is under test")
    }
}

#[test]
fn a_bot_asked_for_another_game_is_refused() {
    let e = bot_refusal("breakthrough-random", "random", &Chess);
    assert!(matches!(e, LoadError::UnknownGame { .. }), "{e}");
    assert!(
        e.to_string()
            .contains("does not play chess (it plays: breakthrough)"),
        "{e}"
    );
    assert!(Registry::builtin().get("chess").is_err());
}
