//! The one list of games. Every game's folder implements [`GameRules`] in its `session.rs`;
//! adding a game adds one line to [`Registry::builtin`]. Nothing imports back into this file.

use crate::contract::GameRules;

/// The games this engine knows, by name.
pub struct Registry {
    games: Vec<Box<dyn GameRules>>,
}

impl Registry {
    /// Every built-in game.
    pub fn builtin() -> Registry {
        Registry {
            games: vec![
                Box::new(crate::breakthrough::session::BreakthroughRules),
                Box::new(crate::flip::session::FlipRules),
                Box::new(crate::lightsout::session::LightsOutRules),
                Box::new(crate::flowfree::session::FlowFreeRules),
                Box::new(crate::reversixt::session::ReversiXtRules),
            ],
        }
    }

    pub fn get(&self, name: &str) -> Result<&dyn GameRules, UnknownGame> {
        self.games
            .iter()
            .find(|g| g.name() == name)
            .map(|g| g.as_ref())
            .ok_or_else(|| UnknownGame {
                name: name.to_string(),
                known: self.names().join(", "),
            })
    }

    pub fn names(&self) -> Vec<&'static str> {
        self.games.iter().map(|g| g.name()).collect()
    }

    pub fn games(&self) -> impl Iterator<Item = &dyn GameRules> {
        self.games.iter().map(|g| g.as_ref())
    }
}

#[derive(Debug, Clone, thiserror::Error)]
#[error("unknown game `{name}` (known games: {known})")]
pub struct UnknownGame {
    pub name: String,
    pub known: String,
}

#[cfg(test)]
mod tests {
    use super::Registry;
    use std::path::{Path, PathBuf};

    /// The files every game folder has, for the roles the crate documentation's table names.
    const ROLE_FILES: &[&str] = &[
        "mod.rs",
        "protocol.rs",
        "session.rs",
        "tests.rs",
        "playthrough.rs",
    ];

    /// Folders of `src/` that are not games.
    const NOT_GAMES: &[&str] = &["contract"];

    fn src() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
    }

    fn text(path: &Path) -> String {
        std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
    }

    /// The convention of the crate documentation: every registered game has a folder of its
    /// name with the same role files, declared the same way, golden transcripts its
    /// `playthrough.rs` checks, and nothing else under `src/` looks like a game.
    #[test]
    fn every_game_has_the_same_role_files() {
        let registry = Registry::builtin();
        for game in registry.games() {
            let folder = src().join(game.name());
            for role in ROLE_FILES {
                assert!(
                    folder.join(role).is_file(),
                    "game `{}` has no {role} in {}",
                    game.name(),
                    folder.display()
                );
            }
            let module = text(&folder.join("mod.rs"));
            for declaration in [
                "pub mod protocol;",
                "pub mod session;",
                "mod playthrough;",
                "mod tests;",
            ] {
                assert!(
                    module.contains(declaration),
                    "{}/mod.rs does not declare `{declaration}`",
                    game.name()
                );
            }
            let playthrough = text(&folder.join("playthrough.rs"));
            let goldens: Vec<String> = std::fs::read_dir(folder.join("golden"))
                .unwrap_or_else(|e| panic!("game `{}` has no golden/ folder: {e}", game.name()))
                .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
                .collect();
            assert!(!goldens.is_empty(), "{}/golden/ is empty", game.name());
            for golden in &goldens {
                assert!(
                    golden.ends_with(".txt") && playthrough.contains(&format!("\"{golden}\"")),
                    "{}/golden/{golden} is not a transcript its playthrough.rs checks",
                    game.name()
                );
            }
            let session = text(&folder.join("session.rs"));
            assert!(
                session.contains("impl GameRules for"),
                "{}/session.rs does not implement GameRules",
                game.name()
            );
        }
        for entry in std::fs::read_dir(src()).unwrap() {
            let entry = entry.unwrap();
            let name = entry.file_name().to_string_lossy().into_owned();
            if entry.path().is_dir() && !NOT_GAMES.contains(&name.as_str()) {
                assert!(
                    registry.get(&name).is_ok(),
                    "src/{name}/ is a game folder the registry does not list"
                );
            }
        }
    }

    /// The registry imports every game's session; no game or contract file may import the
    /// registry back (a loop the engine's old registry had).
    #[test]
    fn nothing_imports_the_registry() {
        let mut stack = vec![src()];
        while let Some(dir) = stack.pop() {
            for entry in std::fs::read_dir(&dir).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    stack.push(path);
                } else if path.extension().is_some_and(|e| e == "rs")
                    && !path.ends_with("registry.rs")
                    && !path.ends_with("lib.rs")
                {
                    assert!(
                        !text(&path).contains("registry::"),
                        "{} imports the registry",
                        path.display()
                    );
                }
            }
        }
    }

    #[test]
    fn every_registered_game_has_its_own_name() {
        let names = Registry::builtin().names();
        let mut unique = names.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), names.len(), "{names:?}");
    }
}
