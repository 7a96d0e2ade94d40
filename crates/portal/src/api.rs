//! The HTTP API beside the pages, for scripts and tests: JSON in, JSON out.
//!
//! | route | answer |
//! |---|---|
//! | `POST /api/teams/NAME/builds` | multipart field `file`, `Authorization: Bearer TOKEN`: 201 with the build's number and status; 401, 403, 404, 408, 413, 429, 503 with `{"error": ...}` |
//! | `GET /api/teams/NAME` | the team as anyone sees it; with the team's token, every upload and its verdict too |
//! | `GET /api/standings` | the ladder's standings: ratings per build, the latest games |

use super::auth::{acts_for, authorize, bearer, proven, team_of_path};
use super::csp::{secure, DATA_POLICY};
use super::drain::drain_body;
use super::receive::too_large;
use super::refusal::Refusal;
use super::state::Portal;
use super::team_view::TeamView;
use super::upload::{take_upload, Form};
use axum::extract::{Path, Request, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use std::sync::Arc;

type Shared = State<Arc<Portal>>;

/// What a multipart body adds to the file it carries (boundaries, headers, fields).
pub const MULTIPART_OVERHEAD: u64 = super::body_budget::OUTSIDE_THE_FILE;

fn json(status: StatusCode, value: impl serde::Serialize) -> Response {
    let mut response = (status, Json(value)).into_response();
    secure(response.headers_mut(), DATA_POLICY);
    response
}

impl IntoResponse for Refusal {
    fn into_response(self) -> Response {
        json(self.status, serde_json::json!({ "error": self.message }))
    }
}

/// The token is checked from the header before the body is touched. A refused request's
/// body is read and thrown away before the answer (most clients read nothing before they
/// have sent everything), unless the client waits to be told to send it
/// (`Expect: 100-continue`): then it is never asked for.
pub async fn upload(State(portal): Shared, Path(name): Path<String>, request: Request) -> Response {
    let checked = team_of_path(&portal, &name).and_then(|team| match bearer(request.headers()) {
        None => Err(Refusal::unauthorized(
            "no token: send `Authorization: Bearer TOKEN` with the team's token".into(),
        )),
        Some(token) => authorize(&portal, &team, Some(token)).map(|()| team),
    });
    let max_bytes = portal.limits.settings.max_bytes;
    let team = match checked {
        Ok(team) => team,
        Err(refusal) => return answer_unread(request, refusal, max_bytes).await,
    };
    proven(request.extensions());
    if declared_length(request.headers()).is_some_and(|n| n > max_bytes + MULTIPART_OVERHEAD) {
        // Refused from its header alone; the whole of what it declared is read (and thrown
        // away) so that the client sees this answer, within the drain's time.
        let declared = declared_length(request.headers()).unwrap_or(0);
        return answer_unread(request, too_large(&portal.limits.settings), declared).await;
    }
    match take_upload(portal, team, request, Form::Api).await {
        Ok(receipt) => json(StatusCode::CREATED, receipt),
        Err(refusal) => refusal.into_response(),
    }
}

/// `refusal`, after reading up to `allowance` bytes of the body unless the client has not
/// sent it yet.
async fn answer_unread(request: Request, refusal: Refusal, allowance: u64) -> Response {
    if expects_continue(request.headers()) {
        return refusal.into_response();
    }
    drain_body(request.into_body(), refusal, allowance)
        .await
        .into_response()
}

fn declared_length(headers: &HeaderMap) -> Option<u64> {
    headers
        .get(header::CONTENT_LENGTH)?
        .to_str()
        .ok()?
        .trim()
        .parse()
        .ok()
}

fn expects_continue(headers: &HeaderMap) -> bool {
    headers
        .get(header::EXPECT)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.trim().eq_ignore_ascii_case("100-continue"))
}

pub async fn team(State(portal): Shared, Path(name): Path<String>, request: Request) -> Response {
    let shown = team_of_path(&portal, &name).and_then(|team| {
        let own = acts_for(&portal, &team, request.headers(), request.extensions());
        TeamView::of(&portal, &team, own)
    });
    match shown {
        Ok(view) => json(StatusCode::OK, view),
        Err(refusal) => refusal.into_response(),
    }
}

/// The ladder's standings, without what is a team's own business (its refused builds and
/// why they were refused).
pub async fn standings(State(portal): Shared) -> Response {
    let mut standings = portal
        .standings()
        .unwrap_or_else(|| serde_json::json!({ "game": portal.game, "games": 0, "builds": [] }));
    if let Some(fields) = standings.as_object_mut() {
        fields.remove("refused");
    }
    json(StatusCode::OK, standings)
}
