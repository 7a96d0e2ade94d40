//! What a bot receives and answers: the wire envelope ([`Start`], [`Reply`], [`encode`],
//! [`decode`]) and, per game, the serde types of that game's `protocol.rs` in `agon-games`, each
//! with its own protocol version. Conversions to the rules' own types, for a bot that searches
//! with the engine's rules, are in each game's module (`convert`, e.g. [`crate::breakthrough::convert`]); most bots
//! use [`crate::Bot`] instead, which converts for them.

pub use agon_abi::wire::*;

/// Each game's protocol module, from the rules crate's list of games.
macro_rules! game_protocols {
    ($($game:ident),* $(,)?) => {
        $(
            pub use agon_games::$game::protocol as $game;
        )*
    };
}
agon_games::for_each_game!(game_protocols);
