//! One upload, start to end, for a request whose team is known (its token or its session was
//! checked before its body was touched): the team's limits, the form's CSRF token, the file
//! received whole, kept in the database, then renamed into the team's slot, where the ladder
//! validates it as any build. The receipt says the build's number; its verdict reaches the
//! database when the ladder gives it (`follow`).

use super::body_budget::{budgeted, Budget};
use super::drain::drain_parts;
use super::limits::LimitSettings;
use super::receive::{multipart_refusal, receive, too_large, Received};
use super::refusal::Refusal;
use super::session::Session;
use super::state::Portal;
use super::store::{BuildStatus, Verdict};
use super::team_name::TeamName;
use agon_ladder::events::unix_ms;
use axum::extract::multipart::Field;
use axum::extract::{FromRequest, Multipart, Request};
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

/// Which kind of request brings the upload.
pub enum Form {
    /// The API, its token in the header.
    Api,
    /// A browser's form: its first field must be the session's CSRF token.
    Csrf(Session),
}

/// Longest CSRF field read.
const CSRF_FIELD_MAX: usize = 256;
/// Longest file name kept (it is shown, never used as a path).
const FILE_NAME_MAX: usize = 120;

/// Takes an upload to `team`'s slot. Every attempt is noted in the database, with its
/// outcome.
pub async fn take_upload(
    portal: Arc<Portal>,
    team: TeamName,
    request: Request,
    form: Form,
) -> Result<Receipt, Refusal> {
    let outcome = take_body(&portal, &team, request, &form).await;
    note_attempt(&portal, &team, &outcome).await;
    outcome
}

async fn take_body(
    portal: &Arc<Portal>,
    team: &TeamName,
    request: Request,
    form: &Form,
) -> Result<Receipt, Refusal> {
    let budget = Budget::default();
    let (parts, body) = request.into_parts();
    let body = budgeted(body, &budget, super::http_server::READ_BUFFER as u64);
    let mut multipart = Multipart::from_request(Request::from_parts(parts, body), &())
        .await
        .map_err(|e| Refusal::bad_request(e.body_text()))?;
    let whole = portal.limits.settings.whole;
    let taking = take(portal, team, form, &mut multipart, &budget);
    let outcome = tokio::time::timeout(whole, taking)
        .await
        .unwrap_or_else(|_| {
            Err(Refusal::timed_out(format!(
                "the upload took longer than {} s",
                whole.as_secs()
            )))
        });
    match outcome {
        // Refused before the file was read: its sender is likely still sending. A file that
        // stalled, broke off or ran past the limit is not read any further.
        Err(refusal) if [429, 503].contains(&refusal.status.as_u16()) => {
            let max_bytes = portal.limits.settings.max_bytes;
            Err(drain_parts(multipart, refusal, max_bytes, &budget).await)
        }
        outcome => outcome,
    }
}

/// Notes the attempt (cheaply: see `Store::log_upload`).
async fn note_attempt(portal: &Arc<Portal>, team: &TeamName, outcome: &Result<Receipt, Refusal>) {
    let (result, detail) = match outcome {
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
}

async fn take(
    portal: &Arc<Portal>,
    team: &TeamName,
    form: &Form,
    multipart: &mut Multipart,
    budget: &Budget,
) -> Result<Receipt, Refusal> {
    let settings = &portal.limits.settings;
    let mut csrf_checked = matches!(form, Form::Api);
    loop {
        let field = idle(settings, multipart.next_field())
            .await?
            .map_err(|e| multipart_refusal(e, settings))?
            .ok_or_else(|| {
                Refusal::bad_request(
                    "no `file` field: send the library as the multipart field `file`".into(),
                )
            })?;
        match (field.name(), form) {
            (Some("csrf"), Form::Csrf(session)) if !csrf_checked => {
                let given = small_text(field, settings).await?;
                if !session.csrf_holds(&portal.key, given.trim()) {
                    return Err(Refusal::forbidden("the form is not this session's".into()));
                }
                csrf_checked = true;
            }
            (Some("file"), _) if !csrf_checked => {
                return Err(Refusal::forbidden(
                    "the form's `csrf` field must come before its file".into(),
                ))
            }
            (Some("file"), _) => {
                let admitted = portal.limits.admit(team, &portal.store, unix_ms())?;
                let file_name = shown_file_name(field.file_name());
                let incoming = portal.folder.incoming();
                let received = receive(field, &incoming, settings, budget).await?;
                let (portal, team) = (portal.clone(), team.clone());
                // The team's place is held until its build is kept, even if the client is
                // gone by then (the request's future is dropped, this is not).
                return tokio::task::spawn_blocking(move || {
                    let kept = keep(&portal, &team, received, file_name);
                    drop(admitted);
                    kept
                })
                .await
                .map_err(Refusal::internal)?;
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

/// A short text field (the CSRF token), read no further than [`CSRF_FIELD_MAX`].
async fn small_text(mut field: Field<'_>, settings: &LimitSettings) -> Result<String, Refusal> {
    let mut bytes = Vec::new();
    while let Some(chunk) = idle(settings, field.chunk())
        .await?
        .map_err(|e| multipart_refusal(e, settings))?
    {
        bytes.extend_from_slice(&chunk);
        if bytes.len() > CSRF_FIELD_MAX {
            return Err(Refusal::forbidden("the csrf field is too long".into()));
        }
    }
    String::from_utf8(bytes).map_err(|_| Refusal::forbidden("the csrf field is not text".into()))
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
