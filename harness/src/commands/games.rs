//! `agon games`

use crate::cli::GamesArgs;
use crate::console::outln;
use agon_games::registry::Registry;

pub fn run(args: GamesArgs) -> anyhow::Result<()> {
    let registry = Registry::builtin();
    if args.json {
        let games: Vec<serde_json::Value> = registry
            .games()
            .map(|g| {
                serde_json::json!({
                    "name": g.name(),
                    "seats": g.seats_text(),
                    "protocol_version": g.protocol_version(),
                    "parameters": g.parameter_help(),
                    "fault_policy": g.default_fault_policy(),
                })
            })
            .collect();
        outln!(
            "{}",
            crate::console::json_text(&serde_json::to_string_pretty(&games)?)
        );
        return Ok(());
    }
    for g in registry.games() {
        outln!(
            "{} ({} seats, protocol v{}, faults: {:?})",
            g.name(),
            g.seats_text(),
            g.protocol_version(),
            g.default_fault_policy()
        );
        outln!("  parameters: {}", g.parameter_help());
    }
    Ok(())
}
