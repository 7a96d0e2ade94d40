//! Tournament formats: who meets whom, and when. Every format lays out [`GameSpec`]s the same
//! way and is played by the same run; they differ only in [`Schedule::next`], which sees the
//! games laid out so far and the results of those played.
//!
//! - [`RoundRobin`]: every pairing (every k-subset, rotated, for games of more seats).
//! - [`Gauntlet`]: the candidates against the field, never against each other.
//! - [`Swiss`]: rounds paired by score (`swiss_pairing`).
//! - [`Sprt`]: game pairs between two builds until the sequential test decides
//!   (`agon_play::standings::sprt`).
//!
//! Round robin and gauntlet know every game before the first is played, so their plans shard;
//! Swiss and SPRT lay out a step at a time.

mod field_error;
mod gauntlet;
mod pairs;
mod round_robin;
mod sprt;
mod swiss;
mod swiss_pairing;

pub use field_error::{FieldError, FormatCheckError};
pub use gauntlet::Gauntlet;
pub use round_robin::RoundRobin;
pub use sprt::{sprt_state, Sprt};
pub use swiss::{Swiss, MAX_ROUNDS};

use super::config::Settings;
use super::entry::Entry;
use super::plan::GameSpec;
use agon_play::journal::GameResult;
use agon_play::standings::sprt::SprtBounds;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// The format of a tournament, as its plan keeps it (`settings.format`).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Format {
    #[default]
    RoundRobin,
    Gauntlet {
        /// Entrant names; every other entrant is the lineup.
        candidates: Vec<String>,
    },
    Swiss {
        rounds: u32,
    },
    /// The first entrant is the baseline, the second the candidate whose gain is tested.
    Sprt(SprtBounds),
}

impl Format {
    /// Round robin is left out of a plan's settings, so plans (and their hashes, and so every
    /// game id) stay what they were before formats existed.
    pub fn is_round_robin(&self) -> bool {
        *self == Format::RoundRobin
    }

    pub fn name(&self) -> &'static str {
        match self {
            Format::RoundRobin => "round-robin",
            Format::Gauntlet { .. } => "gauntlet",
            Format::Swiss { .. } => "swiss",
            Format::Sprt(_) => "sprt",
        }
    }

    pub fn schedule(&self) -> Box<dyn Schedule + '_> {
        match self {
            Format::RoundRobin => Box::new(RoundRobin),
            Format::Gauntlet { candidates } => Box::new(Gauntlet { candidates }),
            Format::Swiss { rounds } => Box::new(Swiss { rounds: *rounds }),
            Format::Sprt(bounds) => Box::new(Sprt { bounds }),
        }
    }

    /// Whether the entrants that can play (`names`, in entrant order) make a field this format
    /// can use; the error says what is missing.
    pub fn check_field(&self, names: &[&str], seats: &[usize]) -> Result<(), FieldError> {
        match self {
            Format::RoundRobin => Ok(()),
            Format::Gauntlet { candidates } => gauntlet::check_field(candidates, names, seats),
            Format::Swiss { .. } if names.len() < 2 => Err(FieldError::SwissAlone),
            Format::Swiss { .. } => Ok(()),
            Format::Sprt(_) if names.len() != 2 => Err(FieldError::SprtNotTwo {
                entrants: names.len(),
            }),
            Format::Sprt(_) => Ok(()),
        }
    }
}

impl Format {
    /// Whether the format's own parameters are in range for `games_per_pairing` games a
    /// meeting and `param_sets` parameter sets; the error names the configuration key at fault.
    /// A configuration is checked with it, and a plan read back from disk again.
    pub fn check_settings(
        &self,
        games_per_pairing: u32,
        param_sets: usize,
    ) -> Result<(), (&'static str, String)> {
        let one_set = || match param_sets {
            1 => Ok(()),
            _ => Err((
                "sweep",
                format!(
                    "`format = \"{}\"` plays one parameter set; remove the sweep",
                    self.name()
                ),
            )),
        };
        match self {
            Format::RoundRobin => Ok(()),
            Format::Gauntlet { candidates } if candidates.is_empty() => Err((
                "candidates",
                "a gauntlet needs `candidates = [\"NAME\", ...]`".into(),
            )),
            Format::Gauntlet { .. } => Ok(()),
            Format::Swiss { rounds } => {
                if !(1..=MAX_ROUNDS).contains(rounds) {
                    return Err((
                        "rounds",
                        format!("{rounds} rounds; expected 1 to {MAX_ROUNDS}"),
                    ));
                }
                if games_per_pairing % 2 == 1 {
                    return Err((
                        "games_per_pairing",
                        "a Swiss meeting is played as games with the seats swapped: expected \
                         an even number (the default is 2)"
                            .into(),
                    ));
                }
                one_set()
            }
            Format::Sprt(bounds) => {
                bounds.check().map_err(|e| ("sprt", e.to_string()))?;
                if bounds.max_pairs as usize > super::plan::MAX_GAMES / 2 {
                    return Err((
                        "sprt.max_pairs",
                        format!("expected at most {}", super::plan::MAX_GAMES / 2),
                    ));
                }
                one_set()
            }
        }
    }

    /// Whether a plan read back from disk holds a format its run can follow: its parameters
    /// in range, and the entrants it needs (this catches a plan edited since it was made).
    pub fn check_plan(
        &self,
        games_per_pairing: u32,
        param_sets: usize,
        names: &[&str],
    ) -> Result<(), FormatCheckError> {
        self.check_settings(games_per_pairing, param_sets)
            .map_err(|(key, why)| FormatCheckError::Settings { key, why })?;
        Ok(self.check_field(names, &[2])?)
    }
}

/// The report's line on how the games were paired: none for round robin (whose reports stay
/// what they were), else the format, and an SPRT's verdict.
pub fn describe<'a>(
    plan: &super::plan::Plan,
    entries: impl Iterator<Item = &'a super::entry::Entry>,
) -> Option<String> {
    let format = &plan.settings.format;
    Some(match format {
        Format::RoundRobin => return None,
        Format::Gauntlet { candidates } => {
            format!("Gauntlet: {} against the field.", candidates.join(", "))
        }
        Format::Swiss { rounds } => format!("Swiss, {rounds} rounds paired by score."),
        Format::Sprt(_) => {
            let state = sprt_state(plan, entries)?;
            let [verdict, figures] = state.describe(&plan.entrants[0].name, &plan.entrants[1].name);
            format!("{verdict}; {figures}.")
        }
    })
}

/// What every format lays out from: the tournament's settings and its entrants.
pub struct Lineup<'a> {
    pub config_hash: &'a str,
    pub settings: &'a Settings,
    /// Seats of the game under each parameter set.
    pub seats: &'a [usize],
    /// Entrant names, by index.
    pub names: &'a [&'a str],
}

/// What has happened so far: the games laid out, and the results of those played.
pub struct Progress<'a> {
    pub laid_out: &'a [GameSpec],
    pub results: &'a Results<'a>,
    /// How many games the run plays at once: a sequential format lays out at least as many
    /// when it can, so no worker waits for the others.
    pub batch: usize,
}

/// Results by game id.
pub type Results<'a> = HashMap<&'a str, &'a GameResult>;

/// The results of journal `entries`, by game id.
pub fn results_by_id<'a>(entries: impl IntoIterator<Item = &'a Entry>) -> Results<'a> {
    entries
        .into_iter()
        .map(|e| (e.id.as_str(), &e.result))
        .collect()
}

/// One tournament format.
pub trait Schedule {
    /// Whether every game is known before the first is played (such a plan shards).
    fn known_up_front(&self) -> bool {
        true
    }

    /// The most games the format can lay out for `field`, checked against the plan's limit
    /// before any is laid out.
    fn games_at_most(&self, lineup: &Lineup) -> u128;

    /// The games to add to those laid out, once all of those have been played (an up-front
    /// format lays out everything at the start). None: the tournament is over.
    fn next(&self, lineup: &Lineup, progress: &Progress) -> Vec<GameSpec>;
}

/// SplitMix64's finalizer, for seeds derived from the tournament seed.
pub(crate) fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

#[cfg(test)]
pub(crate) mod test_field {
    use super::super::config::Settings;
    use agon_engine::{Clock, HostKind};
    use agon_play::match_profile::MatchProfile;

    pub fn settings(games_per_pairing: u32) -> Settings {
        Settings {
            name: None,
            game: "breakthrough".into(),
            games_per_pairing,
            seed: 11,
            profile: MatchProfile {
                host: HostKind::Thread,
                move_ms: 100,
                start_ms: 100,
                clock: Clock::Wall,
                ..MatchProfile::default()
            },
            game_seed: None,
            versions: Default::default(),
            format: Default::default(),
        }
    }
}
