//! `agon bench --suite portal`: the course portal as a course runs it, `agon portal` started as
//! a program on a folder of its own (process host, concurrency 2, two teams of fast bots).
//! Upload latency: from the answer to an upload through the HTTP API to the start of the first
//! game that plays the new build, validation included, over `--portal-uploads` uploads. Memory:
//! the portal's resident set after the uploads and once the ladder has played `--portal-games`
//! games in all.

use super::figure::{single, summarize, Figure};
use super::ladder::{first_game_with, unix_ms_f64, wait_for_games};
use anyhow::{anyhow, bail, Context};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

/// A build that has not reached a game by then has failed.
const PATIENCE: Duration = Duration::from_secs(60);

/// The portal under test; killed when dropped.
struct Running {
    child: Child,
    address: String,
}

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

pub fn portal(
    agon: &Path,
    builds: [&Path; 2],
    uploads: usize,
    games: u64,
) -> anyhow::Result<Vec<Figure>> {
    let root = std::env::temp_dir().join(format!("agon-bench-portal-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    std::fs::create_dir_all(&root)?;
    let dir = root
        .to_str()
        .context("a temporary folder that is not UTF-8")?;
    let token = |team: &str| -> anyhow::Result<String> {
        let out = Command::new(agon)
            .args(["portal", "team", "add", team, "--dir", dir])
            .output()?;
        anyhow::ensure!(
            out.status.success(),
            "team add: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        Ok(String::from_utf8(out.stdout)?.trim().to_string())
    };
    let (a, b) = (token("a")?, token("b")?);
    let mut child = Command::new(agon)
        .args([
            "portal",
            "--dir",
            dir,
            "--game",
            "breakthrough",
            "--listen",
            "127.0.0.1:0",
        ])
        .args([
            "--concurrency",
            "2",
            "--seed",
            "1",
            "--quiet",
            "--uploads-per-hour",
            "100000",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()?;
    let mut first = String::new();
    BufReader::new(child.stdout.take().context("no stdout")?).read_line(&mut first)?;
    let address = first
        .split_whitespace()
        .find_map(|w| w.strip_prefix("http://"))
        .ok_or_else(|| anyhow!("the portal did not say where it listens: {first:?}"))?
        .trim_end_matches('/')
        .to_string();
    let running = Running { child, address };
    let bytes = [std::fs::read(builds[0])?, std::fs::read(builds[1])?];
    upload(&running.address, "a", &a, &bytes[0])?;
    upload(&running.address, "b", &b, &bytes[0])?;
    let ladder = root.join("ladder");
    wait_for_games(&ladder, 2)?;
    let mut latencies = Vec::new();
    for n in 0..uploads {
        // A new content each time: the two builds in turn, made distinct by trailing bytes
        // (which an ELF loader ignores).
        let mut build = bytes[(n + 1) % 2].clone();
        build.extend_from_slice(&(n as u64).to_le_bytes());
        let sha = agon_engine::loader::sha256_hex(&build);
        upload(&running.address, "b", &b, &build)?;
        let answered = unix_ms_f64();
        latencies.push(first_game_with(&ladder, &sha)? - answered);
    }
    let pid = running.child.id().to_string();
    let rss_uploads = super::ladder::resident_mib_of(&pid);
    wait_for_games(&ladder, games)?;
    let rss = super::ladder::resident_mib_of(&pid);
    drop(running);
    let _ = std::fs::remove_dir_all(&root);
    Ok(vec![
        summarize("portal upload -> first game (ms)", latencies.clone(), "ms"),
        single(
            "portal upload -> first game, worst (ms)",
            latencies.iter().copied().fold(0.0, f64::max),
            "ms",
        ),
        single("portal RSS after the uploads (MiB)", rss_uploads, "Mi"),
        single("portal RSS after the games (MiB)", rss, "Mi"),
        single("portal games played", games as f64, ""),
    ])
}

/// `POST /api/teams/TEAM/builds` with `bytes` as the file, by hand (HTTP/1.1, one request per
/// connection); fails unless the answer is 201.
fn upload(address: &str, team: &str, token: &str, bytes: &[u8]) -> anyhow::Result<()> {
    let mut body =
        b"--agonbench\r\nContent-Disposition: form-data; name=\"file\"; filename=\"bot.so\"\r\n\
Content-Type: application/octet-stream\r\n\r\n"
            .to_vec();
    body.extend_from_slice(bytes);
    body.extend_from_slice(b"\r\n--agonbench--\r\n");
    let head = format!(
        "POST /api/teams/{team}/builds HTTP/1.1\r\nHost: {address}\r\nAuthorization: Bearer {token}\r\n\
         Content-Type: multipart/form-data; boundary=agonbench\r\nContent-Length: {}\r\n\
         Connection: close\r\n\r\n",
        body.len()
    );
    let (status, answer) = exchange(address, head.as_bytes(), &body)?;
    if status != 201 {
        bail!("upload to {team}: {status} {answer}");
    }
    Ok(())
}

fn exchange(address: &str, head: &[u8], body: &[u8]) -> anyhow::Result<(u16, String)> {
    let mut stream = TcpStream::connect(address)?;
    stream.set_read_timeout(Some(PATIENCE))?;
    stream.write_all(head)?;
    stream.write_all(body)?;
    let mut answer = Vec::new();
    stream.read_to_end(&mut answer)?;
    let text = String::from_utf8_lossy(&answer);
    let status = text
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| anyhow!("no HTTP answer: {text:?}"))?;
    let body = text
        .split_once("\r\n\r\n")
        .map_or("", |(_, b)| b)
        .to_string();
    Ok((status, body))
}
