//! `agon lightsout table | conjecture`: exact results by rank over GF(2), never enumeration.

use crate::cli::{LightsoutCommand, LightsoutConjectureArgs, LightsoutTableArgs};
use agon_games::lightsout::nullity;
use agon_play::console::{out, outln};
use anyhow::{anyhow, bail};

pub fn run(command: LightsoutCommand) -> anyhow::Result<()> {
    match command {
        LightsoutCommand::Table(args) => table(args),
        LightsoutCommand::Conjecture(args) => conjecture(args),
    }
}

/// `A..B` (inclusive) or `A`.
fn range(flag: &str, text: &str) -> anyhow::Result<std::ops::RangeInclusive<usize>> {
    let bad = || anyhow!("--{flag} `{text}`: expected A..B or A, with 1 <= A <= B <= 4096");
    let (a, b) = match text.split_once("..") {
        Some((a, b)) => (
            a.trim().parse().map_err(|_| bad())?,
            b.trim().parse().map_err(|_| bad())?,
        ),
        None => {
            let n = text.trim().parse().map_err(|_| bad())?;
            (n, n)
        }
    };
    if a == 0 || a > b || b > 4096 {
        return Err(bad());
    }
    Ok(a..=b)
}

fn table(args: LightsoutTableArgs) -> anyhow::Result<()> {
    let rows = range("rows", &args.rows)?;
    let cols = range("cols", &args.cols)?;
    let nullities: Vec<Vec<usize>> = rows
        .clone()
        .map(|r| cols.clone().map(|c| nullity(r, c)).collect())
        .collect();
    if args.json {
        let fractions: Vec<Vec<f64>> = nullities
            .iter()
            .map(|row| row.iter().map(|&k| 0.5f64.powi(k as i32)).collect())
            .collect();
        let out = serde_json::json!({
            "rows": rows.collect::<Vec<_>>(),
            "cols": cols.collect::<Vec<_>>(),
            "nullities": nullities,
            "fractions": fractions,
        });
        outln!(
            "{}",
            agon_play::console::json_text(&serde_json::to_string(&out)?)
        );
        return Ok(());
    }
    outln!("Fraction of solvable boards (rows down, columns across): 1 = every board, 1/2^k = one in 2^k");
    out!("{:>5}", "");
    for c in cols.clone() {
        out!(" {c:>7}");
    }
    outln!();
    for (r, row) in rows.zip(&nullities) {
        out!("{r:>5}");
        for &k in row {
            let cell = if k == 0 {
                "1".to_string()
            } else {
                format!("1/{}", 1u64 << k.min(62))
            };
            out!(" {cell:>7}");
        }
        outln!();
    }
    Ok(())
}

/// The seed paper's conjecture: a 1 x n board is always solvable when n mod 3 is 0 or 1, and
/// exactly half of the boards are when n mod 3 is 2 (nullity 0, resp. 1).
fn conjecture(args: LightsoutConjectureArgs) -> anyhow::Result<()> {
    if args.max_n == 0 {
        bail!("--max-n must be at least 1");
    }
    for n in 1..=args.max_n {
        let expected = usize::from(n % 3 == 2);
        let found = nullity(1, n);
        if found != expected {
            outln!(
                "counterexample: 1 x {n} has nullity {found} (a fraction 1/{} of boards solvable), the conjecture says {}",
                1u64 << found.min(62),
                if expected == 0 { "all" } else { "half" }
            );
            agon_play::exit_guard::exit(1);
        }
    }
    outln!(
        "the conjecture holds for every n <= {}: 1 x n boards are all solvable when n mod 3 is 0 or 1, and exactly half are when n mod 3 is 2",
        args.max_n
    );
    Ok(())
}
