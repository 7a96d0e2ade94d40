//! `agon plugins FILE...`

use crate::cli::PluginsArgs;
use agon_engine::SandboxConfig;
use agon_engine::{loader::cache_dir, BotDescriptor, Manifest, Plugin, StagedPlugin};
use agon_engine::{ProcessHost, ProcessHostConfig};
use agon_games::registry::Registry;
use agon_play::console::{name, outln, path_name};
use agon_play::match_profile::HostChoice;
use anyhow::bail;
use std::path::{Path, PathBuf};

/// What one file offers.
struct Listed {
    path: PathBuf,
    sha256: String,
    manifest: Manifest,
}

pub fn run(args: PluginsArgs) -> anyhow::Result<()> {
    let process = match args.host {
        HostChoice::Process => Some(ProcessHostConfig::locate(SandboxConfig::default())?),
        HostChoice::Inline | HostChoice::Thread => None,
    };
    let mut failures = Vec::new();
    let mut listed = Vec::new();
    for file in &args.files {
        match list(file, process.as_ref()) {
            Ok(plugin) => listed.push(plugin),
            Err(e) => failures.push((file, e)),
        }
    }
    if args.json {
        print_json(&listed, &failures)?;
    } else {
        print_listing(&listed);
    }
    if !failures.is_empty() {
        let shown: Vec<String> = failures.iter().map(|(f, e)| shown_failure(f, e)).collect();
        bail!("{}", shown.join("\nagon: error: "));
    }
    Ok(())
}

/// Reads `file`'s manifest, in a process host when `process` is given.
fn list(file: &Path, process: Option<&ProcessHostConfig>) -> anyhow::Result<Listed> {
    // Staging reads and checks the file (an ELF shared library, bounded in size) without
    // running any of it; only opening it runs its code, in the confined host.
    let staged = StagedPlugin::stage(file, &cache_dir())?;
    let manifest = match process {
        Some(config) => ProcessHost::inspect(config, &staged)?,
        None => Plugin::open(&staged)?.manifest,
    };
    Ok(Listed {
        path: staged.path,
        sha256: staged.sha256,
        manifest,
    })
}

fn print_json(listed: &[Listed], failures: &[(&PathBuf, anyhow::Error)]) -> anyhow::Result<()> {
    let plugins: Vec<serde_json::Value> = listed
        .iter()
        .map(|p| {
            serde_json::json!({
                "file": p.path,
                "sha256": p.sha256,
                "manifest": p.manifest,
            })
        })
        .collect();
    let errors: Vec<String> = failures.iter().map(|(f, e)| failure(f, e)).collect();
    let out = serde_json::json!({ "plugins": plugins, "errors": errors });
    outln!(
        "{}",
        agon_play::console::json_text(&serde_json::to_string_pretty(&out)?)
    );
    Ok(())
}

fn print_listing(listed: &[Listed]) {
    let registry = Registry::builtin();
    for p in listed {
        let m = &p.manifest;
        outln!("{}", path_name(&p.path));
        outln!(
            "  plugin  {} {} (team: {})",
            name(&m.plugin),
            name(&m.version),
            name(&m.team)
        );
        outln!("  sha256  {}", p.sha256);
        for b in &m.bots {
            outln!(
                "  bot     {:<14} {} (protocol v{}){}  {}",
                name(&b.name),
                name(&b.game),
                b.protocol_version,
                if b.tournament { "" } else { " [hidden]" },
                name(&b.description)
            );
            if let Some(problem) = protocol_problem(&registry, b) {
                outln!("          {problem}");
            }
        }
    }
}

/// Why `file` was not listed, naming it once (the loader's errors start with it).
fn failure(file: &Path, error: &anyhow::Error) -> String {
    let error = error.to_string();
    if error.contains(&file.display().to_string()) {
        error
    } else {
        format!("{}: {error}", file.display())
    }
}

/// [`failure`] for the terminal: the one line of each failure must stay one line whatever the
/// file is called.
fn shown_failure(file: &Path, error: &anyhow::Error) -> String {
    name(&failure(file, error)).into_owned()
}

/// Why the engine would refuse `bot`: a game it does not know, or another protocol version of
/// the game (the loader refuses such a bot before it plays).
fn protocol_problem(registry: &Registry, bot: &BotDescriptor) -> Option<String> {
    let Ok(game) = registry.get(&bot.game) else {
        return Some(format!(
            "refused: this engine has no game `{}` (it has: {})",
            name(&bot.game),
            registry.names().join(", ")
        ));
    };
    (game.protocol_version() != bot.protocol_version).then(|| {
        format!(
            "refused: it {}",
            agon_engine::loader::protocol_mismatch(
                &name(&bot.game),
                bot.protocol_version,
                game.protocol_version()
            )
        )
    })
}
