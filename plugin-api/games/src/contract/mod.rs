//! The game-independent session contract: what each game's `session.rs` implements and the
//! engine drives. Nothing here knows a particular game.
//!
//! | file              | concept                                                            |
//! |-------------------|--------------------------------------------------------------------|
//! | `game_type.rs`    | [`GameType`]: a game's metadata, one constant per game              |
//! | `rules.rs`        | [`GameRules`]: a game before any match; [`ParamFiles`] for files   |
//! | `session.rs`      | [`Session`]: one match's state; [`Applied`], [`Rejection`]         |
//! | `outcome.rs`      | [`Outcome`] and [`Termination`]: how a match ended                 |
//! | `fault_policy.rs` | [`FaultPolicy`]: what a fault costs                                |
//! | `params.rs`       | [`RawParams`], [`ParamReader`], [`ParamError`]                     |
//! | `puzzle.rs`       | what puzzles share: metadata, the instance, the refused fault hooks |
//! | `instance.rs`     | [`Instance`]: the maps and puzzles a game ships with, by name       |
//! | `bot_game.rs`     | [`BotGame`], [`Sparring`], [`Draw`]: what a bot sees of a game      |
//! | `bot_text.rs`     | [`bounded`]: how much of a bot's own text is kept                  |
//! | `view.rs`         | [`ViewData`]: what the replay viewer draws of a position           |

mod bot_game;
mod bot_text;
mod fault_policy;
mod game_type;
mod instance;
mod outcome;
mod params;
pub mod puzzle;
mod rules;
mod session;
mod view;

pub use bot_game::{BotGame, Draw, Sparring};
pub use bot_text::{bounded, MAX_BOT_TEXT};
pub use fault_policy::{
    FaultPolicy, DEFAULT_MAX_ERROR_RATE, DEFAULT_STALL_TURNS, SAFETY_STALL_TURNS,
};
pub use game_type::{GameType, Seats, SolutionView, Starter};
pub use instance::{built_in, names as instance_names, Instance};
pub use outcome::{Outcome, Termination};
pub use params::{raw_params, ParamError, ParamReader, RawParams};
pub use rules::{GameRules, ParamFiles};
pub use session::{Applied, Rejection, Session, StartInfo};
pub use view::ViewData;
