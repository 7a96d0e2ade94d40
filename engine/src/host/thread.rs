use super::crash_evidence::{in_call, CrashLabel};
use super::engine_stall::Stopwatch;
use super::sched_stat::{current_thread_id, TaskStats};
use super::starvation::{CallBackstop, SharedTaskStats, Starvation, Verdict};
use super::{thread_cpu_time, Call, CallResult, Deadline, HostKind, HostReport, SeatHost};
use crate::fault::FaultCause;
use abi_stable::std_types::RResult;
use agon_abi::{BotBox, BotFailure};
use crossbeam_channel::{bounded, Receiver, RecvTimeoutError, Sender, TryRecvError};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Stack of a bot's worker thread: searches recurse, and the default 2 MiB is small for them.
const BOT_STACK_BYTES: usize = 64 << 20;

/// How long the match thread polls for an answer before it parks (see `ThreadHost::wait`).
const SPIN_BEFORE_PARKING: Duration = Duration::from_micros(20);

/// How long dropping a host waits for the bot's own clean-up before detaching its thread.
const DROP_GRACE: Duration = Duration::from_secs(1);

enum Request {
    Start(Vec<u8>),
    Act(Vec<u8>),
    /// Names the calls that follow, for crash evidence. Sent once, when the label is given,
    /// rather than with every call: a label shared by both threads per call would bounce its
    /// reference count between their cores on every move.
    Label(CrashLabel),
}

struct Response {
    answer: RResult<Vec<u8>, BotFailure>,
    cpu: Duration,
}

/// How the wait for a response ended.
enum WaitEnd {
    Answered(Response),
    /// A stop request ended it early.
    Stopping,
    /// The bot ran past its deadline by its own doing.
    Late,
    /// The machine kept the bot from a CPU past the ceiling.
    Starved(Starvation),
    /// The worker ended without answering.
    Ended,
}

/// Runs the bot on its own thread; the match waits for each answer with a deadline.
///
/// After a timeout the seat is abandoned: its thread is left to finish (or not) on its own and
/// every later call answers an `abandoned` fault at once. A thread cannot be killed, so a bot
/// that spins forever keeps one core busy until the process exits; the process host contains
/// that, this host does not.
pub struct ThreadHost {
    requests: Option<Sender<Request>>,
    responses: Receiver<Response>,
    abandoned: Option<String>,
    worker: Option<std::thread::JoinHandle<()>>,
    /// Closed by the worker once it has dropped the bot.
    finished: Receiver<()>,
    /// The worker's scheduler statistics (`host::starvation`), once it has opened them.
    worker_stats: SharedTaskStats,
}

impl ThreadHost {
    /// Moves `bot` to a new worker thread named after the seat.
    pub fn spawn(bot: BotBox, name: String) -> std::io::Result<ThreadHost> {
        let (request_tx, request_rx) = bounded::<Request>(1);
        let (response_tx, response_rx) = bounded::<Response>(1);
        let (finished_tx, finished_rx) = bounded::<()>(0);
        let worker_stats = SharedTaskStats::default();
        let stats = Arc::clone(&worker_stats);
        let worker = std::thread::Builder::new()
            .name(name)
            .stack_size(BOT_STACK_BYTES)
            .spawn(move || {
                if let Some(own) = TaskStats::of_own_thread(current_thread_id()) {
                    let _ = stats.set(own);
                }
                serve(bot, request_rx, response_tx);
                drop(finished_tx);
            })?;
        Ok(ThreadHost {
            requests: Some(request_tx),
            responses: response_rx,
            abandoned: None,
            worker: Some(worker),
            finished: finished_rx,
            worker_stats,
        })
    }

    fn call(&mut self, request: Request, deadline: Deadline) -> Call<Vec<u8>> {
        let watchdog = deadline.watchdog();
        let gone = |reason: String| Call {
            result: CallResult::Fault {
                cause: FaultCause::Abandoned,
                detail: reason,
            },
            wall: Duration::ZERO,
            cpu: None,
        };
        if let Some(reason) = &self.abandoned {
            return gone(reason.clone());
        }
        let backstop = CallBackstop::start(&deadline, &self.worker_stats);
        let Some(requests) = &self.requests else {
            return gone("the host was shut down".into());
        };
        let watch = Stopwatch::start();
        if requests.send(request).is_err() {
            return gone("the bot's thread has ended".into());
        }
        let end = self.wait(&watch, watchdog, backstop);
        let wall = watch.elapsed();
        let late = |result| Call {
            result,
            wall,
            cpu: None,
        };
        match end {
            WaitEnd::Answered(Response { answer, cpu }) => Call {
                result: match answer {
                    RResult::ROk(bytes) => CallResult::Answer(bytes),
                    RResult::RErr(failure) => CallResult::Failed(failure),
                },
                wall,
                cpu: Some(cpu),
            },
            WaitEnd::Stopping => {
                self.abandon("the engine is stopping".into());
                late(CallResult::Fault {
                    cause: FaultCause::External,
                    detail: "the engine was asked to stop while the bot was thinking".into(),
                })
            }
            WaitEnd::Late => {
                self.abandon(format!(
                    "abandoned after a call ran past its {} ms watchdog",
                    watchdog.as_millis()
                ));
                late(CallResult::TimedOut)
            }
            WaitEnd::Starved(starvation) => {
                let detail = starvation.to_string();
                self.abandon(format!("abandoned: {detail}"));
                late(CallResult::Fault {
                    cause: FaultCause::External,
                    detail,
                })
            }
            WaitEnd::Ended => {
                self.abandon("the bot's thread ended without answering".into());
                gone("the bot's thread ended without answering".into())
            }
        }
    }

    /// Waits for the worker's response until `t0 + watchdog`, and past it while the backstop
    /// finds the worker starved of a CPU. Spins briefly first: a quick bot answers within
    /// microseconds, and parking the match thread would add a futex wake-up and a reschedule
    /// to every such move (several times the cost of the round trip itself).
    fn wait(
        &self,
        watch: &Stopwatch,
        watchdog: Duration,
        mut backstop: Option<CallBackstop>,
    ) -> WaitEnd {
        let spin_until = watch.started() + SPIN_BEFORE_PARKING;
        loop {
            match self.responses.try_recv() {
                Ok(response) => return WaitEnd::Answered(response),
                Err(TryRecvError::Disconnected) => return WaitEnd::Ended,
                Err(TryRecvError::Empty) if Instant::now() < spin_until => std::hint::spin_loop(),
                Err(TryRecvError::Empty) => break,
            }
        }
        if let Some(backstop) = &mut backstop {
            backstop.take_baseline();
        }
        // A stall of the engine moves the deadline later: wait again until it stops moving.
        let mut allowed = watchdog;
        loop {
            let deadline = watch.deadline(allowed);
            let wake = deadline.min(Instant::now() + crate::interrupt::CHECK_INTERVAL);
            match self.responses.recv_deadline(wake) {
                Ok(response) => return WaitEnd::Answered(response),
                Err(RecvTimeoutError::Disconnected) => return WaitEnd::Ended,
                Err(RecvTimeoutError::Timeout) if crate::interrupt::requested().is_some() => {
                    return WaitEnd::Stopping
                }
                Err(RecvTimeoutError::Timeout) if Instant::now() < watch.deadline(allowed) => {}
                Err(RecvTimeoutError::Timeout) => match judge(backstop.as_mut(), watch) {
                    Verdict::WaitLonger(more) => allowed += more,
                    Verdict::Late => return WaitEnd::Late,
                    Verdict::Starved(starvation) => return WaitEnd::Starved(starvation),
                },
            }
        }
    }

    /// Stops talking to the worker without waiting for it.
    fn abandon(&mut self, reason: String) {
        log::warn!("{reason}");
        self.abandoned = Some(reason);
        self.requests = None;
        self.worker = None; // detached
    }
}

/// The backstop's word on a call past its deadline: late, without one.
fn judge(backstop: Option<&mut CallBackstop>, watch: &Stopwatch) -> Verdict {
    backstop.map_or(Verdict::Late, |backstop| backstop.judge(watch.elapsed()))
}

fn serve(mut bot: BotBox, requests: Receiver<Request>, responses: Sender<Response>) {
    // The bot's own clean-up (its `Drop`) runs here too: a crash in it is the last caller's.
    let mut label = None;
    for request in requests {
        let response = match request {
            Request::Label(named) => {
                label = Some(named);
                continue;
            }
            Request::Start(message) => measured(label.as_ref(), || {
                bot.start(message.as_slice().into()).map(|()| Vec::new())
            }),
            Request::Act(message) => measured(label.as_ref(), || {
                bot.act(message.as_slice().into()).map(|b| b.into_vec())
            }),
        };
        if responses.send(response).is_err() {
            break; // the match abandoned this seat
        }
    }
    in_call(label.as_ref(), move || drop(bot));
}

/// Runs one call of the bot as `label`'s, with this thread's CPU time during it.
fn measured(
    label: Option<&CrashLabel>,
    call: impl FnOnce() -> RResult<Vec<u8>, BotFailure>,
) -> Response {
    let cpu0 = thread_cpu_time();
    let answer = in_call(label, call);
    Response {
        answer,
        cpu: thread_cpu_time().saturating_sub(cpu0),
    }
}

impl SeatHost for ThreadHost {
    fn kind(&self) -> HostKind {
        HostKind::Thread
    }

    fn start(&mut self, message: Vec<u8>, deadline: Deadline) -> Call<()> {
        let call = self.call(Request::Start(message), deadline);
        Call {
            result: call.result.map(|_| ()),
            wall: call.wall,
            cpu: call.cpu,
        }
    }

    fn act(&mut self, message: Vec<u8>, deadline: Deadline) -> Call<Vec<u8>> {
        self.call(Request::Act(message), deadline)
    }

    /// The worker lives until the host is dropped, so its times can still be read.
    fn report(&mut self) -> HostReport {
        HostReport {
            run_queue: self
                .worker_stats
                .get()
                .and_then(|stats| stats.times())
                .map(|times| times.as_run_queue()),
            ..HostReport::default()
        }
    }

    /// The worker is idle between calls (a call returns only once it has answered, or once the
    /// seat is abandoned and `requests` gone), so the label reaches it before the next call.
    fn label_calls(&mut self, label: CrashLabel) {
        if let Some(requests) = &self.requests {
            // A worker that has ended has no calls left to name.
            let _ = requests.send(Request::Label(label));
        }
    }
}

impl Drop for ThreadHost {
    fn drop(&mut self) {
        // Closing the request channel ends the worker's loop and drops the bot on its own
        // thread. A bot whose clean-up does not finish within the grace period is detached.
        self.requests = None;
        if let Some(worker) = self.worker.take() {
            if let Err(RecvTimeoutError::Disconnected) = self.finished.recv_timeout(DROP_GRACE) {
                let _ = worker.join();
            } else {
                log::warn!("a bot's clean-up took over {DROP_GRACE:?}; its thread is detached");
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::host::crash_evidence;
    use crate::host::crowded_cpu::CrowdedCpu;
    use crate::host::test_bots::{burner, burner_on, label_reader, sleeper};
    use crate::host::{Clock, HostKind, RestartError};

    fn cpu_budget(ms: u64) -> Deadline {
        Deadline::cpu(Some(Duration::from_millis(ms)))
    }

    /// A bot that computes on a CPU crowded by four other threads gets a fifth of it: its 80 ms
    /// take about 400 ms of wall time, past the 300 ms backstop of its 100 ms CPU budget. It
    /// waited for the CPU, so it is owed the rest: it answers.
    #[test]
    fn a_bot_the_machine_starves_is_waited_for_until_it_had_its_budget() {
        let crowd = CrowdedCpu::new(4);
        let bot = burner_on(Duration::from_millis(80), crowd.cpu, 0);
        let mut host = ThreadHost::spawn(bot, "starved".into()).expect("a thread");
        let call = host.act(b"move".to_vec(), cpu_budget(100));
        drop(crowd);
        assert!(
            matches!(&call.result, CallResult::Answer(bytes) if bytes == b"move"),
            "{:?} after {:?}",
            call.result,
            call.wall
        );
        let backstop = cpu_budget(100).watchdog();
        assert!(call.wall > backstop, "not starved: {:?}", call.wall);
        assert!(
            !cpu_budget(100).overrun(call.wall, call.cpu),
            "{:?}",
            call.cpu
        );
        // The record's account of the match (the answer above needed the kernel's statistics):
        // the bot waited for the CPU most of the time it wanted one.
        let run_queue = host.report().run_queue.expect("scheduler statistics");
        assert!(run_queue.waited_us > run_queue.ran_us, "{run_queue:?}");
    }

    /// Waiting for a CPU is the machine's doing, sleeping the bot's own: a sleeper on the same
    /// crowded machine is late at the backstop, as on a quiet one.
    #[test]
    fn a_bot_that_sleeps_is_late_at_the_backstop_on_a_crowded_machine() {
        let crowd = CrowdedCpu::new(4);
        let mut host =
            ThreadHost::spawn(sleeper(Duration::from_secs(2)), "sleeper".into()).expect("a thread");
        let call = host.act(b"move".to_vec(), cpu_budget(100));
        drop(crowd);
        assert!(
            matches!(call.result, CallResult::TimedOut),
            "{:?}",
            call.result
        );
        assert!(call.wall < Duration::from_secs(2), "{:?}", call.wall);
    }

    /// A bot kept from the CPU past the ceiling (twenty budgets of wall time) is given up, as
    /// the machine's fault: `external`, which has the game played again. At the lowest
    /// priority among four spinning threads it gets well under 1% of the CPU.
    #[test]
    fn a_bot_starved_past_the_ceiling_is_the_machines_fault() {
        let crowd = CrowdedCpu::new(4);
        let bot = burner_on(Duration::from_millis(50), crowd.cpu, 19);
        let mut host = ThreadHost::spawn(bot, "starved".into()).expect("a thread");
        let call = host.act(b"move".to_vec(), cpu_budget(100));
        drop(crowd);
        let CallResult::Fault { cause, detail } = &call.result else {
            panic!("{:?} after {:?}", call.result, call.wall);
        };
        assert_eq!(*cause, FaultCause::External);
        assert!(detail.contains("the machine starved the bot"), "{detail}");
        assert!(call.wall >= Duration::from_secs(2), "{:?}", call.wall);
    }

    /// A move is charged, recorded and judged by the CPU time its bot spent on its own thread:
    /// a bot over its CPU budget that answers within the wall-clock watchdog overruns it.
    #[test]
    fn a_move_is_charged_the_cpu_time_its_bot_spent() {
        let mut host = ThreadHost::spawn(burner(Duration::from_millis(60)), "burner".into())
            .expect("a thread");
        let deadline = |ms| Deadline {
            budget: Some(Duration::from_millis(ms)),
            clock: Clock::Cpu,
            // A generous watchdog: a loaded machine must not turn the answer into a timeout.
            sharing: 20,
        };
        let call = host.act(b"move".to_vec(), deadline(50));
        assert!(
            matches!(&call.result, CallResult::Answer(bytes) if bytes == b"move"),
            "{:?}",
            call.result
        );
        let cpu = call.cpu.expect("the thread host measures CPU time");
        assert!((60..65).contains(&cpu.as_millis()), "{cpu:?}");
        assert!(deadline(50).overrun(call.wall, call.cpu));
        assert!(!deadline(70).overrun(call.wall, call.cpu));
    }

    /// The label the worker's call ran under, as the label reader answers it.
    fn label_of_a_call(host: &mut ThreadHost) -> String {
        match host.act(Vec::new(), Deadline::wall(None)).result {
            CallResult::Answer(bytes) => String::from_utf8(bytes).expect("a label is text"),
            other => panic!("{other:?}"),
        }
    }

    /// The label is sent to the worker once, when given, not with every call: each call after
    /// it runs under the label given last.
    #[test]
    fn calls_run_under_the_label_given_last() {
        let evidence =
            std::env::temp_dir().join(format!("agon-thread-label-{}", std::process::id()));
        crash_evidence::install(&evidence).expect("an evidence file");
        let mut host = ThreadHost::spawn(label_reader(), "labels".into()).expect("a thread");
        assert_eq!(label_of_a_call(&mut host), "", "no label given yet");
        host.label_calls(CrashLabel::new("g1", 0, "first"));
        let first = label_of_a_call(&mut host);
        assert!(first.contains(r#""entrant":"first""#), "{first}");
        host.label_calls(CrashLabel::new("g1", 1, "second"));
        for _ in 0..2 {
            let second = label_of_a_call(&mut host);
            assert!(second.contains(r#""entrant":"second""#), "{second}");
        }
        drop(host);
        let _ = std::fs::remove_file(&evidence);
    }

    #[test]
    fn a_thread_host_says_it_cannot_be_restarted() {
        let mut host = ThreadHost::spawn(burner(Duration::ZERO), "burner".into()).unwrap();
        let refused = host.restart().unwrap_err();
        assert!(
            matches!(refused, RestartError::NotRestartable(HostKind::Thread)),
            "{refused:?}"
        );
        assert_eq!(refused.to_string(), "a thread host cannot be restarted");
    }
}
