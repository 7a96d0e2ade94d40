//! ReversiXT matches through the engine: as many seats as the map has players, disqualification
//! that lets the others play on (rules file, "Faults"), the time account with carry-over (rules
//! file, "Time and depth limits"), ranks as results, and replay verification of the records.

use agon_engine::replay;
use agon_engine::FaultCause;
use agon_engine::HostKind;
use agon_engine::{run_match, MatchError, MatchSettings};
use agon_engine::{Budgets, MatchRecord};
use agon_games::contract::{GameRules, RawParams, Termination};
use agon_games::registry::Registry;
use agon_tests::{assert_has, instances, seats, spec};

fn reversixt() -> &'static dyn GameRules {
    &agon_games::reversixt::session::ReversiXtRules
}

fn map(name: &str) -> String {
    instances("reversixt").join(name).display().to_string()
}

fn play(map_name: &str, extra: &[(&str, &str)], specs: &[String], seed: u64) -> MatchRecord {
    try_play(map_name, extra, specs, seed).unwrap()
}

fn try_play(
    map_name: &str,
    extra: &[(&str, &str)],
    specs: &[String],
    seed: u64,
) -> Result<MatchRecord, MatchError> {
    let mut params = RawParams::from([("map".to_string(), map(map_name))]);
    for (k, v) in extra {
        params.insert(k.to_string(), v.to_string());
    }
    let seats = seats(specs, reversixt(), HostKind::Thread);
    let settings = MatchSettings {
        params,
        seed,
        seed_secret: agon_tests::TEST_SECRET,
        budgets: Budgets {
            start_ms: Some(5000),
            move_ms: Some(5000),
            clock: Default::default(),
        },
        fault_policy: None,
    };
    run_match(reversixt(), &settings, seats)
}

fn random() -> String {
    spec("reversixt-random", "random")
}

fn greedy() -> String {
    spec("reversixt-greedy", "greedy")
}

#[test]
fn the_map_decides_the_number_of_seats() {
    let error = try_play("example.map", &[], &[random(), random()], 1).unwrap_err();
    assert!(error.to_string().contains("needs 3 bots, got 2"), "{error}");
}

#[test]
fn eight_players_play_both_phases_to_ranks_and_replay() {
    let specs: Vec<String> = (0..8)
        .map(|i| if i % 2 == 0 { greedy() } else { random() })
        .collect();
    let record = play("comp2019_04_8p.map", &[], &specs, 7);
    assert_eq!(record.outcome.termination, Termination::Rules);
    assert!(record.faults.is_empty(), "{:?}", record.faults);
    let ranks = &record.outcome.ranks;
    assert_eq!(ranks.len(), 8);
    assert!(ranks.contains(&1));
    // Each seat scores the share of the others it beat: the scores sum to half the pairs.
    let total: f64 = record.outcome.scores.iter().sum();
    assert!((total - 4.0).abs() < 1e-9, "{:?}", record.outcome.scores);
    // The map gives every player bombs: the game reaches the bombing phase, whose moves are
    // squares that need not touch any stone. Stones are the game scores, ranked.
    let holes = |text: &str| text.split_whitespace().filter(|t| *t == "-").count();
    let start = agon_tests::read(map("comp2019_04_8p.map"));
    assert!(
        holes(&record.final_board) > holes(&start),
        "bombs fell:\n{}",
        record.final_board
    );
    let stones = &record.game_scores;
    for a in 0..8 {
        for b in 0..8 {
            if stones[a] > stones[b] {
                assert!(ranks[a] < ranks[b], "{stones:?} {ranks:?}");
            }
        }
    }
    replay::verify(&record, &Registry::builtin()).expect("the record replays");
}

#[test]
fn an_illegal_move_disqualifies_and_the_others_play_on() {
    let record = play(
        "example.map",
        &[],
        &[greedy(), spec("misbehave", "illegal"), random()],
        3,
    );
    assert_eq!(record.faults.len(), 1, "{:?}", record.faults);
    let fault = &record.faults[0];
    assert_eq!((fault.seat, fault.cause), (1, FaultCause::Illegal));
    assert_has(&fault.detail, "off the board");
    assert_eq!(record.outcome.termination, Termination::Rules);
    assert!(
        record.moves.iter().filter(|m| m.ply > fault.ply).count() > 10,
        "the others went on playing"
    );
    assert!(
        record.moves.iter().all(|m| m.seat != 1),
        "no move of seat 1"
    );
    assert_eq!(
        record.outcome.ranks[1], 3,
        "the disqualified player ranks last"
    );
    assert!(record.outcome.reason.contains("disqualified: player 2"));
    replay::verify(&record, &Registry::builtin()).expect("the record replays");
    // Tampering: without the fault the replay has seat 1 to move where seat 2 played.
    let mut tampered = record.clone();
    tampered.faults.clear();
    assert!(replay::verify(&tampered, &Registry::builtin()).is_err());
}

#[test]
fn unused_time_carries_over_and_an_empty_account_disqualifies() {
    // 100 ms per move: 10 ms on the first move leaves 90, so the second request has 190 ms and
    // 150 ms fits; without carry-over it would not.
    let patient = spec("misbehave", "spend?ms=10,150,10");
    let record = play(
        "heartExercise3.map",
        &[("time", "0.1")],
        &[patient, greedy()],
        1,
    );
    assert!(record.faults.is_empty(), "{:?}", record.faults);
    assert!(record.moves.iter().filter(|m| m.seat == 0).count() >= 3);
    assert_eq!(record.params["time"], "0.1");

    let slow = spec("misbehave", "spend?ms=150");
    let record = play(
        "heartExercise3.map",
        &[("time", "0.1")],
        &[slow, greedy()],
        1,
    );
    assert_eq!(record.faults.len(), 1, "{:?}", record.faults);
    assert_eq!(
        (record.faults[0].seat, record.faults[0].cause),
        (0, FaultCause::Timeout)
    );
    // One player left: the game ends at once, the other ranks first.
    assert_eq!(record.outcome.ranks, [2, 1]);
    assert_eq!(record.outcome.winner, Some(1));
    assert_eq!(record.outcome.scores, [0.0, 1.0]);
    replay::verify(&record, &Registry::builtin()).expect("the record replays");
}

#[test]
fn bad_parameters_are_refused_with_the_key() {
    let error = try_play("nowhere.map", &[], &[random(), random()], 1).unwrap_err();
    assert!(error.to_string().contains("readable map file"), "{error}");
    let error = try_play("example.map", &[("time", "soon")], &[random(), random()], 1).unwrap_err();
    assert!(error.to_string().contains("`time`"), "{error}");
}
