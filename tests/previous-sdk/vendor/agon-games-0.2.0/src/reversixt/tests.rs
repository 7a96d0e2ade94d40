use super::*;

/// A 3 x 4 two-player map written with `\r\n`, double and trailing spaces.
const SMALL: &str =
    "2\r\n1\r\n2  3 \r\n3 4\r\n0 1 2 -\r\n0 2 1  c\r\n- x i b\r\n0 0 0 <-> 2 2 4\r\n";

fn error(text: &str) -> MapError {
    Map::parse(text).expect_err("the map must be refused")
}

#[test]
fn parses_header_board_and_transitions() {
    let map = Map::parse(SMALL).unwrap();
    assert_eq!(
        (map.players, map.overrides, map.bombs, map.bomb_strength),
        (2, 1, 2, 3)
    );
    assert_eq!((map.width, map.height), (4, 3));
    assert_eq!(map.square(3, 0), Square::Hole);
    assert_eq!(map.square(3, 1), Square::Choice);
    assert_eq!(map.square(1, 2), Square::Expansion);
    assert_eq!(map.square(2, 2), Square::Inversion);
    assert_eq!(map.square(3, 2), Square::Bonus);
    assert_eq!(map.stones(), vec![2, 2]);
    assert_eq!(map.transitions.len(), 1);
    assert!(map.inert_ends.is_empty());
}

#[test]
fn a_walk_uses_a_transition_only_off_the_board_or_into_a_hole() {
    let map = Map::parse(SMALL).unwrap();
    let up = Direction::new(0).unwrap();
    let down = Direction::new(4).unwrap();
    // (0,0) going up leaves the board: the transition enters (2,2) and goes on in 4 + 4 = 0.
    assert_eq!(map.step(0, 0, up), Some(((2, 2), up)));
    // And back: (2,2) going down enters (0,0) and goes on down.
    assert_eq!(map.step(2, 2, down), Some(((0, 0), down)));
    // An ordinary step where there is one.
    assert_eq!(map.step(0, 1, up), Some(((0, 0), up)));
    // Off the board with no transition, and into a hole.
    assert_eq!(map.step(1, 0, up), None);
    assert_eq!(map.step(2, 0, Direction::new(2).unwrap()), None);
}

#[test]
fn a_square_may_be_joined_to_itself() {
    let map = Map::parse("2\n0\n0 0\n1 3\n1 0 2\n0 0 6 <-> 0 0 6\n").unwrap();
    let left = Direction::new(6).unwrap();
    let right = Direction::new(2).unwrap();
    // Leaving (0,0) to the left re-enters (0,0) heading right (6 + 4 = 10 = 2 mod 8).
    assert_eq!(map.step(0, 0, left), Some(((0, 0), right)));
}

#[test]
fn header_errors_name_the_place() {
    let e = error("9\n0\n0 0\n1 1\n0\n");
    assert_eq!((e.line, e.column), (1, 1));
    assert!(
        e.problem.contains("number of players must be 2 to 8"),
        "{e}"
    );
    let e = error("1\n0\n0 0\n1 1\n0\n");
    assert!(e.problem.contains("number of players"), "{e}");
    let e = error("2\nx\n0 0\n1 1\n0\n");
    assert_eq!((e.line, e.column), (2, 1));
    assert!(e.problem.contains("override stones"), "{e}");
    let e = error("2\n0\n0\n");
    assert_eq!((e.line, e.column), (3, 2));
    assert!(e.problem.contains("truncated header"), "{e}");
    let e = error("2\n0\n0 0\n1001 5\n");
    assert_eq!((e.line, e.column), (4, 1));
    assert!(e.problem.contains("height must be 1 to 1000"), "{e}");
    let e = error("");
    assert!(e.problem.contains("truncated header"), "{e}");
}

#[test]
fn board_errors_name_the_place() {
    let e = error("2\n0\n0 0\n2 2\n0 1\n2\n");
    assert_eq!((e.line, e.column), (6, 2));
    assert!(e.problem.contains("truncated board at (1,1)"), "{e}");
    let e = error("2\n0\n0 0\n2 2\n0 1\n2 q\n");
    assert_eq!((e.line, e.column), (6, 3));
    assert!(e.problem.contains("invalid square `q` at (1,1)"), "{e}");
    let e = error("2\n0\n0 0\n2 2\n0 1\n2 3\n");
    assert!(
        e.problem
            .contains("a stone of player 3 at (1,1) on a 2-player map"),
        "{e}"
    );
}

#[test]
fn transition_errors_name_the_place() {
    let board = "2\n0\n0 0\n2 3\n0 1 -\n2 0 0\n";
    let e = error(&format!("{board}0 0 0 -> 2 1 0\n"));
    assert_eq!((e.line, e.column), (7, 7));
    assert!(e.problem.contains("bad transition delimiter `->`"), "{e}");
    let e = error(&format!("{board}0 0 0 <-> 3 1 0\n"));
    assert_eq!((e.line, e.column), (7, 11));
    assert!(e.problem.contains("x must be 0 to 2"), "{e}");
    let e = error(&format!("{board}0 0 8 <-> 2 1 0\n"));
    assert!(e.problem.contains("direction must be 0 to 7"), "{e}");
    let e = error(&format!("{board}2 0 0 <-> 2 1 0\n"));
    assert!(e.problem.contains("(2,0) is a hole"), "{e}");
    let e = error(&format!("{board}0 0 0 <-> 2 1\n"));
    assert!(e.problem.contains("truncated transition"), "{e}");
    let e = error(&format!("{board}0 0 0 <-> 2 1 0\n0 0 0 <-> 0 1 6\n"));
    assert_eq!(e.line, 8);
    assert!(
        e.problem
            .contains("(0,0) direction 0 is already used by the transition on line 7"),
        "{e}"
    );
}

#[test]
fn an_end_facing_the_board_is_refused_and_inert_when_lenient() {
    // (0,0) direction 2 steps onto (1,0): the transition can never be entered from there.
    let text = "2\n0\n0 0\n2 3\n0 1 -\n2 0 0\n0 0 2 <-> 2 1 2\n";
    let map = Map::parse_lenient(text).unwrap();
    assert_eq!(map.inert_ends.len(), 1);
    assert_eq!(map.inert_ends[0].line, 7);
    let right = Direction::new(2).unwrap();
    assert_eq!(map.step(0, 0, right), Some(((1, 0), right)));
    // The other end still works: (2,1) going right enters (0,0) heading left.
    assert_eq!(
        map.step(2, 1, right),
        Some(((0, 0), Direction::new(6).unwrap()))
    );
    let e = Map::parse(text).unwrap_err();
    assert_eq!((e.line, e.column), (7, 1));
    assert!(
        e.problem.contains("an end must face the edge or a hole"),
        "{e}"
    );
}

/// A course map from the course maps (the project keeps them in `plugin-api/games/src/reversixt/instances`).
fn course_map(name: &str) -> Map {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../../../plugin-api/games/src/reversixt/instances")
        .join(name);
    Map::parse_lenient(&std::fs::read_to_string(&path).unwrap()).unwrap()
}

fn targets(position: &Position) -> Vec<(usize, usize, u8)> {
    position
        .legal_moves()
        .iter()
        .map(|m| (m.x, m.y, m.special))
        .collect()
}

fn at(position: &Position, x: usize, y: usize) -> Square {
    position.map.square(x, y)
}

/// boeseMap01: row 0 is a ring of player 2's stones through the transition (0,0)-left <->
/// (9,0)-right, with one empty square (3,0). Walking from (3,0) either way goes round the
/// ring and comes back to (3,0), which captures nothing; player 1's only move is (7,1), taking
/// (6,1). Then player 2 has no move, player 1 none either: phase 1 ends, nobody has a bomb,
/// the game is over and player 2 (9 stones) ranks before player 1 (3).
#[test]
fn boese_01_a_ring_through_a_transition_captures_nothing() {
    let mut position = Position::new(course_map("boeseMaps/boeseMap01.map"));
    assert_eq!(position.to_move, 1);
    assert_eq!(targets(&position), vec![(7, 1, 0)]);
    position
        .play(
            1,
            Move {
                x: 7,
                y: 1,
                special: 0,
            },
        )
        .unwrap();
    assert_eq!(at(&position, 6, 1), Square::Stone(1));
    assert_eq!(position.phase, Phase::Over);
    assert_eq!(position.map.stones(), vec![3, 9]);
    assert_eq!(position.ranks(), vec![2, 1]);
}

/// boeseMap02: from (4,0) the walk to the right passes (5..9,0), crosses the transition to
/// (0,0) and passes (0..2,0) before reaching player 1's stone at (3,0): eight stones turn.
#[test]
fn boese_02_a_capture_line_runs_through_a_transition() {
    let mut position = Position::new(course_map("boeseMaps/boeseMap02.map"));
    assert_eq!(targets(&position), vec![(4, 0, 0), (7, 1, 0)]);
    position
        .play(
            1,
            Move {
                x: 4,
                y: 0,
                special: 0,
            },
        )
        .unwrap();
    for x in 0..10 {
        assert_eq!(at(&position, x, 0), Square::Stone(1), "({x},0)");
    }
    assert_eq!(position.map.stones(), vec![11, 1]);
}

/// boeseMap03: (2,0) looking down passes (2,1), (2,2), (2,3); (2,3)'s self-transition turns
/// the walk left through (2,3) again, (1,3), (0,3); (0,3)'s transition leads up-right into
/// (0,2), player 1's stone. Down-left from (2,0), (1,1) is taken too. No other square of
/// player 1 captures.
#[test]
fn boese_03_a_self_transition_and_a_second_transition_in_one_line() {
    let mut position = Position::new(course_map("boeseMaps/boeseMap03.map"));
    assert_eq!(targets(&position), vec![(2, 0, 0)]);
    let target = position.map.index(2, 0);
    let captured: Vec<(usize, usize)> = position
        .captures(1, target)
        .iter()
        .map(|&i| (i % 3, i / 3))
        .collect();
    assert_eq!(
        captured,
        vec![(1, 1), (2, 1), (2, 2), (0, 3), (1, 3), (2, 3)]
    );
    position
        .play(
            1,
            Move {
                x: 2,
                y: 0,
                special: 0,
            },
        )
        .unwrap();
    assert_eq!(position.map.stones(), vec![8, 0]);
}

/// boeseMap11: a column of player 2's stones under a square joined to itself upward. Player 1
/// has no regular move, only overrides (it has one stone): on (3,1) it turns (3,2) and (3,3);
/// on (3,2) it turns (3,3); on (3,3) the walk up goes through the self-transition, back down
/// and returns to (3,3), so nothing turns and the override is illegal.
#[test]
fn boese_11_overrides_through_a_self_transition() {
    let position = Position::new(course_map("boeseMaps/boeseMap11.map"));
    assert_eq!(targets(&position), vec![(3, 1, 0), (3, 2, 0)]);
    let mut refused = position.clone();
    assert_eq!(
        refused.play(
            1,
            Move {
                x: 3,
                y: 3,
                special: 0
            }
        ),
        Err(IllegalMove::NoCapture(3, 3))
    );
    let mut played = position.clone();
    played
        .play(
            1,
            Move {
                x: 3,
                y: 1,
                special: 0,
            },
        )
        .unwrap();
    assert_eq!(played.overrides, vec![0, 1]);
    assert_eq!(played.map.stones(), vec![4, 0]);
    // Player 2 has no stone left, so no move; player 1 no override: nobody builds, nobody
    // has a bomb.
    assert_eq!(played.phase, Phase::Over);
}

fn position(text: &str) -> Position {
    Position::new(Map::parse(text).unwrap())
}

fn mv(x: usize, y: usize, special: u8) -> Move {
    Move { x, y, special }
}

#[test]
fn choice_swaps_all_stones_with_the_named_player() {
    let start = position("2\n0\n0 0\n1 5\n1 2 c 2 1\n");
    assert_eq!(targets(&start), vec![(2, 0, 1), (2, 0, 2)]);
    for bad in [0, 3, 20] {
        assert!(matches!(
            start.clone().play(1, mv(2, 0, bad)),
            Err(IllegalMove::Special { .. })
        ));
    }
    let mut keep = start.clone();
    keep.play(1, mv(2, 0, 1)).unwrap();
    assert_eq!(keep.map.stones(), vec![5, 0]);
    let mut swap = start;
    swap.play(1, mv(2, 0, 2)).unwrap();
    assert_eq!(swap.map.stones(), vec![0, 5]);
}

#[test]
fn inversion_passes_every_stone_to_the_next_player() {
    let mut p = position("3\n0\n0 0\n1 5\n1 2 i 3 x\n");
    p.play(1, mv(2, 0, 0)).unwrap();
    // 1 1 1 3 x becomes 2 2 2 1 x: k -> k mod 3 + 1, expansion stones untouched.
    assert_eq!(p.map.stones(), vec![1, 3, 0]);
    assert_eq!(p.map.square(4, 0), Square::Expansion);
}

#[test]
fn bonus_gives_a_bomb_or_an_override_stone() {
    let start = position("2\n0\n0 0\n1 3\n1 2 b\n");
    assert_eq!(targets(&start), vec![(2, 0, 20), (2, 0, 21)]);
    assert!(start.clone().play(1, mv(2, 0, 0)).is_err());
    let mut bomb = start.clone();
    bomb.play(1, mv(2, 0, BONUS_BOMB)).unwrap();
    assert_eq!(
        (bomb.bombs.clone(), bomb.overrides.clone()),
        (vec![1, 0], vec![0, 0])
    );
    let mut stone = start;
    stone.play(1, mv(2, 0, BONUS_OVERRIDE)).unwrap();
    assert_eq!(
        (stone.bombs.clone(), stone.overrides.clone()),
        (vec![0, 0], vec![1, 0])
    );
}

#[test]
fn an_expansion_stone_may_be_overridden_even_when_nothing_turns() {
    let start = position("2\n1\n0 0\n1 4\n1 0 x 2\n");
    // (1,0) captures nothing (an empty square breaks nothing: x then the edge); overriding
    // (2,0) turns nothing but is legal; overriding its own (0,0) is not.
    assert_eq!(targets(&start), vec![(2, 0, 0)]);
    let mut p = start.clone();
    p.play(1, mv(2, 0, 0)).unwrap();
    assert_eq!(p.map.square(2, 0), Square::Stone(1));
    assert_eq!(p.overrides, vec![0, 1]);
    assert_eq!(
        start.clone().play(1, mv(0, 0, 0)),
        Err(IllegalMove::NoCapture(0, 0))
    );
    // Without override stones player 1 has no move and is skipped; player 2 takes the
    // expansion stone by a line from (1,0).
    let mut none = position("2\n0\n0 0\n1 4\n1 0 x 2\n");
    assert_eq!(none.to_move, 2);
    assert_eq!(targets(&none), vec![(1, 0, 0)]);
    assert_eq!(none.play(1, mv(2, 0, 0)), Err(IllegalMove::NotYourTurn(2)));
    assert_eq!(
        none.play(2, mv(2, 0, 0)),
        Err(IllegalMove::NoOverride(2, 0, 2))
    );
}

/// `1 - 0 0 0 - 2` with (0,0)-left <-> (4,0)-right: nobody can capture, so bombing starts at
/// once with player 1. A bomb of strength 1 on (4,0) takes (3,0), and through the transition
/// (0,0), and the transition vanishes; one on (2,0) cannot pass the hole at (1,0).
#[test]
fn bombs_reach_through_transitions_never_through_holes() {
    let start = position("2\n0\n1 1\n1 7\n1 - 0 0 0 - 2\n0 0 6 <-> 4 0 2\n");
    assert_eq!((start.phase, start.to_move), (Phase::Bombing, 1));
    let mut p = start.clone();
    p.play(1, mv(4, 0, 0)).unwrap();
    for x in [0, 3, 4] {
        assert_eq!(p.map.square(x, 0), Square::Hole, "({x},0)");
    }
    assert_eq!(p.map.square(2, 0), Square::Empty);
    assert_eq!(p.map.step(4, 0, Direction::new(2).unwrap()), None);
    assert_eq!(
        (p.phase, p.to_move, p.bombs.clone()),
        (Phase::Bombing, 2, vec![0, 1])
    );
    p.play(2, mv(2, 0, 0)).unwrap();
    assert_eq!(p.phase, Phase::Over);
    assert_eq!(p.ranks(), vec![2, 1]);
    let mut q = start;
    q.play(1, mv(2, 0, 0)).unwrap();
    assert_eq!(q.map.square(0, 0), Square::Stone(1));
    assert_eq!(q.map.square(3, 0), Square::Hole);
    assert_eq!(q.map.square(4, 0), Square::Empty);
    assert!(q.play(1, mv(4, 0, 0)).is_err(), "player 2's turn");
}

#[test]
fn ranks_share_ties_and_put_the_disqualified_last() {
    let mut p = position("3\n0\n0 0\n1 5\n1 2 3 - 1\n");
    assert_eq!(p.phase, Phase::Over);
    assert_eq!(p.ranks(), vec![1, 2, 2]);
    p.disqualify(1);
    assert_eq!(p.ranks(), vec![3, 1, 1]);
    let mut two = position("2\n0\n0 0\n1 3\n1 2 0\n");
    assert_eq!((two.phase, two.to_move), (Phase::Building, 1));
    two.disqualify(2);
    assert_eq!(two.phase, Phase::Over);
    assert_eq!(two.ranks(), vec![1, 2]);
}

/// On every shared map, every legal first move: it turns at least one stone or overrides an
/// expansion stone, and stones plus expansion stones grow by one (a stone placed on a free
/// square) or stay (an override).
#[test]
fn first_moves_on_every_shared_map_conserve_stones() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../../../plugin-api/games/src/reversixt/instances");
    let mut checked = 0;
    for sub in ["", "boeseMaps", "initialMaps", "testMaps"] {
        for entry in std::fs::read_dir(root.join(sub)).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_none_or(|e| e != "map") {
                continue;
            }
            let start = Position::new(
                Map::parse_lenient(&std::fs::read_to_string(&path).unwrap()).unwrap(),
            );
            let total = |p: &Position| {
                p.map.stones().iter().sum::<usize>() + p.map.count(Square::Expansion)
            };
            for m in start.legal_moves() {
                let square = start.map.square(m.x, m.y);
                let target = start.map.index(m.x, m.y);
                let turned = start.captures(start.to_move, target).len();
                assert!(
                    turned > 0 || square == Square::Expansion,
                    "{}: {m:?}",
                    path.display()
                );
                let mut after = start.clone();
                after.play(start.to_move, m).unwrap();
                let grew = matches!(
                    square,
                    Square::Empty | Square::Choice | Square::Inversion | Square::Bonus
                );
                assert_eq!(
                    total(&after),
                    total(&start) + usize::from(grew),
                    "{}: {m:?}",
                    path.display()
                );
                checked += 1;
            }
        }
    }
    assert!(checked > 100, "{checked} moves");
}

fn captured_squares(position: &Position, player: u8, x: usize, y: usize) -> Vec<(usize, usize)> {
    let w = position.map.width;
    position
        .captures(player, position.map.index(x, y))
        .iter()
        .map(|&i| (i % w, i / w))
        .collect()
}

/// boeseMap04: from (0,2) the walk left crosses to (0,0) heading right and ends at player 1's
/// (2,0); down-left crosses to (0,3) heading right, through (2,3)'s self-transition turning up,
/// and ends at (2,0) too; up-right takes (1,1). All eight of player 2's stones turn.
#[test]
fn boese_04_three_transitions_feed_one_move() {
    let mut position = Position::new(course_map("boeseMaps/boeseMap04.map"));
    assert_eq!(targets(&position), vec![(0, 2, 0)]);
    assert_eq!(
        captured_squares(&position, 1, 0, 2),
        vec![
            (0, 0),
            (1, 0),
            (1, 1),
            (2, 1),
            (2, 2),
            (0, 3),
            (1, 3),
            (2, 3)
        ]
    );
    position.play(1, mv(0, 2, 0)).unwrap();
    assert_eq!(position.map.stones(), vec![10, 0]);
}

/// boeseMap05: the same transitions, but player 1's (2,3) ends the down-left line early, so
/// (2,1) and (2,2) stay player 2's.
#[test]
fn boese_05_a_line_ends_at_the_first_own_stone() {
    let mut position = Position::new(course_map("boeseMaps/boeseMap05.map"));
    assert_eq!(targets(&position), vec![(0, 2, 0)]);
    assert_eq!(
        captured_squares(&position, 1, 0, 2),
        vec![(0, 0), (1, 0), (1, 1), (0, 3), (1, 3)]
    );
    position.play(1, mv(0, 2, 0)).unwrap();
    assert_eq!(position.map.stones(), vec![8, 2]);
}

/// boeseMap06: from (4,2) right runs through (7,2)'s transition down column 2 to player 1's
/// (2,6); left runs through (1,2)'s transition down column 6 to (6,6). The two lines share
/// (2,2) and (6,2); all 14 of player 2's stones turn once.
#[test]
fn boese_06_two_lines_cross_through_transitions() {
    let mut position = Position::new(course_map("boeseMaps/boeseMap06.map"));
    assert_eq!(targets(&position), vec![(4, 2, 0)]);
    assert_eq!(captured_squares(&position, 1, 4, 2).len(), 14);
    position.play(1, mv(4, 2, 0)).unwrap();
    assert_eq!(position.map.stones(), vec![17, 0]);
}

/// boeseMap07: from (6,0) down column 6, through (6,7)'s transition into (1,2) heading right,
/// along row 2 (passing (6,2) a second time) to player 1's (8,2): all 13 stones turn.
#[test]
fn boese_07_a_line_crosses_itself() {
    let mut position = Position::new(course_map("boeseMaps/boeseMap07.map"));
    assert_eq!(targets(&position), vec![(6, 0, 0)]);
    position.play(1, mv(6, 0, 0)).unwrap();
    assert_eq!(position.map.stones(), vec![15, 0]);
}

/// boeseMap08: player 1 has no free square to take, only its override stone; overriding its
/// own (6,0) or (8,2) turns all 13 of player 2's stones, its own (9,2) turns nothing.
#[test]
fn boese_08_overriding_ones_own_stone() {
    let position = Position::new(course_map("boeseMaps/boeseMap08.map"));
    let moves = targets(&position);
    assert!(
        moves.contains(&(6, 0, 0)) && moves.contains(&(8, 2, 0)),
        "{moves:?}"
    );
    assert!(!moves.contains(&(9, 2, 0)) && !moves.contains(&(10, 2, 0)));
    for (x, y) in [(6, 0), (8, 2)] {
        let mut p = position.clone();
        p.play(1, mv(x, y, 0)).unwrap();
        assert_eq!(p.map.stones(), vec![16, 0], "({x},{y})");
        assert_eq!(p.overrides, vec![0, 1]);
    }
}

/// boeseMap09: the choice square (4,4) turns two stones in each of the eight directions, all
/// 16 of player 2's; naming player 2 then hands player 2 all 25 stones.
#[test]
fn boese_09_choice_after_capturing_everything() {
    let position = Position::new(course_map("boeseMaps/boeseMap09.map"));
    let moves = targets(&position);
    assert!(moves.contains(&(4, 4, 1)) && moves.contains(&(4, 4, 2)));
    assert_eq!(captured_squares(&position, 1, 4, 4).len(), 16);
    let mut keep = position.clone();
    keep.play(1, mv(4, 4, 1)).unwrap();
    assert_eq!(keep.map.stones(), vec![25, 0]);
    let mut swap = position;
    swap.play(1, mv(4, 4, 2)).unwrap();
    assert_eq!(swap.map.stones(), vec![0, 25]);
}

/// boeseMap10: three players; the inversion square (4,4) turns the ring of player 3 and the
/// ring of player 2 (16 stones), then every stone passes on: player 1's 25 go to player 2.
#[test]
fn boese_10_inversion_after_capturing_two_players() {
    let mut position = Position::new(course_map("boeseMaps/boeseMap10.map"));
    assert_eq!(captured_squares(&position, 1, 4, 4).len(), 16);
    position.play(1, mv(4, 4, 0)).unwrap();
    assert_eq!(position.map.stones(), vec![0, 25, 0]);
}

/// A board bombed down to holes ends the game even while bombs are left: a bomb needs a
/// non-hole square (rules file, "Phase 2"). Here one bomb of strength 1 clears the 2 x 2 board
/// and player 2 still holds a bomb.
#[test]
fn the_game_ends_when_no_square_is_left_to_bomb() {
    let mut p = position("2\n0\n1 1\n2 2\n1 2\n2 1\n");
    assert_eq!(p.phase, Phase::Bombing, "nobody can build");
    assert_eq!(p.to_move, 1);
    p.play(1, mv(0, 0, 0)).unwrap();
    assert_eq!(p.map.count(Square::Hole), 4);
    assert_eq!(p.bombs, [0, 1]);
    assert_eq!(p.phase, Phase::Over);
    assert!(p.legal_moves().is_empty());
}

#[test]
fn header_values_beyond_what_a_game_can_use_are_refused_where_they_stand() {
    // A 2 x 2 board: 4 squares.
    let cases = [
        (
            "2\n4294967295\n0 0\n2 2\n1 2\n2 1\n",
            (2, 1),
            "override stones must be at most the board's 4 squares",
        ),
        (
            "2\n0\n5 0\n2 2\n1 2\n2 1\n",
            (3, 1),
            "bombs must be at most the board's 4 squares",
        ),
        (
            "2\n0\n1  4294967295\n2 2\n1 2\n2 1\n",
            (3, 4),
            "the bomb strength must be at most the board's 4 squares",
        ),
    ];
    for (text, place, problem) in cases {
        let e = error(text);
        assert_eq!((e.line, e.column), place, "{e}");
        assert!(e.problem.contains(problem), "{e}");
    }
    // The limits themselves are fine, and holes count: a position's text, whose bombs made
    // holes, reads back with the header it was loaded with.
    Map::parse("2\n4\n4 4\n2 2\n1 2\n2 1\n").unwrap();
    Map::parse("2\n4\n4 4\n2 2\n- -\n- 1\n").unwrap();
}

#[test]
fn columns_are_counted_on_a_map_written_on_one_line() {
    // Every token on line 1: the column of the bad square is the character count before it.
    let e = error("2 0 0 0 2 2 1 2 2 q");
    assert_eq!((e.line, e.column), (1, 19), "{e}");
    let e = error("2 0 0 0 1 2 ä ä");
    assert_eq!((e.line, e.column), (1, 13), "{e}");
}

#[test]
fn a_blast_removes_every_transition_touching_its_squares_and_no_other() {
    // Row of 5: transitions (0,0)-left <-> (4,0)-right and (1,0)-up <-> (3,0)-down.
    let mut p = position("2\n0\n1 0\n1 5\n1 0 0 0 2\n0 0 6 <-> 4 0 2\n1 0 0 <-> 3 0 4\n");
    assert_eq!(p.map.transitions.len(), 2);
    p.map.make_holes(&[1]);
    assert_eq!(p.map.transitions.len(), 1);
    let up = Direction::new(0).unwrap();
    assert_eq!(p.map.step(3, 0, Direction::new(4).unwrap()), None);
    assert_eq!(p.map.step(1, 0, up), None);
    // The other transition still works both ways.
    assert!(p.map.step(0, 0, Direction::new(6).unwrap()).is_some());
    assert!(p.map.step(4, 0, Direction::new(2).unwrap()).is_some());
}
