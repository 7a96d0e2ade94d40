//! The root module every plugin exports and the bot object it makes (`abi_stable` types, checked
//! when a library loads).

// `#[sabi_trait]` expands to impls that this toolchain's `non_local_definitions` lint flags.
#![allow(non_local_definitions)]

use abi_stable::{
    declare_root_module_statics,
    library::RootModule,
    package_version_strings, sabi_trait,
    sabi_types::VersionStrings,
    std_types::{RBox, RResult, RSlice, RStr, RString, RVec},
    StableAbi,
};

/// The root module every Agon plugin exports.
#[repr(C)]
#[derive(StableAbi)]
#[sabi(kind(Prefix(prefix_ref = PluginModuleRef)))]
#[sabi(missing_field(panic))]
pub struct PluginModule {
    /// What the plugin offers. Must not fail.
    pub manifest: extern "C" fn() -> Manifest,
    /// A fresh bot object for `bot` playing `game` under protocol `protocol_version`, or a
    /// message saying why not (unknown bot, another game, another protocol version).
    #[sabi(last_prefix_field)]
    pub new_bot: extern "C" fn(
        bot: RStr<'_>,
        game: RStr<'_>,
        protocol_version: u32,
    ) -> RResult<BotBox, RString>,
}

impl RootModule for PluginModuleRef {
    declare_root_module_statics! {PluginModuleRef}
    const BASE_NAME: &'static str = "agon_plugin";
    const NAME: &'static str = "agon_plugin";
    /// The version of this crate (see the crate's "Versions"): a plugin built against an
    /// incompatible boundary (another minor version while at 0.x) is refused when it loads.
    const VERSION_STRINGS: VersionStrings = package_version_strings!();
}

/// What a plugin library offers.
#[repr(C)]
#[derive(StableAbi, Debug, Clone, PartialEq, Eq)]
pub struct Manifest {
    /// The plugin's name (its crate name when exported by the SDK).
    pub plugin: RString,
    /// The team that wrote it.
    pub team: RString,
    /// The plugin's version (its crate version when exported by the SDK).
    pub version: RString,
    /// One entry per bot and game: a bot that plays two games appears twice.
    pub bots: RVec<BotDescriptor>,
}

/// One bot of a plugin, for one game.
#[repr(C)]
#[derive(StableAbi, Debug, Clone, PartialEq, Eq)]
pub struct BotDescriptor {
    /// The bot's name in bot specs (`FILE:NAME`).
    pub name: RString,
    /// One line for `agon plugins`.
    pub description: RString,
    /// The game's registry name.
    pub game: RString,
    /// The version of the game's protocol the bot was built against.
    pub protocol_version: u32,
    /// Whether tournaments take the bot when they take a whole folder of plugins (`false`:
    /// a debugging or sparring bot, played only by name).
    pub tournament: bool,
}

/// Why a bot call produced no answer.
#[repr(C)]
#[derive(StableAbi, Debug, Clone, PartialEq, Eq)]
pub struct BotFailure {
    /// What kind of failure.
    pub kind: FailureKind,
    /// What happened, for the record.
    pub message: RString,
}

/// The kinds of [`BotFailure`].
#[repr(u8)]
#[derive(StableAbi, Debug, Clone, Copy, PartialEq, Eq)]
pub enum FailureKind {
    /// The bot panicked; the message is the panic's.
    Panic,
    /// The bot declined, e.g. it rejected its parameters at start.
    Refused,
    /// The bot could not decode what the engine sent (a protocol mismatch).
    Protocol,
}

/// A bot instance behind the ABI. Payloads are bincode bytes of protocol types.
#[sabi_trait]
pub trait BotObject: Send {
    /// Called once before the first move with an encoded [`crate::wire::Start`].
    fn start(&mut self, start: RSlice<'_, u8>) -> RResult<(), BotFailure>;

    /// Called for every move with an encoded observation; answers an encoded
    /// [`crate::wire::Reply`].
    #[sabi(last_prefix_field)]
    fn act(&mut self, observation: RSlice<'_, u8>) -> RResult<RVec<u8>, BotFailure>;
}

/// An owned bot object as the engine holds it.
pub type BotBox = BotObject_TO<'static, RBox<()>>;
