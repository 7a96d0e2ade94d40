//! The pages: the standings, a page per team (what anyone may see, and for the team itself
//! its uploads and the upload form), and the ladder's game viewer with each game's data and
//! record. Everything shown passes through the template engine's escaping; a file is served
//! only by a name that matches a game's id, never by a path taken from the request.

use super::auth::{acts_for, session, team_of_path};
use super::csp::{page_policy, secure, DATA_POLICY};
use super::refusal::Refusal;
use super::scrub::without_paths;
use super::state::Portal;
use super::team_view::{game_view, rating, shown_team, TeamView};
use super::upload::{take_upload, Form};
use agon_play::record_files;
use axum::body::Bytes;
use axum::extract::{Path, Request, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{Html, IntoResponse, Redirect, Response};
use minijinja::context;
use std::sync::Arc;

type Shared = State<Arc<Portal>>;

/// How often the standings page reloads itself (seconds).
const REFRESH_SECONDS: u32 = 5;

/// A page, with its policy.
pub fn page(status: StatusCode, template: &str, context: minijinja::Value) -> Response {
    let body = match agon_play::pages::render(template, context) {
        Ok(body) => body,
        Err(e) => return Refusal::internal(format!("{template}: {e}")).into_page(None),
    };
    let mut response = (status, Html(body)).into_response();
    secure(response.headers_mut(), page_policy());
    response
}

impl Refusal {
    /// The refusal as a page; `team` links back to the team's page.
    pub fn into_page(self, team: Option<&str>) -> Response {
        let title = self
            .status
            .canonical_reason()
            .unwrap_or("Refused")
            .to_string();
        let context = context! {
            title,
            engine => env!("CARGO_PKG_VERSION"),
            message => self.message,
            team,
        };
        let body = agon_play::pages::render("portal_message.html", context)
            .unwrap_or_else(|_| "the portal could not render its message".into());
        let mut response = (self.status, Html(body)).into_response();
        secure(response.headers_mut(), page_policy());
        response
    }
}

pub async fn standings(State(portal): Shared) -> Response {
    let standings = portal.standings().unwrap_or_default();
    let rows: Vec<minijinja::Value> = standings["builds"]
        .as_array()
        .map(Vec::as_slice)
        .unwrap_or_default()
        .iter()
        .map(|row| {
            let slot = row["slot"].as_str().unwrap_or("");
            let rated = rating(row);
            context! {
                team => shown_team(slot),
                link => super::team_name::TeamName::of_slot(slot).map(|t| format!("/teams/{t}")),
                version => row["version"].as_u64(),
                current => row["current"].as_bool(),
                bot => row["bot"].as_str(),
                rating => rated.as_ref().map(|r| format!("{:.2}", r.conservative)),
                mu => rated.as_ref().map(|r| format!("{:.2}", r.mu)),
                sigma => rated.as_ref().map(|r| format!("{:.2}", r.sigma)),
                games => rated.as_ref().map(|r| r.games),
                wins => rated.as_ref().map(|r| r.wins),
                draws => rated.as_ref().map(|r| r.draws),
                losses => rated.as_ref().map(|r| r.losses),
                faults => row["faults"].as_u64(),
            }
        })
        .collect();
    let latest: Vec<_> = standings["latest_games"]
        .as_array()
        .map(Vec::as_slice)
        .unwrap_or_default()
        .iter()
        .filter_map(|g| serde_json::from_value(g.clone()).ok())
        .map(|g| game_view(&g, ""))
        .collect();
    let teams: Vec<minijinja::Value> = match portal.store.teams() {
        Ok(teams) => teams
            .iter()
            .map(|t| context! { name => t.name, revoked => t.revoked_ms.is_some() })
            .collect(),
        Err(e) => return Refusal::internal(e).into_page(None),
    };
    page(
        StatusCode::OK,
        "portal_standings.html",
        context! {
            title => format!("Agon portal: {}", portal.game),
            engine => env!("CARGO_PKG_VERSION"),
            refresh_seconds => REFRESH_SECONDS,
            games => standings["games"].as_u64().unwrap_or(0),
            rows, teams, latest,
        },
    )
}

/// The team's page: as anyone sees it, or as the team itself does once signed in.
pub async fn team(State(portal): Shared, Path(name): Path<String>, request: Request) -> Response {
    let team = match team_of_path(&portal, &name) {
        Ok(team) => team,
        Err(refusal) => return refusal.into_page(None),
    };
    let (headers, extensions) = (request.headers(), request.extensions());
    let own = acts_for(&portal, &team, headers, extensions);
    let view = match TeamView::of(&portal, &team, own) {
        Ok(view) => view,
        Err(refusal) => return refusal.into_page(None),
    };
    let attempts: Vec<(u64, String, String)> = match own {
        true => portal
            .store
            .upload_log(team.as_str(), 10)
            .unwrap_or_default(),
        false => Vec::new(),
    };
    let attempts: Vec<_> = attempts
        .into_iter()
        .map(|(at, outcome, detail)| (at, outcome, without_paths(&detail)))
        .collect();
    let csrf = own
        .then(|| session(&portal, headers))
        .flatten()
        .map(|s| s.csrf(&portal.key));
    let builds: Vec<minijinja::Value> = view
        .builds
        .iter()
        .map(|b| {
            let mut shown = minijinja::Value::from_serialize(b);
            if let Some(rating) = &b.rating {
                let conservative = format!("{:.2}", rating.conservative);
                shown = context! { rating => conservative, games => rating.games, ..shown };
            }
            shown
        })
        .collect();
    let validating = own
        && view
            .builds
            .iter()
            .any(|b| b.status == super::store::BuildStatus::Validating);
    page(
        StatusCode::OK,
        "portal_team.html",
        context! {
            title => format!("Team {}", view.team),
            engine => env!("CARGO_PKG_VERSION"),
            team => view.team, slot => view.slot, own, csrf,
            rating => view.rating.as_ref().map(|r| context! {
                conservative => format!("{:.2}", r.conservative), mu => format!("{:.2}", r.mu),
                sigma => format!("{:.2}", r.sigma), games => r.games,
            }),
            builds, validating,
            latest_games => minijinja::Value::from_serialize(&view.latest_games),
            attempts,
            max_mb => portal.limits.settings.max_bytes >> 20,
            per_hour => portal.limits.settings.per_hour,
        },
    )
}

/// The upload form's target: back to the team's page, at the new build. Only a browser
/// signed in as the team gets past its headers; its form's first field is its CSRF token.
pub async fn upload_form(
    State(portal): Shared,
    Path(name): Path<String>,
    request: Request,
) -> Response {
    let team = match team_of_path(&portal, &name) {
        Ok(team) => team,
        Err(refusal) => return refusal.into_page(None),
    };
    let signed_in = session(&portal, request.headers()).filter(|s| s.team == team);
    let Some(session) = signed_in else {
        let refusal = Refusal::unauthorized(format!(
            "sign in as {team} first (`/signin?team={team}`); the API takes \
             `Authorization: Bearer TOKEN`"
        ));
        return refusal.into_page(Some(team.as_str()));
    };
    if !same_origin(request.headers()) {
        let refusal = Refusal::forbidden("the form was sent from another site".into());
        return refusal.into_page(Some(team.as_str()));
    }
    super::auth::proven(request.extensions());
    let csrf = Form::Csrf(session);
    match take_upload(portal, team.clone(), request, csrf).await {
        Ok(receipt) => {
            Redirect::to(&format!("/teams/{team}#build-{}", receipt.build)).into_response()
        }
        Err(refusal) => refusal.into_page(Some(team.as_str())),
    }
}

/// Whether the browser says the request comes from the portal's own pages (or says nothing:
/// SameSite=Strict and the CSRF token hold then).
pub fn same_origin(headers: &axum::http::HeaderMap) -> bool {
    let Some(origin) = headers.get(header::ORIGIN).and_then(|o| o.to_str().ok()) else {
        return true;
    };
    let host = headers.get(header::HOST).and_then(|h| h.to_str().ok());
    let origin_host = origin.split_once("://").map(|(_, host)| host);
    origin_host.is_some() && origin_host == host
}

/// The viewer page the ladder wrote for its game.
pub async fn viewer(State(portal): Shared) -> Response {
    let path = portal.folder.ladder().join("games").join("viewer.html");
    match tokio::fs::read_to_string(&path).await {
        Ok(body) => {
            let mut response = Html(body).into_response();
            secure(response.headers_mut(), page_policy());
            response
        }
        Err(_) => Refusal::not_found("no game has been played yet".into()).into_page(None),
    }
}

/// A game's data file for the viewer, `game-N.js`.
pub async fn game_data(State(portal): Shared, Path(file): Path<String>) -> Response {
    let Some(id) = file.strip_suffix(".js").filter(|id| is_game_id(id)) else {
        return Refusal::not_found(format!("no game file `{file}`")).into_page(None);
    };
    let path = agon_play::view::game_files::data_path(&portal.folder.ladder(), id);
    served(&path, "text/javascript; charset=utf-8", None).await
}

/// A game's record, as a download.
pub async fn record(State(portal): Shared, Path(file): Path<String>) -> Response {
    let Some(id) = file.strip_suffix(".json").filter(|id| is_game_id(id)) else {
        return Refusal::not_found(format!("no record `{file}`")).into_page(None);
    };
    let path = record_files::path(&portal.folder.ladder(), id);
    let attachment = format!("attachment; filename=\"{id}.json\"");
    served(&path, "application/json", Some(attachment)).await
}

/// `game-N`, N a number: the only names a file is served by.
fn is_game_id(id: &str) -> bool {
    id.strip_prefix("game-")
        .is_some_and(|n| !n.is_empty() && n.len() <= 12 && n.bytes().all(|b| b.is_ascii_digit()))
}

/// Bytes of a served file held at once: a client that reads slowly holds this much, not the
/// whole file.
const SERVED_CHUNK: usize = 16 << 10;

/// `path` streamed from disk.
async fn served(
    path: &std::path::Path,
    content_type: &'static str,
    attachment: Option<String>,
) -> Response {
    let Ok(file) = tokio::fs::File::open(path).await else {
        return Refusal::not_found("no such game yet".into()).into_page(None);
    };
    let length = file.metadata().await.map(|m| m.len()).ok();
    let chunks = futures_util::stream::unfold(Some(file), |file| async move {
        use tokio::io::AsyncReadExt;
        let mut file = file?;
        let mut buffer = vec![0u8; SERVED_CHUNK];
        match file.read(&mut buffer).await {
            Ok(0) => None,
            Ok(n) => {
                buffer.truncate(n);
                Some((Ok(Bytes::from(buffer)), Some(file)))
            }
            Err(e) => Some((Err(e), None)),
        }
    });
    let mut response = axum::body::Body::from_stream(chunks).into_response();
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    if let Some(length) = length {
        headers.insert(header::CONTENT_LENGTH, HeaderValue::from(length));
    }
    if let Some(value) = attachment.and_then(|a| HeaderValue::from_str(&a).ok()) {
        headers.insert(header::CONTENT_DISPOSITION, value);
    }
    secure(headers, DATA_POLICY);
    response
}

/// Any other address.
pub async fn not_found() -> Response {
    Refusal::not_found("no such page".into()).into_page(None)
}

#[cfg(test)]
mod tests {
    use super::super::team_view::game_links;
    use super::*;

    #[test]
    fn only_game_ids_name_files() {
        assert!(is_game_id("game-12"));
        for bad in [
            "game-",
            "game-1/../x",
            "../game-1",
            "game-1.js",
            "x",
            "game-1234567890123",
        ] {
            assert!(!is_game_id(bad), "{bad}");
        }
        let (viewer, record) = game_links("game-3");
        assert_eq!(viewer, "/games/viewer.html#game=game-3");
        assert_eq!(record, "/records/game-3.json");
    }

    #[test]
    fn a_form_from_another_site_is_told_apart() {
        let with = |origin: Option<&str>| {
            let mut headers = axum::http::HeaderMap::new();
            headers.insert(
                header::HOST,
                HeaderValue::from_static("portal.example:8443"),
            );
            if let Some(origin) = origin {
                headers.insert(header::ORIGIN, HeaderValue::from_str(origin).unwrap());
            }
            same_origin(&headers)
        };
        assert!(with(None));
        assert!(with(Some("https://portal.example:8443")));
        assert!(!with(Some("https://evil.example")));
        assert!(!with(Some("null")));
    }
}
