//! Replay verification: re-apply a record's moves with the rules and check that they reproduce
//! the recorded outcome, captures and final board exactly, and that every action the fault
//! policy imposed answers a recorded fault.

use crate::fault::{tolerated_errors, Fault, Phase};
use crate::record::{Forced, MatchRecord, MoveRecord, SeatMetrics};
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
    let (mut session, seats) = open_session(record, registry)?;
    check_entries(record, seats)?;
    let mut fault_used = vec![false; record.faults.len()];
    for (i, m) in record.moves.iter().enumerate() {
        disqualify_at(record, i, session.as_mut(), &mut fault_used);
        observe(Step::Before(i), session.as_ref());
        replay_move(record, i, m, session.as_mut(), &mut fault_used)?;
    }
    disqualify_at(
        record,
        record.moves.len(),
        session.as_mut(),
        &mut fault_used,
    );
    observe(Step::End, session.as_ref());
    let expected = expected_outcome(record, session.as_ref(), &fault_used)?;
    check_outcome(&record.outcome, &expected)?;
    check_final_state(record, session.as_ref(), seats)?;
    Ok(Verified {
        moves: record.moves.len(),
        outcome: expected,
    })
}

fn fail<T>(message: String) -> Result<T, ReplayMismatch> {
    Err(ReplayMismatch(message))
}

/// A fresh session of the recorded game with the recorded parameters, and its seat count.
fn open_session(
    record: &MatchRecord,
    registry: &Registry,
) -> Result<(Box<dyn Session>, usize), ReplayMismatch> {
    let game = registry
        .get(&record.game)
        .map_err(|e| ReplayMismatch(e.to_string()))?;
    let session = game
        .new_session(&record.params, &crate::input_file::GameFiles)
        .map_err(|e| ReplayMismatch(format!("recorded parameters: {e}")))?;
    let seats = game
        .seats_for(&record.params, &crate::input_file::GameFiles)
        .map_err(|e| ReplayMismatch(format!("recorded parameters: {e}")))?;
    Ok((session, seats))
}

/// The record's seat entries and faults, before any move: numbered in order, and only for
/// seats the game has.
fn check_entries(record: &MatchRecord, seats: usize) -> Result<(), ReplayMismatch> {
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
    Ok(())
}

/// Plays move `i` after checking that the rules expected it then, and that a forced one
/// answers a fault; the rules must give the recorded notation and captures.
fn replay_move(
    record: &MatchRecord,
    i: usize,
    m: &MoveRecord,
    session: &mut dyn Session,
    fault_used: &mut [bool],
) -> Result<(), ReplayMismatch> {
    check_turn(i, m, session)?;
    if let Some(forced) = m.forced {
        answer_fault(record, i, m, forced, fault_used)?;
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
    Ok(())
}

/// Move `i` is numbered `i`, and the rules have its seat to move in its round.
fn check_turn(i: usize, m: &MoveRecord, session: &dyn Session) -> Result<(), ReplayMismatch> {
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
    Ok(())
}

/// A forced move must be one the fault policy imposes, for a fault recorded at its ply and
/// seat, which it then answers.
fn answer_fault(
    record: &MatchRecord,
    i: usize,
    m: &MoveRecord,
    forced: Forced,
    fault_used: &mut [bool],
) -> Result<(), ReplayMismatch> {
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
    Ok(())
}

/// The outcome the replay arrives at: the rules' own, or the one the policy gives for the
/// single fault no forced action answers.
fn expected_outcome(
    record: &MatchRecord,
    session: &dyn Session,
    fault_used: &[bool],
) -> Result<Outcome, ReplayMismatch> {
    // Faults that no forced action answers: at start (under a policy that plays on), or the
    // one that ended the match.
    let unanswered: Vec<&Fault> = record
        .faults
        .iter()
        .zip(fault_used)
        .filter(|(f, used)| !**used && (f.phase != Phase::Start || record.fault_policy.ends_game()))
        .map(|(f, _)| f)
        .collect();
    match (session.outcome(), unanswered.as_slice()) {
        (Some(by_rules), []) => Ok(by_rules),
        (Some(_), [fault, ..]) => fail(format!(
            "the moves end the game by the rules, yet a fault of seat {} at ply {} is \
             recorded without consequence",
            fault.seat, fault.ply
        )),
        (None, [fault]) => {
            if fault.phase == Phase::Move && session.to_act() != Some(fault.seat) {
                return fail(format!(
                    "the match-ending fault is recorded for seat {}, but seat {:?} was to move",
                    fault.seat,
                    session.to_act()
                ));
            }
            ending(record, fault)
        }
        (None, []) => fail(format!(
            "the game is not over after the {} recorded moves and no fault ended it",
            record.moves.len()
        )),
        (None, [..]) => fail(format!(
            "{} faults are recorded without consequence",
            unanswered.len()
        )),
    }
}

/// The recorded outcome against the expected one. Its reason counts only where the rules ended
/// the game: the ending a fault policy gives takes its reason from the record.
fn check_outcome(got: &Outcome, expected: &Outcome) -> Result<(), ReplayMismatch> {
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
    Ok(())
}

/// What the record states of the finished game besides its outcome: the game scores, each
/// seat's metrics and the final board.
fn check_final_state(
    record: &MatchRecord,
    session: &dyn Session,
    seats: usize,
) -> Result<(), ReplayMismatch> {
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
    Ok(())
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
            "the match-ending fault is recorded at ply {}, after {} move{}",
            fault.ply,
            record.moves.len(),
            if record.moves.len() == 1 { "" } else { "s" }
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
