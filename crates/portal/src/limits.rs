//! What one upload may take: its size, how many a team may send per hour, and how many run at
//! once. A team has one upload in flight at a time, so a slow or abandoned upload holds up that
//! team alone; all teams together have a bounded number.

use super::refusal::Refusal;
use super::store::Store;
use super::team_name::TeamName;
use std::collections::HashSet;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

#[derive(Debug, Clone)]
pub struct LimitSettings {
    pub max_bytes: u64,
    pub per_hour: u64,
    pub at_once: usize,
    /// An upload that sends nothing for this long is dropped.
    pub idle: Duration,
    /// An upload still not complete after this long is dropped.
    pub whole: Duration,
}

impl Default for LimitSettings {
    fn default() -> Self {
        LimitSettings {
            max_bytes: 64 << 20,
            per_hour: 30,
            at_once: 16,
            idle: Duration::from_secs(20),
            whole: Duration::from_secs(600),
        }
    }
}

pub struct UploadLimits {
    pub settings: LimitSettings,
    slots: Arc<Semaphore>,
    in_flight: Arc<Mutex<HashSet<String>>>,
}

/// An upload let in: it holds its place until dropped.
pub struct Admitted {
    _permit: OwnedSemaphorePermit,
    team: String,
    in_flight: Arc<Mutex<HashSet<String>>>,
}

impl Drop for Admitted {
    fn drop(&mut self) {
        let mut teams = self.in_flight.lock().unwrap_or_else(|p| p.into_inner());
        teams.remove(&self.team);
    }
}

impl UploadLimits {
    pub fn new(settings: LimitSettings) -> UploadLimits {
        UploadLimits {
            slots: Arc::new(Semaphore::new(settings.at_once)),
            settings,
            in_flight: Arc::default(),
        }
    }

    /// Lets an upload of `team` in, or says why not.
    pub fn admit(&self, team: &TeamName, store: &Store, now_ms: u64) -> Result<Admitted, Refusal> {
        let hour_ago = now_ms.saturating_sub(3_600_000);
        let recent = store
            .uploads_since(team.as_str(), hour_ago)
            .map_err(Refusal::internal)?;
        if recent >= self.settings.per_hour {
            return Err(Refusal::too_many(format!(
                "{recent} uploads in the last hour: a team may upload {} builds per hour; try \
                 again later",
                self.settings.per_hour
            )));
        }
        let mut teams = self.in_flight.lock().unwrap_or_else(|p| p.into_inner());
        if teams.contains(team.as_str()) {
            return Err(Refusal::too_many(
                "another upload of this team is still in progress; one at a time".into(),
            ));
        }
        let permit = self.slots.clone().try_acquire_owned().map_err(|_| {
            Refusal::busy(format!(
                "{} uploads are in progress, the most the portal takes at once; try again in a \
                 minute",
                self.settings.at_once
            ))
        })?;
        teams.insert(team.as_str().to_string());
        Ok(Admitted {
            _permit: permit,
            team: team.as_str().to_string(),
            in_flight: self.in_flight.clone(),
        })
    }
}
