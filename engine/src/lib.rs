//! Agon's engine: authoritative and self-contained.
//!
//! Each game (its rules, protocol and session) and the registry of games live in `agon_games`;
//! the engine drives them through `agon_games::contract`.
//! - [`loader`]: finds, checks and loads plugin files (content-addressed copies first).
//! - [`host`]: how a seat runs: inline on the match thread, on its own worker thread, in a
//!   sandboxed child process ([`host::sandbox`]), or as a remote course client.
//! - [`runner`]: one match: seats, clocks, the fault policy -> a [`record::MatchRecord`].
//! - [`record`] and [`replay`]: the JSON match record and its verification by the rules.
//! - [`input_file`] and [`output_file`]: reading outside files safely (also the files game
//!   parameters name, [`input_file::GameFiles`]), replacing outputs whole.

pub mod bot_spec;
pub mod course_net;
pub mod decimal;
pub mod fault;
pub mod host;
pub mod input_file;
pub mod interrupt;
pub mod loader;
pub mod local_match;
pub mod output_file;
pub mod record;
pub mod replay;
pub mod runner;
pub mod seating;
pub mod seed;
