//! What the ladder shows: `standings.json` (for programs) and `ladder.html` (for people; it
//! reloads itself), both rewritten atomically after every game and every build event.
//! Every figure is per build, so a team sees how each of its builds fared.

use super::builds::{Slots, Status};
use super::entry::LadderGame;
use super::ratings::{Rated, Ratings, CONSERVATIVE_SIGMAS};
use crate::grading::html_escape::escape;
use agon_engine::output_file;
use agon_games::contract::RawParams;
use serde::Serialize;
use std::collections::{BTreeMap, VecDeque};
use std::fmt::Write as _;
use std::path::Path;

pub const JSON: &str = "standings.json";
pub const HTML: &str = "ladder.html";

/// Games and refusals shown in full.
const LATEST: usize = 20;
/// How often the page reloads itself (seconds).
const REFRESH_SECONDS: u32 = 5;

#[derive(Debug, Clone, Default, Serialize)]
pub struct BuildStats {
    pub sha256: String,
    pub plugin_version: String,
    pub bot: String,
    pub games: u64,
    /// Rank 1 alone.
    pub wins: u64,
    /// Rank 1 shared.
    pub draws: u64,
    pub losses: u64,
    /// Points (1 / 0.5 / 0 in two-seat games).
    pub points: f64,
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

pub struct Standings {
    game: String,
    params: RawParams,
    games: u64,
    builds: BTreeMap<(String, u32), BuildStats>,
    latest: VecDeque<LadderGame>,
    refused: VecDeque<RefusedBuild>,
}

impl Standings {
    pub fn new(game: &str, params: &RawParams) -> Standings {
        Standings {
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
        let leaders = game.ranks.iter().filter(|&&r| r == 1).count();
        for (seat, build) in game.seats.iter().enumerate() {
            let stats = self
                .builds
                .entry((build.slot.clone(), build.version))
                .or_default();
            stats.sha256.clone_from(&build.sha256);
            stats.plugin_version.clone_from(&build.plugin_version);
            stats.bot.clone_from(&build.bot);
            stats.games += 1;
            match game.ranks.get(seat) {
                Some(1) if leaders == 1 => stats.wins += 1,
                Some(1) => stats.draws += 1,
                _ => stats.losses += 1,
            }
            stats.points += game.scores.get(seat).copied().unwrap_or(0.0);
            stats.faults += game.faults.iter().filter(|f| f.seat == seat).count() as u64;
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
    fn rows<'a>(&'a self, slots: &Slots, ratings: &Ratings) -> Vec<BuildRow<'a>> {
        static NO_GAMES: std::sync::OnceLock<BuildStats> = std::sync::OnceLock::new();
        let mut rows: Vec<BuildRow> = self
            .builds
            .iter()
            .map(|((slot, version), stats)| BuildRow {
                slot: slot.clone(),
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
    pub fn write(&self, dir: &Path, slots: &Slots, ratings: &Ratings) -> Result<(), String> {
        let json = serde_json::to_string_pretty(&self.to_json(slots, ratings))
            .expect("standings serialize");
        let html = self.html(slots, ratings);
        for (name, bytes) in [(JSON, json.as_bytes()), (HTML, html.as_bytes())] {
            let path = dir.join(name);
            output_file::replace(&path, bytes).map_err(|e| format!("{}: {e}", path.display()))?;
        }
        Ok(())
    }

    fn html(&self, slots: &Slots, ratings: &Ratings) -> String {
        let mut page = String::new();
        let title = format!("Agon ladder: {}", self.game);
        let params: Vec<String> = self
            .params
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect();
        let _ = write!(
            page,
            "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
             <meta http-equiv=\"refresh\" content=\"{REFRESH_SECONDS}\">\
             <title>{}</title><style>{STYLE}</style></head><body>\n<h1>{}</h1>\n\
             <p>{} games{}. Updated <time data-ms=\"{ms}\">{ms}</time>; this page reloads \
             every {REFRESH_SECONDS} s.</p>\n",
            escape(&title),
            escape(&title),
            self.games,
            if params.is_empty() {
                String::new()
            } else {
                format!(", parameters {}", escape(&params.join(" ")))
            },
            ms = super::events::unix_ms(),
        );
        page.push_str(
            "<h2>Ratings per build</h2>\n<p>Weng-Lin ratings: mu is the estimated strength, \
             sigma its uncertainty; builds are ranked by the conservative rating \
             mu&nbsp;&minus;&nbsp;3&nbsp;sigma, which few lucky games cannot raise. \
             W/D/L: games won alone, won shared, not won.</p>\n<table><tr><th>#</th>\
             <th>slot</th><th>build</th><th>bot</th><th>plugin version</th><th>sha256</th>\
             <th>mu</th><th>sigma</th><th>rating</th><th>games</th><th>W/D/L</th>\
             <th>points per game</th><th>faults</th></tr>\n",
        );
        for (i, row) in self.rows(slots, ratings).iter().enumerate() {
            let per_game = if row.stats.games == 0 {
                "-".to_string()
            } else {
                format!("{:.2}", row.stats.points / row.stats.games as f64)
            };
            let _ = writeln!(
                page,
                "<tr{}><td>{}</td><td>{}</td><td>v{}{}</td><td>{}</td><td>{}</td>\
                 <td><code>{}</code></td><td>{:.2}</td><td>{:.2}</td><td>{:.2}</td>\
                 <td>{}</td><td>{}/{}/{}</td><td>{per_game}</td><td>{}</td></tr>",
                if row.current { "" } else { " class=\"old\"" },
                i + 1,
                escape(&row.slot),
                row.version,
                if row.current { " (current)" } else { "" },
                escape(&row.stats.bot),
                escape(&row.stats.plugin_version),
                escape(row.stats.sha256.get(..12).unwrap_or(&row.stats.sha256)),
                row.rating.mu,
                row.rating.sigma,
                row.rating.conservative,
                row.stats.games,
                row.stats.wins,
                row.stats.draws,
                row.stats.losses,
                row.stats.faults,
            );
        }
        page.push_str("</table>\n<h2>Slots</h2>\n<ul>\n");
        for name in slots.names() {
            let _ = writeln!(
                page,
                "<li>{}: {}</li>",
                escape(name),
                match (slots.status(name), slots.current(name)) {
                    (Status::Active, Some(b)) => format!("plays build v{}", b.version),
                    (Status::Retired, _) => "retired (its file was removed)".into(),
                    _ => "waiting for a build that passes validation".into(),
                }
            );
        }
        page.push_str(
            "</ul>\n<h2>Latest games</h2>\n<table><tr><th>game</th><th>seats</th>\
             <th>points</th><th>end</th><th>plies</th><th>faults</th></tr>\n",
        );
        for game in &self.latest {
            let seats: Vec<String> = game
                .seats
                .iter()
                .map(|s| escape(&format!("{} v{}", s.slot, s.version)))
                .collect();
            let points: Vec<String> = game.scores.iter().map(|s| s.to_string()).collect();
            let faults: Vec<String> = game
                .faults
                .iter()
                .map(|f| escape(&format!("seat {}: {}", f.seat, f.cause)))
                .collect();
            let _ = writeln!(
                page,
                "<tr><td><a href=\"records/{id}.json\">{id}</a></td><td>{}</td><td>{}</td>\
                 <td>{}</td><td>{}</td><td>{}</td></tr>",
                seats.join(" &middot; "),
                points.join(" : "),
                escape(&game.reason),
                game.moves,
                faults.join("; "),
                id = escape(&game.id),
            );
        }
        page.push_str(
            "</table>\n<h2>Refused builds</h2>\n<table><tr><th>when</th><th>slot</th>\
             <th>sha256</th><th>reason</th></tr>\n",
        );
        for r in &self.refused {
            let sha = r.sha256.as_deref().unwrap_or("-");
            let _ = writeln!(
                page,
                "<tr><td><time data-ms=\"{ms}\">{ms}</time></td><td>{}</td><td><code>{}</code>\
                 </td><td>{}</td></tr>",
                escape(&r.slot),
                escape(sha.get(..12).unwrap_or(sha)),
                escape(&r.reason),
                ms = r.unix_ms,
            );
        }
        page.push_str(
            "</table>\n<script>for (const t of document.querySelectorAll('time[data-ms]')) \
             t.textContent = new Date(Number(t.dataset.ms)).toLocaleString();</script>\n\
             </body></html>\n",
        );
        page
    }
}

const STYLE: &str = "body{font-family:system-ui,sans-serif;margin:2em;max-width:80em}\
table{border-collapse:collapse;margin-bottom:1.5em}td,th{border:1px solid #ccc;\
padding:.25em .6em;text-align:left}th{background:#f3f3f3}tr.old{color:#777}";
