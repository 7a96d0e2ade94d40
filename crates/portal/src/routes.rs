//! Every address the portal answers, with the limits each kind of request gets: an upload its
//! own (its team is known before its body is read: `upload`, `body_budget`, `limits`), the
//! sign-in forms a tiny body, everything else a small body, a short timeout and a bound on how
//! many are answered at once. Every answer, whoever makes it, carries the security headers.

use super::state::Portal;
use super::{api, signin, web};
use axum::extract::DefaultBodyLimit;
use axum::http::StatusCode;
use axum::routing::{get, post};
use axum::Router;
use std::sync::Arc;
use std::time::Duration;
use tower::limit::GlobalConcurrencyLimitLayer;
use tower_http::limit::RequestBodyLimitLayer;
use tower_http::timeout::TimeoutLayer;

/// The body a request other than an upload may have.
const SMALL_BODY: usize = 16 << 10;
/// The body of a sign-in or sign-out form: a name, a token, a CSRF token.
const FORM_BODY: usize = 1 << 10;
/// How long a request other than an upload may take.
const PAGE_TIMEOUT: Duration = Duration::from_secs(10);
/// Pages and API answers made at once; more wait their turn (each holds a page in memory).
const PAGES_AT_ONCE: usize = 64;

pub fn router(portal: Arc<Portal>) -> Router {
    let uploads = Router::new()
        .route("/api/teams/{name}/builds", post(api::upload))
        .route("/teams/{name}/builds", post(web::upload_form))
        .layer(DefaultBodyLimit::disable());
    let forms = Router::new()
        .route("/signin", post(signin::sign_in))
        .route("/signout", post(signin::sign_out))
        .layer(RequestBodyLimitLayer::new(FORM_BODY))
        .layer(timeout());
    let reads = Router::new()
        .route("/", get(web::standings))
        .route("/signin", get(signin::page_for))
        .route("/teams/{name}", get(web::team))
        .route("/games/viewer.html", get(web::viewer))
        .route("/games/{file}", get(web::game_data))
        .route("/records/{file}", get(web::record))
        .route("/api/teams/{name}", get(api::team))
        .route("/api/standings", get(api::standings))
        .layer(RequestBodyLimitLayer::new(SMALL_BODY))
        .layer(timeout())
        .layer(GlobalConcurrencyLimitLayer::new(PAGES_AT_ONCE));
    uploads
        .merge(forms)
        .merge(reads)
        .fallback(web::not_found)
        .layer(axum::middleware::map_response(
            super::csp::secure_every_answer,
        ))
        .with_state(portal)
}

fn timeout() -> TimeoutLayer {
    TimeoutLayer::with_status_code(StatusCode::REQUEST_TIMEOUT, PAGE_TIMEOUT)
}
