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
    #[error("{}: a shared library, but not an Agon plugin (it exports no Agon root module; \
             was it built with agon_plugin_api::export_plugin!?)", path.display())]
    NoRootModule { path: PathBuf },
    #[error("{}: built against agon-plugin-api {plugin}, but this engine uses {engine}; \
             rebuild the plugin against agon-plugin-api {engine}", path.display())]
    ApiVersion {
        path: PathBuf,
        plugin: String,
        engine: String,
    },
    #[error("{}: its root module's ABI layout is incompatible with this engine's \
             agon-plugin-api: {detail}", path.display())]
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
    #[error("{}: bot `{bot}` was built for {game} protocol v{plugin}, but this engine speaks \
             v{engine}; rebuild the plugin against agon-plugin-api {} (the engine's version)",
             path.display(), super::api_version())]
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
        LibraryError::AbiInstability(_) => LoadError::AbiLayout {
            path,
            detail: layout_summary(&detail),
        },
        LibraryError::InvalidAbiHeader(_) | LibraryError::InvalidCAbi { .. } => {
            LoadError::AbiStable { path, detail }
        }
        _ => LoadError::Abi { path, detail },
    }
}

/// `abi_stable` explains a layout error with both full type layouts (a hundred lines); what
/// differs is in its `Error:` lines and the `Expected:` / `Found:` lines after them.
fn layout_summary(text: &str) -> String {
    let lines: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    let mut parts = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        if let Some(error) = line.strip_prefix("Error:") {
            let mut part = error.trim().to_string();
            let mut rest = lines[i + 1..]
                .iter()
                .take_while(|l| !l.starts_with("Error:"));
            while let Some(label @ (&"Expected:" | &"Found:")) = rest.next() {
                if let Some(value) = rest.next() {
                    part.push_str(&format!("; {} {}", label.to_lowercase(), value));
                }
            }
            parts.push(part);
        }
    }
    if parts.is_empty() {
        lines.iter().take(8).copied().collect::<Vec<_>>().join(" ")
    } else {
        parts.join("; ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layout_errors_are_summarized() {
        let text = "Compared <this>:\n  --- Type Layout ---\n...\nError:mismatched package\n\
                    Expected:\n    agon-plugin-api\nFound:\n    team-plugin\n";
        assert_eq!(
            layout_summary(text),
            "mismatched package; expected: agon-plugin-api; found: team-plugin"
        );
        assert_eq!(layout_summary("one\ntwo"), "one two");
    }
}
