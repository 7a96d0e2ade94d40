//! Why a tournament could not be planned, or its next step laid out: the configuration (its
//! game, a bot a plugin does not offer, two entrants of one name, a bot refusing its
//! parameters, a format whose field the entrants do not make, too many games), too few
//! entrants that can play, or the engine's own resources. An error found in the configuration
//! file names the file, and the entrant and key where one is at fault.

use crate::format::FieldError;
use agon_engine::LocateError;
use agon_games::contract::ParamError;
use agon_games::registry::UnknownGame;
use std::path::PathBuf;

#[derive(Debug, thiserror::Error)]
pub enum PlanError {
    #[error(transparent)]
    UnknownGame(#[from] UnknownGame),
    #[error("tournaments seat plugins; remote seats exist only in `agon reversixt serve`")]
    RemoteSeats,
    #[error("{}: entrant `{entrant}`: key `bot`: {missing}", config.display())]
    NoSuchBot {
        config: PathBuf,
        entrant: String,
        missing: Box<MissingBot>,
    },
    #[error(
        "{}: two entrants are named `{name}` (a folder entrant is named by its team, with its \
         file's name when two plugins of the folder share a team)",
        config.display()
    )]
    TwinNames { config: PathBuf, name: String },
    #[error(
        "{}: entrant `{entrant}`: key `bot`: the bot refused its parameters: {message}",
        config.display()
    )]
    RefusedParameters {
        config: PathBuf,
        entrant: String,
        message: String,
    },
    /// The game refused a parameter set's parameters when asked its seat count.
    #[error("{}: {source}", config.display())]
    Seats { config: PathBuf, source: ParamError },
    #[error("{}: {source}", config.display())]
    Field { config: PathBuf, source: FieldError },
    #[error(
        "{}: the configuration plans {count} games; at most {most} are allowed (fewer games per \
         pairing, sweep values or entrants, or shards of several tournaments)",
        config.display()
    )]
    TooManyGames {
        config: PathBuf,
        count: u128,
        most: usize,
    },
    /// A failure of the engine's own resources (the plugin cache, the OS's random numbers):
    /// no entrant's doing, so no entrant is excluded for it.
    #[error("{0}")]
    Resource(String),
    /// No process host to inspect plugins in: the engine's own, like a resource.
    #[error(transparent)]
    Host(#[from] LocateError),
    #[error("fewer than {needed} entrants can play ({found}); excluded: {excluded}")]
    TooFewEntrants {
        needed: usize,
        found: usize,
        excluded: String,
    },
}

/// A bot an entrant names that its plugin does not offer for the game.
#[derive(Debug, thiserror::Error)]
#[error("{} has no bot `{bot}` for {game} (it offers: {offered})", plugin.display())]
pub struct MissingBot {
    pub plugin: PathBuf,
    pub bot: String,
    pub game: String,
    pub offered: String,
}
