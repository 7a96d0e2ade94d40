//! The wire envelope every game's protocol uses: [`Start`] and [`Reply`] around the game's own
//! serde types, encoded with bincode 2. These bytes are what a [`crate::BotObject`] takes and
//! answers, so they are part of the boundary as much as the root module is: changing the
//! envelope or its encoding is an ABI change (this crate's minor version), even though
//! `abi_stable` cannot see it.
//!
//! Every game's `protocol.rs` (in `agon-games`) has a protocol version of its own; the engine
//! refuses a plugin built for another version of a game's protocol before it plays a move.

use serde::{de::DeserializeOwned, Deserialize, Serialize};
use std::collections::BTreeMap;

/// The types one game exchanges with its bots.
pub trait GameProtocol: 'static {
    /// The game's registry name, e.g. `breakthrough`.
    const GAME: &'static str;
    /// Bumped whenever a type below changes shape.
    const VERSION: u32;
    /// The game's part of [`Start`]: the rules' parameters and the bot's place.
    type Setup: Serialize + DeserializeOwned + Send + 'static;
    /// What the bot about to act is sent before each of its answers.
    type Observation: Serialize + DeserializeOwned + Send + 'static;
    /// What the bot answers to an observation, inside a [`Reply`].
    type Action: Serialize + DeserializeOwned + Send + 'static;
}

/// Sent once to every bot before the first move.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Start<S> {
    /// This bot's seat, from 0 (what it means is the game's: e.g. Breakthrough's seat 0 plays
    /// White).
    pub seat: u32,
    /// The number of seats in the match (1 for a puzzle).
    pub seats: u32,
    /// A seed for the bot's own randomness, derived from the match seed, so that seeded games
    /// replay exactly.
    pub seed: u64,
    /// The budget of the start call, in milliseconds (`0`: none).
    pub start_budget_ms: u64,
    /// The budget of each move request, in milliseconds (`0`: none). A game that keeps its own
    /// clock (ReversiXT with its `time` parameter) replaces it with the limit its observation
    /// sends.
    pub move_budget_ms: u64,
    /// Bot parameters from the bot spec (`FILE:BOT?depth=3&search=alphabeta`).
    pub bot_params: BTreeMap<String, String>,
    /// The game's own part ([`GameProtocol::Setup`]): the rules' parameters and this bot's
    /// place in them.
    pub game: S,
}

/// A bot's answer to one observation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Reply<A> {
    /// The answer itself, in the game's [`GameProtocol::Action`] type.
    pub action: A,
    /// Search nodes the bot expanded for this answer, if it counts them (reported in metrics).
    pub nodes: Option<u64>,
}

impl<A> Reply<A> {
    /// A reply that reports no node count.
    pub fn new(action: A) -> Reply<A> {
        Reply {
            action,
            nodes: None,
        }
    }

    /// The same reply, reporting `nodes` search nodes.
    pub fn with_nodes(self, nodes: u64) -> Reply<A> {
        Reply {
            nodes: Some(nodes),
            ..self
        }
    }
}

impl<A> From<A> for Reply<A> {
    fn from(action: A) -> Reply<A> {
        Reply::new(action)
    }
}

/// The most a decoder accepts, so a hostile answer cannot make the engine allocate without bound.
pub const MAX_MESSAGE_BYTES: usize = 16 << 20;

fn config() -> impl bincode::config::Config {
    bincode::config::standard().with_limit::<MAX_MESSAGE_BYTES>()
}

/// Encodes a protocol value in the wire format.
pub fn encode<T: Serialize>(value: &T) -> Vec<u8> {
    // Protocol types are plain data (no maps with non-string keys, no custom serializers), for
    // which bincode's serde encoder cannot fail.
    bincode::serde::encode_to_vec(value, config()).expect("protocol types always encode")
}

/// Why bytes are not a valid message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DecodeError(pub String);

impl std::fmt::Display for DecodeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for DecodeError {}

/// Decodes a whole message: trailing bytes are an error too.
pub fn decode<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, DecodeError> {
    if bytes.len() > MAX_MESSAGE_BYTES {
        return Err(DecodeError(format!(
            "message of {} bytes exceeds the limit of {MAX_MESSAGE_BYTES}",
            bytes.len()
        )));
    }
    let (value, used) = bincode::serde::decode_from_slice(bytes, config())
        .map_err(|e| DecodeError(format!("{e} ({} bytes)", bytes.len())))?;
    if used != bytes.len() {
        return Err(DecodeError(format!(
            "{} trailing bytes after a {used}-byte message",
            bytes.len() - used
        )));
    }
    Ok(value)
}
