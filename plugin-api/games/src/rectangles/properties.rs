//! The incremental claim search against the brute-force one (rules file, "A round", 4) on
//! random boards: rectangle outlines in random colours over noise and filled cells, some of
//! their cells painted only in the round under test.

use super::board::{colour, Board, Cell, FILLED, UNPAINTED};
use super::claims::{all_candidates, rectangles_through, resolve, Rect};
use proptest::prelude::*;

#[derive(Debug, Clone)]
struct Scene {
    n: usize,
    players: usize,
    noise: Vec<(usize, u8)>,
    outlines: Vec<(usize, Rect)>,
    /// Cells (by index into the outline cells) held back until the round under test.
    held: Vec<usize>,
}

fn scene() -> impl Strategy<Value = Scene> {
    (4usize..=10, 2usize..=3).prop_flat_map(|(n, players)| {
        let cell = 0..n * n;
        let paint = prop_oneof![Just(UNPAINTED), Just(FILLED), 1u8..=players as u8];
        let rect = (0..n - 2, 0..n - 2, 2..n, 2..n).prop_map(move |(t, l, h, w)| {
            Rect::new(
                t,
                l,
                (t + h).min(n - 1).max(t + 2),
                (l + w).min(n - 1).max(l + 2),
            )
        });
        (
            Just(n),
            Just(players),
            prop::collection::vec((cell, paint), 0..n * 2),
            prop::collection::vec((0..players, rect), 1..5),
            prop::collection::vec(0usize..1000, 1..6),
        )
            .prop_map(|(n, players, noise, outlines, held)| Scene {
                n,
                players,
                noise,
                outlines,
                held,
            })
    })
}

/// The board before the round (claims resolved until none remains, as at every round's
/// start), and the cells the round paints with their player.
fn setup(scene: &Scene) -> (Board, Vec<(usize, Cell)>) {
    let mut board = Board::new(scene.n);
    for &(i, paint) in &scene.noise {
        board.set(Cell::new(i / scene.n, i % scene.n), paint);
    }
    let cells: Vec<(usize, Cell)> = scene
        .outlines
        .iter()
        .flat_map(|(p, r)| r.boundary().map(move |c| (*p, c)))
        .collect();
    let held: Vec<(usize, Cell)> = scene.held.iter().map(|&k| cells[k % cells.len()]).collect();
    for &(p, c) in &cells {
        if !held.iter().any(|&(_, h)| h == c) {
            board.set(c, colour(p));
        }
    }
    let candidates = all_candidates(&board, scene.players);
    resolve(&mut board, candidates);
    assert!(all_candidates(&board, scene.players).is_empty());
    let mut painted = Vec::new();
    for &(p, c) in &held {
        if board.get(c) != FILLED && board.get(c) != colour(p) {
            board.set(c, colour(p));
            painted.push((p, c));
        }
    }
    // A cell painted twice keeps the last paint; only its final owner counts.
    painted.retain(|&(p, c)| board.get(c) == colour(p));
    (board, painted)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    /// Every candidate after the round passes through a cell the round painted, and the
    /// search through those cells finds exactly the candidates the brute force finds.
    #[test]
    fn the_incremental_search_finds_exactly_the_new_candidates(scene in scene()) {
        let (board, painted) = setup(&scene);
        let mut found = Vec::new();
        for &(p, c) in &painted {
            let mut rects = Vec::new();
            rectangles_through(&board, p, c, &mut rects);
            found.extend(rects.into_iter().map(|r| (p, r)));
        }
        found.retain(|(p, r)| super::claims::value(&board, *p, r) > 0);
        found.sort_unstable();
        found.dedup();
        let mut expected = all_candidates(&board, scene.players);
        expected.sort_unstable();
        prop_assert_eq!(found, expected);
    }

    /// Resolving the incremental candidates claims what resolving all rectangles claims.
    #[test]
    fn incremental_and_brute_force_resolution_agree(scene in scene()) {
        let (board, painted) = setup(&scene);
        let mut incremental = board.clone();
        let mut found = Vec::new();
        for &(p, c) in &painted {
            let mut rects = Vec::new();
            rectangles_through(&incremental, p, c, &mut rects);
            found.extend(rects.into_iter().map(|r| (p, r)));
        }
        let claims = resolve(&mut incremental, found);
        let mut brute = board.clone();
        let all = all_candidates(&brute, scene.players);
        let expected = resolve(&mut brute, all);
        prop_assert_eq!(claims, expected);
        prop_assert_eq!(incremental, brute);
    }
}
