//! Turns a bot spec into a seat: load (or stage) the plugin, create the bot, put it behind a
//! host.

use crate::bot_spec::BotSpec;
use crate::fault::FaultCause;
use crate::host::process::ProcessHostError;
use crate::host::{CallResult, Deadline};
use crate::host::{
    HostKind, InlineHost, ProcessHost, ProcessHostConfig, SeatHost, ThreadHost, UnavailableHost,
};
use crate::loader::{cache_dir, LoadError, Plugin, StagedPlugin};
use crate::record::SeatRecord;
use crate::runner::Seat;
use agon_abi::FailureKind;
use agon_games::contract::{GameRules, RawParams, StartInfo};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// How seats are hosted.
#[derive(Debug, Clone)]
pub struct Hosting {
    pub kind: HostKind,
    /// Where the process host's executable is and how it confines bots (process host only).
    pub process: Option<ProcessHostConfig>,
    /// Where content-addressed plugin copies go.
    pub cache: PathBuf,
}

impl Hosting {
    /// In-process hosting (inline or thread) with the default plugin cache.
    pub fn in_process(kind: HostKind) -> Hosting {
        Hosting {
            kind,
            process: None,
            cache: cache_dir(),
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum SeatError {
    #[error(transparent)]
    Load(#[from] LoadError),
    #[error("cannot start a thread for seat {seat}: {source}")]
    Thread { seat: usize, source: std::io::Error },
    #[error(transparent)]
    Process(#[from] ProcessHostError),
    #[error("the process host is not configured")]
    NoProcessHost,
    #[error("a remote seat holds a course client, not a plugin (see `agon reversixt serve`)")]
    NotAPlugin,
}

impl SeatError {
    /// Whether the engine's own resources failed (its cache, threads, processes, its build of
    /// `agon-host`), not the bot: such an error stops a run and is never charged to an entrant.
    pub fn is_engines(&self) -> bool {
        match self {
            SeatError::Load(e) => e.is_engines(),
            SeatError::Thread { .. } | SeatError::NoProcessHost => true,
            SeatError::Process(e) => e.is_engines(),
            SeatError::NotAPlugin => false,
        }
    }
}

/// Seats `spec`'s bot at `seat`. In-process hosts load the plugin here; the process host only
/// stages it (hash and content-addressed copy) and loads it in the sandboxed child.
pub fn seat(
    spec: &BotSpec,
    seat: usize,
    game: &dyn GameRules,
    hosting: &Hosting,
) -> Result<Seat, SeatError> {
    match seat_or_fail(spec, seat, game, hosting) {
        Err(SeatError::Process(ProcessHostError::BotFailed(detail))) => {
            Ok(unavailable(spec, seat, hosting, FaultCause::Panic, detail))
        }
        Err(SeatError::Process(ProcessHostError::DiedStarting { cause, detail, .. })) => {
            Ok(unavailable(spec, seat, hosting, cause, detail))
        }
        Err(SeatError::Load(LoadError::BotRefused { message, .. })) => {
            Ok(unavailable(spec, seat, hosting, FaultCause::Panic, message))
        }
        other => other,
    }
}

/// A seat whose bot failed while being created: its calls are that fault (see
/// [`UnavailableHost`]); the plugin's identity is the file's, as no manifest was read.
fn unavailable(
    spec: &BotSpec,
    seat: usize,
    hosting: &Hosting,
    cause: FaultCause,
    detail: String,
) -> Seat {
    let staged = StagedPlugin::stage(&spec.file, &hosting.cache).ok();
    let file = staged
        .as_ref()
        .map_or_else(String::new, StagedPlugin::file_name);
    Seat {
        record: SeatRecord {
            seat,
            bot: spec.bot.clone(),
            bot_params: spec.params.clone(),
            plugin: file.clone(),
            plugin_version: "?".into(),
            team: "?".into(),
            file,
            sha256: staged.map_or_else(String::new, |s| s.sha256),
            sandbox: None,
            stderr: None,
            run_queue: None,
        },
        host: Box::new(UnavailableHost::new(hosting.kind, cause, detail)),
    }
}

/// Like [`seat`], but every failure is an error (none becomes a faulty seat).
pub fn seat_or_fail(
    spec: &BotSpec,
    seat: usize,
    game: &dyn GameRules,
    hosting: &Hosting,
) -> Result<Seat, SeatError> {
    match hosting.kind {
        HostKind::Inline | HostKind::Thread => {
            let plugin = Plugin::load_with_cache(&spec.file, &hosting.cache)?;
            seat_from_plugin(&plugin, spec, seat, game, hosting.kind)
        }
        HostKind::Process => {
            let config = hosting.process.as_ref().ok_or(SeatError::NoProcessHost)?;
            process_seat(spec, seat, game, config, &hosting.cache).map(|(seat, _)| seat)
        }
        HostKind::Remote => Err(SeatError::NotAPlugin),
    }
}

/// Seats `spec`'s bot behind a new process host; also returns the host's process id.
pub fn process_seat(
    spec: &BotSpec,
    seat: usize,
    game: &dyn GameRules,
    config: &ProcessHostConfig,
    cache: &Path,
) -> Result<(Seat, u32), SeatError> {
    let staged = StagedPlugin::stage(&spec.file, cache)?;
    let host = ProcessHost::spawn(config, &staged, &spec.bot, game.name())?;
    let pid = host.pid();
    let manifest = host.manifest().clone();
    let record = SeatRecord {
        seat,
        bot: spec.bot.clone(),
        bot_params: spec.params.clone(),
        plugin: manifest.plugin,
        plugin_version: manifest.version,
        team: manifest.team,
        file: staged.file_name(),
        sha256: staged.sha256.clone(),
        sandbox: None,
        stderr: None,
        run_queue: None,
    };
    Ok((
        Seat {
            record,
            host: Box::new(host),
        },
        pid,
    ))
}

/// Setting up a seat fails this often in a row before [`seat_retrying`] gives up: the engine
/// cannot host games now (no processes, a full disk), as opposed to a bot's fault, which
/// [`seat`] turns into a faulty seat.
pub const SEAT_ATTEMPTS: usize = 3;

/// [`seat`], tried up to [`SEAT_ATTEMPTS`] times, 100 ms apart.
pub fn seat_retrying(
    spec: &BotSpec,
    seat_index: usize,
    game: &dyn GameRules,
    hosting: &Hosting,
) -> Result<Seat, SeatError> {
    let mut attempt = 1;
    loop {
        match seat(spec, seat_index, game, hosting) {
            Err(e) if attempt < SEAT_ATTEMPTS => {
                log::warn!("seating {} failed, retrying: {e}", spec.bot);
                attempt += 1;
                std::thread::sleep(Duration::from_millis(100));
            }
            result => return result,
        }
    }
}

/// Runs `seat_one` for each of a game's `seats`, and returns the results in seat order. Behind
/// the process host they run side by side: starting a host is mostly waiting for its child to
/// confine itself and load the plugin, and a game's seats started one after another doubled
/// that wait (`agon bench --suite tournament`). In-process hosts create their bots on this
/// thread, where a crash in a constructor is written down as that seat's.
pub fn for_each_seat<T: Send>(
    hosting: &Hosting,
    seats: usize,
    seat_one: impl Fn(usize) -> T + Sync,
) -> Vec<T> {
    if hosting.kind != HostKind::Process || seats < 2 {
        return (0..seats).map(&seat_one).collect();
    }
    let seat_one = &seat_one;
    std::thread::scope(|scope| {
        let started: Vec<_> = (0..seats)
            .map(|seat| {
                std::thread::Builder::new()
                    .name(format!("seat-{seat}"))
                    .spawn_scoped(scope, move || seat_one(seat))
                    .map_err(|_| seat)
            })
            .collect();
        started
            .into_iter()
            .map(|thread| match thread {
                Ok(running) => running
                    .join()
                    .unwrap_or_else(|panic| std::panic::resume_unwind(panic)),
                // No thread to be had: this one does it.
                Err(seat) => seat_one(seat),
            })
            .collect()
    })
}

/// Seats a bot of an already loaded plugin behind an in-process host.
pub fn seat_from_plugin(
    plugin: &Plugin,
    spec: &BotSpec,
    seat: usize,
    game: &dyn GameRules,
    kind: HostKind,
) -> Result<Seat, SeatError> {
    let bot = plugin.new_bot(&spec.bot, game)?;
    let host: Box<dyn SeatHost> = match kind {
        HostKind::Inline => Box::new(InlineHost::new(bot)),
        HostKind::Thread => Box::new(
            ThreadHost::spawn(bot, format!("seat-{seat}-{}", spec.bot))
                .map_err(|source| SeatError::Thread { seat, source })?,
        ),
        HostKind::Process => return Err(SeatError::NoProcessHost),
        HostKind::Remote => return Err(SeatError::NotAPlugin),
    };
    Ok(Seat {
        record: SeatRecord {
            seat,
            bot: spec.bot.clone(),
            bot_params: spec.params.clone(),
            plugin: plugin.manifest.plugin.clone(),
            plugin_version: plugin.manifest.version.clone(),
            team: plugin.manifest.team.clone(),
            file: plugin.file_name(),
            sha256: plugin.sha256.clone(),
            sandbox: None,
            stderr: None,
            run_queue: None,
        },
        host,
    })
}

/// What a trial start of a bot found.
#[derive(Debug)]
pub enum Trial {
    Fine,
    /// The bot cannot be run here (it crashed while being created, its file does not load, the
    /// sandbox is incomplete in strict mode).
    Exclude(String),
    /// The engine's own resources failed (see [`SeatError::is_engines`]): nothing is known of
    /// the bot.
    EngineFailed(String),
    /// The bot refused its parameters (`?key=value`): a mistake of whoever wrote the spec, to
    /// be refused before any game.
    Refused(String),
}

/// Seats `spec`'s bot once and delivers the start message of a game with `params`, as its first
/// game will; the host is ended afterwards.
pub fn trial_start(
    spec: &BotSpec,
    game: &dyn GameRules,
    hosting: &Hosting,
    params: &RawParams,
    start_ms: u64,
    move_ms: u64,
) -> Trial {
    let mut seat = match seat_or_fail(spec, 0, game, hosting) {
        Ok(seat) => seat,
        Err(e) if e.is_engines() => return Trial::EngineFailed(e.to_string()),
        Err(e) => return Trial::Exclude(e.to_string()),
    };
    let Ok(session) = game.new_session(params, &crate::input_file::GameFiles) else {
        return Trial::Fine; // parameter errors are reported by whoever checks the parameters
    };
    let info = StartInfo {
        seed: 0,
        start_budget_ms: start_ms,
        move_budget_ms: move_ms,
        bot_params: spec.params.clone(),
    };
    let budget = (start_ms > 0).then(|| Duration::from_millis(start_ms));
    let call = seat
        .host
        .start(session.start_message(0, &info), Deadline::wall(budget));
    match call.result {
        CallResult::Failed(f) if f.kind == FailureKind::Refused => {
            Trial::Refused(f.message.to_string())
        }
        // Anything else (even a panic at start) is the bot's to answer for in its games.
        _ => Trial::Fine,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Process seats start side by side, each on a thread of its own, and come back in seat
    /// order; in-process seats are created on the calling thread.
    #[test]
    fn seats_come_back_in_order_from_where_they_were_started() {
        let here = std::thread::current().id();
        let process = Hosting {
            kind: HostKind::Process,
            process: None,
            cache: PathBuf::new(),
        };
        let seated = for_each_seat(&process, 4, |seat| {
            (seat, std::thread::current().id() != here)
        });
        assert_eq!(seated, [(0, true), (1, true), (2, true), (3, true)]);
        let inline = Hosting::in_process(HostKind::Inline);
        let seated = for_each_seat(&inline, 3, |seat| {
            (seat, std::thread::current().id() == here)
        });
        assert_eq!(seated, [(0, true), (1, true), (2, true)]);
    }
}
