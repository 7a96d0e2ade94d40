//! The course server's announcements (rules file, "Network protocol"): after every valid move a
//! type-6 message to every client, type 7 when a player is disqualified (the offender too),
//! type 8 when phase 1 ends, type 9 at the end. The announcer follows the game on its own
//! position to know when phase 1 ends.
//!
//! Type 8 is sent whenever the game leaves phase 1 after a move, straight into the end of the
//! game included (the course server sends 6, 8, 9), and before the first request when the game
//! starts past phase 1 (a map where nobody can build: the server sends 2, 3, 8, then 4; a
//! course client waits for it). The rules file is silent on a disqualification that leaves a
//! single player: that ends the game, not phase 1, so it is 7 then 9 without 8.

use crate::record::MoveRecord;
use crate::runner::MatchObserver;
use agon_games::contract::Outcome;
use agon_games::reversixt::course_wire::Message;
use agon_games::reversixt::session::parse_notation;
use agon_games::reversixt::{Map, Phase, Position};
use std::net::TcpStream;

pub struct Announcer {
    /// `None` once a write to that client failed (timed out: it stopped reading): it is not
    /// written to again, so it cannot make every later announcement wait.
    clients: Vec<Option<TcpStream>>,
    position: Position,
}

impl Announcer {
    /// `clients`: write handles of every connected client.
    /// Call it once the clients have their maps and numbers: a game that starts past phase 1
    /// is announced as such at once.
    pub fn new(map: Map, clients: Vec<TcpStream>) -> Announcer {
        let mut announcer = Announcer {
            clients: clients.into_iter().map(Some).collect(),
            position: Position::new(map),
        };
        if announcer.position.phase != Phase::Building {
            announcer.send(&Message::EndOfPhase1);
        }
        announcer
    }

    fn send(&mut self, message: &Message) {
        let bytes = message.encode();
        for slot in &mut self.clients {
            // A client that stopped reading faults at its own next request; the others must
            // still hear of the game.
            if let Some(client) = slot {
                if let Err(e) = std::io::Write::write_all(client, &bytes) {
                    log::info!(
                        "announcement to {:?} failed: {e}; no more announcements to it",
                        client.peer_addr()
                    );
                    *slot = None;
                }
            }
        }
    }

    fn after_move(&mut self, was: Phase) {
        if was == Phase::Building && self.position.phase != Phase::Building {
            self.send(&Message::EndOfPhase1);
        }
    }
}

impl MatchObserver for Announcer {
    fn moved(&mut self, played: &MoveRecord) {
        let notation = played.action.as_str();
        let player = played.seat as u8 + 1;
        let Some(m) = parse_notation(notation) else {
            log::error!("announcer: `{notation}` is no ReversiXT move");
            return;
        };
        let was = self.position.phase;
        if let Err(e) = self.position.play(player, m) {
            log::error!("announcer: the engine applied {notation} but the rules say {e}");
        }
        self.send(&Message::MoveAnnouncement {
            x: m.x as u16,
            y: m.y as u16,
            special: m.special,
            player,
        });
        self.after_move(was);
    }

    fn disqualified(&mut self, seat: usize) {
        let was = self.position.phase;
        self.position.disqualify(seat as u8 + 1);
        self.send(&Message::Disqualified(seat as u8 + 1));
        if was == Phase::Building && self.position.phase == Phase::Bombing {
            self.send(&Message::EndOfPhase1);
        }
    }

    fn ended(&mut self, _outcome: &Outcome) {
        self.send(&Message::EndOfGame);
    }
}
