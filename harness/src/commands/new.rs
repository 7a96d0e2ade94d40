//! `agon new`: a team's first bot, as a standalone Cargo project that builds and plays.

use crate::cli::NewArgs;
use crate::console::outln;
use agon_games::registry::Registry;
use anyhow::{bail, Context};
use std::path::{Path, PathBuf};

/// Where an Agon checkout keeps the SDK a starter project builds against.
const SDK_FOLDER: &str = "plugin-api/sdk";

const CARGO_TOML: &str = include_str!("../../templates/Cargo.toml");
const README: &str = include_str!("../../templates/README.md");
const GITIGNORE: &str = include_str!("../../templates/gitignore");
const TEST: &str = include_str!("../../templates/plays.rs");

pub fn run(args: NewArgs) -> anyhow::Result<()> {
    let registry = Registry::builtin();
    let game = registry.get(&args.game)?.game_type();
    let starter = &game.starter;
    // Games of several players have the SDK's sparring bot, which the template exports as
    // `random` so that the project's test has an opponent.
    let sparring = game.seats.fewest() > 1;
    if !is_identifier(&args.bot) {
        bail!(
            "--bot `{}`: a bot name is letters, digits, `_` and `-`",
            args.bot
        );
    }
    let folder_name = args
        .path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let crate_name = crate_name(&folder_name);
    let team = args.name.clone().unwrap_or_else(|| folder_name.clone());
    let agon_dir = checkout(args.agon_dir.clone().unwrap_or_else(built_from))?;
    check_empty(&args.path)?;
    let (api_dependency, engine_dependency) = dependencies(&agon_dir, args.registry);
    let crate_snake = crate_name.replace('-', "_");
    let seats = if sparring {
        format!("{:?}, \"random\"", args.bot)
    } else {
        format!("{:?}", args.bot)
    };
    let library = format!("target/release/lib{crate_snake}.so");
    let opponent = if sparring {
        format!(" --bot {library}:random")
    } else {
        String::new()
    };
    let match_command = format!(
        "agon match --game {}{} --bot {library}:{}{opponent}",
        game.name, starter.match_params, args.bot
    );
    // The project's test plays the game's example match; Rust source of its (key, value) pairs.
    let example_params: Vec<String> = game
        .example_params
        .iter()
        .map(|p| format!("{p:?}"))
        .collect();
    let example_params = example_params.join(", ");
    let fill = |template: &str| {
        template
            .replace("{{crate}}", &crate_name)
            .replace("{{crate_snake}}", &crate_snake)
            .replace("{{team_literal}}", &format!("{team:?}"))
            .replace("{{team}}", &team)
            .replace("{{bot}}", &args.bot)
            .replace("{{game_title}}", game.title)
            .replace("{{game}}", game.name)
            .replace("{{api_dependency}}", &api_dependency)
            .replace("{{engine_dependency}}", &engine_dependency)
            .replace("{{seats}}", &seats)
            .replace("{{params}}", &example_params)
            .replace("{{match_command}}", &match_command)
    };
    let files: [(&str, String); 5] = [
        ("Cargo.toml", fill(CARGO_TOML)),
        ("README.md", fill(README)),
        (".gitignore", fill(GITIGNORE)),
        ("src/lib.rs", fill(starter.source)),
        ("tests/plays.rs", fill(TEST)),
    ];
    write_project(&args.path, &files)?;
    // The engine's lock file pins the versions the engine is tested with (cargo drops the
    // entries the new project does not use).
    let lock = agon_dir.join("Cargo.lock");
    if !args.registry && lock.is_file() {
        std::fs::copy(&lock, args.path.join("Cargo.lock"))
            .with_context(|| format!("cannot copy {}", lock.display()))?;
    }
    outln!(
        "created {} ({} bot `{}` of team {team:?})",
        args.path.display(),
        game.title,
        args.bot
    );
    outln!(
        "next:\n  cd {}\n  cargo build --release\n  {match_command}",
        args.path.display()
    );
    Ok(())
}

/// The Agon checkout at `dir`, made absolute (the project names it by path).
fn checkout(dir: PathBuf) -> anyhow::Result<PathBuf> {
    std::fs::canonicalize(&dir)
        .ok()
        .filter(|d| d.join(SDK_FOLDER).join("Cargo.toml").is_file())
        .with_context(|| {
            format!(
                "{} is not an Agon checkout (no {SDK_FOLDER}/Cargo.toml); give --agon-dir DIR",
                dir.display()
            )
        })
}

/// The project's SDK dependency (by path into the checkout, or from a registry, with the other
/// as a comment) and its test's engine dependency.
fn dependencies(agon_dir: &Path, registry: bool) -> (String, String) {
    let sdk_version = agon_engine::loader::sdk_version();
    let registry_line = format!("agon-sdk = \"{sdk_version}\"");
    let path_line = format!(
        "agon-sdk = {{ path = {:?} }}",
        agon_dir.join(SDK_FOLDER).display().to_string()
    );
    let sdk = if registry {
        format!("# {path_line}\n{registry_line}")
    } else {
        format!("{path_line}\n# {registry_line}")
    };
    let engine = format!(
        "agon-engine = {{ path = {:?} }}",
        agon_dir.join("engine").display().to_string()
    );
    (sdk, engine)
}

/// Writes the project's files below `path`, laid out as `cargo fmt` would.
fn write_project(path: &Path, files: &[(&str, String)]) -> anyhow::Result<()> {
    for (name, text) in files {
        let target = path.join(name);
        if let Some(parent) = target.parent() {
            std::fs::create_dir_all(parent)
                .with_context(|| format!("cannot create {}", parent.display()))?;
        }
        std::fs::write(&target, text)
            .with_context(|| format!("cannot write {}", target.display()))?;
    }
    format_sources(path);
    Ok(())
}

/// Lays the generated sources out as `cargo fmt` would (the placeholders change line lengths),
/// when rustfmt is installed; without it the project builds the same, only laid out less well.
fn format_sources(project: &Path) {
    let status = std::process::Command::new("rustfmt")
        .args(["--edition", "2021", "src/lib.rs", "tests/plays.rs"])
        .current_dir(project)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status();
    if !status.is_ok_and(|s| s.success()) {
        log::info!(
            "rustfmt did not run on {}; the sources are as templated",
            project.display()
        );
    }
}

/// The checkout this binary was built from (the harness's parent folder).
fn built_from() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_default()
}

/// A valid Cargo package name from a folder's name: lowercase letters, digits and `-`,
/// starting with a letter.
fn crate_name(folder: &str) -> String {
    let mut name: String = folder
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '-'
            }
        })
        .collect();
    name = name.trim_matches('-').to_string();
    while name.contains("--") {
        name = name.replace("--", "-");
    }
    if !name.starts_with(|c: char| c.is_ascii_alphabetic()) {
        name = format!("bot-{name}").trim_end_matches('-').to_string();
    }
    name
}

fn is_identifier(name: &str) -> bool {
    !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
}

/// Refuses to write into a folder that has anything in it.
fn check_empty(path: &Path) -> anyhow::Result<()> {
    match std::fs::read_dir(path) {
        Ok(mut entries) => {
            if entries.next().is_some() {
                bail!(
                    "{} exists and is not empty; give a new folder",
                    path.display()
                );
            }
            Ok(())
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(e) => bail!("{}: {e}", path.display()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crate_names_are_valid_package_names() {
        assert_eq!(crate_name("my-bot"), "my-bot");
        assert_eq!(crate_name("Team Rocket!"), "team-rocket");
        assert_eq!(crate_name("42"), "bot-42");
        assert_eq!(crate_name("__"), "bot");
        assert_eq!(crate_name("a  b"), "a-b");
    }
}
