//! Bots that play with time rather than rules: thinking on the opponent's time (answering on
//! the host's pipe itself, then computing between requests), answering ahead, a helper thread
//! that spins between calls, a constructor that takes its time, and a slow but legal player
//! for them to play against.

use crate::illegal_move;
use crate::params::{number_param, param, unknown_value};
use agon_sdk::breakthrough::convert;
use agon_sdk::export::WireBot;
use agon_sdk::protocol::breakthrough::{Breakthrough, Move, Observation, Setup};
use agon_sdk::protocol::{encode, Reply, Start};
use std::time::Duration;

/// The process host's answer pipe and frame kind (`agon_engine::process::frame`).
const ANSWER_FD: i32 = 4;
const REQUEST_FD: i32 = 3;
const ANSWER: u8 = 2;

/// CPU time between two calls above which a bot was clearly left running (the engine's own
/// work between an answer and the next request is a fraction of this).
const PONDER_LIMIT: Duration = Duration::from_millis(20);

fn process_cpu() -> Duration {
    cpu_clock(libc::CLOCK_PROCESS_CPUTIME_ID)
}

/// The CPU time of the calling thread.
pub(crate) fn thread_cpu() -> Duration {
    cpu_clock(libc::CLOCK_THREAD_CPUTIME_ID)
}

fn cpu_clock(clock: libc::clockid_t) -> Duration {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: writes the local.
    unsafe { libc::clock_gettime(clock, &mut ts) };
    Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
}

pub(crate) fn first_legal_move(setup: &Setup, observation: &Observation) -> Move {
    let position = convert::position(setup, observation).expect("a valid board");
    position
        .nth_move(0)
        .expect("a position to move in has a move")
}

fn frame(answer: &Reply<Move>) -> Vec<u8> {
    let payload = encode(answer);
    let mut bytes = ((payload.len() + 1) as u32).to_le_bytes().to_vec();
    bytes.push(ANSWER);
    bytes.extend_from_slice(&payload);
    bytes
}

fn request_waiting() -> bool {
    let mut fds = libc::pollfd {
        fd: REQUEST_FD,
        events: libc::POLLIN,
        revents: 0,
    };
    // SAFETY: polls one descriptor without waiting.
    unsafe { libc::poll(&mut fds, 1, 0) > 0 }
}

/// Starts a helper thread that runs `work` all match long; refuses to start without one.
fn helper_thread(work: impl FnOnce() + Send + 'static) -> Result<(), String> {
    std::thread::Builder::new()
        .spawn(work)
        .map(|_| ())
        .map_err(|e| format!("no helper thread: {e}"))
}

/// `mode=ponder`: writes a legal answer on the host's pipe itself, then keeps computing until
/// the next request arrives, and escapes if it got more than [`PONDER_LIMIT`] of CPU meanwhile.
/// `mode=ahead`: writes that answer twice, the second for a request not yet made. `mode=thread`
/// (under `--threads 1`): a helper thread spins all match long; the bot escapes if the thread
/// ran between two calls. `mode=sleeper` (under `--threads 1`): an honest helper thread naps in
/// a loop, and the bot plays legal moves.
#[derive(Default)]
pub struct Ponder {
    mode: String,
    setup: Option<Setup>,
    last_answer_cpu: Option<Duration>,
}

impl WireBot for Ponder {
    type Game = Breakthrough;
    const PARAMS: &'static [&'static str] = &["mode"];
    fn start(&mut self, start: &Start<Setup>) -> Result<(), String> {
        self.mode = param(start, "mode", "ponder");
        self.setup = Some(start.game.clone());
        match self.mode.as_str() {
            "ponder" | "ahead" => Ok(()),
            "thread" => helper_thread(|| loop {
                std::hint::black_box(process_cpu());
            }),
            // An honest helper that sleeps in short naps: stopped mid-nap between calls, the
            // kernel resumes its sleep with restart_syscall when the host is continued.
            "sleeper" => helper_thread(|| loop {
                std::thread::sleep(Duration::from_millis(1));
            }),
            other => Err(unknown_value(
                "mode",
                other,
                &["ponder", "ahead", "thread", "sleeper"],
            )),
        }
    }

    fn act(&mut self, observation: &Observation) -> Reply<Move> {
        let setup = self.setup.as_ref().expect("start comes first");
        let answer = Reply::new(first_legal_move(setup, observation));
        if self.mode == "sleeper" {
            return answer;
        }
        if self.mode == "thread" {
            let now = process_cpu();
            // The helper thread runs during this call too; between calls it must not.
            if let Some(then) = self.last_answer_cpu {
                let between = now.saturating_sub(then);
                if between > PONDER_LIMIT {
                    panic!("escaped: a helper thread ran {between:?} between two calls");
                }
            }
            self.last_answer_cpu = Some(process_cpu());
            return answer;
        }
        let mut bytes = frame(&answer);
        if self.mode == "ahead" {
            bytes.extend_from_slice(&frame(&answer));
        }
        // SAFETY: one write of a small buffer (atomic on a pipe) to the host's answer pipe.
        unsafe { libc::write(ANSWER_FD, bytes.as_ptr().cast(), bytes.len()) };
        let answered = process_cpu();
        let mut spins: u64 = 0;
        while !request_waiting() {
            spins = std::hint::black_box(spins.wrapping_add(1));
        }
        let between = process_cpu().saturating_sub(answered);
        if between > PONDER_LIMIT {
            panic!("escaped: computed {between:?} of CPU while the opponent thought");
        }
        // The engine already has an answer; this one goes to the next request.
        Reply::new(illegal_move())
    }
}

/// Sleeps `ms` (default 100) per move, then plays its first legal move: an opponent that
/// thinks for a known time.
#[derive(Default)]
pub struct Slow {
    setup: Option<Setup>,
    ms: u64,
}

impl WireBot for Slow {
    type Game = Breakthrough;
    const PARAMS: &'static [&'static str] = &["ms"];
    fn start(&mut self, start: &Start<Setup>) -> Result<(), String> {
        self.ms = number_param(start, "ms", 100)?;
        self.setup = Some(start.game.clone());
        Ok(())
    }
    fn act(&mut self, observation: &Observation) -> Reply<Move> {
        std::thread::sleep(Duration::from_millis(self.ms));
        let setup = self.setup.as_ref().expect("start comes first");
        Reply::new(first_legal_move(setup, observation))
    }
}

/// Spends `ms` of CPU time (default 70), spinning, on each of its first `moves` moves (default
/// 3), then plays a legal move its seat seed picks: a bot that computes close to its budget, and
/// whose games the seed decides.
#[derive(Default)]
pub struct Burn {
    setup: Option<Setup>,
    cpu: Duration,
    burning_moves: usize,
    moves: usize,
    seed: u64,
}

impl WireBot for Burn {
    type Game = Breakthrough;
    const PARAMS: &'static [&'static str] = &["ms", "moves"];
    fn start(&mut self, start: &Start<Setup>) -> Result<(), String> {
        self.cpu = Duration::from_millis(number_param(start, "ms", 70)?);
        self.burning_moves = number_param(start, "moves", 3)?;
        self.setup = Some(start.game.clone());
        self.seed = start.seed;
        Ok(())
    }
    fn act(&mut self, observation: &Observation) -> Reply<Move> {
        if self.moves < self.burning_moves {
            let start = thread_cpu();
            while thread_cpu().saturating_sub(start) < self.cpu {
                std::hint::spin_loop();
            }
        }
        self.moves += 1;
        let setup = self.setup.as_ref().expect("start comes first");
        let position = convert::position(setup, observation).expect("a valid board");
        let pick = mix(self.seed ^ self.moves as u64) % position.move_count() as u64;
        Reply::new(
            position
                .nth_move(pick as u32)
                .expect("below the move count"),
        )
    }
}

/// SplitMix64's finaliser: spreads a seed's bits over the whole word.
fn mix(mut x: u64) -> u64 {
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

/// Yields its CPU in a loop when asked for a move: on a busy machine it would wait for a CPU
/// without using one, and pass for a bot the machine starved, were yielding not answered at
/// once by the sandbox.
#[derive(Default)]
pub struct YieldLoop;

impl WireBot for YieldLoop {
    type Game = Breakthrough;
    fn start(&mut self, _: &Start<Setup>) -> Result<(), String> {
        Ok(())
    }
    fn act(&mut self, _: &Observation) -> Reply<Move> {
        loop {
            std::thread::yield_now();
        }
    }
}

/// Spends 1.5 s of CPU in its constructor (`Default`), then plays legal moves at once.
pub struct SlowNew {
    setup: Option<Setup>,
}

impl Default for SlowNew {
    fn default() -> SlowNew {
        let start = process_cpu();
        while process_cpu().saturating_sub(start) < Duration::from_millis(1500) {}
        SlowNew { setup: None }
    }
}

impl WireBot for SlowNew {
    type Game = Breakthrough;
    fn start(&mut self, start: &Start<Setup>) -> Result<(), String> {
        self.setup = Some(start.game.clone());
        Ok(())
    }
    fn act(&mut self, observation: &Observation) -> Reply<Move> {
        let setup = self.setup.as_ref().expect("start comes first");
        Reply::new(first_legal_move(setup, observation))
    }
}

/// Panics with terminal control sequences in its message (clear screen, set the window
/// title, ring the bell), which a human summary must not pass to the terminal.
#[derive(Default)]
pub struct EscapeCodes;

impl WireBot for EscapeCodes {
    type Game = Breakthrough;
    fn act(&mut self, _: &Observation) -> Reply<Move> {
        panic!("\u{1b}[2J\u{1b}]0;pwned\u{7}gotcha\u{1b}[31m");
    }
}
