//! The book's command reference (`docs/command-reference.md`) is written from the command
//! line's own definition, so it cannot fall behind: this test fails when the checked-in page
//! differs, and `AGON_BLESS=1 cargo test -p agon command_reference` rewrites it.

use crate::cli::Cli;
use std::path::PathBuf;

fn page() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../docs/command-reference.md")
}

fn written() -> String {
    let options = clap_markdown::MarkdownOptions::new()
        .title("Command reference".to_string())
        .show_footer(false)
        .show_table_of_contents(true);
    let body = clap_markdown::help_markdown_custom::<Cli>(&options);
    format!(
        "<!-- Written from the command line's definition by harness/src/command_reference.rs; \
         do not edit: run `AGON_BLESS=1 cargo test -p agon command_reference`. -->\n\n{body}"
    )
}

#[test]
fn the_books_command_reference_is_the_command_lines_own() {
    let expected = written();
    if std::env::var_os("AGON_BLESS").is_some() {
        std::fs::write(page(), &expected).expect("writing docs/command-reference.md");
        return;
    }
    let found = std::fs::read_to_string(page()).unwrap_or_default();
    assert!(
        found == expected,
        "docs/command-reference.md is not the command line's own: run \
         `AGON_BLESS=1 cargo test -p agon command_reference` and commit the page"
    );
}
