use super::{Call, CallResult, Deadline, HostKind, SeatHost};
use crate::fault::FaultCause;
use std::time::Duration;

/// A seat whose bot could not even be started because of the bot itself (it crashed or
/// panicked while being created): every call is that fault, so the match records it under the
/// fault policy instead of the whole run stopping.
pub struct UnavailableHost {
    kind: HostKind,
    cause: FaultCause,
    detail: String,
}

impl UnavailableHost {
    pub fn new(kind: HostKind, cause: FaultCause, detail: String) -> UnavailableHost {
        UnavailableHost {
            kind,
            cause,
            detail,
        }
    }

    fn fault<T>(&self) -> Call<T> {
        Call {
            result: CallResult::Fault {
                cause: self.cause,
                detail: format!("the bot could not be started: {}", self.detail),
            },
            wall: Duration::ZERO,
            cpu: None,
        }
    }
}

impl SeatHost for UnavailableHost {
    fn kind(&self) -> HostKind {
        self.kind
    }

    fn start(&mut self, _: Vec<u8>, _: Deadline) -> Call<()> {
        self.fault()
    }

    fn act(&mut self, _: Vec<u8>, _: Deadline) -> Call<Vec<u8>> {
        self.fault()
    }
}
