//! Each game's page in `docs/games/` is the project's own statement of its rules: every game in
//! the registry has one, and every JSON example on it (a code block tagged
//! `json GAME:setup`, `GAME:observation` or `GAME:action`) is a value of that game's protocol
//! types, so the pages cannot drift from the wire format unnoticed.

use agon_games::protocol::GameProtocol;
use agon_games::registry::Registry;
use agon_games::{breakthrough, flip, flowfree, lightsout, rectangles, reversixt};
use serde::de::DeserializeOwned;
use std::path::PathBuf;

fn pages() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../docs/games")
}

/// One tagged example: the page, its line, the game, the kind and the JSON text.
struct Example {
    page: String,
    line: usize,
    game: String,
    kind: String,
    json: String,
}

fn examples(page: &str, text: &str) -> Vec<Example> {
    let mut found = Vec::new();
    let mut lines = text.lines().enumerate();
    while let Some((number, line)) = lines.next() {
        let Some(tag) = line.strip_prefix("```json ") else {
            continue;
        };
        let (game, kind) = tag
            .trim()
            .split_once(':')
            .unwrap_or_else(|| panic!("{page}:{}: a JSON example is tagged GAME:KIND", number + 1));
        let json = lines
            .by_ref()
            .map(|(_, l)| l)
            .take_while(|l| !l.starts_with("```"))
            .collect::<Vec<_>>()
            .join("\n");
        found.push(Example {
            page: page.to_string(),
            line: number + 1,
            game: game.to_string(),
            kind: kind.to_string(),
            json,
        });
    }
    found
}

fn parses_as<P: GameProtocol>(example: &Example) -> Result<(), String> {
    fn one<T: DeserializeOwned>(json: &str) -> Result<(), String> {
        serde_json::from_str::<T>(json)
            .map(|_| ())
            .map_err(|e| e.to_string())
    }
    match example.kind.as_str() {
        "setup" => one::<P::Setup>(&example.json),
        "observation" => one::<P::Observation>(&example.json),
        "action" => one::<P::Action>(&example.json),
        other => Err(format!(
            "unknown kind `{other}` (setup, observation or action)"
        )),
    }
}

fn check(example: &Example) -> Result<(), String> {
    match example.game.as_str() {
        "breakthrough" => parses_as::<breakthrough::protocol::Breakthrough>(example),
        "flip" => parses_as::<flip::protocol::Flip>(example),
        "flowfree" => parses_as::<flowfree::protocol::FlowFree>(example),
        "lightsout" => parses_as::<lightsout::protocol::LightsOut>(example),
        "rectangles" => parses_as::<rectangles::protocol::Rectangles>(example),
        "reversixt" => parses_as::<reversixt::protocol::ReversiXt>(example),
        other => Err(format!("unknown game `{other}`")),
    }
}

#[test]
fn every_game_has_a_rules_page_with_each_kind_of_example() {
    for name in Registry::builtin().names() {
        let path = pages().join(format!("{name}.md"));
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| {
            panic!("{}: {e} (every game needs its rules page)", path.display())
        });
        let found = examples(name, &text);
        for kind in ["setup", "observation", "action"] {
            assert!(
                found.iter().any(|e| e.game == name && e.kind == kind),
                "{}: no `json {name}:{kind}` example",
                path.display()
            );
        }
    }
}

#[test]
fn every_json_example_is_a_value_of_its_protocol() {
    let mut failures = Vec::new();
    let mut checked = 0;
    for entry in std::fs::read_dir(pages()).expect("docs/games") {
        let path = entry.expect("a page").path();
        let text =
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let page = path.file_name().unwrap().to_string_lossy().into_owned();
        for example in examples(&page, &text) {
            checked += 1;
            if let Err(e) = check(&example) {
                failures.push(format!(
                    "docs/games/{}:{}: `{}:{}`: {e}",
                    example.page, example.line, example.game, example.kind
                ));
            }
        }
    }
    assert!(checked >= 18, "only {checked} examples found");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn a_wrong_example_is_caught() {
    let wrong = examples(
        "wrong.md",
        "```json reversixt:action\n{\"x\": 1, \"y\": 2}\n```\n",
    );
    assert_eq!(wrong.len(), 1);
    assert!(check(&wrong[0]).is_err());
}
