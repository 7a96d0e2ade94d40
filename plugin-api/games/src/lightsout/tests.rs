use super::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn apply(board: &mut Board, pattern: &Board) {
    for click in pattern.cells() {
        board.click(click).unwrap();
    }
}

fn random_clicks(rows: usize, cols: usize, rng: &mut ChaCha8Rng) -> Board {
    let mut board = Board::new(rows, cols);
    for r in 0..rows {
        for c in 0..cols {
            if rng.random_bool(0.5) {
                board
                    .click(Click {
                        row: r as u32,
                        col: c as u32,
                    })
                    .unwrap();
            }
        }
    }
    board
}

#[test]
fn parses_both_alphabets_and_crlf() {
    let b = Board::parse("#.#\r\n010\r\n...").unwrap();
    assert_eq!((b.rows(), b.cols()), (3, 3));
    assert!(b.get(0, 0) && !b.get(0, 1) && b.get(1, 1) && !b.get(2, 2));
    assert_eq!(b.render(), "#.#\n.#.\n...\n");
    assert_eq!(Board::parse("##\n##\n\n").unwrap().black_cells(), 4);
}

#[test]
fn parse_errors_say_where() {
    let e = Board::parse("..\n...\n").unwrap_err();
    assert_eq!((e.line, e.column), (2, 3));
    assert!(e.problem.contains("3 cells, the first row 2"), "{e}");
    let e = Board::parse(".#\n.x\n").unwrap_err();
    assert_eq!((e.line, e.column), (2, 2));
    assert!(e.problem.contains("`x` is not a cell"), "{e}");
    assert!(Board::parse("").unwrap_err().problem.contains("empty"));
    assert!(Board::parse("\n\n").is_err());
}

#[test]
fn a_click_flips_the_cell_and_its_orthogonal_neighbours() {
    let mut b = Board::new(3, 3);
    b.click(Click { row: 1, col: 1 }).unwrap();
    assert_eq!(b.render(), ".#.\n###\n.#.\n");
    b.click(Click { row: 0, col: 0 }).unwrap();
    assert_eq!(b.render(), "#..\n.##\n.#.\n");
    let off = b.click(Click { row: 3, col: 0 }).unwrap_err();
    assert_eq!(off.to_string(), "click (3, 0) is off the 3 x 3 board");
}

/// Known nullities: 3x3 0, 4x4 4, 5x5 2 (a quarter of 5x5 boards is solvable).
#[test]
fn known_nullities() {
    assert_eq!(nullity(3, 3), 0);
    assert_eq!(nullity(4, 4), 4);
    assert_eq!(nullity(5, 5), 2);
    assert_eq!(nullity(1, 1), 0);
    for r in 1..=12 {
        for c in 1..=12 {
            assert_eq!(nullity(r, c), nullity(c, r), "{r}x{c} and its transpose");
        }
    }
}

/// The seed paper's conjecture, for the first hundred lengths.
#[test]
fn one_row_boards_follow_the_conjecture() {
    for n in 1..=100 {
        assert_eq!(nullity(1, n), usize::from(n % 3 == 2), "1 x {n}");
    }
}

/// Against enumeration of every click set on small boards.
#[test]
fn fractions_match_enumeration_on_small_boards() {
    for rows in 1..=4usize {
        for cols in 1..=4usize {
            let cells = rows * cols;
            let mut reachable = std::collections::HashSet::new();
            for mask in 0u32..(1 << cells) {
                let mut b = Board::new(rows, cols);
                for i in 0..cells {
                    if mask >> i & 1 == 1 {
                        b.click(Click {
                            row: (i / cols) as u32,
                            col: (i % cols) as u32,
                        })
                        .unwrap();
                    }
                }
                reachable.insert(b.render());
            }
            assert_eq!(
                reachable.len() << nullity(rows, cols),
                1 << cells,
                "{rows}x{cols}"
            );
        }
    }
}

#[test]
fn solutions_clear_random_solvable_boards() {
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    for (rows, cols) in [
        (1, 7),
        (7, 1),
        (5, 5),
        (4, 9),
        (9, 4),
        (17, 13),
        (30, 30),
        (64, 65),
    ] {
        for _ in 0..5 {
            let board = random_clicks(rows, cols, &mut rng);
            let analysis = Analysis::new(&board);
            assert!(analysis.solvable());
            let mut b = board.clone();
            apply(&mut b, &analysis.solution().unwrap());
            assert!(b.is_clear(), "{rows}x{cols}");
            for z in analysis.null_patterns() {
                let mut empty = Board::new(rows, cols);
                apply(&mut empty, &z);
                assert!(empty.is_clear(), "null patterns toggle nothing");
            }
        }
    }
}

#[test]
fn unsolvable_boards_come_with_an_obstruction() {
    let mut rng = ChaCha8Rng::seed_from_u64(9);
    let mut found = 0;
    for _ in 0..40 {
        let mut board = Board::new(5, 5);
        for r in 0..5 {
            for c in 0..5 {
                board.set(r, c, rng.random_bool(0.5));
            }
        }
        let analysis = Analysis::new(&board);
        if analysis.solvable() {
            continue;
        }
        found += 1;
        assert!(analysis.solution().is_none());
        let z = analysis
            .obstruction(&board)
            .expect("an unsolvable board has an obstruction");
        let overlap = board
            .cells()
            .iter()
            .filter(|c| z.get(c.row as usize, c.col as usize))
            .count();
        assert_eq!(overlap % 2, 1);
    }
    assert!(found > 20, "three quarters of 5x5 boards are unsolvable");
    // A single black corner of a 4x4 board is unsolvable.
    let mut corner = Board::new(4, 4);
    corner.set(0, 0, true);
    assert!(!Analysis::new(&corner).solvable());
}
