//! One match: seats, clocks and the fault policy around a game session, producing a
//! [`MatchRecord`] (DESIGN.md, "Data flow of one move").

use crate::fault::{Fault, FaultCause, FaultPolicy, Phase};
use crate::game::{GameRules, Outcome, Rejection, StartInfo};
use crate::host::{describe_failure, Call, CallResult, SeatHost};
use crate::record::{Budgets, MatchRecord, MoveRecord, SeatMetrics, SeatRecord, RECORD_FORMAT};
use crate::seed::seat_seed;
use agon_games::params::{ParamError, RawParams};
use agon_plugin_api::abi::FailureKind;
use std::time::Duration;

/// What a match is played under.
#[derive(Debug, Clone)]
pub struct MatchSettings {
    pub params: RawParams,
    pub seed: u64,
    pub budgets: Budgets,
    /// `None`: the game's default policy.
    pub fault_policy: Option<FaultPolicy>,
}

/// One seat: who sits there (for the record) and the host that runs its bot.
pub struct Seat {
    pub record: SeatRecord,
    pub host: Box<dyn SeatHost>,
}

#[derive(Debug, thiserror::Error)]
pub enum MatchError {
    #[error("{game} needs {expected} bots, got {got}")]
    SeatCount {
        game: String,
        expected: usize,
        got: usize,
    },
    #[error("{game}: {source} (parameters: {help})")]
    Params {
        game: String,
        help: String,
        source: ParamError,
    },
}

/// Plays one match to its end. Every fault is recorded with its cause; under the forfeit policy
/// the first fault ends the match, so a seat that never answers costs at most one budget.
pub fn run_match(
    game: &dyn GameRules,
    settings: &MatchSettings,
    mut seats: Vec<Seat>,
) -> Result<MatchRecord, MatchError> {
    if seats.len() != game.seats() {
        return Err(MatchError::SeatCount {
            game: game.name().into(),
            expected: game.seats(),
            got: seats.len(),
        });
    }
    let mut session = game
        .new_session(&settings.params)
        .map_err(|source| MatchError::Params {
            game: game.name().into(),
            help: game.parameter_help().into(),
            source,
        })?;
    let policy = settings
        .fault_policy
        .unwrap_or_else(|| game.default_fault_policy());
    let budget = |ms: Option<u64>| ms.map(Duration::from_millis);
    let mut moves: Vec<MoveRecord> = Vec::new();
    let mut faults: Vec<Fault> = Vec::new();

    for (index, seat) in seats.iter_mut().enumerate() {
        let info = StartInfo {
            seed: seat_seed(settings.seed, index),
            start_budget_ms: settings.budgets.start_ms.unwrap_or(0),
            move_budget_ms: settings.budgets.move_ms.unwrap_or(0),
            bot_params: seat.record.bot_params.clone(),
        };
        let message = session.start_message(index, &info);
        let call = seat.host.start(message, budget(settings.budgets.start_ms));
        if let Some(fault) = call_fault(index, Phase::Start, 0, &call, settings.budgets.start_ms) {
            faults.push(fault);
            break;
        }
    }

    while faults.is_empty() {
        let Some(index) = session.to_act() else { break };
        let ply = moves.len() as u32;
        let message = session.observation(index);
        let call = seats[index]
            .host
            .act(message, budget(settings.budgets.move_ms));
        if let Some(fault) = call_fault(index, Phase::Move, ply, &call, settings.budgets.move_ms) {
            faults.push(fault);
            break;
        }
        let CallResult::Answer(answer) = &call.result else {
            unreachable!("call_fault returns a fault for every non-answer")
        };
        match session.apply_answer(index, answer) {
            Ok(applied) => {
                log::debug!("ply {ply}: seat {index} plays {}", applied.notation);
                moves.push(MoveRecord {
                    ply,
                    seat: index,
                    action: applied.notation,
                    wall_us: micros(call.wall),
                    cpu_us: call.cpu.map(micros),
                    nodes: applied.nodes,
                    captures: applied.captures,
                });
            }
            Err(rejection) => {
                let (cause, detail) = match rejection {
                    Rejection::Malformed(d) => (FaultCause::Malformed, d),
                    Rejection::Illegal(d) => (FaultCause::Illegal, d),
                };
                faults.push(Fault {
                    seat: index,
                    phase: Phase::Move,
                    ply,
                    cause,
                    detail,
                    wall_us: micros(call.wall),
                });
            }
        }
    }

    let outcome = match (faults.first(), policy) {
        (Some(fault), FaultPolicy::Forfeit) => Outcome::forfeit(
            seats.len(),
            fault.seat,
            forfeit_reason(fault, &seats[fault.seat].record),
        ),
        (None, _) => session
            .outcome()
            .expect("the loop ends only at a fault or the end of the game"),
    };
    for fault in &faults {
        log::info!(
            "seat {} fault at ply {}: {} ({})",
            fault.seat,
            fault.ply,
            fault.cause,
            fault.detail
        );
    }
    let metrics = (0..seats.len())
        .map(|s| SeatMetrics::from_moves(s, &moves))
        .collect();
    Ok(MatchRecord {
        format: RECORD_FORMAT,
        engine: env!("CARGO_PKG_VERSION").to_string(),
        game: game.name().to_string(),
        protocol_version: game.protocol_version(),
        params: session.params(),
        seed: settings.seed,
        host: seats[0].host.kind(),
        budgets: settings.budgets,
        fault_policy: policy,
        seats: seats.into_iter().map(|s| s.record).collect(),
        outcome,
        moves,
        faults,
        metrics,
        final_board: session.render(),
    })
}

/// The fault a call amounts to, if any (an answer is judged later, by the rules).
fn call_fault<T>(
    seat: usize,
    phase: Phase,
    ply: u32,
    call: &Call<T>,
    budget_ms: Option<u64>,
) -> Option<Fault> {
    let (cause, detail) = match &call.result {
        CallResult::Answer(_) => return None,
        CallResult::TimedOut => (
            FaultCause::Timeout,
            format!(
                "no answer within the {} ms budget (waited {:.1} ms)",
                budget_ms.unwrap_or(0),
                call.wall.as_secs_f64() * 1000.0
            ),
        ),
        CallResult::Failed(failure) => (
            match failure.kind {
                FailureKind::Panic => FaultCause::Panic,
                FailureKind::Refused => FaultCause::Refused,
                FailureKind::Protocol => FaultCause::Malformed,
            },
            describe_failure(failure),
        ),
        CallResult::Gone(reason) => (FaultCause::Abandoned, reason.clone()),
    };
    Some(Fault {
        seat,
        phase,
        ply,
        cause,
        detail,
        wall_us: micros(call.wall),
    })
}

fn forfeit_reason(fault: &Fault, seat: &SeatRecord) -> String {
    format!(
        "seat {} ({}) forfeits: {} at ply {}: {}",
        fault.seat, seat.bot, fault.cause, fault.ply, fault.detail
    )
}

fn micros(d: Duration) -> u64 {
    d.as_micros().min(u64::MAX as u128) as u64
}
