//! Starting a host: spawn `agon-host`, set its limits and place it in its cgroup before it runs
//! team code, take it through its handshake, then stop it until its first call.

use super::messages::{Hello, Ready};
use super::spawn::{open_channels, spawn_lasting, EngineEnds, Spawned};
use super::stderr::StderrCapture;
use super::{ProcessHost, ProcessHostConfig, ProcessHostError};
use crate::host::engine_stall::Stopwatch;
use crate::host::sandbox::cgroup::{self, HostCgroup, PlaceError};
use crate::host::sandbox::{limits, SandboxConfig, SandboxReport};
use crate::host::starvation::SharedTaskStats;
use crate::loader::{Manifest, StagedPlugin};

impl ProcessHost {
    /// Starts a host for `bot` of `plugin` in `game` (for an `inspect` host, only to report the
    /// plugin's manifest) and has it ready, stopped until its first call.
    pub(super) fn launch(
        config: &ProcessHostConfig,
        plugin: &StagedPlugin,
        bot: &str,
        game: &str,
        inspect: bool,
    ) -> Result<ProcessHost, ProcessHostError> {
        // Here, not only in the host: a copy cut short would fault there, and that death would
        // read as the bot's crash.
        plugin
            .check_copy()
            .map_err(|e| ProcessHostError::Refused(e.to_string()))?;
        let spawn_error = |source| ProcessHostError::Spawn {
            executable: config.executable.clone(),
            source,
        };
        let (engine_ends, host_ends) = open_channels().map_err(&spawn_error)?;
        // Decided before the spawn: finding the delegation reads files and allocates.
        let in_cgroup = cgroup::delegation().is_ok();
        // The engine's own stalls are left out, as for every call.
        let spawned = Stopwatch::start();
        // The host's ends go with the spawn: a copy in the engine would keep its answer pipe
        // open after it died.
        let child = spawn_lasting(&config.executable, host_ends).map_err(spawn_error)?;
        let mut host = ProcessHost::started(child, engine_ends);
        // Before the hello, while the host has the engine's credentials and runs no team code.
        let address_space = limits::address_space(&config.sandbox, in_cgroup);
        if let Err(e) = limits::apply(host.child.id(), &config.sandbox, address_space) {
            host.kill();
            return Err(spawn_error(e));
        }
        let cgroup_missing = host.place_in_cgroup(&config.sandbox, in_cgroup, inspect)?;
        host.handshake(&Hello {
            plugin: plugin.clone(),
            bot: bot.to_string(),
            game: game.to_string(),
            sandbox: config.sandbox.clone(),
            inspect,
        })?;
        host.pause();
        host.unbilled_startup = Some((spawned.elapsed(), host.cpu_time()));
        host.complete_sandbox_report(cgroup_missing, config.sandbox.threads, inspect);
        Ok(host)
    }

    /// A host just spawned, which has reported nothing yet; its stderr is captured from now on.
    fn started(spawned: Spawned, ends: EngineEnds) -> ProcessHost {
        let Spawned { child, stderr } = spawned;
        let bot_pid = child.id();
        let stderr = StderrCapture::start(Some(std::fs::File::from(stderr)));
        ProcessHost {
            child,
            status: None,
            requests: Some(ends.requests),
            responses: ends.responses,
            stderr,
            gone: None,
            launched: None,
            earlier_stderr: String::new(),
            stopped: false,
            abandoned: false,
            cgroup: None,
            unbilled_startup: None,
            handover: Some(ends.handover),
            refusals: None,
            bot_pid,
            bot_pidfd: None,
            sched_stat: SharedTaskStats::default(),
            earlier_run_queue: None,
            run_queue_at_end: None,
            ready: nothing_reported(),
        }
    }

    /// Before the host reads its hello it has run no team code: it is placed in its cgroup now.
    /// Returns why it has none, where it has none.
    fn place_in_cgroup(
        &mut self,
        sandbox: &SandboxConfig,
        in_cgroup: bool,
        inspect: bool,
    ) -> Result<Option<String>, ProcessHostError> {
        match HostCgroup::place(self.child.id(), sandbox) {
            Ok(cgroup) => {
                self.cgroup = Some(cgroup);
                Ok(None)
            }
            // Only a bot allowed threads needs the cgroup's CPU and task caps (see
            // `SandboxReport::note_missing_cgroup`).
            Err(e) if sandbox.strict && sandbox.threads > 0 => {
                self.kill();
                Err(ProcessHostError::Refused(format!(
                    "sandbox strict: refusing to run a bot allowed threads: {}",
                    cgroup::unavailable_message(&e)
                )))
            }
            Err(e) => {
                let lower_to = in_cgroup.then_some(sandbox.memory_bytes);
                self.unplaced(lower_to, inspect, &e)?;
                Ok(Some(cgroup::missing_note(&e)))
            }
        }
    }

    /// A host started with the address-space backstop of a cgroup it did not get: its limit
    /// goes back to the memory limit (or it is killed, where even that fails), and the run is
    /// told once what a missing cgroup costs.
    fn unplaced(
        &mut self,
        lower_to: Option<u64>,
        inspect: bool,
        reason: &PlaceError,
    ) -> Result<(), ProcessHostError> {
        if !inspect {
            cgroup::warn_unavailable(reason);
        }
        if let Some(memory) = lower_to {
            if let Err(e) = limits::lower_address_space(self.child.id(), memory) {
                self.kill();
                return Err(ProcessHostError::Refused(format!(
                    "no cgroup ({reason}), and the address-space limit could not be lowered \
                     to the memory limit: {e}"
                )));
            }
        }
        Ok(())
    }

    /// Adds to the host's own sandbox report what the engine did for it (its cgroup, or what
    /// lacking one costs), and warns of what is missing.
    fn complete_sandbox_report(
        &mut self,
        cgroup_missing: Option<String>,
        threads: u32,
        inspect: bool,
    ) {
        self.ready.sandbox.cgroup = self.cgroup.as_ref().map(|c| c.path().display().to_string());
        // The missing cgroup has a warning of its own (`cgroup::warn_unavailable`).
        if !inspect && !self.ready.sandbox.complete() {
            warn_once(&format!(
                "sandbox incomplete: {}",
                self.ready.sandbox.missing.join("; ")
            ));
        }
        if let Some(reason) = cgroup_missing {
            self.ready.sandbox.note_missing_cgroup(reason, threads);
        }
    }
}

/// What a host has reported before its handshake: nothing.
fn nothing_reported() -> Ready {
    Ready {
        manifest: Manifest {
            plugin: String::new(),
            team: String::new(),
            version: String::new(),
            bots: Vec::new(),
        },
        sandbox: SandboxReport {
            landlock: "none".into(),
            seccomp: false,
            uid: None,
            namespaces: Vec::new(),
            thread_limit: None,
            cgroup: None,
            refusals_to_engine: false,
            substituted: Vec::new(),
            missing: Vec::new(),
        },
    }
}

/// Logs `message` once per engine process: a tournament starts hundreds of hosts on the same
/// machine, which all lack the same things. Every record still says what its hosts lacked.
fn warn_once(message: &str) {
    static SEEN: std::sync::Mutex<Vec<String>> = std::sync::Mutex::new(Vec::new());
    let mut seen = SEEN.lock().unwrap_or_else(|p| p.into_inner());
    if !seen.iter().any(|m| m == message) {
        log::warn!("{message}");
        seen.push(message.to_string());
    }
}
