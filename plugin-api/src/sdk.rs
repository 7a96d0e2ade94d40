//! The typed SDK: implement [`Bot`] for a game's protocol, list the bot in
//! [`crate::export_plugin!`], and the SDK does the rest (encoding, the root module, catching
//! panics so none crosses the ABI).

use crate::abi::{
    BotBox, BotFailure, BotObject, BotObject_TO, FailureKind, Manifest, PluginModule,
    PluginModuleRef,
};
use crate::protocol::{self, GameProtocol, Reply, Start};
use abi_stable::prefix_type::PrefixTypeTrait;
use abi_stable::sabi_trait::TD_Opaque;
use abi_stable::std_types::{RErr, ROk, RResult, RSlice, RStr, RString, RVec};
use std::panic::{catch_unwind, AssertUnwindSafe};

pub use agon_games::contract::{ParamError, ParamReader};

/// The game a bot's protocol types belong to.
pub type SetupOf<B> = <<B as Bot>::Game as GameProtocol>::Setup;
pub type ObservationOf<B> = <<B as Bot>::Game as GameProtocol>::Observation;
pub type ActionOf<B> = <<B as Bot>::Game as GameProtocol>::Action;

/// A bot for one game. A fresh value (`Default`) plays each match.
pub trait Bot: Send + 'static {
    type Game: GameProtocol;

    /// Called once before the first move. Return an error to decline, e.g. for a bad parameter;
    /// the engine records it as a fault of this bot.
    fn start(&mut self, start: &Start<SetupOf<Self>>) -> Result<(), String> {
        let _ = start;
        Ok(())
    }

    /// The bot's answer to one observation.
    fn act(&mut self, observation: &ObservationOf<Self>) -> Reply<ActionOf<Self>>;
}

/// A bot that handles the wire bytes itself (test bots that must answer garbage do).
pub trait RawBot: Send + 'static {
    type Game: GameProtocol;

    fn start(&mut self, start: &[u8]) -> Result<(), String> {
        let _ = start;
        Ok(())
    }

    fn act(&mut self, observation: &[u8]) -> Vec<u8>;
}

/// One row of a plugin's bot table, built by [`crate::export_plugin!`].
pub struct BotEntry {
    pub name: &'static str,
    pub description: &'static str,
    pub game: &'static str,
    pub protocol_version: u32,
    pub make: fn() -> BotBox,
}

impl BotEntry {
    pub const fn typed<B: Bot + Default>(name: &'static str, description: &'static str) -> Self {
        BotEntry {
            name,
            description,
            game: B::Game::GAME,
            protocol_version: B::Game::VERSION,
            make: make_typed::<B>,
        }
    }

    pub const fn raw<B: RawBot + Default>(name: &'static str, description: &'static str) -> Self {
        BotEntry {
            name,
            description,
            game: B::Game::GAME,
            protocol_version: B::Game::VERSION,
            make: make_raw::<B>,
        }
    }
}

struct Typed<B>(B);

impl<B: Bot> BotObject for Typed<B> {
    fn start(&mut self, start: RSlice<'_, u8>) -> RResult<(), BotFailure> {
        guarded(|| {
            let start: Start<SetupOf<B>> = protocol::decode(&start).map_err(protocol_failure)?;
            self.0.start(&start).map_err(|message| BotFailure {
                kind: FailureKind::Refused,
                message: message.into(),
            })
        })
    }

    fn act(&mut self, observation: RSlice<'_, u8>) -> RResult<RVec<u8>, BotFailure> {
        guarded(|| {
            let observation: ObservationOf<B> =
                protocol::decode(&observation).map_err(protocol_failure)?;
            let reply: Reply<ActionOf<B>> = self.0.act(&observation);
            Ok(protocol::encode(&reply).into())
        })
    }
}

struct Raw<B>(B);

impl<B: RawBot> BotObject for Raw<B> {
    fn start(&mut self, start: RSlice<'_, u8>) -> RResult<(), BotFailure> {
        guarded(|| {
            self.0.start(&start).map_err(|message| BotFailure {
                kind: FailureKind::Refused,
                message: message.into(),
            })
        })
    }

    fn act(&mut self, observation: RSlice<'_, u8>) -> RResult<RVec<u8>, BotFailure> {
        guarded(|| Ok(self.0.act(&observation).into()))
    }
}

fn make_typed<B: Bot + Default>() -> BotBox {
    BotObject_TO::from_value(Typed(B::default()), TD_Opaque)
}

fn make_raw<B: RawBot + Default>() -> BotBox {
    BotObject_TO::from_value(Raw(B::default()), TD_Opaque)
}

fn protocol_failure(e: protocol::DecodeError) -> BotFailure {
    BotFailure {
        kind: FailureKind::Protocol,
        message: format!("could not decode the engine's message: {e}").into(),
    }
}

/// Runs bot code, turning a panic into a [`BotFailure`] (a panic must not cross the ABI).
fn guarded<T>(f: impl FnOnce() -> Result<T, BotFailure>) -> RResult<T, BotFailure> {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(Ok(value)) => ROk(value),
        Ok(Err(failure)) => RErr(failure),
        Err(payload) => RErr(BotFailure {
            kind: FailureKind::Panic,
            message: panic_message(payload.as_ref()).into(),
        }),
    }
}

fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        s.to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "panic with a non-text payload".to_string()
    }
}

#[doc(hidden)]
pub fn root_module(
    manifest: extern "C" fn() -> Manifest,
    new_bot: extern "C" fn(RStr<'_>, RStr<'_>, u32) -> RResult<BotBox, RString>,
) -> PluginModuleRef {
    PluginModule { manifest, new_bot }.leak_into_prefix()
}

#[doc(hidden)]
pub fn manifest(plugin: &str, team: &str, version: &str, bots: &[BotEntry]) -> Manifest {
    Manifest {
        plugin: plugin.into(),
        team: team.into(),
        version: version.into(),
        bots: bots
            .iter()
            .map(|b| crate::abi::BotDescriptor {
                name: b.name.into(),
                description: b.description.into(),
                game: b.game.into(),
                protocol_version: b.protocol_version,
            })
            .collect(),
    }
}

#[doc(hidden)]
pub fn new_bot(
    bots: &[BotEntry],
    bot: RStr<'_>,
    game: RStr<'_>,
    protocol_version: u32,
) -> RResult<BotBox, RString> {
    let (bot, game) = (bot.as_str(), game.as_str());
    let Some(entry) = bots.iter().find(|b| b.name == bot && b.game == game) else {
        return RErr(format!("this plugin has no bot `{bot}` for `{game}`").into());
    };
    if entry.protocol_version != protocol_version {
        return RErr(
            format!(
                "bot `{bot}` speaks {game} protocol v{}, the engine v{protocol_version}",
                entry.protocol_version
            )
            .into(),
        );
    }
    match catch_unwind(entry.make) {
        Ok(bot) => ROk(bot),
        Err(payload) => RErr(
            format!(
                "bot `{bot}` panicked when created: {}",
                panic_message(payload.as_ref())
            )
            .into(),
        ),
    }
}

/// Exports a plugin's root module and bot table. Call it once, at the crate root of a
/// `cdylib` crate that depends on `agon-plugin-api` and `abi_stable`:
///
/// ```ignore
/// agon_plugin_api::export_plugin! {
///     team: "Team Rocket",
///     bots: {
///         "random" => RandomBot: "uniform random legal move",
///     },
///     // Optional: bots that implement `RawBot` and answer bytes themselves.
///     raw_bots: {
///         "garbage" => Garbage: "answers bytes that do not decode",
///     },
/// }
/// ```
/// The plugin's name and version are the crate's (`CARGO_PKG_NAME`, `CARGO_PKG_VERSION`).
#[macro_export]
macro_rules! export_plugin {
    (
        team: $team:expr,
        bots: { $( $name:literal => $bot:ty : $description:literal ),* $(,)? }
        $(, raw_bots: { $( $raw_name:literal => $raw_bot:ty : $raw_description:literal ),* $(,)? } )?
        $(,)?
    ) => {
        static __AGON_BOTS: &[$crate::sdk::BotEntry] = &[
            $( $crate::sdk::BotEntry::typed::<$bot>($name, $description), )*
            $( $( $crate::sdk::BotEntry::raw::<$raw_bot>($raw_name, $raw_description), )* )?
        ];

        #[::abi_stable::export_root_module]
        fn __agon_root_module() -> $crate::abi::PluginModuleRef {
            $crate::sdk::root_module(__agon_manifest, __agon_new_bot)
        }

        extern "C" fn __agon_manifest() -> $crate::abi::Manifest {
            $crate::sdk::manifest(
                env!("CARGO_PKG_NAME"),
                $team,
                env!("CARGO_PKG_VERSION"),
                __AGON_BOTS,
            )
        }

        extern "C" fn __agon_new_bot(
            bot: ::abi_stable::std_types::RStr<'_>,
            game: ::abi_stable::std_types::RStr<'_>,
            protocol_version: u32,
        ) -> ::abi_stable::std_types::RResult<$crate::abi::BotBox, ::abi_stable::std_types::RString> {
            $crate::sdk::new_bot(__AGON_BOTS, bot, game, protocol_version)
        }
    };
}
