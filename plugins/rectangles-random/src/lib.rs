//! `random`: robots start on uniformly drawn cells and each takes a uniformly drawn direction
//! (Stay included) every round, from a generator seeded by the match, so games replay exactly.
//!
//! The bot is the SDK's own sparring partner, `agon_sdk::rectangles::RandomBot`, so teams
//! meet the same baseline in their `cargo test` as in the engine's tournaments.

agon_sdk::export_plugin! {
    team: "Agon staff",
    bots: { "random" => agon_sdk::rectangles::RandomBot: "robots start anywhere and wander at random" },
}
