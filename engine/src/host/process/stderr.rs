//! Captures a host's standard error, bounded: its first [`HEAD_LIMIT`] bytes and its last
//! [`TAIL_LIMIT`] are kept, what lies between is read and counted (so a chatty bot never blocks
//! on a full pipe). The end matters as much as the beginning: a panic's message and location,
//! and the host's own line naming a refused system call, come last.

use std::collections::VecDeque;
use std::io::Read;
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// Bytes kept of the beginning of a bot's stderr.
pub const HEAD_LIMIT: usize = 48 << 10;
/// Bytes kept of the end of a bot's stderr, past the beginning.
pub const TAIL_LIMIT: usize = 16 << 10;

#[derive(Default)]
struct Captured {
    head: Vec<u8>,
    tail: VecDeque<u8>,
    /// Bytes between the head and the tail, read and let go.
    dropped: u64,
}

impl Captured {
    fn keep(&mut self, bytes: &[u8]) {
        let room = HEAD_LIMIT.saturating_sub(self.head.len()).min(bytes.len());
        self.head.extend_from_slice(&bytes[..room]);
        self.tail.extend(&bytes[room..]);
        let excess = self.tail.len().saturating_sub(TAIL_LIMIT);
        self.tail.drain(..excess);
        self.dropped += excess as u64;
    }
}

pub struct StderrCapture {
    captured: Arc<Mutex<Captured>>,
    reader: Option<JoinHandle<()>>,
}

impl StderrCapture {
    pub fn start(stderr: Option<impl Read + Send + 'static>) -> StderrCapture {
        let captured = Arc::new(Mutex::new(Captured::default()));
        let reader = stderr.and_then(|mut pipe| {
            let sink = Arc::clone(&captured);
            std::thread::Builder::new()
                .name("bot-stderr".into())
                .spawn(move || {
                    let mut buf = [0u8; 8192];
                    while let Ok(n) = pipe.read(&mut buf) {
                        if n == 0 {
                            break;
                        }
                        let mut c = sink.lock().unwrap_or_else(|p| p.into_inner());
                        c.keep(&buf[..n]);
                    }
                })
                .ok()
        });
        StderrCapture { captured, reader }
    }

    /// Waits up to `limit` for the pipe to close (the host and everything that shared its
    /// stderr have exited), so the text is complete.
    pub fn finish(&mut self, limit: Duration) {
        let until = Instant::now() + limit;
        while self.reader.as_ref().is_some_and(|r| !r.is_finished()) && Instant::now() < until {
            std::thread::sleep(Duration::from_millis(1));
        }
        if self.reader.as_ref().is_some_and(|r| r.is_finished()) {
            if let Some(reader) = self.reader.take() {
                let _ = reader.join();
            }
        }
    }

    /// What was captured so far, or `None` if nothing was written.
    pub fn text(&self) -> Option<String> {
        let c = self.captured.lock().unwrap_or_else(|p| p.into_inner());
        if c.head.is_empty() {
            return None;
        }
        let mut text = String::from_utf8_lossy(&c.head).into_owned();
        if c.dropped > 0 {
            text.push_str(&format!(
                "\n[agon: {} bytes of stderr dropped here]\n",
                c.dropped
            ));
        }
        let (front, back) = c.tail.as_slices();
        text.push_str(&String::from_utf8_lossy(&[front, back].concat()));
        Some(text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::process::{Command, Stdio};

    /// What a capture keeps of the stderr of `sh -c script`.
    fn captured(script: &str) -> Option<String> {
        let mut child = Command::new("sh")
            .args(["-c", script])
            .stderr(Stdio::piped())
            .spawn()
            .expect("sh runs");
        let mut capture = StderrCapture::start(child.stderr.take());
        child.wait().unwrap();
        capture.finish(Duration::from_secs(5));
        capture.text()
    }

    #[test]
    fn keeps_the_beginning_and_the_end_and_counts_the_rest() {
        let text = captured(
            "head -c 200000 /dev/zero | tr '\\0' x >&2; echo 'panicked at src/lib.rs:7:5' >&2",
        )
        .unwrap();
        assert!(text.starts_with(&"x".repeat(HEAD_LIMIT)));
        let written = 200_000 + "panicked at src/lib.rs:7:5\n".len();
        let marker = format!(
            "\n[agon: {} bytes of stderr dropped here]\n",
            written - HEAD_LIMIT - TAIL_LIMIT
        );
        assert_eq!(
            text.len(),
            HEAD_LIMIT + marker.len() + TAIL_LIMIT,
            "{}",
            &text[HEAD_LIMIT..HEAD_LIMIT + 100]
        );
        assert!(text[HEAD_LIMIT..].starts_with(&marker));
        assert!(text.ends_with("xxxpanicked at src/lib.rs:7:5\n"));
    }

    #[test]
    fn a_short_stderr_is_kept_whole() {
        assert_eq!(
            captured("printf 'one\\ntwo\\n' >&2").as_deref(),
            Some("one\ntwo\n")
        );
    }

    #[test]
    fn nothing_written_is_none() {
        assert_eq!(captured("true"), None);
    }
}
