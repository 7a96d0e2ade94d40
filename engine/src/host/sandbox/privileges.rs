//! Who the bot runs as. An engine started as root must not lend root to team code: before the
//! plugin is opened the host switches to an unprivileged user (a dedicated `agon-bot` user when
//! the machine has one, else `nobody`), and in every case ends with no capability in any set
//! (bounding, ambient, inheritable, permitted, effective).

use super::ConfineError;
use std::ffi::CString;

/// The user the host switches to when it starts as root and none is configured.
pub const DEDICATED_USER: &str = "agon-bot";

/// `nobody`, where the machine has no dedicated user for bots.
const NOBODY: (u32, u32) = (65534, 65534);

/// A user and group id.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Identity {
    pub uid: u32,
    pub gid: u32,
}

/// A sandbox user that names nobody the bots may run as.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum UserError {
    #[error("sandbox user `{0}`: expected NAME, UID or UID:GID")]
    Malformed(String),
    #[error("sandbox user `{0}`: no such user")]
    Unknown(String),
    #[error("`{0}` is root")]
    Root(String),
}

/// The identity `user` names: `NAME`, `UID` or `UID:GID`; by default the dedicated user if it
/// exists, else nobody.
pub fn resolve(user: Option<&str>) -> Result<Identity, UserError> {
    let Some(user) = user else {
        return Ok(lookup(DEDICATED_USER).unwrap_or(Identity {
            uid: NOBODY.0,
            gid: NOBODY.1,
        }));
    };
    let numeric = |s: &str| s.parse::<u32>().ok();
    match user.split_once(':') {
        Some((uid, gid)) => match (numeric(uid), numeric(gid)) {
            (Some(uid), Some(gid)) => Ok(Identity { uid, gid }),
            _ => Err(UserError::Malformed(user.to_string())),
        },
        None => match numeric(user) {
            Some(uid) => Ok(Identity { uid, gid: uid }),
            None => lookup(user).ok_or_else(|| UserError::Unknown(user.to_string())),
        },
    }
}

fn lookup(name: &str) -> Option<Identity> {
    let name = CString::new(name).ok()?;
    // SAFETY: getpwnam returns a pointer into static storage or null; the host is still
    // single-threaded when it asks, and both fields are copied out at once.
    unsafe {
        let entry = libc::getpwnam(name.as_ptr());
        (!entry.is_null()).then(|| Identity {
            uid: (*entry).pw_uid,
            gid: (*entry).pw_gid,
        })
    }
}

fn check(result: libc::c_int, what: &'static str) -> Result<(), ConfineError> {
    if result == 0 {
        Ok(())
    } else {
        Err(ConfineError::last_os(what))
    }
}

/// Empties the bounding set (only possible while CAP_SETPCAP is held) so that no later
/// execution or namespace can give a capability back.
pub fn drop_bounding_set() -> Result<(), ConfineError> {
    for capability in 0..64 {
        // SAFETY: prctl with integer arguments only.
        let result = unsafe { libc::prctl(libc::PR_CAPBSET_DROP, capability, 0, 0, 0) };
        if result != 0 {
            let error = std::io::Error::last_os_error();
            // Past the last capability this kernel knows.
            if error.raw_os_error() == Some(libc::EINVAL) {
                return Ok(());
            }
            return Err(ConfineError::call(format!(
                "dropping capability {capability}"
            ))(error));
        }
    }
    Ok(())
}

/// Switches every id (real, effective, saved, file-system) and the supplementary groups of the
/// root host to `to`. The kernel clears the permitted and effective capabilities with the uid.
pub fn become_user(to: Identity) -> Result<(), ConfineError> {
    // SAFETY: plain system calls with integer arguments; glibc applies them to every thread.
    unsafe {
        check(libc::setgroups(0, std::ptr::null()), "setgroups")?;
        check(libc::setresgid(to.gid, to.gid, to.gid), "setresgid")?;
        check(libc::setresuid(to.uid, to.uid, to.uid), "setresuid")?;
    }
    Ok(())
}

/// Empties every capability set of the calling process (what a new user namespace granted
/// inside it included).
pub fn clear_capabilities() -> Result<(), ConfineError> {
    use rustix::thread::{set_capabilities, CapabilitySet, CapabilitySets};
    drop_bounding_set()?;
    rustix::thread::clear_ambient_capability_set().map_err(ConfineError::call("ambient set"))?;
    set_capabilities(
        None,
        CapabilitySets {
            effective: CapabilitySet::empty(),
            permitted: CapabilitySet::empty(),
            inheritable: CapabilitySet::empty(),
        },
    )
    .map_err(ConfineError::call("capset"))
}

/// What the kernel says the process holds, from `/proc/self/status`: the real and effective
/// uid, and the names of the capability sets that are not empty.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Held {
    pub uid: u32,
    pub euid: u32,
    pub capability_sets: Vec<String>,
}

/// `status` is `/proc/self/status`, opened before the host left the machine's root (which has
/// the only /proc it sees); the kernel writes the file anew at every read from its start.
pub fn held(status: &std::fs::File) -> Result<Held, ConfineError> {
    use std::os::unix::fs::FileExt;
    let mut text = vec![0u8; 16 << 10];
    let len = status
        .read_at(&mut text, 0)
        .map_err(ConfineError::call("cannot read /proc/self/status"))?;
    parse_status(&String::from_utf8_lossy(&text[..len]))
}

fn parse_status(status: &str) -> Result<Held, ConfineError> {
    let field = |name: &'static str| {
        status
            .lines()
            .find_map(|line| line.strip_prefix(name)?.strip_prefix(':'))
            .map(str::trim)
            .ok_or(ConfineError::StatusLacks(name))
    };
    let uids: Vec<u32> = field("Uid")?
        .split_whitespace()
        .filter_map(|u| u.parse().ok())
        .collect();
    let (&uid, &euid) = uids
        .first()
        .zip(uids.get(1))
        .ok_or(ConfineError::StatusUnreadable("Uid line"))?;
    let mut capability_sets = Vec::new();
    for set in ["CapInh", "CapPrm", "CapEff", "CapBnd", "CapAmb"] {
        let value = u64::from_str_radix(field(set)?, 16)
            .map_err(|_| ConfineError::StatusUnreadable(set))?;
        if value != 0 {
            capability_sets.push(format!("{set}={value:x}"));
        }
    }
    Ok(Held {
        uid,
        euid,
        capability_sets,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn users_are_named_by_name_or_number() {
        assert_eq!(
            resolve(Some("1234:99")).unwrap(),
            Identity { uid: 1234, gid: 99 }
        );
        assert_eq!(
            resolve(Some("4321")).unwrap(),
            Identity {
                uid: 4321,
                gid: 4321
            }
        );
        assert_eq!(resolve(Some("root")).unwrap(), Identity { uid: 0, gid: 0 });
        let refused = resolve(Some("no-such-user-agon")).unwrap_err();
        assert_eq!(refused, UserError::Unknown("no-such-user-agon".into()));
        assert!(refused.to_string().contains("no such user"), "{refused}");
        let malformed = resolve(Some("1:x")).unwrap_err();
        assert!(malformed.to_string().contains("UID:GID"), "{malformed}");
        let default = resolve(None).unwrap();
        assert!(default.uid != 0, "{default:?}");
    }

    #[test]
    fn held_capabilities_are_read_from_the_status_file() {
        let status = "Name:\tx\nUid:\t65534\t65534\t65534\t65534\nCapInh:\t0000000000000000\n\
                      CapPrm:\t0000000000000000\nCapEff:\t0000000000000000\n\
                      CapBnd:\t000001ffffffffff\nCapAmb:\t0000000000000000\n";
        let held = parse_status(status).unwrap();
        assert_eq!(held.uid, 65534);
        assert_eq!(held.capability_sets, vec!["CapBnd=1ffffffffff".to_string()]);
        // One uid where the real and the effective are wanted; then no capability lines.
        assert!(matches!(
            parse_status("Uid:\t1\n"),
            Err(ConfineError::StatusUnreadable("Uid line"))
        ));
        let no_capabilities = parse_status("Uid:\t1\t1\n").unwrap_err();
        assert!(matches!(
            no_capabilities,
            ConfineError::StatusLacks("CapInh")
        ));
        assert_eq!(
            no_capabilities.to_string(),
            "/proc/self/status has no CapInh"
        );
        let garbled = parse_status("Uid:\t1\t1\nCapInh:\tzz\n").unwrap_err();
        assert_eq!(garbled.to_string(), "/proc/self/status: unreadable CapInh");
    }
}
