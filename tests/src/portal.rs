//! The course portal (`agon portal`) as a test drives it: the real binary on a folder the test
//! owns, a real HTTP client on 127.0.0.1, each team's token kept for the test to act as it.

use crate::{assert_has, plugin};
use reqwest::blocking::multipart::{Form, Part};
use reqwest::blocking::Client;
use serde_json::Value;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// Long enough for a loaded 2-core CI machine; conditions are polled.
pub const PATIENCE: Duration = Duration::from_secs(120);

pub struct Portal {
    pub child: Child,
    pub url: String,
    pub dir: PathBuf,
    stderr: PathBuf,
    pub client: Client,
}

/// The token `add_team` printed for each team of each portal folder (the latest one).
static TOKENS: std::sync::Mutex<Vec<(PathBuf, String, String)>> = std::sync::Mutex::new(Vec::new());

pub fn token_of(dir: &Path, team: &str) -> String {
    let tokens = TOKENS.lock().unwrap();
    let found = tokens.iter().rev().find(|(d, t, _)| d == dir && t == team);
    found
        .map(|(_, _, token)| token.clone())
        .unwrap_or_else(|| panic!("no token of {team}"))
}

impl Portal {
    /// `agon portal` on `dir` (Breakthrough, a port of its own), with `extra` flags.
    pub fn start(dir: &Path, extra: &[&str]) -> Portal {
        Portal::launch(
            Portal::command(dir, extra),
            dir,
            Portal::client().build().unwrap(),
        )
    }

    /// The command [`Portal::start`] runs.
    pub fn command(dir: &Path, extra: &[&str]) -> Command {
        let mut command = crate::agon();
        command
            .args(["portal", "--dir", dir.to_str().unwrap()])
            .args(["--game", "breakthrough", "--listen", "127.0.0.1:0"])
            .args(["--settle-ms", "300", "--seed", "7"])
            .args(extra);
        command
    }

    /// The HTTP client of the tests. A connection per request: one the portal closed after
    /// refusing a body (as it must) is never reused.
    pub fn client() -> reqwest::blocking::ClientBuilder {
        Client::builder()
            .timeout(Duration::from_secs(60))
            .pool_max_idle_per_host(0)
    }

    /// Starts `command` (an `agon portal`), and talks to it with `client` once it says where it
    /// listens.
    pub fn launch(mut command: Command, dir: &Path, client: Client) -> Portal {
        let stderr = dir.join(format!("portal-{}.stderr", now_ms()));
        let mut child = command
            .stdout(Stdio::piped())
            .stderr(std::fs::File::create(&stderr).unwrap())
            .spawn()
            .expect("agon portal starts");
        let mut first = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut first)
            .unwrap();
        let url = first
            .split_whitespace()
            .find(|w| w.starts_with("http://") || w.starts_with("https://"))
            .unwrap_or_else(|| {
                panic!(
                    "no address in {first:?}: {}",
                    std::fs::read_to_string(&stderr).unwrap_or_default()
                )
            })
            .trim_end_matches('/')
            .to_string();
        Portal {
            child,
            url,
            dir: dir.to_path_buf(),
            stderr,
            client,
        }
    }

    pub fn stderr(&self) -> String {
        std::fs::read_to_string(&self.stderr).unwrap_or_default()
    }

    pub fn get(&self, path: &str) -> reqwest::blocking::Response {
        self.client
            .get(format!("{}{path}", self.url))
            .send()
            .unwrap()
    }

    pub fn json(&self, path: &str) -> Value {
        self.get(path).json().unwrap()
    }

    /// `GET /api/teams/TEAM` as the team itself sees it (with its token): every upload.
    pub fn own(&self, team: &str) -> Value {
        serde_json::from_str(&self.text_as(&format!("/api/teams/{team}"), team)).unwrap()
    }

    /// What `GET path` answers with `team`'s token.
    pub fn text_as(&self, path: &str, team: &str) -> String {
        self.client
            .get(format!("{}{path}", self.url))
            .bearer_auth(token_of(&self.dir, team))
            .send()
            .unwrap()
            .text()
            .unwrap()
    }

    /// Uploads `bytes` as `file_name` to `team`'s slot through the API: the status and answer.
    pub fn upload(
        &self,
        team: &str,
        token: Option<&str>,
        bytes: Vec<u8>,
        file_name: &str,
    ) -> (u16, Value) {
        let form = Form::new().part("file", Part::bytes(bytes).file_name(file_name.to_string()));
        let mut request = self
            .client
            .post(format!("{}/api/teams/{team}/builds", self.url))
            .multipart(form);
        if let Some(token) = token {
            request = request.bearer_auth(token);
        }
        let response = request
            .send()
            .unwrap_or_else(|e| panic!("upload to {team} with {token:?}: {e:?}"));
        let status = response.status().as_u16();
        (status, response.json().unwrap_or(Value::Null))
    }

    /// Polls `done` until it holds; fails with the portal's stderr if it never does.
    pub fn wait_for(&mut self, what: &str, done: impl Fn(&Portal) -> bool) {
        let start = Instant::now();
        while !done(self) {
            if let Ok(Some(status)) = self.child.try_wait() {
                panic!(
                    "the portal ended ({status}) before {what}:\n{}",
                    self.stderr()
                );
            }
            assert!(
                start.elapsed() < PATIENCE,
                "no {what} after {PATIENCE:?}:\n{}",
                self.stderr()
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// The team's build `number` once the ladder has judged it.
    pub fn judged(&mut self, team: &str, number: u64) -> Value {
        self.wait_for(&format!("a verdict on {team}'s build {number}"), |p| {
            build(&p.own(team), number)["status"] != "validating"
        });
        build(&self.own(team), number)
    }

    pub fn kill_hard(&mut self) {
        let _ = self.child.kill(); // SIGKILL
        let _ = self.child.wait();
    }

    pub fn stop(mut self) -> String {
        // SAFETY: a plain kill(2) of our own child.
        unsafe { libc::kill(self.child.id() as i32, libc::SIGINT) };
        let start = Instant::now();
        while self.child.try_wait().unwrap().is_none() {
            assert!(
                start.elapsed() < PATIENCE,
                "the portal did not stop:\n{}",
                self.stderr()
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        self.stderr()
    }
}

impl Drop for Portal {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

pub fn now_ms() -> u128 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis()
}

/// The arguments of `agon portal team add NAME --dir DIR`.
pub fn team_add_args<'a>(dir: &'a Path, name: &'a str) -> [&'a str; 6] {
    [
        "portal",
        "team",
        "add",
        name,
        "--dir",
        dir.to_str().unwrap(),
    ]
}

/// `agon portal team add NAME`: the token it prints.
pub fn add_team(dir: &Path, name: &str) -> String {
    let ran = crate::run(crate::agon().args(team_add_args(dir, name))).expect_success();
    assert_has(&ran.stderr, "shown this once");
    let token = ran.stdout.trim().to_string();
    let entry = (dir.to_path_buf(), name.to_string(), token.clone());
    TOKENS.lock().unwrap().push(entry);
    token
}

pub fn build(team: &Value, number: u64) -> Value {
    team["builds"]
        .as_array()
        .and_then(|b| b.iter().find(|b| b["number"] == number).cloned())
        .unwrap_or_else(|| panic!("no build {number} in {team}"))
}

pub fn library(package: &str) -> Vec<u8> {
    std::fs::read(plugin(package)).unwrap()
}

/// The response to a request written by hand on a raw connection, read until it closes (or
/// `limit` passes): its status line and how long it took.
pub fn raw_request(url: &str, head: &str, body: &[u8], limit: Duration) -> (String, Duration) {
    let address = url.trim_start_matches("http://");
    let started = Instant::now();
    let mut stream = TcpStream::connect(address).unwrap();
    stream.set_read_timeout(Some(limit)).unwrap();
    stream.write_all(head.as_bytes()).unwrap();
    let _ = stream.write_all(body);
    let mut answer = Vec::new();
    let _ = stream.read_to_end(&mut answer);
    let text = String::from_utf8_lossy(&answer);
    (
        text.lines().next().unwrap_or("").to_string(),
        started.elapsed(),
    )
}
