use super::*;

fn config(n: u32, turns: u32) -> Config {
    Config { n, turns, seed: 43 }
}

/// Rules file, "Initial placement": with seed 43, player 1's coin 2 starts near
/// (21.4304, 3.0508).
#[test]
fn placement_matches_the_test_vector() {
    let [one, two] = place(3, 43).unwrap();
    assert!((one[2].x - 21.4304).abs() < 5e-5, "{:?}", one[2]);
    assert!((one[2].y - 3.0508).abs() < 5e-5, "{:?}", one[2]);
    assert_eq!(two[2], Point::new(-one[2].x, one[2].y));
}

/// The course's largest boards (n = 265 with seed 50, n = 270 with seed 46) place within the
/// cap; the exact draw counts pin the draw sequence to the course simulator's.
#[test]
fn the_courses_largest_boards_place_within_the_cap() {
    for (n, seed, draws) in [(265, 50, 10_274_244), (270, 46, 11_922_898)] {
        let (coins, taken) = place_within(n, seed, MAX_DRAWS).unwrap();
        assert_eq!(coins[0].len(), n as usize);
        assert_eq!(taken, draws, "n = {n}, seed = {seed}");
    }
}

#[test]
fn a_jammed_placement_names_the_practical_limit() {
    let jam = place_within(265, 50, 1_000_000).unwrap_err();
    assert_eq!((jam.n, jam.seed, jam.max_draws), (265, 50, 1_000_000));
    assert!(jam.placed > 0 && jam.placed < 265, "{jam:?}");
    let error = jam.to_string();
    assert!(error.contains("seed 50"), "{error}");
    assert!(error.contains("1000000 draws"), "{error}");
    assert!(
        error.contains(&format!("about {PRACTICAL_COINS} coins")),
        "{error}"
    );
}

#[test]
fn java_random_matches_known_outputs() {
    // new Random(0).nextDouble() and new Random(42).nextInt() (next(32)) in Java.
    assert_eq!(JavaRandom::new(0).next_double(), 0.730967787376657);
    assert_eq!(JavaRandom::new(42).next(32), -1170105035);
}

#[test]
fn placement_keeps_every_coin_apart_and_inside_the_right_third() {
    for seed in [1, 42, 43, 50, 7777] {
        let [one, _] = place(50, seed).unwrap();
        for (i, p) in one.iter().enumerate() {
            assert!(p.x - 1.0 + EPS >= 20.0 && p.x + 1.0 - EPS <= 60.0);
            assert!(p.y - 1.0 + EPS >= -20.0 && p.y + 1.0 - EPS <= 20.0);
            for q in &one[..i] {
                assert!(p.distance(*q) + EPS >= 2.0);
            }
        }
    }
    assert_eq!(
        place(20, 9).unwrap(),
        place(20, 9).unwrap(),
        "deterministic"
    );
}

fn game(one: &[(f64, f64)], two: &[(f64, f64)], n: u32, turns: u32) -> Flip {
    let pts = |v: &[(f64, f64)]| v.iter().map(|&(x, y)| Point::new(x, y)).collect();
    Flip::from_positions(config(n, turns), [pts(one), pts(two)])
}

#[test]
fn each_validity_rule_at_its_eps_boundary() {
    let g = game(&[(30.0, 0.0)], &[(-30.0, 0.0), (26.0, 0.0)], 1, 10);
    // Rule 2: exactly one diameter, within eps.
    assert!(g
        .validate(Player::One, 0, Point::new(28.0 + 0.5e-7, 0.0))
        .is_ok());
    assert!(matches!(
        g.validate(Player::One, 0, Point::new(28.0 + 2e-7, 0.0)),
        Err(Invalid::NotOneDiameter { .. })
    ));
    // Rule 3: touching is allowed, overlapping by more than eps is not.
    let touching = game(&[(30.0, 0.0)], &[(-30.0, 0.0), (30.0, 4.0)], 1, 10);
    assert!(touching
        .validate(Player::One, 0, Point::new(30.0, 2.0))
        .is_ok());
    let close = game(&[(30.0, 0.0)], &[(-30.0, 0.0), (30.0, 4.0 - 2e-7)], 1, 10);
    assert!(matches!(
        close.validate(Player::One, 0, Point::new(30.0, 2.0)),
        Err(Invalid::Overlap {
            owner: Player::Two,
            id: 1
        })
    ));
    // Rule 4: on the table, with eps.
    let edge = game(&[(57.0, 0.0)], &[(-30.0, 0.0)], 1, 10);
    assert!(edge
        .validate(Player::One, 0, Point::new(59.0 + 0.5e-7, 0.0))
        .is_ok());
    assert!(matches!(
        edge.validate(Player::One, 0, Point::new(59.0 + 2e-7, 0.0 + 0.0))
            .unwrap_err(),
        Invalid::NotOneDiameter { .. } | Invalid::OffTable
    ));
    let edge = game(&[(57.0, 0.0)], &[(-30.0, 0.0)], 1, 10);
    let out = Point::new(57.0 + 2.0, 0.0);
    assert!(edge.validate(Player::One, 0, out).is_ok());
    let past = game(&[(57.5, 0.0)], &[(-30.0, 0.0)], 1, 10);
    assert_eq!(
        past.validate(Player::One, 0, Point::new(59.5, 0.0)),
        Err(Invalid::OffTable)
    );
    // Rule 1 and garbage.
    assert!(matches!(
        g.validate(Player::One, 3, Point::new(0.0, 0.0)),
        Err(Invalid::NoSuchCoin { .. })
    ));
    assert_eq!(
        g.validate(Player::One, 0, Point::new(f64::NAN, 0.0)),
        Err(Invalid::NotFinite)
    );
    // Backwards and sideways are fine; only the destination counts (it flips over anything).
    let jump = game(&[(30.0, 0.0)], &[(-30.0, 0.0), (29.0, 0.0 + 3.0)], 1, 10);
    assert!(jump.validate(Player::One, 0, Point::new(32.0, 0.0)).is_ok());
}

#[test]
fn the_first_turn_gives_player_one_a_single_move() {
    let mut g = game(&[(30.0, 0.0)], &[(-30.0, 0.0)], 1, 10);
    assert_eq!(g.moves_allowed(), 1);
    let half = g.play(&[(0, Point::new(28.0, 0.0)), (0, Point::new(26.0, 0.0))]);
    assert_eq!(half.moves.len(), 1);
    assert_eq!(half.ignored, 1);
    assert_eq!(g.coins(Player::One)[0], Point::new(28.0, 0.0));
    assert_eq!(g.to_move(), Player::Two);
    assert_eq!(g.moves_allowed(), 2);
    g.play(&[]);
    assert_eq!(
        (g.turn(), g.to_move(), g.moves_allowed()),
        (1, Player::One, 2)
    );
}

#[test]
fn invalid_moves_are_skipped_and_the_rest_counts() {
    let mut g = game(&[(30.0, 0.0)], &[(-30.0, 0.0)], 1, 10);
    g.play(&[]);
    g.play(&[]);
    let half = g.play(&[(0, Point::new(27.0, 0.0)), (0, Point::new(28.0, 0.0))]);
    assert!(half.moves[0].result.is_err());
    assert!(half.moves[1].result.is_ok());
    assert_eq!(g.coins(Player::One)[0], Point::new(28.0, 0.0));
}

#[test]
fn the_score_is_sticky_and_a_full_score_wins_early() {
    // Player 1's coin sits just inside its target third.
    let mut g = game(
        &[(-21.0, 0.0), (30.0, 10.0)],
        &[(0.0, 10.0), (0.0, -10.0)],
        2,
        100,
    );
    g.play(&[]); // turn 0: no early win
    g.play(&[]);
    assert_eq!(g.scores(), [1, 0]);
    g.play(&[(0, Point::new(-19.0, 0.0))]); // out again
    assert_eq!(g.scores(), [1, 0], "sticky: the running maximum");
    // Reports' legends say so too: the most coins home, not the count at the end.
    use crate::contract::GameRules;
    let legend = super::session::FlipRules.game_score_meaning();
    assert!(
        legend.contains("the most") && !legend.contains("at the end"),
        "{legend}"
    );
    g.play(&[]);
    // Both coins home: player 1 wins at once.
    let mut g = game(
        &[(-23.0, 0.0), (-21.0, 10.0)],
        &[(0.0, 10.0), (0.0, -10.0)],
        2,
        100,
    );
    g.play(&[]);
    assert!(g.outcome().is_none(), "no early win on turn 0");
    g.play(&[]);
    g.play(&[]);
    assert_eq!(
        g.outcome().map(|o| (o.winner, o.early)),
        Some((Some(Player::One), true))
    );
}

#[test]
fn the_turn_limit_decides_by_score_or_draws() {
    let mut g = game(&[(30.0, 0.0)], &[(-30.0, 0.0)], 1, 2);
    for _ in 0..4 {
        g.play(&[]);
    }
    let o = g.outcome().unwrap();
    assert_eq!((o.winner, o.early, o.scores), (None, false, [0, 0]));
    let mut g = game(
        &[(-21.0, 0.0), (30.0, 0.0)],
        &[(0.0, 0.0), (0.0, 5.0)],
        2,
        1,
    );
    g.play(&[]);
    g.play(&[]);
    assert_eq!(g.outcome().unwrap().winner, Some(Player::One));
}

#[test]
fn n_is_bounded_by_the_largest_board_the_course_played() {
    let params = |n: u32| crate::contract::RawParams::from([("n".to_string(), n.to_string())]);
    assert_eq!(Config::from_params(&params(270)).unwrap().n, 270);
    let refused = Config::from_params(&params(271)).unwrap_err().to_string();
    assert!(refused.contains("1 to 270"), "{refused}");
}

/// Random flips of both players, many of them invalid (any coin, any angle, some toward the
/// table's edges), with the table after each half-turn.
fn random_game(n: u32, turns: u32, seed: u64, mut after_half_turn: impl FnMut(&Flip, &HalfTurn)) {
    use rand::{Rng, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut g = Flip::new(config(n, turns)).unwrap();
    while g.outcome().is_none() {
        let player = g.to_move();
        let requested: Vec<(u32, Point)> = (0..g.moves_allowed())
            .map(|_| {
                let id = rng.random_range(0..n);
                let angle: f64 = rng.random_range(0.0..std::f64::consts::TAU);
                let from = g.coins(player)[id as usize];
                (
                    id,
                    Point::new(from.x + 2.0 * angle.cos(), from.y + 2.0 * angle.sin()),
                )
            })
            .collect();
        let half = g.play(&requested);
        after_half_turn(&g, &half);
    }
}

/// The score is kept move by move; counting every coin must give the same number throughout.
#[test]
fn the_count_in_the_target_third_is_kept_by_every_move() {
    for seed in 0..4 {
        let mut moved = 0;
        random_game(30, 300, seed, |g, half| {
            moved += half.moves.iter().filter(|m| m.result.is_ok()).count();
            for player in [Player::One, Player::Two] {
                let counted = g
                    .coins(player)
                    .iter()
                    .filter(|&&p| Flip::in_target(player, p))
                    .count() as u32;
                assert_eq!(g.count(player), counted, "turn {}", g.turn());
            }
        });
        assert!(moved > 100, "the game moved coins ({moved})");
    }
}

/// The grid looks at nine cells only: every refused overlap names a coin that does overlap,
/// and every accepted move overlaps no coin at all (checked against every coin).
#[test]
fn overlaps_found_through_the_grid_match_a_scan_of_every_coin() {
    let mut overlaps = 0;
    random_game(60, 200, 7, |g, half| {
        for m in &half.moves {
            let player = half.player;
            let others = [Player::One, Player::Two].into_iter().flat_map(|owner| {
                g.coins(owner)
                    .iter()
                    .enumerate()
                    .map(move |(id, &p)| (owner, id as u32, p))
            });
            let mut overlapping = others.filter(|&(owner, id, p)| {
                (owner, id) != (player, m.id) && p.distance(m.to) + EPS < 2.0
            });
            match &m.result {
                Ok(()) => assert!(overlapping.next().is_none(), "{m:?}"),
                Err(Invalid::Overlap { owner, id }) => {
                    overlaps += 1;
                    // The table is the one after the half-turn: skip a coin moved since.
                    let moved_since = *owner == player
                        && half
                            .moves
                            .iter()
                            .any(|later| later.id == *id && later.result.is_ok());
                    let named = g.coins(*owner)[*id as usize];
                    assert!(moved_since || named.distance(m.to) + EPS < 2.0, "{m:?}");
                }
                Err(_) => {}
            }
        }
    });
    assert!(overlaps > 20, "the game had refused overlaps ({overlaps})");
}

/// Of two coins in the way, the one in the lower grid row is named: the grid is searched row by
/// row, each cell in the order coins entered it.
#[test]
fn the_first_coin_in_the_way_is_named() {
    // Player 1 flips its coin 0 from (30, 0) to (28, 0); player 2's coins 1 (just above) and 2
    // (just below) both overlap the destination.
    let g = game(
        &[(30.0, 0.0)],
        &[(-30.0, 0.0), (28.0, 1.5), (28.0, -1.5)],
        1,
        10,
    );
    assert_eq!(
        g.validate(Player::One, 0, Point::new(28.0, 0.0)),
        Err(Invalid::Overlap {
            owner: Player::Two,
            id: 2
        })
    );
}
