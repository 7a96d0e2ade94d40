//! The bot parameters a bot declares ([`crate::Bot::PARAMS`], [`crate::export::WireBot::PARAMS`]),
//! checked by the SDK before the bot's own `start`: a spec's parameter the bot does not take
//! (`greedy?depth=3` to a bot without a depth, a misspelt key) is refused, naming the ones it
//! takes, where it used to be ignored and the match played as if it had not been given.

use agon_games::contract::{ParamError, RawParams};

/// Refuses the first parameter of `given` that `declared` does not name.
pub(crate) fn refuse_undeclared(given: &RawParams, declared: &[&str]) -> Result<(), String> {
    let Some(key) = given.keys().find(|key| !declared.contains(&key.as_str())) else {
        return Ok(());
    };
    if declared.is_empty() {
        return Err(format!(
            "unknown parameter `{key}` (this bot takes no parameters)"
        ));
    }
    Err(ParamError::Unknown {
        key: key.clone(),
        known: declared.join(", "),
    }
    .to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use agon_games::contract::raw_params;

    #[test]
    fn declared_parameters_pass_and_any_other_is_refused_by_name() {
        let declared = ["depth", "heuristic"];
        assert_eq!(refuse_undeclared(&raw_params(&[]), &declared), Ok(()));
        assert_eq!(
            refuse_undeclared(&raw_params(&[("depth", "3")]), &declared),
            Ok(())
        );
        assert_eq!(
            refuse_undeclared(&raw_params(&[("depth", "3"), ("dept", "3")]), &declared),
            Err("unknown parameter `dept` (known: depth, heuristic)".into())
        );
        assert_eq!(
            refuse_undeclared(&raw_params(&[("depth", "3")]), &[]),
            Err("unknown parameter `depth` (this bot takes no parameters)".into())
        );
        assert_eq!(refuse_undeclared(&raw_params(&[]), &[]), Ok(()));
    }
}
