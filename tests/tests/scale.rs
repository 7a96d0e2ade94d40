//! The scale benchmark at 50,000 games in 50 shard folders, as the suite runs it: synthesised
//! shards merge into a report that counts every game once (the benchmark checks that itself),
//! and the figures are printed. Figures, not limits: `agon bench --suite scale` reports them.

use agon_tests::{agon_ok, assert_has_all};

#[test]
fn fifty_thousand_games_in_fifty_shards_merge_and_report() {
    let out = agon_ok(&[
        "bench",
        "--suite",
        "scale",
        "--scale-games",
        "50000",
        "--scale-shards",
        "50",
    ]);
    eprintln!("{out}");
    assert_has_all(
        &out,
        &[
            "scale: disk per game",
            "scale: merge, wall time",
            "scale: merge, peak memory",
            "scale: report, wall time",
        ],
    );
}
