//! The wire envelope every game's protocol uses lives in the ABI crate (a change to it is a
//! change of the boundary); it is re-exported here so that each game's `protocol.rs` names it
//! beside its own types.

pub use agon_abi::wire::*;

/// Test support: asserts that `value` encodes to exactly the bytes `hex` spells, so a change to
/// a protocol type shows up as a failing wire golden (and the game's `VERSION` must be bumped).
#[cfg(test)]
pub(crate) fn assert_wire<T: serde::Serialize>(value: &T, hex: &str) {
    let actual: String = encode(value).iter().map(|b| format!("{b:02x}")).collect();
    assert_eq!(
        actual, hex,
        "the wire format changed: bump the game's VERSION"
    );
}
