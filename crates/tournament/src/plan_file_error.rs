//! Why a folder's `tournament.json` cannot be played on: it cannot be read (perhaps the folder
//! is not a tournament's), it is not a plan, it was made by an Agon whose plans this one does
//! not continue, or it is damaged.

use crate::format::FormatCheckError;
use crate::plan_damage::PlanDamage;
use crate::shard::Shard;
use agon_engine::InputError;
use std::path::PathBuf;

#[derive(Debug, thiserror::Error)]
pub enum PlanFileError {
    #[error("{source} (is {} a tournament folder?)", dir.display())]
    Unreadable {
        dir: PathBuf,
        #[source]
        source: InputError,
    },
    #[error("{}: {source}", path.display())]
    NotAPlan {
        path: PathBuf,
        #[source]
        source: serde_json::Error,
    },
    #[error(
        "{}: shard {shard} of a plan of format 1, whose shards played contiguous blocks of the \
         plan: resume and merge its shards with the Agon that planned them (0.3.0 and \
         earlier), or plan the tournament again",
        path.display()
    )]
    OldShard { path: PathBuf, shard: Shard },
    #[error("{}: plan format {format}, this agon reads {reads}", path.display())]
    OtherFormat {
        path: PathBuf,
        format: u32,
        reads: u32,
    },
    #[error("{}: format: {source}; the plan is damaged", path.display())]
    Format {
        path: PathBuf,
        source: FormatCheckError,
    },
    /// `why` is what the plan's own check found.
    #[error("{}: {why}; the plan is damaged", path.display())]
    Damaged {
        path: PathBuf,
        #[source]
        why: PlanDamage,
    },
}
