//! The process host: each seat's bot runs in its own `agon-host` child process, which loads the
//! plugin, confines itself (see [`crate::sandbox`]) and serves requests over two dedicated pipes
//! (file descriptors 3 and 4 in the child; the bot's stdout goes to /dev/null, so a bot that
//! prints cannot corrupt the protocol, and its stderr is captured, bounded).
//!
//! The engine's watchdog gives every request a deadline; when it passes, the whole process group
//! is killed with SIGKILL and reaped. The child dies with its parent (`PR_SET_PDEATHSIG`), so
//! neither a zombie nor an orphan outlives the engine. A crash, abort, segfault or OOM ends only
//! that process; each match gets fresh hosts.

pub mod child;
pub mod frame;
mod outside_stop;
mod stderr;

use super::engine_stall::Stopwatch;
use super::{Call, CallResult, Deadline, HostKind, HostReport, SeatHost};
use crate::fault::FaultCause;
use crate::loader::{Manifest, StagedPlugin};
use crate::sandbox::{limits, notifier, refusal_line, refused_calls, SandboxConfig, SandboxReport};
use agon_abi::{BotFailure, FailureKind};
use frame::ReadError;
use outside_stop::OutsideStops;
use rustix::process::{kill_process_group, Pid, Signal};
use serde::{Deserialize, Serialize};
use std::os::fd::{AsFd, AsRawFd, BorrowedFd, OwnedFd};
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::PathBuf;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};
use stderr::StderrCapture;

/// How long a host may take to start, load the plugin and confine itself.
const STARTUP_LIMIT: Duration = Duration::from_secs(10);

/// How long the engine waits for a killed host to be reaped before leaving it to a background
/// reaper (a process in an uninterruptible wait dies only when the wait ends).
const REAP_LIMIT: Duration = Duration::from_secs(2);

/// How often the watchdog reads the host's CPU clock when budgets count CPU time.
const CPU_CHECK_INTERVAL: Duration = Duration::from_millis(2);

/// The first message to a host: what to load and how to confine it.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Hello {
    pub plugin: StagedPlugin,
    pub bot: String,
    pub game: String,
    pub sandbox: SandboxConfig,
    /// Only report the plugin's manifest, then exit (listing a folder of team plugins without
    /// opening any of them in the engine).
    #[serde(default)]
    pub inspect: bool,
}

/// Why a host could not serve, as it reports it in a `LOAD_FAILED` frame.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct LoadFailure {
    pub kind: LoadFailureKind,
    pub message: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LoadFailureKind {
    /// The plugin file, its ABI, the bot or the game (the loader's errors).
    Load,
    /// The bot could not be created (it panicked or refused in its constructor).
    Bot,
    /// Strict mode and an incomplete sandbox.
    Sandbox,
    /// The engine and the host disagree (a bug, or mismatched builds).
    Engine,
}

impl LoadFailure {
    fn new(kind: LoadFailureKind, message: impl Into<String>) -> LoadFailure {
        LoadFailure {
            kind,
            message: message.into(),
        }
    }
    pub fn load(message: impl Into<String>) -> LoadFailure {
        LoadFailure::new(LoadFailureKind::Load, message)
    }
    pub fn bot(message: impl Into<String>) -> LoadFailure {
        LoadFailure::new(LoadFailureKind::Bot, message)
    }
    pub fn sandbox(message: impl Into<String>) -> LoadFailure {
        LoadFailure::new(LoadFailureKind::Sandbox, message)
    }
    pub fn engine(message: impl Into<String>) -> LoadFailure {
        LoadFailure::new(LoadFailureKind::Engine, message)
    }
}

/// The host's answer to [`Hello`] once the bot is loaded and the sandbox applied.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Ready {
    pub manifest: Manifest,
    pub sandbox: SandboxReport,
}

/// Where to find `agon-host` and how to confine it.
#[derive(Debug, Clone)]
pub struct ProcessHostConfig {
    pub executable: PathBuf,
    pub sandbox: SandboxConfig,
}

impl ProcessHostConfig {
    /// `agon-host` from `$AGON_HOST`, else next to the running executable, else one folder up
    /// (test executables live in `target/<profile>/deps`).
    pub fn locate(sandbox: SandboxConfig) -> Result<ProcessHostConfig, String> {
        let sandbox = crate::sandbox::with_resolved_user(sandbox)?;
        if let Some(path) = std::env::var_os("AGON_HOST") {
            return Ok(ProcessHostConfig {
                executable: PathBuf::from(path),
                sandbox,
            });
        }
        let exe = std::env::current_exe().map_err(|e| format!("cannot locate agon: {e}"))?;
        let candidates: Vec<PathBuf> = exe
            .ancestors()
            .skip(1)
            .take(2)
            .map(|dir| dir.join("agon-host"))
            .collect();
        candidates
            .iter()
            .find(|p| p.is_file())
            .map(|p| ProcessHostConfig {
                executable: p.clone(),
                sandbox,
            })
            .ok_or_else(|| {
                format!(
                    "agon-host not found (looked at {}); build it with `cargo build -p agon` \
                     (`cargo install --path harness` installs both) or set AGON_HOST",
                    candidates
                        .iter()
                        .map(|p| p.display().to_string())
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            })
    }
}

#[derive(Debug, thiserror::Error)]
pub enum ProcessHostError {
    #[error("cannot start {}: {source}", executable.display())]
    Spawn {
        executable: PathBuf,
        source: std::io::Error,
    },
    /// The host could not load the plugin or the bot (the message is the loader's, naming the
    /// file), or could not confine itself in strict mode.
    #[error("{0}")]
    Refused(String),
    /// The bot itself failed while being created (panicked in its constructor).
    #[error("{0}")]
    BotFailed(String),
    /// The host died while starting: team code (a library constructor, the bot's
    /// constructor) crashed it or broke the sandbox.
    #[error("agon-host for {plugin} died during start-up: {cause}: {detail}")]
    DiedStarting {
        plugin: String,
        cause: FaultCause,
        detail: String,
    },
    /// The host misbehaved while starting: the engine's build of agon-host does not match.
    #[error("agon-host for {plugin} failed during start-up: {detail}")]
    Startup { plugin: String, detail: String },
}

impl ProcessHostError {
    /// Whether the engine failed, not the plugin: the host process could not be started. A
    /// host that fails later in its start-up is not counted, however its message words it:
    /// team code (a library constructor) runs by then and could write that message.
    pub fn is_engines(&self) -> bool {
        matches!(self, ProcessHostError::Spawn { .. })
    }
}

/// One seat's bot in a child process.
pub struct ProcessHost {
    child: Child,
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
    cgroup: Option<crate::sandbox::cgroup::HostCgroup>,
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
}

/// What a confined host tells the engine before it loads the plugin.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Confinement {
    /// The process that runs the bot, where it is not the one the engine started (a PID
    /// namespace of its own, `sandbox::supervisor`).
    pub bot_pid: Option<u32>,
}

/// What a host was started with.
#[derive(Clone)]
struct Launch {
    config: ProcessHostConfig,
    plugin: StagedPlugin,
    bot: String,
    game: String,
}

/// What the watchdog checks while a host answers one call.
struct CallWatch {
    pid: u32,
    /// Under the CPU clock: the host's CPU time when the call began, and the budget.
    cpu_limit: Option<(Duration, Duration)>,
    cpu_budget_spent: bool,
    /// `None` where a stop from outside could not be told from one the bot made itself.
    stops: Option<OutsideStops>,
}

impl CallWatch {
    /// A stop request ends the wait at once: the game will not be recorded anyway.
    fn keep_waiting(&mut self) -> bool {
        if crate::interrupt::requested().is_some() {
            return false;
        }
        if let Some(stops) = &mut self.stops {
            stops.look_now_and_then();
        }
        self.cpu_budget_spent = !self.within_cpu_budget();
        !self.cpu_budget_spent
    }

    fn within_cpu_budget(&self) -> bool {
        self.cpu_limit.is_none_or(|(start, budget)| {
            process_cpu_time(self.pid).is_none_or(|now| now.saturating_sub(start) <= budget)
        })
    }

    /// How long the host was seen stopped during the call, when that is why it is late: a stop
    /// costs no CPU time, so a bot over its CPU budget is late by its own doing.
    fn stopped_from_outside(&mut self) -> Option<Duration> {
        if self.cpu_budget_spent {
            return None;
        }
        self.stops.as_mut()?.stopped_for()
    }
}

/// The stderr kept of the hosts a seat's restarts replaced.
const EARLIER_STDERR_LIMIT: usize = 64 << 10;

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

    fn launch(
        config: &ProcessHostConfig,
        plugin: &StagedPlugin,
        bot: &str,
        game: &str,
        inspect: bool,
    ) -> Result<ProcessHost, ProcessHostError> {
        let spawn_error = |source| ProcessHostError::Spawn {
            executable: config.executable.clone(),
            source,
        };
        let pipe = || {
            rustix::pipe::pipe_with(rustix::pipe::PipeFlags::CLOEXEC)
                .map_err(|e| spawn_error(e.into()))
        };
        let (request_read, request_write) = pipe()?;
        let (response_read, response_write) = pipe()?;
        let (handover, handover_child) = notifier::handover_pair().map_err(&spawn_error)?;
        let child_in = request_read.as_raw_fd();
        let child_out = response_write.as_raw_fd();
        let child_handover = handover_child.as_raw_fd();
        let parent = rustix::process::getpid();
        let sandbox = config.sandbox.clone();
        // Decided here, not in the forked child: finding the delegation reads files and
        // allocates.
        let in_cgroup = crate::sandbox::cgroup::delegation().is_ok();
        let address_space = limits::address_space(&sandbox, in_cgroup);
        let mut command = Command::new(&config.executable);
        command
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .env_clear()
            .process_group(0);
        // SAFETY: between fork and exec only async-signal-safe calls are made: prctl, getppid,
        // dup2, fcntl, close_range and setrlimit, through raw system calls; no allocation.
        unsafe {
            command.pre_exec(move || {
                rustix::process::set_parent_process_death_signal(Some(Signal::KILL))?;
                // The parent may have died before the line above took effect.
                if rustix::process::getppid() != Some(parent) {
                    return Err(std::io::Error::other("the engine exited"));
                }
                move_fd(child_in, 3)?;
                move_fd(child_out, 4)?;
                move_fd(child_handover, notifier::HANDOVER_FD)?;
                // Nothing the engine inherited (an operator's `7<secret`, a pipe of the calling
                // shell) reaches the host: only its standard streams, its two pipes and the
                // hand-over socket.
                close_inherited_descriptors()?;
                limits::apply(&sandbox, address_space)
            });
        }
        // The engine's own stalls are left out, as for every call.
        let spawned = Stopwatch::start();
        let mut child = command.spawn().map_err(spawn_error)?;
        let child_pid = child.id();
        drop(request_read);
        drop(response_write);
        drop(handover_child);
        let stderr = StderrCapture::start(child.stderr.take());
        let mut host = ProcessHost {
            child,
            status: None,
            requests: Some(request_write),
            responses: response_read,
            stderr,
            gone: None,
            launched: None,
            earlier_stderr: String::new(),
            stopped: false,
            abandoned: false,
            cgroup: None,
            unbilled_startup: None,
            handover: Some(handover),
            refusals: None,
            bot_pid: child_pid,
            bot_pidfd: None,
            ready: Ready {
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
            },
        };
        // Before the host reads its hello it has run no team code: place it in its cgroup now.
        let cgroup = crate::sandbox::cgroup::HostCgroup::place(host.child.id(), &config.sandbox);
        let cgroup_missing = match cgroup {
            Ok(cgroup) => {
                host.cgroup = Some(cgroup);
                None
            }
            // Only a bot allowed threads needs the cgroup's CPU and task caps (see below).
            Err(e) if config.sandbox.strict && config.sandbox.threads > 0 => {
                host.kill();
                return Err(ProcessHostError::Refused(format!(
                    "sandbox strict: refusing to run: a bot allowed threads needs a cgroup of \
                     its own (cpu.max, pids.max): {e}"
                )));
            }
            Err(e) => {
                let lower_to = in_cgroup.then_some(config.sandbox.memory_bytes);
                host.unplaced(lower_to, inspect, &e)?;
                Some(format!("cgroup: {e}"))
            }
        };
        let hello = Hello {
            plugin: plugin.clone(),
            bot: bot.to_string(),
            game: game.to_string(),
            sandbox: config.sandbox.clone(),
            inspect,
        };
        let startup = |detail: String| ProcessHostError::Startup {
            plugin: plugin.path.display().to_string(),
            detail,
        };
        let hello = serde_json::to_vec(&hello).expect("hello serializes");
        let deadline = Instant::now() + STARTUP_LIMIT;
        let reply = host
            .write(frame::HELLO, &hello, Some(deadline))
            .and_then(|()| host.read_after_confinement(deadline));
        match reply {
            Ok((frame::READY, body)) => {
                host.ready = serde_json::from_slice(&body)
                    .map_err(|e| startup(format!("unreadable ready message: {e}")))?;
                if host.ready.sandbox.refusals_to_engine && host.refusals.is_none() {
                    host.kill();
                    return Err(startup("the host's refusal listener never arrived".into()));
                }
                host.pause();
                host.unbilled_startup = Some((spawned.elapsed(), host.cpu_time()));
                host.ready.sandbox.cgroup =
                    host.cgroup.as_ref().map(|c| c.path().display().to_string());
                // The missing cgroup has a warning of its own (`cgroup::warn_unavailable`).
                if !inspect && !host.ready.sandbox.complete() {
                    warn_once(&format!(
                        "sandbox incomplete: {}",
                        host.ready.sandbox.missing.join("; ")
                    ));
                }
                if let Some(reason) = cgroup_missing {
                    host.ready
                        .sandbox
                        .note_missing_cgroup(reason, config.sandbox.threads);
                }
                Ok(host)
            }
            Ok((frame::LOAD_FAILED, body)) => {
                host.kill();
                let failure: LoadFailure = serde_json::from_slice(&body).unwrap_or_else(|_| {
                    LoadFailure::engine(String::from_utf8_lossy(&body).into_owned())
                });
                Err(match failure.kind {
                    LoadFailureKind::Bot => ProcessHostError::BotFailed(failure.message),
                    LoadFailureKind::Engine => startup(failure.message),
                    LoadFailureKind::Load | LoadFailureKind::Sandbox => {
                        ProcessHostError::Refused(failure.message)
                    }
                })
            }
            Ok((kind, _)) => {
                host.kill();
                Err(startup(format!("unexpected message kind {kind}")))
            }
            Err(error) => {
                let (cause, detail) = host.fault_for(error);
                let stderr = host
                    .stderr
                    .text()
                    .map(|t| {
                        format!(
                            "; its stderr: {}",
                            t.trim().chars().take(2000).collect::<String>()
                        )
                    })
                    .unwrap_or_default();
                Err(ProcessHostError::DiedStarting {
                    plugin: plugin.path.display().to_string(),
                    cause,
                    detail: format!("{detail}{stderr}"),
                })
            }
        }
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

    /// The host's first frame after its hello, past the one that says it is confined (taking
    /// the refusal listener it handed over, so that a refusal in a library constructor is
    /// recorded at once).
    fn read_after_confinement(&mut self, deadline: Instant) -> Result<(u8, Vec<u8>), ReadError> {
        let deadline = || Some(deadline);
        let first = frame::read_frame_by(self.watched(), &deadline, None, &mut || true)?;
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
        frame::read_frame_by(self.watched(), &deadline, None, &mut || true)
    }

    /// CPU time the bot's process has used (all its threads), read by the engine itself.
    fn cpu_time(&self) -> Option<Duration> {
        process_cpu_time(self.bot_pid)
    }

    fn call(&mut self, kind: u8, message: &[u8], deadline: Deadline) -> Call<Vec<u8>> {
        if let Some(reason) = &self.gone {
            return Call {
                result: CallResult::Fault {
                    cause: FaultCause::Abandoned,
                    detail: reason.clone(),
                },
                wall: Duration::ZERO,
                cpu: None,
            };
        }
        let cpu0 = self.cpu_time();
        let watch = Stopwatch::start();
        let watchdog = deadline.watchdog();
        // The wall-clock watchdog counts the engine's running time: a stalled engine (suspended,
        // starved) moves it later instead of killing a bot that was not waited for.
        let wall_deadline = move || Some(watch.deadline(watchdog));
        let cpu_limit = match (deadline.clock, deadline.budget, cpu0) {
            (super::Clock::Cpu, Some(budget), Some(start)) => Some((start, budget)),
            _ => None,
        };
        let check_every = Some(match cpu_limit {
            Some(_) => CPU_CHECK_INTERVAL,
            None => crate::interrupt::CHECK_INTERVAL,
        });
        if let Some(fault) = self.resume_for_a_request() {
            return Call {
                result: fault,
                wall: Duration::ZERO,
                cpu: None,
            };
        }
        let mut call_watch = self.watch_call(cpu_limit);
        let outcome = self.write(kind, message, wall_deadline()).and_then(|()| {
            frame::read_frame_by(self.watched(), &wall_deadline, check_every, &mut || {
                call_watch.keep_waiting()
            })
        });
        if matches!(outcome, Ok((frame::ANSWER | frame::FAILED, _))) {
            self.pause();
        }
        let wall = watch.elapsed();
        watch.note_stall("a call to a process host");
        let cpu = match (cpu0, self.cpu_time()) {
            (Some(a), Some(b)) => Some(b.saturating_sub(a)),
            _ => None,
        };
        let result = match outcome {
            Ok((frame::ANSWER, bytes)) => CallResult::Answer(bytes),
            Ok((frame::FAILED, body)) => CallResult::Failed(failure(&body)),
            Ok((kind, _)) => {
                self.kill();
                self.gone = Some("the host broke the protocol".into());
                CallResult::Fault {
                    cause: FaultCause::Malformed,
                    detail: format!("the host answered a frame of unknown kind {kind}"),
                }
            }
            Err(ReadError::Deadline) if crate::interrupt::requested().is_some() => {
                self.kill();
                self.gone = Some("the engine is stopping".into());
                CallResult::Fault {
                    cause: FaultCause::External,
                    detail: "the engine was asked to stop while the bot was thinking".into(),
                }
            }
            Err(ReadError::Deadline) => match self.died_before_the_deadline() {
                // Whatever the bot did first decides: a host that had already died (of memory,
                // say) when the deadline was noticed is judged by its death, not as late.
                Some(status) => {
                    self.status = Some(status);
                    self.stderr.finish(Duration::from_millis(200));
                    let (cause, detail) = self.classify(Some(status));
                    self.gone = Some(format!("the host is gone: {detail}"));
                    CallResult::Fault { cause, detail }
                }
                None => self.end_late_call(call_watch.stopped_from_outside()),
            },
            Err(error) => {
                let (cause, detail) = self.fault_for(error);
                self.gone = Some(format!("the host is gone: {detail}"));
                CallResult::Fault { cause, detail }
            }
        };
        Call { result, wall, cpu }
    }

    /// What the watchdog checks while the host, just let run, answers a call. Stops are
    /// watched only where the bot cannot stop itself, and only when the engine has not left
    /// the host stopped itself (a failed SIGCONT).
    fn watch_call(&self, cpu_limit: Option<(Duration, Duration)>) -> CallWatch {
        let pid = self.bot_pid;
        let stops = (self.cannot_stop_itself() && !self.stopped).then(|| OutsideStops::watch(pid));
        CallWatch {
            pid,
            cpu_limit,
            cpu_budget_spent: false,
            stops,
        }
    }

    /// Whether a stop of the host can only have come from outside: the seccomp filter refuses
    /// the bot stop signals to itself, and Landlock the terminal whose job control would stop
    /// it (SIGTTIN, SIGTTOU). Without both a bot could fake a stop to have a game it is losing
    /// played again, so its late calls stay its own.
    fn cannot_stop_itself(&self) -> bool {
        self.ready.sandbox.seccomp && self.ready.sandbox.landlock != "none"
    }

    /// Ends a call whose host still runs at its deadline: the bot is late, unless someone
    /// stopped its process during the call, which ate the time it had.
    fn end_late_call(&mut self, stopped_from_outside: Option<Duration>) -> CallResult<Vec<u8>> {
        self.kill();
        let Some(stopped) = stopped_from_outside else {
            self.gone = Some("killed at the deadline of an earlier call".into());
            return CallResult::TimedOut;
        };
        let detail = format!(
            "the bot's process was stopped (SIGSTOP or similar) from outside the engine during \
             its call, for about {} ms; not the bot's fault",
            stopped.as_millis()
        );
        self.gone = Some(format!("the host is gone: {detail}"));
        CallResult::Fault {
            cause: FaultCause::External,
            detail,
        }
    }

    /// The host's exit status if it has already ended on its own (its answer pipe may still
    /// look open to a deadline that fired first).
    fn died_before_the_deadline(&mut self) -> Option<ExitStatus> {
        if self.status.is_some() {
            return None;
        }
        self.child.try_wait().ok().flatten()
    }

    /// Stops the host's process group between calls.
    fn pause(&mut self) {
        if self.signal_bot(Signal::STOP) {
            self.stopped = true;
        }
    }

    /// Lets a stopped host run again for a request, after checking that it has not answered
    /// already: an answer waiting before the request was written was made without it.
    fn resume_for_a_request(&mut self) -> Option<CallResult<Vec<u8>>> {
        let waiting = bytes_waiting(self.responses.as_fd());
        if waiting > 0 {
            self.kill();
            self.gone = Some("the host broke the protocol".into());
            return Some(CallResult::Fault {
                cause: FaultCause::Malformed,
                detail: format!(
                    "the bot answered before it was asked ({waiting} bytes were waiting on \
                     its pipe before the request was written)"
                ),
            });
        }
        if self.stopped && self.signal_bot(Signal::CONT) {
            self.stopped = false;
        }
        None
    }

    /// Stops or continues the bot's process: through its pidfd where it has one, else as the
    /// host's process group.
    fn signal_bot(&self, signal: Signal) -> bool {
        match &self.bot_pidfd {
            Some(pidfd) if self.status.is_none() && !self.abandoned => {
                rustix::process::pidfd_send_signal(pidfd, signal).is_ok()
            }
            _ => self.signal_group(signal),
        }
    }

    /// Sends `signal` to the host's process group while the host is certainly alive or a
    /// zombie (not reaped, not abandoned), so the pid cannot belong to another process.
    fn signal_group(&self, signal: Signal) -> bool {
        if self.status.is_some() || self.abandoned {
            return false;
        }
        Pid::from_raw(self.child.id() as i32)
            .is_some_and(|pid| kill_process_group(pid, signal).is_ok())
    }

    /// Kills the whole process group and reaps the host, waiting at most [`REAP_LIMIT`]: a
    /// host stuck in an uninterruptible wait (a frozen file system) is left to a background
    /// reaper instead of hanging the engine.
    fn kill(&mut self) -> Option<ExitStatus> {
        if self.status.is_none() && !self.abandoned {
            // The cgroup, the group, and the host itself in case it left the group (the seccomp
            // filter refuses that, but the host must never be waited for unkilled).
            if let Some(cgroup) = &self.cgroup {
                cgroup.kill();
            }
            self.signal_group(Signal::KILL);
            let _ = self.child.kill();
            let until = Instant::now() + REAP_LIMIT;
            loop {
                match self.child.try_wait() {
                    Ok(Some(status)) => {
                        self.status = Some(status);
                        break;
                    }
                    Ok(None) if Instant::now() < until => {
                        std::thread::sleep(Duration::from_millis(1))
                    }
                    Ok(None) => {
                        self.abandon();
                        break;
                    }
                    Err(_) => break,
                }
            }
        }
        self.status
    }

    /// Leaves an unreapable host to a thread that waits for it as long as it takes.
    fn abandon(&mut self) {
        let pid = self.child.id() as libc::pid_t;
        log::warn!(
            "agon-host {pid} did not die within {} ms of SIGKILL (stuck in the kernel); left \
             to a background reaper",
            REAP_LIMIT.as_millis()
        );
        self.abandoned = true;
        if self.gone.is_none() {
            self.gone = Some(format!(
                "the bot's process could not be reaped within {} ms of SIGKILL (stuck in an \
                 uninterruptible wait) and was abandoned",
                REAP_LIMIT.as_millis()
            ));
        }
        let reaper = std::thread::Builder::new().name(format!("reap-{pid}"));
        let _ = reaper.spawn(move || {
            let mut status = 0;
            // SAFETY: waitpid on our own child, writing only to the local.
            unsafe { libc::waitpid(pid, &mut status, 0) };
        });
    }

    /// The fault a failed read or write amounts to: the host's death, classified.
    fn fault_for(&mut self, error: ReadError) -> (FaultCause, String) {
        match error {
            ReadError::TooLarge(len) => {
                self.kill();
                (
                    FaultCause::Malformed,
                    format!(
                        "an answer of {len} bytes exceeds the limit of {} bytes",
                        frame::MAX_BODY
                    ),
                )
            }
            ReadError::Deadline => {
                self.kill();
                (FaultCause::Timeout, "no answer before the deadline".into())
            }
            ReadError::Refused => {
                let call = self
                    .refusals
                    .as_ref()
                    .and_then(|listener| notifier::refused_call(listener.as_fd()));
                self.kill();
                (FaultCause::RefusedSyscall, refused_calls::describe(call))
            }
            ReadError::Closed | ReadError::Io(_) => {
                let status = self.reap_after_close();
                self.stderr.finish(Duration::from_millis(200));
                self.classify(status)
            }
        }
    }

    /// How the host died ([`classify_death`]); a SIGKILL its cgroup counted as an OOM kill is
    /// `oom`: the cgroup's OOM killer at `memory.max` kills like a batch system would.
    fn classify(&self, status: Option<ExitStatus>) -> (FaultCause, String) {
        let killed = status.and_then(|s| s.signal()) == Some(libc::SIGKILL);
        if let Some(cgroup) = self.cgroup.as_ref().filter(|c| killed && c.oom_kills() > 0) {
            return (
                FaultCause::Oom,
                format!(
                    "out of memory: killed by the kernel's OOM killer at the memory limit of \
                     the bot's cgroup (memory.max, {} MiB)",
                    cgroup.memory_max() >> 20
                ),
            );
        }
        classify_death(
            status,
            self.stderr.text().as_deref(),
            self.ready.sandbox.seccomp,
        )
    }

    /// A host started with the address-space backstop of a cgroup it did not get: its limit
    /// goes back to the memory limit (or it is killed, where even that fails), and the run is
    /// told once what a missing cgroup costs.
    fn unplaced(
        &mut self,
        lower_to: Option<u64>,
        inspect: bool,
        reason: &str,
    ) -> Result<(), ProcessHostError> {
        if !inspect {
            crate::sandbox::cgroup::warn_unavailable(reason);
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

    /// The host closed its pipe: it is normally dying. Waits briefly for it to exit on its own
    /// (to learn how it died), then kills it.
    fn reap_after_close(&mut self) -> Option<ExitStatus> {
        let until = Instant::now() + Duration::from_millis(200);
        while Instant::now() < until {
            match self.child.try_wait() {
                Ok(Some(status)) => {
                    self.status = Some(status);
                    return Some(status);
                }
                Ok(None) => std::thread::sleep(Duration::from_millis(2)),
                Err(_) => break,
            }
        }
        self.kill();
        None
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

/// Bytes readable on a pipe without blocking (0 when none, or when the pipe is closed).
fn bytes_waiting(fd: BorrowedFd<'_>) -> usize {
    let mut count: libc::c_int = 0;
    // SAFETY: FIONREAD writes one int to the local.
    let result = unsafe { libc::ioctl(fd.as_raw_fd(), libc::FIONREAD, &mut count) };
    if result == 0 {
        count.max(0) as usize
    } else {
        0
    }
}

/// Closes every descriptor above the hand-over socket's (in the forked child).
fn close_inherited_descriptors() -> std::io::Result<()> {
    let first = notifier::HANDOVER_FD as u32 + 1;
    // SAFETY: close_range with integer arguments, in the forked child.
    if unsafe { libc::syscall(libc::SYS_close_range, first, u32::MAX, 0u32) } == 0 {
        Ok(())
    } else {
        Err(std::io::Error::last_os_error())
    }
}

/// Puts `fd` at `target` without close-on-exec (in the forked child).
fn move_fd(fd: i32, target: i32) -> std::io::Result<()> {
    // SAFETY: plain file-descriptor system calls on descriptors this process owns.
    unsafe {
        if fd == target {
            let flags = libc::fcntl(fd, libc::F_GETFD);
            if flags < 0 || libc::fcntl(fd, libc::F_SETFD, flags & !libc::FD_CLOEXEC) < 0 {
                return Err(std::io::Error::last_os_error());
            }
        } else if libc::dup2(fd, target) < 0 {
            return Err(std::io::Error::last_os_error());
        }
    }
    Ok(())
}

/// Raises the engine's soft limit on open files to its hard limit. Every process host holds
/// four descriptors in the engine (its request and answer pipes, its stderr and its refusal
/// listener), so 200 games at once need more than the soft limit of 1,024 most systems start
/// a shell with, while the hard limit is usually far higher. The hosts do not inherit it:
/// theirs is set between fork and exec.
pub fn allow_many_hosts() -> std::io::Result<()> {
    use rustix::process::{getrlimit, setrlimit, Resource, Rlimit};
    let limit = getrlimit(Resource::Nofile);
    if limit.current == limit.maximum {
        return Ok(());
    }
    setrlimit(
        Resource::Nofile,
        Rlimit {
            current: limit.maximum,
            maximum: limit.maximum,
        },
    )
    .map_err(Into::into)
}

/// The CPU time of process `pid` (all threads), through its CPU-time clock.
pub fn process_cpu_time(pid: u32) -> Option<Duration> {
    let mut clock: libc::clockid_t = 0;
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: both calls only write to the locals passed by pointer.
    unsafe {
        if libc::clock_getcpuclockid(pid as libc::pid_t, &mut clock) != 0 {
            return None;
        }
        if libc::clock_gettime(clock, &mut ts) != 0 {
            return None;
        }
    }
    Some(Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32))
}

fn failure(body: &[u8]) -> BotFailure {
    let kind = match body.first() {
        Some(0) => FailureKind::Panic,
        Some(1) => FailureKind::Refused,
        _ => FailureKind::Protocol,
    };
    BotFailure {
        kind,
        message: String::from_utf8_lossy(body.get(1..).unwrap_or_default())
            .into_owned()
            .into(),
    }
}

/// The failure kind as the host encodes it in a `FAILED` frame.
pub fn failure_code(kind: FailureKind) -> u8 {
    match kind {
        FailureKind::Panic => 0,
        FailureKind::Refused => 1,
        FailureKind::Protocol => 2,
    }
}

/// How a host that stopped answering died, from its wait status and its stderr (whose text
/// only ever words the detail: a bot writes there too).
///
/// `confined`: the host's seccomp filter was on, so the bot could not send itself SIGKILL,
/// SIGTERM, SIGINT or SIGHUP (see `sandbox::seccomp`); a death by one of those then came from
/// outside the engine (the engine reaps the hosts it kills itself without asking here) and is
/// `external`. Without the filter a bot could fake that to have its lost games played again, so
/// it is then the bot's crash.
pub fn classify_death(
    status: Option<ExitStatus>,
    stderr: Option<&str>,
    confined: bool,
) -> (FaultCause, String) {
    let stderr = stderr.unwrap_or("");
    let Some(status) = status else {
        return (
            FaultCause::Exited,
            "the host closed its pipe without exiting, and was killed".into(),
        );
    };
    if let Some(code) = status.code() {
        return (
            FaultCause::Exited,
            format!("the bot's process exited with code {code}"),
        );
    }
    let signal = status.signal().unwrap_or(0);
    let name = signal_name(signal);
    match signal {
        // The cause is the death's; the refusal line only names the call in the detail, so a
        // bot that prints a line of its own changes nothing but that text.
        libc::SIGSYS => (
            FaultCause::RefusedSyscall,
            refused_calls::describe(refusal_line::last_refused_call(stderr)),
        ),
        // A bot that is pid 1 of its PID namespace cannot die of its own SIGABRT: its abort
        // ends in SIGSEGV (`sandbox::supervisor`).
        libc::SIGABRT | libc::SIGSEGV if stderr.contains("memory allocation of") => (
            FaultCause::Oom,
            "out of memory: an allocation failed under the address-space limit".into(),
        ),
        libc::SIGKILL | libc::SIGTERM | libc::SIGINT | libc::SIGHUP if confined => (
            FaultCause::External,
            format!(
                "the bot's process was killed by {name} from outside the engine (a batch \
                 system, a user, or the kernel's out-of-memory killer; memory over the \
                 address-space limit fails an allocation instead)"
            ),
        ),
        libc::SIGXCPU => (
            FaultCause::Timeout,
            "the CPU-seconds limit of the host was reached (SIGXCPU)".into(),
        ),
        _ if stderr.contains("has overflowed its stack") => {
            (FaultCause::Crash, format!("stack overflow ({name})"))
        }
        _ => (
            FaultCause::Crash,
            format!("the bot's process died of {name}"),
        ),
    }
}

fn signal_name(signal: i32) -> String {
    let name = match signal {
        libc::SIGSEGV => "SIGSEGV",
        libc::SIGABRT => "SIGABRT",
        libc::SIGBUS => "SIGBUS",
        libc::SIGILL => "SIGILL",
        libc::SIGFPE => "SIGFPE",
        libc::SIGKILL => "SIGKILL",
        libc::SIGSYS => "SIGSYS",
        libc::SIGXFSZ => "SIGXFSZ",
        libc::SIGXCPU => "SIGXCPU",
        libc::SIGPIPE => "SIGPIPE",
        libc::SIGTERM => "SIGTERM",
        libc::SIGINT => "SIGINT",
        libc::SIGHUP => "SIGHUP",
        _ => return format!("signal {signal}"),
    };
    format!("{name} (signal {signal})")
}

impl SeatHost for ProcessHost {
    fn kind(&self) -> HostKind {
        HostKind::Process
    }

    /// The start call is charged the host's start-up as well, so that time spent in a library
    /// constructor or the bot's `Default` counts against the start budget.
    fn start(&mut self, message: Vec<u8>, deadline: Deadline) -> Call<()> {
        let (startup_wall, startup_cpu) = self.unbilled_startup.take().unwrap_or_default();
        let spent = match deadline.clock {
            super::Clock::Cpu => startup_cpu.unwrap_or(startup_wall),
            super::Clock::Wall => startup_wall,
        };
        let left = Deadline {
            budget: deadline.budget.map(|b| b.saturating_sub(spent)),
            ..deadline
        };
        let call = self.call(frame::START, &message, left);
        Call {
            result: call.result.map(|_| ()),
            wall: call.wall + startup_wall,
            cpu: match (call.cpu, startup_cpu) {
                (Some(a), Some(b)) => Some(a + b),
                (cpu, _) => cpu,
            },
        }
    }

    fn act(&mut self, message: Vec<u8>, deadline: Deadline) -> Call<Vec<u8>> {
        self.call(frame::ACT, &message, deadline)
    }

    fn report(&mut self) -> HostReport {
        self.shut_down();
        let stderr = match (self.earlier_stderr.is_empty(), self.stderr.text()) {
            (true, text) => text,
            (false, text) => Some(format!(
                "{}{}",
                self.earlier_stderr,
                text.unwrap_or_default()
            )),
        };
        HostReport {
            sandbox: Some(self.ready.sandbox.clone()),
            stderr,
        }
    }

    fn gone(&self) -> Option<String> {
        self.gone.clone()
    }

    fn restart(&mut self) -> Result<(), String> {
        let Some(launch) = self.launched.clone() else {
            return Err("this host was not started to play".into());
        };
        let mut fresh =
            ProcessHost::spawn(&launch.config, &launch.plugin, &launch.bot, &launch.game)
                .map_err(|e| e.to_string())?;
        self.shut_down();
        let mut earlier = std::mem::take(&mut self.earlier_stderr);
        if earlier.len() < EARLIER_STDERR_LIMIT {
            let text = self.stderr.text().unwrap_or_default();
            earlier.push_str(&text);
            if !text.is_empty() && !text.ends_with('\n') {
                earlier.push('\n');
            }
            earlier.push_str("[agon: the bot's process was started again]\n");
            let mut end = earlier.len().min(EARLIER_STDERR_LIMIT);
            while !earlier.is_char_boundary(end) {
                end -= 1;
            }
            earlier.truncate(end);
        }
        fresh.earlier_stderr = earlier;
        *self = fresh;
        Ok(())
    }
}

impl ProcessHost {
    /// Ends the host: closes its input (a well-behaved host exits), then kills what is left.
    fn shut_down(&mut self) {
        if self.gone.is_none() {
            // Closing the request pipe ends a well-behaved host's read loop, once it runs.
            self.requests = None;
            if self.stopped && self.signal_bot(Signal::CONT) {
                self.stopped = false;
            }
            let until = Instant::now() + Duration::from_millis(100);
            while self.status.is_none() && Instant::now() < until {
                match self.child.try_wait() {
                    Ok(Some(status)) => self.status = Some(status),
                    _ => std::thread::sleep(Duration::from_millis(1)),
                }
            }
            self.gone = Some("the match is over".into());
        }
        self.kill();
        self.stderr.finish(Duration::from_millis(100));
    }
}

impl Drop for ProcessHost {
    fn drop(&mut self) {
        self.shut_down();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn killed_by(signal: i32) -> Option<ExitStatus> {
        Some(ExitStatus::from_raw(signal))
    }

    #[test]
    fn a_stop_signal_or_sigkill_from_outside_is_not_the_bots_fault() {
        for signal in [libc::SIGTERM, libc::SIGINT, libc::SIGHUP, libc::SIGKILL] {
            let (cause, detail) = classify_death(killed_by(signal), None, true);
            assert_eq!(cause, FaultCause::External, "{detail}");
            assert!(detail.contains("from outside the engine"), "{detail}");
        }
    }

    #[test]
    fn without_the_seccomp_filter_a_bot_could_fake_it_so_it_is_a_crash() {
        for signal in [libc::SIGTERM, libc::SIGKILL] {
            let (cause, _) = classify_death(killed_by(signal), None, false);
            assert_eq!(cause, FaultCause::Crash);
        }
    }

    #[test]
    fn deaths_the_bot_causes_keep_their_causes() {
        let cases = [
            (libc::SIGSEGV, "", FaultCause::Crash),
            (libc::SIGSYS, "", FaultCause::RefusedSyscall),
            (
                libc::SIGABRT,
                "memory allocation of 4096 bytes failed",
                FaultCause::Oom,
            ),
            (libc::SIGXCPU, "", FaultCause::Timeout),
        ];
        for (signal, stderr, expected) in cases {
            let (cause, detail) = classify_death(killed_by(signal), Some(stderr), true);
            assert_eq!(cause, expected, "{detail}");
        }
    }

    #[test]
    fn a_refused_call_is_named_from_the_hosts_line() {
        let stderr = format!("{}{}\n", refusal_line::MARKER, libc::SYS_socket);
        let (cause, detail) = classify_death(killed_by(libc::SIGSYS), Some(&stderr), true);
        assert_eq!(cause, FaultCause::RefusedSyscall);
        assert!(detail.contains("`socket`"), "{detail}");
    }

    #[test]
    fn a_refusal_line_never_changes_the_cause() {
        let fake = format!("{}{}\n", refusal_line::MARKER, libc::SYS_clone);
        for (signal, expected) in [
            (libc::SIGSEGV, FaultCause::Crash),
            (libc::SIGKILL, FaultCause::External),
            (libc::SIGXCPU, FaultCause::Timeout),
        ] {
            let (cause, detail) = classify_death(killed_by(signal), Some(&fake), true);
            assert_eq!(cause, expected, "{detail}");
            assert!(!detail.contains("clone"), "{detail}");
        }
        let exited = classify_death(Some(ExitStatus::from_raw(3 << 8)), Some(&fake), true);
        assert_eq!(exited.0, FaultCause::Exited);
    }
}
