//! The connection as hyper writes to it, with one addition: the answers hyper makes by itself,
//! before any request reaches the portal (400 for a malformed request, 414, 431 for headers
//! too long), get the headers every other answer carries (`csp::secure`). hyper has no hook
//! for those answers; they are recognised as an error status whose head lacks the headers the
//! portal puts on each of its own.

use hyper::rt::{Read, ReadBufCursor, Write};
use std::io;
use std::pin::Pin;
use std::task::{ready, Context, Poll};

pub struct SecuredIo<T> {
    inner: T,
    /// A rewritten head still being written, and the length of what hyper gave for it.
    pending: Vec<u8>,
    pending_for: usize,
}

impl<T> SecuredIo<T> {
    pub fn new(inner: T) -> SecuredIo<T> {
        SecuredIo {
            inner,
            pending: Vec::new(),
            pending_for: 0,
        }
    }
}

/// Present on every answer the portal writes itself (`csp::secure`), in hyper's lowercase.
const MARK: &[u8] = b"x-content-type-options:";

/// `bytes` with the security headers added, when they start an error answer without them.
fn with_headers(bytes: &[u8]) -> Option<Vec<u8>> {
    let rest = bytes.strip_prefix(b"HTTP/1.1 ")?;
    if !matches!(rest.first(), Some(b'4' | b'5')) {
        return None;
    }
    let head_end = bytes.windows(4).position(|w| w == b"\r\n\r\n")?;
    let head = &bytes[..head_end];
    if head
        .windows(MARK.len())
        .any(|w| w.eq_ignore_ascii_case(MARK))
    {
        return None;
    }
    let line_end = head.windows(2).position(|w| w == b"\r\n")?;
    let mut out = Vec::with_capacity(bytes.len() + 256);
    out.extend_from_slice(&bytes[..line_end + 2]);
    for (name, value) in super::csp::every_answer(super::csp::DATA_POLICY) {
        out.extend_from_slice(name.as_bytes());
        out.extend_from_slice(b": ");
        out.extend_from_slice(value.as_bytes());
        out.extend_from_slice(b"\r\n");
    }
    out.extend_from_slice(&bytes[line_end + 2..]);
    Some(out)
}

impl<T: Read + Unpin> Read for SecuredIo<T> {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: ReadBufCursor<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_read(cx, buf)
    }
}

impl<T: Write + Unpin> Write for SecuredIo<T> {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        if this.pending.is_empty() {
            match with_headers(buf) {
                Some(rewritten) => (this.pending, this.pending_for) = (rewritten, buf.len()),
                None => return Pin::new(&mut this.inner).poll_write(cx, buf),
            }
        }
        // hyper calls again with the same bytes until they are taken.
        while !this.pending.is_empty() {
            let written = ready!(Pin::new(&mut this.inner).poll_write(cx, &this.pending))?;
            if written == 0 {
                return Poll::Ready(Err(io::ErrorKind::WriteZero.into()));
            }
            this.pending.drain(..written);
        }
        Poll::Ready(Ok(this.pending_for))
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_shutdown(cx)
    }

    /// One buffer per write: a head is then always at the start of what hyper writes.
    fn is_write_vectored(&self) -> bool {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_hypers_own_error_answers_are_rewritten() {
        let bare = b"HTTP/1.1 431 Request Header Fields Too Large\r\ncontent-length: 0\r\n\r\n";
        let rewritten = String::from_utf8(with_headers(bare).unwrap()).unwrap();
        assert!(rewritten.starts_with("HTTP/1.1 431 Request Header Fields Too Large\r\n"));
        assert!(
            rewritten.contains("x-content-type-options: nosniff\r\n"),
            "{rewritten}"
        );
        assert!(rewritten.contains("content-security-policy: default-src 'none'"));
        assert!(rewritten.contains("cache-control: no-store\r\n"));
        assert!(
            rewritten.ends_with("content-length: 0\r\n\r\n"),
            "{rewritten}"
        );
        let own = b"HTTP/1.1 404 Not Found\r\nX-Content-Type-Options: nosniff\r\n\r\nno";
        assert_eq!(with_headers(own), None);
        assert_eq!(with_headers(b"HTTP/1.1 200 OK\r\n\r\n"), None);
        assert_eq!(with_headers(b"body bytes"), None);
    }
}
