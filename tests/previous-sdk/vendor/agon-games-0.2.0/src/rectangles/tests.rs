//! Each rule of `docs/games/rectangles.md` on a small hand-made board.

use super::board::{colour, Board, Cell, FILLED, UNPAINTED};
use super::claims::{resolve, Rect};
use super::game::{Config, End, Game};
use super::protocol::Action;
use super::session::{default_placement, notation, parse_notation, RectanglesRules};
use super::Direction::{self, *};
use crate::contract::{GameRules, Rejection};
use crate::protocol::{self, Reply};
use crate::transcript::PlainFiles;

fn config(n: usize, players: usize, robots: usize) -> Config {
    Config::with(n, players, robots)
}

/// A board from text rows: `.` unpainted, `#` filled, `a`.. a player's colour.
fn board(rows: &[&str]) -> Board {
    let n = rows.len();
    let cells = rows
        .iter()
        .flat_map(|r| r.chars())
        .map(|ch| match ch {
            '.' => UNPAINTED,
            '#' => FILLED,
            c => colour((c as u8 - b'a') as usize),
        })
        .collect();
    Board::from_cells(n, 8, cells).expect("a square board")
}

fn placed(n: usize, robots: Vec<Vec<Cell>>) -> Game {
    let players = robots.len();
    let mut game = Game::new(config(n, players, robots[0].len()));
    game.place(robots).unwrap();
    game
}

#[test]
fn robots_paint_the_cells_they_stand_on_and_moves_apply_at_once() {
    // Rules file, "A round", 2 and 3.
    let mut game = placed(5, vec![vec![Cell::new(0, 0)], vec![Cell::new(4, 4)]]);
    assert_eq!(game.board.at(0, 0), colour(0));
    assert_eq!(game.board.at(4, 4), colour(1));
    game.step(vec![vec![East], vec![North]]).unwrap();
    assert_eq!(
        game.robots,
        vec![vec![Cell::new(0, 1)], vec![Cell::new(3, 4)]]
    );
    // Unoccupied cells keep their paint.
    assert_eq!(game.board.at(0, 0), colour(0));
    assert_eq!(game.board.at(0, 1), colour(0));
    assert_eq!(game.board.at(3, 4), colour(1));
    assert_eq!(game.rounds, 1);
}

#[test]
fn a_move_off_the_board_leaves_the_robot_where_it_is() {
    // Rules file, "A round", 2; row 0 is North (ours).
    let mut game = placed(3, vec![vec![Cell::new(0, 0)], vec![Cell::new(2, 2)]]);
    game.step(vec![vec![North], vec![East]]).unwrap();
    assert_eq!(
        game.robots,
        vec![vec![Cell::new(0, 0)], vec![Cell::new(2, 2)]]
    );
    game.step(vec![vec![West], vec![South]]).unwrap();
    assert_eq!(
        game.robots,
        vec![vec![Cell::new(0, 0)], vec![Cell::new(2, 2)]]
    );
}

#[test]
fn robots_of_two_players_on_one_cell_unpaint_it_and_one_players_robots_share_freely() {
    // Rules file, "A round", 3 (the 2003 rule).
    let mut game = placed(
        5,
        vec![
            vec![Cell::new(2, 1), Cell::new(2, 2)],
            vec![Cell::new(2, 3), Cell::new(0, 0)],
        ],
    );
    assert_eq!(game.board.at(2, 1), colour(0));
    // Player 0's robots meet on (2, 2): still its colour; player 1 steps onto (2, 2) as well.
    game.step(vec![vec![East, Stay], vec![West, Stay]]).unwrap();
    assert_eq!(game.board.at(2, 2), UNPAINTED);
    // They part: the cell stays unpainted until one player's robot alone paints it again.
    game.step(vec![vec![West, Stay], vec![Stay, Stay]]).unwrap();
    assert_eq!(game.board.at(2, 2), UNPAINTED);
    game.step(vec![vec![Stay, Stay], vec![East, Stay]]).unwrap();
    assert_eq!(game.board.at(2, 2), colour(0));
    let mut game = placed(
        4,
        vec![
            vec![Cell::new(1, 1), Cell::new(1, 1)],
            vec![Cell::new(3, 3); 2],
        ],
    );
    assert_eq!(game.board.at(1, 1), colour(0));
    game.step(vec![vec![Stay, Stay], vec![Stay, Stay]]).unwrap();
    assert_eq!(game.board.at(1, 1), colour(0));
}

#[test]
fn filled_cells_take_no_paint() {
    // Rules file, "Setup" and "A round", 3.
    let mut game = placed(5, vec![vec![Cell::new(0, 0)], vec![Cell::new(4, 4)]]);
    game.board.set(Cell::new(0, 1), FILLED);
    game.step(vec![vec![East], vec![Stay]]).unwrap();
    assert_eq!(game.robots[0][0], Cell::new(0, 1));
    assert_eq!(game.board.at(0, 1), FILLED);
}

#[test]
fn closing_a_ring_claims_its_interior_and_the_boundary_stays_painted() {
    // Rules file, "A round", 4: a 3 x 3 ring claims its one interior cell; the interior needs
    // no paint.
    let mut game = placed(5, vec![vec![Cell::new(0, 0)], vec![Cell::new(4, 4)]]);
    game.board = board(&["aa...", "a.a..", "aaa..", ".....", "....b"]);
    game.robots[0][0] = Cell::new(0, 1);
    let report = game.step(vec![vec![East], vec![Stay]]).unwrap();
    assert_eq!(report.claims.len(), 1);
    assert_eq!(report.claims[0].rect, Rect::new(0, 0, 2, 2));
    assert_eq!(report.claims[0].cells, 1);
    assert_eq!(game.scores, vec![1, 0]);
    assert_eq!(game.board.render(), "aaa..\na#a..\naaa..\n.....\n....b\n");
    assert_eq!(game.idle, 0);
}

#[test]
fn painted_interior_cells_lose_their_paint_and_filled_ones_score_nothing_again() {
    // Rules file, "A round", 4.
    let mut b = board(&[
        "aaaaa", //
        "a#b.a", "a..aa", "a...a", "aaaa.",
    ]);
    b.set(Cell::new(4, 4), colour(0));
    let claims = resolve(&mut b, vec![(0, Rect::new(0, 0, 4, 4))]);
    assert_eq!(claims.len(), 1);
    // Nine interior cells, one already filled.
    assert_eq!(claims[0].cells, 8);
    assert_eq!(b.at(1, 2), FILLED);
    assert_eq!(b.at(2, 3), FILLED);
}

#[test]
fn a_rectangle_needs_three_rows_and_three_columns_and_an_unfilled_interior() {
    let mut game = placed(5, vec![vec![Cell::new(0, 0)], vec![Cell::new(4, 4)]]);
    // A 2 x 4 block of colour: no interior.
    game.board = board(&["aaaa.", "aaaa.", ".....", ".....", "....b"]);
    game.robots[0][0] = Cell::new(0, 3);
    assert!(game
        .step(vec![vec![Stay], vec![Stay]])
        .unwrap()
        .claims
        .is_empty());
    // A ring around a filled cell: nothing to score.
    game.board = board(&["aaa..", "a#a..", "aa...", ".....", "....b"]);
    game.robots[0][0] = Cell::new(2, 1);
    assert!(game
        .step(vec![vec![East], vec![Stay]])
        .unwrap()
        .claims
        .is_empty());
    assert_eq!(game.board.at(2, 2), colour(0));
    assert_eq!(game.scores, vec![0, 0]);
}

#[test]
fn claims_are_resolved_largest_first_and_a_claim_can_spoil_another() {
    // Rules file, "A round", 4 (ours): the 4 x 5 rectangle (6 cells) is claimed before the
    // 3 x 3 one (1 cell) that overlaps it; the smaller one's boundary cell (1, 2) is inside
    // the larger, is filled, and the smaller one is no longer a candidate.
    let mut b = board(&[
        "aaaaa", //
        "a.a.a", "aaa.a", "aaaaa", ".....",
    ]);
    let claims = resolve(
        &mut b,
        vec![(0, Rect::new(0, 0, 2, 2)), (0, Rect::new(0, 0, 3, 4))],
    );
    assert_eq!(claims.len(), 1);
    assert_eq!(claims[0].rect, Rect::new(0, 0, 3, 4));
    assert_eq!(claims[0].cells, 6);
}

#[test]
fn equal_claims_go_to_the_lower_player_then_the_upper_left_rectangle() {
    // Rules file, "A round", 4 (ours): ties by player, top, left, height, width.
    let mut b = board(&[
        "aaabbb", //
        "a.ab.b", "aaabbb", "......", "......", "......",
    ]);
    let claims = resolve(
        &mut b,
        vec![(1, Rect::new(0, 3, 2, 5)), (0, Rect::new(0, 0, 2, 2))],
    );
    let order: Vec<usize> = claims.iter().map(|c| c.player).collect();
    assert_eq!(order, vec![0, 1]);
    let mut b = board(&["aaaaa", "a.a.a", "aaaaa", ".....", "....."]);
    let claims = resolve(
        &mut b,
        vec![(0, Rect::new(0, 2, 2, 4)), (0, Rect::new(0, 0, 2, 2))],
    );
    let lefts: Vec<u16> = claims.iter().map(|c| c.rect.left).collect();
    // The 3 x 5 rectangle is not offered here; of the two 3 x 3 ones the left comes first.
    assert_eq!(lefts, vec![0, 2]);
}

#[test]
fn the_game_ends_after_idle_rounds_or_at_the_round_cap() {
    // Rules file, "End and result".
    let mut c = config(5, 2, 1);
    c.idle_rounds = 3;
    let mut game = Game::new(c);
    game.place(vec![vec![Cell::new(0, 0)], vec![Cell::new(4, 4)]])
        .unwrap();
    for _ in 0..2 {
        game.step(vec![vec![Stay], vec![Stay]]).unwrap();
        assert_eq!(game.end(), None);
    }
    game.step(vec![vec![Stay], vec![Stay]]).unwrap();
    assert_eq!(game.end(), Some(End::Idle));
    let mut c = config(5, 2, 1);
    c.max_rounds = 2;
    let mut game = Game::new(c);
    game.place(vec![vec![Cell::new(0, 0)], vec![Cell::new(4, 4)]])
        .unwrap();
    game.step(vec![vec![Stay], vec![Stay]]).unwrap();
    assert_eq!(game.end(), None);
    game.step(vec![vec![Stay], vec![Stay]]).unwrap();
    assert_eq!(game.end(), Some(End::RoundCap));
}

#[test]
fn equal_scores_share_a_rank_and_players_out_rank_last() {
    // Rules file, "End and result" (ours).
    let mut game = Game::new(config(5, 4, 1));
    game.scores = vec![3, 5, 3, 9];
    assert_eq!(game.ranks(), vec![3, 2, 3, 1]);
    game.out[3] = true;
    assert_eq!(game.ranks(), vec![2, 1, 2, 4]);
}

use crate::contract::raw_params as params;

#[test]
fn parameters_have_the_rules_files_defaults_and_refuse_bad_values() {
    // Rules file, "Setup" and "End and result" (ours): n = 40, p = 2, b = 8, 4n, 40n.
    let s = RectanglesRules
        .new_session(&params(&[]), &PlainFiles)
        .unwrap();
    assert_eq!(
        s.params(),
        params(&[
            ("n", "40"),
            ("players", "2"),
            ("robots", "8"),
            ("idle_rounds", "160"),
            ("max_rounds", "1600")
        ])
    );
    assert_eq!(
        RectanglesRules
            .seats_for(&params(&[("players", "4")]), &PlainFiles)
            .unwrap(),
        4
    );
    for bad in [
        ("n", "2"),
        ("n", "x"),
        ("n", "4294967296"),
        ("n", "18446744073709551615"),
        ("players", "1"),
        ("players", "9"),
        ("robots", "0"),
        ("idle_rounds", "0"),
        ("max_rounds", "-1"),
        ("colour", "red"),
    ] {
        assert!(
            RectanglesRules
                .new_session(&params(&[bad]), &PlainFiles)
                .is_err(),
            "{bad:?}"
        );
    }
}

fn answer(action: Action) -> Vec<u8> {
    protocol::encode(&Reply::new(action))
}

#[test]
fn a_round_is_applied_when_the_last_player_has_answered() {
    let mut s = RectanglesRules
        .new_session(&params(&[("n", "5"), ("robots", "2")]), &PlainFiles)
        .unwrap();
    assert_eq!(s.round(), Some(0));
    assert_eq!(s.round_seats(), vec![0, 1]);
    assert_eq!(s.to_act(), Some(0));
    let before = s.observation(1);
    s.apply_answer(
        0,
        &answer(Action::Place(vec![Cell::new(0, 0), Cell::new(1, 1)])),
    )
    .unwrap();
    // Nothing shows until the round is applied.
    assert_eq!(s.observation(1), before);
    assert_eq!(s.to_act(), Some(1));
    assert_eq!(s.round(), Some(0));
    let applied = s
        .apply_answer(
            1,
            &answer(Action::Place(vec![Cell::new(4, 4), Cell::new(4, 4)])),
        )
        .unwrap();
    assert_eq!(applied.notation, "place 4,4 4,4");
    assert_eq!(s.round(), Some(1));
    assert_eq!(s.to_act(), Some(0));
    // A placement is refused once the robots are on the board; a move needs one per robot.
    assert!(matches!(
        s.apply_answer(0, &answer(Action::Place(vec![Cell::new(0, 0); 2]))),
        Err(Rejection::Illegal(_))
    ));
    assert!(matches!(
        s.apply_answer(0, &answer(Action::Move(vec![East]))),
        Err(Rejection::Illegal(_))
    ));
    assert!(matches!(
        s.apply_answer(0, b"\xff\xff"),
        Err(Rejection::Malformed(_))
    ));
    // A player cannot answer twice in a round, nor out of its turn to be heard.
    s.apply_notation(0, "E-").unwrap();
    assert!(s.apply_notation(0, "E-").is_err());
    s.skip(1).unwrap();
    assert_eq!(s.round(), Some(2));
    assert!(s.render().contains("robots 0,1 1,1"));
}

#[test]
fn placements_are_checked_and_a_missing_one_spreads_the_robots_on_the_diagonal() {
    let mut s = RectanglesRules
        .new_session(&params(&[("n", "6"), ("robots", "3")]), &PlainFiles)
        .unwrap();
    assert!(matches!(
        s.apply_answer(0, &answer(Action::Place(vec![Cell::new(0, 6); 3]))),
        Err(Rejection::Illegal(e)) if e.contains("off the 6 x 6 board")
    ));
    assert!(s.apply_notation(0, "place 1,1").is_err());
    let skipped = s.skip(0).unwrap();
    assert_eq!(skipped.notation, "place 1,1 3,3 5,5");
    assert_eq!(
        default_placement(&config(6, 2, 3)),
        vec![Cell::new(1, 1), Cell::new(3, 3), Cell::new(5, 5)]
    );
    let random = s.play_random_legal(1, 42).unwrap();
    assert!(random.notation.starts_with("place "));
    assert_eq!(s.round(), Some(1));
    let moved = s.play_random_legal(0, 42).unwrap();
    assert_eq!(moved.notation.len(), 3);
}

#[test]
fn notation_round_trips() {
    for action in [
        Action::Place(vec![Cell::new(0, 12), Cell::new(39, 0)]),
        Action::Move(vec![North, South, East, West, Stay]),
    ] {
        assert_eq!(parse_notation(&notation(&action)), Some(action));
    }
    assert_eq!(parse_notation("NX"), None);
    assert_eq!(parse_notation("place 1;2"), None);
    assert_eq!(Direction::from_letter('-'), Some(Stay));
}

#[test]
fn a_disqualified_player_is_out_its_robots_stay_and_the_others_play_on() {
    let mut s = RectanglesRules
        .new_session(
            &params(&[("n", "5"), ("players", "3"), ("robots", "1")]),
            &PlainFiles,
        )
        .unwrap();
    for seat in 0..3 {
        s.apply_notation(seat, &format!("place {seat},0")).unwrap();
    }
    s.apply_notation(0, "E").unwrap();
    assert!(s.disqualify(1));
    assert_eq!(s.to_act(), Some(2));
    s.apply_notation(2, "E").unwrap();
    assert_eq!(s.round_seats(), vec![0, 2]);
    assert!(s
        .render()
        .contains("player 1 (b): 0 claimed, out; robots 1,0"));
    assert!(s.disqualify(2));
    let outcome = s.outcome().expect("one player left ends the game");
    assert_eq!(outcome.ranks, vec![1, 2, 2]);
    assert!(
        outcome.reason.contains("fewer than two players"),
        "{}",
        outcome.reason
    );
}

#[test]
fn a_step_toward_a_cell_goes_along_the_longer_axis_and_stays_on_the_board() {
    let from = Cell::new(5, 5);
    assert_eq!(from.step_toward(Cell::new(1, 4)), North);
    assert_eq!(from.step_toward(Cell::new(6, 9)), East);
    assert_eq!(from.step_toward(Cell::new(5, 2)), West);
    assert_eq!(from.step_toward(Cell::new(8, 8)), South);
    assert_eq!(from.step_toward(from), Stay);
    assert_eq!(Cell::new(0, 3).stepped(North, 4), Cell::new(0, 3));
    assert_eq!(Cell::new(0, 3).stepped(South, 4), Cell::new(1, 3));
    assert_eq!(Cell::new(2, 3).stepped(East, 4), Cell::new(2, 3));
    for d in Direction::ALL {
        assert_eq!(from.stepped(d, 10).stepped(d.opposite(), 10), from);
    }
}
