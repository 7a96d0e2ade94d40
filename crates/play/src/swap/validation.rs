//! Validating a candidate build before any game uses it: it is staged (hashed and copied to its
//! content-addressed path, which every later game loads), inspected in a process host (it
//! loads, its ABI matches, it offers a bot for the game under the engine's protocol version;
//! team code never runs in the engine's process for this), and it plays one validation game
//! without a fault of its own.
//!
//! The validation game must look like a real game to the bot: a build that could tell would
//! play clean there and forfeit every real game (one did, when validation was a self-play game
//! with a fixed seed). So it has a fresh random seed under the run's seed secret, a random
//! seat, real opponents (see [`super::sparring`]), and the real games' parameters, budgets,
//! fault policy and host. Where real games run in the engine's process (thread, inline), the
//! same game is first played in a process host, so a build that crashes is refused before it
//! can take the engine down.

use super::build::Build;
use super::sparring::{house_seat, Opponent, Sparring};
use super::validation_error::ValidationError;
use crate::match_profile::MatchProfile;
use agon_engine::BotSpec;
use agon_engine::MatchRecord;
use agon_engine::ProcessHost;
use agon_engine::SeedSecret;
use agon_engine::{run_match, Seat};
use agon_engine::{seating, Hosting};
use agon_engine::{Manifest, StagedPlugin};
use agon_games::contract::{GameRules, RawParams};
use agon_games::registry::Registry;
use rand::Rng;
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

/// A file read from the watched folder, whole (the intake checked its ELF extent).
pub struct Candidate {
    pub slot: String,
    pub path: PathBuf,
    pub bytes: Vec<u8>,
    /// The file's inode when it was read: which file of the slot a verdict is on.
    pub inode: u64,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Refusal {
    pub sha256: Option<String>,
    pub reason: String,
}

#[derive(Debug)]
pub struct Validated {
    pub build: Build,
    /// What the validation games were, and how they ended.
    pub smoke: Vec<String>,
    pub validation_ms: f64,
}

pub struct Validator {
    pub game: String,
    pub params: RawParams,
    /// The real games' budgets, clock and fault policy, which the validation games keep (their
    /// hosts are `hosting` and `inspection`, resolved from it by the caller).
    pub profile: MatchProfile,
    /// How the real games are hosted.
    pub hosting: Hosting,
    /// Process hosting, for inspection (and the crash guard of in-process games).
    pub inspection: Hosting,
    /// Bots configured per slot (`--bot FILE:BOT`); other slots play their first bot for the
    /// game.
    pub configured: BTreeMap<String, BotSpec>,
    /// The key of the real games' seat seeds.
    pub seed_secret: SeedSecret,
    /// The builds real games are played with now: the candidate's opponents.
    pub sparring: Arc<Sparring>,
}

impl Validator {
    pub fn validate(&self, candidate: &Candidate) -> Result<Validated, Refusal> {
        let started = Instant::now();
        let refuse = |sha256: Option<&str>, reason: String| Refusal {
            sha256: sha256.map(str::to_string),
            reason,
        };
        let staged =
            StagedPlugin::stage_bytes(&candidate.path, &candidate.bytes, &self.inspection.cache)
                .map_err(|e| refuse(None, e.to_string()))?;
        let sha = Some(staged.sha256.as_str());
        let config = self
            .inspection
            .process
            .as_ref()
            .ok_or_else(|| refuse(sha, "no process host to validate builds in".into()))?;
        let manifest = ProcessHost::inspect(config, &staged)
            .map_err(|e| refuse(sha, format!("it does not load: {e}")))?;
        let registry = Registry::builtin();
        let rules = registry
            .get(&self.game)
            .map_err(|e| refuse(sha, e.to_string()))?;
        let spec = BotSpec {
            file: staged.copy.clone(),
            ..self
                .bot_for(&candidate.slot, &manifest, rules)
                .map_err(|e| refuse(sha, e.to_string()))?
        };
        let mut smoke = Vec::new();
        for hosting in self.hostings() {
            let note = self
                .validation_game(rules, &candidate.slot, &spec, hosting)
                .map_err(|e| {
                    refuse(sha, format!("validation game ({} host): {e}", hosting.kind))
                })?;
            smoke.push(format!("{} host: {note}", hosting.kind));
        }
        Ok(Validated {
            build: Build {
                slot: candidate.slot.clone(),
                version: 0,
                sha256: staged.sha256.clone(),
                plugin: manifest.plugin.clone(),
                plugin_version: manifest.version.clone(),
                team: manifest.team.clone(),
                bot: spec.bot,
                bot_params: spec.params,
                copy: staged.copy,
            },
            smoke,
            validation_ms: started.elapsed().as_secs_f64() * 1000.0,
        })
    }

    /// The hostings of the validation games: the real games', after a process host's where
    /// those run in the engine's process.
    fn hostings(&self) -> Vec<&Hosting> {
        if self.hosting.kind.in_process() {
            vec![&self.inspection, &self.hosting]
        } else {
            vec![&self.hosting]
        }
    }

    /// The slot's configured bot, else its first bot for the game; either must be offered for
    /// the game under the engine's protocol version.
    fn bot_for(
        &self,
        slot: &str,
        manifest: &Manifest,
        rules: &dyn GameRules,
    ) -> Result<BotSpec, ValidationError> {
        let game = rules.name();
        let wanted = self.configured.get(slot);
        let name = match wanted {
            Some(spec) => spec.bot.as_str(),
            None => first_bot(manifest, game).ok_or_else(|| ValidationError::NoBotForGame {
                game: game.to_string(),
                bots: manifest
                    .bots
                    .iter()
                    .map(|b| format!("{} for {}", b.name, b.game))
                    .collect::<Vec<_>>()
                    .join(", "),
            })?,
        };
        let offered = manifest
            .bots
            .iter()
            .find(|b| b.name == name && b.game == game)
            .ok_or_else(|| ValidationError::NoSuchBot {
                bot: name.to_string(),
                game: game.to_string(),
            })?;
        if offered.protocol_version != rules.protocol_version() {
            return Err(ValidationError::Protocol {
                bot: name.to_string(),
                mismatch: agon_engine::loader::protocol_mismatch(
                    game,
                    offered.protocol_version,
                    rules.protocol_version(),
                ),
            });
        }
        Ok(BotSpec {
            file: PathBuf::new(), // the staged copy, set by the caller
            bot: name.to_string(),
            params: wanted.map(|s| s.params.clone()).unwrap_or_default(),
        })
    }

    /// Plays one game as a real one, the candidate at a random seat; its fault refuses it
    /// (an opponent's fault only ends the game). Says whom it met and how it ended.
    fn validation_game(
        &self,
        rules: &dyn GameRules,
        slot: &str,
        candidate: &BotSpec,
        hosting: &Hosting,
    ) -> Result<String, ValidationError> {
        let files = agon_engine::GameFiles;
        let seats = rules
            .seats_for(&self.params, &files)
            .map_err(ValidationError::GameParameters)?;
        let mut rng = rand::rng();
        let own = rng.random_range(0..seats.max(1));
        let mut opponents = self
            .sparring
            .pick(slot, seats.saturating_sub(1))
            .into_iter();
        let mut met = Vec::new();
        let mut seated: Vec<Seat> = Vec::new();
        for seat in 0..seats {
            let placed = if seat == own {
                seating::seat(candidate, seat, rules, hosting)?
            } else {
                let opponent = opponents.next().unwrap_or(Opponent::House);
                met.push(opponent_name(&opponent));
                opponent_seat(opponent, seat, rules, hosting)?
            };
            seated.push(placed);
        }
        let settings =
            self.profile
                .match_settings(self.params.clone(), rng.random(), self.seed_secret);
        let record = run_match(rules, &settings, seated)?;
        own_fault(&record, own, &candidate.bot)?;
        let against = if met.is_empty() {
            String::new()
        } else {
            format!(" against {}", met.join(", "))
        };
        Ok(format!(
            "seat {own}{against}: {} plies, {}",
            record.moves.len(),
            record.outcome.reason
        ))
    }
}

/// The candidate's first fault in `record`, as a refusal.
fn own_fault(record: &MatchRecord, own: usize, bot: &str) -> Result<(), ValidationError> {
    match record.faults.iter().find(|f| f.seat == own) {
        Some(fault) => Err(ValidationError::OwnFault {
            seat: own,
            bot: bot.to_string(),
            cause: fault.cause,
            detail: agon_games::contract::bounded(&fault.detail),
        }),
        None => Ok(()),
    }
}

fn opponent_name(opponent: &Opponent) -> String {
    match opponent {
        Opponent::Build { slot, .. } => slot.clone(),
        Opponent::House => "the house bot".into(),
    }
}

fn opponent_seat(
    opponent: Opponent,
    seat: usize,
    rules: &dyn GameRules,
    hosting: &Hosting,
) -> Result<Seat, ValidationError> {
    match opponent {
        Opponent::Build { slot, spec } => seating::seat(&spec, seat, rules, hosting)
            .map_err(|source| ValidationError::Opponent { slot, source }),
        Opponent::House => {
            house_seat(rules.name(), seat).ok_or_else(|| ValidationError::NoHouseBot {
                game: rules.name().to_string(),
            })
        }
    }
}

/// The bot a slot plays when its configuration names none: the first for the game that is not
/// marked hidden (a team's debugging and sparring bots never stand in for it).
fn first_bot<'m>(manifest: &'m Manifest, game: &str) -> Option<&'m str> {
    manifest
        .bots
        .iter()
        .find(|b| b.game == game && b.tournament)
        .map(|b| b.name.as_str())
}

#[cfg(test)]
mod tests {
    use super::*;
    use agon_engine::BotDescriptor;

    fn bot(name: &str, game: &str, tournament: bool) -> BotDescriptor {
        BotDescriptor {
            name: name.into(),
            description: String::new(),
            game: game.into(),
            protocol_version: 1,
            tournament,
        }
    }

    #[test]
    fn a_slot_plays_its_first_bot_that_is_not_hidden() {
        let manifest = Manifest {
            plugin: "team".into(),
            team: "Team".into(),
            version: "0.1.0".into(),
            bots: vec![
                bot("sparring", "breakthrough", false),
                bot("flipper", "flip", true),
                bot("main", "breakthrough", true),
            ],
        };
        assert_eq!(first_bot(&manifest, "breakthrough"), Some("main"));
        assert_eq!(first_bot(&manifest, "flip"), Some("flipper"));
        assert_eq!(first_bot(&manifest, "rectangles"), None);
    }
}
