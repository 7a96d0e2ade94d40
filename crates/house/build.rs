//! Carries the sources of the SDK and the crates under it inside the `agon` binary, so that
//! `agon new` can write them into a team's project: the project then builds wherever it is
//! copied, with no Agon checkout beside it (see `src/vendor.rs`). It carries the
//! reference plugins of `plugins/` too, which `agon` builds on first use as the house bots
//! (`--bot house:NAME`, `src/bots.rs`), so an installed `agon` has opponents from any folder.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// The crates a bot's project needs, as folders of this workspace.
const CRATES: [&str; 3] = ["plugin-api/abi", "plugin-api/games", "plugin-api/sdk"];

/// Plugins of `plugins/` that are not house bots: test fixtures that misbehave on purpose.
const NOT_HOUSE: [&str; 2] = ["misbehave", "noop"];

/// The workspace files their manifests inherit from (`version.workspace = true` and the
/// like), and the lock file that pins what the engine was tested with.
const WORKSPACE_FILES: [&str; 2] = ["Cargo.toml", "Cargo.lock"];

fn main() {
    // Read when the script runs, not when it was compiled: a moved checkout keeps the compiled
    // script and runs it again in its new place.
    let manifest_dir =
        std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let root = Path::new(&manifest_dir)
        .ancestors()
        .nth(2)
        .expect("this crate is a folder of the workspace's `crates/`")
        .to_path_buf();
    let mut files = Vec::new();
    for name in WORKSPACE_FILES {
        files.push(root.join(name));
        println!("cargo:rerun-if-changed={}", root.join(name).display());
    }
    let mut folders: Vec<String> = CRATES.iter().map(|f| f.to_string()).collect();
    folders.extend(house_folders(&root));
    for folder in &folders {
        let dir = root.join(folder);
        for name in ["Cargo.toml", "README.md", "build.rs"] {
            if dir.join(name).is_file() {
                files.push(dir.join(name));
            }
        }
        collect(&dir.join("src"), &mut files);
        // A folder named here makes cargo look at every file below it.
        println!("cargo:rerun-if-changed={}", dir.display());
    }
    let mut table = String::from("pub static SDK_SOURCES: &[(&str, &str)] = &[\n");
    for file in &files {
        let relative = file.strip_prefix(&root).expect("below the workspace");
        // Relative to the package as it is when it compiles (a moved checkout keeps its build).
        let relative = relative.to_str().expect("a UTF-8 source path");
        writeln!(
            table,
            "    ({relative:?}, include_str!(concat!(env!(\"CARGO_MANIFEST_DIR\"), \"/../../{relative}\"))),"
        )
        .unwrap();
    }
    table.push_str("];\n");
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    std::fs::write(out.join("sdk_sources.rs"), table).expect("OUT_DIR is writable");
}

/// The house plugins' folders, `plugins/<name>`, in name order.
fn house_folders(root: &Path) -> Vec<String> {
    let plugins = root.join("plugins");
    println!("cargo:rerun-if-changed={}", plugins.display());
    let mut names: Vec<String> = std::fs::read_dir(&plugins)
        .unwrap_or_else(|e| panic!("{}: {e}", plugins.display()))
        .map(|entry| entry.expect("a readable folder"))
        .filter(|entry| entry.path().join("Cargo.toml").is_file())
        .map(|entry| entry.file_name().to_string_lossy().into_owned())
        .filter(|name| !NOT_HOUSE.contains(&name.as_str()))
        .collect();
    names.sort();
    names
        .into_iter()
        .map(|name| format!("plugins/{name}"))
        .collect()
}

/// What a crate's `src/` holds that its build reads: Rust, and the text files its code
/// includes (viewer scripts, the games' built-in maps and puzzles). Anything else there (an editor's swap file) stays out of teams' projects.
const SOURCE_EXTENSIONS: [&str; 4] = ["rs", "js", "txt", "map"];

/// Every source file below `dir`, in name order (so the binary is the same from build to
/// build).
fn collect(dir: &Path, files: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.expect("a readable folder").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            collect(&path, files);
        } else if path
            .extension()
            .is_some_and(|e| SOURCE_EXTENSIONS.iter().any(|s| e == *s))
        {
            files.push(path);
        }
    }
}
