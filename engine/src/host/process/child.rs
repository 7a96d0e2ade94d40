//! The child's side of the process host: the body of the `agon-host` executable, which the
//! `agon` package builds next to `agon` (so `cargo install --path harness` installs both). Not
//! for direct use: the engine starts it with the request pipe on file descriptor 3 and the
//! response pipe on 4, sends a hello naming the plugin and bot, and then one request per call.

use super::{failure_code, frame, Confinement, Hello, LoadFailure, Ready};
use crate::host::{parent_death, sandbox};
use crate::loader::{LoadError, Plugin, StagedPlugin};
use abi_stable::std_types::RResult;
use agon_games::registry::Registry;
use std::fs::File;
use std::io::Write;
use std::process::ExitCode;

/// First thing in `agon-host`: dies (SIGKILL) when the engine's thread that spawned it ends,
/// and exits at once if the engine named by `engine` (its pid, the host's one argument) is no
/// longer its parent, as the engine may have died before the signal was set. The host does this
/// itself because its spawn runs no code of the engine's between fork and exec.
pub fn die_with_engine(engine: Option<&str>) -> Result<(), StartError> {
    let engine = engine
        .and_then(|pid| pid.parse::<i32>().ok())
        .and_then(rustix::process::Pid::from_raw)
        .ok_or(StartError::NoEngine)?;
    Ok(parent_death::die_with(Some(engine))?)
}

/// Why `agon-host` will not start.
#[derive(Debug, thiserror::Error)]
pub enum StartError {
    #[error("started without the engine's process id: agon-host is not for direct use")]
    NoEngine,
    #[error(transparent)]
    EngineGone(#[from] parent_death::EngineGone),
}

/// The whole life of an `agon-host` process, given the engine's request pipe (`input`, file
/// descriptor 3) and response pipe (`output`, 4): serve one seat, then exit with its status.
pub fn serve_seat(mut input: File, mut output: File) -> ExitCode {
    match serve(&mut input, &mut output) {
        Ok(()) => ExitCode::SUCCESS,
        Err(failure) => {
            let body = serde_json::to_vec(&failure).unwrap_or_default();
            let _ = frame::write_frame(&mut output, frame::LOAD_FAILED, &body);
            eprintln!("agon-host: {}", failure.message);
            ExitCode::from(3)
        }
    }
}

fn serve(input: &mut File, output: &mut File) -> Result<(), LoadFailure> {
    let hello = match frame::read_frame(input) {
        Ok(Some((frame::HELLO, body))) => serde_json::from_slice::<Hello>(&body)
            .map_err(|e| LoadFailure::engine(format!("unreadable hello: {e}")))?,
        Ok(_) => return Err(LoadFailure::engine("expected a hello first")),
        Err(e) => return Err(LoadFailure::engine(format!("reading the hello: {e}"))),
    };
    // Confine first: no team code, not even a library constructor, runs outside the sandbox.
    let confined = sandbox::confine(&hello.sandbox, &hello.plugin.copy)
        .map_err(|e| LoadFailure::sandbox(format!("sandbox: refusing to run: {e}")))?;
    let report = confined.report.clone();
    if let Some(refusal) = report.strict_refusal(&hello.sandbox) {
        return Err(LoadFailure::sandbox(refusal));
    }
    // The engine takes the refusal listener now, before any team code runs, and learns which
    // process runs the bot.
    let confinement = serde_json::to_vec(&Confinement {
        bot_pid: confined.bot_pid,
    })
    .map_err(|e| LoadFailure::engine(e.to_string()))?;
    frame::write_frame(output, frame::CONFINED, &confinement)
        .map_err(|e| LoadFailure::engine(e.to_string()))?;
    let staged = StagedPlugin {
        copy: confined.plugin.clone(),
        ..hello.plugin.clone()
    };
    let plugin = Plugin::open(&staged).map_err(|e| LoadFailure::load(e.to_string()))?;
    if hello.inspect {
        let ready = Ready {
            manifest: plugin.manifest.clone(),
            sandbox: report,
        };
        let ready = serde_json::to_vec(&ready).map_err(|e| LoadFailure::engine(e.to_string()))?;
        return frame::write_frame(output, frame::READY, &ready)
            .map_err(|e| LoadFailure::engine(e.to_string()));
    }
    let registry = Registry::builtin();
    let game = registry
        .get(&hello.game)
        .map_err(|e| LoadFailure::load(e.to_string()))?;
    let mut bot = plugin.new_bot(&hello.bot, game).map_err(|e| match e {
        LoadError::BotRefused { .. } => LoadFailure::bot(e.to_string()),
        other => LoadFailure::load(other.to_string()),
    })?;
    let ready = Ready {
        manifest: plugin.manifest.clone(),
        sandbox: report,
    };
    let ready = serde_json::to_vec(&ready).map_err(|e| LoadFailure::engine(e.to_string()))?;
    frame::write_frame(output, frame::READY, &ready)
        .map_err(|e| LoadFailure::engine(e.to_string()))?;
    loop {
        let (kind, message) = match frame::read_frame(input) {
            Ok(Some(request)) => request,
            // The engine closed the pipe: the match is over.
            Ok(None) => return Ok(()),
            Err(e) => return Err(LoadFailure::engine(format!("reading a request: {e}"))),
        };
        let answer = match kind {
            frame::START => bot
                .start(message.as_slice().into())
                .map(|()| Default::default()),
            frame::ACT => bot.act(message.as_slice().into()),
            other => return Err(LoadFailure::engine(format!("unknown request kind {other}"))),
        };
        let written = match answer {
            RResult::ROk(bytes) => frame::write_frame(output, frame::ANSWER, &bytes),
            RResult::RErr(failure) => {
                let mut body = vec![failure_code(failure.kind)];
                body.extend_from_slice(failure.message.as_bytes());
                frame::write_frame(output, frame::FAILED, &body)
            }
        };
        if written.is_err() {
            // The engine is gone or killed this seat; nothing to answer to.
            let _ = output.flush();
            return Ok(());
        }
    }
}
