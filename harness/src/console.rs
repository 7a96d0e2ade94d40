//! Standard output that may close early (`agon games | head`): a closed pipe ends the command
//! quietly with the shell's status for it (128 + SIGPIPE), where `println!` would panic. The
//! engine ignores SIGPIPE (it writes to bot processes that may die), so the error arrives here.
//!
//! Human output carries text bots wrote (panic messages, manifests, stderr): control characters
//! in it are shown escaped, never passed to the terminal (a bot must not clear the screen, set
//! the window title or hide a line of the summary).

use std::borrow::Cow;
use std::io::Write;

/// `text` with every control character but newline and tab escaped (`\u{1b}`).
pub fn printable(text: &str) -> Cow<'_, str> {
    let unsafe_char = |c: char| c.is_control() && c != '\n' && c != '\t';
    if !text.chars().any(unsafe_char) {
        return Cow::Borrowed(text);
    }
    let mut shown = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        if unsafe_char(c) {
            shown.extend(c.escape_unicode());
        } else {
            shown.push(c);
        }
    }
    Cow::Owned(shown)
}

/// The status a shell gives a command killed by SIGPIPE.
const CLOSED_STDOUT_STATUS: i32 = 128 + libc::SIGPIPE;

pub fn write(args: std::fmt::Arguments, newline: bool) {
    let text = args.to_string();
    let mut out = std::io::stdout().lock();
    let written = out
        .write_all(printable(&text).as_bytes())
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_are_shown_escaped() {
        assert_eq!(printable("plain\n\ttext"), "plain\n\ttext");
        assert_eq!(
            printable("\u{1b}[2J\u{1b}]0;pwned\u{7}x\r"),
            "\\u{1b}[2J\\u{1b}]0;pwned\\u{7}x\\u{d}"
        );
        assert_eq!(printable("\u{9b}31m"), "\\u{9b}31m");
    }
}
