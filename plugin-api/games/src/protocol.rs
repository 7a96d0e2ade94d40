//! The wire envelope every game's protocol uses lives in the ABI crate (a change to it is a
//! change of the boundary); it is re-exported here so that each game's `protocol.rs` names it
//! beside its own types.

pub use agon_abi::wire::*;

/// Declares a game's protocol marker (the type a bot names as its game), the protocol's
/// `VERSION` and the marker's [`GameProtocol`] impl over the module's `Setup` and
/// `Observation`, so that a game's name and version are written once:
/// `game_protocol! { /// docs  LightsOut { game: "lightsout", version: 2, action: Answer } }`.
macro_rules! game_protocol {
    ($(#[$doc:meta])* $marker:ident { game: $name:literal, version: $version:literal, action: $action:ty $(,)? }) => {
        $(#[$doc])*
        pub struct $marker;

        /// The protocol's version; a bot built for another version is refused.
        pub const VERSION: u32 = $version;

        impl $crate::protocol::GameProtocol for $marker {
            const GAME: &'static str = $name;
            const VERSION: u32 = VERSION;
            type Setup = Setup;
            type Observation = Observation;
            type Action = $action;
        }
    };
}
pub(crate) use game_protocol;

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

/// Test support: the `Start` of `seat` of `seats`, with `seed`, budgets `(start, move)` in
/// milliseconds and no bot parameters, around the game's `setup` (each game's wire golden).
#[cfg(test)]
pub(crate) fn start_for<S>(
    (seat, seats): (u32, u32),
    seed: u64,
    (start_budget_ms, move_budget_ms): (u64, u64),
    setup: S,
) -> Start<S> {
    Start {
        seat,
        seats,
        seed,
        start_budget_ms,
        move_budget_ms,
        bot_params: Default::default(),
        game: setup,
    }
}
