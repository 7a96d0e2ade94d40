//! Captures a host's standard error, bounded: the first [`STDERR_LIMIT`] bytes are kept, the
//! rest is read and counted (so a chatty bot never blocks on a full pipe).

use std::io::Read;
use std::process::ChildStderr;
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// Bytes of a bot's stderr kept per match.
pub const STDERR_LIMIT: usize = 64 << 10;

#[derive(Default)]
struct Captured {
    kept: Vec<u8>,
    dropped: u64,
}

pub struct StderrCapture {
    captured: Arc<Mutex<Captured>>,
    reader: Option<JoinHandle<()>>,
}

impl StderrCapture {
    pub fn start(stderr: Option<ChildStderr>) -> StderrCapture {
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
                        let room = STDERR_LIMIT.saturating_sub(c.kept.len()).min(n);
                        c.kept.extend_from_slice(&buf[..room]);
                        c.dropped += (n - room) as u64;
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
        if c.kept.is_empty() {
            return None;
        }
        let mut text = String::from_utf8_lossy(&c.kept).into_owned();
        if c.dropped > 0 {
            text.push_str(&format!(
                "\n[agon: {} more bytes of stderr dropped]",
                c.dropped
            ));
        }
        Some(text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::process::{Command, Stdio};

    #[test]
    fn keeps_the_first_64_kib_and_counts_the_rest() {
        let mut child = Command::new("sh")
            .args(["-c", "head -c 200000 /dev/zero | tr '\\0' x >&2"])
            .stderr(Stdio::piped())
            .spawn()
            .expect("sh runs");
        let mut capture = StderrCapture::start(child.stderr.take());
        child.wait().unwrap();
        capture.finish(Duration::from_secs(5));
        let text = capture.text().unwrap();
        assert!(text.starts_with(&"x".repeat(STDERR_LIMIT)));
        assert!(
            text.ends_with(&format!(
                "[agon: {} more bytes of stderr dropped]",
                200_000 - STDERR_LIMIT
            )),
            "{}",
            &text[STDERR_LIMIT..]
        );
    }

    #[test]
    fn nothing_written_is_none() {
        let mut child = Command::new("true").stderr(Stdio::piped()).spawn().unwrap();
        let mut capture = StderrCapture::start(child.stderr.take());
        child.wait().unwrap();
        capture.finish(Duration::from_secs(5));
        assert_eq!(capture.text(), None);
    }
}
