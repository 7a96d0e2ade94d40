//! One request to a host and its answer, under the watchdog: the host is let run for the
//! request, stopped again once it answers, and killed when it is late.

use super::frame::Waiting;
use super::frame::{self, ReadError};
use super::messages::bot_failure;
use super::watchdog::{CallWatch, Lateness};
use super::ProcessHost;
use crate::fault::FaultCause;
use crate::host::engine_stall::Stopwatch;
use crate::host::{Call, CallResult, Deadline};
use std::os::fd::{AsFd, AsRawFd, BorrowedFd};
use std::time::Duration;

impl ProcessHost {
    pub(super) fn call(&mut self, kind: u8, message: &[u8], deadline: Deadline) -> Call<Vec<u8>> {
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
        let stopwatch = Stopwatch::start();
        if let Some(fault) = self.resume_for_a_request() {
            return Call {
                result: fault,
                wall: Duration::ZERO,
                cpu: None,
            };
        }
        // The wall-clock watchdog counts the engine's running time: a stalled engine (suspended,
        // starved) moves it later instead of killing a bot that was not waited for.
        let mut call_watch = self.watch_call(stopwatch, deadline, cpu0);
        let outcome = self
            .write(kind, message, call_watch.deadline())
            .and_then(|()| frame::read_frame_by(self.watched(), &mut call_watch));
        if matches!(outcome, Ok((frame::ANSWER | frame::FAILED, _))) {
            self.pause();
        }
        let wall = call_watch.elapsed();
        let cpu = match (cpu0, self.cpu_time()) {
            (Some(a), Some(b)) => Some(b.saturating_sub(a)),
            _ => None,
        };
        let result = self.call_result(outcome, &mut call_watch);
        Call { result, wall, cpu }
    }

    /// What the host's reply, or the lack of one, makes of the call.
    fn call_result(
        &mut self,
        outcome: Result<(u8, Vec<u8>), ReadError>,
        call_watch: &mut CallWatch,
    ) -> CallResult<Vec<u8>> {
        match outcome {
            Ok((frame::ANSWER, bytes)) => CallResult::Answer(bytes),
            Ok((frame::FAILED, body)) => CallResult::Failed(bot_failure(&body)),
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
                None => self.end_late_call(call_watch.lateness()),
            },
            Err(error) => {
                let (cause, detail) = self.fault_for(error);
                self.gone = Some(format!("the host is gone: {detail}"));
                CallResult::Fault { cause, detail }
            }
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
        self.resume();
        None
    }

    /// What the watchdog checks while the host, just let run, answers a call. Stops are
    /// watched only where the bot cannot stop itself, and only when the engine has not left
    /// the host stopped itself (a failed SIGCONT).
    fn watch_call(
        &self,
        stopwatch: Stopwatch,
        deadline: Deadline,
        cpu_start: Option<Duration>,
    ) -> CallWatch {
        let watch_stops = self.cannot_stop_itself() && !self.stopped;
        CallWatch::new(
            self.bot_pid,
            stopwatch,
            deadline,
            cpu_start,
            &self.sched_stat,
            watch_stops,
        )
    }

    /// Whether a stop of the host can only have come from outside: the seccomp filter refuses
    /// the bot stop signals to itself, and Landlock the terminal whose job control would stop
    /// it (SIGTTIN, SIGTTOU). Without both a bot could fake a stop to have a game it is losing
    /// played again, so its late calls stay its own.
    fn cannot_stop_itself(&self) -> bool {
        self.ready.sandbox.seccomp && self.ready.sandbox.landlock != "none"
    }

    /// Ends a call whose host still runs at its deadline: the bot is late, unless someone
    /// stopped its process during the call, or the machine starved it, which ate the time it
    /// had. Either way the host is killed.
    fn end_late_call(&mut self, lateness: Lateness) -> CallResult<Vec<u8>> {
        self.kill();
        let detail = match lateness {
            Lateness::Own => {
                self.gone = Some("killed at the deadline of an earlier call".into());
                return CallResult::TimedOut;
            }
            Lateness::Stopped(stopped) => format!(
                "the bot's process was stopped (SIGSTOP or similar) from outside the engine \
                 during its call, for about {} ms; not the bot's fault",
                stopped.as_millis()
            ),
            Lateness::Starved(starvation) => starvation.to_string(),
        };
        self.gone = Some(format!("the host is gone: {detail}"));
        CallResult::Fault {
            cause: FaultCause::External,
            detail,
        }
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
