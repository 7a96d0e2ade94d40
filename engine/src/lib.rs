//! Agon's engine: authoritative and self-contained.
//!
//! Each game (its rules, protocol and session) and the registry of games live in `agon_games`;
//! the engine drives them through `agon_games::contract`.
//!
//! Its front is flat, as shakmaty's is: every type a caller names is re-exported here, so a
//! caller writes `agon_engine::MatchRecord`, never the module that defines it. Modules are public
//! only where they group free functions a caller calls by their module's name:
//! - [`loader`]: finds, checks and loads plugin files (content-addressed copies first), and its
//!   [`loader::cache`].
//! - the hosts' parts a command drives itself: the process host's child side ([`process`]), the
//!   [`sandbox`] and its cgroups, [`crash_evidence`], [`engine_stall`].
//! - [`seating`]: seats a bot on the host a match profile names; [`seed`]: seat seeds.
//! - [`replay`]: a match record verified by the rules; [`local_match`]: one match with no
//!   tournament around it.
//! - [`input_file`] and [`output_file`]: reading outside files safely (also the files game
//!   parameters name, [`GameFiles`]), replacing outputs whole; [`PathError`], an I/O failure
//!   on a named path, which every crate reports that way ([`OnPath::on_path`]).
//! - [`interrupt`]: signals and the stop they ask for; [`course_net`]: the course servers' TCP
//!   connections.

mod bot_spec;
pub mod course_net;
pub mod cpu_pressure;
mod decimal;
mod fault;
mod host;
pub mod input_file;
pub mod interrupt;
pub mod loader;
pub mod local_match;
pub mod output_file;
mod path_error;
mod record;
pub mod replay;
mod runner;
pub mod seating;
pub mod seed;

pub use bot_spec::{BotSpec, BotSpecError};
pub use course_net::{announcer::Announcer, client::ClientBot};
pub use fault::{Fault, FaultCause, Phase};
pub use host::crash_evidence::CrashLabel;
pub use host::sandbox::{cgroup::HostCgroup, SandboxConfig, UserError};
pub use host::{crash_evidence, engine_stall, process, sandbox};
pub use host::{
    thread_cpu_time, CallResult, Clock, Deadline, HostKind, InlineHost, LocateError, ProcessHost,
    ProcessHostConfig, RemoteSeat, SeatHost, ThreadHost, UnknownName, CPU_WATCHDOG_FACTOR,
};
pub use input_file::{GameFiles, Input, InputError};
pub use loader::cache::{CacheEntry, Collection, CollectionPolicy, Oddity, RemovalReason};
pub use loader::{BotDescriptor, FileVersion, LoadError, Manifest, Plugin, StagedPlugin};
pub use path_error::{OnPath, PathError};
pub use process::ProcessHostError;
pub use record::{Budgets, Forced, MatchRecord, MoveRecord, RecordError, RunQueue, SeatRecord};
pub use runner::{run_match, run_observed_match, MatchError, MatchObserver, MatchSettings, Seat};
pub use seating::{seat_from_plugin, Hosting, Trial};
pub use seed::{seat_seed, SeedSecret};
