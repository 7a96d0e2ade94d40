//! A request body that lets through only a few bytes until it is opened: an upload's multipart
//! parts before its token has been checked are parsed within [`BEFORE_OPEN`], so a client
//! without a token cannot make the portal buffer megabytes (a part's headers have no length
//! limit of their own in the multipart parser).

use axum::body::Body;
use futures_util::StreamExt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// What may be read before the gate opens: the form's token field and the parts' headers.
pub const BEFORE_OPEN: usize = 64 << 10;

/// Opens the body it came with.
#[derive(Clone, Default)]
pub struct Gate(Arc<AtomicBool>);

impl Gate {
    pub fn open(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    pub fn is_open(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
}

#[derive(Debug)]
struct Closed;

impl std::fmt::Display for Closed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "more than {BEFORE_OPEN} bytes before the token")
    }
}

impl std::error::Error for Closed {}

/// `body`, failing once more than [`BEFORE_OPEN`] bytes are read while `gate` is closed.
pub fn gated(body: Body, gate: &Gate) -> Body {
    let gate = gate.clone();
    let mut read = 0usize;
    let stream = body.into_data_stream().map(move |chunk| {
        let chunk = chunk?;
        if !gate.is_open() {
            read += chunk.len();
            if read > BEFORE_OPEN {
                return Err(axum::Error::new(Closed));
            }
        }
        Ok(chunk)
    });
    Body::from_stream(stream)
}
