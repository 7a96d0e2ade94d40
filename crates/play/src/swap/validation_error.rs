//! Why a candidate that loads is refused before any real game: it offers no bot the run can
//! seat for the game, or its validation game could not be set up, failed, or saw it at fault.
//! The verdict keeps this as its text.

use agon_engine::seating::SeatError;
use agon_engine::{FaultCause, MatchError};
use agon_games::contract::ParamError;

#[derive(Debug, thiserror::Error)]
pub enum ValidationError {
    #[error("it offers no bot for {game} that is not hidden (its bots: {bots})")]
    NoBotForGame { game: String, bots: String },
    #[error("it offers no bot `{bot}` for {game}")]
    NoSuchBot { bot: String, game: String },
    /// `mismatch` is the loader's account of the two protocol versions.
    #[error("bot `{bot}` {mismatch}")]
    Protocol { bot: String, mismatch: String },
    #[error("the game's parameters: {0}")]
    GameParameters(#[source] ParamError),
    #[error(transparent)]
    Seat(#[from] SeatError),
    #[error("cannot seat the opponent {slot}: {source}")]
    Opponent { slot: String, source: SeatError },
    #[error("{game} has no house bot to play against")]
    NoHouseBot { game: String },
    #[error(transparent)]
    Match(#[from] MatchError),
    /// The candidate's own first fault; `detail` is bounded, as a bot's text always is.
    #[error("seat {seat} ({bot}): {cause}: {detail}")]
    OwnFault {
        seat: usize,
        bot: String,
        cause: FaultCause,
        detail: String,
    },
}
