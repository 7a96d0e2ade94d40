//! The stable boundary between the Agon engine and a plugin library: what a team's build and
//! the engine must agree on, and nothing else, so that a build outlives engine releases.
//!
//! - The root module ([`PluginModuleRef`]): a manifest (plugin name, team, version and the bots
//!   it offers, each with the game and protocol version it plays) and a constructor for bot
//!   objects. A bot object ([`BotObject_TO`]) takes and returns bytes.
//! - The bytes: the [`wire`] envelope ([`wire::Start`], [`wire::Reply`]) around each game's
//!   protocol types, encoded with bincode 2, so one format serves every host.
//!
//! The root module needs `abi_stable`; the wire envelope does not. The feature `root-module`
//! (on by default) adds the first, so that the rules crate, which encodes the envelope but
//! never loads a library, stays free of `abi_stable`.
//!
//! # Versions
//! This crate has a version of its own, changed only when the boundary changes; the SDK
//! (`agon-sdk`), the rules (`agon-games`) and the engine version freely. `abi_stable` checks at
//! load time that the plugin's and the engine's types have the same layout and come from the
//! same package in a compatible version (the same minor version while at 0.x), and refuses the
//! library with both versions named otherwise. That check identifies types by package name, so
//! this crate keeps the name the boundary had when it was first released inside the SDK,
//! `agon-plugin-api`: libraries built against agon-plugin-api 0.2.0 carry that name and load
//! today. (In code the crate is `agon_abi`.)
//!
//! Rules a plugin must keep (and the SDK's `export_plugin!` keeps for it): no panic may cross
//! this boundary (it aborts the host process), so every call into bot code is wrapped in
//! `catch_unwind` and turned into a [`BotFailure`].

#![deny(missing_docs)]

pub mod wire;

#[cfg(feature = "root-module")]
mod root_module;
#[cfg(feature = "root-module")]
pub use root_module::*;
