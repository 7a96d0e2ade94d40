//! `random`: for each allowed move, a random coin flipped at an angle uniform in [-pi/2, pi/2)
//! around the direction of attack, checked for validity before answering (on a copy of the
//! table, so the second move sees the first). Modelled on the course's sample player (COMS W4444
//! F19) but not a port of it: that player draws from its own fixed-seed generator, tries 30
//! times per request in all and checks both moves against the old board, so it answers some
//! invalid moves; this one never does.
//!
//! The bot is the SDK's own sparring partner, `agon_sdk::flip::RandomBot`, so teams
//! meet the same baseline in their `cargo test` as in the engine's tournaments.

agon_sdk::export_plugin! {
    team: "COMS W4444 F19 (course sample)",
    bots: { "random" => agon_sdk::flip::RandomBot: "random coin, random forward angle, checked before answering" },
}
