//! What a bot receives and answers: the wire envelope ([`Start`], [`Reply`], [`encode`],
//! [`decode`]) and, per game, the serde types of that game's `protocol.rs` in `agon-games`, each
//! with its own protocol version. Conversions to the rules' own types, for a bot that searches
//! with the engine's rules, are in each game's module (`convert`, e.g. [`crate::breakthrough::convert`]); most bots
//! use [`crate::Bot`] instead, which converts for them.

pub use agon_abi::wire::*;

pub use agon_games::breakthrough::protocol as breakthrough;
pub use agon_games::flip::protocol as flip;
pub use agon_games::flowfree::protocol as flowfree;
pub use agon_games::lightsout::protocol as lightsout;
pub use agon_games::rectangles::protocol as rectangles;
pub use agon_games::reversixt::protocol as reversixt;
