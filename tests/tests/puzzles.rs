//! Puzzles end to end: `agon solve` on the course's Flow Free puzzles and on Lights Out boards,
//! the engine's verdicts on wrong answers, the Lights Out tables, puzzle runs.

use agon_games::contract::{GameRules, RawParams, Rejection, StartInfo};
use agon_games::flowfree::session::FlowFreeRules;
use agon_games::lightsout::session::LightsOutRules;
use agon_games::registry::Registry;
use agon_sdk::protocol::{self, flowfree as ff, lightsout as lo, Reply};
use agon_tests::{agon_ok, agon_output, instances, scratch, spec, tournament_standings};
use serde_json::Value;
use std::path::{Path, PathBuf};

const COURSE_PUZZLES: [&str; 9] = [
    "input55.txt",
    "input77.txt",
    "input88.txt",
    "input991.txt",
    "input10101.txt",
    "input10102.txt",
    "input1212.txt",
    "input1214.txt",
    "input1414.txt",
];

fn puzzle(name: &str) -> PathBuf {
    instances("flowfree").join(name)
}

fn solve(game: &str, bot: &str, file: &Path) -> Value {
    let out = agon_ok(&[
        "solve",
        "--game",
        game,
        "--bot",
        bot,
        "--puzzle",
        file.to_str().unwrap(),
        "--json",
        "--move-ms",
        "30000",
    ]);
    serde_json::from_str(&out).unwrap()
}

#[test]
fn smart_smarter_and_fast_solve_every_course_puzzle() {
    let official = agon_tests::read(instances("flowfree").join("solutions/output55.txt"));
    for name in COURSE_PUZZLES {
        for bot in ["fast", "smarter", "smart"] {
            let v = solve("flowfree", &spec("flowfree-solver", bot), &puzzle(name));
            assert_eq!(v["solved"], true, "{bot} on {name}: {v}");
            assert!(
                v["attempts"].as_u64().is_some(),
                "{bot} reports attempted assignments"
            );
            let grid = v["solution"].as_str().unwrap();
            assert!(grid.ends_with("\r\n"), "the course's CRLF format");
            if name == "input55.txt" {
                assert_eq!(
                    grid.trim_end(),
                    official
                        .trim_end()
                        .replace('\n', "\r\n")
                        .replace("\r\r", "\r")
                );
            }
        }
    }
}

#[test]
fn dumb_solves_the_sample_and_reports_its_cut_off() {
    let v = solve(
        "flowfree",
        &spec("flowfree-solver", "dumb"),
        &puzzle("input55.txt"),
    );
    assert_eq!(v["solved"], true);
    let v = solve(
        "flowfree",
        &format!("{}?cutoff=5000", spec("flowfree-solver", "dumb")),
        &puzzle("input991.txt"),
    );
    assert_eq!(v["solved"], false);
    assert!(
        v["reason"]
            .as_str()
            .unwrap()
            .contains("cut-off: stopped after 5000 attempted assignments"),
        "{v}"
    );
    assert_eq!(v["attempts"], 5000);
}

#[test]
fn bad_puzzle_files_are_refused_naming_the_place() {
    let dir = scratch("puzzle-parse");
    let cases = [
        (
            "flowfree",
            "A_B\r\n_AB\r\nC__",
            "line 3, column 1: letter C appears 1 time",
        ),
        (
            "flowfree",
            "A_A\r\n__",
            "line 2, column 3: this row has 2 cells",
        ),
        (
            "lightsout",
            "#.\n.x\n",
            "line 2, column 2: `x` is not a cell",
        ),
    ];
    for (game, text, message) in cases {
        let file = dir.join(format!("{game}.txt"));
        std::fs::write(&file, text).unwrap();
        let bot = if game == "flowfree" {
            spec("flowfree-solver", "fast")
        } else {
            spec("lightsout-gf2", "gf2")
        };
        let out = agon_output(&[
            "solve",
            "--game",
            game,
            "--bot",
            &bot,
            "--puzzle",
            file.to_str().unwrap(),
        ]);
        assert_eq!(out.status.code(), Some(1));
        let stderr = out.stderr;
        assert!(
            stderr.contains(message) && stderr.contains(&format!("{game}.txt")),
            "{stderr}"
        );
    }
}

#[test]
fn lights_out_boards_are_solved_minimally_or_shown_unsolvable() {
    let dir = scratch("lightsout");
    let gf2 = spec("lightsout-gf2", "gf2");
    let plus = dir.join("plus.txt");
    std::fs::write(&plus, ".#.\n###\n.#.\n").unwrap();
    let v = solve("lightsout", &gf2, &plus);
    assert_eq!(v["solved"], true);
    assert_eq!(v["clicks"], 1.0);
    assert_eq!(v["solution"], "minimal clicks: 1,1");
    // A 5x5 board with one black corner cannot be cleared: the engine's rank test agrees.
    let corner = dir.join("corner.txt");
    std::fs::write(&corner, "#....\n.....\n.....\n.....\n.....\n").unwrap();
    let v = solve("lightsout", &gf2, &corner);
    assert_eq!(v["solved"], true, "a correct unsolvable claim counts: {v}");
    assert!(v["solution"].as_str().unwrap().starts_with("unsolvable: "));
    // All 5x5 boards made of one click: the answer is that click (minimal).
    for cell in 0..25i32 {
        let mut board = vec![vec!['.'; 5]; 5];
        let (r, c) = (cell / 5, cell % 5);
        for (dr, dc) in [(0, 0), (1, 0), (-1, 0), (0, 1), (0, -1)] {
            let (rr, cc) = (r + dr, c + dc);
            if (0..5).contains(&rr) && (0..5).contains(&cc) {
                board[rr as usize][cc as usize] = '#';
            }
        }
        let text: String = board
            .iter()
            .map(|row| row.iter().collect::<String>() + "\n")
            .collect();
        let file = dir.join(format!("one{cell}.txt"));
        std::fs::write(&file, text).unwrap();
        let v = solve("lightsout", &gf2, &file);
        assert_eq!(v["clicks"], 1.0, "cell {cell}: {v}");
    }
}

fn start(rules: &dyn GameRules, params: &RawParams) -> Box<dyn agon_games::contract::Session> {
    let session = rules.new_session(params, &agon_engine::GameFiles).unwrap();
    let info = StartInfo {
        seed: 0,
        start_budget_ms: 0,
        move_budget_ms: 0,
        bot_params: RawParams::new(),
    };
    let _ = session.start_message(0, &info);
    session
}

#[test]
fn the_engine_rejects_wrong_answers_with_the_reason() {
    let instance = |text: &str| RawParams::from([("instance".to_string(), text.to_string())]);
    // Lights Out: a wrong click set, a bitmap of the wrong size, a false claim of minimality,
    // a false claim of unsolvability.
    let lights = instance(".#.\n###\n.#.\n");
    let answer = |a: lo::Answer| protocol::encode(&Reply::new(a));
    let clicks = |cells: &[(usize, usize)], minimal: bool| lo::Answer::Clicks {
        clicks: lo::pack(3, 3, |r, c| cells.contains(&(r, c))),
        proven_minimal: minimal,
    };
    let mut s = start(&LightsOutRules, &lights);
    match s.apply_answer(0, &answer(clicks(&[(0, 0)], false))) {
        Err(Rejection::Illegal(reason)) => assert!(reason.contains("still black"), "{reason}"),
        other => panic!("{other:?}"),
    }
    let short = answer(lo::Answer::Clicks {
        clicks: vec![],
        proven_minimal: false,
    });
    assert!(
        matches!(s.apply_answer(0, &short), Err(Rejection::Malformed(r)) if r.contains("needs 2"))
    );
    // A false claim of minimality: on 4x4 (nullity 4) the board of one click at (0,0) is also
    // cleared by that click plus a pattern that toggles nothing, which is longer.
    use agon_games::lightsout::{Analysis, Board, Click};
    let mut one = Board::new(4, 4);
    one.click(Click { row: 0, col: 0 }).unwrap();
    let z = Analysis::new(&one).null_pattern(0);
    let longer: Vec<(usize, usize)> = (0..4)
        .flat_map(|r| (0..4).map(move |c| (r, c)))
        .filter(|&(r, c)| z.get(r, c) ^ (r == 0 && c == 0))
        .collect();
    assert!(longer.len() > 1);
    let mut s4 = start(&LightsOutRules, &instance(&one.render()));
    let claim = lo::Answer::Clicks {
        clicks: lo::pack(4, 4, |r, c| longer.contains(&(r, c))),
        proven_minimal: true,
    };
    match s4.apply_answer(0, &answer(claim)) {
        Err(Rejection::Illegal(r)) => assert!(r.contains("but 1 clear the board"), "{r}"),
        other => panic!("{other:?}"),
    }
    let honest = lo::Answer::Clicks {
        clicks: lo::pack(4, 4, |r, c| longer.contains(&(r, c))),
        proven_minimal: false,
    };
    assert!(
        s4.apply_answer(0, &answer(honest)).is_ok(),
        "a longer solution is still a solution"
    );
    let lie = answer(lo::Answer::Unsolvable {
        reason: "trust me".into(),
    });
    assert!(
        matches!(s.apply_answer(0, &lie), Err(Rejection::Illegal(r)) if r.contains("the board is solvable"))
    );
    assert!(matches!(
        s.apply_answer(0, &[9, 9, 9]),
        Err(Rejection::Malformed(_))
    ));
    assert!(s.apply_answer(0, &answer(clicks(&[(1, 1)], true))).is_ok());
    // Flow Free: the verifier's reason reaches the fault.
    let text = agon_tests::read(puzzle("input55.txt"));
    let mut s = start(&FlowFreeRules, &instance(&text));
    let mut cells: Vec<u8> =
        std::fs::read_to_string(instances("flowfree").join("solutions/output55.txt"))
            .unwrap()
            .bytes()
            .filter(u8::is_ascii_uppercase)
            .collect();
    cells[6] = b'Y';
    let wrong = protocol::encode(&Reply::new(ff::Answer::Solved { cells }));
    match s.apply_answer(0, &wrong) {
        Err(Rejection::Illegal(reason)) => {
            assert!(reason.starts_with("row 1, column 2"), "{reason}")
        }
        other => panic!("{other:?}"),
    }
    assert!(Registry::builtin().get("flowfree").is_ok());
}

#[test]
fn the_lights_out_table_and_the_conjecture() {
    let out = agon_ok(&[
        "lightsout",
        "table",
        "--rows",
        "1..5",
        "--cols",
        "1..5",
        "--json",
    ]);
    let v: Value = serde_json::from_str(&out).unwrap();
    let f = &v["fractions"];
    assert_eq!(f[4][4], 0.25, "5x5: a quarter solvable");
    assert_eq!(f[3][3], 0.0625, "4x4: one in 16");
    assert_eq!(f[2][2], 1.0);
    assert_eq!(f[0][1], 0.5, "1x2");
    for r in 0..5 {
        for c in 0..5 {
            assert_eq!(f[r][c], f[c][r], "{r}x{c} equals its transpose");
        }
    }
    let table = agon_ok(&["lightsout", "table", "--rows", "1..30", "--cols", "1..30"]);
    assert_eq!(table.lines().count(), 32);
    let conjecture = agon_ok(&["lightsout", "conjecture", "--max-n", "1000"]);
    assert!(conjecture.contains("holds for every n <= 1000"));
    let bad = agon_output(&["lightsout", "table", "--rows", "5..2"]);
    assert!(bad.stderr.contains("--rows `5..2`"));
}

/// A puzzle run: every solver on every instance, graded with the same journal and report.
#[test]
fn a_puzzle_run_grades_every_solver_on_every_instance() {
    let dir = scratch("puzzle-run");
    let mut text = String::from("game = \"flowfree\"\nhost = \"thread\"\npuzzles = [");
    for name in ["input55.txt", "input77.txt", "input1414.txt"] {
        text.push_str(&format!("\"{}\", ", puzzle(name).display()));
    }
    text.push_str("]\n");
    for bot in ["fast", "smart"] {
        text.push_str(&format!(
            "[[entrant]]\nname = \"{bot}\"\nbot = \"{}\"\n",
            spec("flowfree-solver", bot)
        ));
    }
    text.push_str(&format!(
        "[[entrant]]\nname = \"dumb\"\nbot = \"{}?cutoff=2000\"\n",
        spec("flowfree-solver", "dumb")
    ));
    let cfg = dir.join("run.toml");
    std::fs::write(&cfg, text).unwrap();
    let out_dir = dir.join("out");
    let s = tournament_standings(&cfg, &out_dir);
    let rows = s["standings"].as_array().unwrap();
    let points = |name: &str| {
        rows.iter().find(|r| r["name"] == name).unwrap()["points"]
            .as_f64()
            .unwrap()
    };
    assert_eq!(points("fast"), 3.0);
    assert_eq!(points("smart"), 3.0);
    assert!(points("dumb") < 3.0);
    assert!(rows[0].get("rating").is_none(), "no ratings for puzzles");
    assert_eq!(s["per_param"].as_array().unwrap().len(), 3);
    assert!(s.get("timing").is_none(), "times stay out of the standings");
    assert!(s.get("crosstable").is_none());
    let timing = agon_tests::read(out_dir.join("timing.csv"));
    assert!(timing.contains("input1414.txt,fast,1,1,"));
    assert_eq!(timing.lines().count(), 1 + 9);
    // Each record replays: the instance travels in the record.
    let records: Vec<PathBuf> = std::fs::read_dir(out_dir.join("records"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(records.len(), 9);
    for r in records {
        agon_ok(&["replay", "verify", r.to_str().unwrap()]);
    }
    // A puzzle game without puzzles is refused, naming the key.
    std::fs::write(
        &cfg,
        "game = \"lightsout\"\n[[entrant]]\nbot = \"x.so:y\"\n",
    )
    .unwrap();
    let out = agon_output(&["tournament", "plan", cfg.to_str().unwrap()]);
    assert!(out.stderr.contains("puzzles: lightsout is a puzzle game"));
}

/// A large board through the default (process) host: the packed protocol carries it both ways,
/// and the solver's search of a huge null space stays within its memory and time.
#[test]
fn a_large_board_is_solved_through_the_process_host() {
    use agon_games::lightsout::Board;
    use rand::{Rng, SeedableRng};
    let n = 1500;
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(4);
    let board = Board::clicked(n, n, |_, _| rng.random_bool(0.5));
    let dir = scratch("lightsout-large");
    let file = dir.join("large.txt");
    std::fs::write(&file, board.render()).unwrap();
    let v = solve("lightsout", &spec("lightsout-gf2", "gf2"), &file);
    assert_eq!(v["solved"], true, "{}", v["reason"]);
}

/// A puzzle is one answer: the fault policies that pass a turn or play a random legal action
/// for a seat have nothing to do, and the puzzle stays unanswered.
#[test]
fn puzzles_refuse_to_skip_or_play_a_random_answer() {
    use agon_games::contract::puzzle::{no_random_answer, no_turn_to_skip};
    let instance = |text: &str| RawParams::from([("instance".to_string(), text.to_string())]);
    let lights_out: &dyn GameRules = &LightsOutRules;
    let flow_free: &dyn GameRules = &FlowFreeRules;
    for (rules, text) in [(lights_out, "#.\n.#\n"), (flow_free, "A_A\n")] {
        let mut session = start(rules, &instance(text));
        assert_eq!(session.skip(0), Err(no_turn_to_skip()), "{}", rules.name());
        assert_eq!(
            session.play_random_legal(0, 7),
            Err(no_random_answer()),
            "{}",
            rules.name()
        );
        assert_eq!(
            session.to_act(),
            Some(0),
            "{} is still to answer",
            rules.name()
        );
        assert!(session.outcome().is_none());
    }
}

/// `agon solve` takes the seeds `agon match` takes: given, the record keeps them (so a solve is
/// repeated exactly); left out, a seed is drawn and kept all the same.
#[test]
fn solve_takes_and_records_the_match_seeds() {
    let dir = scratch("solve-seeds");
    let secret = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff";
    let bot = spec("lightsout-gf2", "gf2");
    let solve = |record: &Path, seeds: &[&str]| {
        let mut args = vec![
            "solve",
            "--game",
            "lightsout",
            "--bot",
            &bot,
            "--puzzle",
            "all_on_5x5",
            "--record",
            record.to_str().unwrap(),
        ];
        args.extend(seeds);
        agon_ok(&args);
        serde_json::from_str::<Value>(&std::fs::read_to_string(record).unwrap()).unwrap()
    };
    let given = solve(
        &dir.join("given.json"),
        &["--seed", "42", "--seed-secret", secret],
    );
    assert_eq!(given["seed"], 42);
    assert_eq!(given["seed_secret"], secret);
    let drawn = solve(&dir.join("drawn.json"), &[]);
    assert!(
        drawn["seed"].is_u64() && drawn["seed_secret"].is_string(),
        "{drawn}"
    );
}
