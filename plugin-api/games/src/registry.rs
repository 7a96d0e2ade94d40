//! The registry: every game of [`crate::for_each_game`], the one list of games, by name. Every
//! game's folder implements [`GameRules`] in its `session.rs`. Nothing imports back into this
//! file.

use crate::contract::GameRules;

/// The games this engine knows, by name.
pub struct Registry {
    games: Vec<Box<dyn GameRules>>,
}

impl Registry {
    /// Every built-in game.
    pub fn builtin() -> Registry {
        macro_rules! every_game {
            ($($game:ident),* $(,)?) => {
                vec![$(Box::new(crate::$game::session::Rules) as Box<dyn GameRules>),*]
            };
        }
        Registry {
            games: for_each_game!(every_game),
        }
    }

    /// The game registered as `name`; the error lists the names this registry knows.
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

    /// Every game's registry name, in registration order.
    pub fn names(&self) -> Vec<&'static str> {
        self.games.iter().map(|g| g.name()).collect()
    }

    /// Every game, in registration order.
    pub fn games(&self) -> impl Iterator<Item = &dyn GameRules> {
        self.games.iter().map(|g| g.as_ref())
    }
}

/// A game name that no registered game has ([`Registry::get`]).
#[derive(Debug, Clone, thiserror::Error)]
#[error("unknown game `{name}` (known games: {known})")]
pub struct UnknownGame {
    /// The name asked for.
    pub name: String,
    /// The names the registry knows, comma-separated.
    pub known: String,
}

#[cfg(test)]
mod tests {
    use super::Registry;

    #[test]
    fn every_registered_game_has_its_own_name() {
        let names = Registry::builtin().names();
        let mut unique = names.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), names.len(), "{names:?}");
    }
}
