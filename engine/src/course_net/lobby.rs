//! Where course clients join a served game (rules file, "Network protocol"): each connects and
//! sends its group number (type 1); once every remote seat is taken, each gets the map (type 2)
//! and its player number (type 3). A connection that sends anything else first, or nothing in
//! time, is turned away with the reason logged and its seat stays open.

use super::reversixt::Message;
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

/// How long a new connection may take to send its group number.
const GREETING: Duration = Duration::from_secs(10);

/// Accepts `wanted` clients within `wait`, in the order they greet.
pub fn gather(
    listener: &TcpListener,
    wanted: usize,
    wait: Duration,
) -> Result<Vec<Joined>, LobbyError> {
    let until = Instant::now() + wait;
    listener
        .set_nonblocking(true)
        .map_err(LobbyError::Listener)?;
    let mut joined = Vec::new();
    while joined.len() < wanted {
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
        match greet(&stream) {
            Ok(group) => {
                log::info!("client {peer} joined as group {group}");
                joined.push(Joined {
                    stream,
                    group,
                    peer,
                });
            }
            Err(why) => log::warn!("client {peer} turned away: {why}"),
        }
    }
    Ok(joined)
}

fn greet(stream: &TcpStream) -> Result<u8, String> {
    stream.set_nonblocking(false).map_err(|e| e.to_string())?;
    stream
        .set_read_timeout(Some(GREETING))
        .map_err(|e| e.to_string())?;
    let _ = stream.set_nodelay(true);
    match Message::read_from(&mut &*stream) {
        Ok(Message::Group(group)) => Ok(group),
        Ok(other) => Err(format!(
            "its first message has type {}, expected the group number (type 1)",
            other.kind()
        )),
        Err(e) => Err(format!("no group number: {e}")),
    }
}

/// Sends each joined client the map and its player number. A client that cannot be written to
/// is logged; it faults at its first move request.
pub fn deal(joined: &[Joined], players: &[u8], map: &[u8]) {
    for (client, &player) in joined.iter().zip(players) {
        let sent = Message::Map(map.to_vec())
            .write_to(&mut &client.stream)
            .and_then(|_| Message::PlayerNumber(player).write_to(&mut &client.stream));
        if let Err(e) = sent {
            log::warn!("client {} (player {player}): {e}", client.peer);
        }
    }
}
