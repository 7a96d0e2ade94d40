//! The loader against real files: good plugins, and every kind of bad file it must refuse with
//! a message naming the file.

use agon_engine::ProcessHostError;
use agon_engine::SandboxConfig;
use agon_engine::{LoadError, Plugin, StagedPlugin};
use agon_engine::{ProcessHost, ProcessHostConfig};
use agon_games::contract::{
    GameRules, GameType, ParamError, ParamFiles, RawParams, Seats, Session,
};
use agon_games::registry::Registry;
use agon_tests::{
    agon_output, artifacts, assert_has, assert_has_all, cache_dir, match_args, plugin, scratch,
    spec, tournament_config, tournament_run_args,
};
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

/// The bytes of the built `breakthrough-random` with `mark` appended: a library of its own
/// content (so not yet opened by this process), which loads as the original does.
fn marked_plugin(mark: &str) -> Vec<u8> {
    let mut bytes = std::fs::read(plugin("breakthrough-random")).unwrap();
    bytes.extend_from_slice(format!("{mark} {}", std::process::id()).as_bytes());
    bytes
}

/// The start of every refusal of `file`, cut short to `length` bytes.
fn cut_short(file: &Path, length: usize) -> String {
    format!(
        "{}: an incomplete library, cut short: {length} of the ",
        file.display()
    )
}

/// Mapping a library cut short faults (SIGBUS) in whatever process touches its missing part;
/// every command refuses one first, in every host: a normal error naming the file and both
/// sizes, not a crash charged to the bot.
#[test]
fn a_library_cut_short_is_refused_by_every_command_in_every_host() {
    let dir = scratch("cut-short");
    let whole = std::fs::read(plugin("breakthrough-random")).unwrap();
    let cut = dir.join("libcut.so");
    std::fs::write(&cut, &whole[..whole.len() / 2]).unwrap();
    let cut_bot = format!("{}:random", cut.display());
    let good_bot = spec("breakthrough-random", "random");
    let refusal = cut_short(&cut, whole.len() / 2);
    for host in ["inline", "thread", "process"] {
        let header = format!("game = \"breakthrough\"\nseed = 1\nhost = \"{host}\"");
        let cfg = tournament_config(
            &dir,
            &header,
            &[("good", good_bot.clone()), ("cut", cut_bot.clone())],
        );
        let out = dir.join(format!("out-{host}"));
        let mut a_match = match_args("breakthrough", [&cut_bot, &good_bot]);
        a_match.extend(["--host", host, "--seed", "1"]);
        let commands = [
            ("match", a_match),
            (
                "plugins",
                vec!["plugins", "--host", host, cut.to_str().unwrap()],
            ),
            ("tournament", tournament_run_args(&cfg, &out)),
        ];
        for (command, args) in commands {
            let ran = agon_output(&args);
            let what = format!("{command} --host {host}: {}", ran.stderr);
            assert_eq!(ran.status.code(), Some(1), "{what}");
            assert_has_all(&ran.stderr, &[&refusal, "bytes its ELF header describes"]);
            assert!(!ran.stderr.contains("crash"), "{what}");
        }
    }
}

/// A copy in the plugin cache cut short after it was staged (by hand, a failing disk) is
/// refused where it would be mapped, and the process host refuses it before starting a host;
/// staging the plugin again writes the copy afresh.
#[test]
fn a_cached_copy_cut_short_is_never_mapped() {
    let dir = scratch("cut-cached-copy");
    let cache = dir.join("cache");
    let team = dir.join("libteam.so");
    std::fs::write(&team, marked_plugin("cut-cached-copy")).unwrap();
    let staged = StagedPlugin::stage(&team, &cache).unwrap();
    let length = std::fs::metadata(&staged.copy).unwrap().len() / 2;
    let copy = std::fs::OpenOptions::new()
        .write(true)
        .open(&staged.copy)
        .unwrap();
    copy.set_len(length).unwrap();
    let refusal = cut_short(&staged.copy, length as usize);

    let e = Plugin::open(&staged).map(|_| ()).unwrap_err();
    assert!(matches!(e, LoadError::Incomplete { .. }), "{e}");
    assert_has(&e.to_string(), &refusal);
    let config = ProcessHostConfig {
        executable: artifacts().join("agon-host"),
        sandbox: SandboxConfig::default(),
    };
    let e = ProcessHost::spawn(&config, &staged, "random", "breakthrough")
        .map(|_| ())
        .unwrap_err();
    assert!(matches!(e, ProcessHostError::Refused(_)), "{e}");
    assert_has(&e.to_string(), &refusal);

    let again = StagedPlugin::stage(&team, &cache).unwrap();
    assert_eq!(again.copy, staged.copy);
    assert_eq!(Plugin::open(&again).unwrap().bot_names(), ["random"]);
}

/// A library whose ELF header is damaged is refused saying what is wrong with it, before the
/// dynamic linker reads it.
#[test]
fn a_damaged_elf_header_is_refused_saying_what_is_wrong() {
    let dir = scratch("damaged-header");
    let whole = marked_plugin("damaged-header");
    let first_segment_offset = u64::from_le_bytes(whole[0x20..0x28].try_into().unwrap()) + 8;
    let damage: [(&str, usize, &[u8], &str); 3] = [
        (
            "class",
            4,
            &[9],
            "a damaged ELF header: unknown ELF class 9",
        ),
        (
            "phentsize",
            0x36,
            &[7, 0],
            "program headers of 7 bytes, not 56",
        ),
        (
            "segment",
            first_segment_offset as usize,
            &[0xff; 8],
            "past the end of any file",
        ),
    ];
    for (name, at, bytes, words) in damage {
        let mut damaged = whole.clone();
        damaged[at..at + bytes.len()].copy_from_slice(bytes);
        let file = dir.join(format!("lib{name}.so"));
        std::fs::write(&file, damaged).unwrap();
        let e = load_error(&file);
        assert!(matches!(e, LoadError::NotSharedLibrary { .. }), "{e}");
        assert_has(&e.to_string(), words);
    }
    let headers_only = dir.join("libheaders.so");
    std::fs::write(&headers_only, &whole[..40]).unwrap();
    let e = load_error(&headers_only);
    assert!(matches!(e, LoadError::Incomplete { .. }), "{e}");
    assert_has(&e.to_string(), "cut short: 40 of the at least ");
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

/// Its metadata borrows the rest of the puzzles' common metadata: only what the loader reads
/// (name, protocol version, seats) matters here.
const CHESS: GameType = GameType {
    name: "chess",
    title: "Chess",
    protocol_version: 1,
    seats: Seats::Fixed(2),
    nodes_meaning: "nodes",
    ..agon_games::contract::puzzle::GAME_TYPE
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
