//! Finds, checks and loads plugin files (docs/architecture.md, "Plugin ABI rules").
//!
//! Every file is first copied to a content-addressed path (`<cache>/plugins/<sha256>/<name>`):
//! the dynamic linker identifies a loaded library by path and inode, and `abi_stable` never
//! unloads one, so a new build of a team's library must arrive under a new path to be loaded at
//! all. A file is staged only when it is the whole library its ELF header describes, and the
//! copy is checked again right before it is mapped ([`StagedPlugin::check_copy`]). Each
//! library is then opened with `lib_header_from_path(..).init_root_module()`; the
//! `load_from_file` family is never used, because it caches the first library loaded for an
//! interface type and would hand every later team that first team's bots.

pub mod cache;
pub mod elf_extent;
mod errors;

pub use cache::{cache_dir, cached_copy, content_addressed_copy};
pub use errors::LoadError;

use crate::input_file::{limits, Input};
use abi_stable::library::{lib_header_from_path, LibraryError, RootModule};
use agon_abi::{BotBox, PluginModuleRef};
use agon_games::contract::GameRules;
use serde::Serialize;
use sha2::{Digest, Sha256};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};

/// A loaded plugin library.
#[derive(Clone)]
pub struct Plugin {
    /// The file as the user named it.
    pub path: PathBuf,
    /// The content-addressed copy that was actually loaded.
    pub loaded_from: PathBuf,
    pub sha256: String,
    pub manifest: Manifest,
    module: PluginModuleRef,
}

/// A plugin's manifest in plain Rust types.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct Manifest {
    pub plugin: String,
    pub team: String,
    pub version: String,
    pub bots: Vec<BotDescriptor>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct BotDescriptor {
    pub name: String,
    pub description: String,
    pub game: String,
    pub protocol_version: u32,
    /// Whether `folder =` tournament entrants take the bot (`false`: marked `[hidden]`).
    #[serde(default = "taken_by_tournaments")]
    pub tournament: bool,
}

fn taken_by_tournaments() -> bool {
    true
}

/// Libraries already opened in this process, by content hash: opening is not repeated, and the
/// same content always yields the same module.
fn opened() -> &'static Mutex<HashMap<String, (PathBuf, PluginModuleRef)>> {
    static OPENED: OnceLock<Mutex<HashMap<String, (PathBuf, PluginModuleRef)>>> = OnceLock::new();
    OPENED.get_or_init(Default::default)
}

/// A plugin file that was checked (it exists and is a whole ELF file), hashed and copied to its
/// content-addressed path, but not opened: the process host opens it in the sandboxed child, so
/// team code never runs in the engine's process.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct StagedPlugin {
    /// The file as the user named it.
    pub path: PathBuf,
    /// The content-addressed copy to open.
    pub copy: PathBuf,
    pub sha256: String,
}

/// Which file, in which version: a new build changes the inode or the modification and change
/// times, so it is hashed and copied afresh.
type FileIdentity = (PathBuf, PathBuf, FileVersion);

/// One state of a file: a rename changes the device or inode, a write the size or the
/// modification and change times.
pub type FileVersion = (u64, u64, u64, i64, i64, i64, i64);

/// The [`FileVersion`] of a file's metadata.
pub fn file_version(meta: &std::fs::Metadata) -> FileVersion {
    use std::os::unix::fs::MetadataExt;
    (
        meta.dev(),
        meta.ino(),
        meta.len(),
        meta.mtime(),
        meta.mtime_nsec(),
        meta.ctime(),
        meta.ctime_nsec(),
    )
}

/// Files staged in this process, so a tournament hashes each plugin once, not once per game.
fn staged() -> &'static Mutex<HashMap<FileIdentity, StagedPlugin>> {
    static STAGED: OnceLock<Mutex<HashMap<FileIdentity, StagedPlugin>>> = OnceLock::new();
    STAGED.get_or_init(Default::default)
}

impl StagedPlugin {
    pub fn stage(path: &Path, cache: &Path) -> Result<StagedPlugin, LoadError> {
        let io = |source| LoadError::Io {
            path: path.to_path_buf(),
            source,
        };
        let meta = std::fs::metadata(path).map_err(io)?;
        let identity: FileIdentity = (path.to_path_buf(), cache.to_path_buf(), file_version(&meta));
        let known = staged()
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .get(&identity)
            .cloned();
        // The copy is missing or damaged only if someone removed or changed it by hand (`agon
        // cache gc` leaves this process's entries alone): then it is written afresh.
        if let Some(known) = known.filter(|k| k.check_copy().is_ok()) {
            cache::mark_copy_used(&known.copy);
            return Ok(known);
        }
        let fresh = StagedPlugin::stage_uncached(path, cache)?;
        staged()
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .insert(identity, fresh.clone());
        Ok(fresh)
    }

    fn stage_uncached(path: &Path, cache: &Path) -> Result<StagedPlugin, LoadError> {
        StagedPlugin::stage_bytes(path, &StagedPlugin::read(path)?, cache)
    }

    /// The content of the plugin file at `path`, bounded in size.
    pub fn read(path: &Path) -> Result<Vec<u8>, LoadError> {
        Input::new("plugin file", limits::PLUGIN)
            .read(path)
            .map_err(|e| LoadError::Unreadable {
                path: path.to_path_buf(),
                detail: e.to_string(),
            })
    }

    /// Stages `bytes`, read from `path` by the caller (who may have checked them already: a
    /// file that changes on disk meanwhile changes nothing here).
    pub fn stage_bytes(path: &Path, bytes: &[u8], cache: &Path) -> Result<StagedPlugin, LoadError> {
        elf_extent::check_complete(bytes).map_err(|e| errors::refused_extent(path, e))?;
        let sha256 = sha256_hex(bytes);
        let copy = content_addressed_copy(path, bytes, &sha256, cache).map_err(|source| {
            LoadError::Cache {
                path: path.to_path_buf(),
                cache: cache.to_path_buf(),
                source,
            }
        })?;
        Ok(StagedPlugin {
            path: path.to_path_buf(),
            copy,
            sha256,
        })
    }

    /// Refuses the copy unless it is the whole library its ELF header describes. Mapping one
    /// cut short faults (SIGBUS) in whichever process touches the missing part, so this is
    /// checked right before every mapping and before a process host is started for it: the
    /// copy is checked on disk, where it may have changed since it was staged.
    pub fn check_copy(&self) -> Result<(), LoadError> {
        let (file, length) = Input::new("plugin copy", limits::PLUGIN)
            .open(&self.copy)
            .map_err(|e| LoadError::Unreadable {
                path: self.copy.clone(),
                detail: e.to_string(),
            })?;
        elf_extent::check_file(&file, length).map_err(|e| errors::refused_extent(&self.copy, e))
    }

    /// The file name as users see it.
    pub fn file_name(&self) -> String {
        file_name(&self.path)
    }
}

impl Plugin {
    /// Loads the plugin at `path` (through a content-addressed copy in [`cache_dir`]).
    pub fn load(path: &Path) -> Result<Plugin, LoadError> {
        Plugin::load_with_cache(path, &cache_dir())
    }

    pub fn load_with_cache(path: &Path, cache: &Path) -> Result<Plugin, LoadError> {
        Plugin::open(&StagedPlugin::stage(path, cache)?)
    }

    /// Opens a staged plugin in this process.
    pub fn open(staged: &StagedPlugin) -> Result<Plugin, LoadError> {
        let mut opened = opened().lock().unwrap_or_else(|p| p.into_inner());
        let (loaded_from, module) = match opened.get(&staged.sha256) {
            Some(entry) => entry.clone(),
            None => {
                let module = open(staged)?;
                opened.insert(staged.sha256.clone(), (staged.copy.clone(), module));
                (staged.copy.clone(), module)
            }
        };
        drop(opened);
        let manifest = read_manifest(module);
        log::debug!(
            "loaded {} ({} {}) from {}",
            staged.path.display(),
            manifest.plugin,
            manifest.version,
            loaded_from.display()
        );
        Ok(Plugin {
            path: staged.path.clone(),
            loaded_from,
            sha256: staged.sha256.clone(),
            manifest,
            module,
        })
    }

    /// A fresh bot object for `bot` playing `game`, after checking that the plugin offers that
    /// bot for that game under the protocol version the engine speaks.
    pub fn new_bot(&self, bot: &str, game: &dyn GameRules) -> Result<BotBox, LoadError> {
        let path = self.path.clone();
        let offers: Vec<&BotDescriptor> = self
            .manifest
            .bots
            .iter()
            .filter(|b| b.name == bot)
            .collect();
        if offers.is_empty() {
            return Err(LoadError::UnknownBot {
                path,
                bot: bot.to_string(),
                available: self.bot_names().join(", "),
            });
        }
        let Some(entry) = offers.iter().find(|b| b.game == game.name()) else {
            return Err(LoadError::UnknownGame {
                path,
                bot: bot.to_string(),
                game: game.name().to_string(),
                supported: offers
                    .iter()
                    .map(|b| b.game.as_str())
                    .collect::<Vec<_>>()
                    .join(", "),
            });
        };
        if entry.protocol_version != game.protocol_version() {
            return Err(LoadError::ProtocolMismatch {
                path,
                bot: bot.to_string(),
                game: game.name().to_string(),
                plugin: entry.protocol_version,
                engine: game.protocol_version(),
            });
        }
        let new_bot = self.module.new_bot();
        new_bot(bot.into(), game.name().into(), game.protocol_version())
            .into_result()
            .map_err(|message| LoadError::BotRefused {
                path: self.path.clone(),
                bot: bot.to_string(),
                message: message.into_string(),
            })
    }

    /// Distinct bot names, in manifest order.
    pub fn bot_names(&self) -> Vec<&str> {
        let mut names: Vec<&str> = Vec::new();
        for b in &self.manifest.bots {
            if !names.contains(&b.name.as_str()) {
                names.push(&b.name);
            }
        }
        names
    }

    /// The file name as users see it.
    pub fn file_name(&self) -> String {
        file_name(&self.path)
    }
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| path.display().to_string())
}

/// The one place a library is mapped: only after its copy is checked whole.
fn open(staged: &StagedPlugin) -> Result<PluginModuleRef, LoadError> {
    staged.check_copy()?;
    let path = staged.path.clone();
    let header = lib_header_from_path(&staged.copy).map_err(|e| match e {
        LibraryError::OpenError { err, .. } => LoadError::NotSharedLibrary {
            path: path.clone(),
            detail: err.to_string(),
        },
        LibraryError::GetSymbolError { .. } => LoadError::NoRootModule { path: path.clone() },
        other => LoadError::Abi {
            path: path.clone(),
            detail: other.to_string().trim().to_string(),
        },
    })?;
    header
        .init_root_module::<PluginModuleRef>()
        .map_err(|e| errors::classify_init_error(path, e))
}

fn read_manifest(module: PluginModuleRef) -> Manifest {
    let raw = (module.manifest())();
    Manifest {
        plugin: raw.plugin.into_string(),
        team: raw.team.into_string(),
        version: raw.version.into_string(),
        bots: raw
            .bots
            .into_iter()
            .map(|b| BotDescriptor {
                name: b.name.into_string(),
                description: b.description.into_string(),
                game: b.game.into_string(),
                protocol_version: b.protocol_version,
                tournament: b.tournament,
            })
            .collect(),
    }
}

/// The version of the plugin ABI (the `agon-plugin-api` crate) this engine was built with: a
/// plugin must have been built against a compatible one (the same minor version while at 0.x).
pub fn api_version() -> String {
    PluginModuleRef::VERSION_STRINGS.version.to_string()
}

/// The version of the SDK (`agon-sdk`) released with this engine: the workspace shares one
/// version between the engine, the rules and the SDK, while the ABI keeps its own.
pub fn sdk_version() -> &'static str {
    env!("CARGO_PKG_VERSION")
}

/// Why a bot built for `plugin`, another protocol version of `game` than this engine's
/// `engine`, is refused, and what its team does about it: every place that refuses such a bot
/// (the loader, `agon plugins`, a ladder's validation) says it in these words.
pub fn protocol_mismatch(game: &str, plugin: u32, engine: u32) -> String {
    format!(
        "was built for {game} protocol v{plugin}, but this engine speaks v{engine}; rebuild the \
         plugin with agon-sdk {}, this engine's release",
        sdk_version()
    )
}

/// The sha256 of `bytes` in lowercase hex, as plugin files are identified.
pub fn sha256_hex(bytes: &[u8]) -> String {
    hex(&Sha256::digest(bytes))
}

pub(crate) fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}
