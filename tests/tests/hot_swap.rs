//! Hot swap: `agon ladder` over a watched folder of builds, and `agon tournament run --watch`.
//! Each test runs the real binary on a folder it owns and changes the folder under it as a team
//! would.

use agon_tests::{assert_has, assert_has_all, instances, plugin, scratch, seat_of};
use serde_json::Value;
use std::collections::BTreeSet;
use std::io::Write;
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

/// Long enough for a loaded 2-core CI machine; the conditions are polled, so a fast machine
/// does not wait.
const PATIENCE: Duration = Duration::from_secs(90);

struct Ladder {
    command: Command,
    child: Child,
    out: PathBuf,
    stderr: PathBuf,
}

impl Ladder {
    fn start(dir: &Path, out: &Path, extra: &[&str]) -> Ladder {
        Ladder::start_with_cache(dir, out, extra, &agon_tests::cache_dir())
    }

    /// A Breakthrough ladder (most of these tests'), with `extra` flags.
    fn breakthrough(dir: &Path, out: &Path, extra: &[&str]) -> Ladder {
        Ladder::start(dir, out, &[&["--game", "breakthrough"], extra].concat())
    }

    fn start_with_cache(dir: &Path, out: &Path, extra: &[&str], cache: &Path) -> Ladder {
        let stderr = out.with_extension("stderr");
        let mut command = agon_tests::agon();
        command
            .env("AGON_CACHE_DIR", cache)
            .args([
                "ladder",
                dir.to_str().unwrap(),
                "--out",
                out.to_str().unwrap(),
            ])
            .args(["--settle-ms", "300"])
            .args(extra)
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(&stderr).unwrap());
        Ladder {
            child: command.spawn().expect("agon ladder starts"),
            command,
            out: out.to_path_buf(),
            stderr,
        }
    }

    fn games(&self) -> Vec<Value> {
        jsonl(&self.out.join("journal.jsonl"))
    }

    fn events(&self) -> Vec<Value> {
        jsonl(&self.out.join("events.jsonl"))
    }

    fn stderr(&self) -> String {
        std::fs::read_to_string(&self.stderr).unwrap_or_default()
    }

    /// Polls `done` until it holds; fails with the ladder's stderr if it never does.
    fn wait_for(&mut self, what: &str, done: impl Fn(&Ladder) -> bool) {
        let start = Instant::now();
        while !done(self) {
            if let Ok(Some(status)) = self.child.try_wait() {
                panic!(
                    "the ladder ended ({status}) before {what}:\n{}",
                    self.stderr()
                );
            }
            if start.elapsed() > PATIENCE {
                let _ = self.child.kill();
                panic!("no {what} after {PATIENCE:?}:\n{}", self.stderr());
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    fn signal(&self, signal: i32) {
        // SAFETY: a plain kill(2) of our own child.
        assert_eq!(unsafe { libc::kill(self.child.id() as i32, signal) }, 0);
    }

    /// Waits for the ladder to end; its stderr (read from its file: its stdout is not kept).
    fn finish(mut self) -> agon_tests::Ran {
        let start = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                let stderr = self.stderr().into_bytes();
                let output = Output {
                    status,
                    stdout: Vec::new(),
                    stderr,
                };
                return agon_tests::Ran::new(&self.command, output);
            }
            if start.elapsed() > PATIENCE {
                let _ = self.child.kill();
                panic!("the ladder did not stop:\n{}", self.stderr());
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for Ladder {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A scratch folder with `teams/` (created: the watched folder) and `out/` (the ladder's).
fn folders(name: &str) -> (PathBuf, PathBuf, PathBuf) {
    let root = scratch(name);
    let (dir, out) = (root.join("teams"), root.join("out"));
    std::fs::create_dir_all(&dir).unwrap();
    (root, dir, out)
}

/// The complete lines of a JSONL file (a line being written is not complete yet).
fn jsonl(path: &Path) -> Vec<Value> {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let complete = text.rfind('\n').map_or("", |end| &text[..end]);
    complete
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{}: {e}: {l}", path.display())))
        .collect()
}

fn sha256_of(path: &Path) -> String {
    use sha2::Digest;
    let digest = sha2::Sha256::digest(std::fs::read(path).unwrap());
    digest.iter().map(|b| format!("{b:02x}")).collect()
}

/// Publishes `from` as `dir/slot` the atomic way: a hidden temporary file, then a rename.
fn publish(from: &Path, dir: &Path, slot: &str) {
    let temp = dir.join(format!(".{slot}.tmp"));
    std::fs::copy(from, &temp).unwrap();
    std::fs::rename(&temp, dir.join(slot)).unwrap();
}

/// The sha256 each seat of `game` played for `slot`, if it had a seat.
fn sha_of_slot(game: &Value, slot: &str) -> Option<String> {
    game["seats"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["slot"] == slot)
        .map(|s| s["sha256"].as_str().unwrap().to_string())
}

fn events_of<'a>(events: &'a [Value], kind: &str, slot: &str) -> Vec<&'a Value> {
    events
        .iter()
        .filter(|e| e["event"] == kind && (e["slot"] == slot || e["build"]["slot"] == slot))
        .collect()
}

fn faultless(games: &[Value]) {
    for game in games {
        assert_eq!(game["faults"], serde_json::json!([]), "{game}");
    }
}

/// The game numbers of the journal are 1..=N, each once: no game lost or played twice.
fn numbered_without_gaps(games: &[Value]) {
    let numbers: BTreeSet<u64> = games
        .iter()
        .map(|g| g["number"].as_u64().unwrap())
        .collect();
    let expected: BTreeSet<u64> = (1..=games.len() as u64).collect();
    assert_eq!(numbers, expected);
}

#[test]
fn a_new_build_plays_the_games_after_its_rename_and_a_broken_one_is_refused() {
    let (_, dir, out) = folders("ladder-swap");
    let random = plugin("breakthrough-random");
    let alphabeta = plugin("breakthrough-alphabeta");
    publish(&random, &dir, "north.so");
    publish(&random, &dir, "south.so");
    let (old, new) = (sha256_of(&random), sha256_of(&alphabeta));
    let mut ladder = Ladder::breakthrough(&dir, &out, &["--concurrency", "2", "--seed", "5"]);
    ladder.wait_for("four games", |l| l.games().len() >= 4);
    publish(&alphabeta, &dir, "south.so");
    ladder.wait_for("three games of the new build", |l| {
        l.games()
            .iter()
            .filter(|g| sha_of_slot(g, "south.so").as_deref() == Some(new.as_str()))
            .count()
            >= 3
    });
    // A plugin whose first breakthrough bot panics: it loads, but its validation game faults.
    publish(&plugin("misbehave"), &dir, "south.so");
    ladder.wait_for("the refusal", |l| {
        !events_of(&l.events(), "refused", "south.so").is_empty()
    });
    let refused_at = ladder.games().len();
    ladder.wait_for("three more games", |l| l.games().len() >= refused_at + 3);
    std::fs::remove_file(dir.join("north.so")).unwrap();
    ladder.wait_for("the retirement", |l| {
        !events_of(&l.events(), "retired", "north.so").is_empty()
    });
    ladder.signal(libc::SIGINT);
    let stderr = ladder.finish().expect_success().stderr;

    let games = jsonl(&out.join("journal.jsonl"));
    faultless(&games);
    numbered_without_gaps(&games);
    let shas: Vec<String> = games
        .iter()
        .filter_map(|g| sha_of_slot(g, "south.so"))
        .collect();
    assert!(shas.contains(&old) && shas.contains(&new), "{shas:?}");
    // Games are numbered as they are paired, with the builds current then: once a game of
    // the new build was paired, no later one went back to the old build.
    let first_new = games
        .iter()
        .filter(|g| sha_of_slot(g, "south.so").as_deref() == Some(new.as_str()))
        .map(|g| g["number"].as_u64().unwrap())
        .min()
        .unwrap();
    for game in games
        .iter()
        .filter(|g| g["number"].as_u64().unwrap() > first_new)
    {
        assert_ne!(
            sha_of_slot(game, "south.so").as_deref(),
            Some(old.as_str()),
            "{game}"
        );
    }
    let events = jsonl(&out.join("events.jsonl"));
    let accepted: Vec<(u64, &str)> = events_of(&events, "accepted", "south.so")
        .iter()
        .map(|e| {
            (
                e["build"]["version"].as_u64().unwrap(),
                e["build"]["bot"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(accepted, vec![(1, "random"), (2, "alphabeta")]);
    let refused = events_of(&events, "refused", "south.so");
    let reason = refused[0]["reason"].as_str().unwrap();
    assert_has_all(reason, &["validation game", "panic"]);
    // The new build was validated against the other slot's build, at a random seat.
    let second = events_of(&events, "accepted", "south.so")
        .into_iter()
        .find(|e| e["build"]["version"] == 2)
        .unwrap();
    let smoke = second["smoke"][0].as_str().unwrap();
    assert_has(smoke, "against north.so");
    assert_eq!(events.last().unwrap()["event"], "stopped");
    assert_has(&stderr, "build refused");

    let standings = agon_tests::standings(&out);
    assert_eq!(standings["games"].as_u64().unwrap(), games.len() as u64);
    let versions: BTreeSet<(String, u64)> = standings["builds"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| {
            (
                b["slot"].as_str().unwrap().to_string(),
                b["version"].as_u64().unwrap(),
            )
        })
        .collect();
    assert!(
        versions.contains(&("south.so".into(), 1)) && versions.contains(&("south.so".into(), 2))
    );
    let south_v2 = standings["builds"]
        .as_array()
        .unwrap()
        .iter()
        .find(|b| b["slot"] == "south.so" && b["version"] == 2)
        .unwrap();
    assert!(south_v2["current"].as_bool().unwrap());
    let sigma = south_v2["sigma"].as_f64().unwrap();
    let mu = south_v2["mu"].as_f64().unwrap();
    assert!((south_v2["conservative"].as_f64().unwrap() - (mu - 3.0 * sigma)).abs() < 1e-9);
    let slots = standings["slots"].as_array().unwrap();
    assert!(slots
        .iter()
        .any(|s| s["slot"] == "north.so" && s["status"] == "retired"));
    let html = agon_tests::read(out.join("ladder.html"));
    assert!(html.contains("http-equiv=\"refresh\"") && html.contains("south.so"));
    assert!(html.contains("Refused builds") && html.contains("validation game"));
    // The teams by the names their plugins give (a long one cut by the page's style, whole
    // in its title), and every game listed linked to its viewer, whose data file is there.
    assert_has_all(
        &html,
        &[
            "<span class=\"team\" title=\"Agon staff\">Agon staff</span>",
            "<span class=\"team\" title=\"UIUC CS440 F17 seed\">UIUC CS440 F17 seed</span>",
            "text-overflow: ellipsis",
        ],
    );
    assert!(!html.contains("href=\"records/"), "{html}");
    assert!(out.join("games").join("viewer.html").is_file());
    let linked = viewer_links(&html);
    assert_eq!(linked.len(), games.len().min(20), "{html}");
    for id in linked {
        assert!(out.join("games").join(format!("{id}.js")).is_file(), "{id}");
    }
}

/// The games a ladder page links to their viewer (`games/viewer.html#game=ID`), by id.
fn viewer_links(html: &str) -> Vec<String> {
    // The template engine escapes `/` in attributes, as the browser reads them back.
    let html = html.replace("&#x2f;", "/");
    const LINK: &str = "href=\"games/viewer.html#game=";
    html.match_indices(LINK)
        .filter_map(|(at, _)| html[at + LINK.len()..].split('"').next())
        .map(str::to_string)
        .collect()
}

/// A build that recognised the validation game (once a self-play game with a fixed seed)
/// played clean there and forfeited every real game. The validation game now has a secret,
/// random seed, a random seat and a real opponent: the build cannot tell, so it cheats there
/// too and is refused before it plays a single ladder game.
#[test]
fn a_build_that_plays_clean_only_in_validation_is_refused() {
    let (_, dir, out) = folders("ladder-validation-cheat");
    publish(&plugin("breakthrough-random"), &dir, "north.so");
    publish(&plugin("misbehave"), &dir, "south.so");
    let mut ladder = Ladder::breakthrough(&dir, &out, &["--bot", "south.so:validation-cheat"]);
    ladder.wait_for("the refusal", |l| {
        !events_of(&l.events(), "refused", "south.so").is_empty()
    });
    ladder.signal(libc::SIGINT);
    ladder.finish().expect_success();
    let events = jsonl(&out.join("events.jsonl"));
    assert!(
        events_of(&events, "accepted", "south.so").is_empty(),
        "{events:?}"
    );
    let refused = events_of(&events, "refused", "south.so");
    let reason = refused[0]["reason"].as_str().unwrap();
    // The candidate's own fault, by seat, bot and cause, in the game of the host that saw it.
    assert_has(reason, "validation game (");
    assert_has(reason, " (validation-cheat): illegal: ");
    let games = jsonl(&out.join("journal.jsonl"));
    assert!(games.iter().all(|g| sha_of_slot(g, "south.so").is_none()));
}

/// What a slot's file name tries to put on a line of its own (after a newline in the name).
const FORGED: &str = "INFO forged line";

#[test]
fn a_refused_file_name_with_a_newline_and_an_escape_forges_no_log_line() {
    let (_, dir, out) = folders("ladder-forging-name");
    let random = plugin("breakthrough-random");
    publish(&random, &dir, "a.so");
    publish(&random, &dir, "b.so");
    let slot = format!("bad\n{FORGED}\u{1b}[2J.so");
    std::fs::write(dir.join(&slot), "garbage").unwrap();
    let ladder = Ladder::breakthrough(&dir, &out, &["--games", "1"]);
    let stderr = ladder.finish().expect_success().stderr;
    assert!(!stderr.contains('\u{1b}'), "a raw ESC: {stderr:?}");
    assert!(
        !stderr.lines().any(|l| l.trim_start().starts_with(FORGED)),
        "a forged line: {stderr:?}"
    );
    let refusal = format!("bad\\u{{a}}{FORGED}\\u{{1b}}[2J.so: build refused");
    assert_has(&stderr, &refusal);
}

/// Writes `bytes` over `path` in place, in `parts` pieces with `pause` between them, as a slow
/// `cp` onto the old build would (the same inode, truncated first).
fn write_in_place_slowly(bytes: &[u8], path: &Path, parts: usize, pause: Duration) -> Vec<String> {
    use sha2::Digest;
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .truncate(true)
        .custom_flags(0)
        .open(path)
        .unwrap();
    let mut prefixes = Vec::new();
    let step = bytes.len().div_ceil(parts);
    for (i, chunk) in bytes.chunks(step).enumerate() {
        file.write_all(chunk).unwrap();
        file.flush().unwrap();
        let written = &bytes[..(i * step + chunk.len()).min(bytes.len())];
        prefixes.push(
            sha2::Sha256::digest(written)
                .iter()
                .map(|b| format!("{b:02x}"))
                .collect(),
        );
        std::thread::sleep(pause);
    }
    prefixes
}

#[test]
fn a_build_written_in_place_is_taken_only_once_it_is_whole() {
    let (root, dir, out) = folders("ladder-in-place");
    let cache = root.join("cache");
    let random = plugin("breakthrough-random");
    let alphabeta = plugin("breakthrough-alphabeta");
    std::fs::copy(&random, dir.join("east.so")).unwrap();
    std::fs::copy(&random, dir.join("west.so")).unwrap();
    // A cache of the test's own, to see every copy the ladder makes.
    let mut ladder = Ladder::start_with_cache(
        &dir,
        &out,
        &["--game", "breakthrough", "--seed", "9", "--quiet"],
        &cache,
    );
    ladder.wait_for("two games", |l| l.games().len() >= 2);
    // Pauses longer than the settle time: only the ELF check can tell these prefixes apart.
    let prefixes = write_in_place_slowly(
        &std::fs::read(&alphabeta).unwrap(),
        &dir.join("west.so"),
        4,
        Duration::from_millis(700),
    );
    let whole = sha256_of(&alphabeta);
    ladder.wait_for("a game of the whole new build", |l| {
        l.games()
            .iter()
            .any(|g| sha_of_slot(g, "west.so").as_deref() == Some(whole.as_str()))
    });
    // Then a plain `cp` over it, as most teams would publish.
    let back = Command::new("cp")
        .arg(&random)
        .arg(dir.join("west.so"))
        .status()
        .unwrap();
    assert!(back.success());
    let random_sha = sha256_of(&random);
    ladder.wait_for("west.so back on its first build", |l| {
        let games = l.games();
        let last_new = games
            .iter()
            .rposition(|g| sha_of_slot(g, "west.so").as_deref() == Some(whole.as_str()));
        last_new.is_some_and(|at| {
            games[at + 1..]
                .iter()
                .any(|g| sha_of_slot(g, "west.so").as_deref() == Some(random_sha.as_str()))
        })
    });
    ladder.signal(libc::SIGTERM);
    ladder.finish().expect_success();

    let events = jsonl(&out.join("events.jsonl"));
    assert!(
        events_of(&events, "refused", "west.so").is_empty(),
        "a half-written file was refused: {events:?}"
    );
    let versions: Vec<u64> = events_of(&events, "accepted", "west.so")
        .iter()
        .map(|e| e["build"]["version"].as_u64().unwrap())
        .collect();
    assert_eq!(
        versions,
        vec![1, 2, 1],
        "going back to a build keeps its number"
    );
    for prefix in &prefixes[..prefixes.len() - 1] {
        assert!(
            !cache.join("plugins").join(prefix).exists(),
            "a half-written build was staged"
        );
    }
    faultless(&jsonl(&out.join("journal.jsonl")));
}

/// A build that stays cut short is refused with both sizes (after the intake's wait for its
/// writer, ten seconds) in every host, never loaded: the other slots play on without a fault.
/// The three ladders run at once, so the wait is paid once.
#[test]
fn a_build_cut_short_for_good_is_refused_in_every_host() {
    let random = plugin("breakthrough-random");
    let whole = std::fs::read(&random).unwrap();
    let half = whole.len() / 2;
    let ladders: Vec<(&str, PathBuf, Ladder)> = ["inline", "thread", "process"]
        .into_iter()
        .map(|host| {
            let (_, dir, out) = folders(&format!("ladder-cut-short-{host}"));
            publish(&random, &dir, "east.so");
            publish(&random, &dir, "west.so");
            std::fs::write(dir.join("cut.so"), &whole[..half]).unwrap();
            let ladder = Ladder::breakthrough(&dir, &out, &["--host", host, "--seed", "4"]);
            (host, out, ladder)
        })
        .collect();
    for (host, out, mut ladder) in ladders {
        ladder.wait_for("the refusal of cut.so", |l| {
            !events_of(&l.events(), "refused", "cut.so").is_empty()
        });
        ladder.signal(libc::SIGTERM);
        ladder.finish().expect_success();
        let events = jsonl(&out.join("events.jsonl"));
        let refused = events_of(&events, "refused", "cut.so");
        let reason = refused[0]["reason"].as_str().unwrap();
        assert_has(
            reason,
            &format!("cut short: {half} of the {} bytes", whole.len()),
        );
        assert!(
            events_of(&events, "accepted", "cut.so").is_empty(),
            "{host}: {events:?}"
        );
        faultless(&jsonl(&out.join("journal.jsonl")));
    }
}

#[test]
fn on_a_stop_signal_the_games_in_flight_are_finished_and_recorded() {
    let (_, dir, out) = folders("ladder-stop");
    let alphabeta = plugin("breakthrough-alphabeta");
    for slot in ["a.so", "b.so", "c.so"] {
        publish(&alphabeta, &dir, slot);
    }
    // Deep enough that a game takes a while: the signal finds games in flight.
    let mut ladder = Ladder::breakthrough(
        &dir,
        &out,
        &[
            "--concurrency",
            "2",
            "--bot",
            "a.so:alphabeta?depth=4",
            "--bot",
            "b.so:alphabeta?depth=4",
            "--bot",
            "c.so:alphabeta?depth=4",
        ],
    );
    ladder.wait_for("a game", |l| !l.games().is_empty());
    ladder.signal(libc::SIGINT);
    let stderr = ladder.finish().expect_success().stderr;
    let line = stderr
        .lines()
        .find(|l| l.contains("stop asked: finishing"))
        .unwrap_or_else(|| panic!("{stderr}"));
    let numbers: Vec<usize> = line
        .split(|c: char| !c.is_ascii_digit())
        .filter_map(|n| n.parse().ok())
        .collect();
    let (in_flight, journalled) = (numbers[0], numbers[1]);
    let games = jsonl(&out.join("journal.jsonl"));
    assert_eq!(games.len(), journalled + in_flight, "{stderr}");
    numbered_without_gaps(&games);
    faultless(&games);
    let records = std::fs::read_dir(out.join("records")).unwrap().count();
    assert_eq!(records, games.len());
}

#[test]
fn a_killed_ladder_continues_with_its_journal_ratings_and_build_numbers() {
    let (_, dir, out) = folders("ladder-resume");
    publish(&plugin("breakthrough-random"), &dir, "one.so");
    publish(&plugin("breakthrough-alphabeta"), &dir, "two.so");
    let mut ladder = Ladder::breakthrough(&dir, &out, &["--quiet"]);
    ladder.wait_for("three games", |l| l.games().len() >= 3);
    ladder.signal(libc::SIGKILL);
    let _ = ladder.finish();
    let journalled = jsonl(&out.join("journal.jsonl"));
    let before = journalled.len();
    // A game page lost (or never written, by a ladder older than game pages) is written again
    // when the ladder continues, for the games its page lists (the last one journalled is).
    let last_id = journalled.last().unwrap()["id"]
        .as_str()
        .unwrap()
        .to_string();
    let lost_page = out.join("games").join(format!("{last_id}.js"));
    std::fs::remove_file(&lost_page).unwrap();
    // A torn last line, as a power cut mid-append leaves it.
    std::fs::OpenOptions::new()
        .append(true)
        .open(out.join("journal.jsonl"))
        .unwrap()
        .write_all(b"{\"id\":\"game-99\",\"numb")
        .unwrap();
    let target = before + 4;
    let again = Ladder::breakthrough(&dir, &out, &["--games", &target.to_string()]);
    let stderr = again.finish().expect_success().stderr;
    assert!(
        stderr.contains(&format!("after {before} games")),
        "{stderr}"
    );
    let games = jsonl(&out.join("journal.jsonl"));
    assert_eq!(games.len(), target);
    numbered_without_gaps(&games);
    assert!(
        lost_page.is_file(),
        "{last_id}'s viewer data is written again"
    );
    let html = agon_tests::read(out.join("ladder.html"));
    assert!(viewer_links(&html).contains(&last_id), "{html}");
    let events = jsonl(&out.join("events.jsonl"));
    for slot in ["one.so", "two.so"] {
        let versions: Vec<u64> = events_of(&events, "accepted", slot)
            .iter()
            .map(|e| e["build"]["version"].as_u64().unwrap())
            .collect();
        assert_eq!(
            versions,
            vec![1, 1],
            "{slot}: the same build keeps its number"
        );
    }
    let standings = agon_tests::standings(&out);
    let games_of: u64 = standings["builds"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["games"].as_u64().unwrap())
        .sum();
    assert_eq!(
        games_of,
        2 * target as u64,
        "every game of both runs is rated"
    );
}

/// An idle ladder sleeps: before, the watcher woke on the ladder's own listing of the folder
/// (an open of the watched folder is an event), which caused the next listing, and an empty
/// folder cost 64% of a core. `agon bench --suite ladder` gives the figure.
#[test]
fn an_idle_ladder_uses_no_cpu_and_still_takes_a_new_build() {
    let (_, dir, out) = folders("ladder-idle");
    let mut ladder = Ladder::breakthrough(&dir, &out, &[]);
    let settle = Duration::from_secs(2);
    let cpu = agon_tests::idle_cpu_seconds(ladder.child.id(), settle, Duration::from_secs(5));
    assert!(cpu < 0.25, "an idle ladder used {cpu:.2} s of CPU in 5 s");
    publish(&plugin("breakthrough-random"), &dir, "one.so");
    publish(&plugin("breakthrough-random"), &dir, "two.so");
    ladder.wait_for("games", |l| l.games().len() >= 2);
}

/// A slot's build is a fact kept by content: after a `kill -9`, a slot whose latest file was
/// refused plays on with its last accepted build (before, the ladder judged the refused file
/// again, refused it again, and the slot played no more), and no content judged before the
/// restart is validated again: its verdict is said again.
#[test]
fn after_a_restart_a_slot_whose_last_file_was_refused_plays_its_last_good_build() {
    let (_, dir, out) = folders("ladder-refused-restart");
    let random = plugin("breakthrough-random");
    publish(&random, &dir, "one.so");
    publish(&plugin("breakthrough-alphabeta"), &dir, "two.so");
    let mut ladder = Ladder::breakthrough(&dir, &out, &["--quiet"]);
    ladder.wait_for("two games", |l| l.games().len() >= 2);
    std::fs::write(dir.join(".one.so.tmp"), b"#!/bin/sh\necho not a library\n").unwrap();
    std::fs::rename(dir.join(".one.so.tmp"), dir.join("one.so")).unwrap();
    ladder.wait_for("the refusal", |l| {
        !events_of(&l.events(), "refused", "one.so").is_empty()
    });
    ladder.signal(libc::SIGKILL);
    let _ = ladder.finish();
    let before = jsonl(&out.join("journal.jsonl")).len();
    let events_before = jsonl(&out.join("events.jsonl")).len();

    let target = before + 3;
    let again = Ladder::breakthrough(&dir, &out, &["--games", &target.to_string()]);
    let stderr = again.finish().expect_success().stderr;
    assert_has(&stderr, "one.so: plays on with v1");
    let games = jsonl(&out.join("journal.jsonl"));
    assert_eq!(games.len(), target, "{stderr}");
    let random_sha = sha256_of(&random);
    for game in &games[before..] {
        assert_eq!(
            sha_of_slot(game, "one.so"),
            Some(random_sha.clone()),
            "{game}"
        );
    }
    // After the restart: each slot's verdict said again, nothing validated anew.
    let events = jsonl(&out.join("events.jsonl"));
    let after = &events[events_before..];
    let refused = events_of(after, "refused", "one.so");
    assert_eq!(refused.len(), 1, "{after:?}");
    assert_has(
        refused[0]["reason"].as_str().unwrap(),
        "not a shared library",
    );
    let accepted = events_of(after, "accepted", "two.so");
    assert_eq!(accepted.len(), 1, "{after:?}");
    assert_has(
        accepted[0]["smoke"][0].as_str().unwrap(),
        "not validated again",
    );
    assert!(
        events_of(after, "accepted", "one.so").is_empty(),
        "{after:?}"
    );
}

#[test]
fn the_thread_host_bounds_the_builds_a_slot_may_load() {
    let (root, dir, out) = folders("ladder-thread");
    let random = plugin("breakthrough-random");
    let alphabeta = plugin("breakthrough-alphabeta");
    publish(&random, &dir, "left.so");
    publish(&random, &dir, "right.so");
    let mut ladder = Ladder::breakthrough(
        &dir,
        &out,
        &["--host", "thread", "--max-builds-in-process", "2"],
    );
    ladder.wait_for("a game", |l| !l.games().is_empty());
    publish(&alphabeta, &dir, "right.so");
    let new = sha256_of(&alphabeta);
    ladder.wait_for("a game of the second build", |l| {
        l.games()
            .iter()
            .any(|g| sha_of_slot(g, "right.so").as_deref() == Some(new.as_str()))
    });
    // A third content: the random build with a byte appended (ELF ignores trailing bytes).
    let third = root.join("third.so");
    let mut bytes = std::fs::read(&random).unwrap();
    bytes.push(0);
    std::fs::write(&third, &bytes).unwrap();
    publish(&third, &dir, "right.so");
    ladder.wait_for("the refusal of a third build", |l| {
        !events_of(&l.events(), "refused", "right.so").is_empty()
    });
    let at = ladder.games().len();
    ladder.wait_for("two more games", |l| l.games().len() >= at + 2);
    ladder.signal(libc::SIGINT);
    ladder.finish().expect_success();
    let events = jsonl(&out.join("events.jsonl"));
    let reason = events_of(&events, "refused", "right.so")[0]["reason"]
        .as_str()
        .unwrap()
        .to_string();
    assert_has_all(&reason, &["never unloads", "2 builds"]);
    let games = jsonl(&out.join("journal.jsonl"));
    for game in &games[at..] {
        assert_eq!(
            sha_of_slot(game, "right.so").unwrap(),
            new,
            "the slot kept its last good build"
        );
    }
    faultless(&games);
}

#[test]
fn multi_seat_reversixt_games_rotate_every_slot_through_every_seat() {
    let map = instances("reversixt").join("example.map");
    if !map.is_file() {
        eprintln!("skipped: {} is missing", map.display());
        return;
    }
    let (_, dir, out) = folders("ladder-reversixt");
    publish(&plugin("reversixt-random"), &dir, "red.so");
    publish(&plugin("reversixt-greedy"), &dir, "green.so");
    publish(&plugin("reversixt-random"), &dir, "blue.so");
    publish(&plugin("reversixt-greedy"), &dir, "gold.so");
    let param = format!("map={}", map.display());
    let ladder = Ladder::start(
        &dir,
        &out,
        &[
            "--game",
            "reversixt",
            "--param",
            &param,
            "--games",
            "12",
            "--concurrency",
            "2",
            "--seed",
            "3",
        ],
    );
    ladder.finish().expect_success();
    let games = jsonl(&out.join("journal.jsonl"));
    assert_eq!(games.len(), 12);
    let mut per_slot = std::collections::BTreeMap::<String, (usize, BTreeSet<usize>)>::new();
    for game in &games {
        let seats = game["seats"].as_array().unwrap();
        assert_eq!(seats.len(), 3, "{game}");
        let mut ranks: Vec<u64> = game["ranks"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r.as_u64().unwrap())
            .collect();
        ranks.sort();
        assert_eq!(ranks[0], 1, "{game}");
        for (seat, s) in seats.iter().enumerate() {
            let entry = per_slot
                .entry(s["slot"].as_str().unwrap().to_string())
                .or_default();
            entry.0 += 1;
            entry.1.insert(seat);
        }
    }
    assert_eq!(per_slot.len(), 4);
    for (slot, (count, seats)) in &per_slot {
        assert_eq!(*count, 9, "{slot}: 12 games x 3 seats over 4 slots");
        assert_eq!(seats.len(), 3, "{slot} did not play every seat: {seats:?}");
    }
}

#[test]
fn a_watched_tournament_plays_a_new_build_in_the_games_not_yet_started() {
    let (root, dir, out) = folders("tournament-watch");
    let random = plugin("breakthrough-random");
    publish(&random, &dir, "a.so");
    publish(&random, &dir, "b.so");
    let config = root.join("watch.toml");
    std::fs::write(
        &config,
        format!(
            "game = \"breakthrough\"\ngames_per_pairing = 600\nseed = 4\n\
             [[entrant]]\nname = \"a\"\nbot = \"{}:random\"\n\
             [[entrant]]\nname = \"b\"\nbot = \"{}:random\"\n",
            dir.join("a.so").display(),
            dir.join("b.so").display()
        ),
    )
    .unwrap();
    let stderr_path = root.join("run.stderr");
    let mut child = agon_tests::agon()
        .args(["tournament", "run", config.to_str().unwrap(), "--out"])
        .arg(&out)
        .args(["--watch", "--quiet", "--concurrency", "1"])
        .stdout(Stdio::null())
        .stderr(std::fs::File::create(&stderr_path).unwrap())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while jsonl(&out.join("journal.jsonl")).len() < 10 {
        assert!(start.elapsed() < PATIENCE, "no games");
        assert!(child.try_wait().unwrap().is_none(), "the run ended early");
        std::thread::sleep(Duration::from_millis(20));
    }
    // The same bot, a new build: the random plugin with a byte appended.
    let mut bytes = std::fs::read(&random).unwrap();
    bytes.push(7);
    let rebuilt = root.join("rebuilt.so");
    std::fs::write(&rebuilt, &bytes).unwrap();
    publish(&rebuilt, &dir, "b.so");
    let status = child.wait().unwrap();
    let stderr = agon_tests::read(&stderr_path);
    assert!(status.success(), "{status}: {stderr}");
    assert_has(&stderr, "entrant `b`: new build");

    let (old, new) = (sha256_of(&random), sha256_of(&rebuilt));
    let games = jsonl(&out.join("journal.jsonl"));
    assert_eq!(games.len(), 600);
    let b_builds: Vec<String> = games
        .iter()
        .map(|g| g["sha256"][seat_of(g, "b")].as_str().unwrap().to_string())
        .collect();
    let with_new = b_builds.iter().filter(|s| **s == new).count();
    assert!(with_new > 0 && b_builds.contains(&old), "{with_new}");
    assert!(b_builds.iter().all(|s| *s == old || *s == new));

    let names = |standings: &Value| -> BTreeSet<String> {
        standings["standings"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["name"].as_str().unwrap().to_string())
            .collect()
    };
    let separate = agon_tests::standings(&out);
    assert_eq!(
        names(&separate),
        ["a", "b v1", "b v2"]
            .map(String::from)
            .into_iter()
            .collect()
    );
    // The same journal counted by the latest builds only.
    let plan_path = out.join("tournament.json");
    let mut plan: Value = serde_json::from_str(&agon_tests::read(&plan_path)).unwrap();
    plan["settings"]["versions"] = "latest".into();
    std::fs::write(&plan_path, plan.to_string()).unwrap();
    agon_tests::agon_ok(&["tournament", "report", out.to_str().unwrap()]);
    let latest = agon_tests::standings(&out);
    assert_eq!(
        names(&latest),
        ["a", "b"].map(String::from).into_iter().collect()
    );
    assert_eq!(
        latest["tournament"]["games_played"].as_u64().unwrap(),
        with_new as u64
    );
}

/// A `--bot` slot whose file is in the folder at the start must offer that bot for the game and
/// take its parameters: a typo is refused before the ladder runs, naming the bots the file
/// offers (it used to be a warning, and the slot left out of the standings without a word).
#[test]
fn a_configured_bot_the_file_does_not_offer_is_refused_at_the_start() {
    let (_root, dir, out) = folders("ladder-configured-typo");
    publish(&plugin("breakthrough-random"), &dir, "a.so");
    publish(&plugin("breakthrough-alphabeta"), &dir, "b.so");
    // Two slots besides the mistaken one: the ladder used to play its game among them and end.
    publish(&plugin("breakthrough-random"), &dir, "c.so");
    let ladder = |bot: &str| {
        agon_tests::agon_output(&[
            "ladder",
            dir.to_str().unwrap(),
            "--game",
            "breakthrough",
            "--out",
            out.to_str().unwrap(),
            "--games",
            "1",
            "--bot",
            bot,
        ])
        .expect_failure()
        .stderr
    };
    assert_has(
        &ladder("a.so:bott"),
        "--bot a.so:bott: a.so offers no bot `bott` for breakthrough (its bots for \
         breakthrough: random)",
    );
    assert_has(
        &ladder("b.so:alphabeta?dept=3"),
        "the bot refused its parameters: unknown parameter `dept` (known: depth, search, \
         heuristic)",
    );
    assert!(!out.join("journal.jsonl").exists(), "no ladder ran");
}
