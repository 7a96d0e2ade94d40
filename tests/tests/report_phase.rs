//! A tournament's report phase (writing every game's viewer data, which takes minutes for long
//! games) is never silent and stops when asked: with output redirected it says what it is
//! doing, and SIGTERM stops it within seconds, keeping the report and the data written so far;
//! `agon tournament report` writes the rest later.

use agon_tests::{agon, plugin, run, scratch, tournament_run};
use std::io::{BufRead, BufReader};
use std::process::Stdio;
use std::time::{Duration, Instant};

/// Twenty long games of Rectangles (800 rounds on 60 x 60): under a second each to play in
/// threads, most of a second each to write for the viewer.
fn long_games_config(dir: &std::path::Path) -> std::path::PathBuf {
    let random = format!("{}:random", plugin("rectangles-random").display());
    let config = dir.join("long.toml");
    std::fs::write(
        &config,
        format!(
            "game = \"rectangles\"\ngames_per_pairing = 20\nhost = \"thread\"\nmove_ms = 1000\n\
             concurrency = 2\n[params]\nn = 60\nrobots = 4\nidle_rounds = 800\n\
             max_rounds = 800\n[[entrant]]\nname = \"a\"\nbot = \"{random}\"\n\
             [[entrant]]\nname = \"b\"\nbot = \"{random}\"\n"
        ),
    )
    .expect("writing the config");
    config
}

fn data_files(out: &std::path::Path) -> usize {
    std::fs::read_dir(out.join("games"))
        .map(|entries| {
            entries
                .flatten()
                .filter(|e| e.path().extension().is_some_and(|x| x == "js"))
                .count()
        })
        .unwrap_or(0)
}

#[test]
fn the_report_phase_says_so_and_stops_promptly_on_sigterm() {
    let dir = scratch("report-phase");
    let config = long_games_config(&dir);
    let out = dir.join("out");
    let mut child = tournament_run(&config, &out)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("agon starts");
    let mut said = Vec::new();
    let mut stderr = BufReader::new(child.stderr.take().unwrap());
    let mut line = String::new();
    while stderr.read_line(&mut line).expect("reading stderr") > 0 {
        said.push(line.clone());
        if line.contains("writing the viewer's data of 20 games") {
            break;
        }
        line.clear();
    }
    assert!(
        said.iter()
            .any(|l| l.contains("writing the viewer's data of 20 games")),
        "no word of the report phase on redirected output:\n{}",
        said.concat()
    );
    let asked = Instant::now();
    // SAFETY: kill(2) on the child we started and have not waited for.
    assert_eq!(unsafe { libc::kill(child.id() as i32, libc::SIGTERM) }, 0);
    let mut rest = String::new();
    std::io::Read::read_to_string(&mut stderr, &mut rest).expect("reading stderr");
    let status = child.wait().expect("agon ends");
    let took = asked.elapsed();
    assert!(
        took < Duration::from_secs(10),
        "stopped {took:?} after SIGTERM:\n{rest}"
    );
    assert!(rest.contains("stopped by SIGTERM"), "{status}:\n{rest}");
    let written = data_files(&out);
    assert!(written < 20, "all 20 written despite the stop");
    assert!(
        out.join("report.html").is_file(),
        "the report is kept:\n{rest}"
    );

    // The rest is written later, by the report command.
    let dir_arg = out.to_str().unwrap();
    run(agon().args(["tournament", "report", dir_arg])).expect_success();
    assert_eq!(data_files(&out), 20);
}
