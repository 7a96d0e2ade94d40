//! `agon doctor`: what the process host's sandbox can and cannot enforce on this machine, each
//! mechanism with what its absence costs and how to get it, so that the one-line warning a
//! match prints can point here instead of explaining everything on every run.

use crate::cli::DoctorArgs;
use crate::error_text::error_text;
use agon_engine::ProcessHostConfig;
use agon_engine::{sandbox::cgroup, sandbox::landlock, SandboxConfig};
use anyhow::bail;
use serde::Serialize;

/// One mechanism of the sandbox, probed.
#[derive(Serialize)]
struct Check {
    name: &'static str,
    available: bool,
    /// What was found (the path, the version, or why it is missing).
    found: String,
    /// What the sandbox does without it, and how to get it (empty when available).
    without: &'static str,
}

/// `found`: what was found, or why the mechanism is missing.
fn check(name: &'static str, found: anyhow::Result<String>, without: &'static str) -> Check {
    match found {
        Ok(found) => Check {
            name,
            available: true,
            found,
            without: "",
        },
        Err(why) => Check {
            name,
            available: false,
            found: error_text(&why),
            without,
        },
    }
}

fn host_executable() -> anyhow::Result<String> {
    let config = ProcessHostConfig::locate(SandboxConfig::default())?;
    Ok(config.executable.display().to_string())
}

fn cgroup_delegation() -> anyhow::Result<String> {
    let path = cgroup::delegation()?;
    Ok(format!("{} (pids, memory, cpu)", path.display()))
}

fn landlock_abi() -> anyhow::Result<String> {
    match landlock::kernel_abi() {
        0 => bail!("the kernel offers no Landlock (Linux 5.13 or later with it enabled)"),
        abi => Ok(format!("ABI version {abi}")),
    }
}

fn seccomp_filters() -> anyhow::Result<String> {
    let status = match std::fs::read_to_string("/proc/self/status") {
        Ok(status) => status,
        Err(e) => bail!("cannot read /proc/self/status: {e}"),
    };
    if status
        .lines()
        .any(|l| l.starts_with("Seccomp_filters:") || l.starts_with("Seccomp:"))
    {
        Ok("seccomp filters".into())
    } else {
        bail!("the kernel reports no seccomp")
    }
}

fn read_number(path: &str) -> Option<i64> {
    std::fs::read_to_string(path).ok()?.trim().parse().ok()
}

fn user_namespaces() -> anyhow::Result<String> {
    if read_number("/proc/sys/user/max_user_namespaces") == Some(0) {
        bail!("user.max_user_namespaces is 0");
    }
    let root = rustix::process::geteuid().is_root();
    if !root && read_number("/proc/sys/kernel/unprivileged_userns_clone") == Some(0) {
        bail!("kernel.unprivileged_userns_clone is 0");
    }
    if !root && read_number("/proc/sys/kernel/apparmor_restrict_unprivileged_userns") == Some(1) {
        bail!("AppArmor restricts unprivileged user namespaces");
    }
    Ok(if root {
        "as root".into()
    } else {
        "unprivileged user namespaces allowed".into()
    })
}

fn checks() -> Vec<Check> {
    vec![
        check(
            "agon-host",
            host_executable(),
            "the process host cannot start: bots can only run on the thread or inline hosts, \
             which have no sandbox. Install agon with `cargo install --locked --path harness` \
             (both executables) or set AGON_HOST.",
        ),
        check(
            "seccomp",
            seccomp_filters(),
            "system calls outside the allow-list are not refused: a bot could open files, \
             sockets and processes.",
        ),
        check(
            "user namespaces",
            user_namespaces(),
            "a bot is not alone in its own namespaces (PID, network, mounts): it can see the \
             machine's processes and its network, and threads are not capped by RLIMIT_NPROC \
             in a namespace of its own.",
        ),
        check(
            "landlock",
            landlock_abi(),
            "file access rests on seccomp alone (no second layer restricting the paths a bot \
             may read).",
        ),
        check(
            "cgroup v2",
            cgroup_delegation(),
            "memory is limited only as address space (kernel memory such as page tables and \
             buffers is not counted), threads only by RLIMIT_NPROC, a bot's CPU time is not \
             capped (its threads may take CPUs from other bots), and a deadline kills the \
             host's process group rather than a cgroup. To get one, run agon in a leaf of a \
             cgroup v2 that delegates pids, memory and cpu (for example in a `systemd-run \
             --user --scope -p Delegate=yes` shell) and name it in $AGON_CGROUP.",
        ),
    ]
}

pub fn run(args: DoctorArgs) -> anyhow::Result<()> {
    let checks = checks();
    if args.json {
        println!("{}", serde_json::to_string_pretty(&checks)?);
        return Ok(());
    }
    let root = rustix::process::geteuid().is_root();
    println!(
        "agon runs as {}; bots on the process host run {}.",
        if root { "root" } else { "a normal user" },
        if root {
            "as the sandbox user (`agon-bot` where it exists, else nobody; --sandbox-user)"
        } else {
            "as this user, confined by the layers below"
        }
    );
    for check in &checks {
        let mark = if check.available {
            "ok     "
        } else {
            "missing"
        };
        println!("{mark} {:<16} {}", check.name, check.found);
        if !check.available {
            println!("        {:<16} without it: {}", "", check.without);
        }
    }
    let missing = checks.iter().filter(|c| !c.available).count();
    if missing == 0 {
        println!("The sandbox is complete on this machine (`--sandbox strict` will run).");
    } else {
        println!(
            "{missing} of {} missing: matches run with what is there and each record says \
             what was enforced; `--sandbox strict` refuses to run instead. \
             See docs/sandbox.md for every layer.",
            checks.len()
        );
    }
    Ok(())
}
