//! `random`: robots start on uniformly drawn cells and each takes a uniformly drawn direction
//! (Stay included) every round, from a generator seeded by the match, so games replay exactly.
//!
//! The bot is the SDK's own sparring partner, `agon_plugin_api::rectangles::RandomBot`, so teams
//! meet the same baseline in their `cargo test` as in the engine's tournaments.

agon_plugin_api::export_plugin! {
    team: "Agon staff",
    bots: { "random" => agon_plugin_api::rectangles::RandomBot: "robots start anywhere and wander at random" },
}
