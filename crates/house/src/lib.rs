//! `agon-house`: the sources `agon` carries inside its binary, so that an installed `agon`
//! needs no checkout beside it. Two uses: the SDK and the crates under it, which `agon new`
//! writes into a team's project ([`vendor`]), and the house bots, the reference plugins of the
//! repository (`plugins/`: random, greedy, alpha-beta, the seed teams' strategies), played as
//! `--bot house:NAME` from any folder.
//!
//! `build.rs` carries the sources. The house bots are built with cargo the first time a game's
//! house bot is asked for, into agon's cache folder, keyed by the carried sources so that
//! another `agon` never plays a stale build. A student's installed `agon` has the Rust toolchain
//! beside it (it built their bot), and the dependencies are those of the engine's own lock file.

mod bots;
mod error;
pub mod vendor;

pub use bots::{bots_of, ensure_built, is_house, packages_of, resolve, FILE};
pub use error::HouseError;
