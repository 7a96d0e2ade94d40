//! Replay verification: re-apply a record's moves with the rules and check that they reproduce
//! the recorded outcome, captures and final board exactly, and that every action the fault
//! policy imposed answers a recorded fault.

use crate::fault::{tolerated_errors, Fault, Phase};
use crate::record::{Forced, MatchRecord, SeatMetrics};
use agon_games::contract::{FaultPolicy, Outcome, Session, Termination};
use agon_games::registry::Registry;

/// What a verified replay established.
#[derive(Debug, Clone, PartialEq)]
pub struct Verified {
    pub moves: usize,
    pub outcome: Outcome,
}

/// The first way a record disagrees with the rules.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{0}")]
pub struct ReplayMismatch(pub String);

/// A point of a replay at which [`verify_observed`] shows the position.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    /// Move `i` of the record is about to be applied (disqualifications at its ply are done).
    Before(usize),
    /// Every move is applied: the final position.
    End,
}

pub fn verify(record: &MatchRecord, registry: &Registry) -> Result<Verified, ReplayMismatch> {
    verify_observed(record, registry, &mut |_, _| {})
}

/// [`verify`], showing `observe` the position before each move and at the end: the viewer's
/// positions come from the rules, and only from a record that replays.
pub fn verify_observed(
    record: &MatchRecord,
    registry: &Registry,
    observe: &mut dyn FnMut(Step, &dyn Session),
) -> Result<Verified, ReplayMismatch> {
    let fail = |m: String| Err(ReplayMismatch(m));
    let game = registry
        .get(&record.game)
        .map_err(|e| ReplayMismatch(e.to_string()))?;
    let mut session = game
        .new_session(&record.params, &crate::input_file::GameFiles)
        .map_err(|e| ReplayMismatch(format!("recorded parameters: {e}")))?;
    let seats = game
        .seats_for(&record.params, &crate::input_file::GameFiles)
        .map_err(|e| ReplayMismatch(format!("recorded parameters: {e}")))?;
    if record.seats.len() != seats {
        return fail(format!(
            "{} seats recorded, {} has {seats}",
            record.seats.len(),
            record.game,
        ));
    }
    if let Some((i, s)) = record.seats.iter().enumerate().find(|(i, s)| s.seat != *i) {
        return fail(format!("seat entry {i} is numbered {}", s.seat));
    }
    if let Some(f) = record.faults.iter().find(|f| f.seat >= seats) {
        return fail(format!("a fault is recorded for seat {}", f.seat));
    }
    if let Some(f) = record
        .faults
        .iter()
        .find(|f| f.phase == Phase::Start && f.ply != 0)
    {
        return fail(format!("a start fault is recorded at ply {}", f.ply));
    }
    let mut fault_used = vec![false; record.faults.len()];
    for (i, m) in record.moves.iter().enumerate() {
        disqualify_at(record, i, session.as_mut(), &mut fault_used);
        observe(Step::Before(i), session.as_ref());
        if m.ply as usize != i {
            return fail(format!("move {i} is numbered ply {}", m.ply));
        }
        match session.to_act() {
            None => {
                return fail(format!(
                    "ply {i} ({}) was recorded after the game had ended",
                    m.action
                ))
            }
            Some(seat) if seat != m.seat => {
                return fail(format!(
                    "ply {i} ({}) is recorded for seat {}, but seat {seat} is to move",
                    m.action, m.seat
                ))
            }
            Some(_) => {}
        }
        if m.round != session.round() {
            return fail(format!(
                "ply {i} ({}) is recorded in round {:?}, but the rules play round {:?}",
                m.action,
                m.round,
                session.round()
            ));
        }
        if let Some(forced) = m.forced {
            let policy_allows = matches!(
                (forced, record.fault_policy),
                (
                    Forced::Skip,
                    FaultPolicy::Skip | FaultPolicy::SkipStall { .. }
                ) | (Forced::RandomLegal, FaultPolicy::RandomLegal { .. })
            );
            if !policy_allows {
                return fail(format!(
                    "ply {i} is a forced {forced:?} action under the {} policy",
                    record.fault_policy
                ));
            }
            let Some(k) = record
                .faults
                .iter()
                .position(|f| f.phase == Phase::Move && f.ply == m.ply && f.seat == m.seat)
            else {
                return fail(format!(
                    "ply {i} is a forced action without a recorded fault"
                ));
            };
            fault_used[k] = true;
        }
        let applied = match m.forced {
            Some(Forced::Skip) => session.skip(m.seat),
            _ => session.apply_notation(m.seat, &m.action),
        }
        .map_err(|r| ReplayMismatch(format!("ply {i} ({}) is not legal: {r:?}", m.action)))?;
        if applied.notation != m.action || applied.captures != m.captures {
            return fail(format!(
                "ply {i}: recorded `{}` with {} captures, the rules say `{}` with {}",
                m.action, m.captures, applied.notation, applied.captures
            ));
        }
    }
    disqualify_at(
        record,
        record.moves.len(),
        session.as_mut(),
        &mut fault_used,
    );
    observe(Step::End, session.as_ref());
    // Faults that no forced action answers: at start (under a policy that plays on), or the
    // one that ended the match.
    let unanswered: Vec<&Fault> = record
        .faults
        .iter()
        .zip(&fault_used)
        .filter(|(f, used)| !**used && (f.phase != Phase::Start || record.fault_policy.ends_game()))
        .map(|(f, _)| f)
        .collect();
    let expected = match (session.outcome(), unanswered.as_slice()) {
        (Some(by_rules), []) => by_rules,
        (Some(_), [fault, ..]) => {
            return fail(format!(
                "the moves end the game by the rules, yet a fault of seat {} at ply {} is \
                 recorded without consequence",
                fault.seat, fault.ply
            ))
        }
        (None, [fault]) => {
            if fault.phase == Phase::Move && session.to_act() != Some(fault.seat) {
                return fail(format!(
                    "the match-ending fault is recorded for seat {}, but seat {:?} was to move",
                    fault.seat,
                    session.to_act()
                ));
            }
            ending(record, fault)?
        }
        (None, []) => {
            return fail(format!(
                "the game is not over after the {} recorded moves and no fault ended it",
                record.moves.len()
            ))
        }
        (None, [..]) => {
            return fail(format!(
                "{} faults are recorded without consequence",
                unanswered.len()
            ))
        }
    };
    let got = &record.outcome;
    if got.winner != expected.winner
        || got.scores != expected.scores
        || got.ranks != expected.ranks
        || got.termination != expected.termination
        || (expected.termination == Termination::Rules && got.reason != expected.reason)
    {
        return fail(format!(
            "recorded outcome {} ({:?}, scores {:?}, ranks {:?}), the rules give {} ({:?}, scores \
             {:?}, ranks {:?})",
            got.reason,
            got.winner,
            got.scores,
            got.ranks,
            expected.reason,
            expected.winner,
            expected.scores,
            expected.ranks
        ));
    }
    if session.game_scores() != record.game_scores {
        return fail(format!(
            "recorded game scores {:?}, the rules give {:?}",
            record.game_scores,
            session.game_scores()
        ));
    }
    for (seat, recorded) in record.metrics.iter().enumerate() {
        let recomputed = SeatMetrics::from_moves(seat, &record.moves);
        if *recorded != recomputed {
            return fail(format!(
                "the metrics of seat {seat} do not follow from the recorded moves"
            ));
        }
    }
    if record.metrics.len() != seats {
        return fail(format!(
            "{} metrics entries for {seats} seats",
            record.metrics.len()
        ));
    }
    if session.render() != record.final_board {
        return fail(format!(
            "the final board differs:\nrecorded:\n{}\nreplayed:\n{}",
            record.final_board,
            session.render()
        ));
    }
    Ok(Verified {
        moves: record.moves.len(),
        outcome: expected,
    })
}

/// Under `disqualify`, a game whose rules play on takes the offender out where the fault
/// happened: before the move of the same ply.
fn disqualify_at(
    record: &MatchRecord,
    ply: usize,
    session: &mut dyn Session,
    fault_used: &mut [bool],
) {
    if record.fault_policy != FaultPolicy::Disqualify {
        return;
    }
    for (k, f) in record.faults.iter().enumerate() {
        if f.ply as usize == ply && !fault_used[k] && session.disqualify(f.seat) {
            fault_used[k] = true;
        }
    }
}

/// The outcome the policy gives for the fault that ended an unfinished game.
fn ending(record: &MatchRecord, fault: &Fault) -> Result<Outcome, ReplayMismatch> {
    let seats = record.seats.len();
    let reason = record.outcome.reason.clone();
    if fault.phase == Phase::Move && fault.ply as usize != record.moves.len() {
        return Err(ReplayMismatch(format!(
            "the match-ending fault is recorded at ply {}, after {} moves",
            fault.ply,
            record.moves.len()
        )));
    }
    match record.fault_policy {
        FaultPolicy::Forfeit => Ok(Outcome::forfeit(
            seats,
            fault.seat,
            Termination::Forfeit,
            reason,
        )),
        FaultPolicy::Disqualify => Ok(Outcome::forfeit(
            seats,
            fault.seat,
            Termination::Disqualified,
            reason,
        )),
        FaultPolicy::RandomLegal { max_error_rate } => {
            let errors = record
                .faults
                .iter()
                .filter(|f| f.seat == fault.seat)
                .count() as u32;
            let turns = record.moves.iter().filter(|m| m.seat == fault.seat).count() as u32
                + u32::from(fault.phase == Phase::Move);
            if errors <= tolerated_errors(max_error_rate, turns) {
                return Err(ReplayMismatch(format!(
                    "seat {} is recorded as disqualified after {errors} errors in {turns} \
                     turns, within the tolerated rate {max_error_rate}",
                    fault.seat
                )));
            }
            Ok(Outcome::forfeit(
                seats,
                fault.seat,
                Termination::Disqualified,
                reason,
            ))
        }
        FaultPolicy::Skip | FaultPolicy::SkipStall { .. } => {
            // The stalling fault is not a move; the faulted turns before it are forced skips.
            let streak = 1 + record
                .moves
                .iter()
                .rev()
                .take_while(|m| m.forced.is_some())
                .count();
            let needed = record.fault_policy.stall_turns() as usize;
            if streak != needed {
                return Err(ReplayMismatch(format!(
                    "the game is recorded as stalled after {streak} faulted turns in a row; the \
                     {} policy stalls after {needed}",
                    record.fault_policy
                )));
            }
            Ok(Outcome::stalled(seats, reason))
        }
    }
}
