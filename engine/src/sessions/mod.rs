//! Adapters from the pure rules of `agon_games` to the engine's [`crate::game::Session`]: they
//! encode observations in each game's protocol and validate answers with the rules.

pub mod breakthrough;
pub mod flip;
pub mod flowfree;
mod instance;
pub mod lightsout;
pub mod reversixt;
