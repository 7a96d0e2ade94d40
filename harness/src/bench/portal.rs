//! `agon bench --suite portal`: the course portal as a course runs it, `agon portal` started as
//! a program on a folder of its own (process host, concurrency 2, two teams of fast bots).
//! Idle: the CPU it uses while nothing happens. Upload latency: from the answer to an upload
//! through the HTTP API to the start of the first game that plays the new build, validation
//! included, over `--portal-uploads` uploads. Memory: the portal's resident set after the
//! uploads and once the ladder has played `--portal-games` games in all. Under attack: the
//! standings' latency while strangers hold more connections than the portal takes, and the
//! resident set under the worst inputs over every connection it allows.

use super::figure::{single, with_worst_ms, Figure};
use super::ladder::{first_game_with, unix_ms_f64, wait_for_games};
use super::portal_flood::{standings_ms, worst_inputs, Strangers};
use super::process_stats::{idle_cpu_per_minute, resident_mib_of};
use anyhow::{anyhow, bail, Context};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

/// A build that has not reached a game by then has failed.
const PATIENCE: Duration = Duration::from_secs(60);
/// How long the idle portal is watched.
const IDLE_WINDOW: Duration = Duration::from_secs(10);
/// Teams whose uploads feed the worst inputs: as many as the portal takes at once.
const WORST_UPLOADS: usize = 16;
/// The connections the portal takes (`agon portal --max-connections`'s default).
const CONNECTIONS: usize = 512;

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
    // The strangers and the worst inputs are a thousand sockets of this process.
    agon_engine::process::allow_many_hosts()?;
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
    let uploaders = (0..WORST_UPLOADS)
        .map(|i| {
            let team = format!("w{i:02}");
            token(&team).map(|token| (team, token))
        })
        .collect::<anyhow::Result<Vec<_>>>()?;
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
    let pid = running.child.id();
    // Started, and nothing to do yet.
    std::thread::sleep(Duration::from_secs(2));
    let idle_cpu = idle_cpu_per_minute(pid, IDLE_WINDOW);
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
    let rss_uploads = resident_mib_of(&pid.to_string());
    wait_for_games(&ladder, games)?;
    let rss = resident_mib_of(&pid.to_string());
    let attacked = under_attack(&running.address, pid, &uploaders)?;
    drop(running);
    let _ = std::fs::remove_dir_all(&root);
    let mut figures = vec![single("portal idle CPU (ms per minute)", idle_cpu, "ms")];
    figures.extend(with_worst_ms("portal upload -> first game", latencies));
    figures.push(single(
        "portal RSS after the uploads (MiB)",
        rss_uploads,
        "Mi",
    ));
    figures.push(single("portal RSS after the games (MiB)", rss, "Mi"));
    figures.push(single("portal games played", games as f64, ""));
    figures.extend(attacked);
    Ok(figures)
}

/// The standings' latency while strangers from 20 addresses try to hold 800 connections, and
/// the resident set under the worst inputs over every connection the portal takes.
fn under_attack(
    address: &str,
    pid: u32,
    uploaders: &[(String, String)],
) -> anyhow::Result<Vec<Figure>> {
    let portal: std::net::SocketAddr = address.parse()?;
    let pid = pid.to_string();
    let strangers = Strangers::start(portal, 2..22, 40);
    let start = std::time::Instant::now();
    while strangers.held() < CONNECTIONS - 16 && start.elapsed() < Duration::from_secs(30) {
        std::thread::sleep(Duration::from_millis(100));
    }
    let held = strangers.held();
    let mut latencies = Vec::new();
    for _ in 0..500 {
        latencies.push(standings_ms(portal).context("standings under attack")?);
    }
    drop(strangers);
    std::thread::sleep(Duration::from_secs(1));
    let before = resident_mib_of(&pid);
    let worst = worst_inputs(portal, uploaders, CONNECTIONS);
    std::thread::sleep(Duration::from_secs(2));
    let under = resident_mib_of(&pid);
    let connections = worst.len();
    drop(worst);
    latencies.sort_by(f64::total_cmp);
    let at = |p: f64| latencies[((latencies.len() - 1) as f64 * p).round() as usize];
    Ok(vec![
        single(
            "strangers' connections held during the standings figures",
            held as f64,
            "",
        ),
        single("portal standings under strangers, p50 (ms)", at(0.5), "ms"),
        single("portal standings under strangers, p99 (ms)", at(0.99), "ms"),
        single("connections of the worst inputs", connections as f64, ""),
        single("portal RSS before the worst inputs (MiB)", before, "Mi"),
        single("portal RSS under the worst inputs (MiB)", under, "Mi"),
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
