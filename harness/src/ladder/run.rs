//! The ladder's loop. Four kinds of threads: the intake watches the folder, the validator tries
//! each candidate build in process hosts, the workers play games, and the main thread (this
//! loop) owns everything that is written: it numbers and accepts builds, pairs slots, appends
//! each finished game to the journal (fsync) and rewrites the standings.
//!
//! A game is seated with the builds that are current when it is scheduled and keeps them to its
//! end, however many builds arrive meanwhile; every build is loaded from its content-addressed
//! copy, never from the watched folder.

use super::builds::{Build, Slots};
use super::entry::LadderGame;
use super::events::{unix_ms, Event, EventLog};
use super::pairing::Pairing;
use super::ratings::Ratings;
use super::standings::{RefusedBuild, Standings};
use crate::console::name;
use crate::swap::intake::{Arrival, Intake};
use crate::swap::sparring::Sparring;
use crate::swap::validation::{Validated, Validator};
use crate::tournament::journal::Journal;
use agon_engine::bot_spec::BotSpec;
use agon_engine::record::Budgets;
use agon_engine::runner::{run_match, MatchError, MatchSettings};
use agon_engine::seating::{self, Hosting};
use agon_engine::seed::SeedSecret;
use agon_games::contract::{FaultPolicy, RawParams};
use agon_games::registry::Registry;
use crossbeam_channel::{select, unbounded, Receiver, Sender};
use rand::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

pub struct LadderOptions {
    pub dir: PathBuf,
    pub out: PathBuf,
    pub game: String,
    pub params: RawParams,
    pub concurrency: usize,
    /// Stop once the journal holds this many games.
    pub games: Option<u64>,
    pub seed: u64,
    /// The key of every game's seat seeds (drawn for each ladder run; each journal line keeps it).
    pub seed_secret: SeedSecret,
    pub settle: Duration,
    pub max_builds_in_process: usize,
    pub budgets: Budgets,
    pub fault_policy: Option<FaultPolicy>,
    /// How games are hosted.
    pub hosting: Hosting,
    /// How candidate builds are validated: always process hosts.
    pub validation: Hosting,
    pub configured: BTreeMap<String, BotSpec>,
    pub quiet: bool,
    /// Set by the caller to stop the ladder as a stop signal would (benchmarks, embedding).
    pub stop: Arc<AtomicBool>,
}

#[derive(Debug)]
pub struct Summary {
    pub games: u64,
    pub played: u64,
    pub seconds: f64,
    pub stopped_by: Option<i32>,
}

/// Games given up in a row (seats that cannot be set up) before the ladder stops.
const FAILURES_IN_A_ROW: usize = 5;

/// A game to play.
struct Job {
    number: u64,
    seed: u64,
    builds: Vec<Build>,
}

enum Done {
    Game(Box<LadderGame>),
    /// Not finished through no fault of its bots (killed from outside, or abandoned on a second
    /// stop signal): nothing is recorded.
    Unplayed {
        slots: Vec<String>,
        why: String,
    },
    Failed {
        slots: Vec<String>,
        why: String,
    },
}

/// What the validator reports.
enum Verdict {
    Accepted(Validated),
    Refused {
        slot: String,
        sha256: Option<String>,
        reason: String,
    },
    Removed {
        slot: String,
    },
    /// The builds found at the start have all been judged: pairing may begin (so the first
    /// games are not all among the slots that happened to be validated first).
    FirstListingJudged,
}

pub fn run(options: &LadderOptions) -> Result<Summary, String> {
    let registry = Registry::builtin();
    let rules = registry.get(&options.game).map_err(|e| e.to_string())?;
    let seats = rules
        .seats_for(&options.params, &agon_engine::input_file::GameFiles)
        .map_err(|e| format!("{}: {e}", rules.name()))?;
    rules
        .new_session(&options.params, &agon_engine::input_file::GameFiles)
        .map_err(|e| format!("{}: {e} ({})", rules.name(), rules.parameter_help()))?;
    let out = &options.out;
    let records = out.join("records");
    std::fs::create_dir_all(&records).map_err(|e| format!("{}: {e}", records.display()))?;
    let (mut journal, earlier) = Journal::open::<LadderGame>(out, &|g: &LadderGame| g.check())?;
    let (mut events, earlier_events) = EventLog::open(out)?;

    let mut state = State {
        slots: Slots::default(),
        ratings: Ratings::default(),
        standings: Standings::new(rules.name(), &options.params),
        pairing: Pairing::new(stream(options.seed, u64::MAX - earlier.len() as u64)),
        sparring: Arc::new(Sparring::default()),
    };
    for logged in earlier_events {
        match logged.event {
            Event::Accepted { build, .. } => {
                state
                    .slots
                    .remember(&build.slot, &build.sha256, build.version)
            }
            Event::Refused {
                slot,
                sha256,
                reason,
            } => state.standings.refused(RefusedBuild {
                unix_ms: logged.unix_ms,
                slot,
                sha256,
                reason,
            }),
            _ => {}
        }
    }
    let mut next_number = 1;
    for game in &earlier {
        for seat in &game.seats {
            state.slots.remember(&seat.slot, &seat.sha256, seat.version);
        }
        state.record(game);
        next_number = next_number.max(game.number + 1);
    }
    events.append(Event::Started {
        seed: options.seed,
        game: rules.name().to_string(),
        params: options.params.clone(),
        host: options.hosting.kind.to_string(),
        games_so_far: earlier.len() as u64,
    })?;
    state.write(out)?;
    if !options.quiet && !earlier.is_empty() {
        eprintln!(
            "agon: continuing the ladder in {} after {} games",
            out.display(),
            earlier.len()
        );
    }

    let started = Instant::now();
    let stop = Arc::new(AtomicBool::new(false));
    let (arrivals_tx, arrivals_rx) = unbounded::<Arrival>();
    let (verdicts_tx, verdicts_rx) = unbounded::<Verdict>();
    let (jobs_tx, jobs_rx) = unbounded::<Job>();
    let (done_tx, done_rx) = unbounded::<Done>();
    let validator = Validator {
        game: rules.name().to_string(),
        params: options.params.clone(),
        budgets: options.budgets,
        fault_policy: options.fault_policy,
        hosting: options.hosting.clone(),
        inspection: options.validation.clone(),
        configured: options.configured.clone(),
        seed_secret: options.seed_secret,
        sparring: state.sparring.clone(),
    };
    let mut played = 0u64;
    let outcome = std::thread::scope(|scope| -> Result<(), String> {
        let intake = Intake::new(&options.dir, options.settle);
        let intake_stop = stop.clone();
        let watching = std::thread::Builder::new()
            .name("ladder-intake".into())
            .spawn_scoped(scope, move || intake.run(arrivals_tx, intake_stop))
            .map_err(|e| format!("cannot start the folder watcher: {e}"))?;
        std::thread::Builder::new()
            .name("ladder-validator".into())
            .spawn_scoped(scope, move || {
                validate_arrivals(&validator, arrivals_rx, verdicts_tx)
            })
            .map_err(|e| format!("cannot start the validator: {e}"))?;
        for worker in 0..options.concurrency {
            let jobs = jobs_rx.clone();
            let done = done_tx.clone();
            std::thread::Builder::new()
                .name(format!("ladder-worker-{worker}"))
                .spawn_scoped(scope, move || {
                    for job in jobs {
                        if done.send(play(job, options)).is_err() {
                            break;
                        }
                    }
                })
                .map_err(|e| format!("cannot start a worker: {e}"))?;
        }
        drop(done_tx);
        let result = main_loop(
            options,
            seats,
            &mut state,
            &mut journal,
            &mut events,
            &mut next_number,
            &mut played,
            (&jobs_tx, &done_rx, &verdicts_rx),
        );
        stop.store(true, Ordering::SeqCst);
        drop(jobs_tx);
        // The watcher's own error explains a "stopped" one better.
        match watching.join() {
            Ok(Err(e)) => Err(e),
            Err(_) => Err("the folder watcher panicked".into()),
            Ok(Ok(())) => result,
        }
    });
    let failure = outcome.err();
    let stopped_by = agon_engine::interrupt::stop_asked();
    let why = match (stopped_by, &failure) {
        (_, Some(e)) => e.clone(),
        (Some(signal), None) => format!("stopped by {}", agon_engine::interrupt::name(signal)),
        (None, None) => "the games asked for were played".into(),
    };
    events.append(Event::Stopped {
        games: state.standings.games(),
        why,
    })?;
    state.write(out)?;
    if let Some(e) = failure {
        return Err(e);
    }
    Ok(Summary {
        games: state.standings.games(),
        played,
        seconds: started.elapsed().as_secs_f64(),
        stopped_by,
    })
}

struct State {
    slots: Slots,
    ratings: Ratings,
    standings: Standings,
    pairing: Pairing,
    /// The current builds, as the validator sees them (a candidate's opponents).
    sparring: Arc<Sparring>,
}

impl State {
    fn record(&mut self, game: &LadderGame) {
        self.ratings.update(game);
        self.standings.record(game);
        let slots: Vec<&str> = game.seats.iter().map(|s| s.slot.as_str()).collect();
        self.pairing.count(&slots);
    }

    fn write(&self, out: &Path) -> Result<(), String> {
        self.standings.write(out, &self.slots, &self.ratings)
    }
}

#[allow(clippy::too_many_arguments)]
fn main_loop(
    options: &LadderOptions,
    seats: usize,
    state: &mut State,
    journal: &mut Journal,
    events: &mut EventLog,
    next_number: &mut u64,
    played: &mut u64,
    (jobs, done, verdicts): (&Sender<Job>, &Receiver<Done>, &Receiver<Verdict>),
) -> Result<(), String> {
    let mut in_flight = 0usize;
    let mut failures_in_a_row = 0usize;
    let mut waiting_said = false;
    let mut stop_said = false;
    let mut first_listing_judged = false;
    loop {
        let stopping =
            agon_engine::interrupt::stop_asked().is_some() || options.stop.load(Ordering::SeqCst);
        if stopping && !stop_said {
            stop_said = true;
            eprintln!(
                "agon: stop asked: finishing {in_flight} game(s) in flight ({} in the journal); \
                 a second signal abandons them",
                state.standings.games()
            );
        }
        let wanted = options
            .games
            .is_none_or(|n| state.standings.games() + (in_flight as u64) < n);
        while first_listing_judged && !stopping && wanted && in_flight < options.concurrency {
            let active: Vec<&str> = state
                .slots
                .active()
                .iter()
                .map(|b| b.slot.as_str())
                .collect();
            let Some(group) = state.pairing.next_group(&active, seats) else {
                if !waiting_said && !options.quiet {
                    eprintln!(
                        "agon: waiting for builds: {} slot(s) with a valid build, a game needs {seats}",
                        active.len()
                    );
                }
                waiting_said = true;
                break;
            };
            waiting_said = false;
            let builds = group
                .iter()
                .map(|slot| {
                    state
                        .slots
                        .current(slot)
                        .expect("paired slots are active")
                        .clone()
                })
                .collect();
            let job = Job {
                number: *next_number,
                seed: stream(options.seed, *next_number),
                builds,
            };
            *next_number += 1;
            in_flight += 1;
            jobs.send(job)
                .map_err(|_| "the workers stopped".to_string())?;
            if options
                .games
                .is_some_and(|n| state.standings.games() + (in_flight as u64) >= n)
            {
                break;
            }
        }
        if in_flight == 0 && (stopping || !wanted) {
            return Ok(());
        }
        select! {
            recv(done) -> finished => {
                let Ok(finished) = finished else { return Err("the workers stopped".into()) };
                in_flight -= 1;
                match finished {
                    Done::Game(game) => {
                        failures_in_a_row = 0;
                        journal.append(game.as_ref())?;
                        state.record(&game);
                        *played += 1;
                        state.write(&options.out)?;
                        if !options.quiet {
                            eprintln!("{}", name(&describe(&game)));
                        }
                    }
                    Done::Unplayed { slots, why } => {
                        let slots: Vec<&str> = slots.iter().map(String::as_str).collect();
                        state.pairing.uncount(&slots);
                        if agon_engine::interrupt::requested().is_none() {
                            log::warn!("a game of {} was not finished: {why}", slots.join(", "));
                        }
                    }
                    Done::Failed { slots, why } => {
                        let slots: Vec<&str> = slots.iter().map(String::as_str).collect();
                        state.pairing.uncount(&slots);
                        log::error!("{}", name(&why));
                        failures_in_a_row += 1;
                        if failures_in_a_row >= FAILURES_IN_A_ROW {
                            return Err(format!(
                                "{FAILURES_IN_A_ROW} games in a row could not be set up; the \
                                 last: {why}"
                            ));
                        }
                    }
                }
            }
            recv(verdicts) -> verdict => {
                let Ok(verdict) = verdict else {
                    return Err("the folder watcher stopped".into());
                };
                first_listing_judged |= matches!(verdict, Verdict::FirstListingJudged);
                take_verdict(options, state, events, verdict)?;
                state.write(&options.out)?;
            }
            default(Duration::from_millis(200)) => {}
        }
    }
}

fn take_verdict(
    options: &LadderOptions,
    state: &mut State,
    events: &mut EventLog,
    verdict: Verdict,
) -> Result<(), String> {
    let (slot, sha256, reason) = match verdict {
        Verdict::FirstListingJudged => return Ok(()),
        Verdict::Removed { slot } => {
            if state.slots.retire(&slot) {
                state.sparring.set(&slot, None);
                events.append(Event::Retired { slot: slot.clone() })?;
                if !options.quiet {
                    eprintln!("agon: {}: file removed, slot retired", name(&slot));
                }
            }
            return Ok(());
        }
        Verdict::Refused {
            slot,
            sha256,
            reason,
        } => (slot, sha256, reason),
        Verdict::Accepted(Validated {
            mut build,
            smoke,
            validation_ms,
        }) => {
            let in_process = !matches!(options.hosting.kind, agon_engine::host::HostKind::Process);
            let loaded = state.slots.loaded_with(&build.slot, &build.sha256);
            if in_process && loaded > options.max_builds_in_process {
                (
                    build.slot.clone(),
                    Some(build.sha256.clone()),
                    format!(
                        "the {} host never unloads a library, and this slot has loaded {} \
                         builds in this run (--max-builds-in-process); restart the ladder to \
                         take more, or run it on the process host",
                        options.hosting.kind, options.max_builds_in_process
                    ),
                )
            } else {
                build.version = state.slots.number(&build);
                if state
                    .slots
                    .current(&build.slot)
                    .is_some_and(|c| c.sha256 == build.sha256)
                {
                    return Ok(()); // the same content again (a touched file)
                }
                events.append(Event::Accepted {
                    build: build.clone(),
                    smoke,
                    validation_ms,
                })?;
                if !options.quiet {
                    eprintln!(
                        "agon: {}: build v{} accepted (sha256 {}, {} {}, bot {}; validated in \
                         {validation_ms:.0} ms)",
                        name(&build.slot),
                        build.version,
                        &build.sha256[..12.min(build.sha256.len())],
                        name(&build.plugin),
                        name(&build.plugin_version),
                        name(&build.bot_text()),
                    );
                }
                state.sparring.set(&build.slot, Some(build.spec()));
                state.slots.make_current(build);
                return Ok(());
            }
        }
    };
    log::warn!(
        "{}: build refused, the slot keeps its last good build: {}",
        name(&slot),
        name(&reason)
    );
    events.append(Event::Refused {
        slot: slot.clone(),
        sha256: sha256.clone(),
        reason: reason.clone(),
    })?;
    state.standings.refused(RefusedBuild {
        unix_ms: unix_ms(),
        slot,
        sha256,
        reason,
    });
    Ok(())
}

fn validate_arrivals(validator: &Validator, arrivals: Receiver<Arrival>, to: Sender<Verdict>) {
    for arrival in arrivals {
        let verdict = match arrival {
            Arrival::Candidate(candidate) => match validator.validate(&candidate) {
                Ok(validated) => Verdict::Accepted(validated),
                Err(refusal) => Verdict::Refused {
                    slot: candidate.slot,
                    sha256: refusal.sha256,
                    reason: refusal.reason,
                },
            },
            Arrival::Unusable { slot, reason } => Verdict::Refused {
                slot,
                sha256: None,
                reason,
            },
            Arrival::Removed { slot } => Verdict::Removed { slot },
            Arrival::FirstListingDone => Verdict::FirstListingJudged,
        };
        if to.send(verdict).is_err() {
            return;
        }
    }
}

/// Plays one game and writes its record.
fn play(job: Job, options: &LadderOptions) -> Done {
    let slots: Vec<String> = job.builds.iter().map(|b| b.slot.clone()).collect();
    let failed = |why: String| Done::Failed {
        slots: slots.clone(),
        why,
    };
    let registry = Registry::builtin();
    let rules = match registry.get(&options.game) {
        Ok(r) => r,
        Err(e) => return failed(e.to_string()),
    };
    let started_unix_ms = unix_ms();
    let mut seats = Vec::new();
    for (seat, build) in job.builds.iter().enumerate() {
        match seating::seat_retrying(&build.spec(), seat, rules, &options.hosting) {
            Ok(placed) if placed.record.sha256 == build.sha256 => seats.push(placed),
            Ok(placed) => {
                return failed(format!(
                    "game {}: the copy of {} at {} holds sha256 {}, not {}",
                    job.number,
                    build.label(),
                    build.copy.display(),
                    placed.record.sha256,
                    build.sha256
                ))
            }
            Err(e) => {
                return failed(format!(
                    "game {}: cannot seat {}: {e}",
                    job.number,
                    build.label()
                ))
            }
        }
    }
    let settings = MatchSettings {
        params: options.params.clone(),
        seed: job.seed,
        seed_secret: options.seed_secret,
        budgets: options.budgets,
        fault_policy: options.fault_policy,
    };
    let t0 = Instant::now();
    let record = match run_match(rules, &settings, seats) {
        Ok(r) => r,
        Err(MatchError::Interrupted(why)) => return Done::Unplayed { slots, why },
        Err(e) => return failed(format!("game {}: {e}", job.number)),
    };
    let game_ms = t0.elapsed().as_secs_f64() * 1000.0;
    let game = LadderGame::new(
        job.number,
        job.builds.iter().map(Build::seat).collect(),
        &record,
        game_ms,
        (started_unix_ms, unix_ms()),
    );
    let path = options
        .out
        .join("records")
        .join(format!("{}.json", game.id));
    if let Err(e) = record.write(&path) {
        return failed(format!("{}: {e}", path.display()));
    }
    Done::Game(Box::new(game))
}

/// One line per game: `game 12: a.so v1 1 : 0 b.so v2 (white reached ...)`.
fn describe(game: &LadderGame) -> String {
    let seats: Vec<String> = game
        .seats
        .iter()
        .zip(&game.scores)
        .map(|(s, points)| format!("{} v{} {points}", s.slot, s.version))
        .collect();
    let faults = if game.faults.is_empty() {
        String::new()
    } else {
        format!("; {} fault(s)", game.faults.len())
    };
    format!(
        "game {}: {} ({}{faults})",
        game.number,
        seats.join(" - "),
        game.reason
    )
}

/// The `n`th number of the ladder seed's stream: game seeds and the pairing's tie-breaks.
fn stream(seed: u64, n: u64) -> u64 {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    rng.set_stream(n);
    rng.next_u64()
}
