//! The fast ways of finding where a player may build (`board_targets`, and the walker of
//! `targets` in full and when it stops at the first target) agree with the rules' definition
//! square by square (`Position::can_build`, which walks forward from each square), on every
//! shared map: on the positions of seeded random games, bombing included, and on boards filled
//! at random (also after bombs took transitions away), holes and transitions left standing
//! by direct writes included.

use super::board_targets::BoardTargets;
use super::properties::shared_maps;
use super::square_set::SquareSet;
use super::targets::TargetSearch;
use super::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Checks every player of `position`, with and without an override stone; says how many
/// (player, override) cases the fast ways were used for (a board that cannot be walked back
/// uses the definition itself).
fn check(position: &Position, what: &str) -> usize {
    let squares = &position.map.squares;
    let topology = position.map.topology();
    let reversible = topology.reversible(squares);
    let mut checked = 0;
    for player in 1..=position.players() {
        for overrides in [0, 1] {
            let mut p = position.clone();
            p.overrides[player as usize - 1] = overrides;
            let expected: Vec<usize> = (0..squares.len())
                .filter(|&t| p.can_build(player, t))
                .collect();
            let context = format!("{what}, player {player}, {overrides} override stones");
            assert_eq!(p.building_targets(player), expected, "{context}");
            assert_eq!(
                p.has_building_move(player),
                !expected.is_empty(),
                "{context}"
            );
            if !reversible {
                continue;
            }
            let may_override = overrides > 0;
            let mut board = SquareSet::new(squares.len());
            BoardTargets::new(squares, topology, player, may_override)
                .expect("every course map is small enough")
                .run(&mut board);
            assert_eq!(
                board.iter().collect::<Vec<_>>(),
                expected,
                "board: {context}"
            );
            let mut walked = SquareSet::new(squares.len());
            let walker = TargetSearch::new(squares, topology, player, may_override);
            walker.run(&mut walked, false);
            assert_eq!(
                walked.iter().collect::<Vec<_>>(),
                expected,
                "walker: {context}"
            );
            let mut first = SquareSet::new(squares.len());
            assert_eq!(
                walker.run(&mut first, true),
                !expected.is_empty(),
                "{context}"
            );
            assert!(first.iter().all(|t| expected.contains(&t)), "{context}");
            checked += 1;
        }
    }
    checked
}

#[test]
fn on_random_games_the_fast_targets_are_the_rules_targets() {
    let mut rng = ChaCha8Rng::seed_from_u64(32);
    let mut checked = 0;
    for (name, map) in shared_maps() {
        let mut position = Position::new(map.clone());
        let mut ply = 0;
        while position.phase != Phase::Over {
            if ply % 3 == 0 {
                checked += check(&position, &format!("{name} ply {ply}"));
            }
            let moves = position.legal_moves();
            let m = moves[rng.random_range(0..moves.len())];
            position.play(position.to_move, m).unwrap();
            ply += 1;
        }
    }
    assert!(checked > 2000, "{checked} cases");
}

/// A square at random: mostly stones of any player, some free or special squares, expansion
/// stones and, now and then, a hole written over a square (its transitions stay).
fn random_square(rng: &mut ChaCha8Rng, players: u8) -> Square {
    match rng.random_range(0..20) {
        0..=11 => Square::Stone(rng.random_range(1..=players)),
        12..=14 => Square::Empty,
        15 => Square::Choice,
        16 => Square::Bonus,
        17 => Square::Inversion,
        18 => Square::Expansion,
        _ => Square::Hole,
    }
}

/// Every step from every square as the step table takes it (`Map::step_index`) and as the
/// rules file states it (`Map::step`: the ordinary neighbour unless it is off the board or a
/// hole, else the transition there), so that the definition `check` compares with does not
/// rest on the table.
fn same_steps(map: &Map, what: &str) {
    for index in 0..map.squares.len() {
        let (x, y) = (index % map.width, index / map.width);
        for dir in Direction::ALL {
            let stated = map
                .step(x, y, dir)
                .map(|((nx, ny), on)| (map.index(nx, ny), on));
            assert_eq!(
                map.step_index(index, dir),
                stated,
                "{what}: ({x},{y}) {dir}"
            );
        }
    }
}

/// The start of a game on `map`, or (`bombed`) the position after a seeded random game's
/// building phase and a few bombs, whose blasts took squares and transitions away.
fn start_or_bombed(map: &Map, bombed: bool, rng: &mut ChaCha8Rng) -> Position {
    let mut position = Position::new(map.clone());
    let mut bombs = 0;
    while bombed && position.phase != Phase::Over && bombs < 4 {
        bombs += usize::from(position.phase == Phase::Bombing);
        let moves = position.legal_moves();
        let m = moves[rng.random_range(0..moves.len())];
        position.play(position.to_move, m).unwrap();
    }
    position
}

#[test]
fn on_boards_filled_at_random_the_fast_targets_are_the_rules_targets() {
    let mut rng = ChaCha8Rng::seed_from_u64(2019);
    let (mut checked, mut walked_back) = (0, 0);
    for (name, map) in shared_maps() {
        for round in 0..12 {
            let mut position = start_or_bombed(map, round % 2 == 1, &mut rng);
            let players = position.players();
            for square in position.map.squares.iter_mut() {
                // Holes stay holes but in the last rounds, where squares are dug out of them
                // too (the transitions a bomb removed stay removed).
                if *square != Square::Hole || round >= 8 {
                    *square = random_square(&mut rng, players);
                }
            }
            let reversible = position.map.topology().reversible(&position.map.squares);
            walked_back += usize::from(reversible);
            let what = format!("{name}, random board {round}");
            same_steps(&position.map, &what);
            checked += check(&position, &what);
        }
    }
    assert!(
        checked > 1500 && walked_back > 250,
        "{checked} cases, {walked_back} boards"
    );
}

/// A bomb takes a transition away from a square that stays: the step from there becomes an
/// ordinary one, into the hole it faced; written over, that hole is a square a line passes.
#[test]
fn a_step_a_bomb_made_ordinary_is_walked() {
    // (0,0) leaves to the right through a transition to (4,1), facing the hole (1,0).
    let text = "2\n0\n1 0\n2 5\n1 - 2 0 0\n0 0 0 0 0\n0 0 2 <-> 4 1 4\n";
    let mut position = Position::new(Map::parse(text).unwrap());
    let far_end = position.map.index(4, 1);
    position.map.make_holes(&[far_end]);
    assert!(position.map.transitions.is_empty());
    let hole = position.map.index(1, 0);
    position.map.squares[hole] = Square::Stone(2);
    assert_eq!(position.building_targets(1), vec![position.map.index(3, 0)]);
    assert!(check(&position, "a transition bombed away") > 0);
}
