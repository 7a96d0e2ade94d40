//! `agon plugins FILE...`

use crate::cli::PluginsArgs;
use crate::console::outln;
use agon_engine::loader::Plugin;
use anyhow::bail;

pub fn run(args: PluginsArgs) -> anyhow::Result<()> {
    let mut failures = Vec::new();
    let mut listed = Vec::new();
    for file in &args.files {
        match Plugin::load(file) {
            Ok(plugin) => listed.push(plugin),
            Err(e) => failures.push(e.to_string()),
        }
    }
    if args.json {
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
        let out = serde_json::json!({ "plugins": plugins, "errors": failures });
        outln!("{}", serde_json::to_string_pretty(&out)?);
    } else {
        for p in &listed {
            let m = &p.manifest;
            outln!("{}", p.path.display());
            outln!("  plugin  {} {} (team: {})", m.plugin, m.version, m.team);
            outln!("  sha256  {}", p.sha256);
            for b in &m.bots {
                outln!(
                    "  bot     {:<14} {} (protocol v{})  {}",
                    b.name,
                    b.game,
                    b.protocol_version,
                    b.description
                );
            }
        }
    }
    if !failures.is_empty() {
        bail!("{}", failures.join("\nagon: error: "));
    }
    Ok(())
}
