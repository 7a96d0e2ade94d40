//! Playing a plan: a pool of worker threads plays the games not yet in the journal; the main
//! thread appends each finished game to the journal (fsync) and moves the progress bar.

use super::builds::Builds;
use super::entry::Entry;
use super::format::results_by_id;
use super::in_flight;
use super::plan::{GameSpec, Plan};
use crate::TournamentError;
use agon_engine::CrashLabel;
use agon_engine::Hosting;
use agon_engine::MatchRecord;
use agon_engine::MatchSettings;
use agon_engine::SeedSecret;
use agon_engine::{OnPath, PathError};
use agon_games::registry::Registry;
use agon_play::console;
use agon_play::game_runner::{self, PinnedBot, Played};
use agon_play::journal::{Journal, JournalError};
use agon_play::record_files;
use agon_play::stop::{Stop, StopOnDrop};
use agon_play::worker_pool;
use crossbeam_channel::{bounded, unbounded, Receiver, Sender};
use indicatif::{ProgressBar, ProgressStyle};
use std::collections::{BTreeMap, HashSet};
use std::path::Path;
use std::time::Instant;

pub struct RunOptions {
    pub concurrency: usize,
    pub quiet: bool,
    /// Take new builds of the entrants' files while the games run (see `watch`).
    pub watch: bool,
}

/// What a run did.
#[derive(Debug)]
pub struct RunSummary {
    /// Games of this run's share (the shard, or all).
    pub planned: usize,
    /// Of those, already in the journal when the run started.
    pub already_done: usize,
    pub played: usize,
    pub seconds: f64,
}

/// A game cut short through nobody's fault among its bots (a bot's process killed or stopped
/// from outside the engine, not by the stop signal the engine itself got; a bot the machine
/// starved of a CPU) is played this often before the run gives up on it for now.
const EXTERNAL_KILL_ATTEMPTS: usize = 3;

enum Done {
    Game(Box<Entry>),
    /// Not finished, through nobody's fault among its bots (see `MatchError::Interrupted`):
    /// nothing is recorded, and `resume` plays it.
    Unplayed {
        id: String,
        why: String,
    },
    Failed(TournamentError),
}

pub fn execute(
    plan: &Plan,
    dir: &Path,
    options: &RunOptions,
) -> Result<RunSummary, TournamentError> {
    let secret = seed_secret(plan, dir)?;
    let (journal, entries) = Journal::open(dir, &plan.entry_check())?;
    let share = share(plan);
    let done: HashSet<&str> = entries.iter().map(|e| e.id.as_str()).collect();
    let in_process = plan.settings.profile.host.in_process();
    let crashes = if in_process {
        crashes_so_far(plan, dir, &done)?
    } else {
        Vec::new()
    };
    let excluded = in_flight::entrants_to_exclude(&crashes);
    warn_excluded(&excluded);
    let todo = games_to_play(&share, &done, &in_flight::crashed_games(&crashes));
    let already_done = share.len() - todo.len();
    let hosting = plan.settings.profile.hosting()?;
    // The planned builds, whatever the entrants' files hold now.
    let builds = Builds::planned(plan, secret, &hosting.cache)?;
    let records = record_files::folder(dir);
    std::fs::create_dir_all(&records).on_path(&records)?;

    let mut recorder = Recorder::new(plan, journal, &entries, share.len(), already_done, options);
    let started = Instant::now();
    // An excluded entrant's games are forfeits, journalled without being played.
    let (todo, forfeits): (Vec<GameSpec>, Vec<GameSpec>) = todo
        .into_iter()
        .partition(|g| excluded_seat(plan, g, &excluded).is_none());
    for game in &forfeits {
        recorder.forfeit(game, &excluded)?;
    }
    // No more workers than games: idle threads (and their hosts) help no one.
    let workers = options.concurrency.clamp(1, todo.len().max(1));
    if in_process {
        in_flight::watch_for_crashes(dir)?;
    }
    let games = Games {
        plan,
        dir,
        secret,
        hosting,
        builds,
        in_process,
        watch: options.watch,
    };
    games.play_all(todo, workers, &mut recorder);
    recorder.bar.finish_and_clear();
    recorder.summary(dir, share.len(), already_done, started)
}

/// Plays the plan and, for a format that lays out a step at a time (a Swiss round, a batch of
/// SPRT pairs), each next step once every game of the last has its result; the plan is
/// written before a step's first game, so `resume` picks up where a stop left off.
pub fn execute_steps(
    plan: &mut Plan,
    dir: &Path,
    options: &RunOptions,
) -> Result<RunSummary, TournamentError> {
    let registry = Registry::builtin();
    let mut total = execute(plan, dir, options)?;
    loop {
        let entries = agon_play::journal::read::<Entry>(dir, &plan.entry_check())?;
        let results = results_by_id(&entries);
        if !plan.lay_out_next(&registry, &results, options.concurrency)? {
            return Ok(total);
        }
        plan.write(dir).on_path(&dir.join("tournament.json"))?;
        let step = execute(plan, dir, options)?;
        total.planned = step.planned;
        total.played += step.played;
        total.seconds += step.seconds;
    }
}

/// The key of the seat seeds; plans made before there was one are not played on.
fn seed_secret(plan: &Plan, dir: &Path) -> Result<SeedSecret, TournamentError> {
    plan.seed_secret
        .ok_or_else(|| TournamentError::NoSeedSecret {
            plan: dir.join("tournament.json"),
        })
}

/// The games of this run's share: the plan's (a shard's plan holds only its own).
fn share(plan: &Plan) -> Vec<&GameSpec> {
    plan.games.iter().collect()
}

fn warn_excluded(excluded: &BTreeMap<String, String>) {
    for (name, reason) in excluded {
        eprintln!(
            "agon: warning: entrant `{}`: {}",
            console::name(name),
            console::name(reason)
        );
    }
}

/// The share's games not yet in the journal, in the order they are played.
fn games_to_play(
    share: &[&GameSpec],
    done: &HashSet<&str>,
    crashed: &BTreeMap<&str, usize>,
) -> Vec<GameSpec> {
    let mut todo: Vec<GameSpec> = share
        .iter()
        .filter(|g| !done.contains(g.id.as_str()))
        .map(|g| (*g).clone())
        .collect();
    // Games that were in flight when the engine died go last, fewest crashes first: the others
    // tell who crashes it.
    todo.sort_by_key(|g| crashed.get(g.id.as_str()).copied().unwrap_or(0));
    todo
}

/// The first seat of `game` held by an excluded entrant, if any.
fn excluded_seat(
    plan: &Plan,
    game: &GameSpec,
    excluded: &BTreeMap<String, String>,
) -> Option<usize> {
    game.seats
        .iter()
        .position(|&e| excluded.contains_key(&plan.entrants[e].name))
}

/// The main thread's side of a run: it alone writes the journal, and it keeps the progress bar
/// and the counts the run ends with.
struct Recorder<'a> {
    plan: &'a Plan,
    journal: Journal,
    bar: ProgressBar,
    /// Each entrant's points so far, for the bar's leader.
    points: BTreeMap<usize, f64>,
    played: usize,
    unplayed: Vec<String>,
    failure: Option<TournamentError>,
}

impl<'a> Recorder<'a> {
    fn new(
        plan: &'a Plan,
        journal: Journal,
        entries: &[Entry],
        planned: usize,
        already_done: usize,
        options: &RunOptions,
    ) -> Recorder<'a> {
        let bar = if options.quiet {
            ProgressBar::hidden()
        } else {
            ProgressBar::new(planned as u64)
        };
        bar.set_style(
            ProgressStyle::with_template(
                "{bar:30} {pos}/{len} games  {per_sec}  ETA {eta}  leader: {msg}",
            )
            .expect("a valid template"),
        );
        bar.set_position(already_done as u64);
        let mut points: BTreeMap<usize, f64> = BTreeMap::new();
        for e in entries {
            tally(&mut points, e);
        }
        bar.set_message(leader(plan, &points));
        Recorder {
            plan,
            journal,
            bar,
            points,
            played: 0,
            unplayed: Vec::new(),
            failure: None,
        }
    }

    /// Journals `game` as lost by its first excluded entrant, without playing it.
    fn forfeit(
        &mut self,
        game: &GameSpec,
        excluded: &BTreeMap<String, String>,
    ) -> Result<(), JournalError> {
        let loser =
            excluded_seat(self.plan, game, excluded).expect("partitioned on an excluded seat");
        let reason = &excluded[&self.plan.entrants[game.seats[loser]].name];
        let entry = in_flight::forfeit_entry(self.plan, game, loser, reason);
        self.journal.append(&entry)?;
        self.count(&entry);
        Ok(())
    }

    fn count(&mut self, entry: &Entry) {
        tally(&mut self.points, entry);
        self.played += 1;
        self.bar.inc(1);
    }

    /// Records the workers' games as they finish, until the workers stop or one fails (a game
    /// that cannot be journalled fails the run too).
    fn take_all(&mut self, results: &Receiver<Done>) {
        for result in results.iter() {
            match result {
                Done::Game(entry) => {
                    if let Err(e) = self.journal.append(entry.as_ref()) {
                        self.failure = Some(e.into());
                        break;
                    }
                    self.count(&entry);
                    self.bar.set_message(leader(self.plan, &self.points));
                }
                Done::Unplayed { id, why } => {
                    if agon_engine::interrupt::requested().is_none() {
                        log::warn!("game {id} was not finished: {why}");
                    }
                    self.unplayed.push(id);
                }
                Done::Failed(e) => {
                    self.failure = Some(e);
                    break;
                }
            }
        }
    }

    /// The run's summary, or why it stopped short and how to go on.
    fn summary(
        self,
        dir: &Path,
        planned: usize,
        already_done: usize,
        started: Instant,
    ) -> Result<RunSummary, TournamentError> {
        let played = self.played;
        let dir = dir.to_path_buf();
        if let Some(signal) = agon_engine::interrupt::requested() {
            return Err(TournamentError::Stopped {
                signal: agon_engine::interrupt::name(signal),
                recorded: already_done + played,
                planned,
                played,
                abandoned: self.unplayed.len(),
                dir,
            });
        }
        if !self.unplayed.is_empty() {
            return Err(TournamentError::KilledFromOutside {
                games: self.unplayed,
                attempts: EXTERNAL_KILL_ATTEMPTS,
                dir,
            });
        }
        if let Some(cause) = self.failure {
            return Err(TournamentError::StoppedShort {
                cause: Box::new(cause),
                played,
                dir,
            });
        }
        Ok(RunSummary {
            planned,
            already_done,
            played,
            seconds: started.elapsed().as_secs_f64(),
        })
    }
}

/// What the worker threads share: how to play any game of the plan.
struct Games<'a> {
    plan: &'a Plan,
    dir: &'a Path,
    secret: SeedSecret,
    hosting: Hosting,
    builds: Builds,
    /// Thread or inline hosts: each game in flight is marked, so that a crash of the engine is
    /// pinned on the games (and bots) that were running.
    in_process: bool,
    /// Entrants' new builds are taken while the games run (see `watch`).
    watch: bool,
}

impl Games<'_> {
    /// Plays `todo` on `workers` threads while `recorder` records the results on this one.
    fn play_all(&self, todo: Vec<GameSpec>, workers: usize, recorder: &mut Recorder) {
        let stop_watching = Stop::default();
        let (jobs_tx, jobs_rx) = bounded::<GameSpec>(workers * 2);
        let (done_tx, done_rx) = unbounded::<Done>();
        let work = |game: GameSpec, done: &Sender<Done>| self.work(game, done);
        std::thread::scope(|scope| {
            let _stop_watching = StopOnDrop(&stop_watching);
            if self.watch {
                let stop = &stop_watching;
                scope.spawn(move || self.watch_builds(stop));
            }
            worker_pool::start(scope, "tournament", workers, (&jobs_rx, &done_tx), &work)
                .expect("a worker thread starts");
            drop(done_tx);
            drop(jobs_rx);
            let feeder = scope.spawn(move || feed(todo, jobs_tx));
            recorder.take_all(&done_rx);
            // On failure, dropping the receiver ends the feeder and the workers after their games.
            drop(done_rx);
            let _ = feeder.join();
            stop_watching.request();
        });
    }

    fn watch_builds(&self, stop: &Stop) {
        if let Err(e) = super::watch::watch(self.plan, &self.builds, stop) {
            eprintln!(
                "agon: warning: --watch: {}; builds are not swapped",
                console::name(&e.to_string())
            );
        }
    }

    /// A worker's game: played and sent, unless the engine is asked to stop; `false` when the
    /// worker should take no other (a stop, a failure, or nobody taking its results).
    fn work(&self, game: GameSpec, done: &Sender<Done>) -> bool {
        if agon_engine::interrupt::requested().is_some() {
            return false; // no new game once the engine is asked to stop
        }
        if self.in_process {
            if let Err(e) = in_flight::mark(self.dir, self.plan, &game) {
                let _ = done.send(Done::Failed(e.into()));
                return false;
            }
        }
        let result = play_again_if_cut_short(&game.id, || self.play(&game));
        if self.in_process {
            in_flight::clear(self.dir, &game.id);
        }
        done.send(result).is_ok()
    }
}

/// Hands the games to the workers, until the engine is asked to stop or nobody takes them.
fn feed(todo: Vec<GameSpec>, jobs: Sender<GameSpec>) {
    for game in todo {
        if agon_engine::interrupt::requested().is_some() || jobs.send(game).is_err() {
            break; // the main thread stopped taking results
        }
    }
}

/// Every death of the engine with games in flight (in-process hosts), telling of the newest.
fn crashes_so_far(
    plan: &Plan,
    dir: &Path,
    recorded: &HashSet<&str>,
) -> Result<Vec<in_flight::Crash>, TournamentError> {
    let (new, crashes) = in_flight::collect_crashes(dir, recorded)?;
    if let Some(crash) = new {
        let games: Vec<String> = crash
            .games
            .iter()
            .map(|g| {
                let names: Vec<_> = g.entrants.iter().map(|n| console::name(n)).collect();
                format!("{} ({})", g.id, names.join(" vs "))
            })
            .collect();
        let blame = match crash.evidence.as_slice() {
            [] => "no bot was in a call on a thread that crashed (a kill from outside, the \
                   out-of-memory killer, a power loss?): nobody is blamed, and the games are \
                   played again"
                .to_string(),
            evidence => format!(
                "the engine's crash handler caught {} in a bot's call",
                evidence
                    .iter()
                    .map(|e| {
                        let entrant = console::name(&e.entrant);
                        format!("entrant `{entrant}` (game {}, seat {})", e.game, e.seat)
                    })
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        };
        eprintln!(
            "agon: warning: the last run died while these games were in flight on the {} \
             host: {}; {blame}",
            plan.settings.profile.host,
            games.join(", ")
        );
    }
    Ok(crashes)
}

/// Plays game `id` with `play_once`, again when an attempt was cut short through nobody's
/// fault among its bots; a recorded game keeps why its earlier attempts were (those of this
/// run: a game given up on and played by `resume` has only the resumed run's).
fn play_again_if_cut_short(id: &str, mut play_once: impl FnMut() -> Done) -> Done {
    let mut cut_short = Vec::new();
    loop {
        match play_once() {
            Done::Unplayed { why, .. }
                if cut_short.len() + 1 < EXTERNAL_KILL_ATTEMPTS
                    && agon_engine::interrupt::requested().is_none() =>
            {
                log::warn!("game {id}: {why}; playing it again");
                cut_short.push(why.chars().take(500).collect());
            }
            Done::Game(mut entry) => {
                entry.result.replayed = cut_short;
                return Done::Game(entry);
            }
            done => return done,
        }
    }
}

impl Games<'_> {
    /// Plays one game of the plan and writes its full record next to the journal.
    fn play(&self, game: &GameSpec) -> Done {
        let plan = self.plan;
        let registry = Registry::builtin();
        let rules = match registry.get(&plan.settings.game) {
            Ok(r) => r,
            Err(e) => return Done::Failed(e.into()),
        };
        let bots = self.pinned(game);
        let settings = match_settings(plan, game, &self.secret);
        let what = format!("game {}", game.id);
        let (record, time) = match game_runner::play(rules, &self.hosting, &bots, &settings, &what)
        {
            Played::Game { record, time } => (record, time),
            Played::Unplayed(why) => {
                return Done::Unplayed {
                    id: game.id.clone(),
                    why,
                }
            }
            Played::Failed(why) => return Done::Failed(TournamentError::GameFailed(why)),
        };
        if let Err(e) = save_record(self.dir, &game.id, &record) {
            return Done::Failed(e.into());
        }
        let names = game
            .seats
            .iter()
            .map(|&e| plan.entrants[e].name.clone())
            .collect();
        Done::Game(Box::new(Entry::new(
            &game.id,
            game.param_set,
            &game.seats,
            names,
            &record,
            time,
        )))
    }

    /// Each entrant of `game` with its current build: the planned one, or under `--watch` the
    /// newest validated one.
    fn pinned(&self, game: &GameSpec) -> Vec<PinnedBot> {
        let plan = self.plan;
        game.seats
            .iter()
            .enumerate()
            .map(|(seat, &entrant)| {
                if !self.watch {
                    self.builds.warn_if_changed(plan, entrant);
                }
                let current = self.builds.current(entrant);
                let name = &plan.entrants[entrant].name;
                PinnedBot {
                    spec: current.spec,
                    sha256: current.sha256,
                    name: format!("entrant `{name}`"),
                    crash_label: Some(CrashLabel::new(&game.id, seat, name)),
                }
            })
            .collect()
    }
}

/// The settings of `game`: its parameter set's parameters with its own over them, and the
/// plan's budgets and fault policy.
fn match_settings(plan: &Plan, game: &GameSpec, secret: &SeedSecret) -> MatchSettings {
    let mut params = plan.param_sets[game.param_set].params.clone();
    params.extend(game.params.clone());
    plan.settings
        .profile
        .match_settings(params, game.seed, *secret)
}

fn save_record(dir: &Path, id: &str, record: &MatchRecord) -> Result<(), PathError> {
    let path = record_files::path(dir, id);
    record.write(&path).on_path(&path)
}

fn tally(points: &mut BTreeMap<usize, f64>, entry: &Entry) {
    for (seat, &entrant) in entry.seats.iter().enumerate() {
        *points.entry(entrant).or_default() += entry.result.points(seat);
    }
}

fn leader(plan: &Plan, points: &BTreeMap<usize, f64>) -> String {
    points
        .iter()
        .max_by(|a, b| a.1.total_cmp(b.1).then(b.0.cmp(a.0)))
        .map(|(&e, p)| format!("{} ({p} pts)", console::name(&plan.entrants[e].name)))
        .unwrap_or_else(|| "-".into())
}
