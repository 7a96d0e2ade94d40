//! The table `agon bench` prints, and each suite's figures set against its target.

use super::figure::Figure;
use crate::console::outln;

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
    let get = |name: &str| {
        figures
            .iter()
            .find(|f| f.name.starts_with(name))
            .map(|f| f.median)
    };
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
    if let (Some(plain), Some(inline), Some(bare), Some(thread), Some(games)) = (
        get("plain"),
        get("inline"),
        get("bare crossbeam"),
        get("thread"),
        get("Breakthrough"),
    ) {
        outln!();
        outln!(
            "inline overhead over a plain call: {:.0} ns per move (target <= 1000 ns)",
            inline - plain
        );
        outln!(
            "thread host / bare round trip: {:.2}x (target <= 3x)",
            thread / bare
        );
        outln!("random playouts: {games:.0} games/s on one core (target >= 100000)");
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
