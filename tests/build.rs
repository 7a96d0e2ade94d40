//! The viewer's browser tests need Chromium. libtest cannot skip a test at run time, and a test
//! that returns early when the browser is missing reads `ok` in the summary: a skip nobody
//! sees. So the browser is looked for here, when the tests are built: without one the build
//! sets `cfg(agon_no_browser)`, under which those tests are `#[ignore = "needs Chromium ..."]`,
//! and `cargo test` lists them as ignored with that reason. Under CI (`CI=true`, as `.ci/run`
//! sets it) the cfg is never set: a missing browser fails the tests instead of hiding them.

#[path = "src/chromium.rs"]
mod chromium;

fn main() {
    println!("cargo::rustc-check-cfg=cfg(agon_no_browser)");
    for variable in ["PATH", "AGON_CHROMIUM", "CI"] {
        println!("cargo::rerun-if-env-changed={variable}");
    }
    match chromium::executable() {
        // Looked for again if it goes away (a missing file always reruns this script).
        Ok(browser) => println!("cargo::rerun-if-changed={}", browser.display()),
        Err(_) => {
            // Looked for again when a folder of the PATH changes (a browser installed there).
            let path = std::env::var_os("PATH").unwrap_or_default();
            for dir in std::env::split_paths(&path).filter(|d| d.is_absolute() && d.is_dir()) {
                println!("cargo::rerun-if-changed={}", dir.display());
            }
            if std::env::var("CI").as_deref() != Ok("true") {
                println!("cargo::rustc-cfg=agon_no_browser");
            }
        }
    }
}
