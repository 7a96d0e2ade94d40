//! Why a task of a job array cannot tell which shard it plays: a variable that is not a
//! number, an array that does not fit the tournament's shard count, or a layout file that is
//! another tournament's, damaged, or cannot be written. Each says what to submit instead.

use crate::shard::ShardError;
use agon_engine::PathError;
use std::path::PathBuf;

#[derive(Debug, thiserror::Error)]
pub enum LayoutError {
    #[error("{name}=`{value}` is not a number")]
    NotANumber { name: String, value: String },
    #[error("JOB_COMPLETION_INDEX is set, but the config has no `shards` count")]
    NoShardsCount,
    #[error("JOB_COMPLETION_INDEX={index} of `shards = {count}`: {source}")]
    BadIndex {
        index: u32,
        count: u32,
        source: ShardError,
    },
    #[error(
        "this job array runs tasks {min}-{max}, but the tournament has {shards} shards (fixed by \
         {fixed_by}), numbered 0-{last}: submit the array as --array=0-{last} (a resubmission \
         may run any of those ids)",
        last = shards - 1
    )]
    ArrayDoesNotFit {
        min: u32,
        max: u32,
        shards: u32,
        /// The config's `shards`, or the layout file that fixed the count.
        fixed_by: String,
    },
    #[error(
        "this task cannot tell how many shards the tournament has: its job array runs tasks \
         {min}-{max} ({count} tasks), and {} does not exist yet. Either set `shards = N` in the \
         config, or submit the whole array first as --array=0-(N-1), into the results folder \
         later tasks and resubmissions use",
        layout.display()
    )]
    CountUnknown {
        min: u32,
        max: u32,
        count: u32,
        layout: PathBuf,
    },
    #[error("{}: not a shard layout ({source})", path.display())]
    NotALayout {
        path: PathBuf,
        #[source]
        source: serde_json::Error,
    },
    #[error(
        "{} belongs to tournament {kept}, not to this one ({this}): give each tournament a \
         results folder of its own",
        path.display()
    )]
    OtherTournament {
        path: PathBuf,
        kept: String,
        this: String,
    },
    #[error("{}: 0 shards", path.display())]
    ZeroShards { path: PathBuf },
    #[error("{} fixes {kept} shards, but this job array has {shards} tasks", path.display())]
    OtherArraySize {
        path: PathBuf,
        kept: u32,
        shards: u32,
    },
    #[error(transparent)]
    Io(#[from] PathError),
}
