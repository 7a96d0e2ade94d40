//! ReversiXT maps through the CLI: every shared course map loads with the summary its file
//! states, and a bad map is refused with its file, line and column.

use agon_tests::{agon, assert_has_all, instances, run, scratch, Ran};
use serde_json::Value;

/// Every map the courses shipped: file, players, width, height, transitions, transition ends
/// facing the board (read off the files: the header gives players and height x width, each
/// `<->` line is a transition).
const MAPS: &[(&str, u64, u64, u64, u64, u64)] = &[
    ("boeseMap01.map", 2, 10, 2, 1, 0),
    ("boeseMap02.map", 2, 10, 2, 1, 0),
    ("boeseMap03.map", 2, 3, 4, 2, 0),
    ("boeseMap04.map", 2, 3, 4, 3, 0),
    ("boeseMap05.map", 2, 3, 4, 3, 0),
    ("boeseMap06.map", 2, 9, 8, 2, 0),
    ("boeseMap07.map", 2, 11, 8, 1, 0),
    ("boeseMap08.map", 2, 11, 8, 1, 0),
    ("boeseMap09.map", 2, 8, 8, 0, 0),
    ("boeseMap10.map", 3, 8, 8, 0, 0),
    ("boeseMap11.map", 2, 4, 9, 1, 0),
    ("communities.map", 8, 34, 34, 0, 0),
    ("comp2019_04_8p.map", 8, 46, 28, 8, 0),
    ("example.map", 3, 15, 15, 2, 0),
    ("exampleIntTest.map", 3, 15, 15, 2, 0),
    ("example_br0.map", 3, 15, 15, 2, 0),
    ("checkerboard.map", 8, 19, 19, 4, 0),
    ("crown.map", 4, 15, 8, 2, 0),
    ("diamond.map", 3, 27, 15, 2, 0),
    ("heart.map", 3, 15, 14, 2, 0),
    ("heartExercise3.map", 2, 15, 14, 2, 0),
    ("infinity.map", 2, 10, 6, 10, 0),
    ("scope.map", 4, 15, 13, 2, 1),
    ("window.map", 4, 17, 17, 20, 0),
    ("test_example.map", 3, 15, 15, 2, 0),
    ("globalWar.map", 4, 49, 13, 8, 0),
    ("inversions.map", 2, 32, 20, 0, 0),
    ("isles.map", 4, 20, 20, 0, 0),
    ("med.map", 3, 20, 15, 4, 0),
    ("random.map", 2, 25, 25, 260, 0),
];

fn check(path: &std::path::Path, extra: &[&str]) -> Ran {
    run(agon()
        .args(["reversixt", "check-map"])
        .args(extra)
        .arg(path))
}

#[test]
fn every_built_in_map_loads() {
    let dir = instances("reversixt");
    for &(file, players, width, height, transitions, inert) in MAPS {
        let out = check(&dir.join(file), &["--json", "--lenient"]).expect_success();
        let v: Value = serde_json::from_str(&out.stdout).unwrap();
        let got = (
            v["players"].as_u64().unwrap(),
            v["width"].as_u64().unwrap(),
            v["height"].as_u64().unwrap(),
            v["transitions"].as_u64().unwrap(),
            v["inert_transition_ends"].as_array().unwrap().len() as u64,
        );
        assert_eq!(got, (players, width, height, transitions, inert), "{file}");
        let stones = v["stones"].as_array().unwrap();
        assert_eq!(stones.len() as u64, players, "{file}");
    }
    // Every map file shipped is in the table, and built in under its name.
    let mut found = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        found += usize::from(path.extension().is_some_and(|e| e == "map"));
    }
    assert_eq!(found, MAPS.len());
    assert_eq!(
        agon_games::reversixt::session::GAME.instances.len(),
        MAPS.len()
    );
}

#[test]
fn the_summary_names_what_is_on_the_map() {
    let out = check(&instances("reversixt").join("comp2019_04_8p.map"), &[]);
    let text = out.expect_success().stdout;
    for line in [
        "players      8",
        "size         46 x 28 (width x height), 746 squares, 542 holes",
        "per player   4 override stones, 2 bombs of strength 3",
        "stones       1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 7: 2, 8: 2",
        "transitions  8",
        "specials     choice 2, inversion 4, bonus 8, expansion 4",
    ] {
        assert!(text.contains(line), "missing `{line}` in\n{text}");
    }
}

#[test]
fn a_transition_end_facing_the_board_is_refused_or_warns_when_lenient() {
    let scope = instances("reversixt").join("scope.map");
    let warning = check(&scope, &["--lenient"]).expect_success().stderr;
    assert_has_all(&warning, &["warning:", "line 19, column 1"]);
    // By default, as the course server: "transition 1 is invalid".
    let strict = check(&scope, &[]).expect_failure();
    assert!(strict
        .stderr
        .contains("an end must face the edge or a hole"));
    // A match on it is refused before any bot runs, unless the map is read leniently.
    let random = agon_tests::spec("reversixt-random", "random");
    let play = |extra: &[&str]| {
        run(agon()
            .args([
                "match",
                "--game",
                "reversixt",
                "--host",
                "inline",
                "--seed",
                "1",
            ])
            .args(["--param", &format!("map={}", scope.display())])
            .args(extra)
            .args([
                "--bot", &random, "--bot", &random, "--bot", &random, "--bot", &random,
            ]))
    };
    let refused = play(&[]).expect_failure();
    assert!(
        refused
            .stderr
            .contains("an end must face the edge or a hole"),
        "{}",
        refused.stderr
    );
    play(&["--param", "lenient_map=true"]).expect_success();
}

#[test]
fn a_bad_map_is_refused_with_its_place() {
    let dir = scratch("reversixt-maps");
    let cases = [
        (
            "players.map",
            "9\n0\n0 0\n1 1\n0\n",
            "line 1, column 1: the number of players",
        ),
        (
            "square.map",
            "2\n0\n0 0\n2 2\n0 1\n2 q\n",
            "line 6, column 3: invalid square `q`",
        ),
        (
            "truncated.map",
            "2\n0\n0 0\n2 2\n0 1\n",
            "truncated board at (0,1)",
        ),
        (
            "delimiter.map",
            "2\n0\n0 0\n1 2\n1 2\n0 0 6 <> 1 0 2\n",
            "line 6, column 7: bad transition delimiter",
        ),
        (
            "huge.map",
            "2\n0\n0 0\n5 1001\n",
            "line 4, column 3: the width must be 1 to 1000",
        ),
    ];
    for (name, text, expected) in cases {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        let err = check(&path, &[]).expect_failure().stderr;
        assert!(
            err.contains(name) && err.contains(expected),
            "{name}: {err}"
        );
    }
    let binary = dir.join("binary.map");
    std::fs::write(&binary, [0xff, 0xfe, 0x00]).unwrap();
    let out = check(&binary, &[]).expect_failure();
    assert!(out.stderr.contains("not a text file"));
    let out = check(&dir.join("missing.map"), &[]).expect_failure();
    assert!(out.stderr.contains("cannot read"));
}

#[test]
fn the_benchmark_measures_move_generation_games_and_search_on_course_maps() {
    let map = instances("reversixt").join("comp2019_04_8p.map");
    let out = run(agon()
        .args([
            "bench",
            "--suite",
            "reversixt",
            "--seconds",
            "0.2",
            "--json",
        ])
        .arg("--reversixt-map")
        .arg(&map));
    let figures: Value = serde_json::from_str(&out.expect_success().stdout).unwrap();
    let names: Vec<&str> = figures
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["name"].as_str().unwrap())
        .collect();
    assert_eq!(names.len(), 3, "{names:?}");
    assert!(names[0].contains("legal-move generation"));
    assert!(names[1].contains("greedy vs greedy"));
    assert!(names[2].contains("seed search"));
    for figure in figures.as_array().unwrap() {
        assert!(figure["median"].as_f64().unwrap() > 0.0, "{figure}");
    }
    let bad = run(agon()
        .args(["bench", "--suite", "reversixt", "--seconds", "0.2"])
        .args(["--reversixt-map", "no-such.map"]));
    assert!(bad.expect_failure().stderr.contains("no-such.map"));
}
