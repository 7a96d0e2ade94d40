//! [`Game`]: how the SDK turns what a game's bot receives into the rules' own state, and the
//! rules' own move back into the answer the engine expects.

use crate::protocol::GameProtocol;

/// A game a [`crate::Bot`] can play, with the engine's rules behind it. Implemented for every
/// game's protocol marker in this crate's per-game modules ([`crate::breakthrough`] and the
/// others); a bot never implements it.
pub trait Game: GameProtocol {
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

/// The rules' state a game's bot is handed.
pub type StateOf<G> = <G as Game>::State;
/// The rules' move a game's bot answers.
pub type MoveOf<G> = <G as Game>::Move;
