//! The engine's view of a game: a registry entry ([`GameRules`]) that opens one [`Session`] per
//! match. A session owns the authoritative state, encodes what each seat sees, and decodes and
//! validates every answer with the rules of `agon_games`.

use crate::fault::FaultPolicy;
use agon_games::params::{ParamError, RawParams};
use serde::{Deserialize, Serialize};

/// A game the engine can run.
pub trait GameRules: Send + Sync {
    /// The registry name, as in `--game` and the protocol.
    fn name(&self) -> &'static str;
    /// The version of this game's protocol the engine speaks.
    fn protocol_version(&self) -> u32;
    /// How many seats a match has under default parameters (the fewest, when the parameters
    /// decide; see [`GameRules::seats_for`]).
    fn seats(&self) -> usize;
    /// How many seats a match under `params` has (ReversiXT: the map's players).
    fn seats_for(&self, params: &RawParams) -> Result<usize, ParamError> {
        let _ = params;
        Ok(self.seats())
    }
    /// Parameters that name files (tournament configurations resolve them against their own
    /// folder).
    fn file_params(&self) -> &'static [&'static str] {
        &[]
    }
    /// The seat count in words, for `agon games`.
    fn seats_text(&self) -> String {
        self.seats().to_string()
    }
    /// One line per parameter, for `--help` and error messages.
    fn parameter_help(&self) -> &'static str;
    /// The original course's fault policy.
    fn default_fault_policy(&self) -> FaultPolicy;
    /// A new match under `params`; refuses unknown keys and bad values.
    fn new_session(&self, params: &RawParams) -> Result<Box<dyn Session>, ParamError>;
}

/// The per-seat fields of the protocol's `Start` message that do not depend on the game.
#[derive(Debug, Clone)]
pub struct StartInfo {
    pub seed: u64,
    pub start_budget_ms: u64,
    pub move_budget_ms: u64,
    pub bot_params: RawParams,
}

/// One match's authoritative state.
pub trait Session: Send {
    /// The parameters in effect, every key present (defaults filled in).
    fn params(&self) -> RawParams;
    /// The seat that acts next, or `None` once the game is over.
    fn to_act(&self) -> Option<usize>;
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

/// How a match ended.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Outcome {
    /// The winning seat, or `None` for a draw.
    pub winner: Option<usize>,
    /// Points per seat (1 / 0.5 / 0 for two seats).
    pub scores: Vec<f64>,
    /// `rules` when the game ended by its rules, `forfeit` when a fault ended it.
    pub termination: Termination,
    /// In words, e.g. "white reached the opponent's home row".
    pub reason: String,
    /// Games of more than two seats: each seat's rank, 1 best, ties sharing the better rank.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ranks: Vec<usize>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Termination {
    /// The rules ended the game.
    Rules,
    /// A fault cost the faulty seat the game.
    Forfeit,
    /// A seat was disqualified (a fault under `disqualify`, or too many under `random-legal`).
    Disqualified,
    /// No seat could act any more (every seat faulted turn after turn under `skip`): no one wins.
    Stalled,
}

impl Outcome {
    /// A two-seat result by the rules.
    pub fn by_rules(seats: usize, winner: Option<usize>, reason: String) -> Outcome {
        let scores = (0..seats)
            .map(|s| match winner {
                None => 0.5,
                Some(w) if w == s => 1.0,
                Some(_) => 0.0,
            })
            .collect();
        Outcome {
            winner,
            scores,
            termination: Termination::Rules,
            reason,
            ranks: Vec::new(),
        }
    }

    /// A result by ranks (1 best, ties sharing the better rank): each seat scores the share of
    /// the other seats it beat, a tie counting half, so two seats score 1 / 0.5 / 0 as in
    /// [`Outcome::by_rules`] and the scores of a game always sum to half the pairs.
    pub fn ranked(ranks: Vec<usize>, reason: String) -> Outcome {
        let others = ranks.len().saturating_sub(1).max(1) as f64;
        let scores = ranks
            .iter()
            .enumerate()
            .map(|(i, &r)| {
                let beaten = ranks.iter().filter(|&&q| q > r).count() as f64;
                let tied = ranks
                    .iter()
                    .enumerate()
                    .filter(|&(j, &q)| j != i && q == r)
                    .count() as f64;
                (beaten + 0.5 * tied) / others
            })
            .collect();
        let firsts: Vec<usize> = (0..ranks.len()).filter(|&i| ranks[i] == 1).collect();
        Outcome {
            winner: (firsts.len() == 1).then(|| firsts[0]),
            scores,
            termination: Termination::Rules,
            reason,
            ranks,
        }
    }

    /// `loser` forfeits (or is disqualified from) a two-seat game: the other seat wins.
    pub fn forfeit(
        seats: usize,
        loser: usize,
        termination: Termination,
        reason: String,
    ) -> Outcome {
        // A single-seat puzzle whose bot faulted is unsolved.
        if seats == 1 {
            return Outcome {
                winner: None,
                scores: vec![0.0],
                termination,
                reason,
                ranks: Vec::new(),
            };
        }
        if seats > 2 {
            // The others share the first rank; the loser is last.
            let ranks = (0..seats)
                .map(|s| if s == loser { seats } else { 1 })
                .collect();
            return Outcome {
                termination,
                ..Outcome::ranked(ranks, reason)
            };
        }
        let winner = (0..seats).find(|&s| s != loser);
        Outcome {
            termination,
            ..Outcome::by_rules(seats, winner, reason)
        }
    }

    /// A single-seat puzzle's result by the verifier: solved scores 1, unsolved 0.
    pub fn puzzle(solved: bool, reason: String) -> Outcome {
        Outcome {
            winner: solved.then_some(0),
            scores: vec![if solved { 1.0 } else { 0.0 }],
            termination: Termination::Rules,
            reason,
            ranks: Vec::new(),
        }
    }

    /// Nobody could act any more: no winner, no points.
    pub fn stalled(seats: usize, reason: String) -> Outcome {
        Outcome {
            winner: None,
            scores: vec![0.0; seats],
            termination: Termination::Stalled,
            reason,
            ranks: Vec::new(),
        }
    }
}

/// The games this engine knows, by name.
pub struct Registry {
    games: Vec<Box<dyn GameRules>>,
}

impl Registry {
    /// Every built-in game.
    pub fn builtin() -> Registry {
        Registry {
            games: vec![
                Box::new(crate::sessions::breakthrough::BreakthroughRules),
                Box::new(crate::sessions::flip::FlipRules),
                Box::new(crate::sessions::lightsout::LightsOutRules),
                Box::new(crate::sessions::flowfree::FlowFreeRules),
                Box::new(crate::sessions::reversixt::ReversiXtRules),
            ],
        }
    }

    pub fn get(&self, name: &str) -> Result<&dyn GameRules, UnknownGame> {
        self.games
            .iter()
            .find(|g| g.name() == name)
            .map(|g| g.as_ref())
            .ok_or_else(|| UnknownGame {
                name: name.to_string(),
                known: self.names().join(", "),
            })
    }

    pub fn names(&self) -> Vec<&'static str> {
        self.games.iter().map(|g| g.name()).collect()
    }

    pub fn games(&self) -> impl Iterator<Item = &dyn GameRules> {
        self.games.iter().map(|g| g.as_ref())
    }
}

#[derive(Debug, Clone, thiserror::Error)]
#[error("unknown game `{name}` (known games: {known})")]
pub struct UnknownGame {
    pub name: String,
    pub known: String,
}
