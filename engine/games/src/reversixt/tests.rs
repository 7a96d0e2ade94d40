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
fn an_end_facing_the_board_is_inert_unless_strict() {
    // (0,0) direction 2 steps onto (1,0): the transition can never be entered from there.
    let text = "2\n0\n0 0\n2 3\n0 1 -\n2 0 0\n0 0 2 <-> 2 1 2\n";
    let map = Map::parse(text).unwrap();
    assert_eq!(map.inert_ends.len(), 1);
    assert_eq!(map.inert_ends[0].line, 7);
    let right = Direction::new(2).unwrap();
    assert_eq!(map.step(0, 0, right), Some(((1, 0), right)));
    // The other end still works: (2,1) going right enters (0,0) heading left.
    assert_eq!(
        map.step(2, 1, right),
        Some(((0, 0), Direction::new(6).unwrap()))
    );
    let e = Map::parse_strict(text).unwrap_err();
    assert_eq!((e.line, e.column), (7, 1));
    assert!(
        e.problem.contains("an end must face the edge or a hole"),
        "{e}"
    );
}
