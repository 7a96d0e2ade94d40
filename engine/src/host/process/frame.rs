//! Frames on the host's pipes: `[u32 little-endian body length][u8 kind][payload]`. Payloads are
//! the same bincode protocol messages the other hosts pass; control messages (hello, ready) are
//! JSON. A frame's length is checked before anything is allocated for it.

use agon_abi::wire::MAX_MESSAGE_BYTES;
use rustix::event::{poll, PollFd, PollFlags, Timespec};
use std::io::{self, Read, Write};
use std::os::fd::{AsFd, BorrowedFd};
use std::time::{Duration, Instant};

/// Engine to host.
pub const HELLO: u8 = 0;
pub const START: u8 = 1;
pub const ACT: u8 = 2;

/// Host to engine.
pub const READY: u8 = 0;
pub const LOAD_FAILED: u8 = 1;
pub const ANSWER: u8 = 2;
pub const FAILED: u8 = 3;
/// The host is confined and, where it could, has handed the engine its refusal listener
/// (`sandbox::notifier`); it loads the plugin next.
pub const CONFINED: u8 = 4;

/// The largest body either side accepts: a protocol message plus the kind byte.
pub const MAX_BODY: usize = MAX_MESSAGE_BYTES + 1;

/// Writes one frame with blocking writes (the host side, and the engine's small requests).
pub fn write_frame(out: &mut impl Write, kind: u8, payload: &[u8]) -> io::Result<()> {
    let len = u32::try_from(payload.len() + 1)
        .map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, "frame over 4 GiB"))?;
    let mut header = [0u8; 5];
    header[..4].copy_from_slice(&len.to_le_bytes());
    header[4] = kind;
    out.write_all(&header)?;
    out.write_all(payload)?;
    out.flush()
}

/// Reads one frame with blocking reads (the host side). `Ok(None)` at a clean end of input.
pub fn read_frame(input: &mut impl Read) -> io::Result<Option<(u8, Vec<u8>)>> {
    let mut len = [0u8; 4];
    match input.read_exact(&mut len) {
        Ok(()) => {}
        Err(e) if e.kind() == io::ErrorKind::UnexpectedEof => return Ok(None),
        Err(e) => return Err(e),
    }
    let len = u32::from_le_bytes(len) as usize;
    if len == 0 || len > MAX_BODY {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!("frame of {len} bytes"),
        ));
    }
    let mut body = vec![0u8; len];
    input.read_exact(&mut body)?;
    let kind = body.remove(0);
    Ok(Some((kind, body)))
}

/// Why a deadline read produced no frame.
#[derive(Debug)]
pub enum ReadError {
    /// The deadline passed first.
    Deadline,
    /// The other side closed the pipe.
    Closed,
    /// The length prefix announced more than [`MAX_BODY`] bytes.
    TooLarge(usize),
    /// The refusal listener has a notice: the sandbox refused one of the host's calls.
    Refused,
    Io(io::Error),
}

/// A pipe to read frames from, and a descriptor whose readiness ends the read at once (the
/// host's refusal listener): a host whose call was refused waits for the engine, which must
/// not wait for it.
#[derive(Clone, Copy)]
pub struct Watched<'a> {
    pub fd: BorrowedFd<'a>,
    pub alarm: Option<BorrowedFd<'a>>,
}

/// What a deadline read asks while it waits.
pub trait Waiting {
    /// When to give up. Asked again at every wake-up: it may move later while waiting (when
    /// the engine itself was stalled, see `host::engine_stall`; when the bot was starved of a
    /// CPU, see `host::starvation`).
    fn deadline(&mut self) -> Option<Instant>;
    /// How often to wake up and ask [`Waiting::keep_waiting`] besides.
    fn check_every(&self) -> Option<Duration> {
        None
    }
    /// Whether to go on waiting, asked at every wake-up before the deadline.
    fn keep_waiting(&mut self) -> bool {
        true
    }
}

/// A deadline alone.
impl<F: Fn() -> Option<Instant>> Waiting for F {
    fn deadline(&mut self) -> Option<Instant> {
        self()
    }
}

/// Reads one frame from `fd` by the deadline `waiting` keeps.
pub fn read_frame_by(
    fd: Watched<'_>,
    waiting: &mut dyn Waiting,
) -> Result<(u8, Vec<u8>), ReadError> {
    let mut header = [0u8; 4];
    read_exact_until(fd, &mut header, waiting)?;
    let len = u32::from_le_bytes(header) as usize;
    if len == 0 || len > MAX_BODY {
        return Err(ReadError::TooLarge(len));
    }
    let mut body = vec![0u8; len];
    read_exact_until(fd, &mut body, waiting)?;
    let kind = body.remove(0);
    Ok((kind, body))
}

fn read_exact_until(
    watched: Watched<'_>,
    buf: &mut [u8],
    waiting: &mut dyn Waiting,
) -> Result<(), ReadError> {
    let Watched { fd, mut alarm } = watched;
    let mut filled = 0;
    while filled < buf.len() {
        let mut wait = waiting
            .deadline()
            .map(|d| d.saturating_duration_since(Instant::now()));
        if let Some(step) = waiting.check_every() {
            wait = Some(wait.map_or(step, |w| w.min(step)));
        }
        let timeout = wait.map(|w| Timespec {
            tv_sec: w.as_secs() as i64,
            tv_nsec: w.subsec_nanos() as i64,
        });
        let alarm_fd = alarm.unwrap_or(fd);
        let mut fds = [
            PollFd::new(&fd, PollFlags::IN),
            PollFd::new(&alarm_fd, PollFlags::IN),
        ];
        let watched = if alarm.is_some() { 2 } else { 1 };
        let ready = match poll(&mut fds[..watched], timeout.as_ref()) {
            Ok(n) => n,
            Err(rustix::io::Errno::INTR) => continue,
            Err(e) => return Err(ReadError::Io(e.into())),
        };
        if alarm.is_some() {
            let alarm_events = fds[1].revents();
            if alarm_events.contains(PollFlags::IN) {
                return Err(ReadError::Refused);
            }
            // Hung up: the host's tasks are gone, and its pipe says so next.
            if !alarm_events.is_empty() {
                alarm = None;
            }
        }
        if ready == 0 {
            if waiting.deadline().is_some_and(|d| Instant::now() >= d) || !waiting.keep_waiting() {
                return Err(ReadError::Deadline);
            }
            continue;
        }
        if fds[0].revents().is_empty() {
            continue;
        }
        match rustix::io::read(fd.as_fd(), &mut buf[filled..]) {
            Ok(0) => return Err(ReadError::Closed),
            Ok(n) => filled += n,
            Err(rustix::io::Errno::INTR) | Err(rustix::io::Errno::AGAIN) => {}
            Err(e) => return Err(ReadError::Io(e.into())),
        }
    }
    Ok(())
}

/// Writes one frame to a non-blocking-safe pipe, giving up at `deadline` (a host that stopped
/// reading must not block the engine once the pipe buffer is full).
pub fn write_frame_until(
    fd: BorrowedFd<'_>,
    kind: u8,
    payload: &[u8],
    deadline: Option<Instant>,
) -> Result<(), ReadError> {
    let len = u32::try_from(payload.len() + 1).map_err(|_| ReadError::TooLarge(payload.len()))?;
    let mut header = [0u8; 5];
    header[..4].copy_from_slice(&len.to_le_bytes());
    header[4] = kind;
    write_all_until(fd, &header, deadline)?;
    write_all_until(fd, payload, deadline)
}

fn write_all_until(
    fd: BorrowedFd<'_>,
    mut buf: &[u8],
    deadline: Option<Instant>,
) -> Result<(), ReadError> {
    while !buf.is_empty() {
        let wait = deadline.map(|d| d.saturating_duration_since(Instant::now()));
        let timeout = wait.map(|w| Timespec {
            tv_sec: w.as_secs() as i64,
            tv_nsec: w.subsec_nanos() as i64,
        });
        let mut fds = [PollFd::new(&fd, PollFlags::OUT)];
        match poll(&mut fds, timeout.as_ref()) {
            Ok(0) => return Err(ReadError::Deadline),
            Ok(_) => {}
            Err(rustix::io::Errno::INTR) => continue,
            Err(e) => return Err(ReadError::Io(e.into())),
        }
        if fds[0].revents().intersects(PollFlags::ERR | PollFlags::HUP) {
            return Err(ReadError::Closed);
        }
        // At most the pipe's atomic size per write, so a write after POLLOUT does not block.
        let chunk = &buf[..buf.len().min(PIPE_CHUNK)];
        match rustix::io::write(fd, chunk) {
            Ok(n) => buf = &buf[n..],
            Err(rustix::io::Errno::INTR) | Err(rustix::io::Errno::AGAIN) => {}
            Err(rustix::io::Errno::PIPE) => return Err(ReadError::Closed),
            Err(e) => return Err(ReadError::Io(e.into())),
        }
    }
    Ok(())
}

/// `PIPE_BUF` on Linux: a write of at most this many bytes to a pipe reported writable does
/// not block.
const PIPE_CHUNK: usize = 4096;
