use crate::bombing::{self, Blast, BOMB_CANDIDATES};
use crate::eval::{self, evaluate, Evaluator, WIN};
use crate::moves::{self, Overrides};
use crate::search::{choose, Limits, Mode};
use crate::topology::Topology;
use agon_games::reversixt::{Map, Move, Phase, Position, Square};
use std::time::{Duration, Instant};

/// Every course map built into the rules crate, with its name; at least 25 must parse (there
/// are 30).
fn course_maps() -> Vec<(String, Map)> {
    let maps: Vec<(String, Map)> = agon_games::reversixt::session::GAME
        .instances
        .iter()
        .filter_map(|map| Some((map.name.to_string(), Map::parse_lenient(map.text).ok()?)))
        .collect();
    assert!(maps.len() >= 25, "only {} course maps parse", maps.len());
    maps
}

/// The text of the built-in course map `name`.
fn course_map_text(name: &str) -> &'static str {
    let instances = agon_games::reversixt::session::GAME.instances;
    agon_games::contract::built_in(instances, name)
        .unwrap_or_else(|| panic!("no built-in map `{name}`"))
        .text
}

fn course_map(name: &str) -> Map {
    Map::parse_lenient(course_map_text(name)).unwrap()
}

fn position(text: &str) -> Position {
    Position::new(Map::parse_lenient(text).unwrap())
}

/// A deterministic xorshift, enough to pick random moves.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

fn sorted(mut moves: Vec<Move>) -> Vec<(usize, usize, u8)> {
    let mut v: Vec<_> = moves.drain(..).map(|m| (m.y, m.x, m.special)).collect();
    v.sort_unstable();
    v
}

fn is_legal(position: &Position, m: Move) -> bool {
    position.clone().play(position.to_move, m).is_ok()
}

#[test]
fn the_fast_generator_equals_legal_moves_on_every_course_map() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut compared = 0;
    for (name, map) in course_maps() {
        let mut position = Position::new(map);
        // The step table of the start serves the whole building phase (holes come with bombs).
        let topo = Topology::new(&position.map);
        for ply in 0..40 {
            if position.phase != Phase::Building {
                break;
            }
            let legal = position.legal_moves();
            assert_eq!(
                sorted(moves::all_moves(&position, &topo)),
                sorted(legal.clone()),
                "{name}, ply {ply}"
            );
            // Every searched move is legal too, and some move is searched.
            let searched = moves::building_moves(&position, &topo, Overrides::WhenForced);
            assert!(!searched.is_empty(), "{name}, ply {ply}");
            assert!(searched.iter().all(|c| legal.contains(&c.mv)));
            compared += 1;
            let m = legal[rng.below(legal.len())];
            position.play(position.to_move, m).unwrap();
        }
    }
    assert!(compared > 300, "{compared} positions compared");
}

#[test]
fn the_search_returns_a_legal_move_on_every_course_map_within_200_ms() {
    for mode in [Mode::Paranoid, Mode::MaxN] {
        for (name, map) in course_maps() {
            let position = Position::new(map);
            if position.legal_moves().is_empty() {
                continue;
            }
            let start = Instant::now();
            let limits = Limits {
                deadline: Some(start + Duration::from_millis(200)),
                max_depth: None,
            };
            let result = choose(&position, mode, &limits);
            let spent = start.elapsed();
            assert!(
                is_legal(&position, result.best),
                "{name} {mode:?}: {result:?}"
            );
            // One node past the deadline at most: generous slack for a loaded test machine.
            assert!(
                spent < Duration::from_millis(400),
                "{name} {mode:?}: {spent:?}"
            );
        }
    }
}

#[test]
fn a_depth_limit_is_respected() {
    let position = Position::new(course_map("infinity"));
    for mode in [Mode::Paranoid, Mode::MaxN] {
        for depth in 1..=3 {
            let limits = Limits {
                deadline: None,
                max_depth: Some(depth),
            };
            let result = choose(&position, mode, &limits);
            assert_eq!(result.depth, depth, "{mode:?}");
            assert!(is_legal(&position, result.best));
        }
    }
    // Depth 1 visits the root's children only: the four opening moves of Reversi.
    let one = choose(
        &position,
        Mode::Paranoid,
        &Limits {
            deadline: None,
            max_depth: Some(1),
        },
    );
    assert_eq!(one.nodes, 4);
}

#[test]
fn an_expired_deadline_still_gives_a_legal_move() {
    let position = Position::new(course_map("comp2019_04_8p"));
    let limits = Limits {
        deadline: Some(Instant::now()),
        max_depth: None,
    };
    let result = choose(&position, Mode::Paranoid, &limits);
    assert_eq!(result.depth, 0);
    assert!(is_legal(&position, result.best));
}

#[test]
fn a_finished_search_stops_deepening() {
    // Player 1 has (0,0) and (4,0); either way the game is over within 3 plies, so a depth
    // limit of 50 is never reached: the search stops once every leaf is a finished game.
    let position = position("2\n0\n0 0\n1 5\n0 2 1 2 0\n");
    let limits = Limits {
        deadline: None,
        max_depth: Some(50),
    };
    let result = choose(&position, Mode::Paranoid, &limits);
    assert!(result.depth <= 3, "{result:?}");
    assert!(is_legal(&position, result.best));
}

/// Top-left corner of a 3 x 3 board; row 0 is full, so every stone on it is stable along it.
const STABLE: &str = "2\n1\n0 1\n3 3\n1 1 1\n2 2 0\n0 0 0\n";

#[test]
fn stability_by_hand() {
    let p = position(STABLE);
    // Player 1: three stones on the top edge, each stable along all 4 lines: (0,0) and (2,0)
    // are corners; (1,0) has no square above (3 lines) and lies on the full row.
    assert_eq!(eval::stability(&p, 1), 12);
    // Player 2: (0,1) is on the left edge (horizontal and both diagonals have no square on one
    // side) but not vertically; (1,1) only horizontally, next to (0,1), stable that way.
    assert_eq!(eval::stability(&p, 2), 4);

    // A corner stone is stable along all 4 lines, and a transition takes that away: leaving
    // (0,0) to the left now enters (2,0), which is free, so the row can still be played.
    let corner = position("2\n0\n0 0\n3 3\n1 2 0\n2 0 0\n0 0 0\n");
    assert_eq!(eval::stability(&corner, 1), 4);
    let wrapped = position("2\n0\n0 0\n3 3\n1 2 0\n2 0 0\n0 0 0\n0 0 6 <-> 2 0 2\n");
    assert_eq!(eval::stability(&wrapped, 1), 3);
    // A hole is as good as an edge: (1,1) has a hole to its right and one below.
    let holes = position("2\n0\n0 0\n3 3\n0 2 0\n0 1 -\n0 - 0\n");
    assert_eq!(eval::stability(&holes, 1), 2);
}

#[test]
fn uncertainty_values_only_the_bonus_assets() {
    // A choice square remains: b_bomb + b_override only, 2(2r+1)^2 * 2 + 2 sqrt(3*4) * 3.
    let p = position("2\n3\n2 1\n3 4\n1 0 0 c\n0 2 0 0\n0 0 1 -\n");
    assert!(eval::in_uncertainty(&p.map));
    let want = 2.0 * 9.0 * 2.0 + 2.0 * 12f64.sqrt() * 3.0;
    assert!((evaluate(&p, 1) - want).abs() < 1e-9, "{}", evaluate(&p, 1));
    assert!((evaluate(&p, 2) - want).abs() < 1e-9);
}

#[test]
fn the_building_value_by_hand() {
    // Player 1: mobility 3 ((0,2), (1,2), (2,2)), stability 12, one override stone worth
    // 2 sqrt(9) = 6, no bombs anywhere so no clustering: 21.
    let p = position(STABLE);
    assert!((evaluate(&p, 1) - 21.0).abs() < 1e-9, "{}", evaluate(&p, 1));

    // One bomb each, strength 1: b_bomb = 2 * 9 = 18, and clustering counts. The reach 2r = 2
    // covers the whole 3 x 3 board from every stone: weights -1 for our 3 stones, and
    // r_2 = 1 * 9 / (1 * (|2 - 3| + 1)) = 4.5 for the rival's 2. Per own stone (itself left
    // out): (-2 + 9) / 25, three stones: l = 0.84; 4 of 9 squares free: 4 (5/9) l.
    let p = position("2\n1\n1 1\n3 3\n1 1 1\n2 2 0\n0 0 0\n");
    assert!((eval::clustering(&p, 1) - 0.84).abs() < 1e-9);
    let want = 3.0 + 12.0 + 18.0 + 6.0 + 4.0 * (5.0 / 9.0) * 0.84;
    assert!((evaluate(&p, 1) - want).abs() < 1e-9, "{}", evaluate(&p, 1));
}

#[test]
fn a_finished_game_is_valued_by_rank() {
    // Nobody can build and nobody has a bomb: over at once, player 1 first with 2 stones to 1.
    let p = position("2\n0\n0 0\n1 3\n1 1 2\n");
    assert_eq!(p.phase, Phase::Over);
    assert_eq!(evaluate(&p, 1), WIN + 1.0);
    assert_eq!(evaluate(&p, 2), -WIN - 1.0);
    let mut e = Evaluator::new(&p);
    assert_eq!(e.evaluate_all(&p), vec![WIN + 1.0, -WIN - 1.0]);
}

#[test]
fn blasts_count_what_a_bomb_destroys() {
    // A full board: nobody can build, so the game opens in the bombing phase. The transition
    // joins (0,0) going up with (2,2) going down, so blasts reach round it.
    let text = "2\n0\n1 1\n3 4\n1 1 2 2\n2 1 - 2\n1 2 2 1\n0 0 0 <-> 2 2 4\n";
    let start = position(text);
    assert_eq!(start.phase, Phase::Bombing);
    let mut blast = Blast::default();
    let mut counts = [0u32; 9];
    for t in 0..start.map.squares.len() {
        if start.map.squares[t] == Square::Hole {
            continue;
        }
        blast.count(&start, t, &mut counts);
        let mut after = start.clone();
        let m = Move {
            x: t % 4,
            y: t / 4,
            special: 0,
        };
        after.play(start.to_move, m).unwrap();
        let (before, now) = (start.map.stones(), after.map.stones());
        assert_eq!(counts[1] as usize, before[0] - now[0], "{m:?}");
        assert_eq!(counts[2] as usize, before[1] - now[1], "{m:?}");
    }
    // The candidates are legal, at most BOMB_CANDIDATES, best first, and the best destroys
    // more of the rival's stones than of ours (e.g. (3,1): four of player 2's, one of ours).
    let targets = bombing::targets(&start, &mut blast);
    assert!(!targets.is_empty() && targets.len() <= BOMB_CANDIDATES);
    assert!(targets.iter().all(|c| is_legal(&start, c.mv)));
    assert!(targets.windows(2).all(|w| w[0].key >= w[1].key));
    let best = targets[0].mv;
    blast.count(&start, best.y * 4 + best.x, &mut counts);
    assert!(counts[2] > counts[1], "{best:?}: {counts:?}");
}

/// The test opponent: the move after which it owns the most stones (the first such).
fn greedy(position: &Position) -> Move {
    let p = position.to_move;
    let mut best = None;
    for m in position.legal_moves() {
        let mut after = position.clone();
        after.play(p, m).unwrap();
        let own = after.map.stones()[p as usize - 1];
        if best.is_none_or(|(n, _)| own > n) {
            best = Some((own, m));
        }
    }
    best.unwrap().1
}

/// Plays seed (`mode`, a fixed depth of 3 plies, so the result does not depend on the
/// machine's speed or load) as `seed` against greedy, asserts that seed wins and
/// returns the final stones.
fn play_greedy(map: Map, seed: u8, mode: Mode) -> Vec<usize> {
    let mut position = Position::new(map);
    let mut plies = 0;
    while position.phase != Phase::Over {
        let m = if position.to_move == seed {
            let limits = Limits {
                deadline: None,
                max_depth: Some(3),
            };
            choose(&position, mode, &limits).best
        } else {
            greedy(&position)
        };
        position.play(position.to_move, m).unwrap();
        plies += 1;
        assert!(plies < 1000, "the game does not end");
    }
    let ranks = position.ranks();
    let stones = position.map.stones();
    assert_eq!(
        ranks[seed as usize - 1],
        1,
        "seed as player {seed}: {stones:?}"
    );
    assert!(
        stones[seed as usize - 1] > stones[2 - seed as usize],
        "seed as player {seed}: {stones:?}"
    );
    stones
}

#[test]
fn seed_beats_greedy_on_a_two_player_map() {
    // The course map `infinity`: the 8 x 8 opening of Reversi on a 6 x 10 cylinder (top and
    // bottom rows joined by transitions), 5 override stones each. Its bombs are taken away:
    // with 2 bombs of strength 3 each on a board 6 high, the first two bombs always wipe out
    // every stone, so the course map always ends 0 : 0. Seed plays both sides.
    let text = course_map_text("infinity");
    let mut lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[2].trim(),
        "2 3",
        "the bombs line of infinity.map changed"
    );
    lines[2] = "0 3";
    let map = Map::parse_lenient(&lines.join("\n")).unwrap();
    for seed in [1, 2] {
        let stones = play_greedy(map.clone(), seed, Mode::Paranoid);
        println!("infinity without bombs, seed as player {seed}: {stones:?}");
    }
}
