//! A seat held by a course client over TCP (rules file, "Network protocol"): each request is a
//! type-4 message with the client's time account and depth limit, each answer must be a type-5
//! move within the budget. Whatever else arrives — another type, a wrong length, a closed
//! connection, silence past the deadline — is that seat's fault, with the reason; never a panic.

use super::{Call, CallResult, Deadline, HostKind, SeatHost};
use crate::course_net::deadline_io::DeadlineReader;
use crate::fault::FaultCause;
use agon_games::protocol::{self, Reply};
use agon_games::reversixt::course_wire::{Message, WireError};
use agon_games::reversixt::protocol as wire;
use std::io;
use std::net::TcpStream;
use std::time::{Duration, Instant};

pub struct RemoteSeat {
    stream: TcpStream,
    /// Why the client can no longer be asked (it timed out mid-message or closed).
    gone: Option<String>,
}

impl RemoteSeat {
    pub fn new(stream: TcpStream) -> RemoteSeat {
        RemoteSeat { stream, gone: None }
    }

    /// Marks the connection lost for `why`, so that later requests are abandoned with it; the
    /// fault of the request that lost it.
    fn lost<T>(&mut self, why: String) -> CallResult<T> {
        self.gone = Some(why.clone());
        CallResult::Fault {
            cause: FaultCause::Exited,
            detail: why,
        }
    }
}

fn fault<T>(cause: FaultCause, detail: String, started: Instant) -> Call<T> {
    Call {
        result: CallResult::Fault { cause, detail },
        wall: started.elapsed(),
        cpu: None,
    }
}

impl SeatHost for RemoteSeat {
    fn kind(&self) -> HostKind {
        HostKind::Remote
    }

    /// The course handshake (group, map, player number) happened when the client joined.
    fn start(&mut self, _message: Vec<u8>, _deadline: Deadline) -> Call<()> {
        Call {
            result: CallResult::Answer(()),
            wall: Duration::ZERO,
            cpu: None,
        }
    }

    fn act(&mut self, message: Vec<u8>, deadline: Deadline) -> Call<Vec<u8>> {
        let started = Instant::now();
        if let Some(why) = &self.gone {
            return fault(FaultCause::Abandoned, why.clone(), started);
        }
        let observation: wire::Observation = match protocol::decode(&message) {
            Ok(o) => o,
            Err(e) => {
                return fault(
                    FaultCause::Malformed,
                    format!("not a ReversiXT observation: {e}"),
                    started,
                )
            }
        };
        let request = Message::MoveRequest {
            time_ms: observation.time_account_ms.min(u32::MAX as u64) as u32,
            depth: observation.depth.min(u8::MAX as u32) as u8,
        };
        if let Err(e) = request.write_to(&mut &self.stream) {
            return Call {
                result: self.lost(format!("the move request could not be sent: {e}")),
                wall: started.elapsed(),
                cpu: None,
            };
        }
        let mut reader = DeadlineReader {
            stream: &self.stream,
            until: started + deadline.watchdog(),
        };
        let reply = Message::read_from(&mut reader);
        let wall = started.elapsed();
        let result = match reply {
            Ok(Message::MoveReply { x, y, special }) => {
                CallResult::Answer(protocol::encode(&Reply::new(wire::Move { x, y, special })))
            }
            Ok(other) => CallResult::Fault {
                cause: FaultCause::Malformed,
                detail: format!(
                    "expected a move reply (type 5), the client sent type {}",
                    other.kind()
                ),
            },
            Err(WireError::Io(e))
                if matches!(
                    e.kind(),
                    io::ErrorKind::TimedOut | io::ErrorKind::WouldBlock
                ) =>
            {
                self.gone = Some("it did not answer an earlier request in time".into());
                CallResult::TimedOut
            }
            Err(WireError::Closed(when)) => {
                self.lost(format!("the client closed the connection {when}"))
            }
            Err(WireError::Io(e)) => self.lost(format!("the connection failed: {e}")),
            Err(e) => CallResult::Fault {
                cause: FaultCause::Malformed,
                detail: e.to_string(),
            },
        };
        Call {
            result,
            wall,
            cpu: None,
        }
    }
}
