//! A private one-node Slurm cluster for the cluster test: munged with a fresh key (as the
//! `munge` user), slurmctld and slurmd as root, their configuration, state, spool, pid and log
//! files all in one folder, on ports of their own. Every daemon is a child of the test, stopped
//! by pid when the [`Cluster`] is dropped (the test failing included), and killed by the kernel
//! should the test process die first (`PR_SET_PDEATHSIG`).

use crate::which;
use std::ffi::OsStr;
use std::os::unix::fs::PermissionsExt;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The Debian packages that provide what the cluster needs.
pub const PACKAGES: &str = "slurm-wlm munge";

const TOOLS: [&str; 10] = [
    "munged",
    "mungekey",
    "slurmctld",
    "slurmd",
    "sbatch",
    "squeue",
    "scancel",
    "scontrol",
    "sinfo",
    "munge",
];

/// A running one-node cluster.
pub struct Cluster {
    dir: PathBuf,
    conf: PathBuf,
    /// slurmd, slurmctld and munged, stopped in that order.
    daemons: Vec<(&'static str, Child)>,
    /// From the daemons' start to the node's first `idle`.
    pub start_up: Duration,
}

/// Why a cluster cannot be started on this machine, if it cannot.
pub fn unavailable() -> Option<String> {
    // SAFETY: geteuid has no preconditions.
    if unsafe { libc::geteuid() } != 0 {
        return Some("not root: the test runs slurmctld and slurmd as root".into());
    }
    TOOLS
        .iter()
        .find(|tool| tool_path(tool).is_none())
        .map(|tool| format!("`{tool}` is not installed (Debian packages: {PACKAGES})"))
}

fn tool_path(name: &str) -> Option<PathBuf> {
    which(name).or_else(|| {
        let sbin = Path::new("/usr/sbin").join(name);
        sbin.is_file().then_some(sbin)
    })
}

fn tool(name: &str) -> PathBuf {
    tool_path(name).unwrap_or_else(|| PathBuf::from(name))
}

/// The kernel kills the daemon if the test's thread that started it dies. Set after any change
/// of user, which clears it.
fn die_with_the_test(command: &mut Command) -> &mut Command {
    // SAFETY: prctl is async-signal-safe; nothing else runs between fork and exec.
    unsafe {
        command.pre_exec(|| {
            if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        })
    }
}

fn user_ids(name: &str) -> Result<(u32, u32), String> {
    let id = |flag: &str| -> Result<u32, String> {
        let out = Command::new("id")
            .args([flag, name])
            .output()
            .map_err(|e| format!("id: {e}"))?;
        String::from_utf8_lossy(&out.stdout)
            .trim()
            .parse()
            .map_err(|_| format!("no user `{name}`"))
    };
    Ok((id("-u")?, id("-g")?))
}

/// Two different ports nobody listens on now (both held while they are picked).
fn free_ports() -> Result<(u16, u16), String> {
    let bind = || std::net::TcpListener::bind("127.0.0.1:0").map_err(|e| e.to_string());
    let (a, b) = (bind()?, bind()?);
    let port = |l: &std::net::TcpListener| l.local_addr().map(|a| a.port());
    Ok((
        port(&a).map_err(|e| e.to_string())?,
        port(&b).map_err(|e| e.to_string())?,
    ))
}

fn run_quietly(command: &mut Command) -> Result<String, String> {
    let out = command.output().map_err(|e| format!("{command:?}: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "{command:?}: {}: {}",
            out.status,
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

impl Cluster {
    /// Starts munged, slurmctld and slurmd in `dir` (created) and waits for the node to be
    /// idle.
    pub fn start(dir: &Path) -> Result<Cluster, String> {
        let munge = dir.join("munge");
        for folder in [
            dir.to_path_buf(),
            munge.clone(),
            dir.join("state"),
            dir.join("spool"),
        ] {
            std::fs::create_dir_all(&folder).map_err(|e| format!("{}: {e}", folder.display()))?;
            // munged runs as `munge`: it must traverse to its socket's folder.
            std::fs::set_permissions(&folder, std::fs::Permissions::from_mode(0o755))
                .map_err(|e| format!("{}: {e}", folder.display()))?;
        }
        let mut cluster = Cluster {
            dir: dir.to_path_buf(),
            conf: dir.join("slurm.conf"),
            daemons: Vec::new(),
            start_up: Duration::ZERO,
        };
        let socket = cluster.start_munge(&munge)?;
        cluster.write_conf(&socket)?;
        let started = Instant::now();
        for daemon in ["slurmctld", "slurmd"] {
            let log = std::fs::File::create(dir.join(format!("{daemon}.out")))
                .map_err(|e| e.to_string())?;
            let child = die_with_the_test(
                Command::new(tool(daemon))
                    // In the environment too: the job steps slurmd starts inherit it, which is
                    // how the cluster's drop finds what is left of them.
                    .env("SLURM_CONF", &cluster.conf)
                    .arg("-D")
                    .arg("-f")
                    .arg(&cluster.conf)
                    .stdin(Stdio::null())
                    .stdout(log.try_clone().map_err(|e| e.to_string())?)
                    .stderr(log),
            )
            .spawn()
            .map_err(|e| format!("{daemon}: {e}"))?;
            cluster.daemons.insert(0, (daemon, child));
        }
        cluster.wait_for_idle()?;
        cluster.start_up = started.elapsed();
        Ok(cluster)
    }

    /// munged with a key of its own, as the `munge` user; its socket.
    fn start_munge(&mut self, munge: &Path) -> Result<PathBuf, String> {
        let (uid, gid) = user_ids("munge")?;
        let key = munge.join("munge.key");
        run_quietly(
            Command::new(tool("mungekey"))
                .arg("--create")
                .arg(format!("--keyfile={}", key.display()))
                .arg("--bits=1024"),
        )?;
        std::os::unix::fs::chown(&key, Some(uid), Some(gid)).map_err(|e| e.to_string())?;
        std::os::unix::fs::chown(munge, Some(uid), Some(gid)).map_err(|e| e.to_string())?;
        let socket = munge.join("munge.sock");
        let child = die_with_the_test(
            Command::new(tool("munged"))
                .arg("--foreground")
                .arg(format!("--key-file={}", key.display()))
                .arg(format!("--socket={}", socket.display()))
                .arg(format!("--pid-file={}", munge.join("munged.pid").display()))
                .arg(format!("--log-file={}", munge.join("munged.log").display()))
                .arg(format!(
                    "--seed-file={}",
                    munge.join("munged.seed").display()
                ))
                .uid(uid)
                .gid(gid)
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(Stdio::null()),
        )
        .spawn()
        .map_err(|e| format!("munged: {e}"))?;
        self.daemons.push(("munged", child));
        let deadline = Instant::now() + Duration::from_secs(20);
        while !socket.exists() {
            if Instant::now() > deadline {
                return Err(format!("munged made no socket: see {}", munge.display()));
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        Ok(socket)
    }

    fn write_conf(&self, socket: &Path) -> Result<(), String> {
        let host = run_quietly(Command::new("hostname").arg("-s"))?
            .trim()
            .to_string();
        let cpus = std::thread::available_parallelism().map_or(1, |n| n.get());
        // slurmd refuses a node that claims more memory than it finds: 90% of it fits.
        let memory_mb = std::fs::read_to_string("/proc/meminfo")
            .ok()
            .and_then(|m| {
                let line = m.lines().find(|l| l.starts_with("MemTotal:"))?.to_string();
                line.split_whitespace().nth(1)?.parse::<u64>().ok()
            })
            .map_or(1024, |kb| kb / 1024 * 9 / 10);
        let (controller, node) = free_ports()?;
        let d = self.dir.display();
        let conf = format!(
            "ClusterName=agontest\nSlurmctldHost={host}(127.0.0.1)\nSlurmUser=root\n\
             SlurmdUser=root\nSlurmctldPort={controller}\nSlurmdPort={node}\n\
             AuthType=auth/munge\nAuthInfo=socket={socket}\nCredType=cred/munge\n\
             MpiDefault=none\nSelectType=select/cons_tres\nSelectTypeParameters=CR_CPU\n\
             ProctrackType=proctrack/linuxproc\nTaskPlugin=task/none\n\
             JobAcctGatherType=jobacct_gather/none\nAccountingStorageType=accounting_storage/none\n\
             JobCompType=jobcomp/none\nReturnToService=2\nMailProg=/bin/true\n\
             SchedulerParameters=batch_sched_delay=0,sched_min_interval=0,sched_interval=1\n\
             StateSaveLocation={d}/state\nSlurmdSpoolDir={d}/spool\n\
             SlurmctldPidFile={d}/slurmctld.pid\nSlurmdPidFile={d}/slurmd.pid\n\
             SlurmctldLogFile={d}/slurmctld.log\nSlurmdLogFile={d}/slurmd.log\n\
             NodeName={host} NodeAddr=127.0.0.1 CPUs={cpus} RealMemory={memory_mb} State=UNKNOWN\n\
             PartitionName=agon Nodes={host} Default=YES MaxTime=INFINITE State=UP\n",
            socket = socket.display()
        );
        std::fs::write(&self.conf, conf).map_err(|e| format!("{}: {e}", self.conf.display()))
    }

    /// A Slurm command of this cluster.
    pub fn command(&self, name: &str) -> Command {
        let mut command = Command::new(tool(name));
        command.env("SLURM_CONF", &self.conf);
        command
    }

    fn wait_for_idle(&self) -> Result<(), String> {
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let state = self.command("sinfo").args(["-h", "-o", "%T"]).output();
            if state.is_ok_and(|s| String::from_utf8_lossy(&s.stdout).trim() == "idle") {
                return Ok(());
            }
            if Instant::now() > deadline {
                return Err(format!(
                    "the node never became idle: see {}/slurmctld.log and slurmd.log",
                    self.dir.display()
                ));
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// `sbatch --parsable ARGS` with the submitting environment plus `env`; the job id.
    pub fn submit<S: AsRef<OsStr>>(
        &self,
        args: &[S],
        env: &[(&str, &OsStr)],
    ) -> Result<String, String> {
        let mut command = self.command("sbatch");
        command.arg("--parsable").args(args);
        for (key, value) in env {
            command.env(key, value);
        }
        let out = run_quietly(&mut command)?;
        Ok(out.trim().split(';').next().unwrap_or_default().to_string())
    }

    /// Waits until no task of `job` is queued or running.
    pub fn wait(&self, job: &str, patience: Duration) -> Result<(), String> {
        let deadline = Instant::now() + patience;
        loop {
            let queued = run_quietly(
                self.command("squeue")
                    .args(["-h", "-r", "-j", job, "-o", "%i %T"]),
            )?;
            if queued.trim().is_empty() {
                return Ok(());
            }
            if Instant::now() > deadline {
                return Err(format!(
                    "job {job} still queued after {patience:?}:\n{queued}"
                ));
            }
            std::thread::sleep(Duration::from_millis(200));
        }
    }

    /// `scontrol ARGS` or `scancel ARGS` and the like, which must succeed.
    pub fn control<S: AsRef<OsStr>>(&self, name: &str, args: &[S]) -> Result<String, String> {
        run_quietly(self.command(name).args(args))
    }

    /// Processes of this cluster's jobs: their environment names its configuration.
    fn job_processes(&self) -> Vec<i32> {
        let marker = format!("SLURM_CONF={}", self.conf.display());
        let Ok(entries) = std::fs::read_dir("/proc") else {
            return Vec::new();
        };
        entries
            .flatten()
            .filter_map(|e| e.file_name().to_str()?.parse::<i32>().ok())
            .filter(|&pid| pid != std::process::id() as i32)
            .filter(|pid| {
                std::fs::read(format!("/proc/{pid}/environ"))
                    .is_ok_and(|env| env.split(|&b| b == 0).any(|var| var == marker.as_bytes()))
            })
            .collect()
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        // Jobs first, while the controller can still cancel them.
        let _ = self.control("scancel", &["--full", "--user=root"]);
        let deadline = Instant::now() + Duration::from_secs(10);
        while Instant::now() < deadline
            && self
                .command("squeue")
                .args(["-h", "-o", "%i"])
                .output()
                .is_ok_and(|o| o.status.success() && !o.stdout.is_empty())
        {
            std::thread::sleep(Duration::from_millis(100));
        }
        for (name, child) in &mut self.daemons {
            // SAFETY: a pid of our own child, not yet reaped.
            unsafe { libc::kill(child.id() as i32, libc::SIGTERM) };
            let deadline = Instant::now() + Duration::from_secs(10);
            while child.try_wait().ok().flatten().is_none() {
                if Instant::now() > deadline {
                    eprintln!("{name} ignored SIGTERM: killing it");
                    let _ = child.kill();
                    let _ = child.wait();
                    break;
                }
                std::thread::sleep(Duration::from_millis(20));
            }
        }
        // Job steps outlive slurmd (they ignore SIGTERM): what is left of them goes too.
        for pid in self.job_processes() {
            // SAFETY: kill has no memory-safety preconditions.
            unsafe { libc::kill(pid, libc::SIGKILL) };
        }
    }
}
