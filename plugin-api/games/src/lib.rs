//! Agon's games: everything about each game, one folder per game.
//!
//! A game's folder holds its authoritative rules (pure functions: legal moves, apply, outcome,
//! parsers with positioned errors), the protocol its bots speak, and the engine's session for
//! it. Nothing here does IO or spawns threads (files that parameters name are read by the
//! engine through [`contract::ParamFiles`]), so a plugin that wants to search can depend on this
//! crate cheaply; the engine never trusts a bot's copy of the rules.
//!
//! # The shape of a game folder
//! Every game folder `src/<game>/` has the same files for the same roles (a test,
//! `tests/layout.rs`, keeps it so):
//!
//! | file             | role                                                                  |
//! |------------------|-----------------------------------------------------------------------|
//! | `mod.rs`         | the rules' public types; the rules file it follows, cited by section  |
//! | other `*.rs`     | the rules themselves, one concept per file (board, moves, outcome...) |
//! | `protocol.rs`    | the serde types a bot receives and answers, and the protocol `VERSION` |
//! | `session.rs`     | the engine adapter: the game's metadata as one constant `GAME` ([`contract::GameType`]: name, seats, parameters, fault policy...), a [`contract::GameRules`] and its [`contract::Session`] (encoding, validation, notation, fault hooks) |
//! | `tests.rs`       | the rules' tests, each rule on a small hand-made position             |
//! | `playthrough.rs` | the golden playthroughs: seeded games through the session, every observation printed |
//! | `golden/*.txt`   | the transcripts `playthrough.rs` must reproduce byte for byte          |
//! | `convert.rs`     | (games whose rules have their own types for what travels) protocol <-> rules conversions, so a bot can search with these rules |
//! | `view.rs`        | what the replay viewer draws: [`contract::Session::view`] and [`contract::Session::view_action`] as data |
//! | `view.js`        | the viewer's drawing module for that data ([`contract::GameRules::view_script`]) |
//! | `bot.rs`         | what a bot sees of the game, re-exported by the SDK as its module of the game: the types, the rules helpers, a [`contract::BotGame`] impl and the sparring `RandomBot` ([`contract::Sparring`]) |
//! | `starter.rs`     | the first bot `agon new` writes for the game ([`contract::Starter`]): SDK code, not part of this crate |
//!
//! Adding a game: copy a game folder, change it, and add its `pub mod <game>;` line below.
//! `build.rs` finds the folder and writes [`for_each_game`], the one list of games that the
//! registry, the SDK's modules, `agon new`, the conformance suite and the end-to-end tests all
//! read (a folder without its `pub mod` line stops the build, naming the line to add).
//!
//! Game-independent parts: [`contract`] (the session contract every game implements),
//! [`protocol`] (the wire envelope and encoding every game's protocol uses), [`registry`] (the
//! one list of games), [`text_error`], and a table the bitboard games share
//! (`set_bit_positions.rs`).

#![deny(missing_docs)]

// First, so that the modules below see `for_each_game!` (a macro from an `include!` is
// reached by its name in scope, not by a `crate::` path).
include!(concat!(env!("OUT_DIR"), "/games.rs"));

pub mod contract;
pub mod instances;
pub mod protocol;
pub mod registry;
mod set_bit_positions;
/// [`text_error::TextError`]: where a text (a puzzle, a board, a map) goes wrong.
pub mod text_error;

pub mod breakthrough;
pub mod flip;
pub mod flowfree;
pub mod lightsout;
pub mod rectangles;
pub mod reversixt;

#[cfg(test)]
mod transcript;
