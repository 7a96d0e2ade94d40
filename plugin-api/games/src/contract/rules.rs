//! A game as the engine sees it before any match: its name, seats, parameters and default fault
//! policy, and how it opens one [`Session`] per match.

use super::{FaultPolicy, GameType, ParamError, RawParams, Session};

/// A game the engine can run: its metadata ([`GameType`], one constant in the game's folder)
/// and how it opens a [`Session`].
pub trait GameRules: Send + Sync {
    /// The game's metadata.
    fn game_type(&self) -> &'static GameType;
    /// A new match under `params`; refuses unknown keys and bad values. Parameters that name
    /// files are read through `files`.
    fn new_session(
        &self,
        params: &RawParams,
        files: &dyn ParamFiles,
    ) -> Result<Box<dyn Session>, ParamError>;
    /// How many seats a match under `params` has (ReversiXT: the map's players); only games
    /// with [`Seats::Varying`](super::Seats::Varying) need to say.
    fn seats_for(&self, params: &RawParams, files: &dyn ParamFiles) -> Result<usize, ParamError> {
        let _ = (params, files);
        Ok(self.seats())
    }

    /// The registry name ([`GameType::name`]).
    fn name(&self) -> &'static str {
        self.game_type().name
    }
    /// [`GameType::protocol_version`].
    fn protocol_version(&self) -> u32 {
        self.game_type().protocol_version
    }
    /// How many seats a match has under default parameters (the fewest, when the parameters
    /// decide).
    fn seats(&self) -> usize {
        self.game_type().seats.fewest()
    }
    /// The seat count in words, for `agon games`.
    fn seats_text(&self) -> String {
        self.game_type().seats.described()
    }
    /// [`GameType::file_params`].
    fn file_params(&self) -> &'static [&'static str] {
        self.game_type().file_params
    }
    /// [`GameType::parameter_help`].
    fn parameter_help(&self) -> &'static str {
        self.game_type().parameter_help
    }
    /// [`GameType::default_fault_policy`].
    fn default_fault_policy(&self) -> FaultPolicy {
        self.game_type().default_fault_policy
    }
    /// [`GameType::game_score_meaning`].
    fn game_score_meaning(&self) -> &'static str {
        self.game_type().game_score_meaning
    }
    /// [`GameType::view_script`].
    fn view_script(&self) -> &'static str {
        self.game_type().view_script
    }
}

/// Reads the files that parameters name (a puzzle, a map). The engine supplies it, with its size
/// limits and its error texts, so the rules never touch the file system and this crate stays
/// free of IO.
pub trait ParamFiles {
    /// The text of the file at `path`, which parameter `key` names; the error in words.
    fn read_text(&self, key: &'static str, path: &str) -> Result<String, String>;
}
