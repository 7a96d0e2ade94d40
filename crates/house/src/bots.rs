//! Building and finding the house bots.

use crate::vendor;
use crate::HouseError;
use agon_engine::{loader::cache_dir, LoadError, Manifest, Plugin, StagedPlugin};
use agon_engine::{BotSpec, OnPath};
use agon_play::journal::folder_lock::FolderLock;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The file part of a house bot's spec: `house:NAME`.
pub const FILE: &str = "house";

/// Whether `spec` names a house bot rather than a plugin file.
pub fn is_house(spec: &BotSpec) -> bool {
    spec.file.as_os_str() == FILE
}

/// `spec` with a house bot's file resolved to the built library that has bot `NAME` for
/// `game` (building the game's house plugins first if needed); any other spec as it is.
pub fn resolve(mut spec: BotSpec, game: &str) -> Result<BotSpec, HouseError> {
    if !is_house(&spec) {
        return Ok(spec);
    }
    let bots = bots_of(game)?;
    let Some((file, _)) = bots.iter().find(|(_, name)| *name == spec.bot) else {
        let names: Vec<&str> = bots.iter().map(|(_, n)| n.as_str()).collect();
        return Err(HouseError::NoSuchBot {
            bot: spec.bot,
            game: game.to_string(),
            known: if names.is_empty() {
                "none".to_string()
            } else {
                names.join(", ")
            },
        });
    };
    spec.file = file.clone();
    Ok(spec)
}

/// Every house bot of `game`: its library and name, in package order.
pub fn bots_of(game: &str) -> Result<Vec<(PathBuf, String)>, HouseError> {
    let packages = packages_of(game);
    let built = ensure_built(&packages)?;
    let mut bots = Vec::new();
    for (package, file) in packages.iter().zip(built) {
        let manifest = manifest(&file).map_err(|source| HouseError::Plugin {
            package: package.clone(),
            source,
        })?;
        for bot in manifest.bots.iter().filter(|b| b.game.as_str() == game) {
            bots.push((file.clone(), bot.name.to_string()));
        }
    }
    Ok(bots)
}

/// The house plugins of `game`: by the repository's convention, the packages named
/// `<game>-<strategy>`.
pub fn packages_of(game: &str) -> Vec<String> {
    vendor::house_packages()
        .into_iter()
        .filter(|p| {
            p.strip_prefix(game)
                .is_some_and(|rest| rest.starts_with('-'))
        })
        .collect()
}

fn manifest(file: &Path) -> Result<Manifest, LoadError> {
    let staged = StagedPlugin::stage(file, &cache_dir())?;
    Ok(Plugin::open(&staged)?.manifest)
}

/// The folder of this `agon`'s house builds.
fn folder() -> PathBuf {
    cache_dir().join("house").join(format!(
        "{}-{}",
        env!("CARGO_PKG_VERSION"),
        vendor::sources_digest()
    ))
}

/// The library file of `package` in `folder`'s `lib/`.
fn library(folder: &Path, package: &str) -> PathBuf {
    folder
        .join("lib")
        .join(format!("lib{}.so", package.replace('-', "_")))
}

/// The built libraries of `packages` (in that order), building those missing.
pub fn ensure_built(packages: &[String]) -> Result<Vec<PathBuf>, HouseError> {
    let folder = folder();
    let files: Vec<PathBuf> = packages.iter().map(|p| library(&folder, p)).collect();
    if files.iter().all(|f| f.is_file()) {
        return Ok(files);
    }
    std::fs::create_dir_all(&folder)
        .on_path(&folder)
        .map_err(HouseError::io("create"))?;
    // Two agons asking at once: the second waits, then finds the libraries built.
    let _lock = FolderLock::acquire(&folder, "house.lock")?;
    if !files.iter().all(|f| f.is_file()) {
        build(&folder, packages)?;
    }
    Ok(files)
}

/// Writes the carried crates into `folder/src` as a workspace of their own and builds
/// `packages` there, then copies their libraries into `folder/lib`.
fn build(folder: &Path, packages: &[String]) -> Result<(), HouseError> {
    let source = folder.join("src");
    let _ = std::fs::remove_dir_all(&source);
    let mut crates: Vec<&str> = vendor::PACKAGES.to_vec();
    let house = vendor::house_packages();
    crates.extend(house.iter().map(String::as_str));
    vendor::write_crates(&source, &crates)?;
    let mut manifest = vendor::profiles()?;
    manifest.insert(
        "workspace".into(),
        toml::Value::Table(toml::Table::from_iter([
            ("resolver".to_string(), toml::Value::String("2".into())),
            (
                "members".to_string(),
                toml::Value::Array(vec![toml::Value::String("vendor/*".into())]),
            ),
        ])),
    );
    let text = toml::to_string(&manifest).map_err(|e| HouseError::Carried(e.to_string()))?;
    let path = source.join("Cargo.toml");
    std::fs::write(&path, text)
        .on_path(&path)
        .map_err(HouseError::io("write"))?;
    let path = source.join("Cargo.lock");
    std::fs::write(&path, vendor::lock_file())
        .on_path(&path)
        .map_err(HouseError::io("write"))?;
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| folder.join("target"));
    eprintln!(
        "agon: building the house bots {} once, into {} (cargo build --release; a minute or two)",
        packages.join(", "),
        folder.display()
    );
    // Offline first: the engine's own dependencies are usually in cargo's cache already.
    if !cargo_build(&source, &target, packages, true)?
        && !cargo_build(&source, &target, packages, false)?
    {
        return Err(HouseError::BuildFailed);
    }
    let lib = folder.join("lib");
    std::fs::create_dir_all(&lib)
        .on_path(&lib)
        .map_err(HouseError::io("create"))?;
    for package in packages {
        let name = format!("lib{}.so", package.replace('-', "_"));
        let built = target.join("release").join(&name);
        let partial = lib.join(format!(".{name}.partial"));
        std::fs::copy(&built, &partial)
            .on_path(&built)
            .map_err(HouseError::io("copy"))?;
        std::fs::rename(&partial, lib.join(&name))
            .on_path(&partial)
            .map_err(HouseError::io("rename"))?;
    }
    Ok(())
}

/// Runs `cargo build --release` for `packages` in `source`; whether it succeeded. Offline, its
/// messages are kept quiet (a miss there is retried online).
fn cargo_build(
    source: &Path,
    target: &Path,
    packages: &[String],
    offline: bool,
) -> Result<bool, HouseError> {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let mut command = Command::new(&cargo);
    command
        .current_dir(source)
        .args(["build", "--release", "--quiet", "--target-dir"])
        .arg(target);
    for package in packages {
        command.args(["-p", package]);
    }
    if offline {
        command.arg("--offline");
        command.stderr(std::process::Stdio::null());
    }
    let status = command.status().map_err(|source| HouseError::NoCargo {
        cargo: Path::new(&cargo).display().to_string(),
        source,
    })?;
    Ok(status.success())
}
