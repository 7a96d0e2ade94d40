//! The engine's side of a host's start-up conversation: the hello, the host's notice that it is
//! confined (with its refusal listener and the bot's process), then its ready or the reason it
//! cannot serve.

use super::frame::{self, ReadError};
use super::messages::{Confinement, Hello, LoadFailure, LoadFailureKind};
use super::{ProcessHost, ProcessHostError};
use crate::host::sandbox::notifier;
use crate::host::sched_stat::TaskStats;
use crate::loader::StagedPlugin;
use rustix::process::Pid;
use std::os::fd::AsFd;
use std::time::{Duration, Instant};

/// How long a host may take to start, load the plugin and confine itself.
const STARTUP_LIMIT: Duration = Duration::from_secs(10);

impl ProcessHost {
    /// Sends the host its hello and takes its ready; a host that is not ready is killed, or
    /// found dead, and the error says why.
    pub(super) fn handshake(&mut self, hello: &Hello) -> Result<(), ProcessHostError> {
        let plugin = &hello.plugin;
        let hello = serde_json::to_vec(hello).expect("hello serializes");
        let deadline = Instant::now() + STARTUP_LIMIT;
        let reply = self
            .write(frame::HELLO, &hello, Some(deadline))
            .and_then(|()| self.read_after_confinement(deadline));
        match reply {
            Ok((frame::READY, body)) => self.accept_ready(&body, plugin),
            Ok((frame::LOAD_FAILED, body)) => {
                self.kill();
                Err(load_failed(&body, plugin))
            }
            Ok((kind, _)) => {
                self.kill();
                Err(startup_error(
                    plugin,
                    format!("unexpected message kind {kind}"),
                ))
            }
            Err(error) => Err(self.died_starting(error, plugin)),
        }
    }

    /// The host's first frame after its hello, past the one that says it is confined (taking
    /// the refusal listener it handed over, so that a refusal in a library constructor is
    /// recorded at once).
    fn read_after_confinement(&mut self, deadline: Instant) -> Result<(u8, Vec<u8>), ReadError> {
        let mut deadline = || Some(deadline);
        let first = frame::read_frame_by(self.watched(), &mut deadline)?;
        if first.0 != frame::CONFINED {
            return Ok(first);
        }
        // Unreadable, it names no other process: the child runs the bot.
        let confinement: Confinement = serde_json::from_slice(&first.1).unwrap_or_default();
        if let Some(pid) = confinement.bot_pid {
            self.bot_pid = pid;
            // Opened while the process waits for its plugin, so certainly the bot's.
            self.bot_pidfd = Pid::from_raw(pid as i32).and_then(|pid| {
                rustix::process::pidfd_open(pid, rustix::process::PidfdFlags::empty()).ok()
            });
        }
        if let Some(handover) = self.handover.take() {
            self.refusals = notifier::receive(handover.as_fd());
        }
        frame::read_frame_by(self.watched(), &mut deadline)
    }

    /// Takes the host's ready message, which promises the refusal listener where the host
    /// could hand one over.
    fn accept_ready(&mut self, body: &[u8], plugin: &StagedPlugin) -> Result<(), ProcessHostError> {
        self.ready = serde_json::from_slice(body)
            .map_err(|e| startup_error(plugin, format!("unreadable ready message: {e}")))?;
        // The bot's process is known and waits for its first call: the child, unreaped, or
        // its child in a PID namespace, whose pidfd was opened while it waited for its plugin.
        if let Some(stats) = TaskStats::of_process(self.bot_pid) {
            let _ = self.sched_stat.set(stats);
        }
        if self.ready.sandbox.refusals_to_engine && self.refusals.is_none() {
            self.kill();
            return Err(startup_error(
                plugin,
                "the host's refusal listener never arrived".into(),
            ));
        }
        Ok(())
    }

    /// The host stopped answering before it was ready: team code killed it or broke the
    /// sandbox. The error carries the start of its stderr: the host is dropped with it.
    fn died_starting(&mut self, error: ReadError, plugin: &StagedPlugin) -> ProcessHostError {
        let (cause, detail) = self.fault_for(error);
        let stderr = self
            .stderr
            .text()
            .map(|t| {
                format!(
                    "; its stderr: {}",
                    t.trim().chars().take(2000).collect::<String>()
                )
            })
            .unwrap_or_default();
        ProcessHostError::DiedStarting {
            plugin: plugin.path.display().to_string(),
            cause,
            detail: format!("{detail}{stderr}"),
        }
    }
}

/// The error a host's `LOAD_FAILED` frame amounts to.
fn load_failed(body: &[u8], plugin: &StagedPlugin) -> ProcessHostError {
    let failure: LoadFailure = serde_json::from_slice(body)
        .unwrap_or_else(|_| LoadFailure::engine(String::from_utf8_lossy(body).into_owned()));
    match failure.kind {
        LoadFailureKind::Bot => ProcessHostError::BotFailed(failure.message),
        LoadFailureKind::Engine => startup_error(plugin, failure.message),
        LoadFailureKind::Load | LoadFailureKind::Sandbox => {
            ProcessHostError::Refused(failure.message)
        }
    }
}

fn startup_error(plugin: &StagedPlugin, detail: String) -> ProcessHostError {
    ProcessHostError::Startup {
        plugin: plugin.path.display().to_string(),
        detail,
    }
}
