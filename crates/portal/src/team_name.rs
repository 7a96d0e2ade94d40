//! A team's name: an id, never a path. It names the team's slot in the ladder's folder
//! (`NAME.so`) and its pages (`/teams/NAME`), so it is kept to letters, digits, `-` and `_`.

use std::fmt;

/// Longest name accepted.
const MAX_LEN: usize = 40;

#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct TeamName(String);

impl TeamName {
    pub fn parse(text: &str) -> Result<TeamName, BadTeamName> {
        let allowed = |c: char| c.is_ascii_alphanumeric() || c == '-' || c == '_';
        let shown = || text.escape_debug().to_string();
        if text.is_empty() || text.len() > MAX_LEN {
            return Err(BadTeamName::Length { name: shown() });
        }
        if !text.chars().all(allowed) || text.starts_with('-') {
            return Err(BadTeamName::Characters { name: shown() });
        }
        Ok(TeamName(text.to_string()))
    }

    /// The team's slot: its file name in the ladder's folder.
    pub fn slot(&self) -> String {
        format!("{}{SLOT_SUFFIX}", self.0)
    }

    /// The team whose slot `slot` is, if it is a team's.
    pub fn of_slot(slot: &str) -> Option<TeamName> {
        slot.strip_suffix(SLOT_SUFFIX)
            .and_then(|name| TeamName::parse(name).ok())
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

const SLOT_SUFFIX: &str = ".so";

impl fmt::Display for TeamName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// A team name that could be taken for a path or an option; `name` is escaped for showing.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BadTeamName {
    #[error("team name `{name}`: expected 1 to {MAX_LEN} characters")]
    Length { name: String },
    #[error(
        "team name `{name}`: expected letters, digits, `-` and `_` only, not starting with `-`"
    )]
    Characters { name: String },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_is_an_id_never_a_path() {
        for good in ["rocket", "Team_7", "a-b", "x"] {
            let name = TeamName::parse(good).unwrap();
            assert_eq!(TeamName::of_slot(&name.slot()), Some(name));
        }
        for bad in [
            "",
            "../etc",
            "a/b",
            ".hidden",
            "-flag",
            "a b",
            "é",
            "a\0",
            &"x".repeat(41),
        ] {
            assert!(TeamName::parse(bad).is_err(), "{bad:?}");
        }
        assert_eq!(
            TeamName::parse("a\nb").unwrap_err().to_string(),
            "team name `a\\nb`: expected letters, digits, `-` and `_` only, not starting with `-`"
        );
        assert!(matches!(
            TeamName::parse(""),
            Err(BadTeamName::Length { .. })
        ));
        assert_eq!(TeamName::of_slot("notes.txt"), None);
        assert_eq!(TeamName::of_slot("../x.so"), None);
    }
}
