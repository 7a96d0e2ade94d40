//! Socket reads and writes with a deadline for a whole message, however the bytes trickle: the
//! time left is each system call's timeout, so a peer that sends (or reads) a byte every few
//! seconds still runs out of time at the deadline.

use std::io::{self, Read, Write};
use std::net::TcpStream;
use std::time::Instant;

/// Reads from a socket until a deadline for the whole message, however the bytes trickle in.
pub struct DeadlineReader<'a> {
    pub stream: &'a TcpStream,
    pub until: Instant,
}

impl Read for DeadlineReader<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let left = self.until.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(io::ErrorKind::TimedOut.into());
        }
        self.stream.set_read_timeout(Some(left))?;
        (&mut &*self.stream).read(buf)
    }
}

/// Writes to a socket until a deadline for the whole message, however slowly the peer reads.
pub struct DeadlineWriter<'a> {
    pub stream: &'a TcpStream,
    pub until: Instant,
}

impl Write for DeadlineWriter<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let left = self.until.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(io::ErrorKind::TimedOut.into());
        }
        self.stream.set_write_timeout(Some(left))?;
        (&mut &*self.stream).write(buf)
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::net::TcpListener;
    use std::time::Duration;

    /// A peer that never reads: the kernel's buffers fill, and the write gives up at its
    /// deadline instead of blocking the server forever.
    #[test]
    fn a_write_to_a_peer_that_never_reads_ends_at_the_deadline() {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let _peer = TcpStream::connect(listener.local_addr().unwrap()).unwrap();
        let (server_side, _) = listener.accept().unwrap();
        let mut out = DeadlineWriter {
            stream: &server_side,
            until: Instant::now() + Duration::from_millis(300),
        };
        let error = out.write_all(&vec![0u8; 256 << 20]).unwrap_err();
        assert!(
            matches!(
                error.kind(),
                io::ErrorKind::TimedOut | io::ErrorKind::WouldBlock
            ),
            "{error}"
        );
    }

    /// A peer that trickles one byte at a time still runs out of time for the whole message.
    #[test]
    fn a_trickled_message_ends_at_the_deadline() {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let mut peer = TcpStream::connect(listener.local_addr().unwrap()).unwrap();
        let (server_side, _) = listener.accept().unwrap();
        let trickle = std::thread::spawn(move || {
            for _ in 0..20 {
                if peer.write_all(&[1]).is_err() {
                    break;
                }
                std::thread::sleep(Duration::from_millis(100));
            }
        });
        let mut reader = DeadlineReader {
            stream: &server_side,
            until: Instant::now() + Duration::from_millis(350),
        };
        let mut message = [0u8; 10];
        let error = reader.read_exact(&mut message).unwrap_err();
        assert!(
            matches!(
                error.kind(),
                io::ErrorKind::TimedOut | io::ErrorKind::WouldBlock
            ),
            "{error}"
        );
        drop(server_side);
        trickle.join().unwrap();
    }
}
