use super::elf_extent::ExtentError;
use abi_stable::library::LibraryError;
use std::path::PathBuf;

/// Why a plugin file cannot be used. Every variant names the file.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    #[error("{}: cannot read the file: {source}", path.display())]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    /// The engine's own plugin cache failed (a full or read-only file system, a folder that is
    /// not one): no fault of the plugin's.
    #[error("the plugin cache {}: cannot store a copy of {}: {source}", cache.display(), path.display())]
    Cache {
        path: PathBuf,
        cache: PathBuf,
        source: std::io::Error,
    },
    /// Not a regular file, too large, or unreadable (the message names the file).
    #[error("{detail}")]
    Unreadable { path: PathBuf, detail: String },
    #[error("{}: not a shared library ({detail})", path.display())]
    NotSharedLibrary { path: PathBuf, detail: String },
    /// The file ends before the end its own ELF header describes: a copy or a build that did
    /// not finish. Refused before anything maps it, which would fault (SIGBUS) in the process
    /// that touched the missing part, as if the bot's code had crashed.
    #[error("{}: an incomplete library, {detail}; copy or build it again", path.display())]
    Incomplete { path: PathBuf, detail: String },
    #[error("{}: a shared library, but not an Agon plugin (it exports no Agon root module; \
             was it built with agon_sdk::export_plugin!?)", path.display())]
    NoRootModule { path: PathBuf },
    #[error("{}: built against plugin ABI {plugin} (agon-plugin-api), but this engine speaks \
             plugin ABI {engine}; rebuild the plugin with agon-sdk {}, this engine's release",
             path.display(), super::sdk_version())]
    ApiVersion {
        path: PathBuf,
        plugin: String,
        engine: String,
    },
    #[error("{}: its root module's ABI layout is incompatible with this engine's plugin ABI \
             (agon-plugin-api {}): {detail}", path.display(), super::api_version())]
    AbiLayout { path: PathBuf, detail: String },
    #[error("{}: built with an incompatible abi_stable (or a different Rust C ABI): {detail}",
            path.display())]
    AbiStable { path: PathBuf, detail: String },
    #[error("{}: cannot load the plugin: {detail}", path.display())]
    Abi { path: PathBuf, detail: String },
    #[error("{}: no bot `{bot}` (this plugin offers: {available})", path.display())]
    UnknownBot {
        path: PathBuf,
        bot: String,
        available: String,
    },
    #[error("{}: bot `{bot}` does not play {game} (it plays: {supported})", path.display())]
    UnknownGame {
        path: PathBuf,
        bot: String,
        game: String,
        supported: String,
    },
    #[error("{}: bot `{bot}` {}", path.display(), super::protocol_mismatch(game, *plugin, *engine))]
    ProtocolMismatch {
        path: PathBuf,
        bot: String,
        game: String,
        plugin: u32,
        engine: u32,
    },
    #[error("{}: bot `{bot}` could not be created: {message}", path.display())]
    BotRefused {
        path: PathBuf,
        bot: String,
        message: String,
    },
}

impl LoadError {
    /// The plugin file the error is about.
    pub fn path(&self) -> &std::path::Path {
        match self {
            LoadError::Io { path, .. }
            | LoadError::Cache { path, .. }
            | LoadError::Unreadable { path, .. }
            | LoadError::NotSharedLibrary { path, .. }
            | LoadError::Incomplete { path, .. }
            | LoadError::NoRootModule { path }
            | LoadError::ApiVersion { path, .. }
            | LoadError::AbiLayout { path, .. }
            | LoadError::AbiStable { path, .. }
            | LoadError::Abi { path, .. }
            | LoadError::UnknownBot { path, .. }
            | LoadError::UnknownGame { path, .. }
            | LoadError::ProtocolMismatch { path, .. }
            | LoadError::BotRefused { path, .. } => path,
        }
    }
}

impl LoadError {
    /// Whether the engine's own resources failed, not the plugin: such an error must stop
    /// whatever was going on, never be charged to an entrant.
    pub fn is_engines(&self) -> bool {
        matches!(self, LoadError::Cache { .. })
    }
}

/// Why the library at `path` may not be mapped, as the extent check found it.
pub(super) fn refused_extent(path: &std::path::Path, error: ExtentError) -> LoadError {
    let path = path.to_path_buf();
    let detail = error.to_string();
    match error {
        ExtentError::CutShort { .. } | ExtentError::HeadersCutShort { .. } => {
            LoadError::Incomplete { path, detail }
        }
        ExtentError::Unreadable(_) => LoadError::Unreadable {
            detail: format!("{}: {detail}", path.display()),
            path,
        },
        ExtentError::NotElf | ExtentError::Damaged(_) => {
            LoadError::NotSharedLibrary { path, detail }
        }
    }
}

/// Sorts `abi_stable`'s errors from `init_root_module` into what a user can act on.
pub(super) fn classify_init_error(path: PathBuf, error: LibraryError) -> LoadError {
    let detail = error.to_string().trim().to_string();
    match error {
        LibraryError::IncompatibleVersionNumber {
            expected_version,
            actual_version,
            ..
        } => LoadError::ApiVersion {
            path,
            plugin: actual_version.to_string(),
            engine: expected_version.to_string(),
        },
        LibraryError::AbiInstability(_) => {
            let mismatches = layout_mismatches(&detail);
            match versions_apart(&mismatches) {
                Some((plugin, engine)) => LoadError::ApiVersion {
                    path,
                    plugin,
                    engine,
                },
                None => LoadError::AbiLayout {
                    path,
                    detail: layout_summary(&mismatches, &detail),
                },
            }
        }
        LibraryError::InvalidAbiHeader(_) | LibraryError::InvalidCAbi { .. } => {
            LoadError::AbiStable { path, detail }
        }
        _ => LoadError::Abi { path, detail },
    }
}

/// `abi_stable` explains a layout error with both full type layouts (a hundred lines); what
/// differs is in its `Error:` lines and the `Expected:` / `Found:` lines after them.
/// One mismatch `abi_stable` found between the plugin's and the engine's root module layout.
#[derive(Debug, PartialEq)]
struct Mismatch {
    what: String,
    expected: Option<String>,
    found: Option<String>,
}

/// The mismatches in `abi_stable`'s report (it is only available as text: the library formats
/// it before returning, so that it holds no pointers into the plugin), each once.
fn layout_mismatches(text: &str) -> Vec<Mismatch> {
    let lines: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    let mut mismatches: Vec<Mismatch> = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let Some(what) = line.strip_prefix("Error:") else {
            continue;
        };
        let mut mismatch = Mismatch {
            what: what.trim().to_string(),
            expected: None,
            found: None,
        };
        let mut rest = lines[i + 1..]
            .iter()
            .take_while(|l| !l.starts_with("Error:"));
        while let Some(label @ (&"Expected:" | &"Found:")) = rest.next() {
            let value = rest.next().map(|v| v.to_string());
            match *label {
                "Expected:" => mismatch.expected = value,
                _ => mismatch.found = value,
            }
        }
        if !mismatches.contains(&mismatch) {
            mismatches.push(mismatch);
        }
    }
    mismatches
}

/// The plugin's and the engine's ABI versions, when they are all that differs: the layouts
/// match but come from versions of the ABI crate that `abi_stable` holds incompatible (at 0.x,
/// another minor version). That is a version error, not a layout one.
fn versions_apart(mismatches: &[Mismatch]) -> Option<(String, String)> {
    match mismatches {
        [Mismatch {
            what,
            expected: Some(engine),
            found: Some(plugin),
        }] if what == "incompatible package versions" => Some((plugin.clone(), engine.clone())),
        _ => None,
    }
}

fn layout_summary(mismatches: &[Mismatch], text: &str) -> String {
    if mismatches.is_empty() {
        let lines: Vec<&str> = text
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .collect();
        return lines.iter().take(8).copied().collect::<Vec<_>>().join(" ");
    }
    let parts: Vec<String> = mismatches
        .iter()
        .map(|m| {
            let mut part = m.what.clone();
            if let Some(expected) = &m.expected {
                part.push_str(&format!("; expected: {expected}"));
            }
            if let Some(found) = &m.found {
                part.push_str(&format!("; found: {found}"));
            }
            part
        })
        .collect();
    parts.join("; ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn summary(text: &str) -> String {
        layout_summary(&layout_mismatches(text), text)
    }

    #[test]
    fn layout_errors_are_summarized_once_each() {
        let text = "Compared <this>:\n  --- Type Layout ---\n...\nError:mismatched package\n\
                    Expected:\n    agon-plugin-api\nFound:\n    team-plugin\n\
                    Error:mismatched package\nExpected:\n    agon-plugin-api\nFound:\n    team-plugin\n";
        assert_eq!(
            summary(text),
            "mismatched package; expected: agon-plugin-api; found: team-plugin"
        );
        assert_eq!(summary("one\ntwo"), "one two");
    }

    #[test]
    fn another_abi_version_alone_is_a_version_error() {
        let versions =
            "Error:incompatible package versions\nExpected:\n    0.2.1\nFound:\n    0.3.0\n";
        let twice = format!("{versions}{versions}");
        assert_eq!(
            versions_apart(&layout_mismatches(&twice)),
            Some(("0.3.0".to_string(), "0.2.1".to_string()))
        );
        let and_more = format!("{versions}Error:mismatched package\nExpected:\n a\nFound:\n b\n");
        assert_eq!(versions_apart(&layout_mismatches(&and_more)), None);
    }
}
