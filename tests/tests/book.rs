//! The book under `docs/` and the README: every page is in the book's contents, every relative
//! link leads to a file of the repository and every anchor to a heading of its page, and
//! `mdbook build` succeeds (where mdBook is installed; under CI it must be).

use agon_tests::{run, scratch, workspace_root};
use std::path::{Path, PathBuf};
use std::process::Command;

fn markdown_files(dir: &Path, found: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let path = entry.expect("an entry").path();
        if path.is_dir() {
            markdown_files(&path, found);
        } else if path.extension().is_some_and(|e| e == "md") {
            found.push(path);
        }
    }
}

/// The pages checked: the README and every page of the book.
fn pages() -> Vec<PathBuf> {
    let root = workspace_root();
    let mut pages = vec![root.join("README.md")];
    markdown_files(&root.join("docs"), &mut pages);
    pages.sort();
    pages
}

/// The lines of `text` outside fenced code blocks, with their numbers.
fn prose_lines(text: &str) -> Vec<(usize, &str)> {
    let mut fenced = false;
    let mut lines = Vec::new();
    for (number, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
        } else if !fenced {
            lines.push((number + 1, line));
        }
    }
    lines
}

/// `line` without its inline code spans.
fn without_code(line: &str) -> String {
    line.split('`').step_by(2).collect::<Vec<_>>().join(" ")
}

/// The targets of the inline links `[text](target)` of `line`.
fn link_targets(line: &str) -> Vec<String> {
    let line = without_code(line);
    let mut targets = Vec::new();
    let mut rest = line.as_str();
    while let Some(at) = rest.find("](") {
        let after = &rest[at + 2..];
        let Some(end) = after.find(')') else { break };
        targets.push(after[..end].trim().to_string());
        rest = &after[end..];
    }
    targets
}

/// A heading's anchor as mdBook and GitHub make it: lower case, spaces to `-`, only letters,
/// digits, `-` and `_` kept.
fn anchor_of(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            // Backticks and other punctuation are dropped.
            _ => None,
        })
        .collect()
}

/// Every anchor of a page: its headings' (a repeated heading's with `-1`, `-2`, ...).
fn anchors(text: &str) -> Vec<String> {
    let mut found: Vec<String> = Vec::new();
    for (_, line) in prose_lines(text) {
        let Some(heading) = line.strip_prefix('#') else {
            continue;
        };
        let anchor = anchor_of(heading.trim_start_matches('#'));
        let repeats = found.iter().filter(|a| **a == anchor).count();
        found.push(if repeats == 0 {
            anchor.clone()
        } else {
            format!("{anchor}-{repeats}")
        });
        if repeats > 0 {
            found.push(anchor);
        }
    }
    found
}

fn broken_link(page: &Path, target: &str) -> Option<String> {
    if target.contains("://") || target.starts_with("mailto:") {
        return None;
    }
    let (path, anchor) = target.split_once('#').unwrap_or((target, ""));
    let file = if path.is_empty() {
        page.to_path_buf()
    } else {
        page.parent().unwrap().join(path)
    };
    if !file.exists() {
        return Some(format!("`{target}`: no such file"));
    }
    let inside = file
        .canonicalize()
        .is_ok_and(|f| f.starts_with(workspace_root().canonicalize().unwrap()));
    if !inside {
        return Some(format!("`{target}` leads out of the repository"));
    }
    if anchor.is_empty() {
        return None;
    }
    let text = std::fs::read_to_string(&file).unwrap_or_default();
    if anchors(&text).iter().any(|a| a == anchor) {
        None
    } else {
        Some(format!(
            "`{target}`: no heading with that anchor in {}",
            file.display()
        ))
    }
}

#[test]
fn every_link_and_anchor_resolves() {
    let root = workspace_root();
    let mut broken = Vec::new();
    let mut checked = 0;
    for page in pages() {
        let text =
            std::fs::read_to_string(&page).unwrap_or_else(|e| panic!("{}: {e}", page.display()));
        for (number, line) in prose_lines(&text) {
            for target in link_targets(line) {
                checked += 1;
                if let Some(problem) = broken_link(&page, &target) {
                    let shown = page.strip_prefix(&root).unwrap().display().to_string();
                    broken.push(format!("{shown}:{number}: {problem}"));
                }
            }
        }
    }
    assert!(checked > 50, "only {checked} links found");
    assert!(broken.is_empty(), "{}", broken.join("\n"));
}

#[test]
fn a_broken_link_or_anchor_is_seen() {
    let page = workspace_root().join("docs/getting-started.md");
    assert_eq!(broken_link(&page, "tournaments.md"), None);
    assert!(broken_link(&page, "no-such-page.md").is_some());
    assert_eq!(broken_link(&page, "#install"), None);
    assert!(broken_link(&page, "#no-such-heading").is_some());
    assert_eq!(
        anchor_of(" The `agon plugins` command, again!"),
        "the-agon-plugins-command-again"
    );
    assert_eq!(
        link_targets("see [a](x.md#y) and `[b](not-a-link)` and [c](z.md)"),
        ["x.md#y", "z.md"]
    );
}

#[test]
fn every_page_of_docs_is_in_the_books_contents() {
    let docs = workspace_root().join("docs");
    let summary = std::fs::read_to_string(docs.join("SUMMARY.md")).expect("docs/SUMMARY.md");
    let listed: Vec<String> = summary.lines().flat_map(link_targets).collect();
    let mut missing = Vec::new();
    for page in pages().iter().filter(|p| p.starts_with(&docs)) {
        let relative = page.strip_prefix(&docs).unwrap().display().to_string();
        if relative != "SUMMARY.md" && !listed.contains(&relative) {
            missing.push(relative);
        }
    }
    assert!(missing.is_empty(), "not in docs/SUMMARY.md: {missing:?}");
}

#[test]
fn the_readme_is_short_and_names_the_two_commands_first() {
    let readme = std::fs::read_to_string(workspace_root().join("README.md")).expect("README.md");
    let lines = readme.lines().count();
    assert!(
        lines <= 200,
        "README.md has {lines} lines; the book holds the rest"
    );
    let first_screen: String = readme.lines().take(50).collect::<Vec<_>>().join("\n");
    for command in [
        "cargo build --release && ./target/release/agon tournament run tournaments/demo.toml",
        "cargo test --workspace",
    ] {
        assert!(
            first_screen.contains(command),
            "`{command}` is not in the README's first screen"
        );
    }
}

#[test]
fn the_book_builds() {
    let found = Command::new("mdbook")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !found {
        assert!(
            std::env::var_os("CI").is_none(),
            "mdbook is not installed, and under CI the book must build (.ci/run installs it)"
        );
        eprintln!("skipped: mdbook is not installed (`cargo install mdbook --locked`)");
        return;
    }
    let out = scratch("book");
    run(Command::new("mdbook")
        .arg("build")
        .arg(workspace_root().join("docs"))
        .arg("--dest-dir")
        .arg(&out))
    .expect_success();
    assert!(out.join("index.html").is_file() || out.join("introduction.html").is_file());
    assert!(out.join("games/reversixt.html").is_file());
}
