//! Positions as patches against the one before: a 3000-ply game would otherwise repeat its whole
//! board 3000 times in the page. The format is generic JSON (the page's `applyPatch` reads it);
//! whichever of a patch or a plain replacement is shorter is written.
//!
//! | patch                          | means                                               |
//! |--------------------------------|-----------------------------------------------------|
//! | `{"=": v}`                     | the value is `v`                                    |
//! | `{"o": {k: patch}, "d": [k]}`  | an object with keys patched (`o`) and removed (`d`)  |
//! | `{"a": [[i, patch]], "n": n}`  | an array cut or grown to `n`, elements `i` patched  |
//! | `{"s": [[at, removed, text]]}` | a string with runs replaced, in order (UTF-16 units) |

use serde_json::{json, Map, Value};

/// The patch that turns `old` into `new`; `None` when they are equal.
pub fn diff(old: &Value, new: &Value) -> Option<Value> {
    if old == new {
        return None;
    }
    let patch = match (old, new) {
        (Value::Object(a), Value::Object(b)) => Some(objects(a, b)),
        (Value::Array(a), Value::Array(b)) => Some(arrays(a, b)),
        (Value::String(a), Value::String(b)) => strings(a, b),
        _ => None,
    };
    // `{"=":` and `}` around the new value cost 6 bytes.
    Some(match patch {
        Some(p) if longer_than(new, p.to_string().len().saturating_sub(6)) => p,
        _ => json!({ "=": new }),
    })
}

/// Whether `value` as compact JSON is longer than `limit` bytes; stops counting past it, so a
/// small patch is not weighed against a whole board serialized for nothing.
fn longer_than(value: &Value, limit: usize) -> bool {
    fn size(value: &Value, limit: usize, total: &mut usize) -> bool {
        *total += match value {
            Value::Null | Value::Bool(true) => 4,
            Value::Bool(false) => 5,
            Value::Number(n) => n.to_string().len(),
            Value::String(s) => {
                let escapes: usize = s
                    .chars()
                    .map(|c| match c {
                        '"' | '\\' | '\n' | '\r' | '\t' | '\u{8}' | '\u{c}' => 1,
                        c if c < ' ' => 5,
                        _ => 0,
                    })
                    .sum();
                2 + s.len() + escapes
            }
            Value::Array(items) => {
                *total += 1 + items.len();
                for item in items {
                    if size(item, limit, total) {
                        return true;
                    }
                }
                0
            }
            Value::Object(map) => {
                *total += 1 + map.len();
                for (k, v) in map {
                    *total += k.len() + 3;
                    if size(v, limit, total) {
                        return true;
                    }
                }
                0
            }
        };
        *total > limit
    }
    let mut total = 0;
    size(value, limit, &mut total)
}

fn objects(a: &Map<String, Value>, b: &Map<String, Value>) -> Value {
    let mut changed = Map::new();
    for (k, v) in b {
        let patch = match a.get(k) {
            Some(old) => diff(old, v),
            None => Some(json!({ "=": v })),
        };
        if let Some(p) = patch {
            changed.insert(k.clone(), p);
        }
    }
    let removed: Vec<&String> = a.keys().filter(|k| !b.contains_key(*k)).collect();
    if removed.is_empty() {
        json!({ "o": changed })
    } else {
        json!({ "o": changed, "d": removed })
    }
}

fn arrays(a: &[Value], b: &[Value]) -> Value {
    let changed: Vec<Value> = b
        .iter()
        .enumerate()
        .filter_map(|(i, v)| {
            let patch = match a.get(i) {
                Some(old) => diff(old, v),
                None => Some(json!({ "=": v })),
            };
            patch.map(|p| json!([i, p]))
        })
        .collect();
    json!({ "a": changed, "n": b.len() })
}

/// Runs of changed characters, merged across short unchanged gaps (a run costs more than a few
/// repeated characters), for strings of one length; otherwise the part between their common
/// start and common end. Offsets count UTF-16 units, as JavaScript strings do, and each run's
/// offset is where it starts in the string as the runs before it left it.
fn strings(a: &str, b: &str) -> Option<Value> {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let utf16 = |chars: &[char]| chars.iter().map(|c| c.len_utf16()).sum::<usize>();
    let text = |chars: &[char]| chars.iter().collect::<String>();
    if a.len() != b.len() {
        let start = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
        let end = a[start..]
            .iter()
            .rev()
            .zip(b[start..].iter().rev())
            .take_while(|(x, y)| x == y)
            .count();
        let (old, new) = (&a[start..a.len() - end], &b[start..b.len() - end]);
        return Some(json!({ "s": [[utf16(&a[..start]), utf16(old), text(new)]] }));
    }
    const GAP: usize = 8;
    let mut runs: Vec<(usize, usize)> = Vec::new();
    for i in (0..b.len()).filter(|&i| a[i] != b[i]) {
        match runs.last_mut() {
            Some((_, end)) if i - *end <= GAP => *end = i + 1,
            _ => runs.push((i, i + 1)),
        }
    }
    let runs: Vec<Value> = runs
        .iter()
        .map(|&(start, end)| {
            json!([
                utf16(&b[..start]),
                utf16(&a[start..end]),
                text(&b[start..end])
            ])
        })
        .collect();
    Some(json!({ "s": runs }))
}

/// Applies a patch as the page does; the tests check the two agree on what `diff` writes.
#[cfg(test)]
pub fn apply(value: &Value, patch: &Value) -> Value {
    if let Some(v) = patch.get("=") {
        return v.clone();
    }
    if let Some(keys) = patch.get("o").and_then(Value::as_object) {
        let mut out = value.as_object().cloned().unwrap_or_default();
        for (k, p) in keys {
            let next = apply(out.get(k).unwrap_or(&Value::Null), p);
            out.insert(k.clone(), next);
        }
        for k in patch
            .get("d")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            out.remove(k.as_str().unwrap());
        }
        return Value::Object(out);
    }
    if let Some(items) = patch.get("a").and_then(Value::as_array) {
        let n = patch["n"].as_u64().unwrap() as usize;
        let mut out: Vec<Value> = value.as_array().unwrap().iter().take(n).cloned().collect();
        out.resize(n, Value::Null);
        for item in items {
            let i = item[0].as_u64().unwrap() as usize;
            out[i] = apply(&out[i], &item[1]);
        }
        return Value::Array(out);
    }
    if let Some(runs) = patch.get("s").and_then(Value::as_array) {
        let mut units: Vec<u16> = value.as_str().unwrap().encode_utf16().collect();
        for run in runs {
            let at = run[0].as_u64().unwrap() as usize;
            let removed = run[1].as_u64().unwrap() as usize;
            let text: Vec<u16> = run[2].as_str().unwrap().encode_utf16().collect();
            units.splice(at..at + removed, text);
        }
        return Value::String(String::from_utf16(&units).unwrap());
    }
    panic!("not a patch: {patch}");
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn round_trip(a: &Value, b: &Value) {
        match diff(a, b) {
            None => assert_eq!(a, b),
            Some(p) => assert_eq!(&apply(a, &p), b, "patch {p}"),
        }
    }

    #[test]
    fn a_board_string_patch_carries_only_the_changed_runs() {
        let a = json!({"text": "........\n.BB.....\n........\n........\n", "scores": [0, 0]});
        let b = json!({"text": "........\n.B......\n..B.....\n........\n", "scores": [0, 1]});
        let p = diff(&a, &b).unwrap();
        assert_eq!(p["o"]["text"], json!({"s": [[11, 10, "......\n..B"]]}));
        assert_eq!(
            p["o"]["scores"],
            json!({"=": [0, 1]}),
            "shorter than a patch"
        );
        round_trip(&a, &b);
    }

    #[test]
    fn offsets_count_utf16_units_as_the_page_does() {
        let a = json!("é𝄞ab");
        let b = json!("é𝄞aX");
        assert_eq!(diff(&a, &b).unwrap(), json!({"=": "é𝄞aX"}));
        let long_a = json!(format!("𝄞{}", "a".repeat(40)));
        let long_b = json!(format!("𝄞{}b", "a".repeat(39)));
        assert_eq!(
            diff(&long_a, &long_b).unwrap(),
            json!({"s": [[41, 1, "b"]]})
        );
        round_trip(&long_a, &long_b);
    }

    #[test]
    fn strings_of_other_lengths_replace_what_lies_between_their_common_ends() {
        let a = json!("turn 3 (12.5,-3.25) (7.000,1.000) and more text after it");
        let b = json!("turn 3 (12.5,-13.125) (7.000,1.000) and more text after it");
        assert_eq!(diff(&a, &b).unwrap(), json!({"s": [[14, 2, "13.1"]]}));
        round_trip(&a, &b);
        round_trip(&json!("abc"), &json!(""));
    }

    #[test]
    fn removed_keys_and_shorter_arrays() {
        round_trip(
            &json!({"a": 1, "b": [1, 2, 3], "c": "x"}),
            &json!({"a": 1, "b": [1, 5]}),
        );
        round_trip(&json!([1, 2]), &json!([1, 2, {"k": null}]));
    }

    #[test]
    fn sizes_are_counted_as_serde_json_writes_them() {
        let v = json!({"a": [1, -2.5, null, true, false, "x\"y\n\u{1}"], "bc": {"d": "é"}});
        let exact = v.to_string().len();
        assert!(longer_than(&v, exact - 1));
        assert!(!longer_than(&v, exact), "{v}");
    }

    fn value() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::from),
            (-5i64..5).prop_map(Value::from),
            "[ab.é𝄞\n]{0,12}".prop_map(Value::from),
        ];
        leaf.prop_recursive(3, 24, 4, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..5).prop_map(Value::Array),
                prop::collection::btree_map("[a-d]", inner, 0..4)
                    .prop_map(|m| Value::Object(m.into_iter().collect())),
            ]
        })
    }

    proptest! {
        #[test]
        fn every_patch_rebuilds_the_new_value(a in value(), b in value()) {
            round_trip(&a, &b);
        }
    }
}
