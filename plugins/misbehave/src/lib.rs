//! Bots that misbehave on purpose, one bad thing each, so that every fault path of the engine
//! is exercised by a real plugin. Each plays Breakthrough and misbehaves when asked for a move
//! (`panic-start`: in start); `malformed` also plays Flip; `illegal` and `spend` play ReversiXT; `illegal`, `sleep` and `rendezvous`
//! play Rectangles ([`rounds`]).
//!
//! Faults: `panic`, `panic-start`, `panic-new`, `segfault`, `segfault-new`, `abort`, `stack-overflow`, `loop`, `sleep`, `oom`,
//! `exit`, `malformed`, `huge`, `illegal`.
//!
//! Attempts: `fork`, `read-file`, `connect`, `stdout-garbage`, `thread-hog`, `early-thread`,
//! `setpgid`, `pdeathsig`, `prlimit-parent`, `self-signal`; on the machine ([`machine`]):
//! `ioctl`, `metadata`, `mounts`, `notify`, `setfsuid`, `sysv`, `thread-flood`,
//! `inherited-fd`, `namespace-thread`, `machine`; for the cgroup's CPU cap and kill ([`spin`]):
//! `spin-threads`; between bots and on the machine's state
//! ([`channels`]): `channel`, `probe`; on the sandbox's report of a refused call
//! ([`refusal`]): `sigsys`; with time ([`timing`]): `ponder`, `slow-new`, `escape-codes` (and
//! `slow`, a slow legal player to face them). For the summary a student reads ([`feedback`]):
//! `chatty` (writes to stderr, plays legal moves), `read-book`. Against the seeds ([`seeds`]):
//! `seed-thief`, `validation-cheat`. An attempting bot
//! that succeeds at something forbidden panics with a message beginning `escaped:`; otherwise
//! it gives up by answering an illegal move. So every bot here but the legal players (`slow`,
//! `chatty`) ends in a recorded fault, and an
//! `escaped:` panic means a hole in the sandbox.

use agon_sdk::export::{RawBot, WireBot};
use agon_sdk::protocol::breakthrough::{Breakthrough, Move, Observation, Setup, Square};
use agon_sdk::protocol::{Reply, Start};
use params::{number_list_param, unknown_value};
use std::hint::black_box;
use std::time::Duration;

pub mod channels;
pub mod feedback;
pub mod machine;
mod params;
pub mod refusal;
pub mod rounds;
pub mod seeds;
pub mod spin;
pub mod timing;

/// A move no rule allows: from the corner to the middle of the board.
pub(crate) fn illegal_move() -> Move {
    Move {
        from: Square { row: 0, col: 0 },
        to: Square { row: 4, col: 4 },
    }
}

/// Makes each of these Breakthrough bots answer every move with [`illegal_move`]: bots whose
/// misbehaviour, if any, is all in their constructor.
macro_rules! answer_illegal_moves {
    ($($bot:ty),+) => {$(
        impl WireBot for $bot {
            type Game = Breakthrough;
            fn act(&mut self, _: &Observation) -> Reply<Move> {
                Reply::new(illegal_move())
            }
        }
    )+};
}

answer_illegal_moves!(Illegal, SegfaultNew, PanicNew, EarlyThread);

#[derive(Default)]
pub struct Panic;

impl WireBot for Panic {
    type Game = Breakthrough;
    fn act(&mut self, _: &Observation) -> Reply<Move> {
        panic!("misbehave: deliberate panic in act");
    }
}

#[derive(Default)]
pub struct PanicStart;

impl WireBot for PanicStart {
    type Game = Breakthrough;
    fn start(&mut self, _: &Start<Setup>) -> Result<(), String> {
        panic!("misbehave: deliberate panic in start");
    }
    fn act(&mut self, _: &Observation) -> Reply<Move> {
        Reply::new(illegal_move())
    }
}

#[derive(Default)]
pub struct Loop;

impl WireBot for Loop {
    type Game = Breakthrough;
    fn act(&mut self, _: &Observation) -> Reply<Move> {
        let mut spins: u64 = 0;
        loop {
            spins = std::hint::black_box(spins.wrapping_add(1));
        }
    }
}

/// Sleeps well past its move budget (10 s when it has none), then answers.
#[derive(Default)]
pub struct Sleep {
    budget_ms: u64,
}

impl WireBot for Sleep {
    type Game = Breakthrough;
    fn start(&mut self, start: &Start<Setup>) -> Result<(), String> {
        self.budget_ms = start.move_budget_ms;
        Ok(())
    }
    fn act(&mut self, _: &Observation) -> Reply<Move> {
        let ms = if self.budget_ms == 0 {
            10_000
        } else {
            (self.budget_ms * 2).max(self.budget_ms + 1000)
        };
        std::thread::sleep(Duration::from_millis(ms));
        Reply::new(illegal_move())
    }
}

/// Answers a move no rule allows ([`answer_illegal_moves`]).
#[derive(Default)]
pub struct Illegal;

/// Crashes the process with a segmentation fault.
fn write_to_address_zero() {
    // SAFETY: none; this bot exists to crash. A volatile write to address 0 faults.
    unsafe { std::ptr::null_mut::<u64>().write_volatile(black_box(1)) };
}

#[derive(Default)]
pub struct Segfault;

impl WireBot for Segfault {
    type Game = Breakthrough;
    fn act(&mut self, _: &Observation) -> Reply<Move> {
        write_to_address_zero();
        Reply::new(illegal_move())
    }
}

/// Writes to address 0 while being created (in its `Default`) a second time in one process: the
/// first creation (a tournament's trial start, in a process of its own) passes.
pub struct SegfaultNew;

impl Default for SegfaultNew {
    fn default() -> SegfaultNew {
        static CREATED: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        if CREATED.fetch_add(1, std::sync::atomic::Ordering::SeqCst) > 0 {
            write_to_address_zero();
        }
        SegfaultNew
    }
}

#[derive(Default)]
pub struct Abort;

impl WireBot for Abort {
    type Game = Breakthrough;
    fn act(&mut self, _: &Observation) -> Reply<Move> {
        std::process::abort()
    }
}

#[allow(unconditional_recursion)]
fn recurse(depth: u64) -> u64 {
    let frame = black_box([depth; 64]);
    frame[0] + recurse(black_box(depth + 1))
}

#[derive(Default)]
pub struct StackOverflow;

impl WireBot for StackOverflow {
    type Game = Breakthrough;
    fn act(&mut self, _: &Observation) -> Reply<Move> {
        black_box(recurse(0));
        Reply::new(illegal_move())
    }
}

/// Allocates 64 MiB blocks and touches every page, without bound.
#[derive(Default)]
pub struct Oom;

impl WireBot for Oom {
    type Game = Breakthrough;
    fn act(&mut self, _: &Observation) -> Reply<Move> {
        let mut hoard: Vec<Vec<u8>> = Vec::new();
        loop {
            let mut block = vec![0u8; 64 << 20];
            for page in block.chunks_mut(4096) {
                page[0] = 1;
            }
            hoard.push(black_box(block));
        }
    }
}

#[derive(Default)]
pub struct Exit;

impl WireBot for Exit {
    type Game = Breakthrough;
    fn act(&mut self, _: &Observation) -> Reply<Move> {
        std::process::exit(0)
    }
}

/// Answers a 512 MiB message.
#[derive(Default)]
pub struct Huge;

impl RawBot for Huge {
    type Game = Breakthrough;
    fn act(&mut self, _: &[u8]) -> Vec<u8> {
        vec![7u8; 512 << 20]
    }
}

#[derive(Default)]
pub struct Fork;

impl WireBot for Fork {
    type Game = Breakthrough;
    fn act(&mut self, _: &Observation) -> Reply<Move> {
        // SAFETY: the child only calls _exit.
        match unsafe { libc::fork() } {
            0 => unsafe { libc::_exit(0) },
            pid if pid > 0 => panic!("escaped: fork created process {pid}"),
            _ => Reply::new(illegal_move()),
        }
    }
}

/// Reads /etc/passwd and the file named by its `path` parameter (another plugin's file).
#[derive(Default)]
pub struct ReadFile {
    other: Option<String>,
}

impl WireBot for ReadFile {
    type Game = Breakthrough;
    const PARAMS: &'static [&'static str] = &["path"];
    fn start(&mut self, start: &Start<Setup>) -> Result<(), String> {
        self.other = start.bot_params.get("path").cloned();
        Ok(())
    }
    fn act(&mut self, _: &Observation) -> Reply<Move> {
        let targets = std::iter::once("/etc/passwd".to_string()).chain(self.other.clone());
        for path in targets {
            if let Ok(bytes) = std::fs::read(&path) {
                panic!("escaped: read {} bytes of {path}", bytes.len());
            }
        }
        Reply::new(illegal_move())
    }
}

/// Opens a TCP connection to 127.0.0.1 on its `port` parameter (default 9, discard).
#[derive(Default)]
pub struct Connect {
    port: u16,
}

impl WireBot for Connect {
    type Game = Breakthrough;
    const PARAMS: &'static [&'static str] = &["port"];
    fn start(&mut self, start: &Start<Setup>) -> Result<(), String> {
        self.port = match start.bot_params.get("port") {
            Some(p) => p.parse().map_err(|_| format!("port `{p}` is not a port"))?,
            None => 9,
        };
        Ok(())
    }
    fn act(&mut self, _: &Observation) -> Reply<Move> {
        let address = std::net::SocketAddr::from(([127, 0, 0, 1], self.port));
        match std::net::TcpStream::connect_timeout(&address, Duration::from_millis(200)) {
            Ok(_) => panic!("escaped: connected to {address}"),
            Err(_) => Reply::new(illegal_move()),
        }
    }
}

/// Floods stdout (8 MiB), then answers an illegal move: the engine must still read that answer.
#[derive(Default)]
pub struct StdoutGarbage;

impl WireBot for StdoutGarbage {
    type Game = Breakthrough;
    fn act(&mut self, _: &Observation) -> Reply<Move> {
        use std::io::Write;
        let garbage = [0xffu8; 64 << 10];
        let mut out = std::io::stdout();
        for _ in 0..128 {
            if out.write_all(&garbage).is_err() {
                break;
            }
        }
        let _ = out.flush();
        Reply::new(illegal_move())
    }
}

/// Starts a thread that spins forever, outliving the call.
#[derive(Default)]
pub struct ThreadHog;

impl WireBot for ThreadHog {
    type Game = Breakthrough;
    fn act(&mut self, _: &Observation) -> Reply<Move> {
        let spawned = std::thread::Builder::new().spawn(|| {
            let mut spins: u64 = 0;
            loop {
                spins = black_box(spins.wrapping_add(1));
            }
        });
        match spawned {
            Ok(_) => panic!("escaped: started a thread that outlives its call"),
            Err(_) => Reply::new(illegal_move()),
        }
    }
}

/// Panics while being created (in `Default`), before any call.
pub struct PanicNew;

impl Default for PanicNew {
    fn default() -> PanicNew {
        panic!("misbehave: deliberate panic in the constructor");
    }
}

/// Starts a thread in its constructor (before any call), which then tries to read
/// /etc/passwd: team code that runs before the sandbox would be applied after loading.
pub struct EarlyThread;

impl Default for EarlyThread {
    fn default() -> EarlyThread {
        let spawned = std::thread::Builder::new().spawn(|| {
            std::thread::sleep(Duration::from_millis(50));
            if let Ok(bytes) = std::fs::read("/etc/passwd") {
                panic!(
                    "escaped: an early thread read {} bytes of /etc/passwd",
                    bytes.len()
                );
            }
        });
        if spawned.is_ok() {
            // On a host that allows threads the thread must still find no file to read.
            std::thread::sleep(Duration::from_millis(100));
        }
        EarlyThread
    }
}

/// Joins the engine's process group, so that the watchdog's group kill would miss it.
#[derive(Default)]
pub struct JoinGroup;

impl WireBot for JoinGroup {
    type Game = Breakthrough;
    fn act(&mut self, _: &Observation) -> Reply<Move> {
        // SAFETY: plain system calls on this process.
        let moved = unsafe { libc::setpgid(0, libc::getpgid(libc::getppid())) };
        if moved == 0 {
            panic!("escaped: joined the engine's process group");
        }
        Reply::new(illegal_move())
    }
}

/// Sends itself SIGTERM, SIGKILL with `signal=kill`, or a stop signal with
/// `signal=stop|tstp|ttin|ttou` (with `raise`, i.e. tgkill, or with `kill` when its `call`
/// parameter says so), which would pass for a kill or a stop from outside the engine and have
/// its game played again (or, for SIGKILL, for the kernel's OOM killer). It dies or stops
/// either way, so there is no `escaped:` panic: the recorded cause tells.
#[derive(Default)]
pub struct SelfSignal {
    use_kill: bool,
    signal: i32,
}

impl WireBot for SelfSignal {
    type Game = Breakthrough;
    const PARAMS: &'static [&'static str] = &["call", "signal"];
    fn start(&mut self, start: &Start<Setup>) -> Result<(), String> {
        self.use_kill = match start.bot_params.get("call").map(String::as_str) {
            None | Some("raise") => false,
            Some("kill") => true,
            Some(other) => return Err(unknown_value("call", other, &["raise", "kill"])),
        };
        const SIGNALS: [&str; 6] = ["term", "kill", "stop", "tstp", "ttin", "ttou"];
        self.signal = match start.bot_params.get("signal").map(String::as_str) {
            None | Some("term") => libc::SIGTERM,
            Some("kill") => libc::SIGKILL,
            Some("stop") => libc::SIGSTOP,
            Some("tstp") => libc::SIGTSTP,
            Some("ttin") => libc::SIGTTIN,
            Some("ttou") => libc::SIGTTOU,
            Some(other) => return Err(unknown_value("signal", other, &SIGNALS)),
        };
        Ok(())
    }
    fn act(&mut self, _: &Observation) -> Reply<Move> {
        // SAFETY: plain system calls on this process.
        unsafe {
            if self.use_kill {
                libc::kill(libc::getpid(), self.signal);
            } else {
                libc::raise(self.signal);
            }
        }
        Reply::new(illegal_move())
    }
}

/// Clears its death signal, so that it would outlive the engine.
#[derive(Default)]
pub struct Orphan;

impl WireBot for Orphan {
    type Game = Breakthrough;
    fn act(&mut self, _: &Observation) -> Reply<Move> {
        // SAFETY: a plain system call on this process.
        if unsafe { libc::prctl(libc::PR_SET_PDEATHSIG, 0) } == 0 {
            panic!("escaped: cleared the death signal");
        }
        Reply::new(illegal_move())
    }
}

/// Lowers the engine's open-file limit to nothing.
#[derive(Default)]
pub struct LimitParent;

impl WireBot for LimitParent {
    type Game = Breakthrough;
    fn act(&mut self, _: &Observation) -> Reply<Move> {
        let zero = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        // SAFETY: reads `zero`; writes nothing.
        let changed = unsafe {
            libc::prlimit(
                libc::getppid(),
                libc::RLIMIT_NOFILE,
                &zero,
                std::ptr::null_mut(),
            )
        };
        if changed == 0 {
            panic!("escaped: set the engine's open-file limit");
        }
        Reply::new(illegal_move())
    }
}

/// The same garbage for Flip: the bot name `malformed` plays two games.
#[derive(Default)]
pub struct MalformedFlip;

impl RawBot for MalformedFlip {
    type Game = agon_sdk::protocol::flip::Flip;
    fn act(&mut self, _: &[u8]) -> Vec<u8> {
        vec![0xff; 7]
    }
}

/// Answers bytes that are no Breakthrough reply.
#[derive(Default)]
pub struct Malformed;

impl RawBot for Malformed {
    type Game = Breakthrough;
    fn act(&mut self, _: &[u8]) -> Vec<u8> {
        vec![0xff; 7]
    }
}

/// ReversiXT: a square off every map (sides are at most 1000, rules file "Map file").
#[derive(Default)]
pub struct IllegalReversiXt;

impl WireBot for IllegalReversiXt {
    type Game = agon_sdk::protocol::reversixt::ReversiXt;
    fn act(
        &mut self,
        _: &agon_sdk::protocol::reversixt::Observation,
    ) -> Reply<agon_sdk::protocol::reversixt::Move> {
        Reply::new(agon_sdk::protocol::reversixt::Move {
            x: 4000,
            y: 4000,
            special: 0,
        })
    }
}

/// ReversiXT: sleeps the milliseconds its `ms` parameter lists, one entry per move (the last
/// repeats), then plays its first legal move: a clock a test can spend exactly.
#[derive(Default)]
pub struct Spend {
    sleeps: Vec<u64>,
    moves: usize,
}

impl WireBot for Spend {
    type Game = agon_sdk::protocol::reversixt::ReversiXt;
    const PARAMS: &'static [&'static str] = &["ms"];
    fn start(&mut self, start: &Start<agon_sdk::protocol::reversixt::Setup>) -> Result<(), String> {
        self.sleeps = number_list_param(start, "ms", "0")?;
        Ok(())
    }
    fn act(
        &mut self,
        observation: &agon_sdk::protocol::reversixt::Observation,
    ) -> Reply<agon_sdk::protocol::reversixt::Move> {
        let ms = self.sleeps[self.moves.min(self.sleeps.len() - 1)];
        self.moves += 1;
        std::thread::sleep(Duration::from_millis(ms));
        let position = agon_sdk::reversixt::convert::position(observation).expect("a board");
        Reply::new(position.legal_moves()[0].into())
    }
}

agon_sdk::export_plugin! {
    team: "Agon staff",
    wire_bots: {
        "panic" => Panic: "panics when asked for a move",
        "panic-start" => PanicStart: "panics in start",
        "panic-new" => PanicNew: "panics while being created",
        "loop" => Loop: "spins forever when asked for a move",
        "sleep" => Sleep: "sleeps past its move budget",
        "illegal" => Illegal: "answers a move no rule allows",
        "illegal" => IllegalReversiXt: "answers a move no rule allows (ReversiXT)",
        "illegal" => rounds::Seated<rounds::IllegalRectangles>: "places its robots, then moves one robot too few (Rectangles)",
        "sleep" => rounds::Seated<rounds::SleepRounds>: "stays; sleeps `ms` (default twice its budget; of CPU time spinning with `cpu=true`) in the rounds `rounds=A,B,..` lists, default 2 (Rectangles)",
        "rendezvous" => rounds::Seated<rounds::Rendezvous>: "answers only when every player of the round has been asked at once (Rectangles, hosts that share a process)",
        "spend" => Spend: "sleeps the ms its `ms=A,B,..` parameter lists per move, then plays (ReversiXT)",
        "segfault" => Segfault: "writes to address 0",
        "segfault-new" => SegfaultNew: "writes to address 0 when created a second time in one process",
        "abort" => Abort: "calls abort()",
        "stack-overflow" => StackOverflow: "recurses without bound",
        "oom" => Oom: "allocates and touches memory without bound",
        "exit" => Exit: "calls exit(0)",
        "fork" => Fork: "tries to fork",
        "read-file" => ReadFile: "tries to read /etc/passwd and the file in its `path` parameter",
        "connect" => Connect: "tries to connect to 127.0.0.1 (port parameter, default 9)",
        "stdout-garbage" => StdoutGarbage: "floods stdout, then answers",
        "thread-hog" => ThreadHog: "tries to start a thread that spins forever",
        "early-thread" => EarlyThread: "starts a thread in its constructor that tries to read /etc/passwd",
        "setpgid" => JoinGroup: "tries to join the engine's process group",
        "pdeathsig" => Orphan: "tries to clear its death signal",
        "prlimit-parent" => LimitParent: "tries to lower the engine's open-file limit",
        "self-signal" => SelfSignal: "sends itself SIGTERM, SIGKILL or a stop signal (`signal=term|kill|stop|tstp|ttin|ttou`, `call=raise|kill`) to pass for a kill or a stop from outside",
        "ioctl" => machine::Ioctl: "tries file-system ioctls (FS_IOC_GETFLAGS, FIFREEZE) on its descriptors",
        "metadata" => machine::Metadata: "tries to change its own library's metadata (`call=chmod|chown|utime|xattr`)",
        "mounts" => machine::Mounts: "tries the new mount API (`call=setattr|fsopen|open-tree`)",
        "notify" => machine::Notify: "tries to watch file activity (`call=fanotify|inotify`)",
        "setfsuid" => machine::FsUid: "tries setfsuid, which would clear its death signal",
        "sysv" => machine::SysV: "tries SysV shared memory or a message queue (`call=shm|msg`)",
        "thread-flood" => machine::ThreadFlood: "starts raw threads until refused (`allowed=N`: escapes past N)",
        "inherited-fd" => machine::InheritedFd: "tries to read descriptors the engine inherited",
        "namespace-thread" => machine::NamespaceThread: "tries to start a thread in new namespaces",
        "channel" => channels::Channel: "tries a channel to other bots (`call=lock|ofd-lock|get-lock|flock|shared-map|mincore|fadvise|pageout|membarrier`)",
        "probe" => channels::Probe: "looks at the machine (`call=pids|clocks|sysinfo|hostname|files|reopen`)",
        "machine" => machine::Machine: "tries sethostname, sync, mlockall or to lower its own priority (`call=hostname|sync|mlockall|nice|sched-idle`)",
        "ponder" => timing::Ponder: "answers on the pipe itself and thinks on the opponent's time (`mode=ponder|ahead|thread`)",
        "slow" => timing::Slow: "sleeps `ms` (default 100) per move, then plays a legal move",
        "burn" => timing::Burn: "spends `ms` of CPU (default 70) on each of its first `moves` moves (default 3), then plays a legal move its seat seed picks",
        "yield" => timing::YieldLoop: "yields its CPU in a loop when asked for a move",
        "slow-new" => timing::SlowNew: "spends 1.5 s of CPU in its constructor, then plays legal moves",
        "escape-codes" => timing::EscapeCodes: "panics with terminal control sequences in its message",
        "sigsys" => refusal::Sigsys: "tries to carry on after a refused system call (`call=handler|ignore|block`, or tampering with the host's SIGSYS handler: `call=patch|overmap|stderr`), or prints a refusal line of its own (`call=fake`)",
        "seed-thief" => seeds::SeedThief: "inverts its seat seed as the engine once derived it, says what it found on stderr, and plays legal moves",
        "validation-cheat" => seeds::ValidationCheat: "plays legal moves only when its seed is the old validation game's, illegal moves otherwise",
        "chatty" => feedback::Chatty: "writes a line to stderr on every move, and plays legal moves",
        "read-book" => feedback::ReadBook: "reads /etc/passwd as its opening book with `expect` (panics when denied)",
        "spin-threads" => spin::SpinThreads: "starts `threads` threads (default 1) that spin forever, and spins itself",
    },
    raw_bots: {
        "malformed" => Malformed: "answers bytes that do not decode",
        "malformed" => MalformedFlip: "answers bytes that do not decode (Flip)",
        "huge" => Huge: "answers a 512 MiB message",
    },
}
