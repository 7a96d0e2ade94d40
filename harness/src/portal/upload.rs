//! One upload, start to end: the token (a header, or the form's field before the file), the
//! team's limits, the file received whole, kept in the database, then renamed into the team's
//! slot, where the ladder validates it as any build. The receipt says the build's number; its
//! verdict reaches the database when the ladder gives it (`follow`).

use super::auth::authorize;
use super::body_gate::Gate;
use super::drain::drain_parts;
use super::limits::LimitSettings;
use super::receive::{multipart_refusal, receive, too_large, Received};
use super::refusal::Refusal;
use super::state::Portal;
use super::store::{BuildStatus, Verdict};
use super::team_name::TeamName;
use crate::ladder::events::unix_ms;
use axum::extract::multipart::Field;
use axum::extract::Multipart;
use serde::Serialize;
use std::sync::Arc;

/// What the portal answers for a build it took.
#[derive(Debug, Serialize)]
pub struct Receipt {
    pub team: String,
    pub build: u32,
    pub sha256: String,
    pub bytes: u64,
    pub status: BuildStatus,
    pub version: Option<u32>,
    pub message: Option<String>,
}

/// Longest token field read.
const TOKEN_FIELD_MAX: usize = 256;
/// Longest file name kept (it is shown, never used as a path).
const FILE_NAME_MAX: usize = 120;

/// Takes an upload to `team`'s slot; `token` is the header's, if any, already checked (then
/// `gate` is open). Every attempt by a request that acts for the team (its token checked) is
/// noted in the database, with its outcome.
pub async fn take_upload(
    portal: Arc<Portal>,
    team: TeamName,
    token: Option<String>,
    mut multipart: Multipart,
    gate: Gate,
) -> Result<Receipt, Refusal> {
    let whole = portal.limits.settings.whole;
    let taking = take(&portal, &team, token, &mut multipart, &gate);
    let mut outcome = tokio::time::timeout(whole, taking)
        .await
        .unwrap_or_else(|_| {
            Err(Refusal::timed_out(format!(
                "the upload took longer than {} s",
                whole.as_secs()
            )))
        });
    if !gate.is_open() {
        return outcome; // not the team's: neither read further nor noted
    }
    if let Err(refusal) = outcome {
        // Refused before the file was read: its sender is likely still sending. A file that
        // stalled, broke off or ran past the limit is not read any further.
        let before_the_file = [429, 503].contains(&refusal.status.as_u16());
        outcome = Err(match before_the_file {
            true => drain_parts(multipart, refusal, portal.limits.settings.max_bytes).await,
            false => refusal,
        });
    }
    let (result, detail) = match &outcome {
        Ok(receipt) => (
            "received",
            format!(
                "build {}, {} bytes, sha256 {}",
                receipt.build, receipt.bytes, receipt.sha256
            ),
        ),
        Err(refusal) => (
            "refused",
            format!("{}: {}", refusal.status, refusal.message),
        ),
    };
    let noted = {
        let (portal, team) = (portal.clone(), team.clone());
        tokio::task::spawn_blocking(move || {
            portal
                .store
                .log_upload(team.as_str(), result, &detail, unix_ms())
        })
        .await
    };
    if let Ok(Err(e)) = noted {
        log::warn!("portal: {e}");
    }
    outcome
}

async fn take(
    portal: &Arc<Portal>,
    team: &TeamName,
    token: Option<String>,
    multipart: &mut Multipart,
    gate: &Gate,
) -> Result<Receipt, Refusal> {
    if token.is_some() {
        authorize(portal, team, token.as_deref())?;
        gate.open();
    }
    let settings = &portal.limits.settings;
    loop {
        let field = idle(settings, multipart.next_field())
            .await?
            .map_err(|e| multipart_refusal(e, settings))?
            .ok_or_else(|| {
                Refusal::bad_request(
                    "no `file` field: send the library as the multipart field `file`".into(),
                )
            })?;
        match field.name() {
            Some("token") if !gate.is_open() => {
                let token = small_text(field, settings).await?;
                authorize(portal, team, Some(token.trim()))?;
                gate.open();
            }
            Some("file") if !gate.is_open() => authorize(portal, team, None)?,
            Some("file") => {
                let admitted = portal.limits.admit(team, &portal.store, unix_ms())?;
                let file_name = shown_file_name(field.file_name());
                let received = receive(field, &portal.folder.incoming(), settings).await?;
                let (portal, team) = (portal.clone(), team.clone());
                // The team's place is held until its build is kept, even if the client is
                // gone by then (the request's future is dropped, this is not).
                return tokio::task::spawn_blocking(move || {
                    let kept = keep(&portal, &team, received, file_name);
                    drop(admitted);
                    kept
                })
                .await
                .map_err(|e| Refusal::internal(e.to_string()))?;
            }
            _ => {} // other fields are skipped
        }
    }
}

/// `step`, unless nothing arrives for the idle limit.
async fn idle<T>(
    settings: &LimitSettings,
    step: impl std::future::Future<Output = T>,
) -> Result<T, Refusal> {
    tokio::time::timeout(settings.idle, step)
        .await
        .map_err(|_| {
            Refusal::timed_out(format!(
                "the upload stalled: nothing arrived for {} s",
                settings.idle.as_secs()
            ))
        })
}

/// A short text field (the token), read no further than [`TOKEN_FIELD_MAX`].
async fn small_text(mut field: Field<'_>, settings: &LimitSettings) -> Result<String, Refusal> {
    let mut bytes = Vec::new();
    while let Some(chunk) = idle(settings, field.chunk())
        .await?
        .map_err(|e| multipart_refusal(e, settings))?
    {
        bytes.extend_from_slice(&chunk);
        if bytes.len() > TOKEN_FIELD_MAX {
            return Err(Refusal::unauthorized("the token field is too long".into()));
        }
    }
    String::from_utf8(bytes).map_err(|_| Refusal::unauthorized("the token is not text".into()))
}

/// The uploaded file's name, for showing only: its last component, printable, bounded.
fn shown_file_name(name: Option<&str>) -> String {
    let name = name.unwrap_or("").rsplit(['/', '\\']).next().unwrap_or("");
    let name: String = name
        .chars()
        .filter(|c| !c.is_control())
        .take(FILE_NAME_MAX)
        .collect();
    if name.is_empty() {
        "(unnamed)".into()
    } else {
        name
    }
}

/// Keeps the build in the database, then hands it to the ladder: in that order, so that a
/// build the ladder can see is always one the portal knows (a portal stopped between the two
/// finds the build `lost` when it starts again: `Store::settle_unfinished`).
fn keep(
    portal: &Portal,
    team: &TeamName,
    received: Received,
    file_name: String,
) -> Result<Receipt, Refusal> {
    let (sha256, bytes) = (received.sha256.clone(), received.bytes);
    if bytes > portal.limits.settings.max_bytes {
        return Err(too_large(&portal.limits.settings));
    }
    let now = unix_ms();
    let store = &portal.store;
    let number = store
        .add_build(
            team.as_str(),
            (&sha256, received.inode),
            bytes,
            &file_name,
            now,
        )
        .map_err(Refusal::internal)?;
    let slot = team.slot();
    if let Err(e) = received.publish(&portal.folder.builds().join(&slot)) {
        let lost = Verdict {
            sha256: &sha256,
            inode: None,
            status: BuildStatus::Lost,
            version: None,
            message: "the portal could not hand it to the ladder",
            at_ms: now,
        };
        let _ = store.mark(team.as_str(), number, &lost);
        return Err(Refusal::internal(e));
    }
    // Its verdict comes from the ladder, which judges every file put in a slot, even one of
    // the content it plays already (`follow`).
    let receipt = Receipt {
        team: team.to_string(),
        build: number,
        sha256,
        bytes,
        status: BuildStatus::Validating,
        version: None,
        message: None,
    };
    Ok(receipt)
}
