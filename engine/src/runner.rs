//! One match: seats, clocks and the fault policy around a game session, producing a
//! [`MatchRecord`] (docs/architecture.md, "Data flow of one move").

use crate::fault::{tolerated_errors, Fault, FaultCause, Phase};
use crate::host::{describe_failure, Call, CallResult, Deadline, SeatHost};
use crate::record::{
    Budgets, Forced, MatchRecord, MoveRecord, Restart, SeatMetrics, SeatRecord, RECORD_FORMAT,
};
use crate::seed::{engine_draw, seat_seed, SeedSecret};
use agon_abi::FailureKind;
use agon_games::contract::{
    bounded, Applied, FaultPolicy, GameRules, Outcome, ParamError, RawParams, Rejection, Session,
    StartInfo, Termination,
};
use std::time::Duration;

/// What a match is played under.
#[derive(Debug, Clone)]
pub struct MatchSettings {
    pub params: RawParams,
    pub seed: u64,
    /// The key under which every seat's seed is derived from `seed` (see [`crate::seed`]).
    pub seed_secret: SeedSecret,
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
    /// The match was cut short by something that is not the bots' doing: the engine was asked
    /// to stop, or a bot's process was killed from outside. Nothing of it may be recorded as a
    /// result; the game is to be played again.
    #[error("the game was not finished, and nothing of it is recorded: {0}")]
    Interrupted(String),
}

/// The state of one match besides the game: what was played, what went wrong.
struct Referee<'a, 'o> {
    observer: &'o mut dyn MatchObserver,
    settings: &'a MatchSettings,
    policy: FaultPolicy,
    moves: Vec<MoveRecord>,
    faults: Vec<Fault>,
    restarts: Vec<Restart>,
    /// Per seat: turns had and faults made (for `random-legal`).
    turns: Vec<u32>,
    errors: Vec<u32>,
    /// Consecutive turns that ended in a fault, over all seats (for stall detection).
    faulty_streak: usize,
    /// The round of simultaneous moves being played, for the record.
    round: Option<u32>,
    /// This machine's cores, once a round of several seats needed them.
    cores: Option<usize>,
}

/// One seat's request in a round: its budget, or the fault that already took its turn (its
/// host could not be started again).
struct Request {
    index: usize,
    deadline: Deadline,
    restart_fault: Option<Fault>,
}

/// How many of `calls` made at once share each of this machine's cores (1 when each has one).
/// The cores are looked up once a match needs them, into `cores`: std reads them from the
/// cgroup files each time (three files opened), and doing so every move cost a game of turns
/// two thirds of its time (`agon bench --suite reversixt`, greedy games: 379 against 1,138 a
/// second).
fn calls_per_core(calls: usize, cores: &mut Option<usize>) -> u32 {
    if calls <= 1 {
        return 1;
    }
    let cores =
        *cores.get_or_insert_with(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    calls.div_ceil(cores).max(1) as u32
}

/// Asks each `(seat, observation, deadline)` for its answer. A single seat is asked on this
/// thread; several (a round of simultaneous moves) are asked at once, each on a thread of its
/// own and under its own deadline, so one seat's thinking time is not another's. The calls come
/// back in the order asked.
fn ask_together(seats: &mut [Seat], asked: Vec<(usize, Vec<u8>, Deadline)>) -> Vec<Call<Vec<u8>>> {
    if let [(index, _, deadline)] = asked.as_slice() {
        let (index, deadline) = (*index, *deadline);
        let message = asked
            .into_iter()
            .next()
            .map(|(_, m, _)| m)
            .unwrap_or_default();
        return vec![seats[index].host.act(message, deadline)];
    }
    let mut wanted: Vec<Option<(Vec<u8>, Deadline)>> = (0..seats.len()).map(|_| None).collect();
    let order: Vec<usize> = asked.iter().map(|(index, _, _)| *index).collect();
    for (index, message, deadline) in asked {
        wanted[index] = Some((message, deadline));
    }
    let mut answers: Vec<Option<Call<Vec<u8>>>> = (0..seats.len()).map(|_| None).collect();
    std::thread::scope(|scope| {
        let running: Vec<_> = seats
            .iter_mut()
            .zip(wanted)
            .enumerate()
            .filter_map(|(index, (seat, wanted))| {
                let (message, deadline) = wanted?;
                let host = &mut seat.host;
                Some((index, scope.spawn(move || host.act(message, deadline))))
            })
            .collect();
        for (index, thread) in running {
            match thread.join() {
                Ok(call) => answers[index] = Some(call),
                // A host's own failure, not the bot's (bots' panics are caught by the hosts).
                Err(panic) => std::panic::resume_unwind(panic),
            }
        }
    });
    order
        .into_iter()
        .map(|index| answers[index].take().expect("every asked seat answered"))
        .collect()
}

/// Hears what happens in a match as it happens (the course server announces every move to
/// every client; `agon match --trace` prints each position and answer).
pub trait MatchObserver {
    /// `seats` are about to be asked for their actions on the position `session` holds: one
    /// seat in a game of turns, a round's seats together in a game of simultaneous moves
    /// (`round`). `ply` actions were applied before.
    fn asking(&mut self, ply: u32, round: Option<u32>, seats: &[usize], session: &dyn Session) {
        let _ = (ply, round, seats, session);
    }
    /// An action was applied, as the record writes it: the seat's answer, or the one its fault
    /// policy chose (`forced`).
    fn moved(&mut self, played: &MoveRecord) {
        let _ = played;
    }
    /// A fault was recorded; its policy applies next.
    fn faulted(&mut self, fault: &Fault) {
        let _ = fault;
    }
    /// `seat` was disqualified and the game goes on without it.
    fn disqualified(&mut self, seat: usize) {
        let _ = seat;
    }
    /// The match is over.
    fn ended(&mut self, outcome: &Outcome) {
        let _ = outcome;
    }
}

/// The observer of a match nobody watches.
pub struct Unobserved;

impl MatchObserver for Unobserved {}

/// Plays one match to its end. Every fault is recorded with its cause; the fault policy decides
/// what it costs. Under `forfeit` the first fault ends the match, so a seat that never answers
/// costs at most one watchdog period.
pub fn run_match(
    game: &dyn GameRules,
    settings: &MatchSettings,
    seats: Vec<Seat>,
) -> Result<MatchRecord, MatchError> {
    run_observed_match(game, settings, seats, &mut Unobserved)
}

/// [`run_match`], telling `observer` of every move, disqualification and the end.
pub fn run_observed_match(
    game: &dyn GameRules,
    settings: &MatchSettings,
    mut seats: Vec<Seat>,
    observer: &mut dyn MatchObserver,
) -> Result<MatchRecord, MatchError> {
    let params_error = |source| MatchError::Params {
        game: game.name().into(),
        help: game.parameter_help().into(),
        source,
    };
    let expected = game
        .seats_for(&settings.params, &crate::input_file::GameFiles)
        .map_err(params_error)?;
    if seats.len() != expected {
        return Err(MatchError::SeatCount {
            game: game.name().into(),
            expected,
            got: seats.len(),
        });
    }
    let mut session = game
        .new_session(&settings.params, &crate::input_file::GameFiles)
        .map_err(params_error)?;
    let mut referee = Referee {
        settings,
        policy: settings
            .fault_policy
            .unwrap_or_else(|| game.default_fault_policy()),
        moves: Vec::new(),
        faults: Vec::new(),
        restarts: Vec::new(),
        turns: vec![0; seats.len()],
        errors: vec![0; seats.len()],
        faulty_streak: 0,
        round: None,
        cores: None,
        observer,
    };
    let outcome = match referee.play(session.as_mut(), &mut seats) {
        Ok(outcome) => outcome,
        Err(Interrupted(why)) => {
            log::warn!("{why}; the game is abandoned, not recorded");
            return Err(MatchError::Interrupted(why));
        }
    };
    referee.observer.ended(&outcome);
    for fault in &referee.faults {
        log::info!(
            "seat {} fault at ply {}: {} ({})",
            fault.seat,
            fault.ply,
            fault.cause,
            fault.detail
        );
    }
    for seat in seats.iter_mut() {
        seat.host.release();
    }
    for seat in seats.iter_mut() {
        let report = seat.host.report();
        seat.record.sandbox = report.sandbox;
        seat.record.stderr = report.stderr;
        seat.record.run_queue = report.run_queue;
    }
    let metrics = (0..seats.len())
        .map(|s| SeatMetrics::from_moves(s, &referee.moves))
        .collect();
    Ok(MatchRecord {
        format: RECORD_FORMAT,
        engine: env!("CARGO_PKG_VERSION").to_string(),
        game: game.name().to_string(),
        protocol_version: game.protocol_version(),
        params: session.params(),
        seed: settings.seed,
        seed_secret: Some(settings.seed_secret),
        host: seats[0].host.kind(),
        budgets: settings.budgets,
        fault_policy: referee.policy,
        seats: seats.into_iter().map(|s| s.record).collect(),
        outcome,
        game_scores: session.game_scores(),
        moves: referee.moves,
        faults: referee.faults,
        restarts: referee.restarts,
        metrics,
        final_board: session.render(),
    })
}

/// Why a match stopped without an outcome (see [`MatchError::Interrupted`]).
struct Interrupted(String);

/// The engine was asked to stop: no further call is made.
fn stop_requested() -> Result<(), Interrupted> {
    match crate::interrupt::requested() {
        Some(signal) => Err(Interrupted(format!(
            "the engine received {}",
            crate::interrupt::name(signal)
        ))),
        None => Ok(()),
    }
}

impl Referee<'_, '_> {
    fn deadline(&self, ms: Option<u64>) -> Deadline {
        Deadline {
            budget: ms.map(Duration::from_millis),
            clock: self.settings.budgets.clock,
            sharing: 1,
        }
    }

    fn play(
        &mut self,
        session: &mut dyn Session,
        seats: &mut [Seat],
    ) -> Result<Outcome, Interrupted> {
        for index in 0..seats.len() {
            stop_requested()?;
            if let Err(fault) = self.start_seat(index, Phase::Start, 0, session, seats) {
                if let Some(end) = self.fault(fault, session, seats)? {
                    return Ok(end);
                }
            }
        }
        loop {
            stop_requested()?;
            let batch = session.round_seats();
            if batch.is_empty() {
                return Ok(session
                    .outcome()
                    .expect("a session with no seat to act is over"));
            }
            self.round = session.round();
            self.observer
                .asking(self.moves.len() as u32, self.round, &batch, &*session);
            let mut requests = Vec::with_capacity(batch.len());
            let mut asked = Vec::with_capacity(batch.len());
            let sharing = calls_per_core(batch.len(), &mut self.cores);
            for (k, &index) in batch.iter().enumerate() {
                let mut request = self.prepare(index, k, session, seats);
                request.deadline.sharing = sharing;
                if request.restart_fault.is_none() {
                    asked.push((index, session.observation(index), request.deadline));
                }
                requests.push(request);
            }
            let mut calls = ask_together(seats, asked).into_iter();
            // Applied in seat order, as a game of turns would have them, so that records and
            // replays read the same for both kinds of game.
            for request in requests {
                let call = match request.restart_fault {
                    None => Ok(calls.next().expect("one call per asked seat")),
                    Some(fault) => Err(fault),
                };
                if session.to_act() != Some(request.index) {
                    // An earlier seat's fault took this one's action away (a disqualification
                    // that left too few players to go on).
                    continue;
                }
                if let Some(end) =
                    self.settle(request.index, request.deadline, call, session, seats)?
                {
                    return Ok(end);
                }
            }
        }
    }

    /// Counts seat `index`'s turn (the `k`-th of its round) and sets its budget; starts its bot
    /// again first when its host is gone under a policy that plays on.
    fn prepare(
        &mut self,
        index: usize,
        k: usize,
        session: &mut dyn Session,
        seats: &mut [Seat],
    ) -> Request {
        self.turns[index] += 1;
        let deadline = match session.request_budget(index) {
            Some(budget) => Deadline {
                budget: Some(budget),
                ..self.deadline(None)
            },
            None => self.deadline(self.settings.budgets.move_ms),
        };
        let mut restart_fault = None;
        if let Some(reason) = seats[index]
            .host
            .gone()
            .filter(|_| !self.policy.ends_game())
        {
            // Under a policy that plays on, a dead host costs the turns it missed, not the rest
            // of the game: the bot starts again and is asked for this move.
            let ply = (self.moves.len() + k) as u32;
            restart_fault = self.restart(index, ply, reason, session, seats).err();
        }
        Request {
            index,
            deadline,
            restart_fault,
        }
    }

    /// Judges seat `index`'s call and applies its answer, or the fault policy in its place;
    /// `Some(outcome)` when that ends the match.
    fn settle(
        &mut self,
        index: usize,
        deadline: Deadline,
        call: Result<Call<Vec<u8>>, Fault>,
        session: &mut dyn Session,
        seats: &[Seat],
    ) -> Result<Option<Outcome>, Interrupted> {
        let ply = self.moves.len() as u32;
        let call = match call {
            Ok(call) => call,
            Err(mut fault) => {
                fault.ply = ply;
                self.faulty_streak += 1;
                return self.fault(fault, session, seats);
            }
        };
        session.charge(index, spent(&call, &deadline));
        let applied =
            judge(index, Phase::Move, ply, call, &deadline).and_then(|(answer, wall, cpu)| {
                match session.apply_answer(index, &answer) {
                    Ok(applied) => Ok((applied, wall, cpu)),
                    Err(rejection) => {
                        let mut fault = rejected(index, ply, rejection, wall);
                        if fault.cause == FaultCause::Illegal {
                            fault.answer = session.answer_notation(&answer).map(|n| bounded(&n));
                        }
                        Err(fault)
                    }
                }
            });
        match applied {
            Ok((applied, wall, cpu)) => {
                log::debug!("ply {ply}: seat {index} plays {}", applied.notation);
                self.faulty_streak = 0;
                self.record_move(ply, index, applied, micros(wall), cpu.map(micros), None);
                Ok(None)
            }
            Err(fault) => {
                self.faulty_streak += 1;
                self.fault(fault, session, seats)
            }
        }
    }

    /// Sends seat `index` its start message; the fault it amounts to if it fails.
    fn start_seat(
        &mut self,
        index: usize,
        phase: Phase,
        ply: u32,
        session: &mut dyn Session,
        seats: &mut [Seat],
    ) -> Result<(), Fault> {
        let info = StartInfo {
            seed: seat_seed(&self.settings.seed_secret, self.settings.seed, index),
            start_budget_ms: self.settings.budgets.start_ms.unwrap_or(0),
            move_budget_ms: self.settings.budgets.move_ms.unwrap_or(0),
            bot_params: seats[index].record.bot_params.clone(),
        };
        let message = session.start_message(index, &info);
        let deadline = self.deadline(self.settings.budgets.start_ms);
        let call = seats[index].host.start(message, deadline);
        judge(index, phase, ply, call, &deadline).map(|_| ())
    }

    /// Starts seat `index`'s bot again in a new host (recorded), before its turn at `ply`. A
    /// failure is this turn's fault.
    fn restart(
        &mut self,
        index: usize,
        ply: u32,
        reason: String,
        session: &mut dyn Session,
        seats: &mut [Seat],
    ) -> Result<(), Fault> {
        log::info!("seat {index}: starting the bot again before ply {ply} ({reason})");
        if let Err(e) = seats[index].host.restart() {
            return Err(Fault {
                seat: index,
                phase: Phase::Move,
                ply,
                cause: FaultCause::Abandoned,
                detail: format!("{reason}; starting it again failed: {e}"),
                wall_us: 0,
                answer: None,
            });
        }
        self.restarts.push(Restart {
            seat: index,
            ply,
            reason,
        });
        // Judged as this turn's (a failed start forces the turn, so the game moves on).
        self.start_seat(index, Phase::Move, ply, session, seats)
    }

    fn record_move(
        &mut self,
        ply: u32,
        seat: usize,
        applied: Applied,
        wall_us: u64,
        cpu_us: Option<u64>,
        forced: Option<Forced>,
    ) {
        let played = MoveRecord {
            ply,
            seat,
            action: applied.notation,
            wall_us,
            cpu_us,
            nodes: applied.nodes,
            captures: applied.captures,
            forced,
            round: self.round,
        };
        self.observer.moved(&played);
        self.moves.push(played);
    }

    /// Records `fault` and applies the policy: `Some(outcome)` when it ends the match. A fault
    /// that is not the bot's (`external`) interrupts the match instead.
    fn fault(
        &mut self,
        fault: Fault,
        session: &mut dyn Session,
        seats: &[Seat],
    ) -> Result<Option<Outcome>, Interrupted> {
        stop_requested()?;
        if fault.cause == FaultCause::External {
            return Err(Interrupted(format!(
                "seat {} ({}) at ply {}: {}",
                fault.seat, seats[fault.seat].record.bot, fault.ply, fault.detail
            )));
        }
        Ok(self.apply_policy(fault, session, seats))
    }

    fn apply_policy(
        &mut self,
        fault: Fault,
        session: &mut dyn Session,
        seats: &[Seat],
    ) -> Option<Outcome> {
        let seat = fault.seat;
        let phase = fault.phase;
        let ply = fault.ply;
        let reason = format!(
            "seat {seat} ({}): {} at ply {}: {}",
            seats[seat].record.bot, fault.cause, fault.ply, fault.detail
        );
        self.observer.faulted(&fault);
        self.faults.push(fault);
        self.errors[seat] += 1;
        let forced = match self.policy {
            FaultPolicy::Forfeit => {
                return Some(Outcome::forfeit(
                    seats.len(),
                    seat,
                    Termination::Forfeit,
                    format!("{reason}; forfeits"),
                ))
            }
            FaultPolicy::Disqualify if session.disqualify(seat) => {
                log::info!("{reason}; disqualified, the game goes on");
                self.observer.disqualified(seat);
                return None;
            }
            FaultPolicy::Disqualify => {
                return Some(Outcome::forfeit(
                    seats.len(),
                    seat,
                    Termination::Disqualified,
                    format!("{reason}; disqualified"),
                ))
            }
            FaultPolicy::RandomLegal { max_error_rate } => {
                let allowed = tolerated_errors(max_error_rate, self.turns[seat]);
                if self.errors[seat] > allowed {
                    return Some(Outcome::forfeit(
                        seats.len(),
                        seat,
                        Termination::Disqualified,
                        format!(
                            "{reason}; disqualified after {} errors in {} turns",
                            self.errors[seat], self.turns[seat]
                        ),
                    ));
                }
                Forced::RandomLegal
            }
            FaultPolicy::Skip | FaultPolicy::SkipStall { .. } => Forced::Skip,
        };
        if phase == Phase::Start {
            return None; // the bot may still play; its turns come later
        }
        if self.faulty_streak >= self.policy.stall_turns() as usize {
            return Some(Outcome::stalled(
                seats.len(),
                format!(
                    "no seat has acted in {} turns (last: {reason})",
                    self.faulty_streak
                ),
            ));
        }
        let applied = match forced {
            Forced::Skip => session.skip(seat),
            Forced::RandomLegal => session.play_random_legal(
                seat,
                engine_draw(&self.settings.seed_secret, self.settings.seed, ply),
            ),
        };
        match applied {
            Ok(applied) => {
                self.record_move(ply, seat, applied, 0, None, Some(forced));
                None
            }
            // The game cannot do what the policy asks: the seat loses as under `forfeit`.
            Err(e) => Some(Outcome::forfeit(
                seats.len(),
                seat,
                Termination::Forfeit,
                format!("{reason}; the {} policy could not act: {e:?}", self.policy),
            )),
        }
    }
}

type Judged<T> = Result<(T, Duration, Option<Duration>), Fault>;

/// The answer of a call within its budget, or the fault it amounts to.
fn judge<T>(seat: usize, phase: Phase, ply: u32, call: Call<T>, deadline: &Deadline) -> Judged<T> {
    let fault = |cause, detail| Fault {
        seat,
        phase,
        ply,
        cause,
        detail,
        wall_us: micros(call.wall),
        answer: None,
    };
    let budget_ms = deadline.budget.map_or(0, |b| b.as_millis());
    match call.result {
        CallResult::Answer(_) if deadline.overrun(call.wall, call.cpu) => Err(fault(
            FaultCause::Timeout,
            format!(
                "answered after {:.1} ms wall time, {} CPU time, over the {budget_ms} ms {} \
                 budget",
                call.wall.as_secs_f64() * 1000.0,
                call.cpu.map_or("unknown".to_string(), |c| format!(
                    "{:.1} ms",
                    c.as_secs_f64() * 1000.0
                )),
                deadline.clock
            ),
        )),
        CallResult::Answer(answer) => Ok((answer, call.wall, call.cpu)),
        CallResult::TimedOut => Err(fault(
            FaultCause::Timeout,
            format!(
                "no answer within the {budget_ms} ms {} budget (waited {:.1} ms)",
                deadline.clock,
                call.wall.as_secs_f64() * 1000.0
            ),
        )),
        CallResult::Failed(failure) => Err(fault(
            match failure.kind {
                FailureKind::Panic => FaultCause::Panic,
                FailureKind::Refused => FaultCause::Refused,
                FailureKind::Protocol => FaultCause::Malformed,
            },
            describe_failure(&failure),
        )),
        CallResult::Fault { cause, detail } => Err(fault(cause, detail)),
    }
}

fn rejected(seat: usize, ply: u32, rejection: Rejection, wall: Duration) -> Fault {
    let (cause, detail) = match rejection {
        Rejection::Malformed(d) => (FaultCause::Malformed, d),
        Rejection::Illegal(d) => (FaultCause::Illegal, d),
    };
    Fault {
        seat,
        phase: Phase::Move,
        ply,
        cause,
        detail,
        wall_us: micros(wall),
        answer: None,
    }
}

/// The time a call cost on the clock the budget counts (wall time when the CPU time is unknown).
fn spent<T>(call: &Call<T>, deadline: &Deadline) -> Duration {
    match (deadline.clock, call.cpu) {
        (crate::host::Clock::Cpu, Some(cpu)) => cpu,
        _ => call.wall,
    }
}

fn micros(d: Duration) -> u64 {
    d.as_micros().min(u64::MAX as u128) as u64
}

#[cfg(test)]
mod tests {
    use super::calls_per_core;

    /// A seat asked alone has its core to itself, and nobody reads the machine for it: a game
    /// of turns asks one seat every move.
    #[test]
    fn one_call_never_looks_up_the_cores() {
        let mut cores = None;
        assert_eq!(calls_per_core(1, &mut cores), 1);
        assert_eq!(cores, None);
    }

    /// Several calls share the cores found once, for the rest of the match.
    #[test]
    fn calls_share_the_cores_looked_up_once() {
        let mut cores = Some(2);
        assert_eq!(calls_per_core(8, &mut cores), 4);
        assert_eq!(calls_per_core(3, &mut cores), 2);
        assert_eq!(calls_per_core(2, &mut cores), 1);
        let mut unknown = None;
        calls_per_core(2, &mut unknown);
        assert!(unknown.is_some_and(|n| n >= 1));
    }
}
