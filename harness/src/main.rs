//! `agon`: the command line of the Agon tournament engine. A thin layer over `agon-engine`.

mod bench;
mod cli;
#[cfg(test)]
mod command_reference;
mod commands;
mod error_text;
mod feedback;
mod match_flags;

use agon_play::{console, exit_guard};
use clap::Parser;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let cli = cli::Cli::parse_from(&args);
    for warning in cli::old_spelling_warnings(&args[1..]) {
        eprintln!("{warning}");
    }
    init_logging();
    exit_guard::arm();
    let plays_games = cli.command.plays_games();
    if plays_games {
        // The portal reads its certificate again on SIGHUP (`portal::tls`) rather than stop.
        let installed = match &cli.command {
            cli::Command::Portal(_) => {
                agon_engine::interrupt::install_signals(&[libc::SIGTERM, libc::SIGINT])
            }
            _ => agon_engine::interrupt::install(),
        };
        if let Err(e) = installed {
            log::warn!("cannot catch stop signals: {e}");
        }
        if let Err(e) = agon_engine::process::allow_many_hosts() {
            log::warn!("cannot raise the limit on open files: {e}");
        }
    }
    let result = match cli.command {
        cli::Command::Plugins(args) => commands::plugins::run(args),
        cli::Command::Games(args) => commands::games::run(args),
        cli::Command::Doctor(args) => commands::doctor::run(args),
        cli::Command::House(args) => commands::house::list(args),
        cli::Command::Match(args) => commands::play::run(args),
        cli::Command::New(args) => commands::new::run(args),
        cli::Command::Replay(cli::ReplayCommand::Verify(args)) => commands::replay::verify(args),
        cli::Command::View(args) => commands::view::run(args),
        cli::Command::Bench(args) => bench::run(args),
        cli::Command::Tournament(command) => commands::tournament::run(command),
        cli::Command::Sprt(args) => commands::sprt::run(args),
        cli::Command::Ladder(args) => commands::ladder::run(args),
        cli::Command::Portal(args) => commands::portal::run(args),
        cli::Command::Solve(args) => commands::solve::run(args),
        cli::Command::Lightsout(command) => commands::lightsout::run(command),
        cli::Command::Flip(cli::FlipCommand::Board(args)) => commands::flip::board(args),
        cli::Command::Reversixt(cli::ReversixtCommand::CheckMap(args)) => {
            commands::reversixt::check_map(args)
        }
        cli::Command::Reversixt(cli::ReversixtCommand::Maps(args)) => {
            commands::reversixt::maps(args)
        }
        cli::Command::Reversixt(cli::ReversixtCommand::Serve(args)) => {
            commands::course_server::serve(args)
        }
        cli::Command::Reversixt(cli::ReversixtCommand::Connect(args)) => {
            commands::course_server::connect(args)
        }
        cli::Command::Cache(command) => commands::cache::run(command),
    };
    if plays_games {
        say_engine_stalls();
    }
    if let Err(error) = result {
        let message = error_text::error_text(&error);
        eprintln!("agon: error: {}", console::lines(&message));
        // Stopped by a signal: the conventional 128 + its number, so a batch system sees it.
        let status =
            agon_engine::interrupt::requested().map_or(1, agon_engine::interrupt::exit_status);
        exit_guard::exit(status);
    }
    exit_guard::disarm();
}

/// Once per run, at its end: how often the engine itself was stalled and for how long (each
/// stall long enough to matter was warned of as it happened; none was charged to a bot).
fn say_engine_stalls() {
    let stalls = agon_engine::engine_stall::stalls_so_far();
    if stalls.count > 0 {
        eprintln!("agon: {stalls}");
    }
}

/// env_logger's usual look, `[time LEVEL target] message`, with the message on one line: log
/// messages quote file, slot and bot names, and a name holding a newline must not forge a record.
fn init_logging() {
    let mut look = env_logger::fmt::ConfigurableFormat::default();
    look.timestamp(Some(env_logger::TimestampPrecision::Millis));
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .format(move |buf, record| {
            let message = record.args().to_string();
            let message = console::name(&message);
            look.format(
                buf,
                &log::Record::builder()
                    .args(format_args!("{message}"))
                    .level(record.level())
                    .target(record.target())
                    .module_path(record.module_path())
                    .file(record.file())
                    .line(record.line())
                    .build(),
            )
        })
        .init();
}
