//! The per-host cgroup v2 (`agon_engine::sandbox::cgroup`) on a kernel that offers one: a
//! Debian kernel booted under QEMU with `cgroup_no_v1=all`, so that every controller is on the
//! v2 hierarchy (the machines the tests run on may bind them to v1). Inside, this same test
//! binary runs [`checks_inside_a_cgroup_v2_vm`], which plays real matches through the process
//! host with misbehaving bots and writes one `ok CHECK: evidence` line per check to the folder
//! the VM shares; the test outside asserts that every check passed.
//!
//! And on any machine: a run without cgroups says once what that costs.

use agon_tests::assert_has;
use agon_tests::vm;
use serde_json::Value;
use std::collections::HashMap;
use std::os::unix::fs::chown;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Set in the VM for the inner checks.
const IN_VM: &str = "AGON_IN_VM";
/// Where the inner checks write their results (the shared folder).
const VM_OUT: &str = "AGON_VM_OUT";
const INNER: &str = "checks_inside_a_cgroup_v2_vm";
const CHECKS: [&str; 8] = [
    "pids",
    "memory",
    "cpu",
    "kill",
    "exiting",
    "cleanup",
    "unprivileged",
    "strict",
];

#[test]
fn cgroups_hold_on_a_cgroup_v2_kernel() {
    let tools = match vm::VmTools::find() {
        Ok(tools) => tools,
        Err(missing) => {
            eprintln!(
                "SKIPPED cgroups_hold_on_a_cgroup_v2_kernel: {missing}; install the Debian \
                 packages {} (apt-get install {0}) to prove the cgroup limits in a VM",
                vm::PACKAGES
            );
            return;
        }
    };
    // Everything the VM runs is built here: it cannot build (the cargo home is read-only).
    agon_tests::artifacts();
    let work = agon_tests::scratch("cgroup-vm");
    let share = work.join("share");
    std::fs::create_dir(&share).unwrap();
    let exe = std::env::current_exe().unwrap();
    let command = format!(
        "cd /tmp && exec env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/tmp RUST_BACKTRACE=1 \
         {IN_VM}=1 {VM_OUT}=/tmp/share {} --ignored --exact {INNER} --nocapture \
         --test-threads 1",
        exe.display()
    );
    let run = vm::run(&tools, &work, &share, &command, Duration::from_secs(300))
        .unwrap_or_else(|e| panic!("{e}"));
    eprintln!("the VM ran for {:.1} s", run.wall.as_secs_f64());
    let results = std::fs::read_to_string(share.join("results")).unwrap_or_default();
    assert_eq!(
        run.status,
        Some(0),
        "the checks in the VM failed:\n{}\n--- results:\n{results}\n--- console:\n{}",
        run.log,
        run.console
    );
    for check in CHECKS {
        assert!(
            results
                .lines()
                .any(|l| l.starts_with(&format!("ok {check}:"))),
            "no result for `{check}`:\n{results}\n{}",
            run.log
        );
    }
    eprintln!("{results}");
}

/// A run of several games without a cgroup for its hosts (here: `AGON_CGROUP` names none) warns
/// once, saying which limits then do not hold, and every record still lists the cgroup.
#[test]
fn a_run_without_cgroups_says_once_what_that_costs() {
    let dir = agon_tests::scratch("cgroup-warning");
    let cfg = agon_tests::tournament_config(
        &dir,
        "game = \"breakthrough\"\nseed = 5\ngames_per_pairing = 2\nconcurrency = 2",
        &[
            ("a", agon_tests::spec("misbehave", "illegal")),
            ("b", agon_tests::spec("breakthrough-random", "random")),
        ],
    );
    let stderr = agon_tests::run(
        agon_tests::tournament_run(&cfg, &dir.join("run"))
            .env("AGON_CGROUP", dir.join("no-such-cgroup")),
    )
    .expect_success()
    .stderr;
    let warnings = stderr.matches("no cgroup v2 for the bots").count();
    assert_eq!(warnings, 1, "one warning for the run:\n{stderr}");
    assert!(
        stderr.contains("`agon doctor`"),
        "the warning points at agon doctor:\n{stderr}"
    );
    let records: Vec<_> = std::fs::read_dir(dir.join("run").join("records"))
        .unwrap()
        .map(|e| agon_tests::read(e.unwrap().path()))
        .collect();
    assert_eq!(records.len(), 2);
    for record in records {
        let record: Value = serde_json::from_str(&record).unwrap();
        // Listed as missing, or for a bot without threads as substituted.
        let sandbox = record["seats"][0]["sandbox"].to_string();
        assert_has(&sandbox, "\"cgroup: ");
    }
}

const ROOT: &str = "/sys/fs/cgroup";
const NOBODY: u32 = 65534;

/// The checks, in the VM only: a plain `cargo test` lists this test as ignored.
#[test]
#[ignore = "runs inside the VM that cgroups_hold_on_a_cgroup_v2_kernel boots"]
fn checks_inside_a_cgroup_v2_vm() {
    assert!(
        std::env::var_os(IN_VM).is_some(),
        "only cgroups_hold_on_a_cgroup_v2_kernel runs this, inside its VM"
    );
    let vm = Inner::set_up();
    vm.strict_runs_on_a_stock_debian_kernel();
    vm.pids_max_stops_a_thread_flood();
    vm.memory_max_binds_before_the_address_space();
    vm.cpu_max_caps_and_cgroup_kill_ends_a_threaded_bot();
    vm.a_cgroup_is_removed_once_its_last_process_has_exited();
    vm.unprivileged_delegation_works();
    vm.every_host_cgroup_is_removed();
}

/// The VM's side: where things are, and what the spy saw.
struct Inner {
    target: PathBuf,
    out: PathBuf,
    delegation: PathBuf,
    spy: Spy,
    /// The host cgroups the records named.
    named: Mutex<Vec<String>>,
}

/// A match's record and the engine's stderr.
struct Played {
    record: Value,
    stderr: String,
    wall: Duration,
}

impl Played {
    fn seat(&self, seat: usize) -> &Value {
        &self.record["seats"][seat]["sandbox"]
    }

    /// (cause, detail) of the first fault of `seat`.
    fn fault(&self, seat: u64) -> (String, String) {
        let faults = self.record["faults"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        let fault = faults
            .iter()
            .find(|f| f["seat"].as_u64() == Some(seat))
            .unwrap_or_else(|| panic!("no fault of seat {seat}: {}", self.record));
        (
            fault["cause"].as_str().unwrap_or("").to_string(),
            fault["detail"].as_str().unwrap_or("").to_string(),
        )
    }

    fn cgroup(&self, seat: usize) -> String {
        self.seat(seat)["cgroup"]
            .as_str()
            .unwrap_or_else(|| panic!("seat {seat} got no cgroup: {}", self.record))
            .to_string()
    }
}

/// Enables the controllers of a host's cgroup for `dir`'s children.
fn delegate(dir: &Path) {
    let _ = std::fs::create_dir(dir);
    std::fs::write(dir.join("cgroup.subtree_control"), "+pids +memory +cpu")
        .unwrap_or_else(|e| panic!("enabling controllers under {}: {e}", dir.display()));
}

impl Inner {
    fn set_up() -> Inner {
        let exe = std::env::current_exe().unwrap();
        // target/<profile>/deps/<test>; `agon_tests::artifacts` would run cargo.
        let target = exe.parent().and_then(Path::parent).unwrap().to_path_buf();
        delegate(Path::new(ROOT));
        let delegation = Path::new(ROOT).join("agon");
        delegate(&delegation);
        // For the host cgroups this process makes itself (set before the spy's thread starts).
        std::env::set_var("AGON_CGROUP", &delegation);
        let user = Path::new(ROOT).join("agon-user");
        Inner {
            target,
            out: PathBuf::from(std::env::var_os(VM_OUT).unwrap()),
            spy: Spy::start(vec![delegation.clone(), user]),
            delegation,
            named: Mutex::new(Vec::new()),
        }
    }

    fn bot(&self, package: &str, bot: &str) -> String {
        let file = self
            .target
            .join(format!("lib{}.so", package.replace('-', "_")));
        format!("{}:{bot}", file.display())
    }

    fn random(&self) -> String {
        self.bot("breakthrough-random", "random")
    }

    /// `agon match` between `bots` through the process host, hosts' cgroups under `cgroup`.
    fn play(&self, cgroup: &Path, bots: [&str; 2], move_ms: u64, extra: &[&str]) -> Played {
        let mut command = Command::new(self.target.join("agon"));
        let cache = "/tmp/agon-cache";
        self.play_with(&mut command, (cgroup, cache), bots, move_ms, extra)
    }

    fn play_with(
        &self,
        command: &mut Command,
        (cgroup, cache): (&Path, &str),
        bots: [&str; 2],
        move_ms: u64,
        extra: &[&str],
    ) -> Played {
        let mut extra: Vec<String> = extra.iter().map(|s| s.to_string()).collect();
        extra.extend(["--on-fault", "forfeit"].map(String::from));
        let args = agon_tests::process_match_args(bots, move_ms, &extra);
        let started = Instant::now();
        let agon_tests::Ran { stdout, stderr, .. } = agon_tests::run(
            command
                .args(&args)
                .env("AGON_CGROUP", cgroup)
                .env("AGON_CACHE_DIR", cache),
        )
        .expect_success();
        let record: Value =
            serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("no record ({e}): {stderr}"));
        let played = Played {
            record,
            stderr,
            wall: started.elapsed(),
        };
        let mut named = self.named.lock().unwrap();
        named.extend((0..2).filter_map(|s| played.seat(s)["cgroup"].as_str().map(String::from)));
        played
    }

    fn ok(&self, check: &str, evidence: String) {
        let line = format!("ok {check}: {evidence}\n");
        eprint!("{line}");
        let mut results = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(self.out.join("results"))
            .unwrap();
        std::io::Write::write_all(&mut results, line.as_bytes()).unwrap();
    }

    /// Debian 12's kernel (6.1: Landlock ABI 2, seccomp listeners) runs `--sandbox strict`,
    /// with what it lacks substituted and the sandbox v3 layers in force.
    fn strict_runs_on_a_stock_debian_kernel(&self) {
        let files = self.bot("misbehave", "probe?call=files");
        let patched = self.bot("misbehave", "sigsys?call=patch");
        let strict = ["--sandbox", "strict"];
        let played = self.play(&self.delegation, [&files, &patched], 2000, &strict);
        let sandbox = played.seat(0);
        assert_eq!(sandbox["missing"], serde_json::json!([]), "{sandbox}");
        assert_eq!(sandbox["refusals_to_engine"], true, "{sandbox}");
        let (cause, detail) = played.fault(0);
        assert_eq!(cause, "illegal", "no machine files: {detail}");
        let release = std::fs::read_to_string("/proc/sys/kernel/osrelease").unwrap_or_default();
        self.ok(
            "strict",
            format!(
                "--sandbox strict ran on Linux {}: landlock {}, substituted {}",
                release.trim(),
                sandbox["landlock"],
                sandbox["substituted"]
            ),
        );
    }

    /// (a) With user namespaces switched off (`user.max_user_namespaces` 0), the host has no
    /// RLIMIT_NPROC of its own: `pids.max` alone stops the flood, which escapes without it.
    fn pids_max_stops_a_thread_flood(&self) {
        let sysctl = "/proc/sys/user/max_user_namespaces";
        let before = agon_tests::read(sysctl);
        std::fs::write(sysctl, "0").unwrap();
        let flood = self.bot("misbehave", "thread-flood?allowed=1");
        let threads = ["--threads", "1"];
        let capped = self.play(&self.delegation, [&flood, &self.random()], 1000, &threads);
        // 5,000 threads take seconds of CPU under TCG.
        let uncapped = self.play(
            Path::new("/none"),
            [&flood, &self.random()],
            60_000,
            &threads,
        );
        std::fs::write(sysctl, before.trim()).unwrap();
        assert!(
            capped.seat(0)["thread_limit"].is_null(),
            "{}",
            capped.record
        );
        let (cause, detail) = capped.fault(0);
        assert_eq!(cause, "illegal", "{detail}\n{}", capped.stderr);
        let limits = self.spy.limits(&capped.cgroup(0));
        assert_eq!(
            limits.get("pids.max").map(String::as_str),
            Some("3"),
            "{limits:?}"
        );
        let (_, escaped) = uncapped.fault(0);
        assert!(
            escaped.contains("escaped: started"),
            "the control: {escaped}"
        );
        self.ok(
            "pids",
            format!(
                "pids.max 3 (the bot, its supervisor, 1 thread) held a flood of raw threads to 1 thread; without the cgroup: {escaped}"
            ),
        );
    }

    /// (b) A bot touching memory without bound is killed by the cgroup's OOM killer at
    /// `memory.max`, under an address-space limit of twice that, and recorded as `oom`.
    fn memory_max_binds_before_the_address_space(&self) {
        let oom = self.bot("misbehave", "oom");
        let played = self.play(
            &self.delegation,
            [&oom, &self.random()],
            5000,
            &["--memory-mib", "192"],
        );
        let (cause, detail) = played.fault(0);
        assert_eq!(cause, "oom", "{detail}\n{}", played.stderr);
        assert_has(&detail, "memory.max");
        let limits = self.spy.limits(&played.cgroup(0));
        assert_eq!(
            limits.get("memory.max").map(String::as_str),
            Some("201326592")
        );
        assert_eq!(limits.get("memory.swap.max").map(String::as_str), Some("0"));
        self.ok("memory", format!("memory.max 192 MiB, swap 0: {detail}"));
    }

    /// (c) A bot allowed 1 thread, spinning on it and on its own, uses 1 CPU (`cpu.max`
    /// 100000/100000) of the VM's 2; (d) at the deadline it ends with all its threads, and its
    /// cgroup with it.
    fn cpu_max_caps_and_cgroup_kill_ends_a_threaded_bot(&self) {
        let spin = self.bot("misbehave", "spin-threads?threads=1");
        let args = ["--threads", "1", "--clock", "wall"];
        let played = self.play(&self.delegation, [&spin, &self.random()], 3000, &args);
        let cgroup = played.cgroup(0);
        let (cause, detail) = played.fault(0);
        assert_eq!(cause, "timeout", "{detail}\n{}", played.stderr);
        let limits = self.spy.limits(&cgroup);
        assert_eq!(
            limits.get("cpu.max").map(String::as_str),
            Some("100000 100000")
        );
        let (cpus, seen, throttled) = self.spy.cpu_rate(&cgroup);
        assert!(seen > Duration::from_secs(1), "watched for {seen:?} only");
        // The VM has 2 CPUs: uncapped, the two spinning tasks would take both.
        assert!(cpus > 0.6 && cpus < 1.3, "{cpus} CPUs");
        // Throttled, unless the VM itself was starved below the cap (its host loaded: then
        // the tasks never had a whole CPU's worth to be throttled at, and a run like that has
        // been seen). A bot that reached the cap unthrottled fails either way.
        assert!(
            throttled > 0 || cpus < 0.95,
            "never throttled, yet {cpus:.2} CPUs"
        );
        self.ok(
            "cpu",
            format!(
                "cpu.max 100000 100000; 2 spinning tasks used at most {cpus:.2} CPUs in any \
                 0.5 s of {:.1} s (nr_throttled {throttled}; the VM has 2 CPUs)",
                seen.as_secs_f64()
            ),
        );
        for warning in ["cgroup.kill failed", "cannot remove the host's cgroup"] {
            assert!(!played.stderr.contains(warning), "{}", played.stderr);
        }
        assert!(played.wall < Duration::from_secs(60), "{:?}", played.wall);
        assert!(!Path::new(&cgroup).exists(), "{cgroup} is left");
        let left = tasks_under(&self.delegation);
        assert!(left.is_empty(), "tasks left in host cgroups: {left:?}");
        self.ok(
            "kill",
            format!(
                "timed out at the deadline; the match took {:.1} s; no task left under {}",
                played.wall.as_secs_f64(),
                self.delegation.display()
            ),
        );
    }

    /// (g) A host's cgroup can hold a process that is not the engine's child and outlives the
    /// host by a moment: the bot's own process, pid 1 of its PID namespace, may still be
    /// exiting when the engine has reaped its supervisor (more so on a loaded machine). Here a
    /// shell placed in a host cgroup leaves a `sleep` behind and exits; the cgroup, dropped
    /// while the `sleep` is still there, is removed once it has ended, not left behind.
    fn a_cgroup_is_removed_once_its_last_process_has_exited(&self) {
        use agon_engine::{HostCgroup, SandboxConfig};
        use std::io::Write;
        let mut shell = Command::new("/bin/sh")
            .args(["-c", "read go; sleep 0.5 & exit 0"])
            .stdin(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let config = SandboxConfig {
            threads: 1,
            ..SandboxConfig::default()
        };
        let cgroup = HostCgroup::place(shell.id(), &config).unwrap();
        let dir = cgroup.path().to_path_buf();
        shell.stdin.take().unwrap().write_all(b"go\n").unwrap();
        assert!(shell.wait().unwrap().success());
        let left = agon_tests::read(dir.join("cgroup.procs"));
        assert!(
            !left.trim().is_empty(),
            "the sleep is not in {}",
            dir.display()
        );
        let dropped = Instant::now();
        drop(cgroup);
        assert!(!dir.exists(), "{} is left", dir.display());
        self.ok(
            "exiting",
            format!(
                "a host cgroup dropped while its last process (pid {}) was still running was \
                 removed {} ms later, when it had ended",
                left.trim(),
                dropped.elapsed().as_millis()
            ),
        );
    }

    /// (f) An unprivileged engine in a leaf of a cgroup delegated to its user (the cgroup, its
    /// `cgroup.procs`, `cgroup.subtree_control` and `cgroup.threads` chowned, cgroup-v2.rst
    /// "Delegation") gives its hosts cgroups of their own.
    fn unprivileged_delegation_works(&self) {
        let user = Path::new(ROOT).join("agon-user");
        delegate(&user);
        let engine = user.join("engine");
        std::fs::create_dir(&engine).unwrap();
        for file in [
            "",
            "cgroup.procs",
            "cgroup.subtree_control",
            "cgroup.threads",
        ] {
            chown(user.join(file), Some(NOBODY), Some(NOBODY)).unwrap();
        }
        for file in ["", "cgroup.procs"] {
            chown(engine.join(file), Some(NOBODY), Some(NOBODY)).unwrap();
        }
        let cache = "/tmp/agon-cache-nobody";
        std::fs::create_dir(cache).unwrap();
        chown(cache, Some(NOBODY), Some(NOBODY)).unwrap();
        let mut command = Command::new("/bin/sh");
        command.arg("-c").arg(format!(
            "echo $$ > {}/cgroup.procs && exec setpriv --reuid {NOBODY} --regid {NOBODY} \
             --clear-groups -- \"$@\"",
            engine.display()
        ));
        command.arg("sh").arg(self.target.join("agon"));
        let illegal = self.bot("misbehave", "illegal");
        let bots = [illegal.as_str(), &self.random()];
        let played = self.play_with(&mut command, (&user, cache), bots, 1000, &[]);
        for seat in 0..2 {
            let sandbox = played.seat(seat);
            assert!(played.cgroup(seat).starts_with(&user.display().to_string()));
            // Everything holds for a normal user too: namespaces, own root, the listener.
            assert_eq!(sandbox["missing"], serde_json::json!([]), "{sandbox}");
            assert_eq!(sandbox["refusals_to_engine"], true, "{sandbox}");
            assert_eq!(
                sandbox["uid"].as_u64(),
                Some(u64::from(NOBODY)),
                "{sandbox}"
            );
        }
        self.ok(
            "unprivileged",
            format!(
                "an engine as uid {NOBODY} placed its hosts in {}",
                played.cgroup(0)
            ),
        );
    }

    /// (e) Every host cgroup a record named existed while its host ran and is gone now.
    fn every_host_cgroup_is_removed(&self) {
        let named = self.named.lock().unwrap().clone();
        assert!(named.len() >= 8, "{named:?}");
        let seen = self.spy.seen();
        for cgroup in &named {
            assert!(
                seen.contains(cgroup),
                "the spy never saw {cgroup}: {seen:?}"
            );
        }
        let mut left = Vec::new();
        for parent in [self.delegation.clone(), Path::new(ROOT).join("agon-user")] {
            for entry in std::fs::read_dir(&parent).unwrap() {
                let name = entry.unwrap().file_name().to_string_lossy().into_owned();
                if name.starts_with("agon-host") || name.starts_with("agon-probe") {
                    left.push(parent.join(name));
                }
            }
        }
        assert!(left.is_empty(), "left behind: {left:?}");
        self.ok(
            "cleanup",
            format!(
                "{} host cgroups seen while their hosts ran, none left",
                named.len()
            ),
        );
    }
}

/// The processes whose cgroup lies under `dir`.
fn tasks_under(dir: &Path) -> Vec<String> {
    let relative = dir.strip_prefix(ROOT).unwrap().display().to_string();
    let prefix = format!("0::/{relative}/");
    std::fs::read_dir("/proc")
        .unwrap()
        .filter_map(|e| {
            let name = e.ok()?.file_name().into_string().ok()?;
            name.parse::<u32>().ok()?;
            let cgroup = std::fs::read_to_string(format!("/proc/{name}/cgroup")).ok()?;
            cgroup
                .lines()
                .any(|l| l.starts_with(&prefix))
                .then(|| format!("{name}: {}", cgroup.trim()))
        })
        .collect()
}

/// When, cpu.stat `usage_usec`, `nr_throttled`.
type CpuSample = (Instant, u64, u64);

/// What a host's cgroup held while it lived.
#[derive(Default, Clone, Debug)]
struct Seen {
    limits: HashMap<String, String>,
    cpu: Vec<CpuSample>,
}

/// Watches the host cgroups under some delegations every 10 ms, from a thread of its own.
struct Spy {
    seen: Arc<Mutex<HashMap<String, Seen>>>,
    stop: Arc<AtomicBool>,
}

impl Spy {
    fn start(parents: Vec<PathBuf>) -> Spy {
        let seen = Arc::new(Mutex::new(HashMap::<String, Seen>::new()));
        let stop = Arc::new(AtomicBool::new(false));
        let (seen2, stop2) = (seen.clone(), stop.clone());
        std::thread::spawn(move || {
            while !stop2.load(Ordering::Relaxed) {
                for dir in parents.iter().flat_map(|p| host_cgroups(p)) {
                    let sample = sample(&dir);
                    let mut seen = seen2.lock().unwrap();
                    let entry = seen.entry(dir.display().to_string()).or_default();
                    if let Some((limits, cpu)) = sample {
                        entry.limits.extend(limits);
                        entry.cpu.push(cpu);
                    }
                }
                std::thread::sleep(Duration::from_millis(10));
            }
        });
        Spy { seen, stop }
    }

    fn seen(&self) -> Vec<String> {
        self.seen.lock().unwrap().keys().cloned().collect()
    }

    fn limits(&self, cgroup: &str) -> HashMap<String, String> {
        let seen = self.seen.lock().unwrap();
        seen.get(cgroup)
            .map(|s| s.limits.clone())
            .unwrap_or_default()
    }

    /// The most CPUs used over any half second the cgroup was watched, how long it was
    /// watched, and how often it was throttled.
    fn cpu_rate(&self, cgroup: &str) -> (f64, Duration, u64) {
        let seen = self.seen.lock().unwrap();
        let cpu = seen.get(cgroup).map(|s| s.cpu.clone()).unwrap_or_default();
        let (Some(first), Some(last)) = (cpu.first(), cpu.last()) else {
            return (0.0, Duration::ZERO, 0);
        };
        let mut peak: f64 = 0.0;
        for (i, a) in cpu.iter().enumerate() {
            let window = cpu[i..]
                .iter()
                .find(|b| b.0 - a.0 >= Duration::from_millis(500));
            if let Some(b) = window {
                peak = peak.max((b.1 - a.1) as f64 / 1e6 / (b.0 - a.0).as_secs_f64());
            }
        }
        (peak, last.0 - first.0, last.2)
    }
}

impl Drop for Spy {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

fn host_cgroups(parent: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(parent) else {
        return Vec::new();
    };
    entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with("agon-host"))
        })
        .collect()
}

/// A host cgroup's limits and CPU use now; `None` once it is gone.
fn sample(dir: &Path) -> Option<(Vec<(String, String)>, CpuSample)> {
    let read = |file: &str| std::fs::read_to_string(dir.join(file)).ok();
    let stat = read("cpu.stat")?;
    let field = |name: &str| {
        stat.lines()
            .find_map(|l| l.strip_prefix(name)?.trim().parse().ok())
            .unwrap_or(0)
    };
    let limits = ["pids.max", "memory.max", "memory.swap.max", "cpu.max"]
        .iter()
        .filter_map(|f| Some((f.to_string(), read(f)?.trim().to_string())))
        .collect();
    Some((
        limits,
        (Instant::now(), field("usage_usec "), field("nr_throttled ")),
    ))
}
