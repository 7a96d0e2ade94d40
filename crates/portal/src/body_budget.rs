//! A bound on what an upload's body may make the portal hold in memory. The file's bytes are
//! streamed to disk as they come; everything else (the parts' headers, the CSRF field, the
//! boundaries, parts that are skipped) is parsed in memory, and the multipart parser keeps a
//! part's headers until they end, however long. So an upload body may carry at most
//! [`OUTSIDE_THE_FILE`] bytes that are not the file's: a part header that never ends, or a
//! thousand empty parts, are cut there.

use axum::body::Body;
use futures_util::StreamExt;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

/// The bytes of an upload's body that may be other than its file's.
pub const OUTSIDE_THE_FILE: u64 = 64 << 10;

/// Counts what the body has let through and what of it was the file.
#[derive(Clone, Default)]
pub struct Budget {
    read: Arc<AtomicU64>,
    file: Arc<AtomicU64>,
}

impl Budget {
    /// `bytes` the receiver took as the file's (or threw away as the file's, in a drain).
    pub fn file_bytes(&self, bytes: usize) {
        self.file.fetch_add(bytes as u64, Ordering::Relaxed);
    }

    fn outside_the_file(&self) -> u64 {
        let read = self.read.load(Ordering::Relaxed);
        read.saturating_sub(self.file.load(Ordering::Relaxed))
    }
}

#[derive(Debug)]
struct Exceeded;

impl std::fmt::Display for Exceeded {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "more than {} KiB of the body are not the file",
            OUTSIDE_THE_FILE >> 10
        )
    }
}

impl std::error::Error for Exceeded {}

/// `body`, failing once more than [`OUTSIDE_THE_FILE`] bytes of it were not taken as the
/// file's. The parser reads at most one chunk (the connection's buffer) ahead of what it has
/// handed out, so that chunk is allowed for as well.
pub fn budgeted(body: Body, budget: &Budget, chunk_allowance: u64) -> Body {
    let budget = budget.clone();
    let stream = body.into_data_stream().map(move |chunk| {
        let chunk = chunk?;
        budget.read.fetch_add(chunk.len() as u64, Ordering::Relaxed);
        if budget.outside_the_file() > OUTSIDE_THE_FILE + chunk_allowance {
            return Err(axum::Error::new(Exceeded));
        }
        Ok(chunk)
    });
    Body::from_stream(stream)
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::body::Bytes;

    #[tokio::test]
    async fn only_the_file_may_be_large() {
        let chunks = |n: usize| {
            let parts: Vec<Result<Bytes, std::io::Error>> =
                (0..n).map(|_| Ok(Bytes::from(vec![b'a'; 1024]))).collect();
            Body::from_stream(futures_util::stream::iter(parts))
        };
        // 65 KiB that no one takes as the file's: cut.
        let budget = Budget::default();
        let mut body = budgeted(chunks(66), &budget, 0).into_data_stream();
        let mut read = 0;
        let mut failed = false;
        while let Some(chunk) = body.next().await {
            match chunk {
                Ok(chunk) => read += chunk.len(),
                Err(_) => failed = true,
            }
        }
        assert!(failed && read <= 65 << 10, "{read}");
        // A megabyte taken as the file's as it comes: let through.
        let budget = Budget::default();
        let mut body = budgeted(chunks(1024), &budget, 0).into_data_stream();
        while let Some(chunk) = body.next().await {
            budget.file_bytes(chunk.unwrap().len());
        }
    }
}
