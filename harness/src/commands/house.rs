//! `agon house`: the house bots of one game or all, built first where needed.

use crate::cli::HouseArgs;
use agon_house::bots_of;
use agon_play::console::outln;

/// Lists every house bot of `args.game` (or of every game) with its built library.
pub fn list(args: HouseArgs) -> anyhow::Result<()> {
    let registry = agon_games::registry::Registry::builtin();
    let games: Vec<&str> = match &args.game {
        Some(game) => vec![registry.get(game)?.name()],
        None => registry.names(),
    };
    for game in games {
        for (file, bot) in bots_of(game)? {
            outln!("{game:<13} house:{bot:<16} {}", file.display());
        }
    }
    Ok(())
}
