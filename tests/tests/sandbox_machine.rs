//! Sandbox v2: what a hostile bot could do to the machine, to the engine or to its opponent
//! through the process host, and the evidence that it did not happen (the victim file, the IPC
//! objects, the descriptors, the opponent's time, the terminal). Where a test needs something
//! only root can set up it says why it skips.

use agon_tests::{agon, assert_has, plugin, process_match, run, scratch, spec, Ran};
use serde_json::Value;
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

fn match_command(bots: [&str; 2], extra: &[&str]) -> Command {
    let mut command = agon();
    command.args(process_match(bots)).args(extra);
    command
}

fn record(output: Ran) -> Value {
    serde_json::from_str(&output.expect_success().stdout).expect("a JSON record")
}

fn play(bots: [&str; 2], extra: &[&str]) -> Value {
    let mut args = vec!["--json", "--move-ms", "2000"];
    args.extend_from_slice(extra);
    record(run(&mut match_command(bots, &args)))
}

fn first_fault(v: &Value) -> (u64, String, String) {
    let fault = &v["faults"][0];
    (
        fault["seat"].as_u64().unwrap_or(9),
        fault["cause"].as_str().unwrap_or("").to_string(),
        fault["detail"].as_str().unwrap_or("").to_string(),
    )
}

/// What a host's sandbox lacked besides a cgroup of its own (which needs a cgroup v2 the
/// engine may create cgroups in: see `a_host_gets_a_cgroup_of_its_own_where_one_can_be_made`).
fn missing_but_a_cgroup(sandbox: &Value) -> Vec<String> {
    sandbox["missing"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(Value::as_str)
        .filter(|m| !m.starts_with("cgroup: "))
        .map(str::to_string)
        .collect()
}

fn is_root() -> bool {
    // SAFETY: geteuid has no preconditions.
    unsafe { libc::geteuid() == 0 }
}

/// chmod, chown, utimes and xattrs on the bot's own cached library: the calls are refused and
/// the file keeps its mode, owner, times and attributes (they would otherwise abort later
/// matches or keep state between them).
#[test]
fn a_bot_cannot_change_file_metadata() {
    let cache = scratch("sandbox-metadata-cache");
    let random = spec("breakthrough-random", "random");
    let play_cached = |bot: &str| {
        record(run(
            match_command([bot, &random], &["--json"]).env("AGON_CACHE_DIR", &cache)
        ))
    };
    // A harmless match stages the copy; its metadata then must not change.
    play_cached(&spec("misbehave", "illegal"));
    let copy = std::fs::read_dir(cache.join("plugins"))
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| e.path().join("libmisbehave.so"))
        .find(|p| p.exists())
        .expect("the cached copy");
    let snapshot = || {
        use std::os::unix::fs::MetadataExt;
        let meta = std::fs::metadata(&copy).unwrap();
        let mut names = [0u8; 256];
        let path = std::ffi::CString::new(copy.to_str().unwrap()).unwrap();
        // SAFETY: listxattr writes at most `names.len()` bytes.
        let len = unsafe { libc::listxattr(path.as_ptr(), names.as_mut_ptr().cast(), names.len()) };
        let attributes = String::from_utf8_lossy(&names[..len.max(0) as usize]).into_owned();
        (
            meta.mode(),
            meta.uid(),
            meta.gid(),
            meta.mtime(),
            attributes,
        )
    };
    let before = snapshot();
    for call in ["chmod", "chown", "utime", "xattr"] {
        let v = play_cached(&format!("{}?call={call}", spec("misbehave", "metadata")));
        let (seat, cause, detail) = first_fault(&v);
        assert_eq!(
            (seat, cause.as_str()),
            (0, "refused_syscall"),
            "{call}: {detail}"
        );
        assert_eq!(snapshot(), before, "{call} changed the file");
    }
}

fn sysv_objects() -> usize {
    ["shm", "msg", "sem"]
        .iter()
        .map(|kind| {
            std::fs::read_to_string(format!("/proc/sysvipc/{kind}"))
                .map_or(0, |t| t.lines().count().saturating_sub(1))
        })
        .sum()
}

/// SysV shared memory and message queues: refused, and no object is left behind.
#[test]
fn a_bot_leaves_no_sysv_objects_behind() {
    let before = sysv_objects();
    let random = spec("breakthrough-random", "random");
    for call in ["shm", "msg"] {
        let bad = format!("{}?call={call}", spec("misbehave", "sysv"));
        let v = play([&bad, &random], &["--memory-mib", "64"]);
        assert_eq!(first_fault(&v).1, "refused_syscall", "{call}");
    }
    assert_eq!(sysv_objects(), before, "SysV objects were left behind");
}

/// An operator's `7<secret` and a pipe of the calling shell on descriptor 8: the engine keeps
/// them, the bot cannot read them.
#[test]
fn descriptors_the_engine_inherited_do_not_reach_the_bot() {
    let dir = scratch("sandbox-inherited");
    let secret = dir.join("secret");
    std::fs::write(&secret, "agon-secret-7").unwrap();
    let file = std::fs::File::open(&secret).unwrap();
    let mut ends = [0; 2];
    // SAFETY: pipe writes two descriptors into `ends`.
    assert_eq!(unsafe { libc::pipe(ends.as_mut_ptr()) }, 0);
    // SAFETY: both descriptors were just created and are owned here alone.
    let (reader, mut writer) = unsafe {
        use std::os::fd::FromRawFd;
        (
            std::fs::File::from_raw_fd(ends[0]),
            std::fs::File::from_raw_fd(ends[1]),
        )
    };
    std::io::Write::write_all(&mut writer, b"agon-secret-8").unwrap();
    use std::os::fd::AsRawFd;
    let (file_fd, pipe_fd) = (file.as_raw_fd(), reader.as_raw_fd());
    let mut command = match_command(
        [
            &spec("misbehave", "inherited-fd"),
            &spec("breakthrough-random", "random"),
        ],
        &["--json"],
    );
    // SAFETY: dup2 only, in the child before exec; the copies are inherited (no CLOEXEC).
    unsafe {
        command.pre_exec(move || {
            if libc::dup2(file_fd, 7) < 0 || libc::dup2(pipe_fd, 8) < 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    let v = record(run(&mut command));
    let (seat, cause, detail) = first_fault(&v);
    assert_eq!((seat, cause.as_str()), (0, "illegal"), "{detail}");
    let stderr = v["seats"][0]["stderr"].as_str().unwrap_or("");
    assert!(
        !detail.contains("escaped") && !stderr.contains("agon-secret"),
        "{detail} {stderr}"
    );
    drop((file, reader, writer));
}

/// A bot that answers on the host's pipe itself and keeps computing while the opponent thinks
/// (100 ms per move) is stopped between calls; one that answers ahead is caught; a helper
/// thread that spins all match long never runs between calls, and one that sleeps is not hurt.
#[test]
fn a_bot_cannot_think_on_its_opponents_time() {
    let slow = format!("{}?ms=100", spec("misbehave", "slow"));
    let ponder = |mode: &str, extra: &[&str]| {
        let bot = format!("{}?mode={mode}", spec("misbehave", "ponder"));
        play([&bot, &slow], extra)
    };
    let v = ponder("ponder", &[]);
    let (seat, cause, detail) = first_fault(&v);
    assert_eq!((seat, cause.as_str()), (0, "illegal"), "{detail}");
    let v = ponder("ahead", &[]);
    let (seat, cause, detail) = first_fault(&v);
    assert_eq!((seat, cause.as_str()), (0, "malformed"), "{detail}");
    assert_has(&detail, "answered before it was asked");
    let v = ponder("thread", &["--threads", "1"]);
    assert_eq!(v["faults"], serde_json::json!([]), "{v}");
    // An honest thread asleep when its host is stopped sleeps on when continued (the kernel's
    // restart_syscall, which the allow-list once lacked: the host died of SIGSYS).
    for _ in 0..5 {
        let v = ponder("sleeper", &["--threads", "1"]);
        assert_eq!(v["faults"], serde_json::json!([]), "{v}");
    }
}

/// Time spent in the library's constructors and the bot's `Default` (1.5 s of CPU) is the start
/// call's: over a 1000 ms start budget it is a timeout at start, within 5000 ms it is charged.
#[test]
fn a_slow_constructor_is_charged_to_the_start_budget() {
    let slow_new = spec("misbehave", "slow-new");
    let random = spec("breakthrough-random", "random");
    let v = play([&slow_new, &random], &["--start-ms", "1000"]);
    let (seat, cause, detail) = first_fault(&v);
    assert_eq!((seat, cause.as_str()), (0, "timeout"), "{detail}");
    assert_eq!(v["faults"][0]["ply"], 0, "{v}");
    assert!(
        v["faults"][0]["wall_us"].as_u64().unwrap() >= 1_000_000,
        "{v}"
    );
    let v = play([&slow_new, &random], &["--start-ms", "5000"]);
    assert_eq!(v["faults"], serde_json::json!([]), "{v}");
}

/// A panic message full of terminal control sequences reaches the record as it was, and the
/// human summary shows it escaped.
#[test]
fn control_characters_from_bots_never_reach_the_terminal() {
    let shown = run(&mut match_command(
        [
            &spec("misbehave", "escape-codes"),
            &spec("breakthrough-random", "random"),
        ],
        &[],
    ))
    .expect_success()
    .stdout;
    // Lossy decoding keeps every ESC and BEL byte as it was.
    assert!(!shown.contains(['\u{1b}', '\u{7}']), "{shown}");
    assert!(shown.contains(r"\u{1b}]0;pwned\u{7}gotcha"), "{shown}");
}

/// The process host holds for a user who is not root: started by such a user, the bot runs as
/// that user with no capability, in namespaces of its own, and the corpus's escapes still fail.
/// As root the test runs `agon` as nobody; as a normal user, as that user.
#[test]
fn the_process_host_holds_without_root() {
    let cache = scratch("sandbox-unprivileged-cache");
    let home = scratch("sandbox-unprivileged-home");
    for dir in [&cache, &home] {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o777)).unwrap();
    }
    let random = spec("breakthrough-random", "random");
    let read_file = format!(
        "{}?path={}",
        spec("misbehave", "read-file"),
        plugin("breakthrough-random").display()
    );
    let own_sigsys_handler = format!("{}?call=handler", spec("misbehave", "sigsys"));
    let lock = format!("{}?call=lock", spec("misbehave", "channel"));
    let shared_map = format!("{}?call=shared-map", spec("misbehave", "channel"));
    let pids = format!("{}?call=pids", spec("misbehave", "probe"));
    let host_name = format!("{}?call=hostname", spec("misbehave", "probe"));
    let files = format!("{}?call=files", spec("misbehave", "probe"));
    let clocks = format!("{}?call=clocks", spec("misbehave", "probe"));
    let reopen = format!("{}?call=reopen", spec("misbehave", "probe"));
    let patched_handler = format!("{}?call=patch", spec("misbehave", "sigsys"));
    let overmapped_handler = format!("{}?call=overmap", spec("misbehave", "sigsys"));
    let closed_stderr = format!("{}?call=stderr", spec("misbehave", "sigsys"));
    let membarrier = format!("{}?call=membarrier", spec("misbehave", "channel"));
    let sysinfo = format!("{}?call=sysinfo", spec("misbehave", "probe"));
    // With the call the kernel names to the engine, as it does for root.
    for (bot, cause, named) in [
        (read_file.as_str(), "illegal", ""),
        (&spec("misbehave", "fork"), "refused_syscall", "`clone`"),
        (
            &spec("misbehave", "setfsuid"),
            "refused_syscall",
            "`setfsuid`",
        ),
        (&own_sigsys_handler, "refused_syscall", "`rt_sigaction`"),
        (&lock, "refused_syscall", "`fcntl`"),
        (&shared_map, "refused_syscall", "`mmap`"),
        (&pids, "illegal", ""),
        (&host_name, "illegal", ""),
        (&files, "illegal", ""),
        (&clocks, "illegal", ""),
        (&reopen, "illegal", ""),
        (&patched_handler, "refused_syscall", "`socket`"),
        (&overmapped_handler, "refused_syscall", "`socket`"),
        (&closed_stderr, "refused_syscall", "`socket`"),
        (&membarrier, "refused_syscall", "`membarrier`"),
        (&sysinfo, "illegal", ""),
    ] {
        let mut command = match_command([bot, &random], &["--json"]);
        command.env("AGON_CACHE_DIR", &cache).env("HOME", &home);
        if is_root() {
            command.uid(65534).gid(65534);
        }
        let v = record(run(&mut command));
        let (seat, found, detail) = first_fault(&v);
        assert_eq!((seat, found.as_str()), (0, cause), "{bot}: {detail}");
        assert!(!detail.contains("escaped"), "{bot}: {detail}");
        assert!(detail.contains(named), "{bot}: {detail}");
        let sandbox = &v["seats"][1]["sandbox"];
        let expected_uid = if is_root() {
            65534
        } else {
            unsafe { libc::getuid() }
        };
        assert_eq!(sandbox["uid"], expected_uid, "{sandbox}");
        assert_eq!(
            missing_but_a_cgroup(sandbox),
            Vec::<String>::new(),
            "{sandbox}"
        );
        assert_eq!(
            sandbox["namespaces"].as_array().unwrap().len(),
            5,
            "{sandbox}"
        );
    }
}

/// The CPU clock ticks (user and system) of `pid`, and whether it is confined by seccomp.
fn cpu_ticks_and_confined(pid: u32) -> Option<(u64, bool)> {
    let fields = agon_tests::stat_fields(pid)?;
    let ticks = fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let confined = status
        .lines()
        .any(|line| line.split_whitespace().collect::<Vec<_>>() == ["Seccomp:", "2"]);
    Some((ticks, confined))
}

/// The first of `hosts` whose bot's process (the host, or its child in a PID namespace of its
/// own) spends 3 clock ticks of CPU after it was confined: a host running team code that spins
/// (loading and confining happen before, and a random mover spends almost nothing). Returns
/// the host and its bot's process.
fn spinning_after_confinement(hosts: &[u32]) -> Option<(u32, u32)> {
    let mut confined_at: Vec<Option<u64>> = vec![None; hosts.len()];
    let t0 = Instant::now();
    while t0.elapsed() < Duration::from_secs(10) {
        for (host, since) in hosts.iter().zip(confined_at.iter_mut()) {
            let bot = agon_tests::child_pids(*host)
                .first()
                .copied()
                .unwrap_or(*host);
            match (cpu_ticks_and_confined(bot), *since) {
                (Some((ticks, true)), None) => *since = Some(ticks),
                (Some((ticks, true)), Some(start)) if ticks >= start + 3 => {
                    return Some((*host, bot))
                }
                _ => {}
            }
        }
        std::thread::sleep(Duration::from_millis(2));
    }
    None
}

/// A host stuck in an uninterruptible wait (here: frozen by the cgroup v1 freezer, which keeps
/// even a SIGKILLed task frozen) does not hang the engine: it is killed, left to a background
/// reaper, the fault is recorded and the match ends. Needs root and a v1 freezer hierarchy.
#[test]
fn a_host_that_cannot_be_reaped_does_not_hang_the_engine() {
    let freezer = Path::new("/sys/fs/cgroup/freezer");
    if !is_root() || !freezer.join("cgroup.procs").exists() {
        eprintln!(
            "skipped: needs root and the cgroup v1 freezer at {}",
            freezer.display()
        );
        return;
    }
    let group = freezer.join(format!("agon-test-{}", std::process::id()));
    if let Err(e) = std::fs::create_dir(&group) {
        eprintln!("skipped: cannot create a freezer cgroup: {e}");
        return;
    }
    let mut command = match_command(
        [
            &spec("breakthrough-random", "random"),
            &spec("misbehave", "loop"),
        ],
        &["--json", "--move-ms", "500", "--clock", "wall"],
    );
    command
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null());
    let engine = command.spawn().unwrap();
    let hosts = agon_tests::wait_for_children(engine.id(), 2, Duration::from_millis(10));
    assert_eq!(hosts.len(), 2, "two hosts");
    // Freeze the looping bot inside its move call, not earlier: a host frozen while it starts
    // is bounded by the startup limit instead, which a loaded machine used to reach first.
    let (host, bot) = spinning_after_confinement(&hosts).expect("the looping bot's host spins");
    // Both: the engine's child, which it reaps, and the bot's process under it.
    for stuck in [host, bot] {
        std::fs::write(group.join("cgroup.procs"), stuck.to_string()).unwrap();
    }
    std::fs::write(group.join("freezer.state"), "FROZEN").unwrap();
    // An engine that waits for the frozen host would wait for ever: thaw it after 10 s, so that
    // such an engine fails the test instead of hanging it.
    let thaw = group.join("freezer.state");
    std::thread::spawn(move || {
        std::thread::sleep(Duration::from_secs(10));
        let _ = std::fs::write(thaw, "THAWED");
    });
    let t1 = Instant::now();
    let output = engine.wait_with_output().unwrap();
    let waited = t1.elapsed();
    std::fs::write(group.join("freezer.state"), "THAWED").unwrap();
    while std::fs::remove_dir(&group).is_err() && t1.elapsed() < Duration::from_secs(20) {
        std::thread::sleep(Duration::from_millis(50));
    }
    let v = record(Ran::new(&command, output));
    assert!(
        waited < Duration::from_secs(8),
        "the engine waited {waited:?}"
    );
    let (seat, cause, detail) = first_fault(&v);
    assert_eq!(seat, 1, "{detail}");
    assert_eq!(cause, "timeout", "{detail}");
}

/// `--sandbox-user` chooses whom a root engine runs bots as; root itself and unknown users are
/// refused before any game.
#[test]
fn the_sandbox_user_is_chosen_and_never_root() {
    let random = spec("breakthrough-random", "random");
    for (user, refusal) in [
        ("root", "`root` is root"),
        ("no-such-agon-user", "no such user"),
    ] {
        let stderr = run(&mut match_command(
            [&random, &random],
            &["--sandbox-user", user],
        ))
        .expect_failure()
        .stderr;
        assert!(stderr.contains(refusal), "{user}: {stderr}");
    }
    if !is_root() {
        eprintln!("skipped: only root switches to the sandbox user");
        return;
    }
    let v = play([&random, &random], &["--sandbox-user", "4242:4242"]);
    assert_eq!(v["seats"][0]["sandbox"]["uid"], 4242, "{v}");
    assert_eq!(v["faults"], serde_json::json!([]));
}

/// `agon plugins` opens each file in a confined host: a library constructor that reads
/// /etc/passwd, the environment, or creates a file (and aborts when it could) finds nothing,
/// and the plugin is listed.
#[test]
fn a_library_constructor_runs_confined_under_agon_plugins() {
    let marker = Path::new("/tmp/agon-fixture-constructor-escaped");
    let _ = std::fs::remove_file(marker);
    let file = plugin("fixture-constructor-escape");
    let stdout = run(agon()
        .args(["plugins", file.to_str().unwrap()])
        .env("AGON_SECRET", "agon-secret-env"))
    .expect_success()
    .stdout;
    assert_has(&stdout, "corner");
    assert!(!marker.exists(), "the constructor created a file");
    // Its bot plays (and loses) in a confined host too.
    let v = play(
        [
            &format!("{}:corner", file.display()),
            &spec("breakthrough-random", "random"),
        ],
        &[],
    );
    assert_eq!(first_fault(&v).1, "illegal", "{v}");
    assert!(!marker.exists(), "the constructor created a file");
}

/// Where the engine may create cgroups, every host gets its own with its limits, removed after
/// the match; a cgroup named by `AGON_CGROUP` must really be one (a plain folder would enforce
/// nothing) and is refused, named, otherwise.
#[test]
fn a_host_gets_a_cgroup_of_its_own_where_one_can_be_made() {
    let random = spec("breakthrough-random", "random");
    let fake = scratch("sandbox-fake-cgroup");
    std::fs::write(fake.join("cgroup.subtree_control"), "cpu memory pids").unwrap();
    let v = record(run(
        match_command([&random, &random], &["--json"]).env("AGON_CGROUP", &fake)
    ));
    // A bot without threads does without it (substituted); one allowed threads misses it.
    let substituted = v["seats"][0]["sandbox"]["substituted"].to_string();
    assert_has(&substituted, "is not a cgroup v2 file system");
    let threaded = record(run(match_command(
        [&random, &random],
        &["--json", "--threads", "1"],
    )
    .env("AGON_CGROUP", &fake)));
    let missing = threaded["seats"][0]["sandbox"]["missing"].to_string();
    assert_has(&missing, "is not a cgroup v2 file system");
    assert!(v["seats"][0]["sandbox"].get("cgroup").is_none(), "{v}");
    let Ok(parent) = agon_engine::sandbox::cgroup::delegation() else {
        eprintln!("skipped: the engine may create no cgroup v2 here");
        return;
    };
    let flood = format!("{}?allowed=1", spec("misbehave", "thread-flood"));
    let v = play([&flood, &random], &["--threads", "1", "--memory-mib", "64"]);
    let cgroup = v["seats"][0]["sandbox"]["cgroup"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(Path::new(&cgroup).starts_with(parent), "{cgroup}");
    assert_eq!(first_fault(&v).1, "illegal", "{v}");
    assert!(!Path::new(&cgroup).exists(), "{cgroup} was left behind");
}
