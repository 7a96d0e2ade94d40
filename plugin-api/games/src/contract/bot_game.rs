//! What a bot sees of a game, kept with the game (its folder's `bot.rs`) so that the SDK has no
//! per-game code: [`BotGame`] turns what a bot is sent into the rules' own state and its move
//! back into the answer, and [`Sparring`] is a game's built-in random player, written against
//! [`Draw`] so that this crate needs no random number generator.

use crate::protocol::GameProtocol;

/// A game a bot plays in the rules' own types: implemented by each game's protocol marker in its
/// `bot.rs`; the SDK names it `Game`.
pub trait BotGame: GameProtocol {
    /// What a bot is handed each call: the rules' own state, with its legal moves, a way to
    /// apply one, and the outcome, so a bot searches without re-implementing the rules.
    type State;
    /// What a bot answers, in the rules' terms.
    type Move;

    /// The rules' state that `observation` shows, or why it is not one (which would be the
    /// engine's error, reported as a protocol fault).
    fn state(setup: &Self::Setup, observation: &Self::Observation) -> Result<Self::State, String>;

    /// The wire answer for `mv`.
    fn answer(mv: Self::Move) -> Self::Action;

    /// The time this call may take, in milliseconds, when the game itself says so (a game
    /// clock in the observation); `None`: the match's per-move budget applies.
    fn call_budget_ms(observation: &Self::Observation) -> Option<u64> {
        let _ = observation;
        None
    }
}

/// Random draws for a [`Sparring`] player. The SDK implements it over the bot's seeded
/// generator, each method as the `rand` call of the same name and type, so that a seeded match
/// replays exactly.
pub trait Draw {
    /// A uniform draw from `0..n` (`n > 0`).
    fn below(&mut self, n: usize) -> usize;
    /// A uniform draw from `0..n` (`n > 0`), drawn as a `u32`.
    fn below_u32(&mut self, n: u32) -> u32;
    /// A uniform draw from `0..n` (`n > 0`), drawn as a `u16`.
    fn below_u16(&mut self, n: u16) -> u16;
    /// A uniform draw from `low..high`.
    fn between(&mut self, low: f64, high: f64) -> f64;
}

/// A game's built-in sparring player (the SDK's `RandomBot` of the game): random legal play,
/// for a team's first opponent and the ladder's validation games.
pub trait Sparring: Default + Send + 'static {
    /// The game it plays.
    type Game: BotGame;

    /// Its move in `state`, given what the bot was sent.
    fn play(
        state: &<Self::Game as BotGame>::State,
        setup: &<Self::Game as GameProtocol>::Setup,
        observation: &<Self::Game as GameProtocol>::Observation,
        draw: &mut dyn Draw,
    ) -> <Self::Game as BotGame>::Move;
}
