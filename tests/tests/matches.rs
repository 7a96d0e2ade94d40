//! Whole matches in-process, over built plugins: forfeits for every fault the thread and inline
//! hosts can contain, determinism, metrics, and replay verification of real records.

use agon_engine::replay;
use agon_engine::Forced;
use agon_engine::HostKind;
use agon_engine::{run_match, MatchSettings};
use agon_engine::{Budgets, MatchRecord};
use agon_engine::{FaultCause, Phase};
use agon_games::contract::{FaultPolicy, GameRules, RawParams, Termination};
use agon_games::registry::Registry;
use agon_tests::{assert_has, seats, spec};
use std::time::{Duration, Instant};

fn breakthrough() -> &'static dyn GameRules {
    &agon_games::breakthrough::session::BreakthroughRules
}

fn play_with(
    host: HostKind,
    specs: [&str; 2],
    seed: u64,
    params: RawParams,
    move_ms: Option<u64>,
) -> MatchRecord {
    play_under(host, specs, seed, params, move_ms, None)
}

fn play_under(
    host: HostKind,
    specs: [&str; 2],
    seed: u64,
    params: RawParams,
    move_ms: Option<u64>,
    fault_policy: Option<FaultPolicy>,
) -> MatchRecord {
    let seats = seats(&specs, breakthrough(), host);
    let settings = MatchSettings {
        params,
        seed,
        seed_secret: agon_tests::TEST_SECRET,
        budgets: Budgets {
            start_ms: Some(2000),
            move_ms,
            clock: Default::default(),
        },
        fault_policy,
    };
    run_match(breakthrough(), &settings, seats).unwrap()
}

fn play(host: HostKind, specs: [&str; 2], move_ms: u64) -> MatchRecord {
    play_with(host, specs, 5, RawParams::new(), Some(move_ms))
}

/// `bad` (a misbehave bot) in seat 0 against random: random wins by forfeit, with `cause`.
fn assert_forfeit(host: HostKind, bad: &str, cause: FaultCause, phase: Phase) -> MatchRecord {
    let record = play(
        host,
        [
            &spec("misbehave", bad),
            &spec("breakthrough-random", "random"),
        ],
        300,
    );
    assert_eq!(
        record.outcome.winner,
        Some(1),
        "{bad} on {host}: {}",
        record.outcome.reason
    );
    assert_eq!(record.outcome.scores, [0.0, 1.0]);
    assert_eq!(record.outcome.termination, Termination::Forfeit);
    assert_eq!(record.faults.len(), 1, "{:?}", record.faults);
    let fault = &record.faults[0];
    assert_eq!(
        (fault.seat, fault.cause, fault.phase),
        (0, cause, phase),
        "{bad}: {fault:?}"
    );
    replay::verify(&record, &Registry::builtin()).expect("forfeits replay too");
    record
}

#[test]
fn thread_host_forfeits_a_panic() {
    let r = assert_forfeit(HostKind::Thread, "panic", FaultCause::Panic, Phase::Move);
    assert_has(&r.faults[0].detail, "deliberate panic in act");
}

#[test]
fn thread_host_forfeits_a_panic_in_start() {
    let r = assert_forfeit(
        HostKind::Thread,
        "panic-start",
        FaultCause::Panic,
        Phase::Start,
    );
    assert!(r.moves.is_empty());
}

#[test]
fn thread_host_forfeits_an_illegal_move_with_the_reason() {
    let r = assert_forfeit(
        HostKind::Thread,
        "illegal",
        FaultCause::Illegal,
        Phase::Move,
    );
    assert_has(&r.faults[0].detail, "a1-e5 is not one step forward");
}

#[test]
fn thread_host_forfeits_a_malformed_answer() {
    let r = assert_forfeit(
        HostKind::Thread,
        "malformed",
        FaultCause::Malformed,
        Phase::Move,
    );
    assert!(r.faults[0].detail.contains("not a Breakthrough reply"));
}

/// The sleeping bot is abandoned at its deadline: the match ends on time, not when it wakes.
#[test]
fn thread_host_forfeits_a_timeout_on_time() {
    agon_tests::artifacts(); // built before the clock starts
    let t0 = Instant::now();
    let r = assert_forfeit(HostKind::Thread, "sleep", FaultCause::Timeout, Phase::Move);
    let elapsed = t0.elapsed();
    assert!(
        elapsed < Duration::from_millis(300 + 700),
        "took {elapsed:?}"
    );
    assert!(r.faults[0].wall_us >= 300_000);
}

#[test]
fn a_fault_in_the_second_seat_costs_the_second_seat() {
    let record = play(
        HostKind::Thread,
        [
            &spec("breakthrough-random", "random"),
            &spec("misbehave", "illegal"),
        ],
        300,
    );
    assert_eq!(record.outcome.winner, Some(0));
    assert_eq!(record.faults[0].seat, 1);
    assert_eq!(
        record.moves.len(),
        1,
        "White moved once, then Black's answer was illegal"
    );
}

#[test]
fn inline_host_forfeits_panic_malformed_illegal_and_late_answers() {
    assert_forfeit(HostKind::Inline, "panic", FaultCause::Panic, Phase::Move);
    assert_forfeit(
        HostKind::Inline,
        "malformed",
        FaultCause::Malformed,
        Phase::Move,
    );
    assert_forfeit(
        HostKind::Inline,
        "illegal",
        FaultCause::Illegal,
        Phase::Move,
    );
    // The inline host cannot interrupt: the late answer is a timeout once it arrives.
    assert_forfeit(HostKind::Inline, "sleep", FaultCause::Timeout, Phase::Move);
}

#[test]
fn bad_bot_parameters_are_a_refusal_at_start() {
    let record = play(
        HostKind::Thread,
        [
            &spec("breakthrough-random", "random"),
            &format!("{}?depth=deep", spec("breakthrough-alphabeta", "alphabeta")),
        ],
        1000,
    );
    let fault = &record.faults[0];
    assert_eq!(
        (fault.seat, fault.cause, fault.phase),
        (1, FaultCause::Refused, Phase::Start)
    );
    assert_has(&fault.detail, "`depth`");
}

#[test]
fn alphabeta_beats_random_and_reports_nodes() {
    let record = play(
        HostKind::Thread,
        [
            &format!("{}?depth=2", spec("breakthrough-alphabeta", "alphabeta")),
            &spec("breakthrough-random", "random"),
        ],
        5000,
    );
    assert!(record.faults.is_empty(), "{:?}", record.faults);
    assert_eq!(record.outcome.winner, Some(0), "{}", record.outcome.reason);
    assert_eq!(record.outcome.termination, Termination::Rules);
    let (ab, random) = (&record.metrics[0], &record.metrics[1]);
    assert!(ab.nodes.unwrap() > 0 && ab.nodes_per_move.unwrap() > 1.0);
    assert_eq!(random.nodes, None);
    assert_eq!(ab.moves + random.moves, record.moves.len() as u32);
    assert!(record.moves.iter().all(|m| m.cpu_us.is_some()));
    let verified = replay::verify(&record, &Registry::builtin()).unwrap();
    assert_eq!(verified.moves, record.moves.len());
}

/// Same seed, same game, whatever the host; another seed, another game.
#[test]
fn seeded_matches_replay_exactly() {
    let specs = [
        &spec("breakthrough-random", "random") as &str,
        &spec("breakthrough-random", "random"),
    ];
    let actions = |r: &MatchRecord| r.moves.iter().map(|m| m.action.clone()).collect::<Vec<_>>();
    let a = play_with(HostKind::Thread, specs, 11, RawParams::new(), Some(1000));
    let b = play_with(HostKind::Inline, specs, 11, RawParams::new(), Some(1000));
    let c = play_with(HostKind::Thread, specs, 12, RawParams::new(), Some(1000));
    assert_eq!(actions(&a), actions(&b));
    assert_eq!(a.outcome, b.outcome);
    assert_eq!(a.final_board, b.final_board);
    assert_ne!(actions(&a), actions(&c));
}

#[test]
fn extended_rules_play_through_the_engine() {
    let params: RawParams = agon_games::contract::raw_params(&[
        ("rows", "5"),
        ("cols", "10"),
        ("workers_to_base", "3"),
    ]);
    let specs = [
        &format!(
            "{}?depth=2&heuristic=defensive2",
            spec("breakthrough-alphabeta", "alphabeta")
        ) as &str,
        &spec("breakthrough-random", "random"),
    ];
    let record = play_with(HostKind::Thread, specs, 3, params, Some(5000));
    assert!(record.faults.is_empty(), "{:?}", record.faults);
    assert_eq!(record.params["workers_to_base"], "3");
    assert_eq!(
        record.final_board.lines().count(),
        6,
        "5 rows and the column letters"
    );
    replay::verify(&record, &Registry::builtin()).unwrap();
}

/// A forfeit can only be blamed on the seat that faulted, and only one fault ends a match.
#[test]
fn replay_verification_checks_who_forfeited() {
    let record = play(
        HostKind::Thread,
        [
            &spec("breakthrough-random", "random"),
            &spec("misbehave", "illegal"),
        ],
        300,
    );
    let registry = Registry::builtin();
    replay::verify(&record, &registry).unwrap();
    let mut blamed_on_white = record.clone();
    blamed_on_white.faults[0].seat = 0;
    blamed_on_white.outcome.winner = Some(1);
    blamed_on_white.outcome.scores = vec![0.0, 1.0];
    assert!(replay::verify(&blamed_on_white, &registry).is_err());
    let mut no_such_seat = record.clone();
    no_such_seat.faults[0].seat = 7;
    assert!(replay::verify(&no_such_seat, &registry).is_err());
    let mut two_faults = record.clone();
    two_faults.faults.push(record.faults[0].clone());
    assert!(replay::verify(&two_faults, &registry).is_err());
}

/// Every kind of tampering with a real record is caught.
#[test]
fn replay_verification_catches_tampering() {
    let record = play_with(
        HostKind::Inline,
        [
            &spec("breakthrough-random", "random"),
            &spec("breakthrough-random", "random"),
        ],
        21,
        RawParams::new(),
        Some(1000),
    );
    let registry = Registry::builtin();
    replay::verify(&record, &registry).unwrap();
    type Tamper = Box<dyn Fn(&mut MatchRecord)>;
    let tampered: Vec<(&str, Tamper)> = vec![
        (
            "winner",
            Box::new(|r| r.outcome.winner = r.outcome.winner.map(|w| 1 - w)),
        ),
        ("scores", Box::new(|r| r.outcome.scores = vec![0.5, 0.5])),
        (
            "dropped move",
            Box::new(|r| {
                r.moves.pop();
            }),
        ),
        ("swapped moves", Box::new(|r| r.moves.swap(0, 2))),
        (
            "illegal move",
            Box::new(|r| r.moves[3].action = "a1-a8".into()),
        ),
        ("wrong seat", Box::new(|r| r.moves[1].seat = 0)),
        ("captures", Box::new(|r| r.moves[0].captures = 1)),
        (
            "board",
            Box::new(|r| r.final_board = r.final_board.replacen('W', ".", 1)),
        ),
        (
            "params",
            Box::new(|r| {
                r.params.insert("rows".into(), "10".into());
                r.params.insert("cols".into(), "5".into());
            }),
        ),
        (
            "bad param",
            Box::new(|r| {
                r.params.insert("speed".into(), "fast".into());
            }),
        ),
        ("game", Box::new(|r| r.game = "chess".into())),
        ("metrics", Box::new(|r| r.metrics[0].captures += 1)),
        ("seat numbering", Box::new(|r| r.seats[1].seat = 0)),
        (
            "fault",
            Box::new(|r| {
                r.faults.push(agon_engine::Fault {
                    seat: 0,
                    phase: Phase::Move,
                    ply: 0,
                    cause: FaultCause::Timeout,
                    detail: String::new(),
                    wall_us: 0,
                    answer: None,
                })
            }),
        ),
    ];
    for (what, tamper) in tampered {
        let mut bad = record.clone();
        tamper(&mut bad);
        assert!(
            replay::verify(&bad, &registry).is_err(),
            "tampered {what} went unnoticed"
        );
    }
}

fn under(policy: &str, specs: [&str; 2]) -> MatchRecord {
    let record = play_under(
        HostKind::Thread,
        specs,
        8,
        RawParams::new(),
        Some(1000),
        Some(policy.parse().unwrap()),
    );
    replay::verify(&record, &Registry::builtin())
        .unwrap_or_else(|e| panic!("{policy}: the record does not replay: {e}"));
    record
}

/// Under `skip` a faulty seat's turns pass: random moves every turn and wins by the rules.
#[test]
fn the_skip_policy_passes_faulty_turns() {
    let record = under(
        "skip",
        [
            &spec("misbehave", "illegal"),
            &spec("breakthrough-random", "random"),
        ],
    );
    assert_eq!(record.outcome.termination, Termination::Rules);
    assert_eq!(record.outcome.winner, Some(1));
    let skipped = record
        .moves
        .iter()
        .filter(|m| m.forced == Some(Forced::Skip))
        .count();
    assert!(skipped > 3);
    assert_eq!(skipped, record.faults.len(), "one fault per skipped turn");
    assert!(record
        .moves
        .iter()
        .filter(|m| m.seat == 0)
        .all(|m| m.action == "pass"));
    assert_eq!(
        record.metrics[0].moves, 0,
        "metrics count the bot's own answers only"
    );
}

/// Two seats that never answer under `skip-stall` (opt-in): the game stalls after the given
/// number of faulted turns in a row and nobody scores; a record that claims the stall earlier
/// does not replay.
#[test]
fn under_skip_stall_a_game_where_no_seat_acts_stalls() {
    let faulty = [
        &spec("misbehave", "illegal") as &str,
        &spec("misbehave", "malformed"),
    ];
    let record = under("skip-stall", faulty);
    assert_eq!(record.outcome.termination, Termination::Stalled);
    assert_eq!(record.outcome.scores, [0.0, 0.0]);
    assert_eq!(record.outcome.winner, None);
    assert_eq!(record.faults.len(), 4, "four faulted turns in a row");
    let six = under("skip-stall:6", faulty);
    assert_eq!(six.faults.len(), 6);
    let mut early = six.clone();
    early.fault_policy = "skip-stall:7".parse().unwrap();
    let err = replay::verify(&early, &Registry::builtin()).unwrap_err();
    assert!(
        err.to_string()
            .contains("stalled after 6 faulted turns in a row; the skip-stall:7"),
        "{err}"
    );
}

/// Under `skip` (the course's rule) faults never end a game: two seats that never answer play
/// on to the game's own move limit, which decides (a draw here), as the Flip course did.
#[test]
fn under_skip_faults_never_end_a_game() {
    let record = play_under(
        HostKind::Thread,
        [
            &spec("misbehave", "illegal"),
            &spec("misbehave", "malformed"),
        ],
        8,
        RawParams::from([("move_limit".to_string(), "30".to_string())]),
        Some(1000),
        Some("skip".parse().unwrap()),
    );
    replay::verify(&record, &Registry::builtin()).unwrap();
    assert_eq!(
        record.outcome.termination,
        Termination::Rules,
        "{}",
        record.outcome.reason
    );
    assert_eq!(record.outcome.winner, None);
    assert_eq!(record.faults.len(), 30);
    assert_eq!(record.moves.len(), 30);
}

/// Under `random-legal` the engine plays for a faulty seat until its error rate is exceeded.
#[test]
fn the_random_legal_policy_plays_for_a_seat_then_disqualifies_it() {
    let bad = [
        &spec("misbehave", "illegal") as &str,
        &spec("breakthrough-random", "random"),
    ];
    let tolerant = under("random-legal:1", bad);
    assert_eq!(
        tolerant.outcome.termination,
        Termination::Rules,
        "{}",
        tolerant.outcome.reason
    );
    let forced = tolerant
        .moves
        .iter()
        .filter(|m| m.forced == Some(Forced::RandomLegal))
        .count();
    assert_eq!(
        forced,
        tolerant.moves.iter().filter(|m| m.seat == 0).count()
    );
    let strict = under("random-legal:0.1", bad);
    assert_eq!(strict.outcome.termination, Termination::Disqualified);
    assert_eq!(strict.outcome.winner, Some(1));
    assert_eq!(
        strict.faults.len(),
        2,
        "one tolerated error, the second disqualifies"
    );
}

#[test]
fn the_disqualify_policy_ends_the_game() {
    let record = under(
        "disqualify",
        [
            &spec("breakthrough-random", "random"),
            &spec("misbehave", "panic"),
        ],
    );
    assert_eq!(record.outcome.termination, Termination::Disqualified);
    assert_eq!(record.outcome.winner, Some(0));
}

/// A record read back from its JSON verifies: every float in it survives the round trip.
#[test]
fn records_survive_a_json_round_trip() {
    let random = spec("breakthrough-random", "random");
    for seed in 0..20 {
        let record = play_with(
            HostKind::Inline,
            [&random, &random],
            seed,
            RawParams::new(),
            Some(1000),
        );
        let back: MatchRecord = serde_json::from_str(&record.to_json()).unwrap();
        assert_eq!(back, record);
        replay::verify(&back, &Registry::builtin()).unwrap();
    }
}
