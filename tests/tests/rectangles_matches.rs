//! Rounds of simultaneous moves through the engine, with Rectangles (the first such game): all
//! seats of a round are asked at once on every host kind, each under its own budget; a fault
//! costs only the seat that made it under every policy; records number the rounds and replay.

use agon_engine::replay;
use agon_engine::FaultCause;
use agon_engine::HostKind;
use agon_engine::{run_match, MatchSettings};
use agon_engine::{Budgets, Forced, MatchRecord};
use agon_games::contract::{FaultPolicy, GameRules, Termination};
use agon_games::registry::Registry;
use agon_tests::{agon_ok, assert_has, scratch, seats, spec};
use std::time::Instant;

fn rectangles() -> &'static dyn GameRules {
    &agon_games::rectangles::session::RectanglesRules
}

use agon_games::contract::raw_params as params;

fn play(
    specs: &[String],
    host: HostKind,
    game: &[(&str, &str)],
    move_ms: u64,
    policy: Option<FaultPolicy>,
) -> MatchRecord {
    play_seeded(specs, host, game, move_ms, policy, 17)
}

fn play_seeded(
    specs: &[String],
    host: HostKind,
    game: &[(&str, &str)],
    move_ms: u64,
    policy: Option<FaultPolicy>,
    seed: u64,
) -> MatchRecord {
    let settings = MatchSettings {
        params: params(game),
        seed,
        seed_secret: agon_tests::TEST_SECRET,
        budgets: Budgets {
            start_ms: Some(5000),
            move_ms: Some(move_ms),
            clock: Default::default(),
        },
        fault_policy: policy,
    };
    let record = run_match(rectangles(), &settings, seats(specs, rectangles(), host)).unwrap();
    let verified = replay::verify(&record, &Registry::builtin()).unwrap();
    assert_eq!(verified.outcome, record.outcome);
    record
}

fn random() -> String {
    spec("rectangles-random", "random")
}

fn misbehave(bot: &str) -> String {
    spec("misbehave", bot)
}

/// Each round's actions carry its number, in seat order, every seat once.
fn assert_rounds(record: &MatchRecord, players: usize) {
    for (i, m) in record.moves.iter().enumerate() {
        assert_eq!(m.round, Some((i / players) as u32), "{m:?}");
        assert_eq!(m.seat, i % players, "{m:?}");
    }
}

#[test]
fn the_seats_of_a_round_are_asked_at_once_on_the_inline_and_thread_hosts() {
    // `rendezvous` answers only when every player of the round is being asked at the same
    // time; asked one after another, the first would wait in vain and fault.
    for host in [HostKind::Inline, HostKind::Thread] {
        for players in [2, 4] {
            let specs = vec![misbehave("rendezvous"); players];
            let record = play(
                &specs,
                host,
                &[
                    ("n", "6"),
                    ("robots", "2"),
                    ("players", &players.to_string()),
                    ("max_rounds", "5"),
                ],
                5000,
                None,
            );
            assert!(record.faults.is_empty(), "{host}: {:?}", record.faults);
            assert_eq!(record.moves.len(), players * 6, "{host}");
            assert_rounds(&record, players);
            assert!(record.outcome.reason.contains("round limit of 5"));
        }
    }
}

#[test]
fn a_late_seat_loses_only_its_own_round_and_the_others_moves_stand() {
    // Rules file, "A round", 1 (ours): a late answer means Stay for that player's robots.
    let late = format!("{}?rounds=2,3", misbehave("sleep"));
    let record = play(
        &[random(), late, random()],
        // The inline host waits for a late answer (a thread host would abandon the seat).
        HostKind::Inline,
        &[("n", "8"), ("players", "3"), ("max_rounds", "6")],
        100,
        None,
    );
    assert_eq!(record.fault_policy, FaultPolicy::Skip);
    let faults: Vec<(usize, u32, FaultCause)> = record
        .faults
        .iter()
        .map(|f| (f.seat, f.ply, f.cause))
        .collect();
    // Rounds 2 and 3 are plies 6..9 and 9..12; seat 1 is the middle of each.
    assert_eq!(
        faults,
        vec![(1, 7, FaultCause::Timeout), (1, 10, FaultCause::Timeout)]
    );
    assert_rounds(&record, 3);
    for m in &record.moves {
        let forced = m.seat == 1 && (m.round == Some(2) || m.round == Some(3));
        assert_eq!(m.forced.is_some(), forced, "{m:?}");
        if forced {
            assert_eq!(m.action, "--------");
        }
    }
    assert_eq!(record.outcome.termination, Termination::Rules);
}

#[test]
fn every_fault_policy_costs_only_the_faulty_seat_in_a_round() {
    let game = [
        ("n", "8"),
        ("players", "3"),
        ("robots", "2"),
        ("max_rounds", "8"),
    ];
    let specs = [random(), misbehave("illegal"), random()];
    let under = |policy| play(&specs, HostKind::Thread, &game, 5000, Some(policy));
    // Disqualify: seat 1 is out after its first move round, its robots stay, the others play
    // on to the round limit; it ranks last.
    let record = under(FaultPolicy::Disqualify);
    assert_eq!(record.faults.len(), 1);
    assert_eq!(record.outcome.termination, Termination::Rules);
    assert_eq!(record.outcome.ranks[1], 3);
    assert_eq!(record.moves.iter().filter(|m| m.seat == 1).count(), 1);
    assert_eq!(record.moves.iter().filter(|m| m.seat == 0).count(), 9);
    assert!(record.final_board.contains("player 1 (b): 0 claimed, out"));
    // Random-legal: the engine moves seat 1's robots; past the error rate it is disqualified,
    // and the game ends with it ranked last.
    let record = under(FaultPolicy::RandomLegal {
        max_error_rate: 1.0,
    });
    assert_eq!(record.faults.len(), 8);
    let forced: Vec<_> = record.moves.iter().filter(|m| m.forced.is_some()).collect();
    assert_eq!(forced.len(), 8);
    assert!(forced
        .iter()
        .all(|m| m.seat == 1 && m.forced == Some(Forced::RandomLegal)));
    // Forfeit: the first fault ends the match; the others share the first rank.
    let record = under(FaultPolicy::Forfeit);
    assert_eq!(record.outcome.termination, Termination::Forfeit);
    assert_eq!(record.outcome.ranks, vec![1, 3, 1]);
}

#[test]
fn the_process_host_asks_a_round_at_once_and_restarts_a_seat_killed_at_its_deadline() {
    let dir = scratch("rectangles-process");
    // Both bots sleep 400 ms in each of four move rounds, within their 1500 ms budgets:
    // asked at once, the rounds take about 1.6 s; one after another they would take 3.2 s.
    let slow = format!("{}?rounds=1,2,3,4&ms=400", misbehave("sleep"));
    let record_path = dir.join("parallel.json");
    let started = Instant::now();
    agon_ok(&[
        "match",
        "--game",
        "rectangles",
        "--param",
        "n=6",
        "--param",
        "max_rounds=4",
        "--param",
        "robots=2",
        "--bot",
        &slow,
        "--bot",
        &slow,
        "--move-ms",
        "1500",
        "--clock",
        "wall",
        "--seed",
        "3",
        "--record",
        record_path.to_str().unwrap(),
    ]);
    let elapsed = started.elapsed();
    let record: MatchRecord = serde_json::from_str(&agon_tests::read(&record_path)).unwrap();
    assert!(record.faults.is_empty(), "{:?}", record.faults);
    assert!(elapsed.as_secs_f64() < 2.8, "four rounds took {elapsed:?}");
    // A seat that sleeps past its budget is killed at the deadline, loses that round only and
    // is started again for the next.
    let late = format!("{}?rounds=2", misbehave("sleep"));
    let record_path = dir.join("late.json");
    agon_ok(&[
        "match",
        "--game",
        "rectangles",
        "--param",
        "n=8",
        "--param",
        "max_rounds=5",
        "--bot",
        &random(),
        "--bot",
        &late,
        "--move-ms",
        "200",
        "--clock",
        "wall",
        "--seed",
        "4",
        "--record",
        record_path.to_str().unwrap(),
    ]);
    let record: MatchRecord = serde_json::from_str(&agon_tests::read(&record_path)).unwrap();
    assert_eq!(record.faults.len(), 1, "{:?}", record.faults);
    assert_eq!((record.faults[0].seat, record.faults[0].ply), (1, 5));
    assert_eq!(record.restarts.len(), 1);
    assert_eq!(record.moves.len(), 12);
    agon_ok(&["replay", "verify", record_path.to_str().unwrap()]);
}

#[test]
fn a_record_whose_rounds_are_renumbered_fails_verification() {
    let mut record = play(
        &[random(), random()],
        HostKind::Inline,
        &[("n", "6"), ("max_rounds", "3")],
        5000,
        None,
    );
    record.moves[3].round = Some(2);
    let error = replay::verify(&record, &Registry::builtin()).unwrap_err();
    assert!(error.0.contains("round Some(2)"), "{error}");
}

fn player(package: &str, bot: &str) -> String {
    spec(package, bot)
}

/// The seed team's royal cavalry against each baseline, two seeds in each seat, must win at
/// least three of the four games (the closing note of the Rectangles issue reports 20 games
/// per setting; this keeps the claim checked).
#[test]
fn the_royal_cavalry_beats_random_army_and_chaser_from_either_seat() {
    let cavalry = player("rectangles-cavalry", "cavalry");
    for opponent in [
        player("rectangles-random", "random"),
        player("rectangles-army", "army"),
        player("rectangles-chaser", "chaser"),
    ] {
        let mut results = Vec::new();
        for seed in 1..=2 {
            for cavalry_seat in 0..2 {
                let mut specs = vec![opponent.clone(), opponent.clone()];
                specs[cavalry_seat] = cavalry.clone();
                let record = play_seeded(&specs, HostKind::Thread, &[], 5000, None, seed);
                assert!(record.faults.is_empty(), "{:?}", record.faults);
                results.push((
                    record.outcome.winner == Some(cavalry_seat),
                    record.outcome.reason,
                ));
            }
        }
        let wins = results.iter().filter(|(won, _)| *won).count();
        assert!(wins >= 3, "{opponent}: {results:?}");
    }
}

#[test]
fn every_player_plays_four_player_games_without_faults() {
    let specs = [
        player("rectangles-cavalry", "annealing"),
        player("rectangles-army", "army"),
        player("rectangles-chaser", "chaser"),
        player("rectangles-cavalry", "cavalry"),
    ];
    let record = play(
        &specs,
        HostKind::Thread,
        &[
            ("players", "4"),
            ("n", "30"),
            ("robots", "6"),
            ("max_rounds", "300"),
        ],
        5000,
        None,
    );
    assert!(record.faults.is_empty(), "{:?}", record.faults);
    assert_eq!(record.outcome.ranks.len(), 4);
    assert!(record.game_scores.iter().sum::<f64>() > 0.0);
}

#[test]
fn the_benchmark_measures_the_rules_time_per_round() {
    let out = agon_ok(&["bench", "--suite", "rectangles", "--seconds", "0.2"]);
    assert_has(
        &out,
        "Rectangles rules per round at n = 100, 4 x 16 robots, mid-game:",
    );
}

/// A tournament of three-player rounds: rotations seat every entrant in every seat, the
/// journal ranks all three, and every record numbers its rounds and replays.
#[test]
fn a_tournament_of_simultaneous_rounds_ranks_every_seat_and_its_records_replay() {
    let dir = scratch("rectangles-tournament");
    let text = format!(
        "game = \"rectangles\"\nseed = 4\ngames_per_pairing = 2\nhost = \"process\"\n\
         [params]\nplayers = 3\nn = 12\nrobots = 3\nmax_rounds = 60\n\
         [[entrant]]\nname = \"random\"\nbot = \"{}\"\n\
         [[entrant]]\nname = \"army\"\nbot = \"{}\"\n\
         [[entrant]]\nname = \"chaser\"\nbot = \"{}\"\n",
        random(),
        player("rectangles-army", "army"),
        player("rectangles-chaser", "chaser"),
    );
    let cfg = dir.join("tournament.toml");
    std::fs::write(&cfg, text).unwrap();
    let out = dir.join("out");
    let standings = agon_tests::tournament_standings(&cfg, &out);
    assert_eq!(standings["standings"].as_array().unwrap().len(), 3);
    let journal = agon_tests::read(out.join("journal.jsonl"));
    // One subset of three, rotated over three seats, two games each.
    assert_eq!(journal.lines().count(), 6, "{journal}");
    for line in journal.lines() {
        let entry: serde_json::Value = serde_json::from_str(line).unwrap();
        assert_eq!(entry["ranks"].as_array().unwrap().len(), 3, "{line}");
        assert_eq!(entry["faults"].as_array().unwrap().len(), 0, "{line}");
    }
    for entry in std::fs::read_dir(out.join("records")).unwrap() {
        let path = entry.unwrap().path();
        let record: MatchRecord = serde_json::from_str(&agon_tests::read(&path)).unwrap();
        assert_rounds(&record, 3);
        agon_ok(&["replay", "verify", path.to_str().unwrap()]);
    }
}

/// Eight seats asked at once on a machine of fewer cores share them: under the CPU clock each
/// bot's budget is its own CPU time, and the wall-clock watchdog stretches by the calls per core,
/// so bots that spend most of their budget are not killed for waiting their turn at a core.
#[test]
fn seats_asked_at_once_are_not_killed_for_sharing_the_cores() {
    let dir = scratch("rectangles-sharing");
    let spinner = format!("{}?rounds=1,2&ms=250&cpu=true", misbehave("sleep"));
    let record_path = dir.join("eight.json");
    let mut args: Vec<String> = [
        "match",
        "--game",
        "rectangles",
        "--param",
        "players=8",
        "--param",
        "n=8",
        "--param",
        "robots=1",
        "--param",
        "max_rounds=2",
        "--move-ms",
        "300",
        "--clock",
        "cpu",
        "--seed",
        "5",
        "--record",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    args.push(record_path.display().to_string());
    for _ in 0..8 {
        args.push("--bot".into());
        args.push(spinner.clone());
    }
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    agon_ok(&args);
    let record: MatchRecord = serde_json::from_str(&agon_tests::read(&record_path)).unwrap();
    assert!(record.faults.is_empty(), "{:?}", record.faults);
    assert_eq!(record.moves.len(), 8 * 3);
}
