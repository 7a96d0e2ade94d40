//! The tournament configuration file (TOML), checked completely before any game starts: every
//! error names the key (and the entrant) it is about.

use super::format::Format;
use agon_engine::BotSpec;
use agon_engine::{input_file::limits, Input};
use agon_games::contract::{built_in, GameRules, RawParams};
use agon_games::registry::Registry;
use agon_play::match_profile::{MatchProfile, SandboxProfile};
use agon_play::standings::sprt::SprtBounds;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The file as written. Unknown keys are refused.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ConfigFile {
    pub game: String,
    /// The tournament's title in reports (default: the game and the configuration's hash).
    pub name: Option<String>,
    /// Games per pairing and parameter set (puzzles: per entrant and puzzle). Default: 2 for
    /// duels, 1 for puzzles.
    pub games_per_pairing: Option<u32>,
    #[serde(default)]
    pub seed: u64,
    pub concurrency: Option<usize>,
    /// The match profile's keys (`agon_play::match_profile`, where their defaults are).
    pub host: Option<String>,
    pub move_ms: Option<u64>,
    pub start_ms: Option<u64>,
    pub clock: Option<String>,
    pub on_fault: Option<String>,
    #[serde(default)]
    pub sandbox: SandboxProfile,
    /// How many shards `JOB_COMPLETION_INDEX` (Kubernetes) divides the games into.
    pub shards: Option<u32>,
    #[serde(default)]
    pub params: BTreeMap<String, toml::Value>,
    #[serde(default)]
    pub sweep: Vec<Sweep>,
    #[serde(default, rename = "entrant")]
    pub entrants: Vec<EntrantSection>,
    /// Puzzle games: the instance files every entrant solves (one table per puzzle).
    #[serde(default)]
    pub puzzles: Vec<String>,
    /// A game parameter set per game by the Flip course's formula: game r (1..N) of a pairing
    /// gets `base + floor(r / 2)`, so games 2-3, 4-5, ... are mirrored pairs on one board.
    pub game_seed_param: Option<String>,
    #[serde(default)]
    pub game_seed_base: i64,
    /// With `agon tournament run --watch`: how the report counts an entrant whose build was
    /// swapped during the run.
    #[serde(default)]
    pub versions: SwappedBuilds,
    /// Who meets whom: `round-robin` (the default), `gauntlet`, `swiss` or `sprt`.
    #[serde(default)]
    pub format: FormatName,
    /// Gauntlet: the entrants (by name) that each play every other entrant.
    #[serde(default)]
    pub candidates: Vec<String>,
    /// Swiss: how many rounds.
    pub rounds: Option<u32>,
    /// SPRT: what the test decides between.
    pub sprt: Option<SprtBounds>,
}

/// The formats a configuration may name (`tournament::format`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum FormatName {
    #[default]
    RoundRobin,
    Gauntlet,
    Swiss,
    Sprt,
}

/// How the report counts the builds of an entrant swapped during a run (`--watch`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SwappedBuilds {
    /// One row per build: `name v1`, `name v2`, ... (an entrant with one build keeps its name).
    #[default]
    Separate,
    /// Only games in which every seat played its entrant's latest build count.
    Latest,
}

/// One swept parameter: a table of results per value.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Sweep {
    pub name: String,
    pub values: Vec<toml::Value>,
}

/// An entrant: one bot (`bot = "FILE:BOT?params"`), or every bot of every plugin in a folder.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EntrantSection {
    pub name: Option<String>,
    pub bot: Option<String>,
    pub folder: Option<String>,
}

/// The settings every game of the tournament is played under.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Settings {
    pub game: String,
    /// The title reports give the tournament (`name`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    pub games_per_pairing: u32,
    pub seed: u64,
    /// Host, budgets, clock, fault policy and sandbox, at the top level of the settings as
    /// they always were (the hash covers them).
    #[serde(flatten)]
    pub profile: MatchProfile,
    /// The Flip course's per-game seed parameter (`game_seed_param`), and its base.
    #[serde(default)]
    pub game_seed: Option<(String, i64)>,
    #[serde(default)]
    pub versions: SwappedBuilds,
    /// Who meets whom; round robin is left out of the plan, so its hash, and every game id, is
    /// what it was before formats existed.
    #[serde(default, skip_serializing_if = "Format::is_round_robin")]
    pub format: Format,
}

/// A parameter set: the fixed parameters with one value of each sweep.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ParamSet {
    /// `default` without sweeps, else e.g. `workers_to_base=2`.
    pub label: String,
    /// The swept values of this set, by name.
    pub swept: BTreeMap<String, String>,
    pub params: RawParams,
}

/// An entrant as declared, before its plugin is looked at.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Declared {
    Bot { name: String, spec: BotSpec },
    Folder { path: PathBuf },
}

/// A checked configuration.
#[derive(Debug, Clone)]
pub struct Config {
    pub file: PathBuf,
    pub settings: Settings,
    pub concurrency: Option<usize>,
    pub shards: Option<u32>,
    pub param_sets: Vec<ParamSet>,
    pub entrants: Vec<Declared>,
}

/// A configuration problem: the file's own (it cannot be read, or is not a configuration's
/// TOML), or one key's.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    /// The file cannot be read; the message names it.
    #[error("{0}")]
    Unreadable(String),
    /// toml's message whole: the line and column, its diagram of the line over several lines,
    /// and what is wrong (a syntax error, an unknown key, a value of the wrong type).
    #[error("{file}: {diagram}")]
    Syntax { file: String, diagram: String },
    #[error("{file}: {key}: {problem}")]
    Key {
        file: String,
        key: String,
        problem: String,
    },
}

/// A problem of one key: the key, and what is wrong with it (a [`ConfigError`] without its file).
type KeyProblem = (String, String);

fn problem(key: &str, what: impl Into<String>) -> KeyProblem {
    (key.to_string(), what.into())
}

impl Config {
    /// Reads and checks `path`. Relative plugin paths are relative to the file's folder.
    pub fn load(path: &Path, registry: &Registry) -> Result<Config, ConfigError> {
        let file = path.display().to_string();
        let fail = |(key, problem): KeyProblem| ConfigError::Key {
            file: file.clone(),
            key,
            problem,
        };
        let raw = read(path)?;
        let base = path.parent().unwrap_or(Path::new("."));
        let game = registry
            .get(&raw.game)
            .map_err(|e| fail(problem("game", e.to_string())))?;
        let games_per_pairing = games_per_pairing(&raw, game).map_err(fail)?;
        check_counts(&raw).map_err(fail)?;
        let settings = settings(&raw, game, games_per_pairing).map_err(fail)?;
        let param_sets = if game.seats() == 1 {
            puzzle_sets(&raw, game, base).map_err(fail)?
        } else if !raw.puzzles.is_empty() {
            return Err(fail(problem(
                "puzzles",
                format!(
                    "{} is not a puzzle game; its entrants play each other",
                    game.name()
                ),
            )));
        } else {
            param_sets(&raw, game, base).map_err(fail)?
        };
        let entrants = declared_entrants(&raw, base).map_err(fail)?;
        let mut settings = settings;
        settings.format = format(&raw, game, games_per_pairing, param_sets.len()).map_err(fail)?;
        Ok(Config {
            file: path.to_path_buf(),
            settings,
            concurrency: raw.concurrency,
            shards: raw.shards,
            param_sets,
            entrants,
        })
    }
}

/// The file, parsed; unknown keys are refused.
fn read(path: &Path) -> Result<ConfigFile, ConfigError> {
    let text = Input::new("tournament configuration", limits::INSTANCE)
        .read_text(path)
        .map_err(|e| ConfigError::Unreadable(e.to_string()))?;
    toml::from_str(&text).map_err(|e| ConfigError::Syntax {
        file: path.display().to_string(),
        diagram: e.to_string().trim_end().to_string(),
    })
}

fn games_per_pairing(raw: &ConfigFile, game: &dyn GameRules) -> Result<u32, KeyProblem> {
    let games_per_pairing = raw
        .games_per_pairing
        .unwrap_or(if game.seats() == 1 { 1 } else { 2 });
    if !(1..=MAX_GAMES_PER_PAIRING).contains(&games_per_pairing) {
        return Err(problem(
            "games_per_pairing",
            format!("expected 1 to {MAX_GAMES_PER_PAIRING}"),
        ));
    }
    Ok(games_per_pairing)
}

/// `concurrency` and `shards`, which are not settings of the games.
fn check_counts(raw: &ConfigFile) -> Result<(), KeyProblem> {
    if raw.concurrency == Some(0) {
        return Err(problem("concurrency", "must be at least 1"));
    }
    if raw.shards == Some(0) {
        return Err(problem("shards", "must be at least 1"));
    }
    Ok(())
}

fn settings(
    raw: &ConfigFile,
    game: &dyn GameRules,
    games_per_pairing: u32,
) -> Result<Settings, KeyProblem> {
    let game_seed = game_seed(raw, game)?;
    let default = MatchProfile::default();
    let profile = MatchProfile {
        host: parsed("host", &raw.host)?.unwrap_or(default.host),
        move_ms: raw.move_ms.unwrap_or(default.move_ms),
        start_ms: raw.start_ms.unwrap_or(default.start_ms),
        clock: parsed("clock", &raw.clock)?.unwrap_or(default.clock),
        on_fault: parsed("on_fault", &raw.on_fault)?,
        sandbox: raw.sandbox.clone(),
    };
    profile
        .check()
        .map_err(|bad| problem(bad.key, bad.problem))?;
    Ok(Settings {
        game: raw.game.clone(),
        name: raw.name.clone(),
        games_per_pairing,
        seed: raw.seed,
        profile,
        game_seed,
        versions: raw.versions,
        format: Format::RoundRobin,
    })
}

/// A mode's key, parsed if given.
fn parsed<T>(key: &str, text: &Option<String>) -> Result<Option<T>, KeyProblem>
where
    T: std::str::FromStr,
    T::Err: std::fmt::Display,
{
    text.as_deref()
        .map(str::parse)
        .transpose()
        .map_err(|e: T::Err| problem(key, e.to_string()))
}

/// The format and its keys: each key only with its format, and every format's demands of the
/// game (Swiss and SPRT pair two seats under one parameter set).
fn format(
    raw: &ConfigFile,
    game: &dyn GameRules,
    games_per_pairing: u32,
    param_sets: usize,
) -> Result<Format, KeyProblem> {
    let name = raw.format;
    let stray = [
        (
            "candidates",
            !raw.candidates.is_empty(),
            FormatName::Gauntlet,
        ),
        ("rounds", raw.rounds.is_some(), FormatName::Swiss),
        ("sprt", raw.sprt.is_some(), FormatName::Sprt),
    ];
    for (key, given, owner) in stray {
        if given && name != owner {
            return Err(problem(
                key,
                format!("belongs to `format = \"{}\"`", owner.as_str()),
            ));
        }
    }
    if name != FormatName::RoundRobin && game.seats() == 1 {
        return Err(problem(
            "format",
            format!("{} is a puzzle game: its entrants play no one", game.name()),
        ));
    }
    let paired = matches!(name, FormatName::Swiss | FormatName::Sprt);
    if paired && game.seats() != 2 {
        return Err(problem(
            "format",
            format!(
                "`{}` pairs two seats; {} has {}",
                name.as_str(),
                game.name(),
                game.seats()
            ),
        ));
    }
    let format = match name {
        FormatName::RoundRobin => Format::RoundRobin,
        FormatName::Gauntlet => {
            let mut candidates = raw.candidates.clone();
            candidates.sort();
            candidates.dedup();
            Format::Gauntlet { candidates }
        }
        FormatName::Swiss => Format::Swiss {
            rounds: raw
                .rounds
                .ok_or_else(|| problem("rounds", "a Swiss tournament needs `rounds = N`"))?,
        },
        FormatName::Sprt => Format::Sprt(raw.sprt.ok_or_else(|| {
            problem(
                "sprt",
                "an SPRT needs an `[sprt]` table with at least `elo1`",
            )
        })?),
    };
    format
        .check_settings(games_per_pairing, param_sets)
        .map_err(|(key, e)| problem(key, e))?;
    Ok(format)
}

impl FormatName {
    fn as_str(self) -> &'static str {
        match self {
            FormatName::RoundRobin => "round-robin",
            FormatName::Gauntlet => "gauntlet",
            FormatName::Swiss => "swiss",
            FormatName::Sprt => "sprt",
        }
    }
}

/// The Flip course's per-game seed parameter and its base (`game_seed_param`), if given.
fn game_seed(raw: &ConfigFile, game: &dyn GameRules) -> Result<Option<(String, i64)>, KeyProblem> {
    let Some(name) = &raw.game_seed_param else {
        return Ok(None);
    };
    // The course's seed is a Java int (`docs/games/flip.md`).
    if i32::try_from(raw.game_seed_base).is_err() {
        return Err(problem(
            "game_seed_base",
            format!(
                "expected a 32-bit integer (the course's Java int), got {}",
                raw.game_seed_base
            ),
        ));
    }
    // The parameter must exist for the game: check it with the base value.
    let mut probe: RawParams = raw
        .params
        .iter()
        .filter_map(|(k, v)| scalar(v).map(|v| (k.clone(), v)))
        .collect();
    probe.insert(name.clone(), raw.game_seed_base.to_string());
    if game.seats() == 1 {
        return Err(problem("game_seed_param", "puzzles take no per-game seed"));
    }
    game.new_session(&probe, &agon_engine::GameFiles)
        .map_err(|e| problem("game_seed_param", e.to_string()))?;
    Ok(Some((name.clone(), raw.game_seed_base)))
}

/// The `[[entrant]]` tables, their files found and their names unique.
fn declared_entrants(raw: &ConfigFile, base: &Path) -> Result<Vec<Declared>, KeyProblem> {
    let mut entrants = Vec::new();
    let mut names = Vec::new();
    for (i, e) in raw.entrants.iter().enumerate() {
        let key = |k: &str| match &e.name {
            Some(name) => format!("entrant `{name}`: {k}"),
            None => format!("entrant #{}: {k}", i + 1),
        };
        match (&e.bot, &e.folder) {
            (Some(bot), None) => {
                let (name, spec) = bot_entrant(e, bot, &raw.game, base, &key)?;
                if names.contains(&name) {
                    return Err((key("name"), format!("`{name}` is used twice")));
                }
                names.push(name.clone());
                entrants.push(Declared::Bot { name, spec });
            }
            (None, Some(folder)) => {
                let path = base.join(folder);
                if !path.is_dir() {
                    return Err((
                        key("folder"),
                        format!("folder {} not found", path.display()),
                    ));
                }
                let path = std::fs::canonicalize(&path)
                    .map_err(|e| (key("folder"), format!("{}: {e}", path.display())))?;
                entrants.push(Declared::Folder { path });
            }
            _ => {
                return Err((
                    key("bot"),
                    "give exactly one of `bot` (FILE:BOT) or `folder`".into(),
                ))
            }
        }
    }
    if entrants.is_empty() {
        return Err(problem("entrant", "no [[entrant]] given"));
    }
    Ok(entrants)
}

/// An entrant's name and bot spec, its plugin file found and made absolute (a house bot's
/// built first).
fn bot_entrant(
    e: &EntrantSection,
    bot: &str,
    game: &str,
    base: &Path,
    key: &dyn Fn(&str) -> String,
) -> Result<(String, BotSpec), KeyProblem> {
    let spec: BotSpec = bot
        .parse()
        .map_err(|e: agon_engine::BotSpecError| (key("bot"), e.to_string()))?;
    let mut spec = agon_house::resolve(spec, game).map_err(|e| (key("bot"), format!("{e:#}")))?;
    spec.file = base.join(&spec.file);
    if !spec.file.is_file() {
        return Err((
            key("bot"),
            format!("plugin file {} not found", spec.file.display()),
        ));
    }
    // Absolute, so the plan resumes from any working folder.
    spec.file = std::fs::canonicalize(&spec.file)
        .map_err(|e| (key("bot"), format!("{}: {e}", spec.file.display())))?;
    let name = e.name.clone().unwrap_or_else(|| spec.bot.clone());
    Ok((name, spec))
}

/// Puzzle games: one parameter set per instance (a built-in puzzle's name, or a file relative
/// to the configuration's folder), holding the instance text itself (so the plan's hash covers
/// the puzzles' content, and records replay without the files).
fn puzzle_sets(
    raw: &ConfigFile,
    game: &dyn GameRules,
    base: &Path,
) -> Result<Vec<ParamSet>, (String, String)> {
    if raw.puzzles.is_empty() {
        return Err((
            "puzzles".into(),
            format!(
                "{} is a puzzle game: list the instance files in `puzzles = [...]`",
                game.name()
            ),
        ));
    }
    if !raw.params.is_empty() || !raw.sweep.is_empty() {
        return Err((
            "params".into(),
            "a puzzle run takes its instances from `puzzles`, not from `params` or `sweep`".into(),
        ));
    }
    raw.puzzles
        .iter()
        .enumerate()
        .map(|(i, file)| {
            let key = format!("puzzles[{i}]");
            let path = base.join(file);
            let text = match built_in(game.game_type().instances, file) {
                Some(puzzle) => puzzle.text.to_string(),
                None => Input::new("puzzle", limits::INSTANCE)
                    .read_text(&path)
                    .map_err(|e| (key.clone(), e.to_string()))?,
            };
            let params = RawParams::from([("instance".to_string(), text)]);
            game.new_session(&params, &agon_engine::GameFiles)
                .map_err(|e| (key.clone(), format!("{}: {e}", path.display())))?;
            let name = match built_in(game.game_type().instances, file) {
                Some(puzzle) => puzzle.name.to_string(),
                None => path
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_else(|| file.clone()),
            };
            Ok(ParamSet {
                label: name.clone(),
                swept: BTreeMap::from([("puzzle".to_string(), name)]),
                params,
            })
        })
        .collect()
}

/// A TOML scalar as a parameter string.
fn scalar(value: &toml::Value) -> Option<String> {
    match value {
        toml::Value::String(s) => Some(s.clone()),
        toml::Value::Integer(i) => Some(i.to_string()),
        toml::Value::Float(f) => Some(f.to_string()),
        toml::Value::Boolean(b) => Some(b.to_string()),
        _ => None,
    }
}

/// Beyond these a configuration is a mistake (a typo of a digit), refused before anything is
/// allocated for it.
pub const MAX_GAMES_PER_PAIRING: u32 = 100_000;
pub const MAX_PARAM_SETS: usize = 10_000;

/// Every combination of sweep values over the fixed parameters, each checked by the game.
fn param_sets(
    raw: &ConfigFile,
    game: &dyn GameRules,
    base: &Path,
) -> Result<Vec<ParamSet>, (String, String)> {
    let mut fixed = RawParams::new();
    for (key, value) in &raw.params {
        let text = scalar(value).ok_or_else(|| {
            (
                format!("params.{key}"),
                "expected a string, number or boolean".to_string(),
            )
        })?;
        fixed.insert(key.clone(), text);
    }
    // Counted before the product is built: a few long sweeps multiply beyond memory.
    let product = raw
        .sweep
        .iter()
        .try_fold(1usize, |n, s| n.checked_mul(s.values.len()))
        .filter(|&n| n <= MAX_PARAM_SETS);
    if product.is_none() {
        return Err((
            "sweep".into(),
            format!("the sweeps make more than {MAX_PARAM_SETS} parameter sets"),
        ));
    }
    let mut sets = vec![(BTreeMap::<String, String>::new(), fixed)];
    for (i, sweep) in raw.sweep.iter().enumerate() {
        let key = format!("sweep[{i}] ({})", sweep.name);
        if sweep.values.is_empty() {
            return Err((key, "`values` is empty".into()));
        }
        if raw.sweep[..i].iter().any(|s| s.name == sweep.name) {
            return Err((key, "this parameter is swept twice".into()));
        }
        let mut next = Vec::new();
        for (swept, params) in &sets {
            for value in &sweep.values {
                let text = scalar(value).ok_or_else(|| {
                    (
                        key.clone(),
                        "values must be strings, numbers or booleans".to_string(),
                    )
                })?;
                let mut swept = swept.clone();
                swept.insert(sweep.name.clone(), text.clone());
                let mut params = params.clone();
                params.insert(sweep.name.clone(), text);
                next.push((swept, params));
            }
        }
        sets = next;
    }
    sets.into_iter()
        .map(|(swept, mut params)| {
            // File parameters (a ReversiXT map) are relative to the configuration's folder,
            // like the entrants' plugin files; a built-in map's name is no path.
            for key in game.file_params() {
                if let Some(value) = params.get_mut(*key) {
                    if built_in(game.game_type().instances, value).is_none() {
                        *value = base.join(&*value).display().to_string();
                    }
                }
            }
            game.new_session(&params, &agon_engine::GameFiles)
                .map_err(|e| {
                    let key = if swept.is_empty() {
                        "params".to_string()
                    } else {
                        format!("params/sweep ({})", label(&swept))
                    };
                    (key, e.to_string())
                })?;
            Ok(ParamSet {
                label: label(&swept),
                swept,
                params,
            })
        })
        .collect()
}

fn label(swept: &BTreeMap<String, String>) -> String {
    if swept.is_empty() {
        "default".into()
    } else {
        swept
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect::<Vec<_>>()
            .join(" ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn load(text: &str) -> Result<Config, ConfigError> {
        let dir = std::env::temp_dir().join(format!("agon-config-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("lib.so"), b"\x7fELF").unwrap();
        let path = dir.join(format!("t{}.toml", text.len()));
        std::fs::write(&path, text).unwrap();
        Config::load(&path, &Registry::builtin())
    }

    const ENTRANTS: &str =
        "[[entrant]]\nbot = \"lib.so:a\"\n[[entrant]]\nname = \"b\"\nbot = \"lib.so:b\"\n";

    #[test]
    fn a_full_config_loads() {
        let c = load(&format!(
            "game = \"breakthrough\"\ngames_per_pairing = 4\nseed = 3\nhost = \"thread\"\n\
             [params]\nrows = 8\n[[sweep]]\nname = \"workers_to_base\"\nvalues = [1, 2]\n\
             [[sweep]]\nname = \"first\"\nvalues = [\"white\", \"black\"]\n{ENTRANTS}"
        ))
        .unwrap();
        assert_eq!(c.param_sets.len(), 4);
        assert_eq!(c.param_sets[0].label, "first=white workers_to_base=1");
        assert_eq!(c.settings.profile.host, agon_engine::HostKind::Thread);
        assert_eq!(c.entrants.len(), 2);
    }

    #[test]
    fn errors_name_the_key() {
        let cases = [
            ("game = \"go\"\n", "game: unknown game `go`"),
            (
                "game = \"breakthrough\"\ncolour = 1\n",
                "unknown field `colour`",
            ),
            (
                "game = \"breakthrough\"\nhost = \"vm\"\n",
                "host: unknown host `vm`",
            ),
            (
                "game = \"breakthrough\"\non_fault = \"cry\"\n",
                "on_fault: unknown fault policy",
            ),
            (
                "game = \"breakthrough\"\n[params]\nrows = \"x\"\n",
                "params: parameter `rows`",
            ),
            (
                "game = \"breakthrough\"\n[params]\nspeed = 1\n",
                "unknown parameter `speed`",
            ),
            (
                "game = \"breakthrough\"\n[[sweep]]\nname = \"rows\"\nvalues = [8, 99]\n",
                "params/sweep (rows=99)",
            ),
            (
                "game = \"breakthrough\"\n[[entrant]]\nbot = \"missing.so:x\"\n",
                "entrant #1: bot: plugin file",
            ),
            (
                "game = \"breakthrough\"\n[[entrant]]\nname = \"z\"\nbot = \"lib.so\"\n",
                "entrant `z`: bot: bot spec",
            ),
            (
                "game = \"breakthrough\"\n[[entrant]]\nname = \"z\"\n",
                "give exactly one of",
            ),
            (
                "game = \"breakthrough\"\n[[entrant]]\nfolder = \"nowhere\"\n",
                "entrant #1: folder: folder",
            ),
            (
                "game = \"breakthrough\"\ngames_per_pairing = 0\n",
                "games_per_pairing: expected 1 to 100000",
            ),
        ];
        for (text, message) in cases {
            let text = if text.contains("[[entrant]]") {
                text.to_string()
            } else {
                format!("{text}{ENTRANTS}")
            };
            let e = load(&text).unwrap_err().to_string();
            assert!(e.contains(message), "{text:?}\n=> {e}");
        }
        let e = load(&format!(
            "game = \"breakthrough\"\n{ENTRANTS}[[entrant]]\nname = \"b\"\nbot = \"lib.so:c\"\n"
        ))
        .unwrap_err()
        .to_string();
        assert!(e.contains("`b` is used twice"), "{e}");
    }

    /// toml's own message, whose diagram points at the line, stays whole after the file name.
    #[test]
    fn a_toml_error_keeps_its_diagram_of_the_line() {
        let e = load("game = \"breakthrough\"\nseed = [1,\n").unwrap_err();
        assert!(matches!(e, ConfigError::Syntax { .. }), "{e:?}");
        let e = e.to_string();
        let file = format!("t{}.toml", "game = \"breakthrough\"\nseed = [1,\n".len());
        assert!(
            e.contains(&format!("{file}: TOML parse error at line 2, column")),
            "{e}"
        );
        assert!(e.contains("\n2 | seed = [1,\n"), "{e}");
        assert!(!e.contains("(syntax)"), "{e}");
    }

    #[test]
    fn an_unreadable_file_is_named_once() {
        let missing = std::env::temp_dir().join("agon-config-test-no-such.toml");
        let e = Config::load(&missing, &Registry::builtin())
            .unwrap_err()
            .to_string();
        assert_eq!(e.matches("agon-config-test-no-such.toml").count(), 1, "{e}");
        assert!(!e.contains("(file)"), "{e}");
    }
}
