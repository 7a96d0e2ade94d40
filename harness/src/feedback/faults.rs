//! The summary's fault lines: for each fault the seat and its bot, the cause, when it happened
//! and the detail (for `illegal`, the rules' reason), then what to do about it ([`super::hints`]).

use super::hints::what_to_do;
use agon_engine::MatchRecord;
use agon_engine::Phase;
use agon_play::console::name;
use std::fmt::Write as _;

pub fn explained(record: &MatchRecord) -> String {
    let mut out = String::new();
    for fault in &record.faults {
        let bot = record
            .seats
            .get(fault.seat)
            .map_or("?".into(), |seat| name(&seat.bot));
        let when = match fault.phase {
            Phase::Start if fault.ply == 0 => "in its start call".to_string(),
            Phase::Start => format!("in its start call before ply {}", fault.ply),
            Phase::Move => format!("at ply {}", fault.ply),
        };
        let _ = writeln!(
            out,
            "fault: seat {} ({bot}) {} {when}: {}",
            fault.seat,
            fault.cause,
            name(&fault.detail)
        );
        for hint in what_to_do(fault, record) {
            let _ = writeln!(out, "  what to do: {}", name(&hint));
        }
    }
    out
}
