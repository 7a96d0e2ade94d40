//! Every address the portal answers, with the limits each kind of request gets: uploads a body
//! of the upload limit (refused from its `Content-Length`, or while it streams) and time of
//! their own (`limits`), everything else a small body and a short timeout.

use super::state::Portal;
use super::{api, web};
use axum::extract::DefaultBodyLimit;
use axum::http::StatusCode;
use axum::routing::{get, post};
use axum::Router;
use std::sync::Arc;
use std::time::Duration;
use tower_http::limit::RequestBodyLimitLayer;
use tower_http::timeout::TimeoutLayer;

/// What a multipart body adds to the file it carries (boundaries, headers, the token).
const MULTIPART_OVERHEAD: u64 = 64 << 10;
/// The body a request other than an upload may have.
const SMALL_BODY: usize = 16 << 10;
/// How long a request other than an upload may take.
const PAGE_TIMEOUT: Duration = Duration::from_secs(10);

pub fn router(portal: Arc<Portal>) -> Router {
    let body_limit = usize::try_from(portal.limits.settings.max_bytes + MULTIPART_OVERHEAD)
        .unwrap_or(usize::MAX);
    let uploads = Router::new()
        .route("/api/teams/{name}/builds", post(api::upload))
        .route("/teams/{name}/builds", post(web::upload_form))
        .layer(DefaultBodyLimit::disable())
        .layer(RequestBodyLimitLayer::new(body_limit));
    let reads = Router::new()
        .route("/", get(web::standings))
        .route("/teams/{name}", get(web::team))
        .route("/games/viewer.html", get(web::viewer))
        .route("/games/{file}", get(web::game_data))
        .route("/records/{file}", get(web::record))
        .route("/api/teams/{name}", get(api::team))
        .route("/api/standings", get(api::standings))
        .layer(RequestBodyLimitLayer::new(SMALL_BODY))
        .layer(TimeoutLayer::with_status_code(
            StatusCode::REQUEST_TIMEOUT,
            PAGE_TIMEOUT,
        ));
    uploads
        .merge(reads)
        .fallback(web::not_found)
        .with_state(portal)
}
