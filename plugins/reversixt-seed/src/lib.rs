//! The seed team's ReversiXT player (RWTH Softwarepraktikum SS 2019, group 6; rules file
//! `docs/games/reversixt.md`, "The seed team's evaluation"): the report's evaluation
//! ([`eval`]) under a paranoid or max-n search with iterative deepening ([`search`]).
//!
//! The rules are `agon_games::reversixt`'s; this crate only reads positions and plays moves
//! through `Position::play`.

pub mod bombing;
pub mod eval;
pub mod moves;
pub mod search;
mod stability;
pub mod topology;

#[cfg(test)]
mod tests;

mod plugin;

agon_sdk::export_plugin! {
    team: "Agon staff, after the SS 2019 seed team",
    wire_bots: { "seed" => plugin::Seed: "the seed team's evaluation in a paranoid (or mode=maxn) alpha-beta search with iterative deepening" },
}
