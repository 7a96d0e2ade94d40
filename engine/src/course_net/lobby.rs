//! Where course clients join a served game (rules file, "Network protocol"): each connects and
//! sends its group number (type 1); once every remote seat is taken, each gets the map (type 2)
//! and its player number (type 3). A connection that sends anything else first, or nothing in
//! time, is turned away with the reason logged and its seat stays open. Connections greet on
//! threads of their own, each within a deadline for the whole greeting, and every write to a
//! client has a time limit: no client, silent, slow or not reading, holds up the others.

use super::deadline_io::{DeadlineReader, DeadlineWriter};
use agon_games::reversixt::course_wire::{Message, WireError};
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
    Refused { peer: SocketAddr, why: Refusal },
}

/// Why a connection was turned away before it joined; logged, and its seat stays open.
#[derive(Debug, thiserror::Error)]
enum Refusal {
    /// Its socket could not be made blocking or given a write limit.
    #[error(transparent)]
    Socket(#[from] std::io::Error),
    #[error("its first message has type {kind}, expected the group number (type 1)")]
    NotAGroup { kind: u8 },
    #[error("no group number within {secs} s: {0}", secs = GREETING.as_secs())]
    NoGroup(#[source] WireError),
}

fn greet(stream: &TcpStream) -> Result<u8, Refusal> {
    stream.set_nonblocking(false)?;
    stream.set_write_timeout(Some(WRITE_LIMIT))?;
    let _ = stream.set_nodelay(true);
    let mut reader = DeadlineReader {
        stream,
        until: Instant::now() + GREETING,
    };
    let greeting = Message::read_from(&mut reader);
    // The game's own reads set their own timeouts; none is left over from the greeting.
    stream.set_read_timeout(None)?;
    match greeting {
        Ok(Message::Group(group)) => Ok(group),
        Ok(other) => Err(Refusal::NotAGroup { kind: other.kind() }),
        Err(e) => Err(Refusal::NoGroup(e)),
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    /// What `greet` makes of a client that connects and sends `bytes`, then closes.
    fn greeting_of(bytes: &[u8]) -> Result<u8, Refusal> {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let mut client = TcpStream::connect(listener.local_addr().unwrap()).unwrap();
        client.write_all(bytes).unwrap();
        drop(client);
        let (server_side, _) = listener.accept().unwrap();
        greet(&server_side)
    }

    fn wire(message: Message) -> Vec<u8> {
        let mut bytes = Vec::new();
        message.write_to(&mut bytes).unwrap();
        bytes
    }

    #[test]
    fn a_group_number_joins_and_what_a_client_sends_otherwise_is_refused_with_its_reason() {
        assert_eq!(greeting_of(&wire(Message::Group(7))).unwrap(), 7);
        let refused = greeting_of(&wire(Message::PlayerNumber(1))).unwrap_err();
        assert!(
            matches!(refused, Refusal::NotAGroup { kind: 3 }),
            "{refused:?}"
        );
        assert_eq!(
            refused.to_string(),
            "its first message has type 3, expected the group number (type 1)"
        );
        let silent = greeting_of(&[]).unwrap_err();
        assert!(matches!(silent, Refusal::NoGroup(_)), "{silent:?}");
        assert!(silent
            .to_string()
            .starts_with("no group number within 10 s: "));
    }
}
