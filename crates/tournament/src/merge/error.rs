//! Why a merge put nothing together: folders that are not shards of one tournament's layout,
//! results that are missing or that shards decided differently, an `--out` folder that cannot
//! receive the merge, or a file that could not be read, linked or written.

use crate::PlanFileError;
use agon_engine::PathError;
use agon_play::journal::JournalError;
use std::path::PathBuf;

#[derive(Debug, thiserror::Error)]
pub enum MergeError {
    #[error("no folders to merge")]
    NoFolders,
    #[error(transparent)]
    Plan(#[from] PlanFileError),
    #[error(
        "{} belongs to tournament {hash}, {} to {first_hash}: shards of different \
         configurations cannot be merged",
        dir.display(),
        first.display()
    )]
    OtherTournament {
        dir: PathBuf,
        hash: String,
        first: PathBuf,
        first_hash: String,
    },
    #[error(
        "{} is shard {shard} but {} is shard {first_shard}: folders of different shard layouts \
         cannot be merged (every task of one tournament plays one of the same N shards)",
        dir.display(),
        first.display()
    )]
    OtherLayout {
        dir: PathBuf,
        shard: String,
        first: PathBuf,
        first_shard: String,
    },
    #[error(
        "{} plans {planned} games in all, {} plans {total}: not one tournament's shards",
        dir.display(),
        first.display()
    )]
    OtherTotal {
        dir: PathBuf,
        planned: usize,
        first: PathBuf,
        total: usize,
    },
    /// `part` names a shard and its folder.
    #[error("{part}: more games than its shard has")]
    TooManyGames { part: String },
    #[error("{part} plans other games than another folder of its shard")]
    OtherGames { part: String },
    #[error("{part} does not hold the games its shard takes of the whole plan")]
    NotItsSlice { part: String },
    #[error(
        "shard {index} of {count} has no folder among those given ({games} games); run it and \
         merge again, or pass --allow-missing for a partial merge; nothing was merged"
    )]
    ShardMissing {
        index: u32,
        count: u32,
        games: usize,
    },
    /// `summary` says how many, and which shards they belong to.
    #[error(
        "{summary}. Run or resume the shards named and merge again, or pass --allow-missing for \
         a partial merge; nothing was merged"
    )]
    GamesMissing { summary: String },
    /// Each conflict names its game, the two folders and how the later one ended.
    #[error(
        "{} games have different results in different shards; nothing was merged:\n  {}",
        conflicts.len(),
        conflicts.join("\n  ")
    )]
    Conflicts { conflicts: Vec<String> },
    #[error("{} exists and is not empty; choose a new or empty --out folder", out.display())]
    OutNotEmpty { out: PathBuf },
    #[error("{} exists and is not a folder", out.display())]
    OutNotAFolder { out: PathBuf },
    #[error("{}: not a folder name", out.display())]
    NotAFolderName { out: PathBuf },
    #[error("cannot create {0}")]
    Create(#[source] PathError),
    #[error("cannot copy {0}")]
    Copy(#[source] PathError),
    #[error("cannot move the merged tournament to {}: {source}", out.display())]
    Move {
        out: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error(transparent)]
    Journal(#[from] JournalError),
    #[error(transparent)]
    Io(#[from] PathError),
}
