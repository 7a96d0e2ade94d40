//! `agon games`

use crate::cli::GamesArgs;
use agon_games::registry::Registry;
use agon_play::console::outln;

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
                    "instances": g.game_type().instances.iter().map(|i| i.name).collect::<Vec<_>>(),
                    "default_instance": g.game_type().default_instance,
                })
            })
            .collect();
        outln!(
            "{}",
            agon_play::console::json_text(&serde_json::to_string_pretty(&games)?)
        );
        return Ok(());
    }
    for g in registry.games() {
        outln!(
            "{} ({}, protocol v{}, faults: {:?})",
            g.name(),
            g.seats_text(),
            g.protocol_version(),
            g.default_fault_policy()
        );
        outln!("  parameters: {}", g.parameter_help());
        let game = g.game_type();
        if !game.instances.is_empty() {
            outln!(
                "  built in ({}, default {}): {}",
                game.instances.len(),
                game.default_instance.unwrap_or("none"),
                agon_games::contract::instance_names(game.instances)
            );
        }
    }
    Ok(())
}
