//! A tournament folder under misuse: reports written at once, a tampered journal or plan, a
//! journal that is a link, leftovers of a full disk, absurd concurrency. None may panic, lose or
//! damage work, or pass silently.

use agon_tests::{agon, agon_ok as ok, agon_output, assert_has, scratch, spec, standings, Ran};
use serde_json::Value;
use std::path::{Path, PathBuf};

fn refused(args: &[&str]) -> String {
    let stderr = agon_output(args).expect_failure().stderr;
    assert!(!stderr.contains("panicked"), "{args:?} panicked: {stderr}");
    stderr
}

/// A small finished tournament (6 Breakthrough games between random bots on threads).
fn finished(name: &str) -> (PathBuf, PathBuf) {
    let dir = scratch(name);
    let random = spec("breakthrough-random", "random");
    let cfg = dir.join("t.toml");
    std::fs::write(
        &cfg,
        format!(
            "game = \"breakthrough\"\nseed = 3\ngames_per_pairing = 2\nhost = \"thread\"\n\
             [[entrant]]\nname = \"a\"\nbot = \"{random}\"\n\
             [[entrant]]\nname = \"b\"\nbot = \"{random}\"\n\
             [[entrant]]\nname = \"c\"\nbot = \"{random}\"\n"
        ),
    )
    .unwrap();
    let out = dir.join("out");
    agon_tests::tournament_standings(&cfg, &out);
    (dir, out)
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// Tournaments judge budgets on the bots' CPU clock by default, and the report says so.
#[test]
fn tournaments_default_to_the_cpu_clock_and_say_so() {
    let (_dir, out) = finished("folder-clock");
    assert_eq!(standings(&out)["tournament"]["clock"], "cpu");
    let md = agon_tests::read(out.join("report.md"));
    assert_has(&md, "on the cpu budget clock");
    let html = agon_tests::read(out.join("report.html"));
    assert!(html.contains("on the cpu budget clock"));
    let plan: Value = serde_json::from_str(&agon_tests::read(out.join("tournament.json"))).unwrap();
    assert_eq!(plan["settings"]["clock"], "cpu");
}

#[test]
fn reports_written_at_once_all_succeed() {
    let (_dir, out) = finished("folder-reports");
    let expected = standings(&out);
    let mut report = agon();
    report
        .args(["tournament", "report", s(&out)])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped());
    for _ in 0..10 {
        let children: Vec<_> = (0..3).map(|_| report.spawn().unwrap()).collect();
        for child in children {
            Ran::new(&report, child.wait_with_output().unwrap()).expect_success();
        }
    }
    assert_eq!(standings(&out), expected);
    let leftovers: Vec<_> = std::fs::read_dir(&out)
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().contains(".tmp."))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

#[test]
fn a_tampered_journal_is_named_repaired_and_its_games_replayed() {
    let (_dir, out) = finished("folder-tampered");
    let expected = standings(&out);
    let journal = out.join("journal.jsonl");
    let text = agon_tests::read(&journal);
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    // Line 3: a seat index the plan does not have (this made `report` panic). Line 5: cut in
    // the middle. And blank lines, which are no damage at all.
    let mut third: Value = serde_json::from_str(&lines[2]).unwrap();
    let tampered_id = third["id"].as_str().unwrap().to_string();
    third["seats"] = serde_json::json!([0, 7]);
    lines[2] = third.to_string();
    let cut_id = serde_json::from_str::<Value>(&lines[4]).unwrap()["id"]
        .as_str()
        .unwrap()
        .to_string();
    lines[4].truncate(40);
    lines.push(String::new());
    std::fs::write(&journal, lines.join("\n") + "\n\n").unwrap();
    for command in ["report", "resume"] {
        let stderr = refused(&["tournament", command, s(&out)]);
        assert!(
            stderr.contains(&format!("line 3 (game {tampered_id})")),
            "{stderr}"
        );
        assert_has(&stderr, "agon tournament repair");
    }
    let repaired = ok(&["tournament", "repair", s(&out)]);
    assert_has(&repaired, "moved 2 damaged lines");
    let rejected = agon_tests::read(out.join("journal.rejected"));
    assert!(rejected.contains(&tampered_id) && rejected.contains(&cut_id[..20]));
    let resumed = ok(&["tournament", "resume", s(&out), "--quiet"]);
    assert_has(&resumed, "2 played");
    assert_eq!(
        standings(&out),
        expected,
        "the replayed games decide as before"
    );
    let again = ok(&["tournament", "repair", s(&out)]);
    assert_has(&again, "nothing to repair");
}

/// A journal is read a line at a time, each line bounded: an over-long line (here a real
/// game's, padded with spaces) is damage named by its number and size, not a reason to hold it.
#[test]
fn an_over_long_journal_line_is_named_with_its_size_moved_aside_and_its_game_replayed() {
    let (_dir, out) = finished("folder-long-line");
    let expected = standings(&out);
    let journal = out.join("journal.jsonl");
    let text = agon_tests::read(&journal);
    let mut lines: Vec<&str> = text.lines().collect();
    let first = lines.remove(0);
    let id = serde_json::from_str::<Value>(first).unwrap()["id"]
        .as_str()
        .unwrap()
        .to_string();
    let padded = format!("{first}{}", " ".repeat(64 << 20));
    let sound: String = lines.iter().map(|l| format!("{l}\n")).collect();
    std::fs::write(&journal, format!("{sound}{padded}\n")).unwrap();
    for command in ["report", "resume"] {
        let stderr = refused(&["tournament", command, s(&out)]);
        assert!(stderr.contains(&format!("line 6 (game {id})")), "{stderr}");
        assert!(
            stderr.contains(&format!("({} bytes long", padded.len())),
            "{stderr}"
        );
    }
    let repaired = ok(&["tournament", "repair", s(&out)]);
    assert_has(&repaired, "moved 1 damaged lines");
    assert_eq!(agon_tests::read(&journal), sound);
    let rejected = out.join("journal.rejected");
    assert_eq!(
        std::fs::metadata(&rejected).unwrap().len(),
        padded.len() as u64 + 1
    );
    let report = ok(&["tournament", "report", s(&out)]);
    assert_has(&report, "5 of 6 games played");
    let resumed = ok(&["tournament", "resume", s(&out), "--quiet"]);
    assert_has(&resumed, "1 played");
    assert_eq!(
        standings(&out),
        expected,
        "the replayed game decides as before"
    );
    std::fs::remove_file(rejected).unwrap();
}

/// What each entrant's grade is of, when a build was swapped during a run (`--watch`): the
/// journal says which build each seat played, the game's record which version. Here entrant c's
/// games after its first are made to have been played by another build, version 9.9.9.
#[test]
fn each_build_of_a_swapped_entrant_is_reported_with_its_own_version_and_sha256() {
    let (_dir, out) = finished("folder-builds");
    let plan_path = out.join("tournament.json");
    let mut plan: Value = serde_json::from_str(&agon_tests::read(&plan_path)).unwrap();
    let c = &plan["entrants"][2];
    assert_eq!(c["name"], "c");
    let (planned, plugin) = (c["sha256"].as_str().unwrap(), c["plugin"].as_str().unwrap());
    let planned_build = format!(
        "| {plugin} {} | {planned} |",
        c["version"].as_str().unwrap()
    );
    let swapped_build = format!("| {plugin} 9.9.9 | {} |", "f".repeat(64));
    let journal = out.join("journal.jsonl");
    let mut games: Vec<Value> = std::fs::read_to_string(&journal)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    games.sort_by_key(|g| g["id"].as_str().unwrap().to_string());
    let with_c = games
        .iter_mut()
        .filter(|g| g["names"].as_array().unwrap().contains(&"c".into()));
    for game in with_c.skip(1) {
        let seat = agon_tests::seat_of(game, "c");
        game["sha256"][seat] = "f".repeat(64).into();
        let record_path = out
            .join("records")
            .join(format!("{}.json", game["id"].as_str().unwrap()));
        let mut record: Value = serde_json::from_str(&agon_tests::read(&record_path)).unwrap();
        record["seats"][seat]["plugin_version"] = "9.9.9".into();
        std::fs::write(&record_path, record.to_string()).unwrap();
    }
    let lines: String = games.iter().map(|g| format!("{g}\n")).collect();
    std::fs::write(&journal, lines).unwrap();
    let row_of = |name: &str| {
        let md = agon_tests::read(out.join("report.md"));
        md.lines()
            .find(|l| l.contains(&format!(" | {name} | ")))
            .unwrap_or_else(|| panic!("no row of {name}: {md}"))
            .to_string()
    };
    ok(&["tournament", "report", s(&out)]);
    assert!(
        row_of("c v1").ends_with(&planned_build),
        "{}",
        row_of("c v1")
    );
    assert!(
        row_of("c v2").ends_with(&swapped_build),
        "{}",
        row_of("c v2")
    );
    // Counted by the latest builds only, c is graded as its new build.
    plan["settings"]["versions"] = "latest".into();
    std::fs::write(&plan_path, plan.to_string()).unwrap();
    ok(&["tournament", "report", s(&out)]);
    assert!(row_of("c").ends_with(&swapped_build), "{}", row_of("c"));
}

#[test]
fn a_tampered_plan_is_refused_not_a_panic() {
    let (_dir, out) = finished("folder-plan");
    let plan_path = out.join("tournament.json");
    let original = agon_tests::read(&plan_path);
    let plan: Value = serde_json::from_str(&original).unwrap();
    type Tamper = Box<dyn Fn(&mut Value)>;
    let cases: Vec<(&str, Tamper)> = vec![
        (
            "seats entrant 9",
            Box::new(|p| p["games"][0]["seats"] = serde_json::json!([0, 9])),
        ),
        (
            "parameter set 4",
            Box::new(|p| p["games"][0]["param_set"] = serde_json::json!(4)),
        ),
        (
            "bad bot spec",
            Box::new(|p| p["entrants"][1]["spec"] = serde_json::json!("no-colon-here")),
        ),
    ];
    for (expected, tamper) in cases {
        let mut bad = plan.clone();
        tamper(&mut bad);
        std::fs::write(&plan_path, bad.to_string()).unwrap();
        for command in ["report", "resume"] {
            let stderr = refused(&["tournament", command, s(&out)]);
            assert!(stderr.contains(expected), "{command}: {stderr}");
            assert_has(&stderr, "the plan is damaged");
        }
    }
    std::fs::write(&plan_path, original).unwrap();
    ok(&["tournament", "report", s(&out)]);
}

#[test]
fn a_journal_link_is_refused_and_its_target_untouched() {
    let (dir, out) = finished("folder-link");
    let victim = dir.join("victim.txt");
    std::fs::write(&victim, "a file the grader can write, no newline").unwrap();
    std::fs::remove_file(out.join("journal.jsonl")).unwrap();
    std::os::unix::fs::symlink(&victim, out.join("journal.jsonl")).unwrap();
    for command in ["resume", "report"] {
        let stderr = refused(&["tournament", command, s(&out)]);
        assert_has(&stderr, "symbolic link");
    }
    assert_eq!(
        agon_tests::read(&victim),
        "a file the grader can write, no newline"
    );
    std::fs::remove_file(out.join("journal.jsonl")).unwrap();
    std::os::unix::fs::symlink("/dev/zero", out.join("journal.jsonl")).unwrap();
    refused(&["tournament", "report", s(&out)]);
}

#[test]
fn resume_removes_what_a_full_disk_left_in_records() {
    let (_dir, out) = finished("folder-leftovers");
    let records = out.join("records");
    std::fs::write(records.join("x-g001.tmp.31337"), "{\"half").unwrap();
    std::fs::write(records.join(".x-g002.json.tmp.31337.4"), "{").unwrap();
    ok(&["tournament", "resume", s(&out), "--quiet"]);
    let names: Vec<String> = std::fs::read_dir(&records)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names.len(), 6, "{names:?}");
    assert!(names
        .iter()
        .all(|n| n.ends_with(".json") && !n.contains("tmp")));
}

#[test]
fn absurd_concurrency_is_refused_with_a_message() {
    let (_dir, out) = finished("folder-concurrency");
    for n in ["0", "100000", "1000000", &u64::MAX.to_string()] {
        let stderr = refused(&["tournament", "resume", s(&out), "--concurrency", n]);
        assert!(
            stderr.contains("expected 1 to 1024 games at once"),
            "{n}: {stderr}"
        );
    }
}
