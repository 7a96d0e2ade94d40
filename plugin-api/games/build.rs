//! Writes the one list of games, `for_each_game!`, from the game folders under `src/`: a folder
//! is a game when it holds both `session.rs` and `bot.rs` (the roles every game folder has, see
//! the crate documentation). So adding a game is copying a folder and declaring its module in
//! `lib.rs`; nothing else lists games. A game folder without its `pub mod` line stops the build
//! here, with the line to add, rather than as an unresolved path in a macro expansion.

use std::fmt::Write as _;
use std::path::Path;

fn main() {
    let src = Path::new("src");
    println!("cargo::rerun-if-changed=src");
    let games = game_folders(src);
    let lib = std::fs::read_to_string(src.join("lib.rs")).expect("src/lib.rs");
    for game in &games {
        let declaration = format!("pub mod {game};");
        if !lib.lines().any(|line| line.trim() == declaration) {
            panic!("src/{game}/ is a game folder: add `{declaration}` to src/lib.rs");
        }
    }
    let out = Path::new(&std::env::var("OUT_DIR").expect("cargo sets OUT_DIR")).to_path_buf();
    std::fs::write(out.join("games.rs"), for_each_game(&games)).expect("writing the list of games");
    std::fs::write(out.join("instances.rs"), instances(src, &games))
        .expect("writing the built-in instances");
}

/// The extensions of instance files: maps and puzzles are text.
const INSTANCE_EXTENSIONS: [&str; 2] = ["map", "txt"];

/// Every game's built-in instances: the files of its folder's `instances/` (not of folders
/// below it), named by their file name without its extension, in name order, each embedded
/// with `include_str!`.
fn instances(src: &Path, games: &[String]) -> String {
    let mut table =
        String::from("// Written by build.rs from the `instances/` folder of every game.\n");
    for game in games {
        let dir = src.join(game).join("instances");
        let mut files: Vec<std::path::PathBuf> = std::fs::read_dir(&dir)
            .map(|entries| {
                entries
                    .map(|e| e.expect("an entry of instances/").path())
                    .collect()
            })
            .unwrap_or_default();
        files.retain(|path| {
            path.is_file()
                && path
                    .extension()
                    .is_some_and(|e| INSTANCE_EXTENSIONS.iter().any(|x| e == *x))
        });
        files.sort();
        writeln!(
            table,
            "/// `{game}`'s built-in instances.\npub const {}: &[crate::contract::Instance] = &[",
            game.to_uppercase()
        )
        .unwrap();
        for path in &files {
            let name = path.file_stem().unwrap().to_string_lossy();
            assert!(
                name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'),
                "{}: an instance's name is its file name: letters, digits and `_` only",
                path.display()
            );
            // Relative to the crate's folder as it is when the crate compiles, not as it was when
            // this script last ran: a checkout moved (or copied, as `.ci/run` does) keeps its
            // build, and this script does not run again.
            let relative = path.to_str().expect("a UTF-8 instance path");
            writeln!(
                table,
                "    crate::contract::Instance {{ name: {name:?}, text: \
                 include_str!(concat!(env!(\"CARGO_MANIFEST_DIR\"), \"/{relative}\")) }},"
            )
            .unwrap();
        }
        table.push_str("];\n");
    }
    table
}

/// The game folders' names, sorted (the order `agon games` lists them in).
fn game_folders(src: &Path) -> Vec<String> {
    let mut games: Vec<String> = std::fs::read_dir(src)
        .expect("src/")
        .map(|entry| entry.expect("an entry of src/").path())
        .filter(|path| path.join("session.rs").is_file() && path.join("bot.rs").is_file())
        .map(|path| {
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            assert!(
                !name.is_empty()
                    && name
                        .chars()
                        .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_'),
                "src/{name}/: a game folder's name is its module and registry name, in lower case"
            );
            name
        })
        .collect();
    games.sort();
    assert!(!games.is_empty(), "no game folder under src/");
    games
}

fn for_each_game(games: &[String]) -> String {
    let mut list = String::new();
    for game in games {
        writeln!(list, "            {game},").unwrap();
    }
    format!(
        "/// The one list of games, written by `build.rs` from the game folders under `src/`: \
         each game's module, in the order `agon games` lists them. Whatever lists games expands \
         it with a macro of its own (the registry here; the SDK's per-game modules), and \
         reaches each game's rules as `$game::session::Rules`.\n\
         #[macro_export]\n\
         macro_rules! for_each_game {{\n    ($callback:ident) => {{\n        $callback! {{\n{list}        }}\n    }};\n}}\n"
    )
}
