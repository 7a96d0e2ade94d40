//! One match's authoritative state as the engine drives it: what each seat is sent, and how its
//! answers are decoded, validated and applied with the game's rules.

use super::{Outcome, RawParams, ViewData};
use crate::protocol::Start;

/// The per-seat fields of the protocol's `Start` message that do not depend on the game.
#[derive(Debug, Clone)]
pub struct StartInfo {
    /// The seat's seed, derived from the match seed (the protocol's `Start::seed`).
    pub seed: u64,
    /// The budget of the start call in milliseconds, `0` for none.
    pub start_budget_ms: u64,
    /// The budget of each move request in milliseconds, `0` for none.
    pub move_budget_ms: u64,
    /// The bot's own parameters from its bot spec (`FILE:BOT?depth=3`).
    pub bot_params: RawParams,
}

impl StartInfo {
    /// The protocol's `Start` message for `seat` of `seats`, around the game's own `setup`:
    /// every game's [`Session::start_message`] sends one.
    pub fn start<S>(&self, seat: usize, seats: u32, setup: S) -> Start<S> {
        Start {
            seat: seat as u32,
            seats,
            seed: self.seed,
            start_budget_ms: self.start_budget_ms,
            move_budget_ms: self.move_budget_ms,
            bot_params: self.bot_params.clone(),
            game: setup,
        }
    }
}

/// One match's authoritative state.
pub trait Session: Send {
    /// The parameters in effect, every key present (defaults filled in).
    fn params(&self) -> RawParams;
    /// The seat whose action is awaited next, or `None` once the game is over. In a round of
    /// simultaneous moves: the first seat of the round whose action has not been given yet.
    fn to_act(&self) -> Option<usize>;
    /// Games played in rounds of simultaneous moves (Rectangles): the number of the round in
    /// progress, which records write beside each of its actions. `None`: a game of turns.
    fn round(&self) -> Option<u32> {
        None
    }
    /// The seats asked together next, in seat order; empty once the game is over. Each is sent
    /// the same position (`observation` does not show actions given for the round in
    /// progress), and gives its action through `apply_answer`, `skip` or `play_random_legal`
    /// in this order; the round is applied when its last seat's action is in. A game of turns
    /// asks one seat at a time.
    fn round_seats(&self) -> Vec<usize> {
        self.to_act().into_iter().collect()
    }
    /// The encoded `Start` message for `seat`.
    fn start_message(&self, seat: usize, info: &StartInfo) -> Vec<u8>;
    /// The encoded observation for `seat`, which is about to act.
    fn observation(&self, seat: usize) -> Vec<u8>;
    /// Decodes, validates and applies `seat`'s answer; on error nothing changes.
    fn apply_answer(&mut self, seat: usize, answer: &[u8]) -> Result<Applied, Rejection>;
    /// Applies an action in its recorded notation (replays); on error nothing changes.
    fn apply_notation(&mut self, seat: usize, action: &str) -> Result<Applied, Rejection>;
    /// Passes `seat`'s turn without an action (the skip fault policy).
    fn skip(&mut self, seat: usize) -> Result<Applied, Rejection>;
    /// Plays legal action number `draw % n` of the `n` legal actions of `seat` (the
    /// random-legal fault policy).
    fn play_random_legal(&mut self, seat: usize, draw: u64) -> Result<Applied, Rejection>;
    /// The result by the rules, once the game is over.
    fn outcome(&self) -> Option<Outcome>;
    /// The position as text (final boards, playthroughs).
    fn render(&self) -> String;
    /// Each seat's score in the game's own terms, for grading's "mean score per game" (e.g.
    /// Breakthrough: the opponent's workers captured).
    fn game_scores(&self) -> Vec<f64>;
    /// The time `seat` may take for the request about to be sent, when the game keeps its own
    /// clock (ReversiXT's time account); called once per request, before `observation`.
    /// `None`: the match's move budget applies.
    fn request_budget(&mut self, seat: usize) -> Option<std::time::Duration> {
        let _ = seat;
        None
    }
    /// `seat` took `spent` over its request: the game's own clock, if it keeps one, is charged.
    fn charge(&mut self, seat: usize, spent: std::time::Duration) {
        let _ = (seat, spent);
    }
    /// Takes `seat` out after a fault under the `disqualify` policy, when the rules let the
    /// others play on (ReversiXT: its stones stay, it ranks last). `false`: the game cannot go
    /// on without it, and the match ends.
    fn disqualify(&mut self, seat: usize) -> bool {
        let _ = seat;
        false
    }
    /// The position as the replay viewer draws it: data for the drawing module of the game's
    /// folder ([`GameRules::view_script`](super::GameRules::view_script)). `Null`: the viewer
    /// shows [`Session::render`] alone.
    fn view(&self) -> ViewData {
        ViewData::Null
    }
    /// `action` of `seat` (in notation) as the viewer draws it over the current position,
    /// before it is applied; `None` where the action cannot be read on this position.
    fn view_action(&self, seat: usize, action: &str) -> Option<ViewData> {
        let _ = (seat, action);
        None
    }
    /// An answer's bytes in notation, without applying them, where they decode into an
    /// action: records keep an illegal answer this way, so the viewer can show it.
    fn answer_notation(&self, answer: &[u8]) -> Option<String> {
        let _ = answer;
        None
    }
}

/// An applied action.
#[derive(Debug, Clone, PartialEq)]
pub struct Applied {
    /// The action in the game's notation, as records store it.
    pub notation: String,
    /// Search nodes the bot reported for it.
    pub nodes: Option<u64>,
    /// Opponent pieces this action captured.
    pub captures: u32,
}

/// Why an answer was not applied.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Rejection {
    /// The bytes are not the game's action type.
    Malformed(String),
    /// The action breaks the rules; the rules' reason.
    Illegal(String),
}
