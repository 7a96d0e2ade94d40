//! Why the entrants that can play do not make a field the format can use: a gauntlet without
//! candidates, a candidate that is no entrant, a field too small for the game's seats, too few
//! entrants for a Swiss tournament, or other than two for an SPRT.

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FieldError {
    #[error("a gauntlet needs `candidates = [\"NAME\", ...]`")]
    NoCandidates,
    #[error("candidate `{candidate}` is not an entrant that can play (entrants: {entrants})")]
    NotAnEntrant { candidate: String, entrants: String },
    #[error(
        "the field (the entrants that are not candidates) has {field} entrant(s); games of \
         {seats} seats need at least {}",
        seats.max(&2) - 1
    )]
    FieldTooSmall { field: usize, seats: usize },
    #[error("a Swiss tournament needs at least two entrants")]
    SwissAlone,
    #[error(
        "an SPRT compares two builds: the baseline, then the candidate ({entrants} entrants can \
         play)"
    )]
    SprtNotTwo { entrants: usize },
}

/// Why a plan read back from disk holds a format its run cannot follow: a parameter out of
/// range (by its configuration key) or a field the format cannot use.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FormatCheckError {
    #[error("{key}: {why}")]
    Settings { key: &'static str, why: String },
    #[error(transparent)]
    Field(#[from] FieldError),
}
