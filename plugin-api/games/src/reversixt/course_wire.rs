//! ReversiXT's course protocol messages (docs/games/reversixt.md, "Network protocol"): `type: u8`,
//! `length: u32` (payload bytes only), payload; all integers unsigned, big-endian.

use std::io::{self, Read, Write};

/// The largest payload accepted: the biggest map the rules allow (1000 x 1000 squares of two
/// bytes each, plus header and transitions) with room to spare; a larger length is refused
/// before anything is allocated.
pub const MAX_PAYLOAD: u32 = 8 << 20;

/// One protocol message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Message {
    /// 1, client -> server: the group number, first message after connecting.
    Group(u8),
    /// 2, server -> client: the map file's bytes.
    Map(Vec<u8>),
    /// 3, server -> client: your player number.
    PlayerNumber(u8),
    /// 4, server -> client: a move request with the time limit (ms) and depth limit.
    MoveRequest {
        /// The time limit in milliseconds (0: none).
        time_ms: u32,
        /// The depth limit in plies (0: none).
        depth: u8,
    },
    /// 5, client -> server: a move.
    MoveReply {
        /// The column.
        x: u16,
        /// The row.
        y: u16,
        /// The special field: a choice or bonus (docs/games/reversixt.md, "Network protocol").
        special: u8,
    },
    /// 6, server -> all: a move was made.
    MoveAnnouncement {
        /// The column.
        x: u16,
        /// The row.
        y: u16,
        /// As in [`Message::MoveReply`].
        special: u8,
        /// Who moved.
        player: u8,
    },
    /// 7, server -> all: that player is disqualified.
    Disqualified(u8),
    /// 8, server -> all: phase 1 is over.
    EndOfPhase1,
    /// 9, server -> all: the game is over.
    EndOfGame,
}

/// Why bytes are not a message.
#[derive(Debug, thiserror::Error)]
pub enum WireError {
    /// The stream ended; says where in a message.
    #[error("the connection closed {0}")]
    Closed(&'static str),
    /// A type byte the protocol does not have.
    #[error("unknown message type {0}")]
    UnknownType(u8),
    #[error(
        "message type {kind} must have a {expected}-byte payload, the length field says {found}"
    )]
    /// A fixed-size message with another length.
    Length {
        /// The message type.
        kind: u8,
        /// Its payload's size.
        expected: u32,
        /// The length field.
        found: u32,
    },
    #[error(
        "message type {kind} announces {found} payload bytes, more than the {MAX_PAYLOAD} accepted"
    )]
    /// A length beyond [`MAX_PAYLOAD`], refused before anything is allocated.
    TooLong {
        /// The message type.
        kind: u8,
        /// The length field.
        found: u32,
    },
    /// The stream failed.
    #[error(transparent)]
    Io(io::Error),
}

impl Message {
    /// The message's type byte.
    pub fn kind(&self) -> u8 {
        match self {
            Message::Group(_) => 1,
            Message::Map(_) => 2,
            Message::PlayerNumber(_) => 3,
            Message::MoveRequest { .. } => 4,
            Message::MoveReply { .. } => 5,
            Message::MoveAnnouncement { .. } => 6,
            Message::Disqualified(_) => 7,
            Message::EndOfPhase1 => 8,
            Message::EndOfGame => 9,
        }
    }

    fn payload(&self) -> Vec<u8> {
        match self {
            Message::Group(g) | Message::PlayerNumber(g) | Message::Disqualified(g) => vec![*g],
            Message::Map(bytes) => bytes.clone(),
            Message::MoveRequest { time_ms, depth } => {
                let mut p = time_ms.to_be_bytes().to_vec();
                p.push(*depth);
                p
            }
            Message::MoveReply { x, y, special } => {
                let mut p = x.to_be_bytes().to_vec();
                p.extend(y.to_be_bytes());
                p.push(*special);
                p
            }
            Message::MoveAnnouncement {
                x,
                y,
                special,
                player,
            } => {
                let mut p = x.to_be_bytes().to_vec();
                p.extend(y.to_be_bytes());
                p.extend([*special, *player]);
                p
            }
            Message::EndOfPhase1 | Message::EndOfGame => Vec::new(),
        }
    }

    /// The message as sent: type, big-endian length, payload.
    pub fn encode(&self) -> Vec<u8> {
        let payload = self.payload();
        let mut out = Vec::with_capacity(5 + payload.len());
        out.push(self.kind());
        out.extend((payload.len() as u32).to_be_bytes());
        out.extend(payload);
        out
    }

    /// Writes the message and flushes.
    pub fn write_to(&self, w: &mut impl Write) -> io::Result<()> {
        w.write_all(&self.encode())?;
        w.flush()
    }

    /// Reads one message, checking the type and the length the type requires before reading
    /// the payload.
    pub fn read_from(r: &mut impl Read) -> Result<Message, WireError> {
        let mut header = [0u8; 5];
        read_exact(
            r,
            &mut header,
            "before a message",
            "inside a message header",
        )?;
        let kind = header[0];
        let length = u32::from_be_bytes([header[1], header[2], header[3], header[4]]);
        let expected = match kind {
            1 | 3 | 7 => Some(1),
            2 => None,
            4 | 5 => Some(5),
            6 => Some(6),
            8 | 9 => Some(0),
            other => return Err(WireError::UnknownType(other)),
        };
        match expected {
            Some(expected) if expected != length => {
                return Err(WireError::Length {
                    kind,
                    expected,
                    found: length,
                })
            }
            None if length > MAX_PAYLOAD => {
                return Err(WireError::TooLong {
                    kind,
                    found: length,
                })
            }
            _ => {}
        }
        let mut p = vec![0u8; length as usize];
        read_exact(r, &mut p, "inside a payload", "inside a payload")?;
        let u16_at = |i: usize| u16::from_be_bytes([p[i], p[i + 1]]);
        Ok(match kind {
            1 => Message::Group(p[0]),
            2 => Message::Map(p),
            3 => Message::PlayerNumber(p[0]),
            4 => Message::MoveRequest {
                time_ms: u32::from_be_bytes([p[0], p[1], p[2], p[3]]),
                depth: p[4],
            },
            5 => Message::MoveReply {
                x: u16_at(0),
                y: u16_at(2),
                special: p[4],
            },
            6 => Message::MoveAnnouncement {
                x: u16_at(0),
                y: u16_at(2),
                special: p[4],
                player: p[5],
            },
            7 => Message::Disqualified(p[0]),
            8 => Message::EndOfPhase1,
            _ => Message::EndOfGame,
        })
    }
}

/// `read_exact` that tells a clean close before the first byte from a cut-off message.
fn read_exact(
    r: &mut impl Read,
    buf: &mut [u8],
    closed_at_start: &'static str,
    closed_inside: &'static str,
) -> Result<(), WireError> {
    let mut filled = 0;
    while filled < buf.len() {
        match r.read(&mut buf[filled..]) {
            Ok(0) if filled == 0 => return Err(WireError::Closed(closed_at_start)),
            Ok(0) => return Err(WireError::Closed(closed_inside)),
            Ok(n) => filled += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(WireError::Io(e)),
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Cursor;

    fn all() -> Vec<Message> {
        vec![
            Message::Group(7),
            Message::Map(b"2\n0\n0 0\n1 2\n1 2\n".to_vec()),
            Message::PlayerNumber(3),
            Message::MoveRequest {
                time_ms: 1500,
                depth: 0,
            },
            Message::MoveReply {
                x: 300,
                y: 2,
                special: 21,
            },
            Message::MoveAnnouncement {
                x: 1,
                y: 513,
                special: 0,
                player: 8,
            },
            Message::Disqualified(2),
            Message::EndOfPhase1,
            Message::EndOfGame,
        ]
    }

    #[test]
    fn layouts_are_the_rules_files_byte_for_byte() {
        assert_eq!(Message::Group(7).encode(), [1, 0, 0, 0, 1, 7]);
        assert_eq!(
            Message::MoveRequest {
                time_ms: 0x0102_0304,
                depth: 5
            }
            .encode(),
            [4, 0, 0, 0, 5, 1, 2, 3, 4, 5]
        );
        assert_eq!(
            Message::MoveReply {
                x: 0x0102,
                y: 0x0304,
                special: 20
            }
            .encode(),
            [5, 0, 0, 0, 5, 1, 2, 3, 4, 20]
        );
        assert_eq!(
            Message::MoveAnnouncement {
                x: 9,
                y: 0x0100,
                special: 2,
                player: 3
            }
            .encode(),
            [6, 0, 0, 0, 6, 0, 9, 1, 0, 2, 3]
        );
        assert_eq!(Message::EndOfGame.encode(), [9, 0, 0, 0, 0]);
        assert_eq!(
            &Message::Map(b"ab".to_vec()).encode(),
            &[2, 0, 0, 0, 2, b'a', b'b']
        );
    }

    #[test]
    fn every_message_reads_back_from_one_stream() {
        let stream: Vec<u8> = all().iter().flat_map(Message::encode).collect();
        let mut r = Cursor::new(stream);
        for m in all() {
            assert_eq!(Message::read_from(&mut r).unwrap(), m);
        }
        assert!(matches!(
            Message::read_from(&mut r),
            Err(WireError::Closed("before a message"))
        ));
    }

    #[test]
    fn malformed_frames_are_refused_with_the_reason() {
        let read = |bytes: &[u8]| Message::read_from(&mut Cursor::new(bytes.to_vec()));
        assert!(matches!(
            read(&[0, 0, 0, 0, 0]),
            Err(WireError::UnknownType(0))
        ));
        assert!(matches!(
            read(&[10, 0, 0, 0, 0]),
            Err(WireError::UnknownType(10))
        ));
        assert!(matches!(
            read(&[5, 0, 0, 0, 4, 0, 1, 0, 2]),
            Err(WireError::Length {
                kind: 5,
                expected: 5,
                found: 4
            })
        ));
        assert!(matches!(
            read(&[8, 0, 0, 0, 1, 0]),
            Err(WireError::Length {
                kind: 8,
                expected: 0,
                found: 1
            })
        ));
        assert!(matches!(
            read(&[2, 0xff, 0xff, 0xff, 0xff]),
            Err(WireError::TooLong { kind: 2, .. })
        ));
        assert!(matches!(
            read(&[5, 0, 0]),
            Err(WireError::Closed("inside a message header"))
        ));
        assert!(matches!(
            read(&[5, 0, 0, 0, 5, 0, 1]),
            Err(WireError::Closed("inside a payload"))
        ));
        let text = read(&[5, 0, 0, 0, 4]).unwrap_err().to_string();
        assert!(
            text.contains("5-byte payload") && text.contains("says 4"),
            "{text}"
        );
    }
}
