//! String parameters (`--param key=value`) as every game receives them, and their errors.

use std::collections::BTreeMap;
use std::str::FromStr;

/// Game parameters as given by the user: key to raw value.
pub type RawParams = BTreeMap<String, String>;

/// Parameters from `(key, value)` pairs, as code that sets them (tests, benchmarks) writes them.
pub fn raw_params(pairs: &[(&str, &str)]) -> RawParams {
    pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

/// A parameter the game could not accept; names the key and what was expected.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParamError {
    /// A key the game does not have (a misspelt parameter is refused, not ignored).
    #[error("unknown parameter `{key}` (known: {known})")]
    Unknown {
        /// The key given.
        key: String,
        /// The keys the game knows, comma-separated.
        known: String,
    },
    /// A value that does not parse as what its key needs.
    #[error("parameter `{key}`: expected {expected}, got `{value}`")]
    Invalid {
        /// The key whose value is wrong.
        key: String,
        /// The value given, as written.
        value: String,
        /// What the key takes, in words (e.g. "a number of rows (4 to 32)").
        expected: String,
    },
    /// Values that each parse but do not make a game together (e.g. a board too big for the
    /// rules' representation).
    #[error("parameters {detail}")]
    Inconsistent {
        /// Which values clash and why, in words.
        detail: String,
    },
}

/// Reads typed values out of [`RawParams`], remembering which keys were used so that unknown keys
/// can be refused instead of silently ignored.
pub struct ParamReader<'a> {
    raw: &'a RawParams,
    known: Vec<&'static str>,
}

impl<'a> ParamReader<'a> {
    /// A reader over `raw` that has asked for no key yet.
    pub fn new(raw: &'a RawParams) -> Self {
        ParamReader {
            raw,
            known: Vec::new(),
        }
    }

    /// The value of `key` parsed as `T`, or `default` when the key is absent.
    pub fn get<T: FromStr>(
        &mut self,
        key: &'static str,
        expected: &str,
        default: T,
    ) -> Result<T, ParamError> {
        self.known.push(key);
        match self.raw.get(key) {
            None => Ok(default),
            Some(value) => value.trim().parse().map_err(|_| ParamError::Invalid {
                key: key.to_string(),
                value: value.clone(),
                expected: expected.to_string(),
            }),
        }
    }

    /// Like [`ParamReader::get`], but `off`, `none` and `0` mean "not set".
    pub fn get_optional<T: FromStr + PartialEq + Default>(
        &mut self,
        key: &'static str,
        expected: &str,
    ) -> Result<Option<T>, ParamError> {
        self.known.push(key);
        match self.raw.get(key).map(|v| v.trim()) {
            None | Some("off") | Some("none") => Ok(None),
            Some(value) => match value.parse::<T>() {
                Ok(v) if v == T::default() => Ok(None),
                Ok(v) => Ok(Some(v)),
                Err(_) => Err(ParamError::Invalid {
                    key: key.to_string(),
                    value: value.to_string(),
                    expected: expected.to_string(),
                }),
            },
        }
    }

    /// Refuses any key that no `get` asked for.
    pub fn finish(self) -> Result<(), ParamError> {
        for key in self.raw.keys() {
            if !self.known.contains(&key.as_str()) {
                return Err(ParamError::Unknown {
                    key: key.clone(),
                    known: self.known.join(", "),
                });
            }
        }
        Ok(())
    }
}
