//! A plugin bot playing on a course server (rules file, "Network protocol"): the client keeps
//! its own copy of the game from the server's messages, asks the bot on each move request with
//! the server's time account (less a safety margin), and sends the bot's move. If the bot fails
//! or answers a move the rules refuse, the client sends its first legal move instead, so one bad
//! answer does not cost the team the game; each such stand-in is counted and logged. A bot whose
//! process died or was killed for a late answer is started again for the next request (as the
//! engine does under `skip`), so one late answer costs one move, not the rest of the game.

use crate::host::{CallResult, Deadline, SeatHost};
use agon_games::contract::{GameRules, RawParams};
use agon_games::protocol::{self, Reply, Start};
use agon_games::reversixt::convert;
use agon_games::reversixt::course_wire::{Message, WireError};
use agon_games::reversixt::protocol as wire;
use agon_games::reversixt::{Map, MapError, Move, Phase, Position};
use std::net::TcpStream;
use std::time::Duration;

/// What the client saw of a finished game.
#[derive(Debug, Clone, PartialEq)]
pub struct ClientReport {
    pub player: u8,
    /// Per player (index 0 is player 1).
    pub ranks: Vec<usize>,
    pub stones: Vec<usize>,
    pub disqualified: Vec<bool>,
    /// Moves this client sent, and how many of them were stand-ins for a failed bot.
    pub moves_sent: u32,
    pub stand_ins: u32,
    /// How often the bot was started again after its process died or was killed.
    pub restarts: u32,
}

#[derive(Debug, thiserror::Error)]
pub enum ClientError {
    #[error("the connection failed: {0}")]
    Wire(#[from] WireError),
    #[error("the server's map is invalid: {0}")]
    Map(MapError),
    #[error("the server sent type {kind} {when}")]
    Unexpected { kind: u8, when: &'static str },
    #[error("the server gave player number {player} on a {players}-player map")]
    PlayerNumber { player: u8, players: u8 },
    #[error("the server announced player {player}'s move {x},{y} special {special}, which the rules refuse: {why}")]
    Diverged {
        player: u8,
        x: u16,
        y: u16,
        special: u8,
        why: String,
    },
    #[error("the server asked for a move, but by the rules player {player} has none")]
    NoMove { player: u8 },
    #[error("the bot did not start: {0}")]
    Start(String),
}

/// Where the bot is and what it starts with.
pub struct ClientBot {
    pub host: Box<dyn SeatHost>,
    pub seed: u64,
    pub bot_params: RawParams,
    pub start_budget: Option<Duration>,
}

/// Time kept back from the server's account for the network and this client: a fifth, at most
/// 200 ms.
fn margin(time_ms: u32) -> Duration {
    Duration::from_millis((time_ms as u64 / 5).min(200))
}

/// Joins the game on `stream` as `group` and plays it to the end.
pub fn play(
    stream: TcpStream,
    group: u8,
    mut bot: ClientBot,
    game: &dyn GameRules,
) -> Result<ClientReport, ClientError> {
    let _ = stream.set_nodelay(true);
    send(&stream, Message::Group(group))?;
    let (text, map) = receive_map(&stream)?;
    let players = map.players;
    let player = receive_player_number(&stream, players)?;
    log::info!("playing {} as player {player} of {players}", game.name());
    let start_message = protocol::encode(&start_for(&bot, player, players, text));
    start_bot(&mut bot, &start_message)?;
    Game {
        stream,
        bot,
        start_message,
        position: Position::new(map),
        player,
        players,
        ply: 0,
        report: ClientReport {
            player,
            ranks: Vec::new(),
            stones: Vec::new(),
            disqualified: Vec::new(),
            moves_sent: 0,
            stand_ins: 0,
            restarts: 0,
        },
    }
    .play_to_end()
}

fn send(stream: &TcpStream, message: Message) -> Result<(), ClientError> {
    message
        .write_to(&mut &*stream)
        .map_err(|e| ClientError::Wire(WireError::Io(e)))
}

/// The map message's text, and the map it describes.
fn receive_map(stream: &TcpStream) -> Result<(String, Map), ClientError> {
    let map_bytes = match Message::read_from(&mut &*stream)? {
        Message::Map(bytes) => bytes,
        other => {
            return Err(ClientError::Unexpected {
                kind: other.kind(),
                when: "where the map (type 2) belongs",
            })
        }
    };
    let text = String::from_utf8_lossy(&map_bytes).into_owned();
    let map = Map::parse_lenient(&text).map_err(ClientError::Map)?;
    Ok((text, map))
}

fn receive_player_number(stream: &TcpStream, players: u8) -> Result<u8, ClientError> {
    match Message::read_from(&mut &*stream)? {
        Message::PlayerNumber(p) if (1..=players).contains(&p) => Ok(p),
        Message::PlayerNumber(p) => Err(ClientError::PlayerNumber { player: p, players }),
        other => Err(ClientError::Unexpected {
            kind: other.kind(),
            when: "where the player number (type 3) belongs",
        }),
    }
}

/// The bot's start message: the server gives no time or depth limit up front, only with each
/// move request.
fn start_for(bot: &ClientBot, player: u8, players: u8, map: String) -> Start<wire::Setup> {
    Start {
        seat: player as u32 - 1,
        seats: players as u32,
        seed: bot.seed,
        start_budget_ms: bot.start_budget.map_or(0, |d| d.as_millis() as u64),
        move_budget_ms: 0,
        bot_params: bot.bot_params.clone(),
        game: wire::Setup {
            you: player,
            players,
            map,
            time_ms: 0,
            depth: 0,
        },
    }
}

fn start_bot(bot: &mut ClientBot, start_message: &[u8]) -> Result<(), ClientError> {
    let call = bot
        .host
        .start(start_message.to_vec(), Deadline::wall(bot.start_budget));
    match call.result {
        CallResult::Answer(()) => Ok(()),
        CallResult::Failed(f) => Err(ClientError::Start(crate::host::describe_failure(&f))),
        CallResult::TimedOut => Err(ClientError::Start("it timed out".into())),
        CallResult::Fault { cause, detail } => {
            Err(ClientError::Start(format!("{cause}: {detail}")))
        }
    }
}

/// The client's side of a game in progress: its own copy of the position, kept in step with
/// the server's announcements.
struct Game {
    stream: TcpStream,
    bot: ClientBot,
    /// Kept to start the bot again after its process is gone.
    start_message: Vec<u8>,
    position: Position,
    player: u8,
    players: u8,
    ply: u32,
    report: ClientReport,
}

impl Game {
    fn play_to_end(mut self) -> Result<ClientReport, ClientError> {
        loop {
            match Message::read_from(&mut &self.stream)? {
                Message::MoveRequest { time_ms, depth } => self.answer(time_ms, depth)?,
                Message::MoveAnnouncement {
                    x,
                    y,
                    special,
                    player: mover,
                } => self.follow(mover, x, y, special)?,
                Message::Disqualified(p) if (1..=self.players).contains(&p) => {
                    log::warn!(
                        "player {p} is disqualified{}",
                        if p == self.player { " (us)" } else { "" }
                    );
                    self.position.disqualify(p);
                }
                Message::EndOfPhase1 => {
                    if self.position.phase == Phase::Building {
                        log::warn!("the server ended phase 1 where the rules still have moves");
                    }
                }
                Message::EndOfGame => break,
                other => {
                    return Err(ClientError::Unexpected {
                        kind: other.kind(),
                        when: "during the game",
                    })
                }
            }
        }
        self.report.ranks = self.position.ranks();
        self.report.stones = self.position.map.stones();
        self.report.disqualified = self.position.disqualified.clone();
        Ok(self.report)
    }

    fn answer(&mut self, time_ms: u32, depth: u8) -> Result<(), ClientError> {
        restart_if_gone(
            &mut self.bot,
            &self.start_message,
            self.ply,
            &mut self.report,
        );
        let m = choose(
            &mut self.bot,
            &self.position,
            self.player,
            self.ply,
            time_ms,
            depth,
            &mut self.report,
        )?;
        send(
            &self.stream,
            Message::MoveReply {
                x: m.x as u16,
                y: m.y as u16,
                special: m.special,
            },
        )?;
        self.report.moves_sent += 1;
        Ok(())
    }

    /// Plays an announced move on our copy; a move our rules refuse means the copies differ.
    fn follow(&mut self, mover: u8, x: u16, y: u16, special: u8) -> Result<(), ClientError> {
        let m = Move {
            x: x as usize,
            y: y as usize,
            special,
        };
        self.position
            .play(mover, m)
            .map_err(|e| ClientError::Diverged {
                player: mover,
                x,
                y,
                special,
                why: e.to_string(),
            })?;
        self.ply += 1;
        Ok(())
    }
}

/// Starts the bot again when its host is gone (died, or killed at a deadline). If that fails,
/// the request gets a stand-in as any other failure would.
fn restart_if_gone(bot: &mut ClientBot, start: &[u8], ply: u32, report: &mut ClientReport) {
    let Some(reason) = bot.host.gone() else {
        return;
    };
    let started = bot
        .host
        .restart()
        .map_err(|e| e.to_string())
        .and_then(|()| {
            match bot
                .host
                .start(start.to_vec(), Deadline::wall(bot.start_budget))
                .result
            {
                CallResult::Answer(()) => Ok(()),
                CallResult::Failed(f) => Err(crate::host::describe_failure(&f)),
                CallResult::TimedOut => Err("its start timed out".into()),
                CallResult::Fault { cause, detail } => Err(format!("{cause}: {detail}")),
            }
        });
    match started {
        Ok(()) => {
            report.restarts += 1;
            log::warn!("the bot was started again before ply {ply} ({reason})");
        }
        Err(e) => log::warn!("starting the bot again before ply {ply} failed: {e}"),
    }
}

/// The bot's move for this request, or the first legal move when the bot fails.
fn choose(
    bot: &mut ClientBot,
    position: &Position,
    player: u8,
    ply: u32,
    time_ms: u32,
    depth: u8,
    report: &mut ClientReport,
) -> Result<Move, ClientError> {
    // The server asks the player it considers to move; the rules agree unless it skipped
    // differently, which the next announcement would show. A game our rules call over has
    // no legal move, and that divergence is an error below.
    let mut asked = position.clone();
    asked.to_move = player;
    let legal = asked.legal_moves();
    let Some(&fallback) = legal.first() else {
        return Err(ClientError::NoMove { player });
    };
    let observation = convert::observation(&asked, player, ply, time_ms as u64, depth as u32)
        .expect("the phase is not over");
    let budget = (time_ms > 0)
        .then(|| Duration::from_millis(time_ms as u64).saturating_sub(margin(time_ms)));
    let call = bot
        .host
        .act(protocol::encode(&observation), Deadline::wall(budget));
    let answer = match call.result {
        CallResult::Answer(bytes) => match protocol::decode::<Reply<wire::Move>>(&bytes) {
            Ok(reply) => Ok(Move::from(reply.action)),
            Err(e) => Err(format!("its answer does not decode: {e}")),
        },
        CallResult::Failed(f) => Err(crate::host::describe_failure(&f)),
        CallResult::TimedOut => Err(match budget {
            Some(b) => format!("no answer within {:.3} s", b.as_secs_f64()),
            None => "no answer before the watchdog".to_string(),
        }),
        CallResult::Fault { cause, detail } => Err(format!("{cause}: {detail}")),
    };
    let checked = answer.and_then(|m| {
        let mut trial = asked.clone();
        trial.play(player, m).map(|_| m).map_err(|e| {
            format!(
                "it answered {},{}:{}, which the rules refuse: {e}",
                m.x, m.y, m.special
            )
        })
    });
    match checked {
        Ok(m) => Ok(m),
        Err(why) => {
            log::warn!("the bot failed at ply {ply} ({why}); sending the first legal move");
            report.stand_ins += 1;
            Ok(fallback)
        }
    }
}
