//! Replay verification: re-apply a record's moves with the rules and check that they reproduce
//! the recorded outcome, captures and final board exactly.

use crate::fault::FaultPolicy;
use crate::game::{Outcome, Registry, Termination};
use crate::record::MatchRecord;

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

pub fn verify(record: &MatchRecord, registry: &Registry) -> Result<Verified, ReplayMismatch> {
    let fail = |m: String| Err(ReplayMismatch(m));
    let game = registry
        .get(&record.game)
        .map_err(|e| ReplayMismatch(e.to_string()))?;
    let mut session = game
        .new_session(&record.params)
        .map_err(|e| ReplayMismatch(format!("recorded parameters: {e}")))?;
    if record.seats.len() != game.seats() {
        return fail(format!(
            "{} seats recorded, {} has {}",
            record.seats.len(),
            record.game,
            game.seats()
        ));
    }
    for (i, m) in record.moves.iter().enumerate() {
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
        let applied = session
            .apply_notation(m.seat, &m.action)
            .map_err(|r| ReplayMismatch(format!("ply {i} ({}) is not legal: {r:?}", m.action)))?;
        if applied.notation != m.action || applied.captures != m.captures {
            return fail(format!(
                "ply {i}: recorded `{}` with {} captures, the rules say `{}` with {}",
                m.action, m.captures, applied.notation, applied.captures
            ));
        }
    }
    let expected = match (session.outcome(), record.faults.first()) {
        (Some(by_rules), None) => by_rules,
        (Some(_), Some(fault)) => {
            return fail(format!(
                "the moves end the game by the rules, yet a fault of seat {} is recorded",
                fault.seat
            ))
        }
        (None, Some(fault)) => match record.fault_policy {
            FaultPolicy::Forfeit => {
                if fault.ply as usize != record.moves.len() {
                    return fail(format!(
                        "the forfeiting fault is recorded at ply {}, after {} moves",
                        fault.ply,
                        record.moves.len()
                    ));
                }
                Outcome::forfeit(game.seats(), fault.seat, record.outcome.reason.clone())
            }
        },
        (None, None) => {
            return fail(format!(
                "the game is not over after the {} recorded moves and no fault ended it",
                record.moves.len()
            ))
        }
    };
    let got = &record.outcome;
    if got.winner != expected.winner
        || got.scores != expected.scores
        || got.termination != expected.termination
        || (expected.termination == Termination::Rules && got.reason != expected.reason)
    {
        return fail(format!(
            "recorded outcome {} ({:?}, scores {:?}), the rules give {} ({:?}, scores {:?})",
            got.reason, got.winner, got.scores, expected.reason, expected.winner, expected.scores
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
