use crate::contract::{ParamError, ParamReader, RawParams};
use serde::{Deserialize, Serialize};

/// The parameters of one Flip game (rules file, "Score and end" and "Initial placement").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Config {
    /// Coins per player.
    pub n: u32,
    /// The turn limit T: turns 0 .. T-1 are played (the original default was 200; the course
    /// tournament used 3000).
    pub turns: u32,
    /// The `java.util.Random` seed of the start board.
    pub seed: i64,
}

/// The largest n the course played (270, seed 46). Placement may still jam above
/// [`super::placement::PRACTICAL_COINS`] for some seeds; that is refused when the board is drawn,
/// with the practical limit in the message.
pub const MAX_COINS: u32 = 270;

impl Default for Config {
    fn default() -> Config {
        Config {
            n: 10,
            turns: 200,
            seed: 42,
        }
    }
}

impl Config {
    /// Parses `n` (1 to 270, the most the course played), `turns` (from 1) and `seed`, each
    /// defaulting to [`Config::default`] (10 coins, 200 turns, seed 42); unknown keys are
    /// refused.
    pub fn from_params(raw: &RawParams) -> Result<Config, ParamError> {
        let d = Config::default();
        let mut reader = ParamReader::new(raw);
        let n = reader.get(
            "n",
            "a number of coins per player (1 to 270; above 260 some seeds cannot be placed)",
            d.n,
        )?;
        let turns = reader.get("turns", "a number of turns (1 or more)", d.turns)?;
        let seed = reader.get("seed", "a java.util.Random seed (an integer)", d.seed)?;
        reader.finish()?;
        if n == 0 || n > MAX_COINS {
            return Err(ParamError::Invalid {
                key: "n".into(),
                value: n.to_string(),
                expected: format!("1 to {MAX_COINS} coins"),
            });
        }
        if turns == 0 {
            return Err(ParamError::Invalid {
                key: "turns".into(),
                value: "0".into(),
                expected: "at least 1 turn".into(),
            });
        }
        Ok(Config { n, turns, seed })
    }

    /// The configuration as parameters with every key present, as records store it.
    pub fn to_params(&self) -> RawParams {
        RawParams::from([
            ("n".to_string(), self.n.to_string()),
            ("turns".to_string(), self.turns.to_string()),
            ("seed".to_string(), self.seed.to_string()),
        ])
    }
}
