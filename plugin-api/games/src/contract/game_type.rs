//! [`GameType`]: what the engine knows of a game before any match, as one constant in the
//! game's folder (docs/architecture.md, "Layout"), the way OpenSpiel describes each game with
//! one `GameType` value. Lists of games (`agon games`, help texts, reports' legends) read it.

use super::FaultPolicy;

/// A game's metadata: one `pub const GAME: GameType` in each game's `session.rs`, handed out by
/// [`super::GameRules::game_type`].
#[derive(Debug)]
pub struct GameType {
    /// The registry name, as in `--game` and the protocol (the protocol's `GameProtocol::GAME`,
    /// so that the name is written once).
    pub name: &'static str,
    /// The name people write, for titles (`ReversiXT`, `Lights Out`).
    pub title: &'static str,
    /// The version of the game's protocol the engine speaks (its `protocol.rs`'s `VERSION`).
    pub protocol_version: u32,
    /// How many seats a match has.
    pub seats: Seats,
    /// Parameters that name files (tournament configurations resolve them against their own
    /// folder).
    pub file_params: &'static [&'static str],
    /// One line per parameter, for `--help` and error messages.
    pub parameter_help: &'static str,
    /// The original course's fault policy (each game cites its rules file for it).
    pub default_fault_policy: FaultPolicy,
    /// What the session's game scores count, in words, for reports' legends.
    pub game_score_meaning: &'static str,
    /// The replay viewer's drawing module (`view.js` in the game's folder); empty: the viewer
    /// shows each position as text.
    pub view_script: &'static str,
    /// What a bot's reported node count means for this game, for people (`agon solve`:
    /// "attempted assignments").
    pub nodes_meaning: &'static str,
    /// How a solved puzzle's solution is best shown: the final board, or the answer in notation.
    pub solution_shown_as: SolutionView,
    /// Parameters of a small match that plays to its end in milliseconds, with no files: the
    /// conformance suite plays every game under them, and `agon new`'s project test too.
    pub example_params: &'static [(&'static str, &'static str)],
    /// The first bot `agon new` writes for the game.
    pub starter: Starter,
    /// The maps or puzzles the game ships with (`crate::instances`), named by the parameter
    /// that takes a file (`map`, `puzzle`); empty for a game without such a parameter.
    pub instances: &'static [super::Instance],
    /// The built-in instance a match plays when its parameters name none; `None`: one must be
    /// named.
    pub default_instance: Option<&'static str>,
}

/// A team's first bot for a game, as `agon new` writes it: a project that builds and plays.
#[derive(Debug)]
pub struct Starter {
    /// The project's `src/lib.rs`: the game folder's `starter.rs` (a bot written against the
    /// SDK, never compiled into this crate; the starter-kit test builds it).
    pub source: &'static str,
    /// What the project README's `agon match` command adds for the game's parameters.
    pub match_params: &'static str,
}

/// How a solution is shown (`agon solve`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SolutionView {
    /// The answer in the game's notation (a puzzle's clicks).
    Answer,
    /// The position after the answer (a filled Flow Free grid).
    FinalBoard,
}

/// How many seats a game's matches have.
#[derive(Debug, Clone, Copy)]
pub enum Seats {
    /// Every match has this many.
    Fixed(usize),
    /// The parameters decide ([`super::GameRules::seats_for`]).
    Varying {
        /// The fewest a match can have, which default parameters give.
        fewest: usize,
        /// The range in words, for `agon games`.
        described: &'static str,
    },
}

impl Seats {
    /// The seats under default parameters.
    pub fn fewest(self) -> usize {
        match self {
            Seats::Fixed(n) => n,
            Seats::Varying { fewest, .. } => fewest,
        }
    }

    /// The seat count in words.
    /// The seats in words: `1 seat`, `2 seats`, `2 to 8 seats (the map's players)`.
    pub fn described(self) -> String {
        match self {
            Seats::Fixed(1) => "1 seat".into(),
            Seats::Fixed(n) => format!("{n} seats"),
            Seats::Varying { described, .. } => described.to_string(),
        }
    }
}
