//! Reading the rest of a refused upload's body before the refusal is sent: a client that is
//! still sending when the answer comes (most do not read before they have sent) then sees the
//! answer rather than a cut connection. Bounded by an allowance of bytes, by [`DRAIN_TIME`] in
//! all and by [`DRAIN_IDLE`] between two chunks (a client that declared a body and sends none
//! is answered at once); a slower or larger body is cut.

use super::body_budget::Budget;
use super::refusal::Refusal;
use axum::body::Body;
use axum::extract::Multipart;
use futures_util::StreamExt;
use std::time::Duration;

const DRAIN_TIME: Duration = Duration::from_secs(10);
const DRAIN_IDLE: Duration = Duration::from_secs(2);

/// The rest of a body not parsed at all (a request refused from its headers).
pub async fn drain_body(body: Body, refusal: Refusal, max_bytes: u64) -> Refusal {
    let mut stream = body.into_data_stream();
    let reading = async {
        let mut left = Allowance(max_bytes);
        while let Ok(Some(Ok(chunk))) = tokio::time::timeout(DRAIN_IDLE, stream.next()).await {
            if !left.take(chunk.len()) {
                return;
            }
        }
    };
    let _ = tokio::time::timeout(DRAIN_TIME, reading).await;
    refusal
}

/// The rest of a body being parsed as multipart (a request whose team is known); its parts
/// are thrown away as they come, as a file's would be (`budget`).
pub async fn drain_parts(
    mut multipart: Multipart,
    refusal: Refusal,
    max_bytes: u64,
    budget: &Budget,
) -> Refusal {
    let reading = async {
        let mut left = Allowance(max_bytes);
        while let Ok(Some(mut field)) = multipart.next_field().await {
            while let Ok(Some(chunk)) = field.chunk().await {
                budget.file_bytes(chunk.len());
                if !left.take(chunk.len()) {
                    return;
                }
            }
        }
    };
    let _ = tokio::time::timeout(DRAIN_TIME, reading).await;
    refusal
}

/// The bytes a drain may still read.
struct Allowance(u64);

impl Allowance {
    /// Counts `bytes` read; false once more than allowed were.
    fn take(&mut self, bytes: usize) -> bool {
        match self.0.checked_sub(bytes as u64) {
            Some(left) => {
                self.0 = left;
                true
            }
            None => false,
        }
    }
}
