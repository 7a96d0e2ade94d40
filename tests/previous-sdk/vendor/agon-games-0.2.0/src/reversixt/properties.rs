//! Properties of the rules over seeded random games on every shared map (issue #7, "Tests"):
//! building moves conserve stones (one more on the board for a plain move, none for an
//! override), every legal building move turns a stone or takes an expansion stone, bombs never
//! add stones, ranks are well formed, and a position's map text reads back to the same board.

use super::*;
use proptest::prelude::*;
use std::sync::OnceLock;

fn shared_maps() -> &'static [(String, Map)] {
    static MAPS: OnceLock<Vec<(String, Map)>> = OnceLock::new();
    MAPS.get_or_init(|| {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../../../plugin-api/games/src/reversixt/instances");
        let mut maps = Vec::new();
        for sub in ["", "boeseMaps", "initialMaps", "testMaps"] {
            let mut paths: Vec<_> = std::fs::read_dir(root.join(sub))
                .unwrap()
                .map(|e| e.unwrap().path())
                .filter(|p| p.extension().is_some_and(|e| e == "map"))
                .collect();
            paths.sort();
            for path in paths {
                let text = std::fs::read_to_string(&path).unwrap();
                maps.push((
                    path.display().to_string(),
                    Map::parse_lenient(&text).unwrap(),
                ));
            }
        }
        maps
    })
}

/// Stones of every player plus expansion stones.
fn occupied(p: &Position) -> usize {
    p.map.stones().iter().sum::<usize>() + p.map.count(Square::Expansion)
}

/// The same board: squares, and where every step from every square leads.
fn same_board(a: &Map, b: &Map) -> bool {
    a.width == b.width
        && a.height == b.height
        && a.squares == b.squares
        && (0..a.squares.len()).all(|i| {
            Direction::ALL
                .iter()
                .all(|&d| a.step_index(i, d) == b.step_index(i, d))
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn random_games_keep_the_invariants(
        map in 0..shared_maps().len(),
        draws in proptest::collection::vec(any::<u32>(), 1..40),
    ) {
        let (name, map) = &shared_maps()[map];
        let mut position = Position::new(map.clone());
        for draw in draws {
            if position.phase == Phase::Over {
                break;
            }
            let moves = position.legal_moves();
            prop_assert!(!moves.is_empty(), "{name}: player {} to move has no move", position.to_move);
            let m = moves[draw as usize % moves.len()];
            let target = position.map.index(m.x, m.y);
            let square = position.map.squares[target];
            let mover = position.to_move;
            let before = occupied(&position);
            let phase = position.phase;
            let turned = position.captures(mover, target).len();
            position.play(mover, m).unwrap();
            match phase {
                Phase::Building => {
                    prop_assert!(turned > 0 || square == Square::Expansion, "{name}: {m:?}");
                    let grew = usize::from(!matches!(square, Square::Stone(_) | Square::Expansion));
                    prop_assert_eq!(occupied(&position), before + grew, "{}: {:?}", name, m);
                }
                Phase::Bombing => prop_assert!(occupied(&position) <= before),
                Phase::Over => unreachable!(),
            }
        }
        let ranks = position.ranks();
        prop_assert_eq!(ranks.len(), map.players as usize);
        prop_assert!(ranks.iter().all(|&r| (1..=map.players as usize).contains(&r)));
        prop_assert!(ranks.contains(&1));
        let reread = Map::parse_lenient(&position.map.to_text()).unwrap();
        prop_assert!(same_board(&reread, &position.map), "{name}: the map text differs");
    }
}
