//! What a plan read back from its file can hold that no planning wrote: counts that do not add
//! up, a bot spec that does not parse, a game planned twice or naming a parameter set or an
//! entrant the plan does not have. Grading would index past its tables on any of them.

use crate::shard::Shard;
use agon_engine::BotSpecError;

#[derive(Debug, thiserror::Error)]
pub enum PlanDamage {
    #[error("a shard's plan says how many games the whole plan has; this one does not")]
    ShardWithoutTotal,
    #[error("{games} games, more than the {total} the whole plan has")]
    MoreThanTotal { games: usize, total: usize },
    #[error("shard {shard} of a plan of {total} games holds {games} games, not {share}")]
    ShardShare {
        shard: Shard,
        total: usize,
        games: usize,
        share: usize,
    },
    #[error("entrant {index} (`{name}`): bad bot spec: {source}")]
    BadSpec {
        index: usize,
        name: String,
        #[source]
        source: BotSpecError,
    },
    #[error("game {0} is planned twice")]
    Twice(String),
    #[error("game {game} uses parameter set {set}, the plan has {sets}")]
    NoSuchParamSet {
        game: String,
        set: usize,
        sets: usize,
    },
    #[error("game {0} has no seats")]
    NoSeats(String),
    #[error("game {game} seats entrant {entrant}, the plan has {entrants}")]
    NoSuchEntrant {
        game: String,
        entrant: usize,
        entrants: usize,
    },
}

/// Why a journal entry is not the result of one of its plan's games, as planned.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum NotOfThePlan {
    #[error("game {0} is not in the plan")]
    UnknownGame(String),
    #[error(
        "game {game} was planned with entrants {planned:?} in parameter set {planned_set}, the \
         entry says {entry:?} in {entry_set}"
    )]
    OtherSeating {
        game: String,
        planned: Vec<usize>,
        planned_set: usize,
        entry: Vec<usize>,
        entry_set: usize,
    },
    #[error("game {game}: per-seat lists do not have {seats} seats")]
    Lengths { game: String, seats: usize },
    #[error("game {game}: a seat beyond its {seats} seats")]
    SeatBeyond { game: String, seats: usize },
    #[error("game {0}: a score or rank out of range")]
    OutOfRange(String),
}
