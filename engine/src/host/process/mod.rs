//! The process host: each seat's bot runs in its own `agon-host` child process, which loads the
//! plugin, confines itself (see [`crate::host::sandbox`]) and serves requests over two dedicated pipes
//! (file descriptors 3 and 4 in the child; the bot's stdout goes to /dev/null, so a bot that
//! prints cannot corrupt the protocol, and its stderr is captured, bounded).
//!
//! The engine's watchdog gives every request a deadline; when it passes, the whole process group
//! is killed with SIGKILL and reaped. The child dies with its parent (`PR_SET_PDEATHSIG`), so
//! neither a zombie nor an orphan outlives the engine. A crash, abort, segfault or OOM ends only
//! that process; each match gets fresh hosts.
//!
//! A host's life, one file each: `spawn` and `launch` start it, `handshake` takes it to ready
//! (`messages` are what the two sides say besides the game's protocol), `call` serves a request
//! under the `watchdog`, `signals` stop it between calls, `reap` ends it and `death` says how it
//! died; `seat_host` makes it a [`SeatHost`]. `child` is the other side, in `agon-host`.
//!
//! [`SeatHost`]: super::SeatHost

mod call;
pub mod child;
mod config;
mod death;
mod error;
pub mod frame;
mod handshake;
mod launch;
mod messages;
mod outside_stop;
mod reap;
mod seat_host;
mod signals;
mod spawn;
mod stderr;
mod watchdog;

pub use config::{LocateError, ProcessHostConfig};
pub use death::classify_death;
pub use error::ProcessHostError;
pub use messages::{failure_code, Confinement, Hello, LoadFailure, LoadFailureKind, Ready};
pub use spawn::allow_many_hosts;
pub use watchdog::process_cpu_time;

use crate::host::sandbox::cgroup::HostCgroup;
use crate::host::sandbox::SandboxReport;
use crate::host::starvation::SharedTaskStats;
use crate::loader::{Manifest, StagedPlugin};
use crate::record::RunQueue;
use frame::ReadError;
use spawn::HostChild;
use std::os::fd::{AsFd, OwnedFd};
use std::process::ExitStatus;
use std::time::{Duration, Instant};
use stderr::StderrCapture;

/// One seat's bot in a child process.
pub struct ProcessHost {
    child: HostChild,
    /// The host's exit status once reaped (its pid may be reused after that: never signal it).
    status: Option<ExitStatus>,
    /// `None` once closed, which tells a well-behaved host to exit.
    requests: Option<OwnedFd>,
    responses: OwnedFd,
    stderr: StderrCapture,
    /// Why the host can no longer be called, once it cannot.
    gone: Option<String>,
    ready: Ready,
    /// What it was started with, to start it again (not for `inspect` hosts).
    launched: Option<Launch>,
    /// The stderr of the hosts this one replaced (restarts), bounded.
    earlier_stderr: String,
    /// The host is stopped (SIGSTOP) between calls, so that it cannot think on the opponent's
    /// time nor prepare answers to requests it has not seen.
    stopped: bool,
    /// The host could not be reaped after SIGKILL (stuck in the kernel): its pid must never be
    /// signalled again, and a background thread reaps it when it can.
    abandoned: bool,
    /// The host's cgroup v2, where the engine could create one (removed when dropped, after
    /// the host is reaped).
    cgroup: Option<HostCgroup>,
    /// Wall and CPU time from spawn to ready (loading the library, its constructors, the bot's
    /// `Default`): team code's time, charged to the start call.
    unbilled_startup: Option<(Duration, Option<Duration>)>,
    /// The engine's end of the socket the host hands its refusal listener over, until it has.
    handover: Option<OwnedFd>,
    /// The kernel's notices of the host's refused calls (`sandbox::notifier`).
    refusals: Option<OwnedFd>,
    /// The process that runs the bot (the child itself, or its child in a PID namespace):
    /// whose CPU clock and stops count.
    bot_pid: u32,
    /// A pidfd of that process where it is not the child: stopping and continuing it alone
    /// spares its supervisor two wake-ups per call, and a pidfd never reaches another process
    /// that reused the pid.
    bot_pidfd: Option<OwnedFd>,
    /// The scheduler statistics of the bot's answering thread: what tells a bot starved of a
    /// CPU from one that slept (`host::starvation`).
    sched_stat: SharedTaskStats,
    /// The answering threads' times of the hosts this one replaced (restarts).
    earlier_run_queue: Option<RunQueue>,
    /// The times over the match, read as it ended (before the host is asked to exit).
    run_queue_at_end: Option<RunQueue>,
}

/// What a host was started with.
#[derive(Clone)]
struct Launch {
    config: ProcessHostConfig,
    plugin: StagedPlugin,
    bot: String,
    game: String,
}

impl ProcessHost {
    /// Starts `agon-host`, has it load `bot` from `plugin` for `game` and confine itself.
    pub fn spawn(
        config: &ProcessHostConfig,
        plugin: &StagedPlugin,
        bot: &str,
        game: &str,
    ) -> Result<ProcessHost, ProcessHostError> {
        let mut host = ProcessHost::launch(config, plugin, bot, game, false)?;
        host.launched = Some(Launch {
            config: config.clone(),
            plugin: plugin.clone(),
            bot: bot.to_string(),
            game: game.to_string(),
        });
        Ok(host)
    }

    /// What `plugin` offers, read by a short-lived host (the engine never opens team code).
    pub fn inspect(
        config: &ProcessHostConfig,
        plugin: &StagedPlugin,
    ) -> Result<Manifest, ProcessHostError> {
        let host = ProcessHost::launch(config, plugin, "", "", true)?;
        Ok(host.ready.manifest.clone())
    }

    /// What the host reported when it became ready.
    pub fn manifest(&self) -> &Manifest {
        &self.ready.manifest
    }

    pub fn sandbox(&self) -> &SandboxReport {
        &self.ready.sandbox
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    fn write(
        &mut self,
        kind: u8,
        payload: &[u8],
        deadline: Option<Instant>,
    ) -> Result<(), ReadError> {
        match &self.requests {
            Some(fd) => frame::write_frame_until(fd.as_fd(), kind, payload, deadline),
            None => Err(ReadError::Closed),
        }
    }

    /// The pipe to read answers from, watched with the refusal listener.
    fn watched(&self) -> frame::Watched<'_> {
        frame::Watched {
            fd: self.responses.as_fd(),
            alarm: self.refusals.as_ref().map(|fd| fd.as_fd()),
        }
    }

    /// CPU time the bot's process has used (all its threads), read by the engine itself.
    fn cpu_time(&self) -> Option<Duration> {
        process_cpu_time(self.bot_pid)
    }
}
