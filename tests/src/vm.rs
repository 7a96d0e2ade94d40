//! A throwaway virtual machine for tests that need a kernel this machine does not offer (a
//! cgroup v2 with every controller, say): a Debian kernel under QEMU, an initramfs of
//! busybox and the kernel's virtio and 9p modules built at test time, this machine's `/`
//! shared read-only over virtio-9p and chrooted into, and one folder shared read-write for the
//! results. Only prebuilt binaries run inside: the cargo home is read-only there.
//!
//! TCG, not KVM: nested KVM on the machines the tests run on hangs at boot, and a boot under
//! TCG takes about 2 s.

use crate::which;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The Debian packages that provide what [`VmTools::find`] looks for.
pub const PACKAGES: &str = "qemu-system-x86 linux-image-amd64 busybox-static";

/// The modules that give the guest the 9p file systems (with their dependencies, from
/// `modules.dep`); any of them may be built into the kernel instead.
const MODULES: [&str; 3] = ["virtio_pci", "9pnet_virtio", "9p"];

/// What a VM is made of, found on this machine.
pub struct VmTools {
    qemu: PathBuf,
    kernel: PathBuf,
    /// `/lib/modules/<version of kernel>`.
    modules: PathBuf,
    busybox: PathBuf,
}

impl VmTools {
    /// The tools, or what is missing (to say so and skip).
    pub fn find() -> Result<VmTools, String> {
        let qemu = which("qemu-system-x86_64").ok_or("no qemu-system-x86_64")?;
        let (kernel, modules) = debian_kernel().ok_or(
            "no /boot/vmlinuz-VERSION with its /lib/modules/VERSION/modules.dep (readable)",
        )?;
        let busybox = ["/bin/busybox", "/usr/bin/busybox"]
            .iter()
            .map(PathBuf::from)
            .find(|p| is_static_executable(p))
            .ok_or("no statically linked busybox")?;
        Ok(VmTools {
            qemu,
            kernel,
            modules,
            busybox,
        })
    }
}

/// The newest kernel in /boot that has its modules installed.
fn debian_kernel() -> Option<(PathBuf, PathBuf)> {
    let mut found: Vec<(PathBuf, PathBuf)> = std::fs::read_dir("/boot")
        .ok()?
        .filter_map(|e| {
            let name = e.ok()?.file_name().into_string().ok()?;
            let version = name.strip_prefix("vmlinuz-")?.to_string();
            let modules = Path::new("/lib/modules").join(&version);
            let kernel = Path::new("/boot").join(&name);
            (std::fs::File::open(&kernel).is_ok() && modules.join("modules.dep").is_file())
                .then_some((kernel, modules))
        })
        .collect();
    found.sort();
    found.pop()
}

/// An ELF file without a program interpreter (`PT_INTERP`): it runs before any library is
/// reachable.
fn is_static_executable(path: &Path) -> bool {
    let Ok(bytes) = std::fs::read(path) else {
        return false;
    };
    let word = |at: usize, len: usize| -> Option<u64> {
        let slice = bytes.get(at..at + len)?;
        Some(
            slice
                .iter()
                .rev()
                .fold(0u64, |acc, &b| (acc << 8) | u64::from(b)),
        )
    };
    // ELF64, little-endian: e_phoff at 32, e_phentsize at 54, e_phnum at 56; p_type first.
    if bytes.get(..6) != Some(b"\x7fELF\x02\x01".as_slice()) {
        return false;
    }
    let (Some(phoff), Some(size), Some(count)) = (word(32, 8), word(54, 2), word(56, 2)) else {
        return false;
    };
    (0..count).all(|i| word((phoff + i * size) as usize, 4).is_some_and(|t| t != 3))
}

/// The module files to load for [`MODULES`], dependencies first, as (name in the initramfs,
/// contents). Compressed modules are unpacked with `xz` or `zstd`.
fn modules(dir: &Path) -> Result<Vec<(String, Vec<u8>)>, String> {
    let dep = std::fs::read_to_string(dir.join("modules.dep")).map_err(|e| e.to_string())?;
    let builtin = std::fs::read_to_string(dir.join("modules.builtin")).unwrap_or_default();
    let stem = |path: &str| {
        let file = path.rsplit('/').next().unwrap_or(path);
        file.split(".ko").next().unwrap_or(file).replace('-', "_")
    };
    let mut order: Vec<String> = Vec::new();
    for wanted in MODULES {
        if builtin.lines().any(|line| stem(line) == wanted) {
            continue;
        }
        let (module, deps) = dep
            .lines()
            .filter_map(|line| line.split_once(':'))
            .find(|(module, _)| stem(module) == wanted)
            .ok_or(format!(
                "module {wanted} is neither in modules.dep nor built in"
            ))?;
        // modules.dep lists a module's dependencies so that loading them last first works.
        for path in deps.split_whitespace().rev().chain([module]) {
            if !order.iter().any(|p| p == path) {
                order.push(path.to_string());
            }
        }
    }
    order
        .iter()
        .map(|path| Ok((format!("{}.ko", stem(path)), unpack(&dir.join(path))?)))
        .collect()
}

fn unpack(path: &Path) -> Result<Vec<u8>, String> {
    let name = path.display().to_string();
    let tool = if name.ends_with(".xz") {
        "xz"
    } else if name.ends_with(".zst") {
        "zstd"
    } else {
        return std::fs::read(path).map_err(|e| format!("{name}: {e}"));
    };
    let out = Command::new(tool)
        .arg("-dc")
        .arg(path)
        .output()
        .map_err(|e| format!("{tool} (to unpack {name}): {e}"))?;
    out.status
        .success()
        .then_some(out.stdout)
        .ok_or(format!("{tool} could not unpack {name}"))
}

/// An initramfs in the "new ASCII" cpio format the kernel unpacks (Documentation/
/// driver-api/early-userspace/buffer-format.rst).
#[derive(Default)]
struct Cpio {
    bytes: Vec<u8>,
    next_inode: u32,
}

impl Cpio {
    fn entry(&mut self, name: &str, mode: u32, rdev: (u32, u32), data: &[u8]) {
        self.next_inode += 1;
        let fields = [
            self.next_inode,
            mode,
            0,
            0,
            1,
            0,
            data.len() as u32,
            0,
            0,
            rdev.0,
            rdev.1,
            name.len() as u32 + 1,
            0,
        ];
        self.bytes.extend_from_slice(b"070701");
        for field in fields {
            self.bytes
                .extend_from_slice(format!("{field:08x}").as_bytes());
        }
        self.bytes.extend_from_slice(name.as_bytes());
        self.bytes.push(0);
        self.pad();
        self.bytes.extend_from_slice(data);
        self.pad();
    }

    fn dir(&mut self, name: &str) {
        self.entry(name, 0o040755, (0, 0), &[]);
    }

    fn file(&mut self, name: &str, mode: u32, data: &[u8]) {
        self.entry(name, 0o100000 | mode, (0, 0), data);
    }

    fn pad(&mut self) {
        while !self.bytes.len().is_multiple_of(4) {
            self.bytes.push(0);
        }
    }

    fn finish(mut self) -> Vec<u8> {
        self.entry("TRAILER!!!", 0, (0, 0), &[]);
        self.bytes
    }
}

/// The folders of this machine under `/tmp` that the guest must still see under its fresh
/// `/tmp`: the build's target folder (the test executables and plugins run from there) and the
/// workspace, when a checkout or its build lives in `/tmp` (as `.ci/run`'s copy does).
fn kept_in_tmp() -> Vec<String> {
    let target = crate::artifacts()
        .parent()
        .expect("target/<profile>")
        .to_path_buf();
    let mut kept = Vec::new();
    for dir in [target, crate::workspace_root()] {
        let dir = dir.canonicalize().unwrap_or(dir);
        if let Ok(inside) = dir.strip_prefix("/tmp") {
            let inside = inside.display().to_string();
            if !inside.is_empty() && !kept.contains(&inside) {
                kept.push(inside);
            }
        }
    }
    kept
}

/// The guest's init: loads the modules, mounts this machine's `/` at /host with fresh proc,
/// sys, cgroup2, dev and a tmpfs /tmp over it (through which the folders of
/// [`kept_in_tmp`] still show), the shared folder at /tmp/share, makes /host
/// the root (`switch_root`, not `chroot`: the kernel refuses a user namespace to a chrooted
/// process, and the process host makes one), runs `command` there (its output to
/// share/inner.log, its exit status to share/status) and powers off, with the machine's own
/// busybox (Debian's busybox-static, the same binary).
fn init_script(modules: &[String], command: &str, busybox: &Path) -> String {
    let p9 = "trans=virtio,version=9p2000.L,msize=262144";
    let keep: String = kept_in_tmp()
        .iter()
        .map(|dir| {
            format!("mkdir -p /host/tmp/{dir} && mount --bind /kept-tmp/{dir} /host/tmp/{dir}\n")
        })
        .collect();
    format!(
        r#"#!/bin/busybox sh
/bin/busybox --install -s /bin
mount -t proc proc /proc
for m in {modules}; do insmod /lib/modules/$m || echo "vm: insmod $m failed"; done
mount -t 9p -o {p9},ro host /host || poweroff -f
mount -t proc proc /host/proc
mount -t sysfs sys /host/sys
mount -t cgroup2 cgroup2 /host/sys/fs/cgroup
mount -t devtmpfs dev /host/dev
mkdir /kept-tmp
mount --bind /host/tmp /kept-tmp
mount -t tmpfs tmp /host/tmp
{keep}mkdir /host/tmp/share
mount -t 9p -o {p9} share /host/tmp/share || poweroff -f
echo "vm: running"
exec switch_root /host {busybox} sh -c '( {command} ) > /tmp/share/inner.log 2>&1; \
echo $? > /tmp/share/status; sync; {busybox} umount /tmp/share; {busybox} poweroff -f'
"#,
        modules = modules.join(" "),
        busybox = busybox.display(),
    )
}

fn initramfs(tools: &VmTools, command: &str) -> Result<Vec<u8>, String> {
    let modules = modules(&tools.modules)?;
    let names: Vec<String> = modules.iter().map(|(n, _)| n.clone()).collect();
    let busybox = std::fs::read(&tools.busybox).map_err(|e| e.to_string())?;
    let mut cpio = Cpio::default();
    for dir in ["bin", "dev", "proc", "sys", "host", "lib", "lib/modules"] {
        cpio.dir(dir);
    }
    // The console init's output goes to; the kernel opens it before it starts init.
    cpio.entry("dev/console", 0o020600, (5, 1), &[]);
    cpio.file("bin/busybox", 0o755, &busybox);
    cpio.file(
        "init",
        0o755,
        init_script(&names, command, &tools.busybox).as_bytes(),
    );
    for (name, data) in &modules {
        cpio.file(&format!("lib/modules/{name}"), 0o644, data);
    }
    Ok(cpio.finish())
}

/// QEMU, killed and reaped however the test ends.
struct Qemu(Child);

impl Drop for Qemu {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// What a VM run left in its shared folder.
pub struct VmRun {
    /// The exit status of the command, `None` if it never wrote one.
    pub status: Option<i32>,
    /// The command's output.
    pub log: String,
    /// The guest's serial console.
    pub console: String,
    pub wall: Duration,
}

/// Boots a VM that runs `command` (a `/bin/sh -c` script, without single quotes) chrooted into
/// this machine's `/`, with `share` (an empty folder) at /tmp/share, and waits for it to power
/// off, at most `timeout`. `work` holds the initramfs and the console log.
pub fn run(
    tools: &VmTools,
    work: &Path,
    share: &Path,
    command: &str,
    timeout: Duration,
) -> Result<VmRun, String> {
    assert!(
        !command.contains('\''),
        "the command is quoted in single quotes"
    );
    let initrd = work.join("initramfs.cpio");
    std::fs::write(&initrd, initramfs(tools, command)?)
        .map_err(|e| format!("writing {}: {e}", initrd.display()))?;
    let console = work.join("console.log");
    let qemu_stderr = work.join("qemu.stderr");
    let stderr_file = std::fs::File::create(&qemu_stderr).map_err(|e| e.to_string())?;
    let started = Instant::now();
    let mut qemu = Qemu(
        Command::new(&tools.qemu)
            .args(["-accel", "tcg", "-m", "1024", "-smp", "2", "-nodefaults"])
            .args(["-display", "none", "-no-reboot", "-serial"])
            .arg(format!("file:{}", console.display()))
            .arg("-kernel")
            .arg(&tools.kernel)
            .arg("-initrd")
            .arg(&initrd)
            .args(["-append", "console=ttyS0 cgroup_no_v1=all panic=-1 quiet"])
            // `multidevs=remap`: `/` spans several file systems, whose inode numbers would
            // otherwise collide in the guest.
            .args([
                "-virtfs",
                "local,path=/,mount_tag=host,security_model=none,readonly=on,multidevs=remap",
            ])
            .arg("-virtfs")
            .arg(format!(
                "local,path={},mount_tag=share,security_model=none",
                share.display()
            ))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(stderr_file)
            .spawn()
            .map_err(|e| format!("starting {}: {e}", tools.qemu.display()))?,
    );
    let ended = loop {
        if let Some(status) = qemu.0.try_wait().map_err(|e| e.to_string())? {
            break Some(status);
        }
        if started.elapsed() > timeout {
            break None;
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    let wall = started.elapsed();
    let console = std::fs::read_to_string(&console).unwrap_or_default();
    let Some(status) = ended else {
        return Err(format!(
            "the VM did not power off within {timeout:?}; its console:\n{console}"
        ));
    };
    if !status.success() {
        let stderr = std::fs::read_to_string(&qemu_stderr).unwrap_or_default();
        return Err(format!(
            "qemu failed ({status}): {stderr}\nconsole:\n{console}"
        ));
    }
    Ok(VmRun {
        status: std::fs::read_to_string(share.join("status"))
            .ok()
            .and_then(|s| s.trim().parse().ok()),
        log: std::fs::read_to_string(share.join("inner.log")).unwrap_or_default(),
        console,
        wall,
    })
}
