//! Results that depend only on the bots: the machine misbehaving under a tournament (the engine
//! suspended and resumed) must not change a single result.

use agon_tests::{agon, scratch, spec, standings};
use std::time::{Duration, Instant};

fn signal(pid: u32, name: &str) {
    let status = std::process::Command::new("kill")
        .args([&format!("-{name}"), &pid.to_string()])
        .status()
        .unwrap();
    assert!(status.success());
}

/// The engine is stopped (SIGSTOP, as Ctrl-Z or a batch system does) for longer than the move
/// budget, again and again, while its bots' processes run on. With the wall clock, every stop
/// used to be a timeout forfeit for whichever bot was being waited for; now no bot is charged
/// for the engine's stop, and the standings equal an undisturbed run's.
#[test]
fn suspending_the_engine_changes_no_result() {
    let dir = scratch("hardening-suspend");
    let cfg = dir.join("t.toml");
    std::fs::write(
        &cfg,
        format!(
            "game = \"breakthrough\"\nseed = 11\ngames_per_pairing = 4\nconcurrency = 1\n\
             clock = \"wall\"\nmove_ms = 250\n\
             [[entrant]]\nname = \"offensive\"\nbot = \"{ab}?depth=4&heuristic=offensive2\"\n\
             [[entrant]]\nname = \"defensive\"\nbot = \"{ab}?depth=4&heuristic=defensive2\"\n",
            ab = spec("breakthrough-alphabeta", "alphabeta"),
        ),
    )
    .unwrap();
    let calm = dir.join("calm");
    let out = agon()
        .args([
            "tournament",
            "run",
            cfg.to_str().unwrap(),
            "--out",
            calm.to_str().unwrap(),
            "--quiet",
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );

    let stopped = dir.join("stopped");
    let mut child = agon()
        .args([
            "tournament",
            "run",
            cfg.to_str().unwrap(),
            "--out",
            stopped.to_str().unwrap(),
            "--quiet",
        ])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let t0 = Instant::now();
    let mut stops = 0;
    let status = loop {
        std::thread::sleep(Duration::from_millis(100));
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        signal(child.id(), "STOP");
        stops += 1;
        std::thread::sleep(Duration::from_millis(600));
        signal(child.id(), "CONT");
        assert!(
            t0.elapsed() < Duration::from_secs(120),
            "the run does not end"
        );
    };
    assert!(status.success());
    assert!(
        stops >= 3,
        "the run ended before it was stopped often ({stops})"
    );
    let calm_standings = standings(&calm);
    let stopped_standings = standings(&stopped);
    for row in stopped_standings["standings"].as_array().unwrap() {
        assert_eq!(row["faults"], serde_json::json!({}), "{row}");
    }
    assert_eq!(stopped_standings["standings"], calm_standings["standings"]);
}
