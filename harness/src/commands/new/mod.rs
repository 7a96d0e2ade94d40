//! `agon new`: a team's first bot, as a standalone Cargo project that builds and plays.

use crate::cli::NewArgs;
use agon_games::registry::Registry;
use agon_house::vendor;
use agon_play::console::outln;
use anyhow::{bail, Context};
use std::path::Path;

const CARGO_TOML: &str = include_str!("../../../templates/Cargo.toml");
const README: &str = include_str!("../../../templates/README.md");
const GITIGNORE: &str = include_str!("../../../templates/gitignore");
const TEST: &str = include_str!("../../../templates/plays.rs");

pub fn run(args: NewArgs) -> anyhow::Result<()> {
    let registry = Registry::builtin();
    let game = registry.get(&args.game)?.game_type();
    let starter = &game.starter;
    // Games of several players have the SDK's sparring bot, which the template exports as
    // `random` so that the project's test has an opponent.
    let sparring = game.seats.fewest() > 1;
    if let Some(Some(name)) = &args.registry {
        if !is_identifier(name) {
            bail!("--registry={name}: a registry's name is letters, digits, `_` and `-`");
        }
    }
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
    check_empty(&args.path)?;
    let sdk_dependency = sdk_dependency(args.registry.as_ref());
    let sdk_note = match args.registry {
        None => {
            "`vendor/` holds the source of Agon's SDK, written by `agon new`: the project \
             builds wherever it is copied, with no Agon repository beside it."
        }
        Some(_) => "The SDK comes from a registry (`Cargo.toml` names it).",
    };
    let crate_snake = crate_name.replace('-', "_");
    // The test's opponents: the template's sparring bot in every other seat.
    let opponents = "format!(\"{library}:random\"), ".repeat(game.seats.fewest().saturating_sub(1));
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
    // The project's test plays the game's example match; Rust source of its `KEY=VALUE`s.
    let example_params: Vec<String> = game
        .example_params
        .iter()
        .map(|(key, value)| format!("{:?}", format!("{key}={value}")))
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
            .replace("{{sdk_dependency}}", &sdk_dependency)
            .replace("{{sdk_note}}", sdk_note)
            .replace("{{opponents}}", &opponents)
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
    if args.registry.is_none() {
        vendor::write_sdk(&args.path)?;
        // The versions the engine is tested with; cargo drops the entries the project does
        // not use. (A registry's SDK may be of another release: cargo resolves it afresh.)
        let lock = args.path.join("Cargo.lock");
        std::fs::write(&lock, vendor::lock_file())
            .with_context(|| format!("cannot write {}", lock.display()))?;
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

/// The project's SDK dependency with what it says: the vendored source by default, or the
/// published release of this engine's version from crates.io (`--registry`) or a course's
/// registry (`--registry=NAME`).
fn sdk_dependency(registry: Option<&Option<String>>) -> String {
    let version = agon_engine::loader::sdk_version();
    let package = vendor::SDK_PACKAGE;
    let lasting =
        "# A library built with one SDK release keeps loading in later engines as long as\n\
                   # the plugin ABI under it stays compatible; the engine says which ABI versions\n\
                   # it saw when it does not.";
    match registry {
        None => format!(
            "# Agon's SDK: `vendor/` holds its source, written by `agon new` from the agon you\n\
             # have, so the project builds wherever it is copied. From a registry instead:\n\
             # {package} = \"{version}\"\n{lasting}\n\
             {package} = {{ path = \"{}/{package}\" }}",
            vendor::VENDOR
        ),
        Some(None) => {
            format!("# Agon's SDK, from crates.io.\n{lasting}\n{package} = \"{version}\"")
        }
        Some(Some(name)) => format!(
            "# Agon's SDK, from the registry `{name}` of your cargo configuration.\n{lasting}\n\
             {package} = {{ version = \"{version}\", registry = \"{name}\" }}"
        ),
    }
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
    // The vendored crates are packages of the project's workspace: no two may share a name.
    if vendor::PACKAGES.contains(&name.as_str()) {
        name.push_str("-bot");
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
        assert_eq!(crate_name("agon-sdk"), "agon-sdk-bot");
    }
}
