//! How a refused system call reaches the engine without passing through anything the bot can
//! write: the allow-list filter answers a refused call with `SECCOMP_RET_USER_NOTIF`, so the
//! kernel suspends the calling thread and queues a notice (the call's number and arguments) on a
//! listener descriptor that only the engine holds. The engine reads the notice, records the
//! call and kills the host; the call never runs.
//!
//! The host's own SIGSYS handler, which wrote the call on stderr before it died, was memory and
//! descriptors the bot could reach: a bot that made the handler's page writable and patched it
//! to return carried on after refused calls, unrecorded; one that mapped a page over it died as
//! an ordinary crash. Here nothing of the host takes part once the filter is on.
//!
//! The listener is created with the filter (`SECCOMP_FILTER_FLAG_NEW_LISTENER`, Linux 5.0; with
//! TSYNC it needs `SECCOMP_FILTER_FLAG_TSYNC_ESRCH`, Linux 5.7) and handed to the engine over a
//! socket the engine puts at [`HANDOVER_FD`] (`SCM_RIGHTS`). The host then closes both; a bot
//! cannot create a socket to send anything on that descriptor number.

use rustix::net::{
    RecvAncillaryBuffer, RecvAncillaryMessage, RecvFlags, SendAncillaryBuffer,
    SendAncillaryMessage, SendFlags,
};
use std::io::{IoSlice, IoSliceMut};
use std::mem::MaybeUninit;
use std::os::fd::{AsFd, AsRawFd, BorrowedFd, FromRawFd, OwnedFd};

/// The host's end of the hand-over socket.
pub const HANDOVER_FD: i32 = 5;

/// A socket pair for one host: the engine keeps the first end, the host gets the second at
/// [`HANDOVER_FD`].
pub fn handover_pair() -> std::io::Result<(OwnedFd, OwnedFd)> {
    rustix::net::socketpair(
        rustix::net::AddressFamily::UNIX,
        rustix::net::SocketType::SEQPACKET,
        rustix::net::SocketFlags::CLOEXEC,
        None,
    )
    .map_err(Into::into)
}

/// Host side: sends `listener` to the engine and closes the hand-over socket.
pub fn hand_over(listener: OwnedFd) -> Result<(), super::ConfineError> {
    // SAFETY: the engine starts every host with the socket at HANDOVER_FD; taking ownership
    // closes it when this function returns, so a bot never finds it open.
    let socket = unsafe { OwnedFd::from_raw_fd(HANDOVER_FD) };
    send(socket.as_fd(), listener.as_fd()).map_err(super::ConfineError::call(
        "handing the refusal listener to the engine",
    ))
}

fn send(socket: BorrowedFd<'_>, fd: BorrowedFd<'_>) -> rustix::io::Result<()> {
    let mut space = [MaybeUninit::uninit(); rustix::cmsg_space!(ScmRights(1))];
    let mut control = SendAncillaryBuffer::new(&mut space);
    let fds = [fd];
    control.push(SendAncillaryMessage::ScmRights(&fds));
    rustix::net::sendmsg(
        socket,
        &[IoSlice::new(b"L")],
        &mut control,
        SendFlags::empty(),
    )
    .map(|_| ())
}

/// Engine side: the listener the host sent, if it sent one (never waits).
pub fn receive(socket: BorrowedFd<'_>) -> Option<OwnedFd> {
    let mut space = [MaybeUninit::uninit(); rustix::cmsg_space!(ScmRights(1))];
    let mut control = RecvAncillaryBuffer::new(&mut space);
    let mut byte = [0u8; 1];
    rustix::net::recvmsg(
        socket,
        &mut [IoSliceMut::new(&mut byte)],
        &mut control,
        RecvFlags::DONTWAIT | RecvFlags::CMSG_CLOEXEC,
    )
    .ok()?;
    let mut received = None;
    for message in control.drain() {
        if let RecvAncillaryMessage::ScmRights(fds) = message {
            // Any descriptor beyond the first is dropped, so closed.
            for fd in fds {
                received.get_or_insert(fd);
            }
        }
    }
    received
}

/// Engine side: the number of the call a notice waiting on `listener` is about, or `None` when
/// none can be read (the host died meanwhile and took its notices with it).
pub fn refused_call(listener: BorrowedFd<'_>) -> Option<i32> {
    // SAFETY: seccomp_notif is plain data, and the kernel asks for it zeroed (EINVAL else).
    let mut notice: libc::seccomp_notif = unsafe { std::mem::zeroed() };
    // SAFETY: SECCOMP_IOCTL_NOTIF_RECV writes one seccomp_notif into the local.
    let received = unsafe {
        libc::ioctl(
            listener.as_raw_fd(),
            libc::SECCOMP_IOCTL_NOTIF_RECV,
            &mut notice,
        )
    };
    (received == 0).then_some(notice.data.nr)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_descriptor_crosses_the_pair_and_nothing_waits_when_none_was_sent() {
        let (engine, host) = handover_pair().unwrap();
        assert!(receive(engine.as_fd()).is_none(), "nothing sent yet");
        let (read, _write) = rustix::pipe::pipe().unwrap();
        send(host.as_fd(), read.as_fd()).unwrap();
        let received = receive(engine.as_fd()).expect("the descriptor arrives");
        assert_ne!(received.as_raw_fd(), read.as_raw_fd());
    }
}
