//! The ladder's board, what it shows: `standings.json` (for programs) and `ladder.html` (for people; it
//! reloads itself), both rewritten atomically after every game and every build event.
//! Every figure is per build, so a team sees how each of its builds fared.

use super::builds::{Slots, Status};
use super::entry::LadderGame;
use agon_engine::{output_file, OnPath, PathError};
use agon_games::contract::RawParams;
use agon_play::standings::weng_lin::{Rated, Ratings, CONSERVATIVE_SIGMAS};
use agon_play::standings::Tally;
use agon_play::view::game_files;
use minijinja::{context, Value};
use serde::Serialize;
use std::collections::{BTreeMap, VecDeque};
use std::path::Path;

pub const JSON: &str = "standings.json";
pub const HTML: &str = "ladder.html";

/// Games and refusals shown in full.
const LATEST: usize = 20;
/// How often the page reloads itself (seconds).
const REFRESH_SECONDS: u32 = 5;

#[derive(Debug, Clone, Default, Serialize)]
pub struct BuildStats {
    /// The team its plugin names (a row's `team`, so not written twice).
    #[serde(skip)]
    pub team: String,
    pub sha256: String,
    pub plugin_version: String,
    pub bot: String,
    /// Its games: a win is rank 1 alone, a draw a shared rank 1.
    #[serde(flatten)]
    pub tally: Tally,
    pub faults: u64,
}

#[derive(Debug, Clone, Serialize)]
pub struct RefusedBuild {
    pub unix_ms: u64,
    pub slot: String,
    pub sha256: Option<String>,
    pub reason: String,
}

#[derive(Debug, Clone, Serialize)]
struct BuildRow<'a> {
    slot: String,
    /// Empty for builds of journal lines written before team names were kept.
    #[serde(skip_serializing_if = "str::is_empty")]
    team: &'a str,
    version: u32,
    current: bool,
    #[serde(flatten)]
    rating: Rated,
    #[serde(flatten)]
    stats: &'a BuildStats,
}

#[derive(Debug, Clone, Serialize)]
struct SlotRow {
    slot: String,
    status: Status,
    current_version: Option<u32>,
}

pub struct Board {
    game: String,
    params: RawParams,
    games: u64,
    builds: BTreeMap<(String, u32), BuildStats>,
    latest: VecDeque<LadderGame>,
    refused: VecDeque<RefusedBuild>,
}

impl Board {
    pub fn new(game: &str, params: &RawParams) -> Board {
        Board {
            game: game.to_string(),
            params: params.clone(),
            games: 0,
            builds: BTreeMap::new(),
            latest: VecDeque::new(),
            refused: VecDeque::new(),
        }
    }

    pub fn games(&self) -> u64 {
        self.games
    }

    pub fn record(&mut self, game: &LadderGame) {
        self.games += 1;
        for (seat, build) in game.seats.iter().enumerate() {
            let stats = self
                .builds
                .entry((build.slot.clone(), build.version))
                .or_default();
            stats.team.clone_from(&build.team);
            stats.sha256.clone_from(&build.sha256);
            stats.plugin_version.clone_from(&build.plugin_version);
            stats.bot.clone_from(&build.bot);
            stats.tally.add(&game.result, seat);
            stats.faults += game.result.faults.iter().filter(|f| f.seat == seat).count() as u64;
        }
        if self.latest.len() == LATEST {
            self.latest.pop_back();
        }
        self.latest.push_front(game.clone());
    }

    pub fn refused(&mut self, refused: RefusedBuild) {
        if self.refused.len() == LATEST {
            self.refused.pop_back();
        }
        self.refused.push_front(refused);
    }

    /// Builds that have played, best conservative rating first; current builds that have not
    /// played yet follow at their prior.
    fn rows<'a>(&'a self, slots: &'a Slots, ratings: &Ratings) -> Vec<BuildRow<'a>> {
        static NO_GAMES: std::sync::OnceLock<BuildStats> = std::sync::OnceLock::new();
        let mut rows: Vec<BuildRow> = self
            .builds
            .iter()
            .map(|((slot, version), stats)| BuildRow {
                slot: slot.clone(),
                team: &stats.team,
                version: *version,
                current: slots.current(slot).is_some_and(|b| b.version == *version),
                rating: ratings.of(slot, *version),
                stats,
            })
            .collect();
        for build in slots.active() {
            if !self
                .builds
                .contains_key(&(build.slot.clone(), build.version))
            {
                rows.push(BuildRow {
                    slot: build.slot.clone(),
                    team: &build.team,
                    version: build.version,
                    current: true,
                    rating: ratings.of(&build.slot, build.version),
                    stats: NO_GAMES.get_or_init(BuildStats::default),
                });
            }
        }
        rows.sort_by(|a, b| {
            b.rating
                .conservative
                .total_cmp(&a.rating.conservative)
                .then_with(|| a.slot.cmp(&b.slot))
                .then(a.version.cmp(&b.version))
        });
        rows
    }

    pub fn to_json(&self, slots: &Slots, ratings: &Ratings) -> serde_json::Value {
        let slot_rows: Vec<SlotRow> = slots
            .names()
            .map(|name| SlotRow {
                slot: name.to_string(),
                status: slots.status(name),
                current_version: slots.current(name).map(|b| b.version),
            })
            .collect();
        serde_json::json!({
            "game": self.game,
            "params": self.params,
            "games": self.games,
            "updated_unix_ms": super::events::unix_ms(),
            "rating": {
                "system": "weng-lin",
                "conservative": format!("mu - {CONSERVATIVE_SIGMAS} sigma"),
            },
            "slots": slot_rows,
            "builds": self.rows(slots, ratings),
            "latest_games": self.latest,
            "refused": self.refused,
        })
    }

    /// Writes `standings.json` and `ladder.html` into `dir`.
    pub fn write(&self, dir: &Path, slots: &Slots, ratings: &Ratings) -> Result<(), PathError> {
        let json = serde_json::to_string_pretty(&self.to_json(slots, ratings))
            .expect("standings serialize");
        let html = self.html(dir, slots, ratings);
        for (name, bytes) in [(JSON, json.as_bytes()), (HTML, html.as_bytes())] {
            let path = dir.join(name);
            output_file::replace(&path, bytes).on_path(&path)?;
        }
        Ok(())
    }

    /// The latest games, newest first.
    pub fn latest(&self) -> impl Iterator<Item = &LadderGame> {
        self.latest.iter()
    }

    /// The team of `slot`'s current build, else of its latest build that played, else (no team
    /// known) the slot's file name.
    fn team_of<'a>(&'a self, slots: &'a Slots, slot: &'a str) -> &'a str {
        let builds = (slot.to_string(), 0)..=(slot.to_string(), u32::MAX);
        slots
            .current(slot)
            .map(|b| b.team.as_str())
            .or_else(|| {
                self.builds
                    .range(builds)
                    .next_back()
                    .map(|(_, s)| s.team.as_str())
            })
            .filter(|team| !team.is_empty())
            .unwrap_or(slot)
    }

    /// The page; a game links to its viewer when its data file is in `dir`.
    fn html(&self, dir: &Path, slots: &Slots, ratings: &Ratings) -> String {
        let params: Vec<String> = self
            .params
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect();
        let rows: Vec<Value> = self.rows(slots, ratings).iter().map(row_view).collect();
        let slots: Vec<Value> = slots
            .names()
            .map(|name| {
                let state = match (slots.status(name), slots.current(name)) {
                    (Status::Active, Some(b)) => format!("plays build v{}", b.version),
                    (Status::Retired, _) => "retired (its file was removed)".into(),
                    _ => "waiting for a build that passes validation".into(),
                };
                context! { name, team => self.team_of(slots, name), state }
            })
            .collect();
        let latest: Vec<Value> = self.latest.iter().map(|g| game_view(dir, g)).collect();
        let refused: Vec<Value> = self
            .refused
            .iter()
            .map(|r| {
                let sha = r.sha256.as_deref().unwrap_or("-");
                context! {
                    unix_ms => r.unix_ms,
                    slot => r.slot,
                    sha256 => sha.get(..12).unwrap_or(sha),
                    reason => r.reason,
                }
            })
            .collect();
        agon_play::pages::render(
            "ladder.html",
            context! {
                title => title(&self.game),
                engine => env!("CARGO_PKG_VERSION"),
                refresh_seconds => REFRESH_SECONDS,
                games => self.games,
                params => params.join(" "),
                updated_ms => super::events::unix_ms(),
                rows,
                slots,
                latest,
                refused,
            },
        )
        .expect("the ladder page renders")
    }
}

/// The title of the page of a ladder of `game` (and of its games' viewers).
pub fn title(game: &str) -> String {
    format!("Agon ladder: {game}")
}

/// One build's row of the ratings table, its figures as the page prints them.
fn row_view(row: &BuildRow<'_>) -> Value {
    let stats = row.stats;
    let tally = stats.tally;
    let per_game = if tally.games == 0 {
        "-".to_string()
    } else {
        format!("{:.2}", tally.points / tally.games as f64)
    };
    context! {
        slot => row.slot,
        team => if row.team.is_empty() { &row.slot } else { row.team },
        version => row.version,
        current => row.current,
        bot => stats.bot,
        plugin_version => stats.plugin_version,
        sha256 => stats.sha256.get(..12).unwrap_or(&stats.sha256),
        mu => format!("{:.2}", row.rating.mu),
        sigma => format!("{:.2}", row.rating.sigma),
        rating => format!("{:.2}", row.rating.conservative),
        games => tally.games,
        wins => tally.wins,
        draws => tally.draws,
        losses => tally.losses,
        per_game,
        faults => stats.faults,
    }
}

/// One of the latest games, as the page lists it: its viewer's address when `dir` holds the
/// game's data file.
fn game_view(dir: &Path, game: &LadderGame) -> Value {
    let seats: Vec<Value> = game
        .seats
        .iter()
        .map(|s| context! { team => s.team_or_slot(), slot => s.slot, version => s.version })
        .collect();
    let viewer = game_files::has_data(dir, &game.id).then(|| game_files::link(&game.id));
    let points: Vec<String> = game.result.scores.iter().map(|s| s.to_string()).collect();
    let faults: Vec<String> = game
        .result
        .faults
        .iter()
        .map(|f| format!("seat {}: {}", f.seat, f.cause))
        .collect();
    context! { id => game.id, viewer, seats, points, reason => game.result.reason, moves => game.result.moves, faults }
}
