//! Grades on a busy machine: under the CPU clock a bot is owed its budget of CPU time, so a
//! tournament played while other processes crowd its CPU grades as it does on a quiet machine.
//! Only a bot that sleeps or computes past its budget is charged a timeout, busy or not.

use agon_tests::crowded_cpu::CrowdedCpu;
use agon_tests::{run, scratch, spec, standings, tournament_config, tournament_run};
use std::path::Path;

/// Two bots that compute 70 ms and 60 ms of CPU on each of their first moves, within a budget
/// of 100 ms; one that sleeps a second; one that never stops computing; one that yields its
/// CPU in a loop (which would wait for a CPU without using one, were yielding not answered at
/// once). Each in a sandboxed process, under the default CPU clock.
fn tournament(dir: &Path) -> std::path::PathBuf {
    let burn = spec("misbehave", "burn");
    tournament_config(
        dir,
        "game = \"breakthrough\"\nseed = 3\ngames_per_pairing = 2\nhost = \"process\"\n\
         move_ms = 100\non_fault = \"forfeit\"\n[params]\nmove_limit = 40",
        &[
            ("seventy", format!("{burn}?ms=70&moves=4")),
            ("sixty", format!("{burn}?ms=60&moves=5")),
            ("sleeper", format!("{}?ms=1000", spec("misbehave", "slow"))),
            ("burner", spec("misbehave", "loop")),
            ("yielder", spec("misbehave", "yield")),
        ],
    )
}

/// Each entrant's timeouts, by name.
fn timeouts(table: &serde_json::Value) -> Vec<(String, u64)> {
    let mut rows: Vec<(String, u64)> = table["standings"]
        .as_array()
        .expect("standings")
        .iter()
        .map(|row| {
            let name = row["name"].as_str().expect("a name").to_string();
            (name, row["faults"]["timeout"].as_u64().unwrap_or(0))
        })
        .collect();
    rows.sort();
    rows
}

/// The longest wall time (ms) of a move that stayed within its 100 ms of CPU, over a run's
/// records.
fn longest_move_within_budget(dir: &Path) -> u64 {
    let records = std::fs::read_dir(dir.join("records")).expect("records");
    let mut longest = 0;
    for record in records {
        let text = std::fs::read_to_string(record.expect("a record").path()).expect("readable");
        let record: serde_json::Value = serde_json::from_str(&text).expect("a record");
        for step in record["moves"].as_array().expect("moves") {
            let (wall, cpu) = (step["wall_us"].as_u64(), step["cpu_us"].as_u64());
            if let (Some(wall), Some(cpu)) = (wall, cpu) {
                if cpu < 100_000 {
                    longest = longest.max(wall / 1000);
                }
            }
        }
    }
    longest
}

/// The time (ms) a run's bots waited for a CPU per move, over its journal; every game must
/// have its wait.
fn cpu_wait_per_move(dir: &Path) -> f64 {
    let journal = std::fs::read_to_string(dir.join("journal.jsonl")).expect("journal");
    let (mut waited, mut moves) = (0.0, 0.0);
    for line in journal.lines() {
        let game: serde_json::Value = serde_json::from_str(line).expect("a journal line");
        if game.get("winner").is_none() {
            continue;
        }
        waited += game["cpu_wait_ms"]
            .as_f64()
            .unwrap_or_else(|| panic!("no wait: {game}"));
        moves += game["moves"].as_f64().expect("moves");
    }
    assert!(moves > 0.0, "no moves in {journal}");
    waited / moves
}

/// The same tournament, same seed secret, played quiet and then with four busy processes on
/// the one CPU it may use (each bot gets about a fifth of it: 70 ms of CPU take some 350 ms of
/// wall time, past the 300 ms backstop that charged such a bot before): the same standings,
/// and timeouts only for the sleeper, the bot that never stops and the one that yields.
#[test]
fn four_times_oversubscribed_a_tournament_grades_as_on_a_quiet_machine() {
    let dir = scratch("busy-machine");
    let cfg = tournament(&dir);
    let quiet = dir.join("quiet");
    run(&mut tournament_run(&cfg, &quiet)).expect_success();
    let busy = dir.join("busy");
    let crowd = CrowdedCpu::new(4);
    let mut command = tournament_run(&cfg, &busy);
    // More games at once than the one CPU it may use: lowered, with a warning.
    command.args(["--concurrency", "3"]);
    crowd.join(&mut command);
    let ran = run(&mut command).expect_success();
    assert!(
        ran.stderr
            .contains("concurrency 3: this process may use 1 CPU"),
        "{}",
        ran.stderr
    );
    assert!(ran.stdout.contains("at concurrency 1"), "{}", ran.stdout);
    drop(crowd);
    // The premise: moves within their CPU budget ran past the 300 ms backstop.
    let longest = longest_move_within_budget(&busy);
    assert!(longest > 300, "no move was starved ({longest} ms at most)");
    let (quiet, busy) = (standings(&quiet), standings(&busy));
    // Each of the three plays first in one game of each pairing, and forfeits it there; in
    // their games against each other, the one that moves first.
    let charged = [
        ("burner", 6),
        ("seventy", 0),
        ("sixty", 0),
        ("sleeper", 6),
        ("yielder", 6),
    ];
    let mut charged: Vec<(String, u64)> = charged.map(|(n, c)| (n.to_string(), c)).to_vec();
    charged.sort();
    assert_eq!(timeouts(&quiet), charged);
    assert_eq!(timeouts(&busy), charged, "{}", ran.stderr);
    for part in ["standings", "crosstable", "per_param", "first_seat"] {
        assert_eq!(quiet[part], busy[part], "{part}: {}", ran.stderr);
    }
    // Staff see the load: four busy processes on the bots' one CPU left each bot about a fifth
    // of it, so a bot's 60 or 70 ms of CPU took some 250 ms of waiting, in every game.
    let busy_wait = cpu_wait_per_move(&dir.join("busy"));
    assert!(busy_wait > 10.0, "the bots waited {busy_wait:.2} ms a move");
    let report = std::fs::read_to_string(dir.join("busy/report.md")).expect("report.md");
    assert!(report.contains("## Load"), "{report}");
    assert!(report.contains("Waiting for a CPU"), "{report}");
}
