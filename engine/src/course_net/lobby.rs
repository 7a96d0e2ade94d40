//! Where course clients join a served game (rules file, "Network protocol"): each connects and
//! sends its group number (type 1); once every remote seat is taken, each gets the map (type 2)
//! and its player number (type 3). A connection that sends anything else first, or nothing in
//! time, is turned away with the reason logged and its seat stays open. Connections greet on
//! threads of their own, each within a deadline for the whole greeting, and every write to a
//! client has a time limit: no client, silent, slow or not reading, holds up the others.

use super::deadline_io::{DeadlineReader, DeadlineWriter};
use agon_games::reversixt::course_wire::Message;
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::time::{Duration, Instant};

/// A client that joined: its connection, group and address.
pub struct Joined {
    pub stream: TcpStream,
    pub group: u8,
    pub peer: SocketAddr,
}

#[derive(Debug, thiserror::Error)]
pub enum LobbyError {
    #[error("{joined} of {wanted} clients joined within {waited:?}")]
    NotEnough {
        joined: usize,
        wanted: usize,
        waited: Duration,
    },
    #[error("the listening socket failed: {0}")]
    Listener(std::io::Error),
}

/// How long a new connection may take, in all, to send its group number: a client trickling
/// a byte every few seconds is turned away when this runs out, not kept forever.
const GREETING: Duration = Duration::from_secs(10);

/// How long writing one message to a client may take in all (the map is the largest): a client
/// that never reads cannot hold the server.
pub const WRITE_LIMIT: Duration = Duration::from_secs(10);

/// Connections greeting at once; more are turned away at once (a crowd of silent connections
/// must not lock real clients out).
const MAX_GREETING: usize = 1024;

/// Accepts `wanted` clients within `wait`, in the order they greet. Each new connection greets
/// on its own thread, so silent ones delay nobody.
pub fn gather(
    listener: &TcpListener,
    wanted: usize,
    wait: Duration,
) -> Result<Vec<Joined>, LobbyError> {
    let until = Instant::now() + wait;
    listener
        .set_nonblocking(true)
        .map_err(LobbyError::Listener)?;
    let (greeted_tx, greeted) = crossbeam_channel::unbounded::<Greeted>();
    let greeting = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let mut joined = Vec::new();
    while joined.len() < wanted {
        while let Ok(result) = greeted.try_recv() {
            match result {
                Greeted::Joined(client) if joined.len() < wanted => {
                    log::info!("client {} joined as group {}", client.peer, client.group);
                    joined.push(client);
                }
                Greeted::Joined(client) => {
                    log::warn!("client {} turned away: the game is full", client.peer)
                }
                Greeted::Refused { peer, why } => log::warn!("client {peer} turned away: {why}"),
            }
        }
        if joined.len() == wanted {
            break;
        }
        if Instant::now() >= until {
            return Err(LobbyError::NotEnough {
                joined: joined.len(),
                wanted,
                waited: wait,
            });
        }
        let (stream, peer) = match listener.accept() {
            Ok(c) => c,
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                std::thread::sleep(Duration::from_millis(5));
                continue;
            }
            Err(e) => return Err(LobbyError::Listener(e)),
        };
        use std::sync::atomic::Ordering;
        if greeting.load(Ordering::SeqCst) >= MAX_GREETING {
            log::warn!("client {peer} turned away: {MAX_GREETING} connections are greeting");
            continue;
        }
        greeting.fetch_add(1, Ordering::SeqCst);
        let (tx, count) = (greeted_tx.clone(), greeting.clone());
        let spawned = std::thread::Builder::new()
            .name(format!("greeting {peer}"))
            .spawn(move || {
                let result = match greet(&stream) {
                    Ok(group) => Greeted::Joined(Joined {
                        stream,
                        group,
                        peer,
                    }),
                    Err(why) => Greeted::Refused { peer, why },
                };
                count.fetch_sub(1, Ordering::SeqCst);
                let _ = tx.send(result);
            });
        if let Err(e) = spawned {
            greeting.fetch_sub(1, Ordering::SeqCst);
            log::warn!("client {peer} turned away: cannot start its greeting: {e}");
        }
    }
    Ok(joined)
}

enum Greeted {
    Joined(Joined),
    Refused { peer: SocketAddr, why: String },
}

fn greet(stream: &TcpStream) -> Result<u8, String> {
    stream.set_nonblocking(false).map_err(|e| e.to_string())?;
    stream
        .set_write_timeout(Some(WRITE_LIMIT))
        .map_err(|e| e.to_string())?;
    let _ = stream.set_nodelay(true);
    let mut reader = DeadlineReader {
        stream,
        until: Instant::now() + GREETING,
    };
    let greeting = Message::read_from(&mut reader);
    // The game's own reads set their own timeouts; none is left over from the greeting.
    stream.set_read_timeout(None).map_err(|e| e.to_string())?;
    match greeting {
        Ok(Message::Group(group)) => Ok(group),
        Ok(other) => Err(format!(
            "its first message has type {}, expected the group number (type 1)",
            other.kind()
        )),
        Err(e) => Err(format!(
            "no group number within {} s: {e}",
            GREETING.as_secs()
        )),
    }
}

/// Sends each joined client the map and its player number. A client that cannot be written to
/// is logged; it faults at its first move request.
pub fn deal(joined: &[Joined], players: &[u8], map: &[u8]) {
    for (client, &player) in joined.iter().zip(players) {
        let mut out = DeadlineWriter {
            stream: &client.stream,
            until: Instant::now() + WRITE_LIMIT,
        };
        let sent = Message::Map(map.to_vec())
            .write_to(&mut out)
            .and_then(|_| Message::PlayerNumber(player).write_to(&mut out));
        // Later writes (announcements, requests) get the per-write limit set in `greet`.
        let _ = client.stream.set_write_timeout(Some(WRITE_LIMIT));
        if let Err(e) = sent {
            log::warn!("client {} (player {player}): {e}", client.peer);
        }
    }
}
