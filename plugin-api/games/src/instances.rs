//! Every game's built-in instances (`contract::Instance`), one constant per game in upper case
//! (`REVERSIXT`), written by `build.rs` from each game folder's `instances/`. Each folder's
//! `README.md` says where its files come from.

include!(concat!(env!("OUT_DIR"), "/instances.rs"));
