//! A team as its page and `GET /api/teams/NAME` show it. Anyone sees its rating and the builds
//! that played, with their ratings, and its latest games; the team itself (signed in, or with
//! its token) sees every upload too: file names, sizes, hashes, verdicts and their reasons.

use super::refusal::Refusal;
use super::scrub::without_paths;
use super::state::Portal;
use super::store::{BuildRow, BuildStatus};
use super::team_name::TeamName;
use agon_ladder::entry::LadderGame;
use serde::Serialize;
use serde_json::Value;

#[derive(Debug, Clone, Serialize)]
pub struct Rating {
    pub mu: f64,
    pub sigma: f64,
    /// mu - 3 sigma: what the standings rank by.
    pub conservative: f64,
    pub games: u64,
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
}

#[derive(Debug, Serialize)]
pub struct BuildView {
    pub number: u32,
    pub status: BuildStatus,
    /// The ladder's version number, once accepted.
    pub version: Option<u32>,
    /// Whether new games start with it.
    pub current: bool,
    pub rating: Option<Rating>,
    /// What only the team sees.
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    pub details: Option<BuildDetails>,
}

/// An upload as its team sees it.
#[derive(Debug, Serialize)]
pub struct BuildDetails {
    pub sha256: String,
    pub bytes: u64,
    pub file_name: String,
    pub uploaded_ms: u64,
    /// The refusal, or a note on the acceptance, without the server's paths.
    pub message: Option<String>,
    pub judged_ms: Option<u64>,
    /// What the team page says of it.
    pub verdict: String,
}

#[derive(Debug, Serialize)]
pub struct GameView {
    pub id: String,
    pub viewer: String,
    pub record: String,
    /// Every seat: team (or file) and build version.
    pub seats: Vec<String>,
    /// This team's rank (1 best) in it.
    pub rank: Option<usize>,
    pub points: Vec<String>,
    pub reason: String,
    pub finished_unix_ms: u64,
}

#[derive(Debug, Serialize)]
pub struct TeamView {
    pub team: String,
    pub slot: String,
    /// The rating of the build that plays now.
    pub rating: Option<Rating>,
    /// Every upload for the team itself; the builds that played for anyone else.
    pub builds: Vec<BuildView>,
    pub latest_games: Vec<GameView>,
}

impl TeamView {
    /// The team as anyone sees it, or (`own`) as the team itself does.
    pub fn of(portal: &Portal, team: &TeamName, own: bool) -> Result<TeamView, Refusal> {
        let slot = team.slot();
        let standings = portal.standings();
        let rows = standings
            .as_ref()
            .and_then(|s| s["builds"].as_array().cloned())
            .unwrap_or_default();
        let row_of = |version: u32| {
            rows.iter().find(|r| {
                r["slot"].as_str() == Some(&slot) && r["version"].as_u64() == Some(version.into())
            })
        };
        let builds: Vec<BuildView> = portal
            .store
            .builds(team.as_str())
            .map_err(Refusal::internal)?
            .into_iter()
            .filter(|build| own || build.status == BuildStatus::Accepted)
            .map(|build| {
                let row = build.version.and_then(row_of);
                let current = row.is_some_and(|r| r["current"].as_bool() == Some(true));
                BuildView {
                    number: build.number,
                    status: build.status,
                    version: build.version,
                    current,
                    rating: row.and_then(rating),
                    details: own.then(|| details(build, current)),
                }
            })
            .collect();
        let rating = rows
            .iter()
            .find(|r| r["slot"].as_str() == Some(&slot) && r["current"].as_bool() == Some(true))
            .and_then(rating);
        let latest_games = portal
            .news()
            .latest_games(team)
            .iter()
            .map(|game| game_view(game, &slot))
            .collect();
        Ok(TeamView {
            team: team.to_string(),
            slot,
            rating,
            builds,
            latest_games,
        })
    }
}

fn details(build: BuildRow, current: bool) -> BuildDetails {
    let verdict = super::verdict::sentence(&build, current);
    BuildDetails {
        verdict: without_paths(&verdict),
        message: build.message.as_deref().map(without_paths),
        sha256: build.sha256,
        bytes: build.bytes,
        file_name: build.file_name,
        uploaded_ms: build.uploaded_ms,
        judged_ms: build.judged_ms,
    }
}

/// A build's rating from its row of `standings.json`.
pub fn rating(row: &Value) -> Option<Rating> {
    let number = |key: &str| row[key].as_f64();
    let count = |key: &str| row[key].as_u64().unwrap_or(0);
    Some(Rating {
        mu: number("mu")?,
        sigma: number("sigma")?,
        conservative: number("conservative")?,
        games: count("games"),
        wins: count("wins"),
        draws: count("draws"),
        losses: count("losses"),
    })
}

/// Where the viewer shows game `id`, and where its record is downloaded.
pub fn game_links(id: &str) -> (String, String) {
    (
        format!("/{}", agon_play::view::game_files::link(id)),
        format!("/records/{id}.json"),
    )
}

/// One game as a team's page lists it; `slot` is the team's.
pub fn game_view(game: &LadderGame, slot: &str) -> GameView {
    let (viewer, record) = game_links(&game.id);
    let seat = game.seats.iter().position(|s| s.slot == slot);
    GameView {
        id: game.id.clone(),
        viewer,
        record,
        seats: game
            .seats
            .iter()
            .map(|s| format!("{} v{}", shown_team(&s.slot), s.version))
            .collect(),
        rank: seat.and_then(|s| game.result.ranks.get(s).copied()),
        points: game.result.scores.iter().map(|s| s.to_string()).collect(),
        reason: game.result.reason.clone(),
        finished_unix_ms: game.finished_unix_ms,
    }
}

/// A slot as pages name it: its team's name, or the file's name for a slot of no team.
pub fn shown_team(slot: &str) -> String {
    TeamName::of_slot(slot).map_or_else(|| slot.to_string(), |t| t.to_string())
}
