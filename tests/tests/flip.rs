//! Flip through the engine: seeded games between the baselines replay exactly, invalid moves
//! are recorded as skips, faults skip the half-turn, the start board matches the rules file.

use agon_engine::replay;
use agon_engine::FaultCause;
use agon_engine::HostKind;
use agon_engine::{run_match, MatchSettings};
use agon_engine::{Budgets, Forced, MatchRecord};
use agon_games::contract::{FaultPolicy, GameRules};
use agon_games::registry::Registry;
use agon_tests::{agon, run, seats, spec};
use serde_json::Value;

fn flip() -> &'static dyn GameRules {
    &agon_games::flip::session::FlipRules
}

fn play(specs: [&str; 2], params: &[(&str, &str)], policy: Option<FaultPolicy>) -> MatchRecord {
    let seats = seats(&specs, flip(), HostKind::Thread);
    let settings = MatchSettings {
        params: agon_games::contract::raw_params(params),
        seed: 3,
        seed_secret: agon_tests::TEST_SECRET,
        budgets: Budgets {
            start_ms: Some(2000),
            move_ms: Some(2000),
            clock: Default::default(),
        },
        fault_policy: policy,
    };
    run_match(flip(), &settings, seats).unwrap()
}

#[test]
fn greedy_against_random_plays_to_the_end_and_replays() {
    let record = play(
        [
            &spec("flip-greedy", "greedy"),
            &spec("flip-random", "random"),
        ],
        &[("n", "5"), ("turns", "300"), ("seed", "43")],
        None,
    );
    assert!(record.faults.is_empty(), "{:?}", record.faults);
    assert_eq!(record.outcome.winner, Some(0), "{}", record.outcome.reason);
    assert_eq!(record.game_scores[0], 5.0);
    // Turn 0: one move for player 1.
    assert_eq!(record.moves[0].action.split_whitespace().count(), 1);
    replay::verify(&record, &Registry::builtin()).unwrap();
    // Greedy never answers an invalid move: none is recorded as skipped for seat 0.
    assert!(record
        .moves
        .iter()
        .filter(|m| m.seat == 0)
        .all(|m| !m.action.contains('!')));
    // Tampering with a move's coordinates is caught.
    let mut forged = record.clone();
    let first = forged
        .moves
        .iter_mut()
        .find(|m| m.seat == 0 && m.action != "-")
        .unwrap();
    first.action = first.action.replacen(':', ":1", 1);
    assert!(replay::verify(&forged, &Registry::builtin()).is_err());
}

#[test]
fn a_faulty_bot_skips_its_half_turns_and_the_game_goes_on() {
    // The Breakthrough test bot answers no Flip reply: every half-turn of seat 1 is a fault.
    let record = play(
        [
            &spec("flip-greedy", "greedy"),
            &spec("misbehave", "malformed"),
        ],
        &[("n", "3"), ("turns", "200"), ("seed", "43")],
        None,
    );
    assert_eq!(record.fault_policy, FaultPolicy::Skip, "Flip's course rule");
    assert!(record
        .faults
        .iter()
        .all(|f| f.seat == 1 && f.cause == FaultCause::Malformed));
    assert!(record
        .moves
        .iter()
        .filter(|m| m.seat == 1)
        .all(|m| m.forced == Some(Forced::Skip)));
    assert_eq!(record.outcome.winner, Some(0));
    replay::verify(&record, &Registry::builtin()).unwrap();
}

#[test]
fn the_start_board_matches_the_rules_file() {
    let out =
        run(agon().args(["flip", "board", "--n", "3", "--seed", "43", "--json"])).expect_success();
    let v: Value = serde_json::from_str(&out.stdout).unwrap();
    let coin2 = &v["player1"][2];
    assert!(
        (coin2[0].as_f64().unwrap() - 21.4304).abs() < 5e-5,
        "{coin2}"
    );
    assert!(
        (coin2[1].as_f64().unwrap() - 3.0508).abs() < 5e-5,
        "{coin2}"
    );
    assert_eq!(
        v["player2"][2][0].as_f64().unwrap(),
        -coin2[0].as_f64().unwrap()
    );
    let bad = run(agon().args(["flip", "board", "--n", "0", "--seed", "1"]));
    assert!(bad.stderr.contains("parameter `n`"));
}

#[test]
fn the_course_tournament_format_is_planned() {
    let dir = agon_tests::scratch("flip-course");
    let config = agon_tests::shipped_config("flip-course.toml", &dir);
    let out = run(agon().args(["tournament", "plan", config.to_str().unwrap(), "--json"]))
        .expect_success();
    let plan: Value = serde_json::from_str(&out.stdout).unwrap();
    let games = plan["games"].as_array().unwrap();
    assert_eq!(
        games.len(),
        3 * 7 * 20,
        "20 games per pair (3 pairs) for each of 7 values of n"
    );
    let boards: Vec<i64> = games[..20]
        .iter()
        .map(|g| g["params"]["seed"].as_str().unwrap().parse().unwrap())
        .collect();
    let expected: Vec<i64> = (1..=20).map(|r| 42 + r / 2).collect();
    assert_eq!(boards, expected);
    assert_eq!(games[0]["seats"], serde_json::json!([0, 1]));
    assert_eq!(games[1]["seats"], serde_json::json!([1, 0]));
}

/// The seed team's player: races below 12 coins, and above builds its 11-coin wall just
/// behind its goal line (x = 21 for player 1) and releases runners over it; it never answers an
/// invalid move.
#[test]
fn wall_runner_races_and_walls() {
    let wall = spec("flip-wall-runner", "wall-runner");
    let race = play(
        [&wall, &spec("flip-random", "random")],
        &[("n", "11"), ("turns", "400"), ("seed", "43")],
        None,
    );
    assert_eq!(race.outcome.winner, Some(0), "{}", race.outcome.reason);
    let walled = play(
        [&format!("{wall}?runners=0"), &spec("flip-random", "random")],
        &[("n", "20"), ("turns", "400"), ("seed", "44")],
        None,
    );
    assert_eq!(walled.outcome.winner, Some(0), "{}", walled.outcome.reason);
    let player1 = walled.final_board.lines().nth(1).unwrap();
    assert!(
        player1.matches("(21.000,").count() >= 11,
        "the wall: {player1}"
    );
    assert!(
        walled.game_scores[0] >= 2.0,
        "runners released over the wall scored"
    );
    // Against greedy's stream of coins: its coins pile up in front of the wall, and runners
    // still find their way through (a stuck runner gives up; builders whose spot an opponent
    // holds stage behind the wall instead).
    let stream = play(
        [&wall, &spec("flip-greedy", "greedy")],
        &[("n", "20"), ("turns", "300"), ("seed", "52")],
        None,
    );
    assert_eq!(stream.outcome.winner, Some(0), "{}", stream.outcome.reason);
    assert!(
        stream.game_scores[0] >= 8.0,
        "runners got past the pile: {:?}",
        stream.game_scores
    );
    for record in [&race, &walled, &stream] {
        assert!(record.faults.is_empty(), "{:?}", record.faults);
        assert!(record
            .moves
            .iter()
            .filter(|m| m.seat == 0)
            .all(|m| !m.action.contains('!')));
        replay::verify(record, &Registry::builtin()).unwrap();
    }
}
