//! Command-line definitions (clap derive). Every command and flag has help text.

use agon_engine::CollectionPolicy;
use agon_play::match_profile::{HostChoice, ProfileArgs, SandboxMode};
use agon_play::standings::sprt::{DEFAULT_ERROR_RATE, DEFAULT_MAX_PAIRS};
use clap::{Args, CommandFactory, Parser, Subcommand};
use std::path::PathBuf;

#[derive(Parser)]
#[command(
    name = "agon",
    version,
    about = "Agon: a tournament engine for programming-course games",
    long_about = "Agon loads teams' bots (shared libraries built with agon-sdk), plays \
                  them under per-move time budgets, checks every move with its own rules, and \
                  records every match so that it replays exactly.\n\n\
                  Logs go to stderr; set RUST_LOG=info (or debug) for more.",
    after_help = "Examples:\n  \
        agon plugins target/release/libbreakthrough_random.so\n  \
        agon match --game breakthrough \\\n    \
            --bot target/release/libbreakthrough_alphabeta.so:alphabeta?depth=3 \\\n    \
            --bot target/release/libbreakthrough_random.so:random --seed 7 --record game.json\n  \
        agon replay verify game.json"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

/// The warnings for the flags among `args` given in a spelling of the release before. Every
/// quantity flag now ends with its unit (`-ms`, `-s`, `-days`, `-mib`; docs/command-line.md,
/// "Grammar"); each old spelling is a hidden alias of its flag (`#[arg(alias = ..)]`) for one
/// release, and the aliases themselves say what to warn of.
pub fn old_spelling_warnings(args: &[String]) -> Vec<String> {
    let renamed = renamed_flags(&Cli::command());
    args.iter()
        .take_while(|a| *a != "--")
        .filter_map(|arg| {
            let flag = arg.split_once('=').map_or(arg.as_str(), |(f, _)| f);
            let new = renamed.get(flag.strip_prefix("--")?)?;
            Some(format!(
                "agon: warning: {flag} is now --{new}; the old spelling goes in the next release"
            ))
        })
        .collect()
}

/// Every long alias in `command` and its subcommands, with the flag it spells.
fn renamed_flags(command: &clap::Command) -> std::collections::BTreeMap<String, String> {
    let mut renamed = std::collections::BTreeMap::new();
    for arg in command.get_arguments() {
        let Some(long) = arg.get_long() else { continue };
        for alias in arg.get_all_aliases().into_iter().flatten() {
            renamed.insert(alias.to_string(), long.to_string());
        }
    }
    for sub in command.get_subcommands() {
        renamed.extend(renamed_flags(sub));
    }
    renamed
}

#[derive(Subcommand)]
pub enum Command {
    /// Show what plugin files offer (exits non-zero if any file is not a valid plugin)
    Plugins(PluginsArgs),
    /// List the games this engine knows, with their parameters
    Games(GamesArgs),
    /// Show what the process host's sandbox can and cannot enforce on this machine, and why
    Doctor(DoctorArgs),
    /// List the house bots (the reference bots, played as `--bot house:NAME`), building them
    /// with cargo the first time
    House(HouseArgs),
    /// Play one match between bots and print (or record) the result
    Match(MatchArgs),
    /// Start a team's bot: a new Cargo project with a bot that plays, a test and a README
    #[command(
        long_about = "Create a standalone Cargo project at PATH (not part of any workspace) \
                      with a bot for GAME that plays legal moves, written against \
                      agon-sdk. `cargo build --release` in it gives a plugin file that \
                      `agon plugins` lists and `agon match` plays; `cargo test --release` plays \
                      a game with each of its bots through the installed `agon` ($AGON, else \
                      the PATH).\n\n\
                      The project carries agon-sdk's source in vendor/ (written from this \
                      binary), so it builds wherever it is copied, with no Agon checkout; \
                      --registry depends on the published release instead.",
        after_help = "Example:\n  agon new --game breakthrough my-bot --name \"Team Rocket\"\n  \
                      cd my-bot && cargo build --release\n  \
                      agon match --game breakthrough --bot target/release/libmy_bot.so:bot \
                      --bot target/release/libmy_bot.so:random"
    )]
    New(NewArgs),
    /// Work with match records
    #[command(subcommand)]
    Replay(ReplayCommand),
    /// Write a match record's replay viewer: one self-contained HTML page
    #[command(
        long_about = "Replay a match record with the rules and write one self-contained HTML \
                      page (no network, no external scripts or fonts: it works from a file:// \
                      URL and as a CI artifact) that shows the match ply by ply: the board, \
                      each move with its time and nodes, the players, the scores over time \
                      and every fault at its ply (illegal answers drawn on the board).\n\n\
                      Controls: play/pause (space), step (arrow keys), first/last (Home/End), \
                      the slider, the speed. The URL's #ply=N opens a ply. A record that does \
                      not replay with the rules is refused, naming the first mismatch.",
        after_help = "Example:\n  agon match --game breakthrough --bot a.so:bot --bot b.so:bot \
                      --record game.json\n  agon view game.json --open"
    )]
    View(ViewArgs),
    /// Measure the plugin boundary, the hosts and the rules (prints figures)
    Bench(BenchArgs),
    /// Run graded tournaments: plan, run, resume, report, merge shards
    #[command(subcommand)]
    Tournament(TournamentCommand),
    /// Learn whether a new build is stronger than an old one: game pairs until a sequential
    /// probability ratio test decides
    #[command(
        long_about = "Play game pairs (one seed, seats swapped) between OLD (the baseline) and \
                      NEW (the candidate) until the sequential probability ratio test decides \
                      between H0, NEW is elo0 stronger, and H1, NEW is elo1 stronger \
                      (logistic Elo, pentanomial model), at error rates alpha (a wrong H1) and \
                      beta (a wrong H0), or --max-pairs pairs are played.\n\n\
                      It is a tournament of `format = \"sprt\"`: OUT holds its configuration \
                      (sprt.toml), plan, journal, records and report, with the verdict in \
                      sprt.json; `agon tournament resume OUT` continues a stopped test.",
        after_help = "Example:\n  agon sprt --game breakthrough house:alphabeta?depth=2 \
                      target/release/libmy_bot.so:bot --elo1 20 --out sprt-my-bot"
    )]
    Sprt(SprtArgs),
    /// Run a continuous ladder among a folder of team builds, taking new builds as they arrive
    #[command(
        long_about = "Run a continuous ladder among the plugin files in DIR: one file per \
                      team (its slot). Games are paired so every slot plays about as often as \
                      the others, each game is appended to OUT/journal.jsonl, and Weng-Lin \
                      ratings (per build), OUT/standings.json and OUT/ladder.html are \
                      rewritten after every game.\n\n\
                      DIR is watched: a new or replaced file is validated in a sandboxed \
                      process (it loads, its versions match, and it plays one smoke game per \
                      game it declares without a fault) and then plays every game that starts \
                      afterwards; games in flight finish with the build they started with. A \
                      build that fails is refused with its reason (log and OUT/events.jsonl) \
                      and the slot keeps its last good build. A removed file retires its slot.\n\n\
                      Ctrl-C (SIGINT, SIGTERM) finishes the games in flight and exits; a second \
                      one abandons them. Running the command again on the same OUT continues.",
        after_help = "Example:\n  agon ladder teams/ --game breakthrough --out ladder/ --concurrency 2"
    )]
    Ladder(LadderArgs),

    /// The course portal: the ladder and a web server in one process; teams upload builds with
    /// their token and see validation, ratings and games
    #[command(
        long_about = "The course portal: runs `agon ladder` over DIR/builds and a web server \
                      beside it. A team uploads a build (.so) on its page or through the API \
                      with its token; the build is renamed into its slot DIR/builds/TEAM.so, \
                      validated by the ladder in its sandbox, and its page shows \"accepted as \
                      v3\" or the exact refusal, its rating per build and its games with the \
                      viewer.\n\n\
                      Teams, token hashes, builds and upload events are kept in \
                      DIR/portal.sqlite; the ladder's journal (DIR/ladder) stays the source of \
                      game results. Stop it with Ctrl-C (the games in flight finish); start it \
                      again on the same DIR and everything is there.\n\n\
                      Staff manage teams on the command line only: `agon portal team add NAME \
                      --dir DIR` prints the team's token once.",
        after_help = "Example:\n  agon portal team add rocket --dir course/\n  agon portal \
                      --dir course/ --game breakthrough --listen 127.0.0.1:8080"
    )]
    Portal(PortalArgs),

    /// Hand one puzzle to a solver bot and verify its answer
    Solve(SolveArgs),
    /// Lights Out mathematics: solvable fractions, the 1 x n conjecture
    #[command(subcommand)]
    Lightsout(LightsoutCommand),
    /// Flip (the coin game): start boards
    #[command(subcommand)]
    Flip(FlipCommand),
    /// ReversiXT (the multi-player Reversi): maps, the course server and client
    #[command(subcommand)]
    Reversixt(ReversixtCommand),
    /// The cache of plugin copies: where it is, what it holds, removing what is no longer used
    #[command(
        subcommand,
        long_about = "The cache of plugin copies. Before loading a plugin file, agon copies it \
                      to <cache>/plugins/<sha256>/<file name>: a new build of a team's library \
                      must arrive under a new path to be loaded at all, and a tournament plays \
                      exactly the bytes it checked, whatever happens to the original file. The \
                      copies are never removed by themselves; `agon cache gc` removes those \
                      not used lately.\n\n\
                      The cache is $AGON_CACHE_DIR, else $XDG_CACHE_HOME/agon, else \
                      ~/.cache/agon."
    )]
    Cache(CacheCommand),
}

impl Command {
    /// Commands that play games catch the stop signals (SIGTERM, SIGINT, SIGHUP) to abandon
    /// their games in flight unrecorded and say so; the others keep the default (die at once).
    pub fn plays_games(&self) -> bool {
        matches!(
            self,
            Command::Match(_)
                | Command::Solve(_)
                | Command::Ladder(_)
                | Command::Portal(PortalArgs { command: None, .. })
                | Command::Sprt(_)
                | Command::Tournament(TournamentCommand::Run(_) | TournamentCommand::Resume(_))
        )
    }
}

#[derive(Subcommand)]
pub enum CacheCommand {
    /// Print the cache folder ($AGON_CACHE_DIR, else $XDG_CACHE_HOME/agon, else ~/.cache/agon)
    Path,
    /// List the cached plugin copies, least recently used first: content hash, size, last use,
    /// whether a running agon uses it, file names
    List(CacheListArgs),
    /// Remove cached plugin copies not used lately (by default: for 30 days), and what crashed
    /// writers left behind
    #[command(
        long_about = "Remove cached plugin copies not used lately, and what crashed agon \
                      processes left behind.\n\n\
                      An entry (one content, <cache>/plugins/<sha256>/) is used whenever agon \
                      stages a plugin file with that content (`agon match`, `plugins`, \
                      `tournament`, `ladder`, ...); its folder's modification time records the \
                      last use. gc removes every entry not used for --older-than-days days, then, \
                      if the cache still holds more than --max-size-mib, the least recently used \
                      entries until it holds no more. It prints each entry it removes and the \
                      bytes freed.\n\n\
                      Safe while agon runs: an entry a running agon process has staged (a \
                      tournament's or ladder's builds, for as long as that process runs) is \
                      never removed, and an agon that needs a removed entry again writes it \
                      afresh. Temporary files of writers that died (.NAME.PID.N.tmp) go too. \
                      Links are never followed and anything agon did not put in the cache is \
                      left alone (and listed). One gc runs at a time per cache.",
        after_help = "Examples:\n  \
            agon cache gc                       # entries unused for 30 days\n  \
            agon cache gc --older-than-days 7 --max-size-mib 500\n  \
            agon cache gc --older-than-days 0 --dry-run   # what is not in use right now"
    )]
    Gc(CacheGcArgs),
}

#[derive(Args)]
pub struct CacheListArgs {
    /// Print JSON: `cache`, `entries` (each with `sha256`, `files`, `bytes`,
    /// `last_use_unix`, `in_use`), `oddities`
    #[arg(long)]
    pub json: bool,
}

#[derive(Args)]
pub struct CacheGcArgs {
    /// Remove entries not used for this many days (fractions allowed; 0: every entry no
    /// running agon uses)
    #[arg(
        long = "older-than-days",
        alias = "older-than",
        value_name = "DAYS",
        default_value_t = CollectionPolicy::DEFAULT_UNUSED_DAYS
    )]
    pub older_than: f64,
    /// Then remove the least recently used entries until the cache holds at most this many
    /// MiB (entries in use still count, and stay)
    #[arg(long = "max-size-mib", alias = "max-size", value_name = "MIB")]
    pub max_size: Option<f64>,
    /// Only print what would be removed and the bytes that would be freed
    #[arg(long)]
    pub dry_run: bool,
    /// Print JSON: `removed` (each with `sha256`, `files`, `bytes`, `reason`), `in_use`,
    /// `kept`, `stray`, `bytes_freed`, `left_alone`, `failures`, `dry_run`
    #[arg(long)]
    pub json: bool,
}

#[derive(Subcommand)]
pub enum ReversixtCommand {
    /// Check a map file and print a summary (players, size, stones, transitions, specials);
    /// exits non-zero with the line, column and problem when the map is invalid
    CheckMap(CheckMapArgs),
    /// List the course maps built into agon (`--param map=NAME` plays one, from any folder):
    /// name, players and size
    Maps(MapsArgs),
    /// Be the course server: course clients (`remote` seats) and plugin bots play one game on
    /// a map; every move is checked by Agon's rules, a malformed or late message disqualifies
    /// that client; the result is written like `agon match`
    Serve(ServeArgs),
    /// Play a plugin bot on a course server (the course's TCP protocol), keeping a copy of
    /// the game from the server's messages
    Connect(ConnectArgs),
}

#[derive(Args)]
pub struct ServeArgs {
    /// The map file
    #[arg(long, value_name = "FILE")]
    pub map: PathBuf,
    /// Accept a map whose transition ends face the board (refused by default, as the course
    /// server refuses them)
    #[arg(long)]
    pub lenient_map: bool,
    /// Who plays each player, in player order: `remote` (a course client that connects) or a
    /// plugin bot as FILE:BOT[?key=value&...]; one per player of the map
    #[arg(long = "seat", value_name = "SPEC|remote", required = true)]
    pub seats: Vec<String>,
    /// Where the course clients connect (port 0: any free port, printed on standard error)
    #[arg(long, default_value = "0.0.0.0:7777", value_name = "ADDR:PORT")]
    pub listen: String,
    /// The release before's spelling of --listen's port; warns
    #[arg(long, hide = true)]
    pub port: Option<u16>,
    /// The release before's spelling of --listen's address; warns
    #[arg(long, hide = true)]
    pub bind: Option<String>,
    /// Seconds added to each player's time account before each move request; unused time
    /// carries over (the course server's -t; 0: no time limit, --move-ms guards each move)
    #[arg(
        long = "time-s",
        alias = "time",
        default_value_t = 0.0,
        value_name = "SECONDS"
    )]
    pub time: f64,
    /// Depth limit in plies sent with each request (0: none)
    #[arg(long, default_value_t = 0, value_name = "PLIES")]
    pub depth: u32,
    /// Without --time-s: the most any move may take in milliseconds
    #[arg(long, default_value_t = 60_000, value_name = "MS")]
    pub move_ms: u64,
    /// How long to wait for the course clients to join, in seconds
    #[arg(
        long = "wait-s",
        alias = "wait",
        default_value_t = 300,
        value_name = "SECONDS"
    )]
    pub wait: u64,
    #[command(flatten)]
    pub seeds: SeedArgs,
    /// Where the plugin seats run
    #[arg(long, value_enum, default_value_t = HostChoice::Process, value_name = "HOST")]
    pub host: HostChoice,
    /// Process host: how to treat confinement the kernel cannot give
    #[arg(long, value_enum, default_value_t = SandboxMode::Report, value_name = "MODE")]
    pub sandbox: SandboxMode,
    /// Write the match record (JSON) to this file
    #[arg(long, value_name = "FILE")]
    pub record: Option<PathBuf>,
    /// Print the match record as JSON on stdout instead of the human summary
    #[arg(long)]
    pub json: bool,
}

#[derive(Args)]
pub struct ConnectArgs {
    /// The course server, HOST:PORT
    #[arg(value_name = "ADDR:PORT")]
    pub server: String,
    /// The bot, as FILE:BOT or FILE:BOT?key=value&key=value
    #[arg(long, value_name = "SPEC")]
    pub bot: String,
    /// The group number sent when joining
    #[arg(long, default_value_t = 1)]
    pub group: u8,
    /// Where the bot runs
    #[arg(long, value_enum, default_value_t = HostChoice::Process, value_name = "HOST")]
    pub host: HostChoice,
    /// Process host: how to treat confinement the kernel cannot give
    #[arg(long, value_enum, default_value_t = SandboxMode::Report, value_name = "MODE")]
    pub sandbox: SandboxMode,
    /// The bot's seed (default: drawn, and printed on standard error)
    #[arg(long)]
    pub seed: Option<u64>,
    /// Print the result as JSON
    #[arg(long)]
    pub json: bool,
}

#[derive(Args)]
pub struct MapsArgs {
    /// Print the list as JSON
    #[arg(long)]
    pub json: bool,
}

#[derive(Args)]
pub struct CheckMapArgs {
    /// The map: a built-in map's name (`agon reversixt maps`) or a map file (the course
    /// format: header, board, transitions)
    pub file: std::path::PathBuf,
    /// Print the summary as JSON
    #[arg(long)]
    pub json: bool,
    /// Accept transition ends that face the board, with a warning (they can never be used; the
    /// course map `scope` has one). By default they are refused, as docs/games/reversixt.md
    /// states and the course server does
    #[arg(long)]
    pub lenient: bool,
}

#[derive(Subcommand)]
pub enum FlipCommand {
    /// The start board the course simulator draws for N coins from SEED (java.util.Random)
    Board(FlipBoardArgs),
}

#[derive(Args)]
pub struct FlipBoardArgs {
    /// Coins per player
    #[arg(long)]
    pub n: u32,
    /// The java.util.Random seed
    #[arg(long)]
    pub seed: i64,
    /// Print JSON: `player1` and `player2` as lists of [x, y] by coin id
    #[arg(long)]
    pub json: bool,
}

#[derive(Args)]
pub struct HouseArgs {
    /// Only this game's house bots (default: every game's)
    #[arg(long, value_name = "GAME")]
    pub game: Option<String>,
}

#[derive(Args)]
pub struct DoctorArgs {
    /// Print JSON: per mechanism `name`, `available`, `found`, `without`
    #[arg(long)]
    pub json: bool,
}

#[derive(Args)]
// A puzzle answer gets ten seconds (the course's), not a move's one, and `--ms` was its name.
#[command(mut_arg("move_ms", |a| a
    .default_value("10000")
    .alias("ms")
    .help("Time limit for the answer in milliseconds (0: none; a one-hour watchdog remains)")))]
pub struct SolveArgs {
    /// The puzzle game: lightsout or flowfree
    #[arg(long, value_name = "GAME")]
    pub game: String,
    /// The solver, as FILE:BOT or FILE:BOT?key=value&key=value
    #[arg(long, value_name = "SPEC")]
    pub bot: String,
    /// The instance: a built-in puzzle's name (`agon games` lists them) or a file
    #[arg(long, value_name = "NAME|FILE")]
    pub puzzle: PathBuf,
    #[command(flatten)]
    pub seeds: SeedArgs,
    #[command(flatten)]
    pub profile: ProfileArgs,
    /// Print JSON: `solved`, `reason` (when not solved), `time_ms`, `solution`, `attempts`
    #[arg(long)]
    pub json: bool,
    /// Write the match record (JSON) to this file
    #[arg(long, value_name = "FILE")]
    pub record: Option<PathBuf>,
}

#[derive(Subcommand)]
pub enum LightsoutCommand {
    /// The exact fraction of solvable boards for every size in the ranges (by GF(2) rank)
    Table(LightsoutTableArgs),
    /// Check the seed paper's 1 x n conjecture for every n up to N; exit 1 on a counterexample
    Conjecture(LightsoutConjectureArgs),
}

#[derive(Args)]
pub struct LightsoutTableArgs {
    /// Rows, as A..B (inclusive) or a single number
    #[arg(long, default_value = "1..10", value_name = "A..B")]
    pub rows: String,
    /// Columns, as C..D (inclusive) or a single number
    #[arg(long, default_value = "1..10", value_name = "C..D")]
    pub cols: String,
    /// Print JSON: `rows`, `cols` and `fractions` (a list of rows of numbers)
    #[arg(long)]
    pub json: bool,
}

#[derive(Args)]
pub struct LightsoutConjectureArgs {
    /// The largest n to check
    #[arg(long, default_value_t = 1000, value_name = "N")]
    pub max_n: usize,
}

#[derive(Subcommand)]
pub enum TournamentCommand {
    /// Check a configuration, plan every game and play them, writing the journal and report
    Run(TournamentRunArgs),
    /// Play the games of an interrupted run that are not in its journal yet
    Resume(TournamentResumeArgs),
    /// Write the report (standings.json, CSV, Markdown, HTML) from a tournament folder
    Report(TournamentReportArgs),
    /// List the game ids a configuration plans (shard I of N plays one game of each round of N)
    Plan(TournamentPlanArgs),
    /// Merge the folders of a sharded tournament into one and report on it
    Merge(TournamentMergeArgs),
    /// Move damaged journal lines to journal.rejected, so that `resume` plays those games again
    Repair(TournamentDirArgs),
}

#[derive(Args)]
pub struct TournamentRunArgs {
    /// The tournament configuration (TOML; see README)
    #[arg(value_name = "CONFIG")]
    pub config: PathBuf,
    /// The folder for the plan, journal, records and report (created)
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
    /// Games played at once (default: the config's `concurrency`, else the number of cores)
    #[arg(long, value_name = "N")]
    pub concurrency: Option<usize>,
    /// Play --concurrency games at once even where this process may use fewer CPUs (by
    /// default a run lowers it to the usable CPUs, warning once: more games only wait for one
    /// another's CPU, which the CPU clock keeps out of the grades)
    #[arg(long)]
    pub oversubscribe: bool,
    /// Play only shard I of N (from 0): one game of each round of N games of the plan. Without it, a
    /// Slurm array task (SLURM_ARRAY_TASK_ID is its shard; the count is the config's `shards`,
    /// else the results folder's agon-shards.json, written by the first array's first task) or
    /// JOB_COMPLETION_INDEX (with the config's `shards`) selects a shard
    #[arg(long, value_name = "I/N")]
    pub shard: Option<String>,
    /// The secret the bots' seeds are derived under (64 hex digits; default: the environment's
    /// AGON_SEED_SECRET, else drawn from the operating system). Give every shard of one
    /// tournament the same secret, and they play exactly the games one run would
    #[arg(long, value_name = "HEX")]
    pub seed_secret: Option<String>,
    /// Watch the entrants' plugin files: a new build that passes validation (its bot plays a
    /// game that looks like a real one, against the other entrants' current builds, without a
    /// fault) replaces the entrant for every game not yet started; the report counts builds as
    /// the config's `versions` says
    #[arg(long)]
    pub watch: bool,
    /// No progress bar
    #[arg(long)]
    pub quiet: bool,
}

#[derive(Args)]
pub struct TournamentResumeArgs {
    /// A folder written by `agon tournament run`
    #[arg(value_name = "DIR")]
    pub dir: PathBuf,
    /// Games played at once (default: the number of cores)
    #[arg(long, value_name = "N")]
    pub concurrency: Option<usize>,
    /// Play --concurrency games at once even where this process may use fewer CPUs (by
    /// default a run lowers it to the usable CPUs, warning once: more games only wait for one
    /// another's CPU, which the CPU clock keeps out of the grades)
    #[arg(long)]
    pub oversubscribe: bool,
    /// No progress bar
    #[arg(long)]
    pub quiet: bool,
}

#[derive(Args)]
pub struct TournamentReportArgs {
    /// A folder written by `agon tournament run` (or merge)
    #[arg(value_name = "DIR")]
    pub dir: PathBuf,
    /// Write every game's viewer page (DIR/games/ID.html) again, not only the missing ones
    #[arg(long)]
    pub games: bool,
}

#[derive(Args)]
pub struct TournamentDirArgs {
    /// A folder written by `agon tournament run` (or merge)
    #[arg(value_name = "DIR")]
    pub dir: PathBuf,
}

#[derive(Args)]
pub struct TournamentPlanArgs {
    #[arg(value_name = "CONFIG")]
    pub config: PathBuf,
    /// Print the whole plan as JSON instead of one game id per line
    #[arg(long)]
    pub json: bool,
}

#[derive(Args)]
pub struct TournamentMergeArgs {
    /// The shard folders
    #[arg(value_name = "DIR", required = true)]
    pub dirs: Vec<PathBuf>,
    /// The merged folder (created; it must not exist or be empty). It appears whole, or not at
    /// all when the merge fails or is killed
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
    /// Merge even when planned games are in no shard (by default that is an error naming them)
    #[arg(long)]
    pub allow_missing: bool,
    /// Only merge: write the report with `agon tournament report DIR` afterwards (a report
    /// holds every game's result in memory, about 2.5 KB a game: for a million games, run it
    /// as a job of its own)
    #[arg(long)]
    pub no_report: bool,
}

#[derive(Args)]
pub struct PluginsArgs {
    /// Plugin files (shared libraries)
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// Where each file is opened: `process` (a confined agon-host per file, the default: a
    /// broken or hostile library cannot crash or hang this command), or `thread` or `inline`
    /// (in this process; trusted files only)
    #[arg(long, value_enum, default_value_t = HostChoice::Process, value_name = "HOST")]
    pub host: HostChoice,
    /// Print JSON instead of text
    #[arg(long)]
    pub json: bool,
}

#[derive(Args)]
pub struct NewArgs {
    /// The game the bot plays (see `agon games`)
    #[arg(long)]
    pub game: String,
    /// The project's folder; it must not exist or be empty. Its name becomes the crate's
    pub path: PathBuf,
    /// The team's name, shown by `agon plugins` and in tournaments [default: the folder's name]
    #[arg(long)]
    pub name: Option<String>,
    /// The bot's name in bot specs (`FILE:BOT`)
    #[arg(long, default_value = "bot")]
    pub bot: String,
    /// Depend on the published agon-sdk of this engine's version instead of a copy of its source
    /// in `vendor/`: from crates.io, or with `--registry=NAME` from the registry NAME of your
    /// cargo configuration (a course's own)
    #[arg(long, value_name = "NAME", num_args = 0..=1, require_equals = true)]
    pub registry: Option<Option<String>>,
}

#[derive(Args)]
pub struct GamesArgs {
    /// Print JSON instead of text
    #[arg(long)]
    pub json: bool,
}

#[derive(Args)]
pub struct MatchArgs {
    /// The game to play (see `agon games`)
    #[arg(long, value_name = "GAME")]
    pub game: String,
    /// A game parameter, KEY=VALUE; repeat for more (see `agon games`)
    #[arg(long = "param", value_name = "KEY=VALUE")]
    pub params: Vec<String>,
    /// A bot, as FILE:BOT or FILE:BOT?key=value&key=value; one per seat, in seat order
    #[arg(long = "bot", value_name = "SPEC", required = true)]
    pub bots: Vec<String>,
    #[command(flatten)]
    pub seeds: SeedArgs,
    #[command(flatten)]
    pub profile: ProfileArgs,
    /// Write the match record (JSON) to this file
    #[arg(long, value_name = "FILE")]
    pub record: Option<PathBuf>,
    /// Write the match's replay viewer (one self-contained HTML page, as `agon view` writes)
    #[arg(long, value_name = "FILE.html")]
    pub view: Option<PathBuf>,
    /// Print the match record as JSON on stdout instead of the human summary
    #[arg(long)]
    pub json: bool,
    /// Print on stdout, as the match runs, the position each seat is sent and its answer in
    /// the game's notation with its time (one line per action), and each fault
    #[arg(long, conflicts_with = "json")]
    pub trace: bool,
    /// Print every seat's whole captured stderr after the summary (process host; by itself the
    /// summary shows the last lines of a faulty seat's)
    #[arg(long, conflicts_with = "json")]
    pub show_stderr: bool,
}

#[derive(Args)]
pub struct SprtArgs {
    /// The game (see `agon games`)
    #[arg(long, value_name = "GAME")]
    pub game: String,
    /// The baseline: FILE:BOT, FILE:BOT?key=value&... or house:NAME
    #[arg(value_name = "OLD")]
    pub old: String,
    /// The candidate, in the same form
    #[arg(value_name = "NEW")]
    pub new: String,
    /// H0: NEW is this much stronger (Elo)
    #[arg(long, default_value_t = 0.0, value_name = "ELO")]
    pub elo0: f64,
    /// H1: NEW is this much stronger (Elo)
    #[arg(long, default_value_t = 10.0, value_name = "ELO")]
    pub elo1: f64,
    /// The chance of accepting H1 when H0 holds
    #[arg(long, default_value_t = DEFAULT_ERROR_RATE, value_name = "P")]
    pub alpha: f64,
    /// The chance of accepting H0 when H1 holds
    #[arg(long, default_value_t = DEFAULT_ERROR_RATE, value_name = "P")]
    pub beta: f64,
    /// Game pairs after which the test stops undecided
    #[arg(long, default_value_t = DEFAULT_MAX_PAIRS, value_name = "N")]
    pub max_pairs: u32,
    /// A game parameter, KEY=VALUE; repeat for more
    #[arg(long = "param", value_name = "KEY=VALUE")]
    pub params: Vec<String>,
    /// The folder for the test's configuration, journal, records and report (created)
    #[arg(long, value_name = "DIR", default_value = "sprt")]
    pub out: PathBuf,
    /// Games played at once (default: the number of cores)
    #[arg(long, value_name = "N")]
    pub concurrency: Option<usize>,
    /// The seed the pairs' seeds derive from (default: drawn, and kept in OUT/sprt.toml)
    #[arg(long)]
    pub seed: Option<u64>,
    #[command(flatten)]
    pub profile: ProfileArgs,
    /// No progress bar
    #[arg(long)]
    pub quiet: bool,
}

/// A match's seed and the secret its seat seeds are derived under, shared by the commands that
/// play one match.
#[derive(Args)]
pub struct SeedArgs {
    /// The match seed (all randomness derives from it and the seed secret); random if not
    /// given. The record and the summary show it
    #[arg(long)]
    pub seed: Option<u64>,
    /// The secret the bots' seeds are derived under (64 hex digits, as a record or the summary
    /// shows it): with --seed, it reproduces a game's seeds exactly. Drawn from the operating
    /// system if not given; bots never see it, so none can compute another's seed
    #[arg(long, value_name = "HEX")]
    pub seed_secret: Option<String>,
}

#[derive(Args)]
pub struct LadderArgs {
    /// The folder of plugin files: one file per team (its slot), replaced by the team's newer
    /// builds while the ladder runs
    #[arg(value_name = "DIR")]
    pub dir: PathBuf,
    /// The folder for the journal, events, records, standings.json and ladder.html (created;
    /// an existing one is continued)
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
    #[command(flatten)]
    pub play: LadderPlayArgs,
}

#[derive(Args)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub struct PortalArgs {
    #[command(subcommand)]
    pub command: Option<PortalCommand>,
    #[command(flatten)]
    pub serve: PortalServeArgs,
}

#[derive(Args)]
pub struct PortalServeArgs {
    /// The portal's folder: builds/, ladder/, portal.sqlite (created; an existing one is
    /// continued)
    #[arg(long, value_name = "DIR", required = true)]
    pub dir: Option<PathBuf>,
    /// Where the web server listens (`0.0.0.0:443` with --tls-cert to serve a course over the
    /// internet)
    #[arg(long, default_value = "127.0.0.1:8080", value_name = "ADDR:PORT")]
    pub listen: String,
    /// Serve HTTPS with this certificate (chain), a PEM file; read again on SIGHUP
    #[arg(long, value_name = "PEM", requires = "tls_key")]
    pub tls_cert: Option<PathBuf>,
    /// The certificate's private key, a PEM file; read again on SIGHUP
    #[arg(long, value_name = "PEM", requires = "tls_cert")]
    pub tls_key: Option<PathBuf>,
    /// Connections held at once, all clients together (when full, a new connection takes the
    /// place of the oldest that has not signed in)
    #[arg(long, default_value_t = 512, value_name = "N")]
    pub max_connections: usize,
    /// Connections one client address (an IPv6 /64) may hold at once; half of them before it
    /// signs in
    #[arg(long, default_value_t = 64, value_name = "N")]
    pub max_connections_per_client: usize,
    /// The largest build a team may upload, in MiB
    #[arg(
        long = "max-upload-mib",
        alias = "max-upload-mb",
        default_value_t = 64,
        value_name = "MIB"
    )]
    pub max_upload_mb: u64,
    /// Uploads a team may make per hour
    #[arg(long, default_value_t = 30, value_name = "N")]
    pub uploads_per_hour: u64,
    /// Uploads received at once, all teams together (each team one at a time)
    #[arg(long, default_value_t = 16, value_name = "N")]
    pub uploads_at_once: usize,
    /// An upload that sends nothing for this long is dropped
    #[arg(
        long = "upload-idle-s",
        alias = "upload-idle-seconds",
        default_value_t = 20,
        value_name = "SECONDS"
    )]
    pub upload_idle_seconds: u64,
    #[command(flatten)]
    pub play: LadderPlayArgs,
}

#[derive(Subcommand)]
pub enum PortalCommand {
    /// The portal's teams (staff only: there is no admin over HTTP)
    #[command(subcommand)]
    Team(TeamCommand),
}

#[derive(Subcommand)]
pub enum TeamCommand {
    /// Add a team and print its token (shown this once; the portal keeps only its hash)
    Add(TeamNameArgs),
    /// List the teams, their builds and whether their token is revoked
    List(PortalDirArgs),
    /// Revoke a team's token (its builds and games stay; `team add` gives it a new token)
    Revoke(TeamNameArgs),
}

#[derive(Args)]
pub struct PortalDirArgs {
    /// The portal's folder
    #[arg(long, value_name = "DIR")]
    pub dir: PathBuf,
}

#[derive(Args)]
pub struct TeamNameArgs {
    /// The team's name: letters, digits, `-` and `_` (it names its slot, TEAM.so)
    #[arg(value_name = "NAME")]
    pub name: String,
    #[command(flatten)]
    pub portal: PortalDirArgs,
}

/// How a ladder plays (`agon ladder` and `agon portal`).
#[derive(Args)]
pub struct LadderPlayArgs {
    /// The game to play (see `agon games`). Required: an `Option` only so that `agon portal
    /// team ...`, which plays nothing, parses without it
    #[arg(long, value_name = "GAME", required = true)]
    pub game: Option<String>,
    /// A game parameter, KEY=VALUE; repeat for more (see `agon games`)
    #[arg(long = "param", value_name = "KEY=VALUE")]
    pub params: Vec<String>,
    /// Games played at once
    #[arg(long, default_value_t = 1, value_name = "N")]
    pub concurrency: usize,
    /// Play --concurrency games at once even where this process may use fewer CPUs (by
    /// default a run lowers it to the usable CPUs, warning once: more games only wait for one
    /// another's CPU, which the CPU clock keeps out of the grades)
    #[arg(long)]
    pub oversubscribe: bool,
    /// The bot a slot plays, as FILE:BOT or FILE:BOT?key=value (FILE: the slot's file name in
    /// DIR); repeat for more slots. Default: the file's first bot for the game
    #[arg(long = "bot", value_name = "SPEC")]
    pub bots: Vec<String>,
    /// Stop once the journal holds this many games (default: run until stopped)
    #[arg(long, value_name = "N")]
    pub games: Option<u64>,
    /// The ladder's seed: with it, game N's seed and the pairings' tie-breaks are reproducible
    /// (default: random, printed and kept in events.jsonl)
    #[arg(long)]
    pub seed: Option<u64>,
    /// A file changed in place is taken once its size and modification time have stayed the
    /// same this long (a file renamed into DIR is taken at once)
    #[arg(long, default_value_t = 500, value_name = "MS")]
    pub settle_ms: u64,
    /// In-process hosts (thread, inline) never unload a library: a slot may load at most this
    /// many builds in one run; later ones are refused (the process host has no such bound)
    #[arg(long, default_value_t = 8, value_name = "K")]
    pub max_builds_in_process: usize,
    #[command(flatten)]
    pub profile: ProfileArgs,
    /// No progress line
    #[arg(long)]
    pub quiet: bool,
}

#[derive(Subcommand)]
pub enum ReplayCommand {
    /// Re-apply a record's moves with the rules and check the recorded outcome (exits non-zero
    /// on any mismatch)
    Verify(VerifyArgs),
}

#[derive(Args)]
pub struct ViewArgs {
    /// A match record written by `agon match --record` (or a tournament's games/)
    #[arg(value_name = "RECORD")]
    pub record: PathBuf,
    /// Where to write the page [default: the record's path with .html]
    #[arg(long, value_name = "FILE.html")]
    pub out: Option<PathBuf>,
    /// The page's title [default: the game and the players]
    #[arg(long)]
    pub title: Option<String>,
    /// Open the page in the desktop's browser when it is written
    #[arg(long)]
    pub open: bool,
}

#[derive(Args)]
pub struct VerifyArgs {
    /// A match record written by `agon match --record`
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
}

#[derive(Args)]
pub struct BenchArgs {
    /// The `noop` benchmark plugin (default: libnoop.so next to the agon executable)
    #[arg(long, value_name = "FILE")]
    pub noop: Option<PathBuf>,
    /// Seconds to spend on each measurement
    #[arg(long, default_value_t = 2.0)]
    pub seconds: f64,
    /// Which measurements: `hosts` (plugin boundary, thread and process hosts), `rules`
    /// (playouts), `tournament` (throughput at concurrency 1 and 2, journal fsync), `puzzles`
    /// (Flow Free `fast` per course puzzle, the Lights Out table, a 1000 x 1000 board), `flip`
    /// (a 3000-turn n = 50 game between greedy bots, and the rules' time per move),
    /// `reversixt` (move generation, greedy games, the seed player's search), `rectangles`
    /// (the rules' time per round at n = 100 with 4 x 16 robots, mid-game), `viewer` (the replay
    /// page of a 3000-turn Flip game and of an 8-player ReversiXT game: size and build time), or `all` (all of
    /// these); `ladder` (hot-swap latency and memory over 200 swaps, then memory and
    /// open files over `--ladder-games` games: minutes) and `scale` (`--scale-games` games
    /// in `--scale-shards` shard folders, synthesised, then merged and reported on: disk per
    /// game, wall time and peak memory) and `portal` (`agon portal` as a program: upload to first
    /// game over `--portal-uploads` uploads, memory after `--portal-games` games) run only when
    /// named
    #[arg(long, default_value = "all", value_name = "SUITE")]
    pub suite: String,
    /// Games the `ladder` suite plays in all
    #[arg(long, default_value_t = 10_000, value_name = "N")]
    pub ladder_games: u64,
    /// Games the `scale` suite synthesises, merges and reports on
    #[arg(long, default_value_t = 20_000, value_name = "N")]
    pub scale_games: usize,
    /// Shard folders the `scale` suite spreads them over
    #[arg(long, default_value_t = 20, value_name = "K")]
    pub scale_shards: u32,
    /// Builds the `portal` suite uploads, timing each to its first game
    #[arg(long, default_value_t = 100, value_name = "N")]
    pub portal_uploads: usize,
    /// Games the `portal` suite's ladder plays before its memory is read
    #[arg(long, default_value_t = 10_000, value_name = "N")]
    pub portal_games: u64,
    /// A folder of Flow Free puzzles for `--suite puzzles` (default: the course's, built in)
    #[arg(long, value_name = "DIR")]
    pub flowfree: Option<PathBuf>,
    /// The ReversiXT map for `--suite reversixt` and `--suite viewer`: a built-in map's name
    /// (`agon reversixt maps`) or a map file
    #[arg(long, default_value = "comp2019_04_8p", value_name = "NAME|FILE")]
    pub reversixt_map: String,
    /// Print JSON instead of a table
    #[arg(long)]
    pub json: bool,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every flag that takes a quantity names its unit last (docs/command-line.md, "Grammar").
    #[test]
    fn every_quantity_flag_ends_with_its_unit() {
        fn walk(command: &clap::Command, path: &str, wrong: &mut Vec<String>) {
            for arg in command.get_arguments() {
                let (Some(long), Some(names)) = (arg.get_long(), arg.get_value_names()) else {
                    continue;
                };
                let suffix = match names[0].as_str() {
                    "MS" => "-ms",
                    "SECONDS" => "-s",
                    "MIB" => "-mib",
                    "DAYS" => "-days",
                    _ => continue,
                };
                // A flag that is its unit (`agon bench --seconds`) needs no suffix.
                if !long.ends_with(suffix) && long != names[0].to_lowercase() {
                    wrong.push(format!("{path} --{long} <{}>", names[0]));
                }
            }
            for sub in command.get_subcommands() {
                walk(sub, &format!("{path} {}", sub.get_name()), wrong);
            }
        }
        let mut wrong = Vec::new();
        walk(&Cli::command(), "agon", &mut wrong);
        assert!(wrong.is_empty(), "flags without their unit: {wrong:?}");
        let renamed = renamed_flags(&Cli::command());
        for (old, new) in renamed {
            assert_ne!(old, new);
        }
    }

    #[test]
    fn old_spellings_warn_until_the_end_of_the_flags() {
        let args = |list: &[&str]| list.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let warnings = old_spelling_warnings(&args(&["solve", "--ms", "5", "--memory-mb=64"]));
        assert_eq!(warnings.len(), 2, "{warnings:?}");
        assert!(
            warnings[0].contains("--ms is now --move-ms"),
            "{warnings:?}"
        );
        assert!(warnings[1].contains("--memory-mb is now --memory-mib"));
        assert!(
            old_spelling_warnings(&args(&["solve", "--move-ms", "5", "--", "--ms"])).is_empty()
        );
    }
}
