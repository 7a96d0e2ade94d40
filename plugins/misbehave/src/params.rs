//! The bots' parameters (`key=value` in a bot spec, in [`Start::bot_params`]): reading them,
//! and the refusal a bot gives in `start` for a value it does not take.

use agon_sdk::protocol::Start;
use std::str::FromStr;

/// The parameter `key`, or `default` where it is absent.
pub(crate) fn param<S>(start: &Start<S>, key: &str, default: &str) -> String {
    start
        .bot_params
        .get(key)
        .cloned()
        .unwrap_or_else(|| default.to_string())
}

/// The number in the parameter `key`, or `default` where it is absent.
pub(crate) fn number_param<S, T: FromStr>(
    start: &Start<S>,
    key: &str,
    default: T,
) -> Result<T, String> {
    match start.bot_params.get(key) {
        Some(v) => v
            .parse()
            .map_err(|_| format!("{key} `{v}`: expected a number")),
        None => Ok(default),
    }
}

/// The comma-separated numbers in the parameter `key` (`default` where it is absent).
pub(crate) fn number_list_param<S, T: FromStr>(
    start: &Start<S>,
    key: &str,
    default: &str,
) -> Result<Vec<T>, String> {
    start
        .bot_params
        .get(key)
        .map_or(default, String::as_str)
        .split(',')
        .map(|v| {
            v.trim()
                .parse()
                .map_err(|_| format!("{key}: `{v}` is not a number"))
        })
        .collect()
}

/// The refusal of `value` for the parameter `key`, which takes only `known`:
/// ``key `value`: expected a, b or c``.
pub(crate) fn unknown_value(key: &str, value: &str, known: &[&str]) -> String {
    match known.split_last() {
        Some((last, rest)) if !rest.is_empty() => {
            format!("{key} `{value}`: expected {} or {last}", rest.join(", "))
        }
        _ => format!("{key} `{value}`: expected {}", known.join("")),
    }
}

/// Takes `value` for the parameter `key` if it is one of `known`, else refuses it
/// ([`unknown_value`]).
pub(crate) fn one_of(key: &str, value: &str, known: &[&str]) -> Result<(), String> {
    match known.contains(&value) {
        true => Ok(()),
        false => Err(unknown_value(key, value, known)),
    }
}
