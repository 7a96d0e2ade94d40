//! Validating a candidate build before any ladder game uses it, always in process hosts (team
//! code never runs in the engine's process here, whatever host the ladder plays on): it is
//! staged (hashed and copied to its content-addressed path, which every later game loads),
//! inspected (it loads, its ABI matches, it offers a bot for the ladder's game under the
//! engine's protocol version), and it plays one smoke game against itself in every game it
//! declares, without a fault.

use crate::ladder::builds::Build;
use agon_engine::bot_spec::BotSpec;
use agon_engine::host::ProcessHost;
use agon_engine::loader::{Manifest, StagedPlugin};
use agon_engine::record::Budgets;
use agon_engine::runner::{run_match, MatchSettings};
use agon_engine::seating::{self, Hosting};
use agon_games::contract::{FaultPolicy, GameRules, RawParams};
use agon_games::registry::Registry;
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::Instant;

/// A file read from the watched folder, whole (the intake checked its ELF extent).
pub struct Candidate {
    pub slot: String,
    pub path: PathBuf,
    pub bytes: Vec<u8>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Refusal {
    pub sha256: Option<String>,
    pub reason: String,
}

#[derive(Debug)]
pub struct Validated {
    pub build: Build,
    /// What was smoke-played, per declared game.
    pub smoke: Vec<String>,
    pub validation_ms: f64,
}

pub struct Validator {
    pub game: String,
    pub params: RawParams,
    pub budgets: Budgets,
    pub fault_policy: Option<FaultPolicy>,
    /// Process hosting (whatever the ladder plays on).
    pub hosting: Hosting,
    /// Bots configured per slot (`--bot FILE:BOT`); other slots play their first bot for the
    /// game.
    pub configured: BTreeMap<String, BotSpec>,
}

impl Validator {
    pub fn validate(&self, candidate: &Candidate) -> Result<Validated, Refusal> {
        let started = Instant::now();
        let refuse = |sha256: Option<&str>, reason: String| Refusal {
            sha256: sha256.map(str::to_string),
            reason,
        };
        let staged =
            StagedPlugin::stage_bytes(&candidate.path, &candidate.bytes, &self.hosting.cache)
                .map_err(|e| refuse(None, e.to_string()))?;
        let sha = Some(staged.sha256.as_str());
        let config = self
            .hosting
            .process
            .as_ref()
            .ok_or_else(|| refuse(sha, "no process host to validate builds in".into()))?;
        let manifest = ProcessHost::inspect(config, &staged)
            .map_err(|e| refuse(sha, format!("it does not load: {e}")))?;
        let registry = Registry::builtin();
        let rules = registry
            .get(&self.game)
            .map_err(|e| refuse(sha, e.to_string()))?;
        let spec = self
            .bot_for(&candidate.slot, &manifest, rules)
            .map_err(|e| refuse(sha, e))?;
        let mut smoke = Vec::new();
        for game in declared_games(&manifest) {
            let Ok(rules) = registry.get(game) else {
                smoke.push(format!("{game}: not a game of this engine, not tried"));
                continue;
            };
            let (bot, params) = if game == self.game {
                (spec.clone(), self.params.clone())
            } else {
                let first = first_bot(&manifest, game).expect("a declared game has a bot");
                (
                    BotSpec {
                        file: staged.copy.clone(),
                        bot: first.to_string(),
                        params: RawParams::new(),
                    },
                    RawParams::new(),
                )
            };
            match self.smoke_game(rules, &bot, &staged.copy, &params) {
                Ok(Some(note)) => smoke.push(format!("{game}: {note}")),
                Ok(None) => smoke.push(format!("{game}: not tried (it needs parameters)")),
                Err(e) => return Err(refuse(sha, format!("smoke game of {game}: {e}"))),
            }
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

    /// The slot's configured bot, else its first bot for the ladder's game; either must be
    /// offered for the game under the engine's protocol version.
    fn bot_for(
        &self,
        slot: &str,
        manifest: &Manifest,
        rules: &dyn GameRules,
    ) -> Result<BotSpec, String> {
        let game = rules.name();
        let wanted = self.configured.get(slot);
        let name = match wanted {
            Some(spec) => spec.bot.as_str(),
            None => first_bot(manifest, game).ok_or_else(|| {
                format!(
                    "it offers no bot for {game} that is not hidden (its bots: {})",
                    manifest
                        .bots
                        .iter()
                        .map(|b| format!("{} for {}", b.name, b.game))
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            })?,
        };
        let offered = manifest
            .bots
            .iter()
            .find(|b| b.name == name && b.game == game)
            .ok_or_else(|| format!("it offers no bot `{name}` for {game}"))?;
        if offered.protocol_version != rules.protocol_version() {
            return Err(format!(
                "bot `{name}` speaks {game} protocol v{}, this engine v{}: rebuild it against \
                 this engine's agon-plugin-api",
                offered.protocol_version,
                rules.protocol_version()
            ));
        }
        Ok(BotSpec {
            file: PathBuf::new(), // set by the caller's staged copy below
            bot: name.to_string(),
            params: wanted.map(|s| s.params.clone()).unwrap_or_default(),
        })
    }

    /// Plays the bot against itself in every seat; `Ok(None)` when the game cannot start under
    /// the parameters given (a game whose instance is a required parameter).
    fn smoke_game(
        &self,
        rules: &dyn GameRules,
        bot: &BotSpec,
        copy: &std::path::Path,
        params: &RawParams,
    ) -> Result<Option<String>, String> {
        let bot = BotSpec {
            file: copy.to_path_buf(),
            ..bot.clone()
        };
        let Ok(seats) = rules.seats_for(params, &agon_engine::input_file::GameFiles) else {
            return Ok(None);
        };
        if rules
            .new_session(params, &agon_engine::input_file::GameFiles)
            .is_err()
        {
            return Ok(None);
        }
        let seated = (0..seats)
            .map(|seat| seating::seat(&bot, seat, rules, &self.hosting))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| e.to_string())?;
        let settings = MatchSettings {
            params: params.clone(),
            seed: 0x5eed,
            budgets: self.budgets,
            fault_policy: self.fault_policy,
        };
        let record = run_match(rules, &settings, seated).map_err(|e| e.to_string())?;
        if let Some(fault) = record.faults.first() {
            return Err(format!(
                "seat {} ({}): {}: {}",
                fault.seat,
                bot.bot,
                fault.cause,
                agon_games::contract::bounded(&fault.detail)
            ));
        }
        Ok(Some(format!(
            "{} plies, {}",
            record.moves.len(),
            record.outcome.reason
        )))
    }
}

fn declared_games(manifest: &Manifest) -> Vec<&str> {
    let mut games: Vec<&str> = Vec::new();
    for bot in &manifest.bots {
        if !games.contains(&bot.game.as_str()) {
            games.push(&bot.game);
        }
    }
    games
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
    use agon_engine::loader::BotDescriptor;

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
