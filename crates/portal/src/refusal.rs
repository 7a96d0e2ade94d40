//! Why the portal did not do what a request asked: a status code and a sentence, shown as JSON
//! to the API and as a page to a browser.

use axum::http::StatusCode;

#[derive(Debug, Clone)]
pub struct Refusal {
    pub status: StatusCode,
    pub message: String,
}

impl Refusal {
    fn new(status: StatusCode, message: String) -> Refusal {
        Refusal {
            status,
            message: super::scrub::without_paths(&message),
        }
    }

    pub fn bad_request(message: String) -> Refusal {
        Refusal::new(StatusCode::BAD_REQUEST, message)
    }

    pub fn unauthorized(message: String) -> Refusal {
        Refusal::new(StatusCode::UNAUTHORIZED, message)
    }

    pub fn forbidden(message: String) -> Refusal {
        Refusal::new(StatusCode::FORBIDDEN, message)
    }

    pub fn not_found(message: String) -> Refusal {
        Refusal::new(StatusCode::NOT_FOUND, message)
    }

    pub fn too_large(message: String) -> Refusal {
        Refusal::new(StatusCode::PAYLOAD_TOO_LARGE, message)
    }

    pub fn too_many(message: String) -> Refusal {
        Refusal::new(StatusCode::TOO_MANY_REQUESTS, message)
    }

    pub fn busy(message: String) -> Refusal {
        Refusal::new(StatusCode::SERVICE_UNAVAILABLE, message)
    }

    pub fn timed_out(message: String) -> Refusal {
        Refusal::new(StatusCode::REQUEST_TIMEOUT, message)
    }

    /// A failure of the portal itself: logged in full, told in general.
    pub fn internal(detail: impl std::fmt::Display) -> Refusal {
        log::error!("portal: {detail}");
        Refusal::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "the portal failed to do this; the staff can see why in its log".into(),
        )
    }
}
