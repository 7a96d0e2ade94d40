//! `agon view RECORD [--out FILE.html] [--open]`

use crate::cli::ViewArgs;
use agon_engine::MatchRecord;
use agon_play::console::outln;
use anyhow::Context;
use std::path::{Path, PathBuf};

pub fn run(args: ViewArgs) -> anyhow::Result<()> {
    let record = MatchRecord::read(&args.record)?;
    let out = args
        .out
        .clone()
        .unwrap_or_else(|| args.record.with_extension("html"));
    agon_play::view::write_page(&record, args.title.as_deref(), &out)
        .with_context(|| format!("{}", args.record.display()))?;
    outln!("{}: the viewer of {}", out.display(), args.record.display());
    if args.open {
        open_in_browser(&out)?;
    }
    Ok(())
}

/// The desktop's opener (`xdg-open` on Linux, `open` on macOS), without waiting for the browser.
fn open_in_browser(page: &Path) -> anyhow::Result<()> {
    let opener = if cfg!(target_os = "macos") {
        "open"
    } else {
        "xdg-open"
    };
    let page: PathBuf = std::fs::canonicalize(page)?;
    std::process::Command::new(opener)
        .arg(&page)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .map(drop)
        .with_context(|| format!("cannot run {opener} to open {}", page.display()))
}
