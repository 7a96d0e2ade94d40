//! Helpers for Agon's end-to-end tests: build the plugins, the loader fixtures and the `agon`
//! binary once per test binary (with the profile of the running tests, so nothing is compiled
//! twice), and locate them. A clean checkout needs no build step before `cargo test`.

use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Output};
use std::sync::OnceLock;

/// Everything the end-to-end tests load or run: the `agon` binaries and every crate under
/// `plugins/` and `tests/fixtures/`, read from the folders (a new plugin needs no list).
fn packages() -> Vec<String> {
    let mut packages = vec!["agon".to_string()];
    for folder in ["plugins", "tests/fixtures"] {
        let entries = std::fs::read_dir(workspace_root().join(folder)).expect(folder);
        for entry in entries {
            let manifest = entry.expect(folder).path().join("Cargo.toml");
            let Ok(text) = std::fs::read_to_string(&manifest) else {
                continue;
            };
            let parsed: toml::Table = text
                .parse()
                .unwrap_or_else(|e| panic!("{}: {e}", manifest.display()));
            let name = parsed["package"]["name"].as_str().expect("a package name");
            packages.push(name.to_string());
        }
    }
    packages.sort();
    packages
}

/// The seed secret of tests that need the same seat seeds on every run (never a real run's:
/// those draw theirs from the operating system).
pub const TEST_SECRET: agon_engine::SeedSecret = agon_engine::SeedSecret::from_bytes([0x5a; 32]);

/// The built-in maps or puzzles of `game`, as files of the repository
/// (`plugin-api/games/src/GAME/instances/`).
pub fn instances(game: &str) -> PathBuf {
    workspace_root()
        .join("plugin-api/games/src")
        .join(game)
        .join("instances")
}

pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("tests/ sits in the workspace")
        .to_path_buf()
}

/// `target/<profile>`, with every package of [`packages`] built in it.
pub fn artifacts() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        // A test binary lives in target/<profile>/deps.
        let exe = std::env::current_exe().expect("test executable path");
        let dir = exe
            .parent()
            .and_then(Path::parent)
            .expect("target/<profile>/deps/<test>")
            .to_path_buf();
        let profile = match dir.file_name().and_then(|n| n.to_str()) {
            Some("debug") => "dev".to_string(),
            Some(other) => other.to_string(),
            None => panic!("unexpected test location {}", exe.display()),
        };
        let mut cargo = Command::new(env!("CARGO"));
        cargo
            .current_dir(workspace_root())
            .args(["build", "--quiet", "--profile", &profile]);
        for package in packages() {
            cargo.args(["-p", &package]);
        }
        let status = cargo.status().expect("cargo runs");
        assert!(status.success(), "building the test plugins failed");
        dir
    })
}

/// The shipped configuration `name`, its bots pointed at the plugins this test run built (the
/// configurations name release builds, `../target/release/`, which a test run does not make).
pub fn shipped_config(name: &str, dir: &Path) -> PathBuf {
    let path = workspace_root().join("tournaments").join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let release = ["..", "target", "release", ""].join("/");
    assert!(
        text.contains(&release) || !text.contains(".so"),
        "{name}: bots outside target/release"
    );
    let built = format!("{}/", artifacts().display());
    let copy = dir.join(name);
    std::fs::write(&copy, text.replace(&release, &built)).expect("writing the config");
    copy
}

/// The built plugin library of `package` (`lib<package, dashes as underscores>.so`).
pub fn plugin(package: &str) -> PathBuf {
    artifacts().join(format!("lib{}.so", package.replace('-', "_")))
}

/// The text of `path`; a test that cannot read it fails naming the file and why.
#[track_caller]
pub fn read(path: impl AsRef<Path>) -> String {
    let path = path.as_ref();
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

/// Asserts that `text` (a command's output, a fault's detail) contains `needle`, showing both
/// when it does not.
#[track_caller]
pub fn assert_has(text: &str, needle: &str) {
    assert_has_all(text, &[needle]);
}

/// Asserts that `text` contains every one of `needles`, showing the first missing and `text`.
#[track_caller]
pub fn assert_has_all(text: &str, needles: &[&str]) {
    if let Some(missing) = needles.iter().find(|n| !text.contains(*n)) {
        panic!("expected {missing:?} in:\n{text}");
    }
}

/// A bot spec `FILE:BOT` for a built plugin.
pub fn spec(package: &str, bot: &str) -> String {
    format!("{}:{bot}", plugin(package).display())
}

/// Where tests keep content-addressed plugin copies (not the user's cache).
pub fn cache_dir() -> PathBuf {
    artifacts().join("agon-test-cache")
}

/// A fresh, empty folder for one test. A test's folder stays after it, for a look at what a
/// failing test left; the first call of a run removes those of test processes that are gone
/// (they once filled the disk).
pub fn scratch(name: &str) -> PathBuf {
    static SWEPT: OnceLock<()> = OnceLock::new();
    let root = artifacts().join("agon-test-scratch");
    SWEPT.get_or_init(|| remove_scratch_of_finished_runs(&root));
    let dir = root.join(format!("{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch folder");
    dir
}

/// Removes the folders below `root` named `NAME-PID` whose process no longer runs.
fn remove_scratch_of_finished_runs(root: &Path) {
    let Ok(entries) = std::fs::read_dir(root) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let pid = name
            .rsplit_once('-')
            .and_then(|(_, pid)| pid.parse::<u32>().ok());
        if pid.is_some_and(|pid| !Path::new(&format!("/proc/{pid}")).exists()) {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}

/// The `agon` binary, with the test cache, and [`TEST_SECRET`] for the tournaments it plans, so
/// that two runs of one configuration play the same games (a test of the drawn secret removes
/// `AGON_SEED_SECRET`).
pub fn agon() -> Command {
    let mut command = Command::new(artifacts().join("agon"));
    command
        .env("AGON_CACHE_DIR", cache_dir())
        .env("AGON_SEED_SECRET", TEST_SECRET.to_string());
    command
}

/// Seats each bot of `specs` (`FILE:BOT[?params]`, in seat order) behind an in-process `host`
/// for `game`, loading plugins through the test cache.
pub fn seats<S: AsRef<str>>(
    specs: &[S],
    game: &dyn agon_games::contract::GameRules,
    host: agon_engine::HostKind,
) -> Vec<agon_engine::Seat> {
    specs
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let spec: agon_engine::BotSpec = s.as_ref().parse().unwrap();
            let plugin = agon_engine::Plugin::load_with_cache(&spec.file, &cache_dir()).unwrap();
            agon_engine::seat_from_plugin(&plugin, &spec, i, game, host).unwrap()
        })
        .collect()
}

/// Writes `dir/t.toml`: the `header` lines (game, seed, settings), then one `[[entrant]]` per
/// `(name, bot spec)`; its path.
pub fn tournament_config(dir: &Path, header: &str, entrants: &[(&str, String)]) -> PathBuf {
    let mut text = format!("{header}\n");
    for (name, bot) in entrants {
        text.push_str(&format!(
            "[[entrant]]\nname = \"{name}\"\nbot = \"{bot}\"\n"
        ));
    }
    let cfg = dir.join("t.toml");
    std::fs::write(&cfg, text).expect("the config is written");
    cfg
}

/// The arguments of `agon tournament run CFG --out OUT`, to extend with options.
pub fn tournament_run_args<'a>(cfg: &'a Path, out: &'a Path) -> Vec<&'a str> {
    vec![
        "tournament",
        "run",
        cfg.to_str().expect("a UTF-8 config path"),
        "--out",
        out.to_str().expect("a UTF-8 output folder"),
    ]
}

/// `agon tournament run CFG --out OUT`, to add to and run.
pub fn tournament_run(cfg: &Path, out: &Path) -> Command {
    let mut command = agon();
    command.args(tournament_run_args(cfg, out));
    command
}

/// The arguments of `agon match --game GAME` between `bots` (seat order), to extend with options.
pub fn match_args<'a>(game: &'a str, bots: [&'a str; 2]) -> Vec<&'a str> {
    vec!["match", "--game", game, "--bot", bots[0], "--bot", bots[1]]
}

/// The arguments of `agon match` between `bots` (seat order) on Breakthrough, each in a process
/// host, seed 1.
pub fn process_match(bots: [&str; 2]) -> Vec<&str> {
    let mut args = match_args("breakthrough", bots);
    args.extend(["--host", "process", "--seed", "1"]);
    args
}

/// [`process_match`] with `move_ms` per move, the record on stdout, then `extra`.
pub fn process_match_args(bots: [&str; 2], move_ms: u64, extra: &[String]) -> Vec<String> {
    let mut args: Vec<String> = process_match(bots).iter().map(|s| s.to_string()).collect();
    args.extend([
        "--json".to_string(),
        "--move-ms".to_string(),
        move_ms.to_string(),
    ]);
    args.extend_from_slice(extra);
    args
}

/// How a finished command ended and what it printed, as text.
///
/// Nearly every end-to-end test runs a program, checks how it ended and then reads its output.
/// [`Ran::expect_success`] and [`Ran::expect_failure`] make that check once, so that a wrong
/// outcome always reports the command line, the exit status and everything the program printed:
/// a bare `assert!(out.status.success())` fails with none of what explains the failure.
pub struct Ran {
    /// The command as `Command`'s `Debug` shows it: the environment it set, program, arguments.
    pub command: String,
    pub status: ExitStatus,
    /// Decoded lossily: a stray invalid byte must not hide the rest of the output.
    pub stdout: String,
    pub stderr: String,
}

/// Runs `command` to its end (a program that cannot even start panics here).
pub fn run(command: &mut Command) -> Ran {
    let output = command
        .output()
        .unwrap_or_else(|e| panic!("{command:?} did not start: {e}"));
    Ran::new(command, output)
}

impl Ran {
    /// The `output` of `command`, for a command that was spawned and waited for rather than
    /// [`run`].
    pub fn new(command: &Command, output: Output) -> Ran {
        Ran {
            command: format!("{command:?}"),
            status: output.status,
            stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
        }
    }

    /// Itself, if the command exited 0; otherwise panics with everything it printed.
    #[track_caller]
    pub fn expect_success(self) -> Ran {
        if !self.status.success() {
            self.fail("succeed");
        }
        self
    }

    /// Itself, if the command failed (a non-zero exit or a signal); otherwise panics with
    /// everything it printed.
    #[track_caller]
    pub fn expect_failure(self) -> Ran {
        if self.status.success() {
            self.fail("fail");
        }
        self
    }

    #[track_caller]
    fn fail(&self, expected: &str) -> ! {
        panic!(
            "expected {} to {expected}, but it ended with {}\n--- stdout:\n{}\n--- stderr:\n{}",
            self.command, self.status, self.stdout, self.stderr
        )
    }
}

/// `agon ARGS`, run to its end.
pub fn agon_output(args: &[&str]) -> Ran {
    run(agon().args(args))
}

/// `agon match --game reversixt` on the course map file `MAP` of the built-in maps, to extend
/// with options and bots.
pub fn reversixt_match(map: &str) -> Command {
    let map = instances("reversixt").join(map);
    let mut command = agon();
    command.args(["match", "--game", "reversixt", "--param"]);
    command.arg(format!("map={}", map.display()));
    command
}

/// `agon ARGS`, which must succeed; its standard output.
pub fn agon_ok(args: &[&str]) -> String {
    agon_output(args).expect_success().stdout
}

/// Runs the tournament configured in `cfg` into `out` quietly, which must succeed; its standings.
pub fn tournament_standings(cfg: &Path, out: &Path) -> serde_json::Value {
    let mut args = tournament_run_args(cfg, out);
    args.push("--quiet");
    agon_ok(&args);
    standings(out)
}

/// The `standings.json` of a tournament folder.
pub fn standings(dir: &Path) -> serde_json::Value {
    let text = std::fs::read_to_string(dir.join("standings.json")).expect("standings.json");
    serde_json::from_str(&text).expect("standings.json is JSON")
}

/// The seat of entrant `name` in one game of a tournament journal (the index of `name` in the
/// game's `names`); panics if `name` did not play in it.
pub fn seat_of(game: &serde_json::Value, name: &str) -> usize {
    game["names"]
        .as_array()
        .expect("a journal game lists its names")
        .iter()
        .position(|n| n == name)
        .unwrap_or_else(|| panic!("`{name}` did not play in {game}"))
}

/// The fields of `/proc/<pid>/stat` after the command name (which may itself hold spaces or
/// `)`): the state first, then the parent's pid, ... (`proc(5)` numbers them from 3).
pub fn stat_fields(pid: u32) -> Option<Vec<String>> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    Some(
        stat.rsplit(')')
            .next()?
            .split_whitespace()
            .map(str::to_string)
            .collect(),
    )
}

/// The processes whose parent is `parent` (from /proc).
/// CPU seconds (user and system) that process `pid` used while idle for `window`, after
/// `settle` to finish starting; the process must stay alive throughout.
pub fn idle_cpu_seconds(pid: u32, settle: std::time::Duration, window: std::time::Duration) -> f64 {
    let ticks = |pid: u32| -> u64 {
        let fields = stat_fields(pid).expect("the process is alive");
        // utime and stime: fields 14 and 15 of proc(5), which `stat_fields` starts at 3.
        fields[11].parse::<u64>().unwrap() + fields[12].parse::<u64>().unwrap()
    };
    std::thread::sleep(settle);
    let before = ticks(pid);
    std::thread::sleep(window);
    // SAFETY: sysconf has no preconditions.
    let per_second = unsafe { libc::sysconf(libc::_SC_CLK_TCK) }.max(1) as f64;
    (ticks(pid) - before) as f64 / per_second
}

pub fn child_pids(parent: u32) -> Vec<u32> {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .filter_map(|e| e.ok()?.file_name().to_str()?.parse::<u32>().ok())
        .filter(|&pid| {
            stat_fields(pid).is_some_and(|fields| {
                fields.get(1).and_then(|p| p.parse::<u32>().ok()) == Some(parent)
            })
        })
        .collect()
}

/// The children of `parent` once there are at least `count` of them, polling every `every` for
/// at most 10 s (fewer if they never all appear).
pub fn wait_for_children(parent: u32, count: usize, every: std::time::Duration) -> Vec<u32> {
    let t0 = std::time::Instant::now();
    let mut children = Vec::new();
    while children.len() < count && t0.elapsed() < std::time::Duration::from_secs(10) {
        std::thread::sleep(every);
        children = child_pids(parent);
    }
    children
}

/// The program `name` as `PATH` finds it.
pub fn which(name: &str) -> Option<PathBuf> {
    std::env::split_paths(&std::env::var_os("PATH")?)
        .map(|dir| dir.join(name))
        .find(|p| p.is_file())
}

pub mod browser;
pub mod chromium;
pub mod crowded_cpu;
pub mod portal;
pub mod slurm;
pub mod vm;

/// The bot-writer's guide: each of its Rust blocks compiles and runs as a doctest of this crate
/// (its shell and TOML blocks are run by `tests/starter_kit.rs`).
#[cfg(doctest)]
#[doc = include_str!("../../docs/writing-a-bot.md")]
pub struct WritingABotGuide;

/// The target folder that team projects built by the tests share (`starter-kit` in the
/// workspace's target folder, wherever `CARGO_TARGET_DIR` puts it), so their dependencies are
/// compiled once per checkout.
pub fn kit_target() -> PathBuf {
    artifacts()
        .parent()
        .expect("target/<profile>")
        .join("starter-kit")
}

/// `cargo ARGS` in `project`, building into [`kit_target`]; must succeed. Its output.
pub fn kit_cargo(project: &Path, args: &[&str]) -> Ran {
    run(Command::new(env!("CARGO"))
        .current_dir(project)
        .args(args)
        .env("CARGO_TARGET_DIR", kit_target()))
    .expect_success()
}

#[cfg(test)]
mod scratch_tests {
    use super::*;

    #[test]
    fn only_the_scratch_of_finished_runs_is_removed() {
        let root = std::env::temp_dir().join(format!("agon-scratch-sweep-{}", std::process::id()));
        // No process has this number: it is above the kernel's largest (2^22).
        let gone = root.join("viewer-999999999");
        let ours = root.join(format!("viewer-{}", std::process::id()));
        let unnamed = root.join("notes");
        for dir in [&gone, &ours, &unnamed] {
            std::fs::create_dir_all(dir).unwrap();
        }
        remove_scratch_of_finished_runs(&root);
        assert!(!gone.exists());
        assert!(ours.exists() && unnamed.exists());
        std::fs::remove_dir_all(&root).unwrap();
    }
}
