//! Standard output that may close early (`agon games | head`): a closed pipe ends the command
//! quietly with the shell's status for it (128 + SIGPIPE), where `println!` would panic. The
//! engine ignores SIGPIPE (it writes to bot processes that may die), so the error arrives here.

use std::io::Write;

/// The status a shell gives a command killed by SIGPIPE.
const CLOSED_STDOUT_STATUS: i32 = 128 + libc::SIGPIPE;

pub fn write(args: std::fmt::Arguments, newline: bool) {
    let mut out = std::io::stdout().lock();
    let written = out
        .write_fmt(args)
        .and_then(|()| {
            if newline {
                out.write_all(b"\n")
            } else {
                Ok(())
            }
        })
        .and_then(|()| out.flush());
    match written {
        Ok(()) => {}
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {
            crate::exit_guard::exit(CLOSED_STDOUT_STATUS)
        }
        Err(e) => {
            eprintln!("agon: error: cannot write to standard output: {e}");
            crate::exit_guard::exit(1)
        }
    }
}

/// `println!` that survives a closed standard output.
macro_rules! outln {
    () => {
        $crate::console::write(format_args!(""), true)
    };
    ($($arg:tt)*) => {
        $crate::console::write(format_args!($($arg)*), true)
    };
}

/// `print!` that survives a closed standard output.
macro_rules! out {
    ($($arg:tt)*) => {
        $crate::console::write(format_args!($($arg)*), false)
    };
}

pub(crate) use {out, outln};
