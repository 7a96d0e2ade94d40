//! A game as the engine sees it before any match: its name, seats, parameters and default fault
//! policy, and how it opens one [`Session`] per match.

use super::{FaultPolicy, ParamError, RawParams, Session};

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
    fn seats_for(&self, params: &RawParams, files: &dyn ParamFiles) -> Result<usize, ParamError> {
        let _ = (params, files);
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
    /// A new match under `params`; refuses unknown keys and bad values. Parameters that name
    /// files are read through `files`.
    fn new_session(
        &self,
        params: &RawParams,
        files: &dyn ParamFiles,
    ) -> Result<Box<dyn Session>, ParamError>;
    /// What [`Session::game_scores`] counts, in words, for reports' legends.
    fn game_score_meaning(&self) -> &'static str {
        "The game's own score"
    }
    /// The replay viewer's drawing module for this game (`view.js` in the game's folder): a
    /// script that registers how to draw [`Session::view`] and [`Session::view_action`] data.
    /// Empty: the viewer shows each position as text.
    fn view_script(&self) -> &'static str {
        ""
    }
}

/// Reads the files that parameters name (a puzzle, a map). The engine supplies it, with its size
/// limits and its error texts, so the rules never touch the file system and this crate stays
/// free of IO.
pub trait ParamFiles {
    /// The text of the file at `path`, which parameter `key` names; the error in words.
    fn read_text(&self, key: &'static str, path: &str) -> Result<String, String>;
}
