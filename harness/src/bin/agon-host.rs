//! `agon-host`: serves one seat's bot in a sandboxed child process of `agon`. The logic is all
//! in `engine/src/host/` (`agon_engine::process` and `agon_engine::sandbox`). Built in this package so that `cargo install --path harness`
//! puts it beside `agon`, where `ProcessHostConfig::locate` looks first. Not for direct use.

use std::fs::File;
use std::os::fd::FromRawFd;
use std::process::ExitCode;

fn main() -> ExitCode {
    let engine = std::env::args().nth(1);
    if let Err(why) = agon_engine::process::child::die_with_engine(engine.as_deref()) {
        eprintln!("agon-host: {why}");
        return ExitCode::from(3);
    }
    // SAFETY: the engine starts agon-host with its request pipe on descriptor 3 and its
    // response pipe on 4, and nothing else in this process owns them.
    let (input, output) = unsafe { (File::from_raw_fd(3), File::from_raw_fd(4)) };
    agon_engine::process::child::serve_seat(input, output)
}
