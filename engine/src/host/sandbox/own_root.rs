//! A root file system of the host's own, entered in its mount namespace before any team code
//! runs: a small read-only tmpfs that holds the system's shared libraries (bound read-only from
//! the machine, which loading a plugin needs), the plugin's own copy, `/dev/null` and
//! `/dev/urandom`, and nothing else. Landlock decides what a bot may open, but not what it may
//! `stat` or `access`: without this a bot read the size, owner and times of `/etc/shadow`,
//! `/root`, other teams' plugins and the engine's files, and re-opened its own pipes through
//! `/proc/self/fd`. Here none of those paths exists; there is no `/proc` at all.
//!
//! The host must hold `CAP_SYS_ADMIN` over its mount namespace and still reach the plugin's
//! path: a host started as root enters this as root, one started as a normal user right after
//! its user namespace, which owns the mount namespace made with it. (A bind mount's source must
//! lie in the caller's mount namespace, so the descriptor the host opened the plugin with
//! before its namespaces cannot serve.)

use super::ConfineError;
use crate::OnPath;
use std::ffi::CString;
use std::os::fd::AsRawFd;
use std::path::{Path, PathBuf};

/// What the dynamic linker reads to load a plugin's dependencies (libc, libgcc_s). Kept in one
/// place with Landlock's rules, which grant reading the same paths.
pub const SYSTEM_LIBRARIES: &[&str] = &[
    "/lib",
    "/lib64",
    "/usr/lib",
    "/usr/lib64",
    "/usr/local/lib",
    "/etc/ld.so.cache",
];

/// Devices a bot may use: writing to nothing, reading random bytes.
pub const DEVICES: &[&str] = &["/dev/null", "/dev/urandom"];

/// Where the plugin's copy appears inside.
pub const PLUGIN_DIR: &str = "/plugin";

/// Folders the new root can be assembled on (any one that exists; it is covered only inside
/// the host's mount namespace).
const WORKBENCHES: &[&str] = &["/tmp", "/mnt", "/run", "/var/tmp"];

/// Makes a root of the host's own and enters it; returns where the plugin's copy at `plugin`
/// is found inside.
pub fn enter(plugin: &Path) -> Result<PathBuf, ConfineError> {
    let name = plugin
        .file_name()
        .ok_or_else(|| ConfineError::NotAFile(plugin.to_path_buf()))?;
    // Opened in this mount namespace, so that it can be bound even once the bench covers it.
    let file = std::fs::File::open(plugin).on_path(plugin)?;
    // Nothing mounted here may show in the namespace this one was copied from.
    mount(None, "/", None, libc::MS_REC | libc::MS_PRIVATE)?;
    let bench = WORKBENCHES
        .iter()
        .map(Path::new)
        .find(|dir| dir.is_dir() && !plugin.starts_with(dir))
        .ok_or(ConfineError::NoWorkbench)?;
    mount(
        Some("agon-root"),
        &bench.to_string_lossy(),
        Some("tmpfs"),
        libc::MS_NOSUID | libc::MS_NODEV,
    )?;
    for path in SYSTEM_LIBRARIES {
        bind_system_path(bench, path)?;
    }
    for device in DEVICES {
        if Path::new(device).exists() {
            let target = empty_file(bench, device)?;
            mount(Some(device), &target, None, libc::MS_BIND)?;
        }
    }
    let inside = Path::new(PLUGIN_DIR).join(name);
    let target = empty_file(bench, &inside.to_string_lossy())?;
    let source = format!("/proc/self/fd/{}", file.as_raw_fd());
    mount(Some(&source), &target, None, libc::MS_BIND)?;
    read_only(&target, file.as_raw_fd())?;
    pivot_into(bench)?;
    Ok(inside)
}

/// Binds `path` of the machine at the same place in the new root, read-only; a symbolic link
/// (`/lib` on a merged-/usr system) is made again as a link. Absent paths are left out.
fn bind_system_path(bench: &Path, path: &str) -> Result<(), ConfineError> {
    let Ok(meta) = std::fs::symlink_metadata(path) else {
        return Ok(());
    };
    let target = bench.join(path.trim_start_matches('/'));
    if meta.file_type().is_symlink() {
        let link = std::fs::read_link(path).on_path(Path::new(path))?;
        create_parent(&target)?;
        return Ok(std::os::unix::fs::symlink(link, &target).on_path(&target)?);
    }
    let target = if meta.is_dir() {
        std::fs::create_dir_all(&target).on_path(&target)?;
        target.to_string_lossy().into_owned()
    } else {
        empty_file(bench, path)?
    };
    mount(Some(path), &target, None, libc::MS_BIND | libc::MS_REC)?;
    let source = std::fs::File::open(path).on_path(Path::new(path))?;
    read_only(&target, source.as_raw_fd())
}

/// Remounts the bind at `target` read-only, keeping the flags of the mount its source `fd`
/// lies on: in a user namespace those are locked, and a remount that drops one is refused.
fn read_only(target: &str, fd: i32) -> Result<(), ConfineError> {
    // SAFETY: fstatvfs writes the zeroed local.
    let mut fs: libc::statvfs = unsafe { std::mem::zeroed() };
    if unsafe { libc::fstatvfs(fd, &mut fs) } != 0 {
        let error = std::io::Error::last_os_error();
        return Err(ConfineError::call(target)(error));
    }
    let kept = [
        (libc::ST_NOSUID, libc::MS_NOSUID),
        (libc::ST_NODEV, libc::MS_NODEV),
        (libc::ST_NOEXEC, libc::MS_NOEXEC),
        (libc::ST_NOATIME, libc::MS_NOATIME),
        (libc::ST_NODIRATIME, libc::MS_NODIRATIME),
        (libc::ST_RELATIME, libc::MS_RELATIME),
    ]
    .iter()
    .filter(|(st, _)| fs.f_flag & st != 0)
    .fold(0, |all, (_, ms)| all | ms);
    mount(
        None,
        target,
        None,
        libc::MS_REMOUNT | libc::MS_BIND | libc::MS_RDONLY | libc::MS_NOSUID | kept,
    )
}

/// Makes the tmpfs at `bench` the root and lets go of the old one, then makes it read-only.
fn pivot_into(bench: &Path) -> Result<(), ConfineError> {
    std::env::set_current_dir(bench).on_path(bench)?;
    let dot = c_path(".")?;
    // pivot_root(".", ".") stacks the old root on the new one at the same place; detaching it
    // then leaves only the new root (pivot_root(2), "NOTES").
    // SAFETY: pivot_root and umount2 read the two C strings.
    unsafe {
        if libc::syscall(libc::SYS_pivot_root, dot.as_ptr(), dot.as_ptr()) != 0 {
            return Err(ConfineError::last_os("pivot_root"));
        }
        if libc::umount2(dot.as_ptr(), libc::MNT_DETACH) != 0 {
            return Err(ConfineError::last_os("detaching the old root"));
        }
    }
    std::env::set_current_dir("/").on_path(Path::new("/"))?;
    mount(
        None,
        "/",
        None,
        libc::MS_REMOUNT | libc::MS_BIND | libc::MS_RDONLY | libc::MS_NOSUID | libc::MS_NODEV,
    )
}

/// An empty file at `path` under `bench`, to bind a file on; returns its path.
fn empty_file(bench: &Path, path: &str) -> Result<String, ConfineError> {
    let target = bench.join(path.trim_start_matches('/'));
    create_parent(&target)?;
    std::fs::File::create(&target).on_path(&target)?;
    Ok(target.to_string_lossy().into_owned())
}

fn create_parent(target: &Path) -> Result<(), ConfineError> {
    match target.parent() {
        Some(parent) => Ok(std::fs::create_dir_all(parent).on_path(parent)?),
        None => Ok(()),
    }
}

fn c_path(text: &str) -> Result<CString, ConfineError> {
    CString::new(text).map_err(|_| ConfineError::NulInPath(text.to_string()))
}

fn mount(
    source: Option<&str>,
    target: &str,
    fs_type: Option<&str>,
    flags: libc::c_ulong,
) -> Result<(), ConfineError> {
    let source_c = source.map(c_path).transpose()?;
    let target_c = c_path(target)?;
    let fs_type_c = fs_type.map(c_path).transpose()?;
    let ptr = |c: &Option<CString>| c.as_ref().map_or(std::ptr::null(), |c| c.as_ptr());
    // SAFETY: mount reads the C strings, each alive for the call or null.
    let mounted = unsafe {
        libc::mount(
            ptr(&source_c),
            target_c.as_ptr(),
            ptr(&fs_type_c),
            flags,
            std::ptr::null(),
        )
    };
    if mounted == 0 {
        Ok(())
    } else {
        let error = std::io::Error::last_os_error();
        let call = format!("mounting {} on {target}", source.unwrap_or("(remount)"));
        Err(ConfineError::call(call)(error))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_plugin_path_it_cannot_use_is_refused_before_anything_is_mounted() {
        let root = enter(Path::new("/")).unwrap_err();
        assert!(matches!(&root, ConfineError::NotAFile(path) if path == Path::new("/")));
        assert_eq!(root.to_string(), "/: not a file");
        let missing = enter(Path::new("/no/such/agon/plugin.so")).unwrap_err();
        assert!(
            matches!(&missing, ConfineError::Path(e) if e.kind() == std::io::ErrorKind::NotFound)
        );
        assert!(missing.to_string().starts_with("/no/such/agon/plugin.so: "));
        let nul = c_path("a\0b").unwrap_err();
        assert!(matches!(&nul, ConfineError::NulInPath(text) if text == "a\0b"));
    }
}
