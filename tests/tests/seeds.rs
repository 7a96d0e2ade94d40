//! Seeds a bot cannot invert: every seat seed is a keyed function of the match seed under a
//! secret the bots never see (`agon_engine::seed`). A bot that inverts its own seat seed the
//! way the old, unkeyed derivation allowed learns nothing of the match seed or of its
//! opponent's seed; the secret, kept in the record, still reproduces the game exactly.

use agon_engine::{seat_seed, SeedSecret};
use agon_tests::{
    agon_ok, agon_output, assert_has_all, match_args, run, scratch, spec, tournament_config,
    tournament_run,
};
use serde_json::Value;

/// `agon match` of the seed thief (seat 0) against the seeded random player, as JSON.
fn thief_match(extra: &[&str]) -> Value {
    let (thief, random) = (
        spec("misbehave", "seed-thief"),
        spec("breakthrough-random", "random"),
    );
    let mut args = match_args("breakthrough", [&thief, &random]);
    args.push("--json");
    args.extend_from_slice(extra);
    serde_json::from_str(&agon_ok(&args)).expect("a JSON record")
}

/// What the thief said on stderr: its seed, its guess of the match seed, and the opponent's
/// seed that guess gives.
fn thief_said(record: &Value) -> (u64, u64, u64) {
    let stderr = record["seats"][0]["stderr"]
        .as_str()
        .expect("captured stderr");
    let line = stderr
        .lines()
        .find(|l| l.starts_with("seed-thief:"))
        .unwrap_or_else(|| panic!("no line of the thief's in {stderr:?}"));
    let words: Vec<&str> = line.split_whitespace().collect();
    let number = |key: &str| -> u64 {
        let at = words.iter().position(|w| *w == key).unwrap();
        words[at + 1].parse().unwrap()
    };
    (number("seed"), number("guess"), number("other"))
}

fn secret_of(record: &Value) -> SeedSecret {
    record["seed_secret"].as_str().unwrap().parse().unwrap()
}

#[test]
fn the_old_inversion_recovers_neither_the_match_seed_nor_the_opponents_seed() {
    let record = thief_match(&["--seed", "42"]);
    let (own, guess, other) = thief_said(&record);
    let secret = secret_of(&record);
    assert_eq!(
        own,
        seat_seed(&secret, 42, 0),
        "the record's secret reproduces the seed"
    );
    assert_ne!(guess, 42, "the inversion found the match seed");
    assert_ne!(
        other,
        seat_seed(&secret, 42, 1),
        "the inversion found the opponent's seed"
    );
}

#[test]
fn one_seed_under_two_secrets_gives_other_seat_seeds_and_a_secret_reproduces_a_game() {
    let first = thief_match(&["--seed", "7"]);
    let second = thief_match(&["--seed", "7"]);
    assert_ne!(
        secret_of(&first),
        secret_of(&second),
        "each match draws its secret"
    );
    assert_ne!(thief_said(&first).0, thief_said(&second).0);

    let secret = first["seed_secret"].as_str().unwrap();
    let again = thief_match(&["--seed", "7", "--seed-secret", secret]);
    assert_eq!(thief_said(&again).0, thief_said(&first).0);
    assert_eq!(
        again["moves"].as_array().unwrap().len(),
        first["moves"].as_array().unwrap().len()
    );
    let actions = |r: &Value| -> Vec<Value> {
        r["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["action"].clone())
            .collect()
    };
    assert_eq!(
        actions(&again),
        actions(&first),
        "the same game, move for move"
    );

    let dir = scratch("seeds-replay");
    let file = dir.join("game.json");
    std::fs::write(&file, serde_json::to_vec(&again).unwrap()).unwrap();
    agon_ok(&["replay", "verify", file.to_str().unwrap()]);
}

/// `agon match` of two random players with `extra` arguments, run to its end.
fn random_match(extra: &[&str]) -> agon_tests::Ran {
    let random = spec("breakthrough-random", "random");
    let mut args = match_args("breakthrough", [&random, &random]);
    args.extend(extra);
    agon_output(&args)
}

#[test]
fn the_summary_shows_the_secret_and_a_bad_secret_is_refused() {
    let summary = random_match(&["--seed", "3", "--host", "thread"])
        .expect_success()
        .stdout;
    assert_has_all(&summary, &["seed secret ", "--seed 3 --seed-secret "]);
    let stderr = random_match(&["--seed-secret", "abc"])
        .expect_failure()
        .stderr;
    assert_has_all(&stderr, &["--seed-secret", "64 hexadecimal digits"]);
}

/// A tournament draws its secret when it is planned (unless given one): two runs of one config
/// get different secrets, and every journal line and record carries its plan's.
#[test]
fn each_tournament_plan_draws_its_secret_and_every_game_keeps_it() {
    let dir = scratch("seeds-tournament");
    let random = spec("breakthrough-random", "random");
    let cfg = tournament_config(
        &dir,
        "game = \"breakthrough\"\nseed = 1\ngames_per_pairing = 2\nhost = \"thread\"",
        &[("a", random.clone()), ("b", random)],
    );
    let secret_of_run = |name: &str| -> String {
        let out = dir.join(name);
        run(tournament_run(&cfg, &out)
            .env_remove("AGON_SEED_SECRET")
            .arg("--quiet"))
        .expect_success();
        let plan: Value =
            serde_json::from_slice(&std::fs::read(out.join("tournament.json")).unwrap()).unwrap();
        let secret = plan["seed_secret"].as_str().unwrap().to_string();
        assert!(secret.parse::<SeedSecret>().is_ok(), "{secret}");
        let journal = agon_tests::read(out.join("journal.jsonl"));
        for line in journal.lines() {
            let entry: Value = serde_json::from_str(line).unwrap();
            assert_eq!(entry["seed_secret"], secret.as_str());
            let record = out
                .join("records")
                .join(format!("{}.json", entry["id"].as_str().unwrap()));
            let record: Value = serde_json::from_slice(&std::fs::read(record).unwrap()).unwrap();
            assert_eq!(record["seed_secret"], secret.as_str());
        }
        secret
    };
    assert_ne!(secret_of_run("one"), secret_of_run("two"));
}
