//! The team starter kit as a team meets it: `agon new` for every game, `cargo build --release`
//! in the new project, `agon match` against the engine's own baseline, and the project's own
//! `cargo test`. (Libraries of other SDK and ABI releases: `abi_versions.rs`.)
//!
//! The projects share one target folder (`target/starter-kit`), so their dependencies are
//! compiled once per checkout.

use agon_tests::{
    agon, agon_ok, artifacts, assert_has, assert_has_all, instances, kit_cargo, kit_target, plugin,
    run, scratch, workspace_root,
};
use std::path::Path;
use std::process::Command;
use std::time::Instant;

/// `cargo ARGS` in `project`, building into the shared target folder; must succeed.
fn cargo(project: &Path, args: &[&str]) -> String {
    let out = kit_cargo(project, args);
    out.stdout + &out.stderr
}

/// What each game's first match needs: the engine's baseline opponents (games of several
/// players) and the parameters, from the courses' own data where there is some. Any other
/// registered game plays under its default parameters against the project's own sparring bot
/// (`random`, which `agon new` exports for games of several players).
fn first_match(game: &str, library: &Path) -> (Vec<String>, Vec<String>) {
    let baseline = |package: &str| vec![format!("{}:random", plugin(package).display())];
    match game {
        "breakthrough" => (baseline("breakthrough-random"), vec![]),
        "flip" => (baseline("flip-random"), vec![]),
        // The course's example map has three players.
        "reversixt" => (
            [baseline("reversixt-random"), baseline("reversixt-random")].concat(),
            vec![format!(
                "map={}",
                instances("reversixt").join("example.map").display()
            )],
        ),
        "rectangles" => (baseline("rectangles-random"), vec!["n=20".into()]),
        "lightsout" => (vec![], vec!["instance=#..#\n.##.\n#..#\n".into()]),
        "flowfree" => (
            vec![],
            vec![format!(
                "puzzle={}",
                instances("flowfree").join("input55.txt").display()
            )],
        ),
        other => {
            let rules = agon_games::registry::Registry::builtin();
            let seats = rules.get(other).unwrap().seats();
            let sparring = format!("{}:random", library.display());
            (vec![sparring; seats.saturating_sub(1)], vec![])
        }
    }
}

/// A folder outside the checkout, removed when dropped: a team's project must build there.
struct Elsewhere(std::path::PathBuf);

impl Elsewhere {
    fn new(name: &str) -> Elsewhere {
        let dir = std::env::temp_dir().join(format!("agon-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Elsewhere(dir)
    }
}

impl Drop for Elsewhere {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Every file of `project` (its `target/` aside), none of which may name the checkout.
fn assert_no_file_names(project: &Path, checkout: &Path) {
    let checkout = checkout.display().to_string();
    let mut folders = vec![project.to_path_buf()];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                folders.push(path);
            } else {
                let text = std::fs::read_to_string(&path).unwrap_or_default();
                assert!(
                    !text.contains(&checkout),
                    "{} names {checkout}",
                    path.display()
                );
            }
        }
    }
}

/// Games of six the template's `bot` wins against the SDK's random bot in every other seat
/// (both from `library`), its seat moving every game. Under the game's default parameters,
/// which are the course's; ReversiXT has no default map, so its example's two-player board.
fn wins_against_random(game: &str, library: &Path, bot: &str) -> usize {
    let game_type = agon_games::registry::Registry::builtin()
        .get(game)
        .unwrap()
        .game_type();
    let seats = game_type.seats.fewest();
    let params: Vec<String> = match game {
        "reversixt" => game_type
            .example_params
            .iter()
            .map(|(key, value)| format!("{key}={value}"))
            .collect(),
        _ => Vec::new(),
    };
    (0..6)
        .filter(|&seed| {
            let ours = seed % seats;
            let mut args = vec![
                "match".to_string(),
                "--game".into(),
                game.into(),
                "--json".into(),
                "--host".into(),
                "thread".into(),
                "--seed".into(),
                seed.to_string(),
                "--seed-secret".into(),
                agon_tests::TEST_SECRET.to_string(),
            ];
            for seat in 0..seats {
                let bot = if seat == ours { bot } else { "random" };
                args.extend(["--bot".into(), format!("{}:{bot}", library.display())]);
            }
            for p in &params {
                args.extend(["--param".into(), p.clone()]);
            }
            let record: serde_json::Value =
                serde_json::from_str(&run(agon().args(&args)).expect_success().stdout).unwrap();
            record["winner"] == ours
        })
        .count()
}

/// What a team meets: `agon new` for every game into a folder outside the checkout, the folder
/// moved elsewhere (the project names nothing outside itself), `cargo build --release` and
/// `cargo test --release` offline against the SDK source it carries, with `agon` found by
/// `$AGON`; the first match against the engine's baseline; and the template beating random.
#[test]
fn agon_new_gives_a_plugin_that_plays_first_time_for_every_game() {
    artifacts();
    let written = Elsewhere::new("starter-kit-written");
    let moved = Elsewhere::new("starter-kit-moved");
    for game in agon_games::registry::Registry::builtin().names() {
        let started = Instant::now();
        let project = moved.0.join(format!("team-{game}"));
        // One project names its bot otherwise: its test must follow the name.
        let bot = if game == "flip" { "greedy" } else { "bot" };
        let first = written.0.join(format!("team-{game}"));
        agon_ok(&[
            "new",
            "--game",
            game,
            first.to_str().unwrap(),
            "--name",
            &format!("Team {game}"),
            "--bot",
            bot,
        ]);
        std::fs::rename(&first, &project).unwrap();
        assert_no_file_names(&project, &workspace_root());
        cargo(&project, &["build", "--release", "--offline"]);
        cargo(&project, &["fmt", "--check"]);
        let library = kit_target()
            .join("release")
            .join(format!("libteam_{game}.so"));
        let listed = agon_ok(&["plugins", library.to_str().unwrap()]);
        assert!(listed.contains(&format!("team: Team {game}")), "{listed}");

        let (opponents, params) = first_match(game, &library);
        let mut args = vec![
            "match".to_string(),
            "--game".into(),
            game.into(),
            "--json".into(),
            "--bot".into(),
            format!("{}:{bot}", library.display()),
        ];
        for opponent in opponents.iter().cloned() {
            args.extend(["--bot".into(), opponent]);
        }
        for p in &params {
            args.extend(["--param".into(), p.clone()]);
        }
        let out = run(agon().args(&args)).expect_success();
        let record: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
        assert_eq!(record["faults"], serde_json::json!([]), "{game}: {record}");
        assert!(record["reason"].is_string(), "{game}: {record}");
        println!(
            "{game}: agon new to a finished match in {:.1} s ({} lines of bot)",
            started.elapsed().as_secs_f64(),
            std::fs::read_to_string(project.join("src/lib.rs"))
                .unwrap()
                .lines()
                .count()
        );

        // The project's own test plays each of its bots through the `agon` that $AGON names.
        let tested = run(Command::new(env!("CARGO"))
            .current_dir(&project)
            .args(["test", "--release", "--offline"])
            .env("CARGO_TARGET_DIR", kit_target())
            .env("AGON", artifacts().join("agon"))
            .env("AGON_CACHE_DIR", agon_tests::cache_dir()))
        .expect_success();
        assert_has(
            &tested.stdout,
            "every_bot_plays_a_game_without_a_fault ... ok",
        );

        if !opponents.is_empty() {
            let wins = wins_against_random(game, &library, bot);
            println!("{game}: the template won {wins} of 6 against random");
            assert!(
                wins >= 4,
                "{game}: the template won {wins} of 6 against random"
            );
        }
    }
}

#[test]
fn folder_entrants_leave_out_hidden_bots_and_are_named_by_team() {
    artifacts();
    let dir = scratch("starter-kit-folder");
    let project = dir.join("rocket");
    agon_ok(&[
        "new",
        "--game",
        "breakthrough",
        project.to_str().unwrap(),
        "--name",
        "Team Rocket",
    ]);
    cargo(&project, &["build", "--release"]);
    let teams = dir.join("teams");
    std::fs::create_dir_all(&teams).unwrap();
    std::fs::copy(
        kit_target().join("release/librocket.so"),
        teams.join("librocket.so"),
    )
    .unwrap();
    std::fs::copy(plugin("breakthrough-alphabeta"), teams.join("libseed.so")).unwrap();
    let cfg = dir.join("t.toml");
    std::fs::write(
        &cfg,
        "game = \"breakthrough\"\ngames_per_pairing = 2\nhost = \"thread\"\n\
         [[entrant]]\nfolder = \"teams\"\n",
    )
    .unwrap();
    let s = agon_tests::tournament_standings(&cfg, &dir.join("out"));
    let mut names: Vec<&str> = s["standings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["name"].as_str().unwrap())
        .collect();
    names.sort();
    // The template's `random` sparring bot is hidden: only the team's bot enters, by team name;
    // the seed plugin enters its one bot under its team.
    assert_eq!(names, ["Team Rocket", "UIUC CS440 F17 seed"], "{s}");
}

/// The fenced blocks of `lang` in the bot-writer's guide, in order.
fn guide_blocks(lang: &str) -> Vec<String> {
    let guide = agon_tests::read(workspace_root().join("docs/writing-a-bot.md"));
    let mut blocks = Vec::new();
    let mut current: Option<String> = None;
    for line in guide.lines() {
        match &mut current {
            None if line.trim_start() == format!("```{lang}") => current = Some(String::new()),
            Some(_) if line.trim_start() == "```" => blocks.extend(current.take()),
            Some(block) => {
                block.push_str(line);
                block.push('\n');
            }
            None => {}
        }
    }
    blocks
}

/// The guide's shell blocks, run in order in one folder as a student would type them, with
/// `agon` on the PATH. Builds go to the kit's shared target folder, so `target/release/` in the
/// guide reads as `$CARGO_TARGET_DIR/release/` here.
#[test]
fn the_guide_s_shell_blocks_run_in_order() {
    artifacts();
    let blocks = guide_blocks("sh");
    assert!(blocks.len() >= 3, "the guide has its shell blocks");
    let script = blocks
        .join("\n")
        .replace("target/release/", "$CARGO_TARGET_DIR/release/");
    let dir = scratch("starter-kit-guide");
    let path = format!(
        "{}:{}",
        artifacts().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let stdout = run(Command::new("bash")
        .args(["-euo", "pipefail", "-c", &script])
        .current_dir(&dir)
        .env("PATH", path)
        .env("CARGO_TARGET_DIR", kit_target())
        .env("AGON_CACHE_DIR", agon_tests::cache_dir()))
    .expect_success()
    .stdout;
    assert_has(&stdout, "team: Team Rocket");
    assert!(dir.join("my-bot/game.json").is_file(), "{stdout}");
}

#[test]
fn the_guide_s_toml_blocks_parse() {
    let blocks = guide_blocks("toml");
    assert!(!blocks.is_empty());
    for block in blocks {
        let parsed: toml::Table = block.parse().unwrap_or_else(|e| panic!("{block}: {e}"));
        assert!(parsed["dependencies"].get("agon-sdk").is_some(), "{block}");
    }
}

/// A team can depend on a published SDK: the SDK, the ABI and the rules crates it depends on
/// package, and the packaged sources build on their own (cargo verifies each against the
/// others' packages, as a registry would serve them).
#[test]
fn the_sdk_abi_and_rules_crates_package() {
    let stderr = run(Command::new(env!("CARGO"))
        .current_dir(workspace_root())
        .args([
            "package",
            "-p",
            "agon-plugin-api",
            "-p",
            "agon-games",
            "-p",
            "agon-sdk",
            "--allow-dirty",
            "--offline",
        ])
        .env("CARGO_TARGET_DIR", kit_target()))
    .expect_success()
    .stderr;
    for package in ["agon-plugin-api", "agon-games", "agon-sdk"] {
        assert!(stderr.contains(&format!("Packaging {package}")), "{stderr}");
        assert!(stderr.contains(&format!("Verifying {package}")), "{stderr}");
    }
    assert!(!stderr.contains("warning"), "{stderr}");
}

#[test]
fn agon_new_refuses_what_it_cannot_do_and_says_why() {
    let dir = scratch("starter-kit-refusals");
    let taken = dir.join("taken");
    std::fs::create_dir_all(&taken).unwrap();
    std::fs::write(taken.join("notes.txt"), "ours").unwrap();
    // `agon new --game GAME FOLDER EXTRA...`, which must fail: its stderr.
    let refusal = |game: &str, folder: &Path, extra: &[&str]| {
        let folder = folder.to_str().unwrap();
        let args = [&["new", "--game", game, folder], extra].concat();
        run(agon().args(args)).expect_failure().stderr
    };
    let e = refusal("breakthrough", &taken, &[]);
    assert_has(&e, "exists and is not empty");
    assert_eq!(agon_tests::read(taken.join("notes.txt")), "ours");
    let fresh = dir.join("fresh");
    let e = refusal("chess", &fresh, &[]);
    assert_has_all(&e, &["chess", "breakthrough"]);
    let e = refusal("flip", &fresh, &["--bot", "a b"]);
    assert_has(&e, "--bot `a b`");
    let e = refusal("flip", &fresh, &["--registry=a/b"]);
    assert_has(&e, "--registry=a/b");
    assert!(!fresh.exists(), "nothing is written when refused");
}

/// `--registry` depends on the published SDK of this engine's version, from crates.io or from
/// the named registry, and writes no vendored copy.
#[test]
fn agon_new_with_a_registry_depends_on_the_published_sdk() {
    let dir = scratch("starter-kit-registry");
    let version = agon_engine::loader::sdk_version();
    for (flag, registry) in [("--registry", None), ("--registry=course", Some("course"))] {
        let project = dir.join(flag.replace('=', "-").trim_start_matches('-'));
        agon_ok(&["new", "--game", "flip", project.to_str().unwrap(), flag]);
        let manifest: toml::Table = std::fs::read_to_string(project.join("Cargo.toml"))
            .unwrap()
            .parse()
            .unwrap();
        let sdk = &manifest["dependencies"]["agon-sdk"];
        match registry {
            None => assert_eq!(sdk.as_str(), Some(version)),
            Some(name) => {
                assert_eq!(sdk["version"].as_str(), Some(version));
                assert_eq!(sdk["registry"].as_str(), Some(name));
            }
        }
        assert!(!project.join("vendor").exists(), "{flag}");
        assert!(!project.join("Cargo.lock").exists(), "{flag}");
    }
}
