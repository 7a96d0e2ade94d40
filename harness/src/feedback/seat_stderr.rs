//! A seat's captured stderr as the summary shows it: the last lines of each faulty seat's (a
//! panic's message and location, the bot's last words), or with `--show-stderr` every seat's
//! whole. Each line is quoted behind `  | ` so that a bot's text never passes for the
//! summary's own.

use agon_engine::HostKind;
use agon_engine::MatchRecord;
use agon_play::console::name;
use std::fmt::Write as _;

/// Lines shown of a faulty seat's stderr.
pub const TAIL_LINES: usize = 10;

/// The last [`TAIL_LINES`] lines of the stderr of each seat with a fault, in seat order.
pub fn faulty_tails(record: &MatchRecord) -> String {
    let mut seats: Vec<usize> = record.faults.iter().map(|f| f.seat).collect();
    seats.sort_unstable();
    seats.dedup();
    let mut out = String::new();
    for seat in seats {
        write_seat(&mut out, record, seat, Some(TAIL_LINES));
    }
    out
}

/// The whole captured stderr of every seat.
pub fn every_seat(record: &MatchRecord) -> String {
    let mut out = String::new();
    for seat in 0..record.seats.len() {
        write_seat(&mut out, record, seat, None);
    }
    out
}

/// Seat `seat`'s stderr, its last `limit` lines if given.
fn write_seat(out: &mut String, record: &MatchRecord, seat: usize, limit: Option<usize>) {
    let Some(seat_record) = record.seats.get(seat) else {
        return;
    };
    let who = format!("stderr of seat {seat} ({})", name(&seat_record.bot));
    let text = seat_record.stderr.as_deref().unwrap_or_default();
    // std's panic report starts with an empty line.
    let lines: Vec<&str> = text.lines().skip_while(|line| line.is_empty()).collect();
    if lines.is_empty() {
        let _ = writeln!(out, "\n{who}: {}", why_empty(record.host));
        return;
    }
    let shown = limit.map_or(lines.len(), |n| n.min(lines.len()));
    let heading = match limit {
        Some(_) if shown < lines.len() => format!("last {shown} of {} lines", lines.len()),
        _ => format!("{} lines", lines.len()),
    };
    let _ = writeln!(out, "\n{who}, {heading}:");
    for line in &lines[lines.len() - shown..] {
        let _ = writeln!(out, "  | {line}");
    }
}

fn why_empty(host: HostKind) -> String {
    match host {
        HostKind::Process => "nothing was written".into(),
        HostKind::Remote => "not captured (a course client)".into(),
        HostKind::Inline | HostKind::Thread => format!(
            "not captured: the {host} host leaves a bot's stderr on this terminal \
             (`--host process` captures it)"
        ),
    }
}
