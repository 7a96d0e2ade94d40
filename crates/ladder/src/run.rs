//! The ladder's loop. Four kinds of threads: the intake watches the folder, the validator tries
//! each candidate build in process hosts, the workers play games, and the main thread (this
//! loop) owns everything that is written: it numbers and accepts builds, pairs slots, appends
//! each finished game to the journal (fsync) and rewrites the standings.
//!
//! A game is seated with the builds that are current when it is scheduled and keeps them to its
//! end, however many builds arrive meanwhile; every build is loaded from its content-addressed
//! copy, never from the watched folder.

use super::board::{self, Board, RefusedBuild};
use super::builds::Slots;
use super::entry::{LadderGame, SeatBuild};
use super::events::{unix_ms, Event, EventLog, Logged};
use super::game_pages;
use super::pairing::Pairing;
use super::restore::{LastVerdict, Restored};
use crate::{GameNotPlayed, LadderError};
use agon_engine::BotSpec;
use agon_engine::Hosting;
use agon_engine::SeedSecret;
use agon_engine::{OnPath, PathError};
use agon_games::contract::{GameRules, RawParams};
use agon_games::registry::Registry;
use agon_play::console::name;
use agon_play::game_runner::{self, seat_count, PinnedBot, Played};
use agon_play::journal::Journal;
use agon_play::match_profile::MatchProfile;
use agon_play::record_files;
use agon_play::standings::weng_lin::Ratings;
use agon_play::stop::Stop;
use agon_play::swap::build::Build;
use agon_play::swap::intake::{Arrival, Intake};
use agon_play::swap::sparring::Sparring;
use agon_play::swap::validation::{Validated, Validator};
use agon_play::view::game_files;
use agon_play::worker_pool;
use crossbeam_channel::{select, unbounded, Receiver, Sender};
use rand::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
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
    /// Every game's budgets, clock and fault policy, the validation games' too (its host and
    /// sandbox are resolved into `hosting` and `validation`).
    pub profile: MatchProfile,
    /// How games are hosted.
    pub hosting: Hosting,
    /// How candidate builds are validated: always process hosts.
    pub validation: Hosting,
    pub configured: BTreeMap<String, BotSpec>,
    pub quiet: bool,
    /// Asked by the caller to stop the ladder as a stop signal would (benchmarks, embedding).
    pub stop: Arc<Stop>,
    /// Told (without waiting) after every line the ladder appends to its journal or events,
    /// for whoever follows them (the portal) without looking on a timer.
    pub written: Option<Sender<()>>,
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
        why: GameNotPlayed,
    },
}

/// What the validator reports, with the inode of the file judged.
enum Verdict {
    Accepted(Validated, u64),
    Refused {
        slot: String,
        sha256: Option<String>,
        reason: String,
        inode: Option<u64>,
    },
    Removed {
        slot: String,
    },
    /// Found at the start with the content judged before the restart: the same verdict again.
    Unchanged {
        slot: String,
        earlier: LastVerdict,
        inode: u64,
    },
    /// The builds found at the start have all been judged: pairing may begin (so the first
    /// games are not all among the slots that happened to be validated first).
    FirstListingJudged,
}

pub fn run(options: &LadderOptions) -> Result<Summary, LadderError> {
    let registry = Registry::builtin();
    let rules = registry.get(&options.game)?;
    let seats = seat_count(rules, &options.params)?;
    let mut ladder = Ladder::open(options, rules, seats)?;
    let started = Instant::now();
    let outcome = ladder.run_until_stopped(rules);
    ladder.finish(outcome, started)
}

struct State {
    slots: Slots,
    ratings: Ratings,
    standings: Board,
    pairing: Pairing,
    /// The current builds, as the validator sees them (a candidate's opponents).
    sparring: Arc<Sparring>,
}

impl State {
    fn record(&mut self, game: &LadderGame) {
        let builds: Vec<(&str, u32)> = game
            .seats
            .iter()
            .map(|s| (s.slot.as_str(), s.version))
            .collect();
        self.ratings.update(&builds, &game.result.ranks);
        self.standings.record(game);
        let slots: Vec<&str> = game.seats.iter().map(|s| s.slot.as_str()).collect();
        self.pairing.count(&slots);
    }

    fn write(&self, out: &Path) -> Result<(), PathError> {
        self.standings.write(out, &self.slots, &self.ratings)
    }

    /// Takes back the build numbers and refusals of earlier runs.
    fn replay_events(&mut self, earlier: Vec<Logged>) {
        for logged in earlier {
            match logged.event {
                Event::Accepted { build, .. } => {
                    self.slots
                        .remember(&build.slot, &build.sha256, build.version)
                }
                Event::Refused {
                    slot,
                    sha256,
                    reason,
                    ..
                } => self.standings.refused(RefusedBuild {
                    unix_ms: logged.unix_ms,
                    slot,
                    sha256,
                    reason,
                }),
                _ => {}
            }
        }
    }

    /// Takes back the games of earlier runs; returns the number of the next game.
    fn replay_games(&mut self, earlier: &[LadderGame]) -> u64 {
        let mut next_number = 1;
        for game in earlier {
            for seat in &game.seats {
                self.slots.remember(&seat.slot, &seat.sha256, seat.version);
            }
            self.record(game);
            next_number = next_number.max(game.number + 1);
        }
        next_number
    }
}

/// What the main thread owns while the ladder runs: everything that is written, and the loop's
/// own bookkeeping.
struct Ladder<'a> {
    options: &'a LadderOptions,
    seats: usize,
    state: State,
    journal: Journal,
    events: EventLog,
    next_number: u64,
    /// Games played in this run.
    played: u64,
    in_flight: usize,
    failures_in_a_row: usize,
    /// Each of these messages is said once until the situation changes.
    waiting_said: bool,
    stop_said: bool,
    first_listing_judged: bool,
    /// The last verdict on each slot's content before this run: repeated, not judged anew,
    /// for the same content found at the start.
    judged_before: BTreeMap<String, LastVerdict>,
}

impl<'a> Ladder<'a> {
    /// Opens the output folder and continues what earlier runs left in it.
    fn open(
        options: &'a LadderOptions,
        rules: &dyn GameRules,
        seats: usize,
    ) -> Result<Ladder<'a>, LadderError> {
        let out = &options.out;
        let records = record_files::folder(out);
        std::fs::create_dir_all(&records).on_path(&records)?;
        let (journal, earlier) = Journal::open::<LadderGame>(out, &|g: &LadderGame| g.check())?;
        let (mut events, earlier_events) = EventLog::open(out)?;
        let mut state = State {
            slots: Slots::default(),
            ratings: Ratings::default(),
            standings: Board::new(rules.name(), &options.params),
            pairing: Pairing::new(stream(options.seed, u64::MAX - earlier.len() as u64)),
            sparring: Arc::new(Sparring::default()),
        };
        let mut restored = Restored::from_events(&earlier_events);
        state.replay_events(earlier_events);
        let next_number = state.replay_games(&earlier);
        for (slot, why) in restored.keep_playable(&options.dir, &options.configured) {
            log::warn!(
                "{}: its last accepted build does not play on: {}",
                name(&slot),
                name(&why)
            );
        }
        for build in std::mem::take(&mut restored.current).into_values() {
            if !options.quiet {
                eprintln!(
                    "agon: {}: plays on with v{}",
                    name(&build.slot),
                    build.version
                );
            }
            state.sparring.set(&build.slot, Some(build.spec()));
            state.slots.make_current(build);
        }
        game_files::write_viewer(out, rules.name())?;
        game_pages::write_missing(out, &board::title(rules.name()), state.standings.latest());
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
        Ok(Ladder {
            options,
            seats,
            state,
            journal,
            events,
            next_number,
            played: 0,
            in_flight: 0,
            failures_in_a_row: 0,
            waiting_said: false,
            stop_said: false,
            first_listing_judged: false,
            judged_before: restored.last,
        })
    }

    /// Tells whoever follows the ladder's files that a line was appended.
    fn told(&self) {
        if let Some(written) = &self.options.written {
            let _ = written.try_send(());
        }
    }

    fn append_event(&mut self, event: Event) -> Result<(), PathError> {
        self.events.append(event)?;
        self.told();
        Ok(())
    }

    /// Runs the intake, the validator and the workers, and the main loop on this thread, until
    /// the ladder stops.
    fn run_until_stopped(&mut self, rules: &dyn GameRules) -> Result<(), LadderError> {
        let options = self.options;
        let stop = Stop::default();
        let (arrivals_tx, arrivals_rx) = unbounded::<Arrival>();
        let (verdicts_tx, verdicts_rx) = unbounded::<Verdict>();
        let (jobs_tx, jobs_rx) = unbounded::<Job>();
        let (done_tx, done_rx) = unbounded::<Done>();
        let validator = Validator {
            game: rules.name().to_string(),
            params: options.params.clone(),
            profile: options.profile.clone(),
            hosting: options.hosting.clone(),
            inspection: options.validation.clone(),
            configured: options.configured.clone(),
            seed_secret: options.seed_secret,
            sparring: self.state.sparring.clone(),
        };
        let work = |job: Job, done: &Sender<Done>| done.send(play(job, options)).is_ok();
        std::thread::scope(|scope| -> Result<(), LadderError> {
            let intake = Intake::new(&options.dir, options.settle);
            let intake_stop = &stop;
            let watching = std::thread::Builder::new()
                .name("ladder-intake".into())
                .spawn_scoped(scope, move || intake.run(arrivals_tx, intake_stop))
                .map_err(LadderError::thread("the folder watcher"))?;
            let judged_before = std::mem::take(&mut self.judged_before);
            std::thread::Builder::new()
                .name("ladder-validator".into())
                .spawn_scoped(scope, move || {
                    validate_arrivals(&validator, judged_before, arrivals_rx, verdicts_tx)
                })
                .map_err(LadderError::thread("the validator"))?;
            let channels = (&jobs_rx, &done_tx);
            worker_pool::start(scope, "ladder", options.concurrency, channels, &work)
                .map_err(LadderError::thread("a worker"))?;
            drop(done_tx);
            let result = self.main_loop((&jobs_tx, &done_rx, &verdicts_rx));
            stop.request();
            drop(jobs_tx);
            // The watcher's own error explains a "stopped" one better.
            match watching.join() {
                Ok(Err(e)) => Err(e.into()),
                Err(_) => Err(LadderError::WatcherPanicked),
                Ok(Ok(())) => result,
            }
        })
    }

    /// Logs why the ladder stopped and writes the standings a last time.
    fn finish(
        mut self,
        outcome: Result<(), LadderError>,
        started: Instant,
    ) -> Result<Summary, LadderError> {
        let failure = outcome.err();
        let stopped_by = agon_engine::interrupt::stop_asked();
        let why = match (stopped_by, &failure) {
            (_, Some(e)) => e.to_string(),
            (Some(signal), None) => format!("stopped by {}", agon_engine::interrupt::name(signal)),
            (None, None) => "the games asked for were played".into(),
        };
        self.append_event(Event::Stopped {
            games: self.state.standings.games(),
            why,
        })?;
        self.state.write(&self.options.out)?;
        if let Some(e) = failure {
            return Err(e);
        }
        Ok(Summary {
            games: self.state.standings.games(),
            played: self.played,
            seconds: started.elapsed().as_secs_f64(),
            stopped_by,
        })
    }

    /// Sleeps until a game ends, a verdict comes or a stop is asked: an idle ladder does
    /// nothing on a timer.
    fn main_loop(
        &mut self,
        (jobs, done, verdicts): (&Sender<Job>, &Receiver<Done>, &Receiver<Verdict>),
    ) -> Result<(), LadderError> {
        let signals = agon_engine::interrupt::subscribe();
        let never = crossbeam_channel::never();
        loop {
            let stopping = self.stopping();
            let wanted = self
                .options
                .games
                .is_none_or(|n| self.state.standings.games() + (self.in_flight as u64) < n);
            if self.first_listing_judged && !stopping && wanted {
                self.start_games(jobs)?;
            }
            if self.in_flight == 0 && (stopping || !wanted) {
                return Ok(());
            }
            select! {
                recv(done) -> finished => {
                    let Ok(finished) = finished else { return Err(LadderError::Stopped("workers")) };
                    self.take_finished(finished)?;
                }
                recv(verdicts) -> verdict => {
                    let Ok(verdict) = verdict else {
                        return Err(LadderError::Stopped("folder watcher"));
                    };
                    self.first_listing_judged |= matches!(verdict, Verdict::FirstListingJudged);
                    self.take_verdict(verdict)?;
                    self.state.write(&self.options.out)?;
                }
                recv(signals) -> _ => {}
                // Once stopping, the stop is known and would only wake the loop again and again.
                recv(if stopping { &never } else { self.options.stop.receiver() }) -> _ => {}
            }
        }
    }

    /// Whether a stop was asked (a signal, or the caller's flag); says so once.
    fn stopping(&mut self) -> bool {
        let stopping =
            agon_engine::interrupt::stop_asked().is_some() || self.options.stop.is_requested();
        if stopping && !self.stop_said {
            self.stop_said = true;
            eprintln!(
                "agon: stop asked: finishing {} game(s) in flight ({} in the journal); a second \
                 signal abandons them",
                self.in_flight,
                self.state.standings.games()
            );
        }
        stopping
    }

    /// Starts games until every worker has one, no group of slots can play, or the games asked
    /// for are all started.
    fn start_games(&mut self, jobs: &Sender<Job>) -> Result<(), LadderError> {
        let options = self.options;
        while self.in_flight < options.concurrency {
            let active: Vec<&str> = self
                .state
                .slots
                .active()
                .iter()
                .map(|b| b.slot.as_str())
                .collect();
            let Some(group) = self.state.pairing.next_group(&active, self.seats) else {
                if !self.waiting_said && !options.quiet {
                    eprintln!(
                        "agon: waiting for builds: {} slot(s) with a valid build, a game needs {}",
                        active.len(),
                        self.seats
                    );
                }
                self.waiting_said = true;
                break;
            };
            self.waiting_said = false;
            let builds = group
                .iter()
                .map(|slot| {
                    self.state
                        .slots
                        .current(slot)
                        .expect("paired slots are active")
                        .clone()
                })
                .collect();
            let job = Job {
                number: self.next_number,
                seed: stream(options.seed, self.next_number),
                builds,
            };
            self.next_number += 1;
            self.in_flight += 1;
            jobs.send(job)
                .map_err(|_| LadderError::Stopped("workers"))?;
            if options
                .games
                .is_some_and(|n| self.state.standings.games() + (self.in_flight as u64) >= n)
            {
                break;
            }
        }
        Ok(())
    }

    /// Journals a finished game, or gives its slots' turn back when it was not played.
    fn take_finished(&mut self, finished: Done) -> Result<(), LadderError> {
        self.in_flight -= 1;
        match finished {
            Done::Game(game) => {
                self.failures_in_a_row = 0;
                self.journal.append(game.as_ref())?;
                self.told();
                self.state.record(&game);
                self.played += 1;
                self.state.write(&self.options.out)?;
                if !self.options.quiet {
                    eprintln!("{}", name(&describe(&game)));
                }
            }
            Done::Unplayed { slots, why } => {
                let slots: Vec<&str> = slots.iter().map(String::as_str).collect();
                self.state.pairing.uncount(&slots);
                if agon_engine::interrupt::requested().is_none() {
                    log::warn!("a game of {} was not finished: {why}", slots.join(", "));
                }
            }
            Done::Failed { slots, why } => {
                let slots: Vec<&str> = slots.iter().map(String::as_str).collect();
                self.state.pairing.uncount(&slots);
                log::error!("{}", name(&why.to_string()));
                self.failures_in_a_row += 1;
                if self.failures_in_a_row >= FAILURES_IN_A_ROW {
                    return Err(LadderError::SetUpFailed {
                        count: FAILURES_IN_A_ROW,
                        last: why,
                    });
                }
            }
        }
        Ok(())
    }

    /// Acts on the validator's verdict on a build: the slot takes it, keeps its last good build,
    /// or is retired.
    fn take_verdict(&mut self, verdict: Verdict) -> Result<(), PathError> {
        match verdict {
            Verdict::FirstListingJudged => Ok(()),
            Verdict::Removed { slot } => self.retire(slot),
            Verdict::Refused {
                slot,
                sha256,
                reason,
                inode,
            } => self.refuse(slot, sha256, reason, inode),
            Verdict::Accepted(validated, inode) => self.accept(validated, inode),
            Verdict::Unchanged {
                slot,
                earlier,
                inode,
            } => self.repeat(slot, earlier, inode),
        }
    }

    /// Says again what was said of the content found in `slot` before the restart (the slot
    /// already plays on with its last accepted build).
    fn repeat(&mut self, slot: String, earlier: LastVerdict, inode: u64) -> Result<(), PathError> {
        let inode = Some(inode);
        let event = match earlier {
            LastVerdict::Accepted(build) => Event::Accepted {
                build,
                smoke: vec![AGAIN.into()],
                validation_ms: 0.0,
                inode,
            },
            LastVerdict::Refused { sha256, reason } => Event::Refused {
                slot,
                sha256,
                reason,
                inode,
            },
        };
        self.append_event(event)
    }

    fn retire(&mut self, slot: String) -> Result<(), PathError> {
        if self.state.slots.retire(&slot) {
            self.state.sparring.set(&slot, None);
            self.append_event(Event::Retired { slot: slot.clone() })?;
            if !self.options.quiet {
                eprintln!("agon: {}: file removed, slot retired", name(&slot));
            }
        }
        Ok(())
    }

    /// Makes a validated build its slot's current one, unless an in-process host has loaded
    /// as many of the slot's builds as it may.
    fn accept(&mut self, validated: Validated, inode: u64) -> Result<(), PathError> {
        let Validated {
            mut build,
            smoke,
            validation_ms,
        } = validated;
        let options = self.options;
        let in_process = options.hosting.kind.in_process();
        let loaded = self.state.slots.loaded_with(&build.slot, &build.sha256);
        if in_process && loaded > options.max_builds_in_process {
            let reason = format!(
                "the {} host never unloads a library, and this slot has loaded {} builds in this \
                 run (--max-builds-in-process); restart the ladder to take more, or run it on the \
                 process host",
                options.hosting.kind, options.max_builds_in_process
            );
            return self.refuse(build.slot, Some(build.sha256), reason, Some(inode));
        }
        build.version = self.state.slots.number(&build);
        let unchanged = self
            .state
            .slots
            .current(&build.slot)
            .is_some_and(|c| c.sha256 == build.sha256);
        // Said even for the content the slot plays already (a touched file, a team's upload of
        // the same build): whoever put the file there learns what became of it.
        self.append_event(Event::Accepted {
            build: build.clone(),
            smoke,
            validation_ms,
            inode: Some(inode),
        })?;
        if unchanged {
            return Ok(());
        }
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
        self.state.sparring.set(&build.slot, Some(build.spec()));
        self.state.slots.make_current(build);
        Ok(())
    }

    /// The slot keeps its last good build; the refusal is logged and shown in the standings.
    fn refuse(
        &mut self,
        slot: String,
        sha256: Option<String>,
        reason: String,
        inode: Option<u64>,
    ) -> Result<(), PathError> {
        log::warn!(
            "{}: build refused, the slot keeps its last good build: {}",
            name(&slot),
            name(&reason)
        );
        self.append_event(Event::Refused {
            slot: slot.clone(),
            sha256: sha256.clone(),
            reason: reason.clone(),
            inode,
        })?;
        self.state.standings.refused(RefusedBuild {
            unix_ms: unix_ms(),
            slot,
            sha256,
            reason,
        });
        Ok(())
    }
}

/// What a repeated verdict's validation says of itself.
const AGAIN: &str = "not validated again: the same content was accepted before the restart";

/// Judges each arrival in turn. Every verdict names the content it judged, when there was
/// any to read, so that a verdict never lands on another file's upload.
fn validate_arrivals(
    validator: &Validator,
    mut judged_before: BTreeMap<String, LastVerdict>,
    arrivals: Receiver<Arrival>,
    to: Sender<Verdict>,
) {
    for arrival in arrivals {
        let verdict = match arrival {
            Arrival::Candidate(candidate) => {
                let sha256 = agon_engine::loader::sha256_hex(&candidate.bytes);
                let earlier = judged_before
                    .remove(&candidate.slot)
                    .filter(|earlier| earlier.sha256() == Some(sha256.as_str()));
                match earlier {
                    Some(earlier) => Verdict::Unchanged {
                        slot: candidate.slot,
                        earlier,
                        inode: candidate.inode,
                    },
                    None => match validator.validate(&candidate) {
                        Ok(validated) => Verdict::Accepted(validated, candidate.inode),
                        Err(refusal) => Verdict::Refused {
                            slot: candidate.slot,
                            sha256: refusal.sha256.or(Some(sha256)),
                            reason: refusal.reason,
                            inode: Some(candidate.inode),
                        },
                    },
                }
            }
            Arrival::Unusable {
                slot,
                sha256,
                inode,
                reason,
            } => Verdict::Refused {
                slot,
                sha256,
                reason,
                inode: Some(inode),
            },
            Arrival::Removed { slot } => Verdict::Removed { slot },
            Arrival::FirstListingDone => {
                judged_before.clear(); // later files are new versions: judged anew
                Verdict::FirstListingJudged
            }
        };
        if to.send(verdict).is_err() {
            return;
        }
    }
}

/// Plays one game and writes its record.
fn play(job: Job, options: &LadderOptions) -> Done {
    let slots: Vec<String> = job.builds.iter().map(|b| b.slot.clone()).collect();
    let failed = |why: GameNotPlayed| Done::Failed {
        slots: slots.clone(),
        why,
    };
    let registry = Registry::builtin();
    let rules = match registry.get(&options.game) {
        Ok(r) => r,
        Err(e) => return failed(e.into()),
    };
    let started_unix_ms = unix_ms();
    let bots: Vec<PinnedBot> = job
        .builds
        .iter()
        .map(|build| PinnedBot {
            spec: build.spec(),
            sha256: build.sha256.clone(),
            name: build.label(),
            crash_label: None,
        })
        .collect();
    let settings =
        options
            .profile
            .match_settings(options.params.clone(), job.seed, options.seed_secret);
    let what = format!("game {}", job.number);
    let (record, time) = match game_runner::play(rules, &options.hosting, &bots, &settings, &what) {
        Played::Game { record, time } => (record, time),
        Played::Unplayed(why) => return Done::Unplayed { slots, why },
        Played::Failed(why) => return failed(GameNotPlayed::Runner(why)),
    };
    let game = LadderGame::new(
        job.number,
        job.builds.iter().map(SeatBuild::of).collect(),
        &record,
        time,
        (started_unix_ms, unix_ms()),
    );
    let path = record_files::path(&options.out, &game.id);
    if let Err(e) = record.write(&path).on_path(&path) {
        return failed(e.into());
    }
    // The game counts without its viewer: the ladder page then lists it without a link.
    let ladder = board::title(rules.name());
    if let Err(e) = game_pages::write_data(&options.out, &ladder, &game, &record) {
        log::warn!("no viewer for {}: {e}", game.id);
    }
    Done::Game(Box::new(game))
}

/// One line per game: `game 12: a.so v1 1 : 0 b.so v2 (white reached ...)`.
fn describe(game: &LadderGame) -> String {
    let seats: Vec<String> = game
        .seats
        .iter()
        .zip(&game.result.scores)
        .map(|(s, points)| format!("{} v{} {points}", s.slot, s.version))
        .collect();
    let faults = if game.result.faults.is_empty() {
        String::new()
    } else {
        format!("; {} fault(s)", game.result.faults.len())
    };
    format!(
        "game {}: {} ({}{faults})",
        game.number,
        seats.join(" - "),
        game.result.reason
    )
}

/// The `n`th number of the ladder seed's stream: game seeds and the pairing's tie-breaks.
fn stream(seed: u64, n: u64) -> u64 {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    rng.set_stream(n);
    rng.next_u64()
}
