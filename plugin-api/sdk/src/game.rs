//! [`Game`]: how the SDK turns what a game's bot receives into the rules' own state, and the
//! rules' own move back into the answer the engine expects. Each game implements it in its own
//! folder of the rules crate (`bot.rs`), beside its rules, so this crate has no per-game code.

#[doc(inline)]
pub use agon_games::contract::BotGame as Game;

/// The rules' state a game's bot is handed.
pub type StateOf<G> = <G as Game>::State;
/// The rules' move a game's bot answers.
pub type MoveOf<G> = <G as Game>::Move;
