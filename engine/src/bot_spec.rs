//! Bot specs as users write them: `FILE:BOT`, optionally followed by `?key=value&key=value`
//! bot parameters (`target/release/libbreakthrough_alphabeta.so:alphabeta?depth=5`).

use agon_games::contract::RawParams;
use std::fmt;
use std::path::PathBuf;
use std::str::FromStr;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BotSpec {
    pub file: PathBuf,
    pub bot: String,
    pub params: RawParams,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("bot spec `{spec}`: {problem} (expected FILE:BOT or FILE:BOT?key=value&key=value)")]
pub struct BotSpecError {
    pub spec: String,
    pub problem: String,
}

impl FromStr for BotSpec {
    type Err = BotSpecError;

    fn from_str(spec: &str) -> Result<BotSpec, BotSpecError> {
        let fail = |problem: &str| BotSpecError {
            spec: spec.to_string(),
            problem: problem.to_string(),
        };
        let (target, query) = match spec.split_once('?') {
            Some((target, query)) => (target, Some(query)),
            None => (spec, None),
        };
        // The bot name follows the last colon, so file paths may contain colons.
        let (file, bot) = target
            .rsplit_once(':')
            .ok_or_else(|| fail("no `:` between the plugin file and the bot name"))?;
        if file.is_empty() {
            return Err(fail("the plugin file is empty"));
        }
        if bot.is_empty() {
            return Err(fail("the bot name is empty"));
        }
        let mut params = RawParams::new();
        for pair in query.into_iter().flat_map(|q| q.split('&')) {
            if pair.is_empty() {
                continue;
            }
            let (key, value) = pair
                .split_once('=')
                .ok_or_else(|| fail(&format!("parameter `{pair}` has no `=`")))?;
            if key.is_empty() {
                return Err(fail(&format!("parameter `{pair}` has no key")));
            }
            if params.insert(key.to_string(), value.to_string()).is_some() {
                return Err(fail(&format!("parameter `{key}` is given twice")));
            }
        }
        Ok(BotSpec {
            file: PathBuf::from(file),
            bot: bot.to_string(),
            params,
        })
    }
}

impl fmt::Display for BotSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.file.display(), self.bot)?;
        for (i, (k, v)) in self.params.iter().enumerate() {
            write!(f, "{}{k}={v}", if i == 0 { '?' } else { '&' })?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_file_bot_and_parameters() {
        let spec: BotSpec = "target/release/liba.so:alphabeta?depth=5&search=minimax"
            .parse()
            .unwrap();
        assert_eq!(spec.file, PathBuf::from("target/release/liba.so"));
        assert_eq!(spec.bot, "alphabeta");
        assert_eq!(spec.params["depth"], "5");
        assert_eq!(spec.params["search"], "minimax");
        assert_eq!(spec.to_string().parse::<BotSpec>().unwrap(), spec);
        let colon: BotSpec = "C:/odd:path/lib.so:random".parse().unwrap();
        assert_eq!(colon.file, PathBuf::from("C:/odd:path/lib.so"));
        assert_eq!(colon.bot, "random");
    }

    #[test]
    fn bad_specs_say_what_is_wrong() {
        for (spec, problem) in [
            ("lib.so", "no `:`"),
            ("lib.so:", "bot name is empty"),
            (":random", "plugin file is empty"),
            ("lib.so:a?depth", "has no `=`"),
            ("lib.so:a?=3", "has no key"),
            ("lib.so:a?d=1&d=2", "given twice"),
        ] {
            let e = spec.parse::<BotSpec>().unwrap_err();
            assert!(e.to_string().contains(problem), "{spec}: {e}");
        }
    }
}
