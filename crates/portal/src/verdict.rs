//! What a team's page says of a build: "accepted as v3", or the exact refusal.

use super::store::{BuildRow, BuildStatus};

pub fn sentence(build: &BuildRow, current: bool) -> String {
    let message = build.message.as_deref().unwrap_or("");
    match build.status {
        BuildStatus::Validating => "validating in the ladder's sandbox…".into(),
        BuildStatus::Accepted => {
            let version = build.version.map_or("?".into(), |v| v.to_string());
            let now = if current { ", playing now" } else { "" };
            if message.starts_with("the same content") {
                format!("accepted as v{version}{now} ({message})")
            } else {
                format!("accepted as v{version}{now}")
            }
        }
        BuildStatus::Refused => format!("refused: {message}"),
        BuildStatus::Superseded => format!("not played: {message}"),
        BuildStatus::Lost => format!("lost: {message}"),
    }
}
