//! How a seat runs (DESIGN.md, "Hosts"): every host takes the same encoded messages and gives
//! back the bot's encoded answers, so a bot behaves the same whichever host runs it.
//!
//! - [`InlineHost`]: the bot is called on the match thread. Fastest; for trusted code only: a
//!   bot that never returns hangs the match, and time is measured after the call.
//! - [`ThreadHost`]: the bot lives on its own worker thread and the match waits with a deadline.
//!   A late bot forfeits; a bot that never returns is abandoned (a thread cannot be killed).

mod cpu_clock;
mod inline;
mod thread;

pub use cpu_clock::thread_cpu_time;
pub use inline::InlineHost;
pub use thread::ThreadHost;

use agon_plugin_api::abi::{BotFailure, FailureKind};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;
use std::time::Duration;

/// The kinds of host, as in `--host`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum HostKind {
    Inline,
    Thread,
}

impl fmt::Display for HostKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            HostKind::Inline => "inline",
            HostKind::Thread => "thread",
        })
    }
}

impl FromStr for HostKind {
    type Err = String;
    fn from_str(s: &str) -> Result<HostKind, String> {
        match s {
            "inline" => Ok(HostKind::Inline),
            "thread" => Ok(HostKind::Thread),
            other => Err(format!(
                "unknown host `{other}` (expected inline or thread)"
            )),
        }
    }
}

/// One seat's bot, behind some host.
pub trait SeatHost: Send {
    fn kind(&self) -> HostKind;
    /// Delivers the encoded `Start` message.
    fn start(&mut self, message: Vec<u8>, budget: Option<Duration>) -> Call<()>;
    /// Delivers an encoded observation and returns the encoded reply.
    fn act(&mut self, message: Vec<u8>, budget: Option<Duration>) -> Call<Vec<u8>>;
}

/// The result of one call with its measured times.
#[derive(Debug)]
pub struct Call<T> {
    pub result: CallResult<T>,
    /// Wall time from the request to the answer (or to the deadline).
    pub wall: Duration,
    /// CPU time of the thread that ran the bot during the call, where it could be measured.
    pub cpu: Option<Duration>,
}

#[derive(Debug)]
pub enum CallResult<T> {
    Answer(T),
    /// The bot returned a failure instead of an answer (a caught panic, a refusal, a protocol
    /// mismatch).
    Failed(BotFailure),
    /// No answer within the budget. The inline host cannot interrupt, so it reports this after
    /// the late answer arrived.
    TimedOut,
    /// The host can no longer call the bot (an earlier call was abandoned).
    Gone(String),
}

impl<T> CallResult<T> {
    pub fn map<U>(self, f: impl FnOnce(T) -> U) -> CallResult<U> {
        match self {
            CallResult::Answer(t) => CallResult::Answer(f(t)),
            CallResult::Failed(b) => CallResult::Failed(b),
            CallResult::TimedOut => CallResult::TimedOut,
            CallResult::Gone(s) => CallResult::Gone(s),
        }
    }
}

/// A failure's kind in words, for fault details.
pub fn describe_failure(failure: &BotFailure) -> String {
    match failure.kind {
        FailureKind::Panic => format!("bot panicked: {}", failure.message),
        FailureKind::Refused => format!("bot refused: {}", failure.message),
        FailureKind::Protocol => format!("bot reported a protocol error: {}", failure.message),
    }
}
