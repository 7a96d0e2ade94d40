//! The conformance suite every registered game runs, whatever it is (OpenSpiel's `basic_tests`
//! in spirit): complete metadata, parameters that round-trip, messages for every seat, garbage
//! answers that change nothing, and seeded random matches that end by the rules and replay
//! exactly from their notation. A game's own tests add only what is specific to it; a new game
//! is covered here by being in the registry.

use agon_games::contract::{
    raw_params, GameRules, Outcome, ParamFiles, RawParams, Rejection, Session, StartInfo,
    Termination,
};
use agon_games::registry::Registry;

/// Random matches per game of several seats.
const MATCHES: u64 = 8;
/// Actions after which a random match counts as endless (the longest example match takes a few
/// thousand: Rectangles' rounds times its players).
const MAX_ACTIONS: usize = 100_000;

/// The example parameters name no files.
struct NoFiles;

impl ParamFiles for NoFiles {
    fn read_text(&self, key: &'static str, path: &str) -> Result<String, String> {
        Err(format!(
            "the conformance suite reads no files ({key}={path})"
        ))
    }
}

fn example_params(game: &dyn GameRules) -> RawParams {
    raw_params(game.game_type().example_params)
}

fn open(game: &dyn GameRules, params: &RawParams) -> Box<dyn Session> {
    game.new_session(params, &NoFiles)
        .unwrap_or_else(|e| panic!("{}: {params:?}: {e}", game.name()))
}

fn every_game(check: impl Fn(&dyn GameRules)) {
    let registry = Registry::builtin();
    assert!(registry.games().count() >= 6);
    for game in registry.games() {
        check(game);
    }
}

#[test]
fn every_game_describes_itself_completely() {
    every_game(|game| {
        let meta = game.game_type();
        let name = meta.name;
        assert!(
            !name.is_empty() && name.chars().all(|c| c.is_ascii_lowercase()),
            "a registry name is lowercase letters: {name:?}"
        );
        assert!(!meta.title.is_empty(), "{name}: no title");
        assert!(meta.protocol_version >= 1, "{name}: protocol version");
        assert!(meta.seats.fewest() >= 1, "{name}: seats");
        assert!(!meta.parameter_help.is_empty(), "{name}: parameter help");
        assert!(!meta.game_score_meaning.is_empty(), "{name}: score meaning");
        assert!(!meta.nodes_meaning.is_empty(), "{name}: what nodes mean");
        assert!(!meta.view_script.is_empty(), "{name}: viewer script");
        assert!(
            meta.starter.source.contains("export_plugin!"),
            "{name}: the starter exports no bot"
        );
        assert!(
            Registry::builtin().get(name).is_ok(),
            "{name}: not found under its own name"
        );
    });
}

#[test]
fn parameters_in_effect_open_the_same_match() {
    every_game(|game| {
        let session = open(game, &example_params(game));
        let effective = session.params();
        // Values may come back normalised (a map's text without its last newline); what
        // counts is that they open the same match.
        for (key, _) in game.game_type().example_params {
            assert!(
                effective.contains_key(*key),
                "{}: {key} not in effect",
                game.name()
            );
        }
        let again = open(game, &effective);
        assert_eq!(again.params(), effective, "{}", game.name());
        assert_eq!(again.render(), session.render(), "{}", game.name());
        assert_eq!(
            game.seats_for(&effective, &NoFiles).unwrap(),
            session.game_scores().len(),
            "{}: seats",
            game.name()
        );
    });
}

#[test]
fn unknown_parameters_are_refused() {
    every_game(|game| {
        let mut params = example_params(game);
        params.insert("no_such_parameter".into(), "1".into());
        assert!(
            game.new_session(&params, &NoFiles).is_err(),
            "{}: accepted an unknown parameter",
            game.name()
        );
    });
}

#[test]
fn every_seat_gets_a_start_and_the_first_an_observation() {
    every_game(|game| {
        let session = open(game, &example_params(game));
        let info = StartInfo {
            seed: 1,
            start_budget_ms: 0,
            move_budget_ms: 100,
            bot_params: RawParams::new(),
        };
        for seat in 0..session.game_scores().len() {
            assert!(!session.start_message(seat, &info).is_empty());
        }
        let first = session.to_act().expect("a new match awaits a seat");
        assert!(!session.observation(first).is_empty(), "{}", game.name());
        assert!(session.outcome().is_none(), "{}", game.name());
    });
}

#[test]
fn a_garbage_answer_is_malformed_and_changes_nothing() {
    every_game(|game| {
        let mut session = open(game, &example_params(game));
        let seat = session.to_act().unwrap();
        let before = session.render();
        for garbage in [&[][..], &[0xff; 7][..], &[0x80; 300][..]] {
            match session.apply_answer(seat, garbage) {
                Err(Rejection::Malformed(_)) => {}
                other => panic!("{}: {garbage:?} gave {other:?}", game.name()),
            }
            assert_eq!(session.render(), before, "{}", game.name());
            assert_eq!(session.to_act(), Some(seat), "{}", game.name());
        }
    });
}

/// One action of a random match, as it is replayed.
enum Action {
    Played(usize, String),
    Skipped(usize),
}

/// Plays `session` to its end with seeded random legal actions (a skip where a game has none
/// to draw from); the actions in order.
fn play_randomly(name: &str, session: &mut dyn Session, seed: u64) -> Vec<Action> {
    let mut draws = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    let mut actions = Vec::new();
    while !session.round_seats().is_empty() {
        for seat in session.round_seats() {
            // xorshift: no generator crate in the rules' tests for one stream of draws.
            draws ^= draws << 13;
            draws ^= draws >> 7;
            draws ^= draws << 17;
            match session.play_random_legal(seat, draws) {
                Ok(applied) => actions.push(Action::Played(seat, applied.notation)),
                Err(_) => {
                    session.skip(seat).unwrap_or_else(|e| {
                        panic!("{name}: seat {seat} can neither act nor skip: {e:?}")
                    });
                    actions.push(Action::Skipped(seat));
                }
            }
        }
        assert!(
            actions.len() < MAX_ACTIONS,
            "{name}: no end after {MAX_ACTIONS} actions"
        );
    }
    actions
}

fn same_outcome(a: &Outcome, b: &Outcome) -> bool {
    a.winner == b.winner && a.scores == b.scores && a.reason == b.reason && a.ranks == b.ranks
}

/// Games of several seats (puzzles have no random answer: a puzzle's one answer is checked by
/// its own tests).
#[test]
fn random_matches_end_by_the_rules_and_replay_from_their_notation() {
    every_game(|game| {
        if game.game_type().seats.fewest() < 2 {
            return;
        }
        let name = game.name();
        let params = example_params(game);
        for seed in 0..MATCHES {
            let mut session = open(game, &params);
            let actions = play_randomly(name, session.as_mut(), seed);
            assert!(
                actions.len() >= 2,
                "{name}: a match of {} actions",
                actions.len()
            );
            let outcome = session
                .outcome()
                .unwrap_or_else(|| panic!("{name}: over without an outcome"));
            assert_eq!(outcome.termination, Termination::Rules, "{name}");
            assert_eq!(outcome.scores.len(), session.game_scores().len(), "{name}");

            let mut replay = open(game, &params);
            for action in &actions {
                match action {
                    Action::Played(seat, notation) => replay
                        .apply_notation(*seat, notation)
                        .map(|_| ())
                        .unwrap_or_else(|e| panic!("{name}: replaying {notation}: {e:?}")),
                    Action::Skipped(seat) => replay.skip(*seat).map(|_| ()).unwrap(),
                }
            }
            assert_eq!(replay.render(), session.render(), "{name}, seed {seed}");
            let replayed = replay.outcome().expect("the replay ends too");
            assert!(same_outcome(&replayed, &outcome), "{name}, seed {seed}");
        }
    });
}
