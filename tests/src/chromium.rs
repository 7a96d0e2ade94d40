//! Where the browser of the viewer's tests is. Also compiled into `tests/build.rs` (by path),
//! which decides from it whether those tests are compiled as ignored.

use std::path::PathBuf;

/// The Chromium executables looked for on the PATH, in order.
pub const CANDIDATES: [&str; 4] = [
    "chromium",
    "chromium-browser",
    "google-chrome",
    "chrome-headless-shell",
];

/// The browser's executable, or why there is none.
pub fn executable() -> Result<PathBuf, String> {
    if let Some(path) = std::env::var_os("AGON_CHROMIUM") {
        return Ok(PathBuf::from(path));
    }
    let path = std::env::var_os("PATH").unwrap_or_default();
    for dir in std::env::split_paths(&path) {
        for name in CANDIDATES {
            let candidate = dir.join(name);
            if candidate.is_file() {
                return Ok(candidate);
            }
        }
    }
    Err(format!(
        "no Chromium on the PATH (looked for {}; AGON_CHROMIUM names one)",
        CANDIDATES.join(", ")
    ))
}
