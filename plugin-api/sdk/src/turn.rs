//! [`Turn`]: what a bot may ask while it thinks: the time left for this call, its seeded random
//! numbers, its seat and parameters, and where to report the nodes it searched.

use crate::game::Game;
use crate::protocol::Start;
use rand_chacha::ChaCha8Rng;
use std::time::{Duration, Instant};

/// One call of [`crate::Bot::play`].
pub struct Turn<'a, G: Game> {
    pub(crate) start: &'a Start<G::Setup>,
    pub(crate) observation: &'a G::Observation,
    pub(crate) received: Instant,
    pub(crate) budget: Option<Duration>,
    pub(crate) rng: &'a mut ChaCha8Rng,
    pub(crate) nodes: Option<u64>,
}

impl<'a, G: Game> Turn<'a, G> {
    /// The observation as the engine sent it (fields the rules' state has no place for, such
    /// as a ReversiXT time account, are here).
    pub fn observation(&self) -> &G::Observation {
        self.observation
    }

    /// The game's setup from the start of the match (board size, your side...).
    pub fn setup(&self) -> &G::Setup {
        &self.start.game
    }

    /// This bot's seat (0-based) and the number of seats.
    pub fn seat(&self) -> (u32, u32) {
        (self.start.seat, self.start.seats)
    }

    /// The bot parameter `key` from the bot spec (`FILE:BOT?depth=3`), if given. Only the
    /// parameters the bot declares in [`crate::Bot::PARAMS`] can be: the SDK refuses others.
    pub fn param(&self, key: &str) -> Option<&str> {
        self.start.bot_params.get(key).map(String::as_str)
    }

    /// The budget of this call, if the match has one.
    pub fn budget(&self) -> Option<Duration> {
        self.budget
    }

    /// When this call's budget runs out, measured from when the SDK received the call. The
    /// engine's clock started a little earlier (the message had to travel): stop with a margin,
    /// a few milliseconds under the process host.
    pub fn deadline(&self) -> Option<Instant> {
        self.budget.map(|b| self.received + b)
    }

    /// The time left for this call (zero once it ran out), or `None` without a budget.
    pub fn time_left(&self) -> Option<Duration> {
        self.deadline()
            .map(|d| d.saturating_duration_since(Instant::now()))
    }

    /// Random numbers seeded from the match seed: a seeded match replays exactly. The same
    /// generator serves every call of the match, so its draws differ from call to call.
    pub fn rng(&mut self) -> &mut ChaCha8Rng {
        self.rng
    }

    /// Reports the search nodes this answer took (shown in match metrics).
    pub fn report_nodes(&mut self, nodes: u64) {
        self.nodes = Some(nodes);
    }
}
