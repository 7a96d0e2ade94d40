//! The process host against the misbehaving corpus: every bad bot ends in a recorded fault with
//! the right cause, on time, with nothing left behind, and never escapes (docs/architecture.md, "Hosts").

use agon_engine::replay;
use agon_engine::seating;
use agon_engine::BotSpec;
use agon_engine::Clock;
use agon_engine::FaultCause;
use agon_engine::SandboxConfig;
use agon_engine::StagedPlugin;
use agon_engine::{run_match, MatchSettings, Seat};
use agon_engine::{Budgets, MatchRecord};
use agon_engine::{ProcessHost, ProcessHostConfig};
use agon_games::contract::{GameRules, RawParams};
use agon_games::registry::Registry;
use agon_tests::{
    agon, artifacts, assert_has, assert_has_all, cache_dir, match_args, plugin, process_match,
    process_match_args, run, scratch, spec,
};
use serde_json::Value;
use std::time::{Duration, Instant};

struct Case {
    bot: &'static str,
    cause: &'static str,
    move_ms: u64,
    extra: Vec<String>,
}

fn case(bot: &'static str, cause: &'static str) -> Case {
    Case {
        bot,
        cause,
        move_ms: 2000,
        extra: Vec::new(),
    }
}

fn run_cli(args: &[String]) -> (Value, Duration) {
    let t0 = Instant::now();
    let out = run(agon().args(args));
    let elapsed = t0.elapsed();
    let v: Value = serde_json::from_str(&out.expect_success().stdout).expect("JSON record");
    (v, elapsed)
}

/// The whole corpus, each bot in seat 0 against random, through the `agon` binary.
#[test]
fn every_misbehaving_bot_is_contained() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let other_plugin = plugin("breakthrough-random");
    let cases = vec![
        case("panic", "panic"),
        case("panic-start", "panic"),
        case("segfault", "crash"),
        case("abort", "crash"),
        case("stack-overflow", "crash"),
        Case {
            move_ms: 300,
            ..case("loop", "timeout")
        },
        Case {
            move_ms: 300,
            ..case("sleep", "timeout")
        },
        Case {
            move_ms: 10_000,
            extra: vec!["--memory-mib".into(), "256".into()],
            ..case("oom", "oom")
        },
        case("exit", "exited"),
        case("malformed", "malformed"),
        case("huge", "malformed"),
        case("illegal", "illegal"),
        case("fork", "refused_syscall"),
        case("read-file", "illegal"),
        case("connect", "refused_syscall"),
        // The flood goes to /dev/null: the answer after it arrives intact, and is illegal.
        case("stdout-garbage", "illegal"),
        case("thread-hog", "refused_syscall"),
        // A thread started in the constructor: the sandbox is on before any team code runs.
        case("early-thread", "refused_syscall"),
        case("setpgid", "refused_syscall"),
        case("pdeathsig", "refused_syscall"),
        case("prlimit-parent", "refused_syscall"),
        // A stop signal to itself would pass for a kill from outside (a game played again).
        case("self-signal", "refused_syscall"),
        case("self-signal?call=kill", "refused_syscall"),
        // A SIGKILL to itself would pass for the kernel's OOM killer.
        case("self-signal?call=kill&signal=kill", "refused_syscall"),
        case("self-signal?signal=kill", "refused_syscall"),
        // The report of a refused call: a handler of its own or SIGSYS ignored is refused
        // itself, SIGSYS blocked still kills, a refusal line of its own refuses nothing.
        case("sigsys?call=handler", "refused_syscall"),
        case("sigsys?call=ignore", "refused_syscall"),
        case("sigsys?call=block", "refused_syscall"),
        case("sigsys?call=fake", "illegal"),
        // Tampering with the host's own report of a refusal changes nothing: the kernel tells
        // the engine.
        case("sigsys?call=patch", "refused_syscall"),
        case("sigsys?call=overmap", "refused_syscall"),
        case("sigsys?call=stderr", "refused_syscall"),
        // Sandbox v2: the machine (see `sandbox_machine.rs` for what each leaves behind).
        case("ioctl", "refused_syscall"),
        case("metadata?call=chmod", "refused_syscall"),
        case("metadata?call=chown", "refused_syscall"),
        case("metadata?call=utime", "refused_syscall"),
        case("metadata?call=xattr", "refused_syscall"),
        case("mounts?call=setattr", "refused_syscall"),
        case("mounts?call=fsopen", "refused_syscall"),
        case("mounts?call=open-tree", "refused_syscall"),
        case("notify?call=fanotify", "refused_syscall"),
        case("notify?call=inotify", "refused_syscall"),
        case("setfsuid", "refused_syscall"),
        case("sysv?call=shm", "refused_syscall"),
        case("sysv?call=msg", "refused_syscall"),
        case("inherited-fd", "illegal"),
        case("machine?call=hostname", "refused_syscall"),
        case("machine?call=sync", "refused_syscall"),
        case("machine?call=mlockall", "refused_syscall"),
        // A bot at a lower priority would be starved for longer (docs/busy-machines.md).
        case("machine?call=nice", "refused_syscall"),
        case("machine?call=sched-idle", "refused_syscall"),
        // No channel between bots through what they can all reach.
        case("channel?call=lock", "refused_syscall"),
        case("channel?call=ofd-lock", "refused_syscall"),
        case("channel?call=get-lock", "refused_syscall"),
        case("channel?call=flock", "refused_syscall"),
        case("channel?call=shared-map", "refused_syscall"),
        case("channel?call=mincore", "refused_syscall"),
        case("channel?call=fadvise", "refused_syscall"),
        case("channel?call=pageout", "refused_syscall"),
        case("channel?call=membarrier", "refused_syscall"),
        // Nothing of the machine: no other process, no load, not its name.
        case("probe?call=pids", "illegal"),
        case("probe?call=clocks", "illegal"),
        case("probe?call=sysinfo", "illegal"),
        case("probe?call=hostname", "illegal"),
        case("probe?call=files", "illegal"),
        case("probe?call=reopen", "illegal"),
        Case {
            extra: vec!["--threads".into(), "1".into()],
            ..case("namespace-thread", "refused_syscall")
        },
        Case {
            extra: vec![
                "--threads".into(),
                "1".into(),
                "--memory-mib".into(),
                "64".into(),
            ],
            ..case("thread-flood?allowed=1", "illegal")
        },
    ];
    let random = spec("breakthrough-random", "random");
    for c in cases {
        let bad = match c.bot {
            "read-file" => format!(
                "{}?path={}",
                spec("misbehave", c.bot),
                other_plugin.display()
            ),
            "connect" => format!("{}?port={port}", spec("misbehave", c.bot)),
            _ => spec("misbehave", c.bot),
        };
        let (v, elapsed) = run_cli(&process_match_args([&bad, &random], c.move_ms, &c.extra));
        let fault = &v["faults"][0];
        assert_eq!(v["winner"], 1, "{}: {v}", c.bot);
        assert_eq!(fault["seat"], 0, "{}", c.bot);
        assert_eq!(fault["cause"], c.cause, "{}: {fault}", c.bot);
        let detail = fault["detail"].as_str().unwrap_or("");
        let stderr = v["seats"][0]["stderr"].as_str().unwrap_or("");
        assert!(
            !detail.contains("escaped:") && !stderr.contains("escaped:"),
            "{}: {detail} {stderr}",
            c.bot
        );
        // One call to the deadline, plus start-up and tear-down of two hosts.
        let limit = Duration::from_millis(c.move_ms.min(2000) + 1500);
        assert!(elapsed < limit, "{} took {elapsed:?}", c.bot);
        // A bot that died while being created never reported its sandbox.
        let sandbox = &v["seats"][0]["sandbox"];
        if c.bot != "early-thread" {
            assert_eq!(sandbox["seccomp"], true, "{}: {sandbox}", c.bot);
            assert_eq!(sandbox["landlock"], "full", "{}: {sandbox}", c.bot);
            assert_ne!(sandbox["uid"], 0, "{}: {sandbox}", c.bot);
            assert!(sandbox["uid"].is_u64(), "{}: {sandbox}", c.bot);
        }
        // The next match gets fresh hosts and works.
        let (next, _) = run_cli(&process_match_args([&random, &random], 2000, &[]));
        assert_eq!(next["faults"], serde_json::json!([]), "after {}", c.bot);
    }
    drop(listener);
}

/// A stop signal to itself, by `raise` (tgkill) or `kill`, would pass for a stop from outside
/// the engine (`external`: a game played again): every one is refused.
#[test]
fn a_bot_cannot_stop_itself() {
    let random = spec("breakthrough-random", "random");
    for signal in ["stop", "tstp", "ttin", "ttou"] {
        for call in ["raise", "kill"] {
            let bad = format!(
                "{}?signal={signal}&call={call}",
                spec("misbehave", "self-signal")
            );
            let (v, _) = run_cli(&process_match_args([&bad, &random], 1000, &[]));
            let fault = &v["faults"][0];
            assert_eq!(fault["seat"], 0, "{signal} by {call}: {v}");
            assert_eq!(
                fault["cause"], "refused_syscall",
                "{signal} by {call}: {fault}"
            );
        }
    }
}

/// The kernel, not the host, tells the engine which call was refused: a bot that patched the
/// host's SIGSYS handler, mapped over it or closed its stderr is still recorded with the call.
#[test]
fn a_refused_call_is_recorded_whatever_the_bot_did_to_its_host() {
    let random = spec("breakthrough-random", "random");
    for call in ["patch", "overmap", "stderr"] {
        let bad = format!("{}?call={call}", spec("misbehave", "sigsys"));
        let (v, _) = run_cli(&process_match_args([&bad, &random], 2000, &[]));
        let fault = &v["faults"][0];
        assert_eq!(fault["cause"], "refused_syscall", "{call}: {fault}");
        let detail = fault["detail"].as_str().unwrap_or("");
        assert!(detail.contains("`socket`"), "{call}: {detail}");
        assert_eq!(v["seats"][0]["sandbox"]["refusals_to_engine"], true, "{v}");
    }
}

#[test]
fn a_panic_message_reaches_the_record_through_stderr() {
    let (v, _) = run_cli(&process_match_args(
        [
            &spec("misbehave", "panic"),
            &spec("breakthrough-random", "random"),
        ],
        2000,
        &[],
    ));
    let stderr = v["seats"][0]["stderr"].as_str().unwrap();
    assert_has(stderr, "deliberate panic in act");
    assert!(
        v["seats"][1].get("stderr").is_none(),
        "random printed nothing"
    );
}

fn host_config(sandbox: SandboxConfig) -> ProcessHostConfig {
    ProcessHostConfig {
        executable: artifacts().join("agon-host"),
        sandbox,
    }
}

fn process_seat(spec_text: &str, seat: usize, config: &ProcessHostConfig) -> (Seat, u32) {
    let spec: BotSpec = spec_text.parse().unwrap();
    seating::process_seat(&spec, seat, breakthrough(), config, &cache_dir()).unwrap()
}

fn gone(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Err(_) => true,
        // A zombie whose parent is init is reaped by init; ours are reaped by the engine.
        Ok(stat) => stat
            .rsplit(')')
            .next()
            .is_some_and(|rest| rest.trim_start().starts_with('Z')),
    }
}

fn breakthrough() -> &'static dyn GameRules {
    &agon_games::breakthrough::session::BreakthroughRules
}

fn play(seats: Vec<Seat>, move_ms: u64, clock: Clock) -> MatchRecord {
    let settings = MatchSettings {
        params: RawParams::new(),
        seed: 3,
        seed_secret: agon_tests::TEST_SECRET,
        budgets: Budgets {
            start_ms: Some(2000),
            move_ms: Some(move_ms),
            clock,
        },
        fault_policy: None,
    };
    run_match(breakthrough(), &settings, seats).unwrap()
}

#[test]
fn no_host_process_outlives_its_match() {
    let config = host_config(SandboxConfig::default());
    for bad in ["loop", "segfault", "exit", "illegal"] {
        let (a, pid_a) = process_seat(&spec("misbehave", bad), 0, &config);
        let (b, pid_b) = process_seat(&spec("breakthrough-random", "random"), 1, &config);
        let record = play(vec![a, b], 200, Clock::Wall);
        assert_eq!(record.outcome.winner, Some(1), "{bad}");
        replay::verify(&record, &Registry::builtin()).unwrap();
        assert!(gone(pid_a), "{bad}: host {pid_a} left behind");
        assert!(gone(pid_b), "{bad}: opponent's host {pid_b} left behind");
    }
}

/// Killing the engine with SIGKILL takes its hosts with it (PR_SET_PDEATHSIG).
/// A host's parent-death signal fires when the thread that forked it ends, not only the
/// engine: hosts started on threads that end before their game (a game's seats are started
/// side by side) must still play it.
#[test]
fn hosts_outlive_the_thread_that_started_them() {
    let config = host_config(SandboxConfig::default());
    let seats: Vec<Seat> = (0..2)
        .map(|seat| {
            let config = config.clone();
            std::thread::spawn(move || {
                process_seat(&spec("breakthrough-random", "random"), seat, &config).0
            })
            .join()
            .expect("a seat")
        })
        .collect();
    // Time for a signal sent when those threads ended to take effect.
    std::thread::sleep(Duration::from_millis(200));
    let record = play(seats, 1000, Clock::Wall);
    assert!(record.faults.is_empty(), "{:?}", record.faults);
    assert!(record.outcome.winner.is_some(), "{:?}", record.outcome);
}

#[test]
fn hosts_die_with_the_engine() {
    let (random, looping) = (
        spec("breakthrough-random", "random"),
        spec("misbehave", "loop"),
    );
    let mut engine = agon()
        .args(match_args("breakthrough", [&random, &looping]))
        .args(["--host", "process", "--move-ms", "60000"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let hosts = agon_tests::wait_for_children(engine.id(), 2, Duration::from_millis(20));
    assert_eq!(hosts.len(), 2, "two agon-host children");
    std::thread::sleep(Duration::from_millis(200)); // the loop bot is now spinning
    engine.kill().unwrap();
    engine.wait().unwrap();
    let t1 = Instant::now();
    while !hosts.iter().all(|&p| gone(p)) && t1.elapsed() < Duration::from_secs(5) {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(
        hosts.iter().all(|&p| gone(p)),
        "hosts {hosts:?} outlived the engine"
    );
}

/// With the CPU clock a spinning bot is stopped when its CPU time runs out, a sleeping one (no
/// CPU) by the wall-clock watchdog at three times the budget.
#[test]
fn the_cpu_clock_counts_cpu_and_keeps_a_wall_watchdog() {
    let config = host_config(SandboxConfig::default());
    let random = spec("breakthrough-random", "random");
    // The loop's CPU budget runs out after 200 ms of CPU, which a loaded machine stretches up to
    // the wall watchdog at 600 ms (plus the watchdog's own reaction): that is the margin the
    // engine allows, so it is the window.
    for (bad, min_ms, max_ms) in [("loop", 200, 700), ("sleep", 600, 1100)] {
        let (a, _) = process_seat(&spec("misbehave", bad), 0, &config);
        let (b, _) = process_seat(&random, 1, &config);
        let record = play(vec![a, b], 200, Clock::Cpu);
        let fault = &record.faults[0];
        assert_eq!(fault.cause, FaultCause::Timeout, "{bad}: {fault:?}");
        let waited = fault.wall_us / 1000;
        assert!(
            (min_ms..max_ms).contains(&waited),
            "{bad}: waited {waited} ms"
        );
    }
    let (a, _) = process_seat(&random, 0, &config);
    let (b, _) = process_seat(&random, 1, &config);
    let record = play(vec![a, b], 1000, Clock::Cpu);
    assert!(record.faults.is_empty());
    assert!(record.moves.iter().all(|m| m.cpu_us.is_some()));
}

/// `--threads N` lets a bot start threads; the hog's spinning thread then "escapes" into a
/// panic (which is recorded) and dies with its host.
#[test]
fn threads_are_refused_unless_allowed() {
    let allowed = host_config(SandboxConfig {
        threads: 2,
        ..SandboxConfig::default()
    });
    let (a, pid) = process_seat(&spec("misbehave", "thread-hog"), 0, &allowed);
    let (b, _) = process_seat(&spec("breakthrough-random", "random"), 1, &allowed);
    let record = play(vec![a, b], 1000, Clock::Wall);
    assert_eq!(record.faults[0].cause, FaultCause::Panic);
    assert!(record.faults[0]
        .detail
        .contains("escaped: started a thread"));
    assert!(gone(pid));
}

/// Strict mode runs only where every protection holds, by its own mechanism or by a
/// substitute, and what it vouches for is what the kernel enforced. Without a cgroup v2 per
/// host (as on machines whose controllers are bound to cgroup v1) a bot without threads still
/// runs, the cgroup recorded as substituted; a bot allowed threads needs the cgroup's CPU and
/// task caps, and strict mode refuses it, naming the reason.
#[test]
fn strict_mode_runs_only_where_every_protection_holds() {
    let strict = |extra: &[&str]| {
        let random = spec("breakthrough-random", "random");
        let mut extra: Vec<String> = extra.iter().map(|a| a.to_string()).collect();
        extra.extend(["--sandbox".to_string(), "strict".to_string()]);
        process_match_args([&random, &random], 2000, &extra)
    };
    let (v, _) = run_cli(&strict(&[]));
    assert_eq!(v["faults"], serde_json::json!([]));
    let sandbox = &v["seats"][0]["sandbox"];
    assert_eq!(sandbox["missing"], serde_json::json!([]), "{sandbox}");
    assert_eq!(sandbox["refusals_to_engine"], true, "{sandbox}");
    assert_ne!(sandbox["uid"], 0, "{sandbox}");
    assert_eq!(sandbox["thread_limit"], 0, "{sandbox}");
    for namespace in ["user", "ipc", "uts", "mount", "pid"] {
        assert!(
            sandbox["namespaces"]
                .as_array()
                .unwrap()
                .contains(&Value::from(namespace)),
            "{namespace}: {sandbox}"
        );
    }
    let threaded = strict(&["--threads", "1"]);
    match agon_engine::sandbox::cgroup::delegation() {
        Ok(_) => {
            assert!(sandbox["cgroup"].is_string(), "{sandbox}");
            let (v, _) = run_cli(&threaded);
            assert_eq!(v["seats"][0]["sandbox"]["missing"], serde_json::json!([]));
        }
        Err(why) => {
            let substituted = sandbox["substituted"].to_string();
            assert!(substituted.contains(&format!("cgroup: {why}")), "{sandbox}");
            // Strict mode must not run threads without a cgroup.
            let stderr = run(agon().args(&threaded)).expect_failure().stderr;
            assert_has(
                &stderr,
                &agon_engine::sandbox::cgroup::unavailable_message(&why),
            );
            // Without strict mode it runs, and its record says what was missing.
            let (v, _) = run_cli(&threaded[..threaded.len() - 2]);
            assert_eq!(
                v["seats"][0]["sandbox"]["missing"],
                serde_json::json!([format!("cgroup: {why}")])
            );
        }
    }
}

/// A run whose hosts get no cgroup (here: `$AGON_CGROUP` names none) says so once, in one line
/// with why, pointing at `agon doctor`, which says what it costs and how to fix it; one line of
/// the summary for all seats rather than one per seat; strict mode refuses a bot allowed
/// threads, saying all of it.
#[test]
fn a_missing_cgroup_is_said_once_and_strict_mode_refuses_in_the_same_words() {
    let no_cgroup = scratch("no-cgroup").join("no-such-cgroup");
    let random = spec("breakthrough-random", "random");
    let threaded = |extra: &[&str]| {
        let mut command = agon();
        command
            .args(process_match([&random, &random]))
            .args(["--threads", "1"])
            .args(extra)
            .env("AGON_CGROUP", &no_cgroup);
        command
    };
    let ran = run(&mut threaded(&[])).expect_success();
    let said: Vec<&str> = ran
        .stdout
        .lines()
        .filter(|l| l.contains("cgroup"))
        .collect();
    assert_eq!(
        said,
        [
            "sandbox incomplete for seats 0 and 1: no cgroup (the warning on stderr says why; \
          `agon doctor` what that costs and how to give hosts one)"
        ],
        "{}",
        ran.stdout
    );
    let warnings: Vec<&str> = ran
        .stderr
        .lines()
        .filter(|l| l.contains("cgroup"))
        .collect();
    assert_eq!(warnings.len(), 1, "one line, once:\n{}", ran.stderr);
    assert_has_all(warnings[0], &["no-such-cgroup", "`agon doctor`"]);
    assert!(warnings[0].len() < 400, "a short line: {}", warnings[0]);

    let refused = run(&mut threaded(&["--sandbox", "strict"])).expect_failure();
    assert_has_all(
        &refused.stderr,
        &[
            "sandbox strict: refusing to run a bot allowed threads: ",
            "no-such-cgroup",
            "RLIMIT_AS",
            "$AGON_CGROUP",
        ],
    );
    let doctor = run(agon().arg("doctor").env("AGON_CGROUP", &no_cgroup)).expect_success();
    assert_has_all(
        &doctor.stdout,
        &[
            "missing cgroup v2",
            "no-such-cgroup",
            "RLIMIT_NPROC",
            "$AGON_CGROUP",
        ],
    );
    let json = run(agon()
        .args(["doctor", "--json"])
        .env("AGON_CGROUP", &no_cgroup))
    .expect_success();
    let checks: serde_json::Value = serde_json::from_str(&json.stdout).expect("JSON");
    let cgroup = checks
        .as_array()
        .expect("a list")
        .iter()
        .find(|c| c["name"] == "cgroup v2")
        .expect("a cgroup check");
    assert_eq!(cgroup["available"], false, "{checks}");
}

#[test]
fn a_host_that_cannot_load_its_bot_names_the_file() {
    let config = host_config(SandboxConfig::default());
    let staged = StagedPlugin::stage(&plugin("misbehave"), &cache_dir()).unwrap();
    let e = ProcessHost::spawn(&config, &staged, "nice", "breakthrough")
        .map(|_| ())
        .unwrap_err();
    assert!(
        e.to_string().contains("libmisbehave.so: no bot `nice`"),
        "{e}"
    );
    let staged = StagedPlugin::stage(&plugin("fixture-not-agon"), &cache_dir()).unwrap();
    let e = ProcessHost::spawn(&config, &staged, "x", "breakthrough")
        .map(|_| ())
        .unwrap_err();
    assert!(e.to_string().contains("not an Agon plugin"), "{e}");
}

/// Under a policy that plays on (`random-legal` here), a late answer costs that turn only: the
/// bot's process, killed at the deadline, is started again for its next turn (recorded), where
/// it used to be `abandoned` for the rest of the game. The bot is late on every third move of
/// each life, so it is late again and again, and started again each time.
#[test]
fn a_bot_killed_at_a_deadline_is_started_again_under_policies_that_play_on() {
    let out = run(agon_tests::reversixt_match("heartExercise3.map").args([
        "--host",
        "process",
        "--clock",
        "wall",
        "--move-ms",
        "200",
        "--on-fault",
        "random-legal:0.5",
        "--json",
        "--seed",
        "1",
        "--bot",
        &spec("misbehave", "spend?ms=0,0,400,0"),
        "--bot",
        &spec("reversixt-greedy", "greedy"),
    ]));
    let v: Value = serde_json::from_str(&out.expect_success().stdout).expect("JSON record");
    let faults = v["faults"].as_array().unwrap();
    let restarts = v["restarts"].as_array().expect("restarts recorded");
    assert!(faults.len() >= 2, "{v}");
    for fault in faults {
        assert_eq!(fault["seat"], 0, "{fault}");
        assert_eq!(fault["cause"], "timeout", "{fault}");
    }
    // Every late answer but possibly the last (after which the game may end) is followed by a
    // restart before the seat's next turn.
    assert!(
        restarts.len() + 1 >= faults.len() && restarts.len() <= faults.len(),
        "{v}"
    );
    for (fault, restart) in faults.iter().zip(restarts) {
        assert_eq!(restart["seat"], 0);
        assert!(restart["ply"].as_u64() > fault["ply"].as_u64(), "{restart}");
        assert!(
            restart["reason"].as_str().unwrap().contains("deadline"),
            "{restart}"
        );
    }
    assert_eq!(v["termination"], "rules", "{}", v["reason"]);
    // Its own moves after the last restart: the started-again bot plays.
    let last_restart = restarts.last().unwrap()["ply"].as_u64().unwrap();
    assert!(v["moves"].as_array().unwrap().iter().any(|m| m["seat"] == 0
        && m["ply"].as_u64().unwrap() >= last_restart
        && m["forced"].is_null()));
}

/// `agon-host` sets its own parent-death signal (its spawn runs nothing between fork and exec)
/// and checks that the engine it was started by is still its parent: run by hand, or by a
/// process that is not the engine it names, it exits before it reads anything.
#[test]
fn agon_host_runs_only_under_the_engine_that_started_it() {
    let host = artifacts().join("agon-host");
    for (args, says) in [
        (&[][..], "not for direct use"),
        (&["1"][..], "the engine exited"),
    ] {
        let out = std::process::Command::new(&host)
            .args(args)
            .output()
            .expect("agon-host runs");
        assert_eq!(out.status.code(), Some(3), "{args:?}");
        assert_has(&String::from_utf8_lossy(&out.stderr), says);
    }
}
