//! The table `agon bench` prints, and each suite's figures set against its target.

use super::figure::Figure;
use agon_play::console::outln;

/// Prints `figures` as a table, then the ratios and targets of every suite that ran.
pub fn print(figures: &[Figure], ladder_games: u64) {
    outln!("{:<44} {:>14} {:>14}", "measure", "median", "best");
    for f in figures {
        outln!(
            "{:<44} {:>11.1} {:<2} {:>11.1} {:<2}",
            f.name,
            f.median,
            f.unit,
            f.best,
            f.unit
        );
    }
    let get = |name: &str| median(figures, name);
    if let (Some(pipe), Some(process), Some(startup)) = (
        get("bare pipe"),
        get("process host,"),
        get("process host start-up"),
    ) {
        outln!(
            "process host / bare pipe round trip: {:.2}x (target <= 1.5x); start-up median \
         {:.2} ms (target <= 3 ms)",
            process / pipe,
            startup / 1000.0
        );
        if let Some(cpu_budget) = get("process host, noop bot, CPU-clock budget") {
            outln!(
                "process host under a CPU budget / bare pipe round trip: {:.2}x ({:+.0} ns against \
                 a wall-clock budget; a call answered at once reads no scheduler statistics)",
                cpu_budget / pipe,
                cpu_budget - process
            );
        }
    }
    for (who, name) in [
        ("portal", "portal idle CPU"),
        ("ladder, empty folder", "ladder idle CPU, empty folder"),
        ("ladder, one build", "ladder idle CPU, one build"),
    ] {
        if let Some(ms) = get(name) {
            outln!(
                "idle {who}: {ms:.0} ms of CPU per minute, {:.3}% of a core (target < 1%)",
                ms / 600.0
            );
        }
    }
    if let (Some(p99), Some(held)) = (
        get("portal standings under strangers, p99"),
        get("strangers' connections held"),
    ) {
        outln!(
            "portal standings with {held:.0} strangers' connections held: p99 {p99:.1} ms \
             (target < 1000 ms)"
        );
    }
    if let Some(mib) = get("portal RSS under the worst inputs") {
        outln!("portal under the worst inputs: {mib:.1} MiB resident (bound 96 MiB)");
    }
    if let Some(per_round) = get("Rectangles rules per round") {
        outln!(
            "Rectangles rules per round at n = 100, 4 x 16 robots, mid-game: {per_round:.1} us \
             (target <= 50 us)"
        );
    }
    if let (Some(p50), Some(p99)) = (get("deadline overshoot p50"), get("deadline overshoot p99")) {
        outln!(
            "kill past the deadline, both cores busy: p50 {:.2} ms, p99 {:.2} ms (target p99 < \
         20 ms)",
            p50 / 1000.0,
            p99 / 1000.0
        );
    }
    let hosts = in_process_hosts(figures);
    if !hosts.is_empty() {
        outln!();
    }
    for line in hosts {
        outln!("{line}");
    }
    if let Some(games) = get("Breakthrough") {
        outln!("random playouts: {games:.0} games/s on one core (target >= 600000)");
    }
    if let (Some(one), Some(two), Some(append)) = (
        get("tournament, concurrency 1"),
        get("tournament, concurrency 2"),
        get("journal append"),
    ) {
        outln!(
            "tournament throughput: {one:.1} games/s at concurrency 1, {two:.1} at 2: {:.2}x \
         (target >= 1.8x); journal append with fsync {append:.0} us per game",
            two / one
        );
    }
    if let (Some(median), Some(worst), Some(first), Some(swapped)) = (
        get("ladder swap -> first game ("),
        get("ladder swap -> first game, worst"),
        get("engine RSS after 1 swap"),
        get("engine RSS after 200 swaps"),
    ) {
        outln!(
            "ladder swap latency: median {median:.0} ms, worst {worst:.0} ms (target <= 1000 ms); \
         engine RSS after 200 swaps {:+.1}% of after the first (target within 10%)",
            (swapped / first - 1.0) * 100.0
        );
    }
    if let (Some(rss_early), Some(rss_late), Some(fds_early), Some(fds_late)) = (
        get("engine RSS after 1000 games"),
        get("engine RSS at the end"),
        get("open fds after 1000 games"),
        get("open fds at the end"),
    ) {
        outln!(
            "ladder over {} games: RSS {rss_early:.1} -> {rss_late:.1} MiB, open fds \
         {fds_early:.0} -> {fds_late:.0}",
            ladder_games
        );
    }
}

/// The median of the first figure whose name starts with `name`.
fn median(figures: &[Figure], name: &str) -> Option<f64> {
    figures
        .iter()
        .find(|f| f.name.starts_with(name))
        .map(|f| f.median)
}

/// The in-process hosts, each against its anchor of the same run, with the cost of the clock
/// reads that time their calls.
fn in_process_hosts(figures: &[Figure]) -> Vec<String> {
    let get = |name: &str| median(figures, name);
    let mut lines = Vec::new();
    if let (Some(plain), Some(inline)) = (get("plain function call"), get("inline host")) {
        lines.push(format!(
            "inline host with a CPU-clock budget: {inline:.0} ns per call against a plain call \
             of {plain:.1} ns: {:.1}x (target <= 100 ns and <= 15x)",
            inline / plain
        ));
    }
    if let (Some(bare), Some(thread)) = (get("bare crossbeam"), get("thread host")) {
        lines.push(format!(
            "thread host round trip: {thread:.0} ns against a bare crossbeam round trip of \
             {bare:.0} ns: {:.2}x (target <= 1.5x)",
            thread / bare
        ));
    }
    if let (Some(monotonic), Some(cpu)) = (get("monotonic clock"), get("CPU clock")) {
        lines.push(format!(
            "one clock read: monotonic {monotonic:.0} ns (vDSO), a thread's CPU clock {cpu:.0} ns \
             (a system call; the inline and thread hosts read it at both ends of every call)"
        ));
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::super::figure::single;
    use super::*;

    #[test]
    fn each_in_process_host_is_printed_against_its_anchor_of_the_same_run() {
        let figures = [
            single("plain function call (baseline)", 10.0, "ns"),
            single("bare crossbeam round trip (baseline)", 600.0, "ns"),
            single("monotonic clock, one read (vDSO)", 25.0, "ns"),
            single("CPU clock of this thread, one read", 640.0, "ns"),
            single("inline host, noop bot, CPU-clock budget", 1300.0, "ns"),
            single("thread host, noop bot, CPU-clock budget", 1800.0, "ns"),
            single(
                "thread host, noop bot, calls watched for crash evidence",
                9e9,
                "ns",
            ),
        ];
        assert_eq!(
            in_process_hosts(&figures),
            [
                "inline host with a CPU-clock budget: 1300 ns per call against a plain call of \
                 10.0 ns: 130.0x (target <= 100 ns and <= 15x)",
                "thread host round trip: 1800 ns against a bare crossbeam round trip of 600 ns: \
                 3.00x (target <= 1.5x)",
                "one clock read: monotonic 25 ns (vDSO), a thread's CPU clock 640 ns (a system \
                 call; the inline and thread hosts read it at both ends of every call)",
            ]
        );
        // A suite without the hosts prints none of it.
        assert!(in_process_hosts(&figures[..1]).is_empty());
    }
}
