//! The HTTP API beside the pages, for scripts and tests: JSON in, JSON out.
//!
//! | route | answer |
//! |---|---|
//! | `POST /api/teams/NAME/builds` | multipart field `file`, `Authorization: Bearer TOKEN`: 201 with the build's number and status; 401, 403, 404, 408, 413, 429, 503 with `{"error": ...}` |
//! | `GET /api/teams/NAME` | the team's builds, their statuses and ratings, its latest games |
//! | `GET /api/standings` | the ladder's `standings.json` |

use super::auth::{authorize, bearer, team_of_path};
use super::body_gate::Gate;
use super::csp::{secure, DATA_POLICY};
use super::drain::drain_body;
use super::refusal::Refusal;
use super::state::Portal;
use super::team_view::TeamView;
use super::upload::take_upload;
use axum::extract::{FromRequest, Multipart, Path, Request, State};
use axum::http::StatusCode;
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

/// The token is checked from the header before the body is parsed; a refused request's body
/// is read unparsed (`drain`).
pub async fn upload(State(portal): Shared, Path(name): Path<String>, request: Request) -> Response {
    let token = bearer(request.headers()).map(str::to_string);
    let checked = team_of_path(&portal, &name).and_then(|team| match token.as_deref() {
        None => Err(Refusal::unauthorized(
            "no token: send `Authorization: Bearer TOKEN` with the team's token".into(),
        )),
        Some(token) => authorize(&portal, &team, Some(token)).map(|()| team),
    });
    let team = match checked {
        Ok(team) => team,
        Err(refusal) => {
            let max_bytes = portal.limits.settings.max_bytes;
            return drain_body(request.into_body(), refusal, max_bytes)
                .await
                .into_response();
        }
    };
    let gate = Gate::default();
    gate.open();
    let multipart = match Multipart::from_request(request, &()).await {
        Ok(multipart) => multipart,
        Err(e) => return Refusal::bad_request(e.body_text()).into_response(),
    };
    match take_upload(portal, team, token, multipart, gate).await {
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
