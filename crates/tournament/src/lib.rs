//! `agon-tournament`. Tournaments: a checked configuration, a plan of stable game ids, a worker pool that appends
//! every finished game to a journal, resumption, shards and their merge.

pub mod builds;
pub mod config;
pub mod entry;
mod error;
pub mod format;
pub mod grading;
pub mod in_flight;
pub mod layout;
pub mod merge;
pub mod plan;
mod plan_damage;
mod plan_error;
mod plan_file_error;
pub mod run;
pub mod shard;
pub mod watch;

pub use error::TournamentError;
pub use plan_damage::{NotOfThePlan, PlanDamage};
pub use plan_file_error::PlanFileError;
