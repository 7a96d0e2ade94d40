use super::{thread_cpu_time, Call, CallResult, HostKind, SeatHost};
use abi_stable::std_types::RResult;
use agon_plugin_api::abi::{BotBox, BotFailure};
use crossbeam_channel::{bounded, Receiver, RecvTimeoutError, Sender, TryRecvError};
use std::time::{Duration, Instant};

/// Stack of a bot's worker thread: searches recurse, and the default 2 MiB is small for them.
const BOT_STACK_BYTES: usize = 64 << 20;

/// How long the match thread polls for an answer before it parks (see `ThreadHost::wait`).
const SPIN_BEFORE_PARKING: Duration = Duration::from_micros(20);

enum Request {
    Start(Vec<u8>),
    Act(Vec<u8>),
}

struct Response {
    answer: RResult<Vec<u8>, BotFailure>,
    cpu: Duration,
}

/// Runs the bot on its own thread; the match waits for each answer with a deadline.
///
/// After a timeout the seat is abandoned: its thread is left to finish (or not) on its own and
/// every later call answers [`CallResult::Gone`] at once. A thread cannot be killed, so a bot
/// that spins forever keeps one core busy until the process exits; the process host contains
/// that, this host does not.
pub struct ThreadHost {
    requests: Option<Sender<Request>>,
    responses: Receiver<Response>,
    abandoned: Option<String>,
    worker: Option<std::thread::JoinHandle<()>>,
}

impl ThreadHost {
    /// Moves `bot` to a new worker thread named after the seat.
    pub fn spawn(bot: BotBox, name: String) -> std::io::Result<ThreadHost> {
        let (request_tx, request_rx) = bounded::<Request>(1);
        let (response_tx, response_rx) = bounded::<Response>(1);
        let worker = std::thread::Builder::new()
            .name(name)
            .stack_size(BOT_STACK_BYTES)
            .spawn(move || serve(bot, request_rx, response_tx))?;
        Ok(ThreadHost {
            requests: Some(request_tx),
            responses: response_rx,
            abandoned: None,
            worker: Some(worker),
        })
    }

    fn call(&mut self, request: Request, budget: Option<Duration>) -> Call<Vec<u8>> {
        let gone = |reason: String| Call {
            result: CallResult::Gone(reason),
            wall: Duration::ZERO,
            cpu: None,
        };
        if let Some(reason) = &self.abandoned {
            return gone(reason.clone());
        }
        let Some(requests) = &self.requests else {
            return gone("the host was shut down".into());
        };
        let t0 = Instant::now();
        if requests.send(request).is_err() {
            return gone("the bot's thread has ended".into());
        }
        let response = self.wait(t0, budget);
        let wall = t0.elapsed();
        match response {
            Ok(Response { answer, cpu }) => Call {
                result: match answer {
                    RResult::ROk(bytes) => CallResult::Answer(bytes),
                    RResult::RErr(failure) => CallResult::Failed(failure),
                },
                wall,
                cpu: Some(cpu),
            },
            Err(RecvTimeoutError::Timeout) => {
                self.abandon(format!(
                    "abandoned after a call ran past its {} ms budget",
                    budget.unwrap_or_default().as_millis()
                ));
                Call {
                    result: CallResult::TimedOut,
                    wall,
                    cpu: None,
                }
            }
            Err(RecvTimeoutError::Disconnected) => {
                self.abandon("the bot's thread ended without answering".into());
                gone("the bot's thread ended without answering".into())
            }
        }
    }

    /// Waits for the worker's response until `t0 + budget`. Spins briefly first: a quick bot
    /// answers within microseconds, and parking the match thread would add a futex wake-up and
    /// a reschedule to every such move (several times the cost of the round trip itself).
    fn wait(&self, t0: Instant, budget: Option<Duration>) -> Result<Response, RecvTimeoutError> {
        let spin_until = t0 + SPIN_BEFORE_PARKING;
        loop {
            match self.responses.try_recv() {
                Ok(response) => return Ok(response),
                Err(TryRecvError::Disconnected) => return Err(RecvTimeoutError::Disconnected),
                Err(TryRecvError::Empty) if Instant::now() < spin_until => std::hint::spin_loop(),
                Err(TryRecvError::Empty) => break,
            }
        }
        match budget {
            Some(budget) => self
                .responses
                .recv_timeout(budget.saturating_sub(t0.elapsed())),
            None => self
                .responses
                .recv()
                .map_err(|_| RecvTimeoutError::Disconnected),
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

fn serve(mut bot: BotBox, requests: Receiver<Request>, responses: Sender<Response>) {
    for request in requests {
        let cpu0 = thread_cpu_time();
        let answer = match request {
            Request::Start(message) => bot.start(message.as_slice().into()).map(|()| Vec::new()),
            Request::Act(message) => bot.act(message.as_slice().into()).map(|b| b.into_vec()),
        };
        let cpu = thread_cpu_time().saturating_sub(cpu0);
        if responses.send(Response { answer, cpu }).is_err() {
            break; // the match abandoned this seat
        }
    }
}

impl SeatHost for ThreadHost {
    fn kind(&self) -> HostKind {
        HostKind::Thread
    }

    fn start(&mut self, message: Vec<u8>, budget: Option<Duration>) -> Call<()> {
        let call = self.call(Request::Start(message), budget);
        Call {
            result: call.result.map(|_| ()),
            wall: call.wall,
            cpu: call.cpu,
        }
    }

    fn act(&mut self, message: Vec<u8>, budget: Option<Duration>) -> Call<Vec<u8>> {
        self.call(Request::Act(message), budget)
    }
}

impl Drop for ThreadHost {
    fn drop(&mut self) {
        // Closing the request channel ends the worker's loop; a worker that was not abandoned is
        // idle, so joining it is quick and drops the bot on its own thread.
        self.requests = None;
        if let Some(worker) = self.worker.take() {
            let _ = worker.join();
        }
    }
}
