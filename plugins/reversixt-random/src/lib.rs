//! `random`: a uniformly drawn legal move (every special value of a choice or bonus square
//! counts as its own move), from a generator seeded by the match, so games replay exactly.
//!
//! The bot is the SDK's own sparring partner, `agon_sdk::reversixt::RandomBot`, so teams
//! meet the same baseline in their `cargo test` as in the engine's tournaments.

agon_sdk::export_plugin! {
    team: "Agon staff",
    bots: { "random" => agon_sdk::reversixt::RandomBot: "a uniformly random legal move" },
}
