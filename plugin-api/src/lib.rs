//! Everything an Agon bot links against.
//!
//! - [`abi`]: the `abi_stable` root module and bot object the engine loads. Versioned: a plugin
//!   built against an incompatible version of this crate is refused when it loads.
//! - [`protocol`]: per game, the serde types a bot receives and answers (bincode 2 on the wire),
//!   each game with its own protocol version; re-exported from each game's folder in
//!   `agon-games`.
//! - [`games`]: the engine's own rules (`agon-games`), for bots that search; `games::<game>::convert`
//!   turns what a bot receives into the rules' types.
//! - [`sdk`]: a typed [`sdk::Bot`] trait per game and the [`export_plugin!`] macro, which also
//!   catches panics so that none crosses the ABI.
//!
//! # A complete bot
//! A plugin is a `cdylib` crate depending on `agon-plugin-api` and `abi_stable` (the export
//! macro expands to `abi_stable`'s root-module export):
//! ```toml
//! [lib]
//! crate-type = ["cdylib"]
//! [dependencies]
//! agon-plugin-api = "0.1"
//! abi_stable = "0.11"
//! ```
//! This bot plays the first legal Breakthrough move, searching with the engine's own rules:
//! ```no_run
//! use agon_plugin_api::protocol::breakthrough::{Breakthrough, Move, Observation, Setup};
//! use agon_plugin_api::protocol::{Reply, Start};
//! use agon_plugin_api::games::breakthrough::convert;
//! use agon_plugin_api::sdk::Bot;
//!
//! #[derive(Default)]
//! pub struct FirstMove {
//!     setup: Option<Setup>,
//! }
//!
//! impl Bot for FirstMove {
//!     type Game = Breakthrough;
//!
//!     fn start(&mut self, start: &Start<Setup>) -> Result<(), String> {
//!         self.setup = Some(start.game.clone());
//!         Ok(())
//!     }
//!
//!     fn act(&mut self, observation: &Observation) -> Reply<Move> {
//!         let setup = self.setup.as_ref().expect("the engine calls start first");
//!         let position = convert::position(setup, observation).expect("a valid board");
//!         Reply::new(position.legal_moves()[0].into())
//!     }
//! }
//!
//! agon_plugin_api::export_plugin! {
//!     team: "Example team",
//!     bots: { "first" => FirstMove: "plays the first legal move" },
//! }
//! # fn main() {}
//! ```
//! `agon plugins target/release/libmy_bot.so` then lists the bot, and
//! `agon match --game breakthrough --bot target/release/libmy_bot.so:first --bot ...` plays it.
//! A panic inside `start` or `act` becomes a recorded fault of this bot, not a crash.

pub mod abi;
pub mod protocol;
pub mod sdk;

pub use agon_games as games;
