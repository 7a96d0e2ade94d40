//! Rules tests beyond perft: legality reasons, the extended rules, and a cross-check of the
//! bitboard generator against the square-by-square legality check on random games.

use super::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn sq(s: &str) -> Square {
    s.parse().unwrap()
}

fn mv(s: &str) -> Move {
    s.parse().unwrap()
}

/// The standard board under the extended rule "3 workers to base" (rules file, "Winning").
const THREE_TO_BASE: Config = Config {
    workers_to_base: 3,
    ..Config::STANDARD
};

/// The outcome `position.outcome()` reports once the game ends.
fn ended(winner: Option<Side>, reason: EndReason) -> Option<Outcome> {
    Some(Outcome { winner, reason })
}

fn position(config: Config, white: &[&str], black: &[&str], to_move: Side) -> Position {
    let pieces = white
        .iter()
        .map(|s| (sq(s), Side::White))
        .chain(black.iter().map(|s| (sq(s), Side::Black)));
    Position::from_pieces(config, pieces, to_move, 0).unwrap()
}

#[test]
fn start_position_fills_two_home_rows_each() {
    let p = Position::start(Config::STANDARD);
    assert_eq!(p.workers(Side::White), 16);
    assert_eq!(p.workers(Side::Black), 16);
    assert_eq!(p.piece_at(sq("a1")), Some(Side::White));
    assert_eq!(p.piece_at(sq("h2")), Some(Side::White));
    assert_eq!(p.piece_at(sq("a3")), None);
    assert_eq!(p.piece_at(sq("d7")), Some(Side::Black));
    assert_eq!(p.to_move(), Side::White);
    assert_eq!(p.outcome(), None);
    let wide = Position::start(Config {
        rows: 5,
        cols: 10,
        ..Config::STANDARD
    });
    assert_eq!(wide.workers(Side::White), 20);
    assert_eq!(wide.piece_at(sq("j4")), Some(Side::Black));
}

#[test]
fn illegal_moves_say_why() {
    let mut p = Position::start(Config::STANDARD);
    let cases = [
        ("a3-a4", "white has no worker on a3"),
        ("a7-a6", "white has no worker on a7"),
        ("a2-a4", "not one step forward"),
        ("b2-b1", "not one step forward"),
        ("a1-a2", "own worker"),
        ("h2-i3", "off the 8x8 board"),
    ];
    for (text, reason) in cases {
        let err = p.play(mv(text)).unwrap_err();
        assert!(err.to_string().contains(reason), "{text}: {err}");
    }
    assert_eq!(
        p,
        Position::start(Config::STANDARD),
        "failed moves change nothing"
    );
    assert_eq!(p.play(mv("b2-c3")), Ok(false));
    assert_eq!(p.to_move(), Side::Black);
    assert!(p.play(mv("b2-b3")).is_err(), "White cannot move twice");
}

#[test]
fn captures_are_diagonal_only() {
    let p = position(
        Config::STANDARD,
        &["d4", "a1"],
        &["d5", "e5", "h8"],
        Side::White,
    );
    assert!(matches!(
        p.check(mv("d4-d5")),
        Err(IllegalMove::StraightOntoPiece { .. })
    ));
    assert_eq!(p.check(mv("d4-e5")), Ok(true));
    assert_eq!(p.check(mv("d4-c5")), Ok(false));
    assert_eq!(p.notation(mv("d4-e5")), "d4xe5");
    let mut q = p;
    q.play(mv("d4-e5")).unwrap();
    assert_eq!(q.workers(Side::Black), 2);
    assert_eq!(q.piece_at(sq("e5")), Some(Side::White));
}

#[test]
fn reaching_the_last_row_wins_under_the_standard_rule() {
    let mut p = position(Config::STANDARD, &["c7", "a1"], &["h8", "h7"], Side::White);
    p.play(mv("c7-c8")).unwrap();
    assert_eq!(
        p.outcome(),
        ended(Some(Side::White), EndReason::ReachedBase)
    );
    assert_eq!(p.check(mv("h7-h6")), Err(IllegalMove::GameOver));
}

#[test]
fn capturing_every_worker_wins() {
    let mut p = position(Config::STANDARD, &["a1"], &["b2"], Side::Black);
    p.play(mv("b2xa1")).unwrap();
    let outcome = p.outcome().unwrap();
    assert_eq!(outcome.winner, Some(Side::Black));
    // Black also stands on White's home row; either reason names the right winner.
    assert!(matches!(
        outcome.reason,
        EndReason::ReachedBase | EndReason::TooFewWorkers
    ));
    let mut q = position(Config::STANDARD, &["c3"], &["d4", "h8"], Side::Black);
    q.play(mv("d4xc3")).unwrap();
    assert_eq!(
        q.outcome(),
        ended(Some(Side::Black), EndReason::TooFewWorkers)
    );
}

#[test]
fn workers_to_base_counts_and_parks_workers() {
    let config = THREE_TO_BASE;
    let mut p = position(
        config,
        &["a8", "b8", "c7", "a1", "b1", "c1"],
        &["h6", "g6", "f6"],
        Side::White,
    );
    assert_eq!(p.workers_at_base(Side::White), 2);
    assert_eq!(p.outcome(), None, "two of three workers is not yet a win");
    assert!(matches!(
        p.check(mv("a8-a9")),
        Err(IllegalMove::OffBoard { .. })
    ));
    // Parked workers have no moves: only c7 and the three home workers move.
    assert!(p
        .legal_moves()
        .iter()
        .all(|m| m.from != sq("a8") && m.from != sq("b8")));
    p.play(mv("c7-d8")).unwrap();
    assert_eq!(
        p.outcome(),
        ended(Some(Side::White), EndReason::ReachedBase)
    );
    // Fewer workers than the target loses.
    let q = position(config, &["a1", "b1"], &["h8", "g8", "f8"], Side::White);
    assert_eq!(
        q.outcome(),
        ended(Some(Side::Black), EndReason::TooFewWorkers)
    );
}

#[test]
fn a_player_without_moves_loses() {
    // With three workers to base, White's two parked workers cannot move and the third is
    // blocked straight ahead with its only diagonal on its own worker.
    let config = THREE_TO_BASE;
    let p = position(
        config,
        &["a7", "b8", "c8"],
        &["a8", "g8", "h8"],
        Side::White,
    );
    assert_eq!(p.move_count(), 0);
    assert_eq!(
        p.outcome(),
        ended(Some(Side::Black), EndReason::NoLegalMove)
    );
}

#[test]
fn the_move_limit_draws() {
    let config = Config {
        move_limit: Some(2),
        ..Config::STANDARD
    };
    let mut p = Position::start(config);
    p.play(mv("a2-a3")).unwrap();
    assert_eq!(p.outcome(), None);
    p.play(mv("a7-a6")).unwrap();
    assert_eq!(p.outcome(), ended(None, EndReason::MoveLimit));
}

#[test]
fn black_can_move_first() {
    let p = Position::start(Config {
        first: Side::Black,
        ..Config::STANDARD
    });
    assert_eq!(p.to_move(), Side::Black);
    assert!(p
        .legal_moves()
        .iter()
        .all(|m| m.from.row == 6 && m.to.row == 5));
    assert_eq!(perft(&p, 2), 484);
}

/// The bitboard generator and the square-by-square check agree on every from/to pair, on random
/// games over every board of the rules file; `nth_move` enumerates the same list.
#[test]
fn generator_agrees_with_the_legality_check() {
    let boards = [(8, 8, 1), (5, 10, 3), (10, 5, 2)];
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    for (rows, cols, workers_to_base) in boards {
        let config = Config {
            rows,
            cols,
            workers_to_base,
            ..Config::STANDARD
        };
        for _game in 0..20 {
            let mut p = Position::start(config);
            while p.outcome().is_none() {
                let generated = p.legal_moves();
                let mut checked = Vec::new();
                for from in p.pieces().map(|(s, _)| s) {
                    for row in 0..rows {
                        for col in 0..cols {
                            let m = Move::new(from, Square::new(row, col));
                            if p.check(m).is_ok() {
                                checked.push(m);
                            }
                        }
                    }
                }
                let mut sorted = generated.clone();
                sorted.sort();
                checked.sort();
                assert_eq!(sorted, checked, "\n{}", p.render());
                let mut walk = p.moves();
                for (i, m) in generated.iter().enumerate() {
                    assert_eq!(p.nth_move(i as u32), Some(*m));
                    assert_eq!(walk.len(), generated.len() - i);
                    assert_eq!(walk.next(), Some(*m));
                }
                assert_eq!(walk.next(), None);
                assert_eq!(p.nth_move(generated.len() as u32), None);
                assert_eq!(p.move_count() as usize, generated.len());
                let pick = generated[rng.random_range(0..generated.len())];
                p.play(pick).unwrap();
            }
        }
    }
}

/// The rules file's wording of the end of a game, counting workers; `outcome` decides without
/// counting.
fn outcome_by_counting(p: &Position) -> Option<Outcome> {
    let needed = p.config().workers_to_base as u32;
    let mover = p.to_move().opponent();
    for side in [mover, p.to_move()] {
        if p.workers_at_base(side) >= needed {
            return ended(Some(side), EndReason::ReachedBase);
        }
        if p.workers(side.opponent()) < needed {
            return ended(Some(side), EndReason::TooFewWorkers);
        }
    }
    if p.config().move_limit.is_some_and(|limit| p.ply() >= limit) {
        return ended(None, EndReason::MoveLimit);
    }
    if p.move_count() == 0 {
        return ended(Some(mover), EndReason::NoLegalMove);
    }
    None
}

#[test]
fn outcome_agrees_with_counting_the_workers_every_ply() {
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let mut reasons = Vec::new();
    for (rows, cols, workers_to_base, move_limit) in [
        (8, 8, 1, None),
        (8, 8, 2, None),
        (8, 8, 3, Some(60)),
        (8, 8, 8, None),
        (5, 10, 3, None),
        (10, 5, 2, Some(40)),
    ] {
        let config = Config {
            rows,
            cols,
            workers_to_base,
            move_limit,
            ..Config::STANDARD
        };
        for _game in 0..40 {
            let mut p = Position::start(config);
            loop {
                let outcome = p.outcome();
                assert_eq!(outcome, outcome_by_counting(&p), "\n{}", p.render());
                if let Some(o) = outcome {
                    reasons.push(o.reason);
                    break;
                }
                let mv = p.nth_move(rng.random_range(0..p.move_count())).unwrap();
                p.apply_unchecked(mv);
            }
        }
    }
    for reason in [
        EndReason::ReachedBase,
        EndReason::TooFewWorkers,
        EndReason::MoveLimit,
    ] {
        assert!(reasons.contains(&reason), "no game ended by {reason:?}");
    }
}

#[test]
fn notation_round_trips() {
    assert_eq!(mv("b2xc3"), Move::new(sq("b2"), sq("c3")));
    assert_eq!(mv("j9-j10").to, Square::new(9, 9));
    assert_eq!(Move::new(sq("a1"), sq("b2")).to_string(), "a1-b2");
    for bad in ["", "a", "a0-a1", "A1-a2", "a1a2", "a1-", "-a2"] {
        assert!(bad.parse::<Move>().is_err(), "{bad}");
    }
}
