//! `agon reversixt serve` and `agon reversixt connect`: Agon as the course's ReversiXT server,
//! and a plugin bot as a client of any course server (rules file, "Network protocol").

use crate::cli::{ConnectArgs, ServeArgs};
use crate::feedback::summary::{publish, Shown};
use crate::match_flags::hosting;
use agon_engine::course_net::lobby;
use agon_engine::Announcer;
use agon_engine::BotSpec;
use agon_engine::RemoteSeat;
use agon_engine::{course_net::client, ClientBot};
use agon_engine::{input_file::limits, Input};
use agon_engine::{run_observed_match, MatchSettings, Seat};
use agon_engine::{seating, Hosting};
use agon_engine::{Budgets, SeatRecord};
use agon_games::contract::{GameRules, RawParams};
use agon_games::reversixt::course_wire::MAX_PAYLOAD;
use agon_games::reversixt::session::ReversiXtRules;
use agon_games::reversixt::Map;
use agon_play::console::outln;
use anyhow::{anyhow, bail, Context};
use std::net::{TcpListener, TcpStream, ToSocketAddrs};
use std::time::Duration;

/// A seat of `--seat`: a course client or a plugin bot.
enum SeatSpec {
    Remote,
    Plugin(BotSpec),
}

pub fn serve(args: ServeArgs) -> anyhow::Result<()> {
    let game: &dyn GameRules = &ReversiXtRules;
    let (text, map) = read_map(&args)?;
    if !(0.0..=86_400.0).contains(&args.time) {
        bail!("--time {}: expected 0 to 86400 seconds", args.time);
    }
    let params = RawParams::from([
        ("map".to_string(), args.map.display().to_string()),
        ("time".to_string(), args.time.to_string()),
        ("depth".to_string(), args.depth.to_string()),
        ("lenient_map".to_string(), args.lenient_map.to_string()),
    ]);
    let specs = seat_specs(&args, &map)?;
    let hosting = hosting(args.host, args.sandbox)?;
    let joined = welcome_clients(&args, &map, &text, &specs)?;
    let (seats, writers) = take_seats(&specs, joined, game, &hosting)?;
    let settings = match_settings(&args, params)?;
    let mut announcer = Announcer::new(map, writers);
    let record = run_observed_match(game, &settings, seats, &mut announcer)?;
    let shown = if args.json {
        Shown::Json
    } else {
        Shown::Summary {
            whole_stderr: false,
        }
    };
    publish(&record, args.record.as_deref(), shown)
}

/// The map file's text, which clients receive as it is, and the map it describes.
fn read_map(args: &ServeArgs) -> anyhow::Result<(String, Map)> {
    let text = Input::new("map", limits::INSTANCE).read_text(&args.map)?;
    // The map travels in one message (rules file, "Network protocol": type 2); a client,
    // `reversixt connect` among them, accepts at most MAX_PAYLOAD bytes of it.
    if text.len() > MAX_PAYLOAD as usize {
        bail!(
            "{}: the map is {} bytes; the course protocol's map message carries at most {} \
             (clients refuse more)",
            args.map.display(),
            text.len(),
            MAX_PAYLOAD
        );
    }
    let parsed = if args.lenient_map {
        Map::parse_lenient(&text)
    } else {
        Map::parse(&text)
    };
    let map = parsed.map_err(|e| {
        let hint = if e.problem.contains("an end must face") {
            " (--lenient-map accepts it)"
        } else {
            ""
        };
        anyhow!("{}: {e}{hint}", args.map.display())
    })?;
    Ok((text, map))
}

/// One `--seat` per player of `map`.
fn seat_specs(args: &ServeArgs, map: &Map) -> anyhow::Result<Vec<SeatSpec>> {
    let specs = args
        .seats
        .iter()
        .map(|s| match s.as_str() {
            "remote" => Ok(SeatSpec::Remote),
            spec => spec.parse().map(SeatSpec::Plugin),
        })
        .collect::<Result<Vec<_>, _>>()?;
    if specs.len() != map.players as usize {
        bail!(
            "{} has {} players: give one --seat per player (remote or a bot), got {}",
            args.map.display(),
            map.players,
            specs.len()
        );
    }
    Ok(specs)
}

/// Where to listen: `--listen`, with the old `--bind` and `--port` (which warn) put in its place.
fn listen_address(args: &ServeArgs) -> String {
    if args.bind.is_none() && args.port.is_none() {
        return args.listen.clone();
    }
    log::warn!("`--bind` and `--port` are spelled `--listen ADDR:PORT` now; the old flags go in the next release");
    let (address, port) = args
        .listen
        .rsplit_once(':')
        .unwrap_or((&args.listen, "7777"));
    let address = match args.bind.as_deref() {
        // An IPv6 address is written in brackets before its port.
        Some(bind) if bind.contains(':') && !bind.starts_with('[') => format!("[{bind}]"),
        Some(bind) => bind.to_string(),
        None => address.to_string(),
    };
    let port = args.port.map_or(port.to_string(), |p| p.to_string());
    format!("{address}:{port}")
}

/// Waits for a course client per remote seat, then tells each its player number and the map.
fn welcome_clients(
    args: &ServeArgs,
    map: &Map,
    text: &str,
    specs: &[SeatSpec],
) -> anyhow::Result<Vec<lobby::Joined>> {
    let address = listen_address(args);
    let listener =
        TcpListener::bind(&address).with_context(|| format!("cannot listen on {address}"))?;
    let remote: Vec<usize> = (0..specs.len())
        .filter(|&i| matches!(specs[i], SeatSpec::Remote))
        .collect();
    eprintln!(
        "agon: serving {} ({} players) on {}; waiting for {} course client(s)",
        args.map.display(),
        map.players,
        listener.local_addr()?,
        remote.len()
    );
    let joined = lobby::gather(&listener, remote.len(), Duration::from_secs(args.wait))?;
    let numbers: Vec<u8> = remote.iter().map(|&i| i as u8 + 1).collect();
    lobby::deal(&joined, &numbers, text.as_bytes());
    Ok(joined)
}

/// The match's seats in player order, and a stream per client on which the announcer
/// tells them the game.
fn take_seats(
    specs: &[SeatSpec],
    joined: Vec<lobby::Joined>,
    game: &dyn GameRules,
    hosting: &Hosting,
) -> anyhow::Result<(Vec<Seat>, Vec<TcpStream>)> {
    let mut writers = Vec::new();
    let mut clients = joined.into_iter();
    let mut seats = Vec::new();
    for (i, spec) in specs.iter().enumerate() {
        seats.push(match spec {
            SeatSpec::Plugin(spec) => seating::seat(spec, i, game, hosting)
                .with_context(|| format!("seat {i} ({})", spec.file.display()))?,
            SeatSpec::Remote => {
                let client = clients.next().expect("one client per remote seat");
                let writer = client.stream.try_clone()?;
                writer.set_write_timeout(Some(Duration::from_secs(5)))?;
                writers.push(writer);
                remote_seat(i, client)
            }
        });
    }
    Ok((seats, writers))
}

fn remote_seat(i: usize, client: lobby::Joined) -> Seat {
    eprintln!(
        "agon: player {} is group {} at {}",
        i + 1,
        client.group,
        client.peer
    );
    Seat {
        record: SeatRecord {
            seat: i,
            bot: "remote".into(),
            bot_params: RawParams::new(),
            plugin: "course client".into(),
            plugin_version: "-".into(),
            team: format!("group {}", client.group),
            file: client.peer.to_string(),
            sha256: String::new(),
            sandbox: None,
            stderr: None,
            run_queue: None,
        },
        host: Box::new(RemoteSeat::new(client.stream)),
    }
}

fn match_settings(args: &ServeArgs, params: RawParams) -> anyhow::Result<MatchSettings> {
    let (seed, seed_secret) = crate::match_flags::seeds(&args.seeds)?;
    Ok(MatchSettings {
        params,
        seed,
        seed_secret,
        budgets: Budgets {
            start_ms: Some(10_000),
            move_ms: (args.move_ms > 0).then_some(args.move_ms),
            clock: Default::default(),
        },
        fault_policy: None,
    })
}

pub fn connect(args: ConnectArgs) -> anyhow::Result<()> {
    let game: &dyn GameRules = &ReversiXtRules;
    let spec: BotSpec = args.bot.parse()?;
    let hosting = hosting(args.host, args.sandbox)?;
    let address = args
        .server
        .to_socket_addrs()
        .with_context(|| format!("`{}` is not ADDR:PORT", args.server))?
        .next()
        .ok_or_else(|| anyhow!("`{}` names no address", args.server))?;
    let stream = TcpStream::connect_timeout(&address, Duration::from_secs(10))
        .with_context(|| format!("cannot connect to {address}"))?;
    let seat = seating::seat(&spec, 0, game, &hosting)?;
    let seed = args.seed.unwrap_or_else(|| {
        let drawn = rand::random();
        eprintln!("agon: the bot's seed is {drawn} (`--seed {drawn}` gives it again)");
        drawn
    });
    let bot = ClientBot {
        host: seat.host,
        seed,
        bot_params: spec.params.clone(),
        start_budget: Some(Duration::from_secs(10)),
    };
    let report = client::play(stream, args.group, bot, game)
        .with_context(|| format!("playing on {address}"))?;
    let me = report.player as usize - 1;
    if args.json {
        let out = serde_json::json!({
            "player": report.player,
            "rank": report.ranks[me],
            "ranks": report.ranks,
            "stones": report.stones,
            "disqualified": report.disqualified,
            "moves_sent": report.moves_sent,
            "stand_ins": report.stand_ins,
            "restarts": report.restarts,
        });
        outln!(
            "{}",
            agon_play::console::json_text(&serde_json::to_string_pretty(&out)?)
        );
        return Ok(());
    }
    outln!(
        "player {} of {}: rank {}{} with {} stones (stones by player: {:?}); {} moves sent, {} \
         of them stand-ins for a failed bot; the bot was started again {} times",
        report.player,
        report.ranks.len(),
        report.ranks[me],
        if report.disqualified[me] {
            " (disqualified)"
        } else {
            ""
        },
        report.stones[me],
        report.stones,
        report.moves_sent,
        report.stand_ins,
        report.restarts
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::listen_address;
    use crate::cli::{Cli, Command, ReversixtCommand};
    use clap::Parser;

    fn serve(flags: &[&str]) -> String {
        let mut line = vec![
            "agon",
            "reversixt",
            "serve",
            "--map",
            "m",
            "--seat",
            "remote",
        ];
        line.extend(flags);
        match Cli::parse_from(line).command {
            Command::Reversixt(ReversixtCommand::Serve(args)) => listen_address(&args),
            _ => unreachable!("a serve command line"),
        }
    }

    #[test]
    fn the_old_bind_and_port_flags_still_say_where_to_listen() {
        assert_eq!(serve(&[]), "0.0.0.0:7777");
        assert_eq!(serve(&["--listen", "127.0.0.1:0"]), "127.0.0.1:0");
        assert_eq!(serve(&["--port", "0"]), "0.0.0.0:0");
        assert_eq!(
            serve(&["--bind", "127.0.0.1", "--port", "9"]),
            "127.0.0.1:9"
        );
        assert_eq!(serve(&["--bind", "::1"]), "[::1]:7777");
    }
}
