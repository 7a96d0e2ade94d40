//! How many games a run plays at once: no more than the CPUs it may use. Each game's bot
//! computes on a CPU of its own while it thinks; more games than CPUs make them wait for one
//! another, which the CPU clock keeps out of the grades (`agon_engine`'s starvation backstop)
//! but which slows every game and stretches every call's wall time. The CPUs a process may use
//! are its affinity mask, bounded by its cgroup's CPU quota (`cpu.max`, or v1's CFS quota), as
//! the standard library counts them.

/// The CPUs this process may use; 1 where that cannot be told.
pub fn usable_cpus() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// The games to play at once when `requested` were asked for (`what` names the option, for
/// the warning): `requested`, lowered to the usable CPUs with one warning when it exceeds them,
/// unless the user chose to `oversubscribe`.
pub fn admitted(requested: usize, what: &str, oversubscribe: bool) -> usize {
    if oversubscribe {
        return requested;
    }
    admitted_on(requested, usable_cpus(), what)
}

fn admitted_on(requested: usize, cpus: usize, what: &str) -> usize {
    if requested <= cpus {
        return requested;
    }
    log::warn!(
        "{what} {requested}: this process may use {cpus} CPU{} (its affinity and cgroup quota), \
         so it plays {cpus} game{} at once: more would make the bots wait for one another's CPU \
         (--oversubscribe keeps {requested})",
        if cpus == 1 { "" } else { "s" },
        if cpus == 1 { "" } else { "s" },
    );
    cpus
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_run_plays_no_more_games_at_once_than_it_has_cpus() {
        assert_eq!(admitted_on(8, 2, "--concurrency"), 2);
        assert_eq!(admitted_on(2, 2, "--concurrency"), 2);
        assert_eq!(admitted_on(1, 4, "--concurrency"), 1);
    }

    #[test]
    fn the_usable_cpus_follow_the_affinity_mask() {
        // SAFETY: the set is a local the calls only read and write.
        let allowed = unsafe {
            let mut set: libc::cpu_set_t = std::mem::zeroed();
            assert_eq!(
                libc::sched_getaffinity(0, std::mem::size_of_val(&set), &mut set),
                0
            );
            libc::CPU_COUNT(&set) as usize
        };
        assert!(usable_cpus() <= allowed.max(1));
        assert!(usable_cpus() >= 1);
    }
}
