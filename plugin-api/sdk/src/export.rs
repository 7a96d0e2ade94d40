//! Exporting bots: [`BotEntry`] rows and the [`crate::export_plugin!`] macro that turns them
//! into the plugin's root module, plus the two lower-level bot traits for bots that want the
//! wire types ([`WireBot`]) or the bytes themselves ([`RawBot`]). Every call into bot code is
//! guarded (`guard.rs`), so that no panic crosses the ABI.

use crate::bot::{Bot, Played};
use crate::guard::{guarded, panic_message, protocol_failure, refused};
use crate::params::refuse_undeclared;
use crate::protocol::{self, GameProtocol, Reply, Start};
use abi_stable::prefix_type::PrefixTypeTrait;
use abi_stable::sabi_trait::TD_Opaque;
use abi_stable::std_types::{RErr, ROk, RResult, RSlice, RStr, RString, RVec};
use agon_abi::{
    BotBox, BotFailure, BotObject, BotObject_TO, Manifest, PluginModule, PluginModuleRef,
};
use std::panic::catch_unwind;

pub use agon_games::contract::{ParamError, ParamReader};

/// The setup type of a [`WireBot`]'s game.
pub type SetupOf<B> = <<B as WireBot>::Game as GameProtocol>::Setup;
/// The observation type of a [`WireBot`]'s game.
pub type ObservationOf<B> = <<B as WireBot>::Game as GameProtocol>::Observation;
/// The answer type of a [`WireBot`]'s game.
pub type ActionOf<B> = <<B as WireBot>::Game as GameProtocol>::Action;

/// A bot that takes the game's wire types as they arrive (no conversion to the rules' state).
/// Most bots want [`crate::Bot`] instead. A fresh value (`Default`) plays each match.
pub trait WireBot: Send + 'static {
    /// The game's protocol marker.
    type Game: GameProtocol;

    /// The bot parameters this bot takes (`Start::bot_params`); the SDK refuses any other
    /// before [`WireBot::start`], as for [`crate::Bot::PARAMS`]. By default a bot takes none.
    const PARAMS: &'static [&'static str] = &[];

    /// Called once before the first move (its parameters are among [`WireBot::PARAMS`]).
    /// Return an error to decline, e.g. for a bad parameter value; the engine records it as a
    /// fault of this bot.
    fn start(&mut self, start: &Start<SetupOf<Self>>) -> Result<(), String> {
        let _ = start;
        Ok(())
    }

    /// The bot's answer to one observation.
    fn act(&mut self, observation: &ObservationOf<Self>) -> Reply<ActionOf<Self>>;
}

/// A bot that handles the wire bytes itself (test bots that must answer garbage do), its
/// parameters included: the SDK decodes nothing for it, so it checks none.
pub trait RawBot: Send + 'static {
    /// The game's protocol marker.
    type Game: GameProtocol;

    /// Called once with the encoded [`Start`].
    fn start(&mut self, start: &[u8]) -> Result<(), String> {
        let _ = start;
        Ok(())
    }

    /// The encoded reply to one encoded observation.
    fn act(&mut self, observation: &[u8]) -> Vec<u8>;
}

/// One row of a plugin's bot table, built by [`crate::export_plugin!`].
pub struct BotEntry {
    /// The bot's name in bot specs (`FILE:NAME`).
    pub name: &'static str,
    /// One line for `agon plugins`.
    pub description: &'static str,
    /// The game's registry name.
    pub game: &'static str,
    /// The game's protocol version the bot was built against.
    pub protocol_version: u32,
    /// Whether `folder =` tournament entrants include the bot.
    pub tournament: bool,
    /// Makes a fresh bot object.
    pub make: fn() -> BotBox,
}

impl BotEntry {
    /// A [`Bot`] (the rules' types).
    pub const fn bot<B: Bot>(name: &'static str, description: &'static str) -> Self {
        Self::new::<B::Game>(name, description, make_played::<B>)
    }

    /// A [`WireBot`] (the protocol's types).
    pub const fn wire<B: WireBot + Default>(name: &'static str, description: &'static str) -> Self {
        Self::new::<B::Game>(name, description, make_wire::<B>)
    }

    /// A [`RawBot`] (bytes).
    pub const fn raw<B: RawBot + Default>(name: &'static str, description: &'static str) -> Self {
        Self::new::<B::Game>(name, description, make_raw::<B>)
    }

    const fn new<G: GameProtocol>(
        name: &'static str,
        description: &'static str,
        make: fn() -> BotBox,
    ) -> Self {
        BotEntry {
            name,
            description,
            game: G::GAME,
            protocol_version: G::VERSION,
            tournament: true,
            make,
        }
    }

    /// Not for tournaments: a debugging or sparring bot that `folder =` entrants leave out
    /// (`agon match` still plays it by name). Written `[hidden]` after the description in
    /// [`crate::export_plugin!`].
    pub const fn hidden(self) -> Self {
        BotEntry {
            tournament: false,
            ..self
        }
    }
}

struct Wire<B>(B);

impl<B: WireBot> BotObject for Wire<B> {
    fn start(&mut self, start: RSlice<'_, u8>) -> RResult<(), BotFailure> {
        guarded(|| {
            let start: Start<SetupOf<B>> = protocol::decode(&start).map_err(protocol_failure)?;
            refuse_undeclared(&start.bot_params, B::PARAMS).map_err(refused)?;
            self.0.start(&start).map_err(refused)
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
        guarded(|| self.0.start(&start).map_err(refused))
    }

    fn act(&mut self, observation: RSlice<'_, u8>) -> RResult<RVec<u8>, BotFailure> {
        guarded(|| Ok(self.0.act(&observation).into()))
    }
}

fn make_played<B: Bot>() -> BotBox {
    BotObject_TO::from_value(Played::<B>::new(), TD_Opaque)
}

fn make_wire<B: WireBot + Default>() -> BotBox {
    BotObject_TO::from_value(Wire(B::default()), TD_Opaque)
}

fn make_raw<B: RawBot + Default>() -> BotBox {
    BotObject_TO::from_value(Raw(B::default()), TD_Opaque)
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
            .map(|b| agon_abi::BotDescriptor {
                name: b.name.into(),
                description: b.description.into(),
                game: b.game.into(),
                protocol_version: b.protocol_version,
                tournament: b.tournament,
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

/// Every game's sparring bot (its module's `RandomBot`), as an entry named `name`, for `game`
/// by its registry name; `None` for a name no game has. The engine's house player for a
/// ladder takes it from here, so it names no game itself.
pub fn sparring_entry(
    game: &str,
    name: &'static str,
    description: &'static str,
) -> Option<BotEntry> {
    macro_rules! entries {
        ($($module:ident),* $(,)?) => {
            match game {
                $(stringify!($module) => Some(BotEntry::bot::<crate::$module::RandomBot>(name, description)),)*
                _ => None,
            }
        };
    }
    agon_games::for_each_game!(entries)
}

/// What [`crate::export_plugin!`] expands to, so a plugin needs no direct `abi_stable`
/// dependency.
#[doc(hidden)]
pub mod __private {
    pub use abi_stable::library::{
        __call_root_module_loader, CheckTypeLayout, LibHeader, RootModuleResult,
    };
    pub use abi_stable::std_types::{RResult, RStr, RString};
    pub use agon_abi as abi;
}

/// Exports a plugin's root module and bot table. Call it once, at the crate root of a
/// `cdylib` crate that depends on `agon-sdk` (nothing else is needed):
///
/// ```ignore
/// agon_sdk::export_plugin! {
///     team: "Team Rocket",
///     // Bots implementing `agon_sdk::Bot`, for any games.
///     bots: {
///         "minimax" => Minimax: "alpha-beta, depth 4",
///         // Not for tournaments: `folder =` entrants leave it out.
///         "debug" => Debug: "prints every position" [hidden],
///     },
///     // Optional: bots implementing `WireBot` (the protocol's own types).
///     wire_bots: {
///         "wire" => WireOnly: "answers from the wire types",
///     },
///     // Optional: bots implementing `RawBot`, which answer bytes themselves.
///     raw_bots: {
///         "garbage" => Garbage: "answers bytes that do not decode",
///     },
/// }
/// ```
/// The plugin's name and version are the crate's (`CARGO_PKG_NAME`, `CARGO_PKG_VERSION`).
#[macro_export]
macro_rules! export_plugin {
    (
        team: $team:expr
        $(, bots: { $( $name:literal => $bot:ty : $description:literal $([$bot_flag:ident])? ),* $(,)? } )?
        $(, wire_bots: { $( $wire_name:literal => $wire_bot:ty : $wire_description:literal $([$wire_flag:ident])? ),* $(,)? } )?
        $(, raw_bots: { $( $raw_name:literal => $raw_bot:ty : $raw_description:literal $([$raw_flag:ident])? ),* $(,)? } )?
        $(,)?
    ) => {
        static __AGON_BOTS: &[$crate::export::BotEntry] = &[
            $( $( $crate::export::BotEntry::bot::<$bot>($name, $description) $(.$bot_flag())?, )* )?
            $( $( $crate::export::BotEntry::wire::<$wire_bot>($wire_name, $wire_description) $(.$wire_flag())?, )* )?
            $( $( $crate::export::BotEntry::raw::<$raw_bot>($raw_name, $raw_description) $(.$raw_flag())?, )* )?
        ];

        fn __agon_root_module() -> $crate::export::__private::abi::PluginModuleRef {
            $crate::export::root_module(__agon_manifest, __agon_new_bot)
        }

        // What `abi_stable`'s `#[export_root_module]` would write, spelled through this crate so
        // that a plugin does not depend on `abi_stable` itself. The symbol's name is
        // `abi_stable::library::ROOT_MODULE_LOADER_NAME` (a unit test keeps the two equal).
        #[unsafe(no_mangle)]
        #[allow(non_upper_case_globals)]
        pub static _1as_0lib_1header_0root_bmodule_bloader: $crate::export::__private::LibHeader = {
            extern "C" fn erased_root_module() -> $crate::export::__private::RootModuleResult {
                $crate::export::__private::__call_root_module_loader(__agon_root_module)
            }
            // Safety: the constructor returns the root module of the type given, as
            // `#[export_root_module]` guarantees for the function it annotates.
            unsafe {
                $crate::export::__private::LibHeader::from_constructor::<$crate::export::__private::abi::PluginModuleRef>(
                    erased_root_module,
                    $crate::export::__private::CheckTypeLayout::Yes,
                )
            }
        };

        extern "C" fn __agon_manifest() -> $crate::export::__private::abi::Manifest {
            $crate::export::manifest(
                env!("CARGO_PKG_NAME"),
                $team,
                env!("CARGO_PKG_VERSION"),
                __AGON_BOTS,
            )
        }

        extern "C" fn __agon_new_bot(
            bot: $crate::export::__private::RStr<'_>,
            game: $crate::export::__private::RStr<'_>,
            protocol_version: u32,
        ) -> $crate::export::__private::RResult<$crate::export::__private::abi::BotBox, $crate::export::__private::RString> {
            $crate::export::new_bot(__AGON_BOTS, bot, game, protocol_version)
        }
    };
}

#[cfg(test)]
mod tests {
    /// The macro spells the root module's symbol by hand; it must be the one `abi_stable`
    /// looks up.
    #[test]
    fn the_exported_symbol_is_the_one_abi_stable_loads() {
        assert_eq!(
            "_1as_0lib_1header_0root_bmodule_bloader",
            abi_stable::library::ROOT_MODULE_LOADER_NAME
        );
    }

    /// The list of sparring bots comes from the registry: every registered game has one, for
    /// the game it says, and nothing else has.
    #[test]
    fn every_registered_game_has_a_sparring_bot() {
        for game in agon_games::registry::Registry::builtin().names() {
            let entry = super::sparring_entry(game, "random", "sparring")
                .unwrap_or_else(|| panic!("{game} has no sparring bot"));
            assert_eq!(entry.game, game);
        }
        assert!(super::sparring_entry("chess", "random", "sparring").is_none());
    }

    /// A wire bot, like a [`crate::Bot`], is started only with the parameters it declares.
    #[test]
    fn a_wire_bot_is_refused_a_parameter_it_does_not_declare() {
        use super::{BotObject, Wire, WireBot};
        use crate::protocol::breakthrough::{Breakthrough, Move, Observation, Setup};
        use crate::protocol::{self, Reply, Start};
        use agon_abi::FailureKind;

        #[derive(Default)]
        struct Cutoff;
        impl WireBot for Cutoff {
            type Game = Breakthrough;
            const PARAMS: &'static [&'static str] = &["cutoff"];
            fn act(&mut self, _: &Observation) -> Reply<Move> {
                unreachable!("only started")
            }
        }
        let start = |key: &str| {
            protocol::encode(&Start::<Setup> {
                seat: 0,
                seats: 2,
                seed: 1,
                start_budget_ms: 0,
                move_budget_ms: 0,
                bot_params: [(key.to_string(), "5".to_string())].into(),
                game: agon_games::breakthrough::convert::setup(
                    &agon_games::breakthrough::Config::STANDARD,
                    agon_games::breakthrough::Side::White,
                ),
            })
        };
        assert!(Wire(Cutoff)
            .start(start("cutoff").as_slice().into())
            .is_ok());
        let refused = Wire(Cutoff)
            .start(start("cut").as_slice().into())
            .unwrap_err();
        assert_eq!(refused.kind, FailureKind::Refused);
        assert_eq!(
            refused.message.as_str(),
            "unknown parameter `cut` (known: cutoff)"
        );
    }
}
