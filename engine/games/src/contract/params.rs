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
    #[error("unknown parameter `{key}` (known: {known})")]
    Unknown { key: String, known: String },
    #[error("parameter `{key}`: expected {expected}, got `{value}`")]
    Invalid {
        key: String,
        value: String,
        expected: String,
    },
    #[error("parameters {detail}")]
    Inconsistent { detail: String },
}

/// Reads typed values out of [`RawParams`], remembering which keys were used so that unknown keys
/// can be refused instead of silently ignored.
pub struct ParamReader<'a> {
    raw: &'a RawParams,
    known: Vec<&'static str>,
}

impl<'a> ParamReader<'a> {
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
