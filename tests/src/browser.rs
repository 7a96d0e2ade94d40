//! Headless Chromium for the viewer's tests, driven over the DevTools protocol on a pipe
//! (`--remote-debugging-pipe`: the browser reads commands on fd 3 and answers on fd 4, each
//! message JSON ended by a NUL byte), so no WebSocket client or driver binary is needed.

use base64::Engine as _;
use serde_json::{json, Value};
use std::fs::File;
use std::io::{BufRead, BufReader, Write};
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// One headless browser with one page open.
/// What the browser answers an evaluation that a navigation of the page ended.
const NAVIGATED: &str = "Inspected target navigated or closed";

pub struct Browser {
    child: Child,
    commands: File,
    answers: BufReader<File>,
    next_id: u64,
    session: String,
    profile: PathBuf,
}

fn pipe() -> (OwnedFd, OwnedFd) {
    let mut fds = [0; 2];
    // SAFETY: `fds` has room for the two descriptors pipe2 writes.
    let rc = unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) };
    assert_eq!(rc, 0, "pipe2: {}", std::io::Error::last_os_error());
    // SAFETY: both descriptors were just opened and are owned by nobody else.
    unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) }
}

impl Browser {
    /// Starts the browser with an empty profile under `profile` and opens `url` at `width` x
    /// `height` CSS pixels.
    pub fn open(url: &str, profile: &Path, width: u32, height: u32) -> Result<Browser, String> {
        let exe = crate::chromium::executable()?;
        let (to_browser_read, to_browser_write) = pipe();
        let (from_browser_read, from_browser_write) = pipe();
        let (read_fd, write_fd) = (to_browser_read.as_raw_fd(), from_browser_write.as_raw_fd());
        std::fs::create_dir_all(profile).map_err(|e| format!("{}: {e}", profile.display()))?;
        let log_path = profile.join("chromium.log");
        let log = File::create(&log_path).map_err(|e| format!("{}: {e}", log_path.display()))?;
        let mut command = Command::new(&exe);
        command
            .args([
                "--headless",
                "--remote-debugging-pipe",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--hide-scrollbars",
                "--allow-file-access-from-files",
            ])
            .arg(format!("--user-data-dir={}", profile.display()))
            .arg(format!("--window-size={width},{height}"))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(log.try_clone().map_err(|e| e.to_string())?);
        // Chromium refuses to run as root with its own sandbox on; the page is ours.
        // SAFETY: geteuid has no preconditions.
        if unsafe { libc::geteuid() } == 0 {
            command.arg("--no-sandbox");
        }
        // SAFETY: only async-signal-safe calls (dup2) between fork and exec.
        unsafe {
            command.pre_exec(move || {
                // Moved above 4 first: either end may already be fd 3 or 4.
                let read_high = libc::fcntl(read_fd, libc::F_DUPFD, 10);
                let write_high = libc::fcntl(write_fd, libc::F_DUPFD, 10);
                if read_high < 0
                    || write_high < 0
                    || libc::dup2(read_high, 3) < 0
                    || libc::dup2(write_high, 4) < 0
                {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
        let child = command
            .spawn()
            .map_err(|e| format!("cannot start {}: {e}", exe.display()))?;
        drop(to_browser_read);
        drop(from_browser_write);
        let mut browser = Browser {
            child,
            commands: File::from(to_browser_write),
            answers: BufReader::new(File::from(from_browser_read)),
            next_id: 0,
            session: String::new(),
            profile: profile.to_path_buf(),
        };
        let target = browser.call("Target.createTarget", json!({ "url": "about:blank" }))?;
        let attached = browser.call(
            "Target.attachToTarget",
            json!({ "targetId": target["targetId"], "flatten": true }),
        )?;
        browser.session = attached["sessionId"]
            .as_str()
            .ok_or("no session id")?
            .to_string();
        browser.command(
            "Emulation.setDeviceMetricsOverride",
            json!({ "width": width, "height": height, "deviceScaleFactor": 1, "mobile": false }),
        )?;
        browser.goto(url)?;
        Ok(browser)
    }

    /// Opens `url` in the page and waits until it has loaded.
    pub fn goto(&mut self, url: &str) -> Result<(), String> {
        self.command("Page.navigate", json!({ "url": url }))?;
        // The old document may still be complete for a moment: wait for the new one (pages
        // may set their own #fragment).
        let address = url.split('#').next().unwrap_or(url);
        self.wait_for(
            &format!(
                "document.URL.split('#')[0] === {} && document.readyState === 'complete'",
                json!(address)
            ),
            Duration::from_secs(20),
        )
    }

    /// Sends a command to the browser itself.
    fn call(&mut self, method: &str, params: Value) -> Result<Value, String> {
        self.send(method, params, None)
    }

    /// Sends a command to the page.
    pub fn command(&mut self, method: &str, params: Value) -> Result<Value, String> {
        let session = self.session.clone();
        self.send(method, params, Some(&session))
    }

    fn send(
        &mut self,
        method: &str,
        params: Value,
        session: Option<&str>,
    ) -> Result<Value, String> {
        self.next_id += 1;
        let id = self.next_id;
        let mut message = json!({ "id": id, "method": method, "params": params });
        if let Some(session) = session {
            message["sessionId"] = json!(session);
        }
        let mut bytes = serde_json::to_vec(&message).expect("commands serialize");
        bytes.push(0);
        self.commands
            .write_all(&bytes)
            .map_err(|e| format!("{method}: the browser is gone ({e}); {}", self.log_tail()))?;
        loop {
            let mut frame = Vec::new();
            let n = self
                .answers
                .read_until(0, &mut frame)
                .map_err(|e| format!("{method}: reading the answer: {e}"))?;
            if n == 0 {
                return Err(format!(
                    "{method}: the browser closed its pipe; {}",
                    self.log_tail()
                ));
            }
            frame.pop();
            let answer: Value = serde_json::from_slice(&frame)
                .map_err(|e| format!("{method}: unreadable answer: {e}"))?;
            if answer["id"] != json!(id) {
                continue; // an event, or the answer to nobody
            }
            if let Some(error) = answer.get("error") {
                return Err(format!("{method}: {error}"));
            }
            return Ok(answer["result"].clone());
        }
    }

    /// The end of what the browser wrote to its standard error, for error messages.
    fn log_tail(&self) -> String {
        let log = std::fs::read_to_string(self.profile.join("chromium.log")).unwrap_or_default();
        let lines: Vec<&str> = log.lines().collect();
        format!(
            "its last words: {}",
            lines[lines.len().saturating_sub(8)..].join("\n")
        )
    }

    /// The value of a JavaScript expression in the page.
    pub fn eval(&mut self, expression: &str) -> Result<Value, String> {
        let result = self.command(
            "Runtime.evaluate",
            json!({ "expression": expression, "returnByValue": true, "awaitPromise": true }),
        )?;
        if let Some(exception) = result.get("exceptionDetails") {
            return Err(format!("{expression}: {exception}"));
        }
        Ok(result["result"]["value"].clone())
    }

    /// Runs `action` (JavaScript that may navigate: a click on a link, a form's submit) once
    /// this evaluation has returned. Run inside it, a navigation may end the evaluation first,
    /// and the browser then answers with an error instead of a result (seen on a busy machine).
    pub fn act(&mut self, action: &str) -> Result<(), String> {
        self.eval(&format!("setTimeout(() => {{ {action} }}, 0); true"))
            .map(|_| ())
    }

    /// Waits until `condition` (JavaScript) is true in the page. An evaluation that a
    /// navigation ended asks again, of the new document.
    pub fn wait_for(&mut self, condition: &str, limit: Duration) -> Result<(), String> {
        let t0 = Instant::now();
        loop {
            match self.eval(condition) {
                Ok(Value::Bool(true)) => return Ok(()),
                Ok(_) => {}
                Err(e) if e.contains(NAVIGATED) => {}
                Err(e) => return Err(e),
            }
            if t0.elapsed() > limit {
                return Err(format!("still not true after {limit:?}: {condition}"));
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Presses and releases a key, as a user's keyboard would (`ArrowRight`, `End`, ...).
    pub fn press(&mut self, key: &str, code: u32) -> Result<(), String> {
        for kind in ["rawKeyDown", "keyUp"] {
            self.command(
                "Input.dispatchKeyEvent",
                json!({ "type": kind, "key": key, "code": key, "windowsVirtualKeyCode": code }),
            )?;
        }
        Ok(())
    }

    /// A PNG of the page as shown.
    pub fn screenshot(&mut self, path: &Path) -> Result<(), String> {
        let shot = self.command("Page.captureScreenshot", json!({ "format": "png" }))?;
        let data = shot["data"].as_str().ok_or("no screenshot data")?;
        let png = base64::engine::general_purpose::STANDARD
            .decode(data)
            .map_err(|e| format!("screenshot data: {e}"))?;
        std::fs::write(path, png).map_err(|e| format!("{}: {e}", path.display()))
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
