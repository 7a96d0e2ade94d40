//! The guard around every call into bot code: a panic must not cross the ABI (it aborts the
//! host process), so each call runs under `catch_unwind` and any failure becomes a
//! [`BotFailure`] the engine records.

use crate::protocol;
use abi_stable::std_types::{RErr, ROk, RResult};
use agon_abi::{BotFailure, FailureKind};
use std::panic::{catch_unwind, AssertUnwindSafe};

/// The bot declined to start, saying why.
pub(crate) fn refused(message: String) -> BotFailure {
    BotFailure {
        kind: FailureKind::Refused,
        message: message.into(),
    }
}

pub(crate) fn protocol_failure(e: protocol::DecodeError) -> BotFailure {
    BotFailure {
        kind: FailureKind::Protocol,
        message: format!("could not decode the engine's message: {e}").into(),
    }
}

/// Runs bot code, turning a panic into a [`BotFailure`] (a panic must not cross the ABI).
pub(crate) fn guarded<T>(f: impl FnOnce() -> Result<T, BotFailure>) -> RResult<T, BotFailure> {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(Ok(value)) => ROk(value),
        Ok(Err(failure)) => RErr(failure),
        Err(payload) => RErr(BotFailure {
            kind: FailureKind::Panic,
            message: panic_message(payload.as_ref()).into(),
        }),
    }
}

pub(crate) fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        s.to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "panic with a non-text payload".to_string()
    }
}
