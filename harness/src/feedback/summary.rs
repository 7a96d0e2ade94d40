//! What `agon match` prints of a match: its summary for people (the settings, every seat's
//! build, the final board, the result, each fault explained, stderr and metrics), or the
//! record as JSON.

use super::{faults, seat_stderr};
use agon_engine::sandbox::cgroup;
use agon_engine::MatchRecord;
use agon_play::console::{name, out, outln};
use anyhow::Context;
use std::fmt::Write as _;
use std::path::Path;

/// How a match's result is printed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shown {
    /// The record, as JSON.
    Json,
    /// The human summary; `whole_stderr`: every seat's whole stderr after it.
    Summary { whole_stderr: bool },
}

/// Writes the record to `path` if given, and prints it as `shown`.
pub fn publish(record: &MatchRecord, path: Option<&Path>, shown: Shown) -> anyhow::Result<()> {
    if let Some(path) = path {
        record
            .write(path)
            .with_context(|| format!("cannot write the record to {}", path.display()))?;
    }
    match shown {
        Shown::Json => outln!("{}", agon_play::console::json_text(&record.to_json())),
        Shown::Summary { whole_stderr } => {
            out!("{}", summary(record, whole_stderr));
            if let Some(path) = path {
                outln!("record: {}", path.display());
            }
        }
    }
    Ok(())
}

/// The human-readable report of a match: each fault explained, then the end of each faulty
/// seat's stderr, or every seat's whole stderr (`whole_stderr`) after the metrics.
pub fn summary(record: &MatchRecord, whole_stderr: bool) -> String {
    let mut out = String::new();
    write_settings(&mut out, record);
    write_seats(&mut out, record);
    out.push('\n');
    out.push_str(&record.final_board);
    out.push('\n');
    write_result(&mut out, record);
    out.push_str(&faults::explained(record));
    write_incidents(&mut out, record);
    if !whole_stderr {
        out.push_str(&seat_stderr::faulty_tails(record));
    }
    write_metrics(&mut out, record);
    if whole_stderr {
        out.push_str(&seat_stderr::every_seat(record));
    }
    out
}

/// The game, its parameters, seeds, host, budget and fault policy.
fn write_settings(out: &mut String, record: &MatchRecord) {
    // Multi-line values (a whole map or puzzle) are summarised.
    let params: Vec<String> = record
        .params
        .iter()
        .map(|(k, v)| match v.lines().count() {
            0 | 1 => format!("{k}={v}"),
            n => format!("{k}=({n} lines)"),
        })
        .collect();
    let _ = writeln!(
        out,
        "{} ({}), seed {}, {} host, {} per move ({}), on fault: {}",
        record.game,
        params.join(" "),
        record.seed,
        record.host,
        record
            .budgets
            .move_ms
            .map_or("no limit".to_string(), |ms| format!("{ms} ms")),
        record.budgets.clock,
        record.fault_policy
    );
    if let Some(secret) = &record.seed_secret {
        let _ = writeln!(
            out,
            "seed secret {secret} (the same game's seeds again: --seed {} --seed-secret {secret})",
            record.seed
        );
    }
}

/// Each seat's bot, its parameters and the build it came from.
fn write_seats(out: &mut String, record: &MatchRecord) {
    for s in &record.seats {
        let params: Vec<String> = s
            .bot_params
            .iter()
            .map(|(k, v)| format!("{}={}", name(k), name(v)))
            .collect();
        let _ = writeln!(
            out,
            "seat {}: {}{} [{} {}, {}, sha256 {}]",
            s.seat,
            name(&s.bot),
            if params.is_empty() {
                String::new()
            } else {
                format!(" ({})", params.join(" "))
            },
            name(&s.plugin),
            name(&s.plugin_version),
            name(&s.file),
            &s.sha256[..12.min(s.sha256.len())]
        );
    }
}

fn write_result(out: &mut String, record: &MatchRecord) {
    let result = match (record.outcome.winner, record.outcome.ranks.is_empty()) {
        (_, false) => {
            let ranks: Vec<String> = record.outcome.ranks.iter().map(|r| r.to_string()).collect();
            format!("ranks by seat {}", ranks.join(","))
        }
        (Some(w), true) => format!("seat {w} ({}) wins", name(&record.seats[w].bot)),
        (None, true) => "draw".to_string(),
    };
    let scores: Vec<String> = record
        .outcome
        .scores
        .iter()
        .map(|s| s.to_string())
        .collect();
    let _ = writeln!(
        out,
        "result: {result} [{}] after {} move{}: {}",
        scores.join("-"),
        record.moves.len(),
        if record.moves.len() == 1 { "" } else { "s" },
        name(&record.outcome.reason)
    );
}

/// Seats started again, and what the sandboxes lacked: each missing mechanism once, with the
/// seats it concerns (the hosts of one machine all lack the same). A missing cgroup is only
/// named: the run's one warning says why, what that costs and how to give hosts one.
fn write_incidents(out: &mut String, record: &MatchRecord) {
    for r in &record.restarts {
        let _ = writeln!(
            out,
            "restart: seat {} started again before ply {} ({})",
            r.seat,
            r.ply,
            name(&r.reason)
        );
    }
    for (missing, seats) in missing_by_mechanism(record) {
        let missing = match cgroup::is_missing_note(missing) {
            true => {
                "no cgroup (the warning on stderr says why; `agon doctor` what that costs and \
                     how to give hosts one)"
            }
            false => missing,
        };
        let _ = writeln!(
            out,
            "sandbox incomplete for {}: {missing}",
            seat_list(&seats)
        );
    }
}

/// Each item of the seats' `sandbox.missing`, in the order first met, with the seats it lists.
fn missing_by_mechanism(record: &MatchRecord) -> Vec<(&str, Vec<usize>)> {
    let mut grouped: Vec<(&str, Vec<usize>)> = Vec::new();
    for s in &record.seats {
        for missing in s.sandbox.iter().flat_map(|r| &r.missing) {
            match grouped.iter_mut().find(|(item, _)| item == missing) {
                Some((_, seats)) => seats.push(s.seat),
                None => grouped.push((missing, vec![s.seat])),
            }
        }
    }
    grouped
}

/// `seat 0`, `seats 0 and 1`, `seats 0, 1 and 2`.
fn seat_list(seats: &[usize]) -> String {
    let numbers: Vec<String> = seats.iter().map(usize::to_string).collect();
    match numbers.split_last() {
        Some((last, [])) => format!("seat {last}"),
        Some((last, rest)) => format!("seats {} and {last}", rest.join(", ")),
        None => "no seat".into(),
    }
}

/// Times, nodes and captures per seat.
fn write_metrics(out: &mut String, record: &MatchRecord) {
    let _ = writeln!(
        out,
        "\nseat  bot              moves  ms/move  cpu ms/move  max ms  nodes      nodes/move  captures"
    );
    for m in &record.metrics {
        let _ = writeln!(
            out,
            "{:<5} {:<16} {:>5}  {:>7.3}  {:>11}  {:>6.1}  {:>9}  {:>10}  {:>8}",
            m.seat,
            name(&record.seats[m.seat].bot),
            m.moves,
            m.time_per_move_ms,
            m.cpu_per_move_ms
                .map_or("-".to_string(), |c| format!("{c:.3}")),
            m.max_time_ms,
            m.nodes.map_or("-".to_string(), |n| n.to_string()),
            m.nodes_per_move
                .map_or("-".to_string(), |n| format!("{n:.0}")),
            m.captures
        );
    }
}
