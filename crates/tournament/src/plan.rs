//! The plan of a tournament: its entrants (each plugin checked), parameter sets and every game
//! with a stable id and seed. Written to `tournament.json` before the first game, so a resumed
//! or sharded run plays exactly the planned games.

use super::config::{Config, Declared, ParamSet, Settings};
use super::entry::Entry;
use super::format::FormatCheckError;
use super::format::{Lineup, Progress, Results};
use super::shard::Shard;
use crate::plan_damage::{NotOfThePlan, PlanDamage};
pub use crate::plan_error::{MissingBot, PlanError};
use crate::plan_file_error::PlanFileError;
use agon_engine::BotSpec;
use agon_engine::HostKind;
use agon_engine::ProcessHost;
use agon_engine::SeedSecret;
use agon_engine::{input_file::limits, Input};
use agon_engine::{seating, Hosting, Trial};
use agon_engine::{Manifest, StagedPlugin};
use agon_games::contract::{GameRules, RawParams};
use agon_games::registry::Registry;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// 2: a shard's plan holds only its own games ([`Plan::games_total`] says how many the whole
/// plan has). Plans of format 1 are still read: a sharded one held the whole plan, and its
/// shard played a contiguous block of it.
pub const PLAN_FORMAT: u32 = 2;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Plan {
    pub format: u32,
    /// Hash of everything that decides results (settings, parameter sets, entrants with their
    /// plugins' sha256, seeds): shards of one tournament share it.
    pub config_hash: String,
    pub config_file: PathBuf,
    pub settings: Settings,
    pub param_sets: Vec<ParamSet>,
    pub entrants: Vec<Entrant>,
    /// Entrants whose plugin failed to load: they play no game and are reported.
    pub excluded: Vec<Excluded>,
    /// Every game of the tournament; in a shard's folder, only the shard's (`shard.rs`).
    pub games: Vec<GameSpec>,
    /// The share of the games this folder plays (`I/N`), or `None` for all of them.
    #[serde(default)]
    pub shard: Option<Shard>,
    /// In a shard's plan (and a merge that lacks shards): how many games the whole plan has.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub games_total: Option<usize>,
    /// The key of the seat seeds (see `agon_engine::seed`), drawn from the operating system
    /// when the plan is made: bots cannot compute each other's seeds, and a resumed run plays
    /// with the same seeds. Not in `config_hash`: every shard of a tournament draws its own, and
    /// each journal line keeps the secret its game was played under. `None` in plans made
    /// before secrets existed; such a plan is not played on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed_secret: Option<SeedSecret>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entrant {
    pub name: String,
    /// The bot spec, with the plugin's absolute path.
    pub spec: String,
    pub sha256: String,
    pub plugin: String,
    pub version: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Excluded {
    pub name: String,
    pub file: PathBuf,
    pub error: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameSpec {
    /// `<config hash>-s<set>-e<a>e<b>-g<index>`: stable across runs, resumes and shards.
    pub id: String,
    pub param_set: usize,
    /// Entrant indices in seat order.
    pub seats: Vec<usize>,
    /// The match seed: the same for both seatings of a pair of games (mirrored seeds).
    pub seed: u64,
    /// Parameters of this game alone (the Flip course's board seed), over the set's.
    #[serde(default, skip_serializing_if = "RawParams::is_empty")]
    pub params: RawParams,
}

/// A plugin's manifest, read in a host of `inspection`, a sandboxed process host whatever host
/// the games use: team code (a library constructor) never runs in the engine's process before
/// the first game, where a crash would take the plan down with it. The outer error is the
/// engine's own failure (no host could be started), the inner one the plugin's.
fn manifest(
    staged: &StagedPlugin,
    inspection: &Hosting,
) -> Result<Result<Manifest, String>, PlanError> {
    let config = inspection
        .process
        .as_ref()
        .ok_or_else(|| PlanError::Resource("no process host to inspect plugins in".into()))?;
    match ProcessHost::inspect(config, staged) {
        Err(e) if e.is_engines() => Err(PlanError::Resource(e.to_string())),
        other => Ok(other.map_err(|e| e.to_string())),
    }
}

/// A plugin file staged and its manifest read; `Ok(Err(..))`: the file is unusable, which
/// excludes its entrant; `Err`: the engine failed (its cache, its hosts), which stops the plan.
fn examine(
    file: &Path,
    inspection: &Hosting,
) -> Result<Result<(StagedPlugin, Manifest), String>, PlanError> {
    let staged = match StagedPlugin::stage(file, &inspection.cache) {
        Ok(staged) => staged,
        Err(e) if e.is_engines() => return Err(PlanError::Resource(e.to_string())),
        Err(e) => return Ok(Err(e.to_string())),
    };
    Ok(manifest(&staged, inspection)?.map(|m| (staged, m)))
}

impl Plan {
    /// Checks every entrant's plugin and lays out every game.
    pub fn make(config: &Config, registry: &Registry, cache: &Path) -> Result<Plan, PlanError> {
        let settings = &config.settings;
        let game = tournament_game(settings, registry)?;
        let inspection = settings.profile.process_hosting(cache)?;
        let mut field = Field::default();
        for declared in &config.entrants {
            match declared {
                Declared::Bot { name, spec } => {
                    field.enter_bot(config, game, &inspection, name, spec)?
                }
                Declared::Folder { path } => field.enter_folder(game, &inspection, path)?,
            }
        }
        refuse_twin_names(config, &field.entrants)?;
        let Field {
            entrants,
            mut excluded,
        } = field;
        let entrants = try_each(config, game, &inspection, entrants, &mut excluded)?;
        // Many-seat games fill their seats from at least two entrants (see `schedule`).
        let needed = game.seats().min(2);
        if entrants.len() < needed {
            return Err(PlanError::TooFewEntrants {
                needed,
                found: entrants.len(),
                excluded: excluded
                    .iter()
                    .map(|e| format!("{} ({})", e.name, e.error))
                    .collect::<Vec<_>>()
                    .join("; "),
            });
        }
        let config_hash = hash(settings, &config.param_sets, &entrants);
        let games = lay_out(config, game, &config_hash, &entrants)?;
        Ok(Plan {
            format: PLAN_FORMAT,
            config_hash,
            config_file: config.file.clone(),
            settings: settings.clone(),
            param_sets: config.param_sets.clone(),
            entrants,
            excluded,
            games,
            shard: None,
            games_total: None,
            seed_secret: Some(SeedSecret::draw().map_err(|e| PlanError::Resource(e.to_string()))?),
        })
    }

    /// Lays out the format's next step, given every game played so far (`results`, by id),
    /// and says whether there was one. Up-front formats have none; a Swiss round or a batch of
    /// SPRT pairs follows only once every game laid out has its result.
    pub fn lay_out_next(
        &mut self,
        registry: &Registry,
        results: &Results,
        batch: usize,
    ) -> Result<bool, PlanError> {
        if self
            .games
            .iter()
            .any(|g| !results.contains_key(g.id.as_str()))
        {
            return Ok(false);
        }
        let game = registry.get(&self.settings.game)?;
        let seats = seats(game, &self.param_sets, &self.config_file)?;
        let names: Vec<&str> = self.entrants.iter().map(|e| e.name.as_str()).collect();
        let lineup = Lineup {
            config_hash: &self.config_hash,
            settings: &self.settings,
            seats: &seats,
            names: &names,
        };
        let progress = Progress {
            laid_out: &self.games,
            results,
            batch,
        };
        let next = self.settings.format.schedule().next(&lineup, &progress);
        let more = !next.is_empty();
        self.games.extend(next);
        Ok(more)
    }

    /// The plan of `shard`: its games alone, with the whole plan's count, so that a shard's
    /// folder holds its share and not every shard's.
    pub fn sliced(mut self, shard: Shard) -> Plan {
        self.games_total = Some(self.games.len());
        self.games = shard.select(&self.games);
        self.shard = Some(shard);
        self
    }

    /// How many games this folder's report counts as planned: a shard's own games; else the
    /// whole plan's, including those of shards a partial merge went without.
    pub fn games_planned(&self) -> usize {
        match self.shard {
            Some(_) => self.games.len(),
            None => self.games_total.unwrap_or(self.games.len()),
        }
    }

    /// Writes `tournament.json` durably (see `agon_engine::output_file`).
    pub fn write(&self, dir: &Path) -> std::io::Result<()> {
        let text = serde_json::to_string_pretty(self).expect("plans serialize") + "\n";
        agon_engine::output_file::replace(&dir.join("tournament.json"), text.as_bytes())
    }

    /// Reads and checks `dir/tournament.json`: a plan that names a seat, entrant or parameter
    /// set it does not have, or a bot spec that does not parse, is refused here rather than
    /// failing in the middle of a run or a report.
    pub fn read(dir: &Path) -> Result<Plan, PlanFileError> {
        let path = dir.join("tournament.json");
        let text = Input::new("tournament plan", limits::PLAN)
            .read_text(&path)
            .map_err(|source| PlanFileError::Unreadable {
                dir: dir.to_path_buf(),
                source,
            })?;
        let mut plan: Plan =
            serde_json::from_str(&text).map_err(|source| PlanFileError::NotAPlan {
                path: path.clone(),
                source,
            })?;
        // A format-1 shard played a contiguous block of the plan, which neither today's deal of
        // games to shards nor a merge of today's shards can continue; any other format-1 plan
        // is today's but for its number.
        if plan.format == 1 {
            if let Some(shard) = plan.shard {
                return Err(PlanFileError::OldShard { path, shard });
            }
            plan.format = PLAN_FORMAT;
        }
        if plan.format != PLAN_FORMAT {
            return Err(PlanFileError::OtherFormat {
                path,
                format: plan.format,
                reads: PLAN_FORMAT,
            });
        }
        plan.check().map_err(|why| PlanFileError::Damaged {
            path: path.clone(),
            why,
        })?;
        plan.check_format()
            .map_err(|source| PlanFileError::Format { path, source })?;
        Ok(plan)
    }

    /// Whether the plan's format can be followed: its parameters in range, and the entrants it
    /// needs (this catches a plan edited since it was made).
    fn check_format(&self) -> Result<(), FormatCheckError> {
        let names: Vec<&str> = self.entrants.iter().map(|e| e.name.as_str()).collect();
        self.settings.format.check_plan(
            self.settings.games_per_pairing,
            self.param_sets.len(),
            &names,
        )
    }

    fn check(&self) -> Result<(), PlanDamage> {
        let games = self.games.len();
        match (self.shard, self.games_total) {
            (Some(_), None) => return Err(PlanDamage::ShardWithoutTotal),
            (_, Some(total)) if total < games => {
                return Err(PlanDamage::MoreThanTotal { games, total })
            }
            (Some(shard), Some(total)) if games != shard.share_of(total) => {
                return Err(PlanDamage::ShardShare {
                    shard,
                    total,
                    games,
                    share: shard.share_of(total),
                })
            }
            _ => {}
        }
        for (index, e) in self.entrants.iter().enumerate() {
            e.spec
                .parse::<BotSpec>()
                .map_err(|source| PlanDamage::BadSpec {
                    index,
                    name: e.name.clone(),
                    source,
                })?;
        }
        let mut ids = std::collections::HashSet::new();
        for g in &self.games {
            if !ids.insert(g.id.as_str()) {
                return Err(PlanDamage::Twice(g.id.clone()));
            }
            if g.param_set >= self.param_sets.len() {
                return Err(PlanDamage::NoSuchParamSet {
                    game: g.id.clone(),
                    set: g.param_set,
                    sets: self.param_sets.len(),
                });
            }
            if g.seats.is_empty() {
                return Err(PlanDamage::NoSeats(g.id.clone()));
            }
            if let Some(&entrant) = g.seats.iter().find(|&&e| e >= self.entrants.len()) {
                return Err(PlanDamage::NoSuchEntrant {
                    game: g.id.clone(),
                    entrant,
                    entrants: self.entrants.len(),
                });
            }
        }
        Ok(())
    }

    /// Whether a journal entry is a result of one of this plan's games, as planned: an entry
    /// that does not fit would make grading index past its tables.
    pub fn entry_check(&self) -> impl Fn(&Entry) -> Result<(), NotOfThePlan> + '_ {
        let games: HashMap<&str, &GameSpec> =
            self.games.iter().map(|g| (g.id.as_str(), g)).collect();
        move |e: &Entry| {
            let game = games
                .get(e.id.as_str())
                .ok_or_else(|| NotOfThePlan::UnknownGame(e.id.clone()))?;
            let seats = game.seats.len();
            if e.seats != game.seats || e.param_set != game.param_set {
                return Err(NotOfThePlan::OtherSeating {
                    game: e.id.clone(),
                    planned: game.seats.clone(),
                    planned_set: game.param_set,
                    entry: e.seats.clone(),
                    entry_set: e.param_set,
                });
            }
            let lengths_fit = e.result.scores.len() == seats
                && e.names.len() == seats
                && e.result.game_scores.len() == seats
                && (e.result.ranks.is_empty() || e.result.ranks.len() == seats);
            if !lengths_fit {
                let game = e.id.clone();
                return Err(NotOfThePlan::Lengths { game, seats });
            }
            if e.result.winner.is_some_and(|w| w >= seats)
                || e.result.faults.iter().any(|f| f.seat >= seats)
            {
                let game = e.id.clone();
                return Err(NotOfThePlan::SeatBeyond { game, seats });
            }
            if e.result
                .scores
                .iter()
                .chain(&e.result.game_scores)
                .any(|x| !x.is_finite())
                || e.result.ranks.iter().any(|&r| r == 0 || r > seats)
            {
                return Err(NotOfThePlan::OutOfRange(e.id.clone()));
            }
            Ok(())
        }
    }

    /// The entrant's bot spec.
    pub fn spec(&self, entrant: usize) -> BotSpec {
        self.entrants[entrant]
            .spec
            .parse()
            .expect("plans hold valid specs")
    }
}

/// The settings' game, if a tournament can seat it.
fn tournament_game<'r>(
    settings: &Settings,
    registry: &'r Registry,
) -> Result<&'r dyn GameRules, PlanError> {
    let game = registry.get(&settings.game)?;
    if settings.profile.host == HostKind::Remote {
        return Err(PlanError::RemoteSeats);
    }
    Ok(game)
}

/// The entrants found so far, in the order declared: those whose plugin offers their bot, and
/// those whose file is unusable.
#[derive(Default)]
struct Field {
    entrants: Vec<Entrant>,
    excluded: Vec<Excluded>,
}

impl Field {
    fn add(&mut self, name: String, spec: &BotSpec, staged: &StagedPlugin, m: &Manifest) {
        self.entrants.push(Entrant {
            name,
            spec: spec.to_string(),
            sha256: staged.sha256.clone(),
            plugin: m.plugin.clone(),
            version: m.version.clone(),
        })
    }

    fn exclude(&mut self, name: String, file: PathBuf, error: String) {
        self.excluded.push(Excluded { name, file, error });
    }

    /// An entrant of one bot (`bot = "FILE:BOT"`).
    fn enter_bot(
        &mut self,
        config: &Config,
        game: &dyn GameRules,
        inspection: &Hosting,
        name: &str,
        spec: &BotSpec,
    ) -> Result<(), PlanError> {
        // A file that is no plugin (a team uploaded the wrong file) excludes only that entrant,
        // like a plugin that fails to load.
        let (staged, m) = match examine(&spec.file, inspection)? {
            Err(error) => {
                self.exclude(name.to_string(), spec.file.clone(), error);
                return Ok(());
            }
            Ok(found) => found,
        };
        let plays = m
            .bots
            .iter()
            .any(|b| b.name == spec.bot && b.game == game.name());
        if !plays {
            let offered: Vec<String> = m
                .bots
                .iter()
                .map(|b| format!("{} ({})", b.name, b.game))
                .collect();
            return Err(PlanError::NoSuchBot {
                config: config.file.clone(),
                entrant: name.to_string(),
                missing: Box::new(MissingBot {
                    plugin: spec.file.clone(),
                    bot: spec.bot.clone(),
                    game: game.name().to_string(),
                    offered: offered.join(", "),
                }),
            });
        }
        self.add(name.to_string(), spec, &staged, &m);
        Ok(())
    }

    /// Every tournament bot for the game of every plugin in a folder (see [`team_of`] for their
    /// names).
    fn enter_folder(
        &mut self,
        game: &dyn GameRules,
        inspection: &Hosting,
        path: &Path,
    ) -> Result<(), PlanError> {
        let mut loaded = Vec::new();
        for file in plugin_files(path) {
            let label = file
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            match examine(&file, inspection)? {
                Err(error) => self.exclude(label, file, error),
                Ok((staged, m)) => loaded.push((file, label, staged, m)),
            }
        }
        for (file, label, staged, m) in &loaded {
            let shared_team = loaded
                .iter()
                .filter(|(_, _, _, other)| team_of(other) == team_of(m))
                .count()
                > 1;
            // A team's debugging and sparring bots (marked hidden) stay out.
            let bots: Vec<_> = m
                .bots
                .iter()
                .filter(|b| b.game == game.name() && b.tournament)
                .collect();
            for bot in &bots {
                let spec = BotSpec {
                    file: file.clone(),
                    bot: bot.name.clone(),
                    params: Default::default(),
                };
                let mut name = team_of(m).to_string();
                if shared_team {
                    name = format!("{name} ({label})");
                }
                if bots.len() > 1 {
                    name = format!("{name}:{}", bot.name);
                }
                self.add(name, &spec, staged, m);
            }
        }
        Ok(())
    }
}

fn refuse_twin_names(config: &Config, entrants: &[Entrant]) -> Result<(), PlanError> {
    for (i, e) in entrants.iter().enumerate() {
        if entrants[..i].iter().any(|f| f.name == e.name) {
            return Err(PlanError::TwinNames {
                config: config.file.clone(),
                name: e.name.clone(),
            });
        }
    }
    Ok(())
}

/// Every bot once, with its parameters, before any game: a refused parameter is a configuration
/// error, a bot that cannot start here excludes only its entrant. Returns the entrants kept.
fn try_each(
    config: &Config,
    game: &dyn GameRules,
    inspection: &Hosting,
    entrants: Vec<Entrant>,
    excluded: &mut Vec<Excluded>,
) -> Result<Vec<Entrant>, PlanError> {
    let settings = &config.settings;
    let first_params = config
        .param_sets
        .first()
        .map(|p| p.params.clone())
        .unwrap_or_default();
    let mut kept = Vec::new();
    for e in entrants {
        let spec: BotSpec = e.spec.parse().expect("specs were parsed");
        // In a process host (see [`manifest`]): a bot that crashes while being created is
        // excluded, not the engine's end.
        let trial = seating::trial_start(
            &spec,
            game,
            inspection,
            &first_params,
            settings.profile.start_ms,
            settings.profile.move_ms,
        );
        match trial {
            Trial::Fine => kept.push(e),
            Trial::Exclude(error) => excluded.push(Excluded {
                name: e.name.clone(),
                file: spec.file.clone(),
                error,
            }),
            Trial::EngineFailed(error) => {
                return Err(PlanError::Resource(format!(
                    "trying entrant `{}` before the first game: {error}",
                    e.name
                )))
            }
            Trial::Refused(message) => {
                return Err(PlanError::RefusedParameters {
                    config: config.file.clone(),
                    entrant: e.name.clone(),
                    message,
                })
            }
        }
    }
    Ok(kept)
}

/// The games the format lays out before the first is played (all of them, unless it is a
/// sequential format), once their number is known to be within [`MAX_GAMES`].
fn lay_out(
    config: &Config,
    game: &dyn GameRules,
    config_hash: &str,
    entrants: &[Entrant],
) -> Result<Vec<GameSpec>, PlanError> {
    let settings = &config.settings;
    let seats = seats(game, &config.param_sets, &config.file)?;
    let names: Vec<&str> = entrants.iter().map(|e| e.name.as_str()).collect();
    settings
        .format
        .check_field(&names, &seats)
        .map_err(|source| PlanError::Field {
            config: config.file.clone(),
            source,
        })?;
    let lineup = Lineup {
        config_hash,
        settings,
        seats: &seats,
        names: &names,
    };
    let schedule = settings.format.schedule();
    let count = schedule.games_at_most(&lineup);
    if count > MAX_GAMES as u128 {
        return Err(PlanError::TooManyGames {
            config: config.file.clone(),
            count,
            most: MAX_GAMES,
        });
    }
    let start = Progress {
        laid_out: &[],
        results: &Results::new(),
        batch: 0,
    };
    Ok(schedule.next(&lineup, &start))
}

/// The game's seat count under each parameter set; `config` is the file that set them.
fn seats(
    game: &dyn GameRules,
    param_sets: &[ParamSet],
    config: &Path,
) -> Result<Vec<usize>, PlanError> {
    param_sets
        .iter()
        .map(|p| game.seats_for(&p.params, &agon_engine::GameFiles))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|source| PlanError::Seats {
            config: config.to_path_buf(),
            source,
        })
}

/// A folder entrant is named by its team (its plugin's name when the team is blank), with the
/// file's name when two plugins of the folder share a team, and the bot's name after a colon
/// when the team enters several bots for the game.
fn team_of(manifest: &Manifest) -> &str {
    let team = manifest.team.trim();
    if team.is_empty() {
        &manifest.plugin
    } else {
        team
    }
}

/// Shared libraries in a folder, by name (a folder entrant).
fn plugin_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.is_file() && p.extension().is_some_and(|x| x == "so"))
                .collect()
        })
        .unwrap_or_default();
    files.sort();
    files
}

/// What decides results, and nothing else: entrants by name, plugin content, bot and bot
/// parameters (not by path, so the same tournament started from another folder, or as shards
/// started differently, has the same hash).
fn hash(settings: &Settings, param_sets: &[ParamSet], entrants: &[Entrant]) -> String {
    let entrants: Vec<serde_json::Value> = entrants
        .iter()
        .map(|e| {
            let spec: Option<BotSpec> = e.spec.parse().ok();
            serde_json::json!({
                "name": e.name,
                "sha256": e.sha256,
                "bot": spec.as_ref().map(|s| s.bot.clone()),
                "bot_params": spec.map(|s| s.params),
            })
        })
        .collect();
    // The title decides no result: renaming a tournament keeps its hash (and its shards).
    let settings = Settings {
        name: None,
        ..settings.clone()
    };
    let canonical = serde_json::json!({
        "settings": settings,
        "param_sets": param_sets,
        "entrants": entrants,
    });
    let digest = Sha256::digest(canonical.to_string().as_bytes());
    digest.iter().take(8).map(|b| format!("{b:02x}")).collect()
}

/// The most games one plan may hold (its `tournament.json` is about 200 bytes a game).
pub const MAX_GAMES: usize = 1_000_000;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn format_1_plans_read_unless_they_are_a_shards() {
        let dir = agon_engine::output_file::fresh_scratch("plan-format-1").unwrap();
        let plan = serde_json::json!({
            "format": 1, "config_hash": "h", "config_file": "t.toml",
            "settings": {"name": null, "game": "breakthrough", "games_per_pairing": 1, "seed": 1,
                "host": "thread", "move_ms": 100, "start_ms": 100, "clock": "wall",
                "on_fault": null, "sandbox": {}, "game_seed": null},
            "param_sets": [], "entrants": [], "excluded": [], "games": [],
        });
        std::fs::write(dir.join("tournament.json"), plan.to_string()).unwrap();
        let read = Plan::read(&dir).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(read.format, PLAN_FORMAT);
        let mut shard = plan;
        shard["shard"] = "1/3".into();
        std::fs::write(dir.join("tournament.json"), shard.to_string()).unwrap();
        let e = Plan::read(&dir).unwrap_err();
        let one_of_three = Shard::new(1, 3).unwrap();
        assert!(matches!(&e, PlanFileError::OldShard { shard, .. } if *shard == one_of_three));
        assert!(
            e.to_string().contains("shard 1/3 of a plan of format 1"),
            "{e}"
        );
        let mut bad = shard.clone();
        bad["format"] = PLAN_FORMAT.into();
        bad["shard"] = "3/3".into();
        std::fs::write(dir.join("tournament.json"), bad.to_string()).unwrap();
        let e = Plan::read(&dir).unwrap_err();
        assert!(matches!(e, PlanFileError::NotAPlan { .. }), "{e:?}");
        assert!(
            e.to_string()
                .contains("tournament.json: shard `3/3`: expected I/N with 0 <= I < N, e.g. 0/3"),
            "{e}"
        );
        let mut later = shard;
        later["format"] = 3.into();
        std::fs::write(dir.join("tournament.json"), later.to_string()).unwrap();
        let e = Plan::read(&dir).unwrap_err();
        assert!(
            e.to_string().ends_with(&format!(
                "tournament.json: plan format 3, this agon reads {PLAN_FORMAT}"
            )),
            "{e}"
        );
        let e = Plan::read(&dir.join("nowhere")).unwrap_err();
        assert!(matches!(e, PlanFileError::Unreadable { .. }), "{e:?}");
        assert!(e.to_string().ends_with("a tournament folder?)"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// A plan file of format 2: a Breakthrough round robin of `entrants` entrants (`e0`,
    /// `e1`, ...) with `games`.
    fn plan_json(entrants: usize, games: serde_json::Value) -> serde_json::Value {
        let entrant = |i: usize| {
            serde_json::json!({"name": format!("e{i}"), "spec": "/x.so:bot", "sha256": "0",
                "plugin": "p", "version": "1"})
        };
        serde_json::json!({
            "format": 2, "config_hash": "h", "config_file": "t.toml",
            "settings": {"game": "breakthrough", "games_per_pairing": 2, "seed": 1,
                "host": "thread", "move_ms": 100, "start_ms": 100, "clock": "wall",
                "on_fault": null, "sandbox": {}},
            "param_sets": [{"label": "default", "swept": {}, "params": {}}],
            "entrants": (0..entrants).map(entrant).collect::<Vec<_>>(),
            "excluded": [], "games": games,
        })
    }

    #[test]
    fn a_plan_edited_to_a_format_it_cannot_follow_is_refused() {
        let dir = agon_engine::output_file::fresh_scratch("plan-format-check").unwrap();
        let plan = |format: serde_json::Value, entrants: usize| {
            let mut plan = plan_json(entrants, serde_json::json!([]));
            plan["settings"]["format"] = format;
            plan
        };
        let sprt = |alpha: f64| {
            serde_json::json!({"kind": "sprt", "elo0": 0.0, "elo1": 5.0, "alpha": alpha,
                "beta": 0.05, "max_pairs": 100})
        };
        for (format, entrants, expected) in [
            (
                serde_json::json!({"kind": "swiss", "rounds": 0}),
                4,
                "0 rounds",
            ),
            (
                serde_json::json!({"kind": "swiss", "rounds": 3}),
                1,
                "two entrants",
            ),
            (sprt(0.0), 2, "alpha"),
            (sprt(0.05), 3, "two builds"),
            (
                serde_json::json!({"kind": "gauntlet", "candidates": ["x"]}),
                3,
                "`x`",
            ),
        ] {
            let text = plan(format, entrants).to_string();
            std::fs::write(dir.join("tournament.json"), &text).unwrap();
            let e = Plan::read(&dir).unwrap_err();
            assert!(matches!(e, PlanFileError::Format { .. }), "{e:?}");
            let e = e.to_string();
            assert!(e.contains("format: ") && e.contains(expected), "{e}");
        }
        let good = plan(sprt(0.05), 2).to_string();
        std::fs::write(dir.join("tournament.json"), good).unwrap();
        Plan::read(&dir).unwrap_or_else(|e| panic!("{e}"));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_damaged_plan_and_an_entry_not_of_it_are_named() {
        let dir = agon_engine::output_file::fresh_scratch("plan-damage").unwrap();
        let plan = |games: serde_json::Value| plan_json(2, games);
        let game = |id: &str, seats: serde_json::Value| serde_json::json!({"id": id, "param_set": 0, "seats": seats, "seed": 1});
        let seats_a_third = plan(serde_json::json!([game("g1", serde_json::json!([0, 2]))]));
        std::fs::write(dir.join("tournament.json"), seats_a_third.to_string()).unwrap();
        let e = Plan::read(&dir).unwrap_err();
        assert!(
            matches!(
                &e,
                PlanFileError::Damaged {
                    why: PlanDamage::NoSuchEntrant {
                        entrant: 2,
                        entrants: 2,
                        ..
                    },
                    ..
                }
            ),
            "{e:?}"
        );
        assert!(
            e.to_string()
                .ends_with("game g1 seats entrant 2, the plan has 2; the plan is damaged"),
            "{e}"
        );
        let twice = plan(serde_json::json!([
            game("g1", serde_json::json!([0, 1])),
            game("g1", serde_json::json!([1, 0]))
        ]));
        std::fs::write(dir.join("tournament.json"), twice.to_string()).unwrap();
        let e = Plan::read(&dir).unwrap_err();
        assert!(e.to_string().contains("game g1 is planned twice"), "{e}");
        // A shard's counts: its own games against the whole plan's.
        let two_games = serde_json::json!([
            game("g1", serde_json::json!([0, 1])),
            game("g2", serde_json::json!([1, 0]))
        ]);
        for (shard, total, expected) in [
            (
                Some("0/2"),
                None,
                "a shard's plan says how many games the whole plan has",
            ),
            (None, Some(1), "2 games, more than the 1 the whole plan has"),
            (
                Some("0/2"),
                Some(1),
                "2 games, more than the 1 the whole plan has",
            ),
            (
                Some("0/2"),
                Some(6),
                "shard 0/2 of a plan of 6 games holds 2 games, not 3",
            ),
        ] {
            let mut counted = plan(two_games.clone());
            if let Some(shard) = shard {
                counted["shard"] = shard.into();
            }
            if let Some(total) = total {
                counted["games_total"] = total.into();
            }
            std::fs::write(dir.join("tournament.json"), counted.to_string()).unwrap();
            let e = Plan::read(&dir).unwrap_err();
            assert!(matches!(e, PlanFileError::Damaged { .. }), "{e:?}");
            assert!(e.to_string().contains(expected), "{shard:?} {total:?}: {e}");
        }
        let mut whole = plan(two_games);
        whole["games_total"] = 2.into();
        std::fs::write(dir.join("tournament.json"), whole.to_string()).unwrap();
        Plan::read(&dir).unwrap_or_else(|e| panic!("{e}"));

        let good = plan(serde_json::json!([game("g1", serde_json::json!([0, 1]))]));
        std::fs::write(dir.join("tournament.json"), good.to_string()).unwrap();
        let plan = Plan::read(&dir).unwrap_or_else(|e| panic!("{e}"));
        let check = plan.entry_check();
        assert_eq!(check(&Entry::drawn("g1", Vec::new())), Ok(()));
        assert_eq!(
            check(&Entry::drawn("g2", Vec::new())),
            Err(NotOfThePlan::UnknownGame("g2".into()))
        );
        let mut swapped = Entry::drawn("g1", Vec::new());
        swapped.seats = vec![1, 0];
        let refused = check(&swapped).unwrap_err();
        assert!(
            matches!(refused, NotOfThePlan::OtherSeating { .. }),
            "{refused:?}"
        );
        assert_eq!(
            refused.to_string(),
            "game g1 was planned with entrants [0, 1] in parameter set 0, the entry says [1, 0] \
             in 0"
        );
        let mut short = Entry::drawn("g1", Vec::new());
        short.result.scores.pop();
        assert_eq!(
            check(&short),
            Err(NotOfThePlan::Lengths {
                game: "g1".into(),
                seats: 2
            })
        );
        let mut third_seat_won = Entry::drawn("g1", Vec::new());
        third_seat_won.result.winner = Some(2);
        assert_eq!(
            check(&third_seat_won),
            Err(NotOfThePlan::SeatBeyond {
                game: "g1".into(),
                seats: 2
            })
        );
        let mut endless = Entry::drawn("g1", Vec::new());
        endless.result.scores[0] = f64::INFINITY;
        assert_eq!(check(&endless), Err(NotOfThePlan::OutOfRange("g1".into())));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
