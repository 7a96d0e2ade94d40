//! The HTTP API beside the pages, for scripts and tests: JSON in, JSON out.
//!
//! | route | answer |
//! |---|---|
//! | `POST /api/teams/NAME/builds` | multipart field `file`, `Authorization: Bearer TOKEN`: 201 with the build's number and status; 401, 403, 404, 408, 413, 429, 503 with `{"error": ...}` |
//! | `GET /api/teams/NAME` | the team's builds, their statuses and ratings, its latest games |
//! | `GET /api/standings` | the ladder's `standings.json` |

use super::auth::{bearer, team_of_path};
use super::csp::{secure, DATA_POLICY};
use super::refusal::Refusal;
use super::state::Portal;
use super::team_view::TeamView;
use super::upload::{drain, take_upload};
use axum::extract::{Multipart, Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use std::sync::Arc;

type Shared = State<Arc<Portal>>;

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

pub async fn upload(
    State(portal): Shared,
    Path(name): Path<String>,
    headers: HeaderMap,
    multipart: Multipart,
) -> Response {
    let team = match team_of_path(&portal, &name) {
        Ok(team) => team,
        Err(refusal) => {
            return drain(multipart, refusal, portal.limits.settings.max_bytes)
                .await
                .into_response()
        }
    };
    let token = bearer(&headers).map(str::to_string);
    if token.is_none() {
        let refusal = Refusal::unauthorized(
            "no token: send `Authorization: Bearer TOKEN` with the team's token".into(),
        );
        return drain(multipart, refusal, portal.limits.settings.max_bytes)
            .await
            .into_response();
    }
    match take_upload(portal, team, token, multipart).await {
        Ok(receipt) => json(StatusCode::CREATED, receipt),
        Err(refusal) => refusal.into_response(),
    }
}

pub async fn team(State(portal): Shared, Path(name): Path<String>) -> Response {
    match team_of_path(&portal, &name).and_then(|team| TeamView::of(&portal, &team)) {
        Ok(view) => json(StatusCode::OK, view),
        Err(refusal) => refusal.into_response(),
    }
}

pub async fn standings(State(portal): Shared) -> Response {
    let standings = portal
        .standings()
        .unwrap_or_else(|| serde_json::json!({ "game": portal.game, "games": 0, "builds": [] }));
    json(StatusCode::OK, standings)
}
