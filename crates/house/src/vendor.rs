//! The SDK's own source, written into a team's project (`vendor/`) so that the project builds
//! wherever it is copied, with no Agon checkout beside it. `build.rs` carries the sources in
//! the binary; here their manifests are made standalone: what they inherit from Agon's
//! workspace is filled in, and the paths between them point into `vendor/`.

use crate::HouseError;
use agon_engine::OnPath;
use std::collections::BTreeMap;
use std::path::Path;
use toml::{Table, Value};

include!(concat!(env!("OUT_DIR"), "/sdk_sources.rs"));

/// The error of a carried manifest that does not parse, print or say what it should.
fn defect(why: impl std::fmt::Display) -> HouseError {
    HouseError::Carried(why.to_string())
}

/// The project's folder for the vendored crates, one folder per package.
pub const VENDOR: &str = "vendor";

/// The SDK package a bot depends on.
pub const SDK_PACKAGE: &str = "agon-sdk";

/// Every vendored package, the SDK and the crates under it.
pub const PACKAGES: [&str; 3] = ["agon-plugin-api", "agon-games", SDK_PACKAGE];

/// What Agon's workspace gives its members.
struct Workspace {
    package: Table,
    dependencies: Table,
}

/// Writes every vendored crate into `project/vendor/<package>/`.
pub fn write_sdk(project: &Path) -> Result<(), HouseError> {
    write_crates(project, &PACKAGES)
}

/// The carried house plugins' packages (`plugins/<name>`), in name order.
pub fn house_packages() -> Vec<String> {
    crate_folders()
        .map(|folders| {
            folders
                .into_iter()
                .filter(|(folder, _)| folder.starts_with("plugins/"))
                .map(|(_, package)| package)
                .collect()
        })
        .unwrap_or_default()
}

/// What the carried sources hash to: a build of them is a build of this `agon`'s.
pub fn sources_digest() -> String {
    use sha2::{Digest, Sha256};
    let mut hash = Sha256::new();
    for (name, text) in SDK_SOURCES {
        hash.update(name.as_bytes());
        hash.update([0]);
        hash.update(text.as_bytes());
        hash.update([0]);
    }
    hash.finalize()[..8]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The carried workspace manifest's `[profile.*]` sections, for a workspace of carried crates
/// that builds as Agon's does.
pub fn profiles() -> Result<Table, HouseError> {
    let root: Table = carried("Cargo.toml").parse().map_err(defect)?;
    let mut out = Table::new();
    if let Some(profile) = root.get("profile") {
        out.insert("profile".into(), profile.clone());
    }
    Ok(out)
}

/// Writes the carried crates `packages` into `project/vendor/<package>/`, their manifests made
/// standalone.
pub fn write_crates(project: &Path, packages: &[&str]) -> Result<(), HouseError> {
    let workspace = workspace()?;
    let folders = crate_folders()?;
    for (relative, text) in SDK_SOURCES {
        let Some((folder, package)) = folders
            .iter()
            .find(|(folder, _)| relative.starts_with(&format!("{folder}/")))
        else {
            continue;
        };
        if !packages.contains(&package.as_str()) {
            continue;
        }
        let inside = &relative[folder.len() + 1..];
        let text = if inside == "Cargo.toml" {
            standalone_manifest(text, &workspace, &folders).map_err(|e| match e {
                HouseError::Carried(why) => HouseError::Carried(format!("{relative}: {why}")),
                other => other,
            })?
        } else {
            text.to_string()
        };
        let target = project.join(VENDOR).join(package).join(inside);
        if let Some(parent) = target.parent() {
            std::fs::create_dir_all(parent)
                .on_path(parent)
                .map_err(HouseError::io("create"))?;
        }
        std::fs::write(&target, text)
            .on_path(&target)
            .map_err(HouseError::io("write"))?;
    }
    Ok(())
}

/// The lock file Agon's engine is tested with (cargo drops the entries a project does not use).
pub fn lock_file() -> &'static str {
    carried("Cargo.lock")
}

fn carried(relative: &str) -> &'static str {
    SDK_SOURCES
        .iter()
        .find(|(name, _)| *name == relative)
        .map(|(_, text)| *text)
        .unwrap_or_else(|| panic!("build.rs carries {relative}"))
}

fn workspace() -> Result<Workspace, HouseError> {
    let root: Table = carried("Cargo.toml").parse().map_err(defect)?;
    let section = |name: &str| -> Result<Table, HouseError> {
        root.get("workspace")
            .and_then(|w| w.get(name))
            .and_then(Value::as_table)
            .cloned()
            .ok_or_else(|| defect(format!("the workspace manifest has no [workspace.{name}]")))
    };
    Ok(Workspace {
        package: section("package")?,
        dependencies: section("dependencies")?,
    })
}

/// Each carried crate's workspace folder and its package name (its folder under `vendor/`).
fn crate_folders() -> Result<BTreeMap<String, String>, HouseError> {
    let mut folders = BTreeMap::new();
    for (relative, text) in SDK_SOURCES {
        let Some(folder) = relative.strip_suffix("/Cargo.toml") else {
            continue;
        };
        let manifest: Table = text.parse().map_err(defect)?;
        let name = manifest
            .get("package")
            .and_then(|p| p.get("name"))
            .and_then(Value::as_str)
            .ok_or_else(|| defect(format!("{relative} names no package")))?;
        folders.insert(folder.to_string(), name.to_string());
    }
    Ok(folders)
}

/// `manifest` with every `x.workspace = true` replaced by the workspace's value, and without
/// what a vendored copy does not build (its tests' dependencies).
fn standalone_manifest(
    manifest: &str,
    workspace: &Workspace,
    folders: &BTreeMap<String, String>,
) -> Result<String, HouseError> {
    let mut manifest: Table = manifest.parse().map_err(defect)?;
    manifest.remove("dev-dependencies");
    manifest.remove("lints");
    if let Some(package) = manifest.get_mut("package").and_then(Value::as_table_mut) {
        for (key, value) in package.iter_mut() {
            if inherits(value) {
                *value = workspace
                    .package
                    .get(key)
                    .cloned()
                    .ok_or_else(|| defect(format!("[workspace.package] has no {key}")))?;
            }
        }
    }
    for section in ["dependencies", "build-dependencies"] {
        let Some(dependencies) = manifest.get_mut(section).and_then(Value::as_table_mut) else {
            continue;
        };
        for (name, spec) in dependencies.iter_mut() {
            if inherits(spec) {
                *spec = inherited_dependency(name, spec, workspace, folders)?;
            }
        }
    }
    let mut text = String::from(
        "# Written by `agon new`: Agon's own source of this crate, with what it inherited from\n\
         # Agon's workspace filled in. Do not edit; a new `agon new` writes a newer one.\n\n",
    );
    // Sections in the order people write them; toml would sort them by name.
    for section in [
        "package",
        "lib",
        "features",
        "dependencies",
        "build-dependencies",
    ] {
        if let Some(value) = manifest.remove(section) {
            text += &toml::to_string(&Table::from_iter([(section.to_string(), value)]))
                .map_err(defect)?;
            text.push('\n');
        }
    }
    text += &toml::to_string(&manifest).map_err(defect)?;
    Ok(text)
}

fn inherits(value: &Value) -> bool {
    value.get("workspace").and_then(Value::as_bool) == Some(true)
}

/// A member's `name = { workspace = true, features = [...], optional = ... }` as the workspace
/// defines it, with the member's additions; a path into Agon's workspace becomes the vendored
/// sibling folder.
fn inherited_dependency(
    name: &str,
    member: &Value,
    workspace: &Workspace,
    folders: &BTreeMap<String, String>,
) -> Result<Value, HouseError> {
    let mut spec = match workspace.dependencies.get(name) {
        Some(Value::String(version)) => {
            Table::from_iter([("version".to_string(), Value::String(version.clone()))])
        }
        Some(Value::Table(table)) => table.clone(),
        _ => return Err(defect(format!("[workspace.dependencies] has no {name}"))),
    };
    if let Some(path) = spec.get("path").and_then(Value::as_str) {
        let package = folders
            .get(path)
            .ok_or_else(|| defect(format!("{name} is a path ({path}) that is not vendored")))?;
        spec.insert("path".into(), Value::String(format!("../{package}")));
    }
    if let Some(Value::Array(extra)) = member.get("features") {
        let mut features = match spec.remove("features") {
            Some(Value::Array(features)) => features,
            _ => Vec::new(),
        };
        let added: Vec<Value> = extra
            .iter()
            .filter(|feature| !features.contains(feature))
            .cloned()
            .collect();
        features.extend(added);
        spec.insert("features".into(), Value::Array(features));
    }
    if let Some(optional) = member.get("optional") {
        spec.insert("optional".into(), optional.clone());
    }
    Ok(Value::Table(spec))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vendored_manifests_inherit_nothing_and_point_into_vendor() {
        let workspace = workspace().unwrap();
        let folders = crate_folders().unwrap();
        let sdk: Vec<&String> = folders
            .iter()
            .filter(|(folder, _)| !folder.starts_with("plugins/"))
            .map(|(_, package)| package)
            .collect();
        assert_eq!(sdk, PACKAGES);
        assert!(house_packages().contains(&"reversixt-seed".to_string()));
        assert!(!house_packages().contains(&"misbehave".to_string()));
        for (folder, package) in &folders {
            let text = standalone_manifest(
                carried(&format!("{folder}/Cargo.toml")),
                &workspace,
                &folders,
            )
            .unwrap();
            assert!(!text.contains("workspace ="), "{package}:\n{text}");
            assert!(!text.contains("plugin-api/"), "{package}:\n{text}");
            let manifest: Table = text.parse().unwrap();
            assert!(manifest["package"]["version"].is_str(), "{text}");
            assert!(manifest.get("dev-dependencies").is_none(), "{text}");
        }
        let sdk = standalone_manifest(carried("plugin-api/sdk/Cargo.toml"), &workspace, &folders)
            .unwrap();
        let sdk: Table = sdk.parse().unwrap();
        let abi = &sdk["dependencies"]["agon-abi"];
        assert_eq!(abi["package"].as_str(), Some("agon-plugin-api"));
        assert_eq!(abi["path"].as_str(), Some("../agon-plugin-api"));
        // The workspace turns the ABI's default features off; the SDK adds the one it needs.
        assert_eq!(abi["default-features"].as_bool(), Some(false));
        assert_eq!(
            abi["features"].as_array().unwrap(),
            &vec![Value::String("root-module".into())]
        );
    }

    #[test]
    fn a_dependency_the_workspace_does_not_define_is_an_error() {
        let workspace = Workspace {
            package: Table::new(),
            dependencies: Table::new(),
        };
        let manifest = "[package]\nname = \"x\"\n[dependencies]\nserde.workspace = true\n";
        let e = standalone_manifest(manifest, &workspace, &BTreeMap::new()).unwrap_err();
        assert!(e.to_string().contains("no serde"), "{e}");
    }
}
