//! Everything an Agon bot links against: write a bot for any of Agon's games in the rules'
//! own types, export it, and the engine loads it.
//!
//! - [`Bot`]: the trait a bot implements, once per game it plays. It is handed the rules'
//!   state and a [`Turn`] (time left, seeded random numbers, parameters) and answers the rules'
//!   move.
//! - One module per game, each with one set of types: [`breakthrough`], [`flip`],
//!   [`reversixt`], [`rectangles`], and the puzzles [`lightsout`] and [`flowfree`]. Each also
//!   names the game's marker for [`Bot::Game`] and a built-in sparring bot (`RandomBot`:
//!   random legal play; for a puzzle, a baseline that does not solve it).
//! - [`export_plugin!`]: one macro exports any number of bots for any games from one library.
//!   It catches panics so that none crosses the ABI.
//! - Lower levels, for bots that want them: [`protocol`] (the wire types, bincode 2) and
//!   [`export::WireBot`] and [`export::RawBot`]. The binary boundary itself is the crate
//!   `agon-plugin-api` (versioned on its own, so a library built with this SDK keeps loading
//!   in later engines); a bot never names it.
//!
//! # A complete bot
//! A plugin is a `cdylib` crate whose only Agon dependency is this crate (`agon new` writes
//! one; see `docs/writing-a-bot.md` in Agon's repository):
//! ```toml
//! [lib]
//! crate-type = ["cdylib"]
//! [dependencies]
//! agon-sdk = "0.3"
//! ```
//! This bot plays a random legal Breakthrough move, preferring captures, with the engine's own
//! rules:
//! ```no_run
//! use agon_sdk::breakthrough::{Breakthrough, Move, Position};
//! use agon_sdk::rand::seq::IndexedRandom;
//! use agon_sdk::{Bot, Turn};
//!
//! #[derive(Default)]
//! pub struct Capturer;
//!
//! impl Bot for Capturer {
//!     type Game = Breakthrough;
//!
//!     fn play(&mut self, position: &Position, turn: &mut Turn<'_, Breakthrough>) -> Move {
//!         let moves = position.legal_moves();
//!         let captures: Vec<Move> = moves
//!             .iter()
//!             .copied()
//!             .filter(|m| position.piece_at(m.to).is_some())
//!             .collect();
//!         let pool = if captures.is_empty() { &moves } else { &captures };
//!         *pool.choose(turn.rng()).expect("the engine asks only when a move exists")
//!     }
//! }
//!
//! agon_sdk::export_plugin! {
//!     team: "Example team",
//!     bots: {
//!         "capturer" => Capturer: "captures when it can, else moves at random",
//!         "random" => agon_sdk::breakthrough::RandomBot: "sparring partner" [hidden],
//!     },
//! }
//! # fn main() {}
//! ```
//! `agon plugins target/release/libmy_bot.so` then lists the bots, and
//! `agon match --game breakthrough --bot target/release/libmy_bot.so:capturer --bot ...` plays.
//! A panic inside `start` or `play` becomes a recorded fault of this bot, not a crash.
#![deny(missing_docs)]

mod bot;
pub mod export;
mod game;
mod guard;
mod params;
pub mod protocol;
mod turn;

mod sparring;

/// One module per game, from the rules crate's list of games: each is the game folder's
/// `bot.rs` (the game's types for a bot, its rules helpers, its conversions and its sparring
/// `RandomBot`).
macro_rules! game_modules {
    ($($game:ident),* $(,)?) => {
        $(
            #[doc(inline)]
            pub use agon_games::$game::bot as $game;
        )*
    };
}
agon_games::for_each_game!(game_modules);

pub use bot::Bot;
pub use export::{ParamError, ParamReader};
pub use game::{Game, MoveOf, StateOf};
pub use turn::Turn;

/// The `rand` version the SDK seeds [`Turn::rng`] with, so a bot's `Rng` calls match it.
pub use rand;
/// The generator behind [`Turn::rng`].
pub use rand_chacha;
