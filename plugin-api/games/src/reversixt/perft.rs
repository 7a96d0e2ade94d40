//! Perft for ReversiXT: how many move sequences of a given length follow fixed positions on the
//! course maps. The counts pin down move generation and play together (captures through
//! transitions, override stones, the squares' effects, the change to bombing, blasts that take
//! transitions with them), so a faster implementation must reproduce them exactly.

use super::tests::course_map;
use super::*;

/// The number of move sequences of length `depth` from `position`, each move played with
/// `Position::play`; a sequence that reaches the end of the game early is not counted.
fn perft(position: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = position.legal_moves();
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .iter()
        .map(|&m| {
            let mut next = position.clone();
            next.play(next.to_move, m)
                .unwrap_or_else(|e| panic!("{m:?} was generated and refused: {e}"));
            perft(&next, depth - 1)
        })
        .sum()
}

/// The position `plies` moves into a game on `map`, move k being the legal move at
/// `(7k + 3) mod count` of the list, so the positions depend on the list's order as well.
fn after(map: &str, plies: usize) -> Position {
    let mut position = Position::new(course_map(map));
    for ply in 0..plies {
        let moves = position.legal_moves();
        let m = moves[(ply * 7 + 3) % moves.len()];
        position.play(position.to_move, m).unwrap();
    }
    position
}

/// What a case's position is there to cover.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stage {
    /// Building, with ordinary moves.
    Building,
    /// Building, and the mover's every move is an override stone.
    OverridesOnly,
    /// Bombing.
    Bombing,
}

fn stage(position: &Position) -> Stage {
    let overrides_only = position.legal_moves().iter().all(|m| {
        matches!(
            position.map.square(m.x, m.y),
            Square::Stone(_) | Square::Expansion
        )
    });
    match position.phase {
        Phase::Building if overrides_only => Stage::OverridesOnly,
        Phase::Building => Stage::Building,
        _ => Stage::Bombing,
    }
}

/// For each case on `map`: (plies into the game, the stage there, depth, move sequences).
fn check(map: &str, cases: &[(usize, Stage, u32, u64)]) {
    for &(plies, expected_stage, depth, count) in cases {
        let position = after(map, plies);
        assert_eq!(
            stage(&position),
            expected_stage,
            "{map} after {plies} plies"
        );
        assert_eq!(
            perft(&position, depth),
            count,
            "{map} after {plies} plies, depth {depth}"
        );
    }
}

// The counts were computed with the rules as of commit fbef921, before the move generation
// was rewritten for speed.

/// Eight players, overrides and bombs, transitions into holes: the benchmark's map.
#[test]
fn perft_eight_player_course_map() {
    use Stage::*;
    check(
        "comp2019_04_8p",
        &[
            (0, Building, 3, 392),
            (60, Building, 3, 13_768),
            (250, Building, 2, 826),
            (394, OverridesOnly, 3, 40_460),
            // Two plies before the bombing starts.
            (760, Building, 3, 746),
            (762, Bombing, 2, 527_200),
        ],
    );
}

/// Three players, choice, inversion and bonus squares, two transitions.
#[test]
fn perft_example_map() {
    use Stage::*;
    check(
        "example",
        &[
            (0, Building, 4, 76_512),
            (60, Building, 3, 8_585),
            (130, Bombing, 2, 13_266),
        ],
    );
}

/// Ten transitions on a small board; three bombs in a row.
#[test]
fn perft_infinity() {
    use Stage::*;
    check(
        "infinity",
        &[
            (0, Building, 6, 17_720),
            (30, Building, 4, 53_713),
            (66, Bombing, 3, 8_016),
        ],
    );
}

/// 260 transitions.
#[test]
fn perft_many_transitions() {
    use Stage::*;
    check(
        "random",
        &[
            (0, Building, 2, 112_139),
            (200, Building, 2, 14_671),
            (350, Bombing, 2, 348_690),
        ],
    );
}

/// Transition ends that face the board (read leniently), and a player left with overrides only.
#[test]
fn perft_scope() {
    use Stage::*;
    check(
        "scope",
        &[(0, Building, 9, 228), (5, OverridesOnly, 9, 128)],
    );
}

/// Four players, twenty transitions.
#[test]
fn perft_window() {
    use Stage::*;
    check(
        "window",
        &[
            (0, Building, 3, 19_760),
            (100, Building, 3, 10_789),
            (199, Bombing, 2, 35_312),
        ],
    );
}

/// Eight players with 69 override stones each.
#[test]
fn perft_checkerboard() {
    use Stage::*;
    check(
        "checkerboard",
        &[
            (300, Building, 2, 8_646),
            (722, OverridesOnly, 2, 30_966),
            (729, Bombing, 2, 36_768),
        ],
    );
}

/// The other course maps, mid-game.
#[test]
fn perft_more_course_maps() {
    use Stage::*;
    check("crown", &[(40, Building, 4, 841)]);
    check("globalWar", &[(150, Building, 3, 1_056)]);
    check("heart", &[(20, Building, 3, 2_588)]);
    check("inversions", &[(100, Building, 3, 3_139)]);
    check("communities", &[(200, Building, 2, 295)]);
}

/// The course's edge cases of transitions (see `tests` for each one's story).
#[test]
fn perft_tricky_maps() {
    use Stage::*;
    check("boeseMap02", &[(0, Building, 2, 2)]);
    check("boeseMap05", &[(0, Building, 3, 1)]);
    check("boeseMap08", &[(0, OverridesOnly, 3, 6)]);
    check("boeseMap11", &[(0, OverridesOnly, 3, 1)]);
}
