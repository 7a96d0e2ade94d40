//! Standard output that may close early (`agon games | head`): a closed pipe ends the command
//! quietly with the shell's status for it (128 + SIGPIPE), where `println!` would panic. The
//! engine ignores SIGPIPE (it writes to bot processes that may die), so the error arrives here.
//!
//! Human output carries text bots wrote (panic messages, manifests, stderr): control characters
//! in it are shown escaped, never passed to the terminal (a bot must not clear the screen, set
//! the window title or hide a line of the summary). A name from a file or a plugin is shown on
//! one line ([`name`]), and so is every log record (see `main`'s logger).

use std::borrow::Cow;
use std::io::Write;
use std::path::Path;

/// `text` with every control character but newline and tab escaped (`\u{1b}`): for text meant
/// to span lines, such as a bot's stderr quoted in a match summary.
pub fn printable(text: &str) -> Cow<'_, str> {
    escaped(text, |c| c.is_control() && c != '\n' && c != '\t')
}

/// `text` as one line: every control character escaped, newline and tab too, and every
/// character that reorders or splits a line on a terminal or in an editor. For names that come
/// from files and plugins (file names, teams, bots, descriptions, panic messages): a name must
/// not start a line of its own (a forged log line) nor reorder the rest of its line.
pub fn name(text: &str) -> Cow<'_, str> {
    escaped(text, |c| c.is_control() || splits_or_reorders_a_line(c))
}

/// [`name`] of a path, as `Path::display` would show it.
pub fn path_name(path: &Path) -> String {
    name(&path.to_string_lossy()).into_owned()
}

/// `text` line by line, each line as [`name`] shows it: for messages that may rightly span
/// lines (an error listing several failures) but whose lines must hold no control characters.
pub fn lines(text: &str) -> String {
    text.split('\n').map(name).collect::<Vec<_>>().join("\n")
}

/// JSON text for a terminal: every character [`name`] would escape that JSON leaves as it is
/// (DEL, the C1 controls, the bidirectional and line-separating characters, all only possible
/// inside strings) written as a JSON `\uXXXX` escape. Still the same JSON value, and unchanged
/// by [`printable`] on its way out, so `--json` output stays valid JSON.
pub fn json_text(json: &str) -> String {
    let mut text = String::with_capacity(json.len());
    for c in json.chars() {
        if c != '\n' && (c.is_control() || splits_or_reorders_a_line(c)) {
            text.push_str(&format!("\\u{:04x}", c as u32));
        } else {
            text.push(c);
        }
    }
    text
}

/// `text` with every character that reorders or splits a line escaped (`\u{202e}`), the rest
/// as it is: for a page, where a name must not turn the text around it while newlines may stay.
pub fn visible_format_chars(text: &str) -> String {
    escaped(text, splits_or_reorders_a_line).into_owned()
}

/// Whether [`visible_format_chars`] shows `c` escaped.
pub fn is_invisible_format(c: char) -> bool {
    splits_or_reorders_a_line(c)
}

/// Bidirectional embeddings, overrides, isolates and marks (Unicode format characters, not
/// control characters), and the line and paragraph separators.
fn splits_or_reorders_a_line(c: char) -> bool {
    matches!(
        c,
        '\u{061c}'
            | '\u{200e}'
            | '\u{200f}'
            | '\u{202a}'..='\u{202e}'
            | '\u{2066}'..='\u{2069}'
            | '\u{2028}'
            | '\u{2029}'
    )
}

fn escaped(text: &str, unsafe_char: impl Fn(char) -> bool) -> Cow<'_, str> {
    if !text.chars().any(&unsafe_char) {
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
#[macro_export]
macro_rules! outln {
    () => {
        $crate::console::write(format_args!(""), true)
    };
    ($($arg:tt)*) => {
        $crate::console::write(format_args!($($arg)*), true)
    };
}

/// `print!` that survives a closed standard output.
#[macro_export]
macro_rules! out {
    ($($arg:tt)*) => {
        $crate::console::write(format_args!($($arg)*), false)
    };
}

pub use crate::{out, outln};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_for_a_terminal_is_the_same_json_value_with_nothing_to_escape() {
        let value = serde_json::json!({ "name": "a\u{7f}b\u{9b}2J\u{202e}c\n" });
        let text = json_text(&serde_json::to_string_pretty(&value).unwrap());
        assert_eq!(
            printable(&text),
            text.as_str(),
            "nothing left for a terminal"
        );
        let back: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(back, value);
    }

    #[test]
    fn control_characters_are_shown_escaped() {
        assert_eq!(printable("plain\n\ttext"), "plain\n\ttext");
        assert_eq!(
            printable("\u{1b}[2J\u{1b}]0;pwned\u{7}x\r"),
            "\\u{1b}[2J\\u{1b}]0;pwned\\u{7}x\\u{d}"
        );
        assert_eq!(printable("\u{9b}31m"), "\\u{9b}31m");
    }

    #[test]
    fn a_name_stays_on_one_line() {
        assert_eq!(
            name("evil\nINFO forged\r\tline\u{1b}[2J.so"),
            "evil\\u{a}INFO forged\\u{d}\\u{9}line\\u{1b}[2J.so"
        );
        assert_eq!(name("\u{85}next line\u{2028}"), "\\u{85}next line\\u{2028}");
    }

    #[test]
    fn a_name_cannot_reorder_its_line() {
        assert_eq!(
            name("team\u{202e}os.exe\u{2066}\u{200f}"),
            "team\\u{202e}os.exe\\u{2066}\\u{200f}"
        );
        for c in ['\u{202a}', '\u{202d}', '\u{2069}', '\u{200e}', '\u{61c}'] {
            assert!(name(&c.to_string()).starts_with("\\u{"), "{c:?}");
        }
    }

    #[test]
    fn plain_names_are_borrowed_as_they_are() {
        for plain in ["libteam_7.so", "Zürich Ünicode قطر 東京", ""] {
            assert!(matches!(name(plain), Cow::Borrowed(n) if n == plain));
        }
    }

    #[test]
    fn each_line_of_a_message_is_escaped_but_lines_stay_lines() {
        assert_eq!(
            lines("a.so: bad\r\u{1b}[2J\nb.so:\tworse"),
            "a.so: bad\\u{d}\\u{1b}[2J\nb.so:\\u{9}worse"
        );
        assert_eq!(path_name(Path::new("/t/x\ny.so")), "/t/x\\u{a}y.so");
    }
}
