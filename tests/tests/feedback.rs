//! What `agon match` tells a student about their bot: each fault with what to do about it, the
//! refused system call named, the sandbox's part in a denied file, the end of a faulty seat's
//! stderr (where a panic's location is), `--show-stderr` and `--trace`.

use agon_tests::{agon_output, assert_has, match_args, process_match, scratch, spec, Ran};
use serde_json::Value;

/// `agon match` of Breakthrough between `bots` under the process host with `extra` flags,
/// which must succeed; its standard output and standard error.
fn play(bots: [&str; 2], extra: &[&str]) -> (String, String) {
    let mut args = process_match(bots);
    args.extend_from_slice(extra);
    let Ran { stdout, stderr, .. } = agon_output(&args).expect_success();
    (stdout, stderr)
}

fn random() -> String {
    spec("breakthrough-random", "random")
}

/// The summary's lines about seat 0's fault: the fault line and its hints.
fn fault_lines(summary: &str) -> String {
    summary
        .lines()
        .skip_while(|line| !line.starts_with("fault: seat 0"))
        .take_while(|line| line.starts_with("fault: ") || line.starts_with("  what to do: "))
        .collect::<Vec<_>>()
        .join("\n")
}

/// [`play`] of the `misbehave` plugin's bot `bot` (seat 0) against [`random`], without flags:
/// the summary and its [`fault_lines`].
fn misbehaving_against_random(bot: &str) -> (String, String) {
    let (summary, _) = play([&spec("misbehave", bot), &random()], &[]);
    let fault = fault_lines(&summary);
    (summary, fault)
}

#[test]
fn a_thread_starting_bot_learns_that_threads_need_a_flag() {
    let (summary, fault) = misbehaving_against_random("thread-hog");
    assert!(
        fault.starts_with("fault: seat 0 (thread-hog) refused_syscall at ply 0: "),
        "{summary}"
    );
    assert_has(&fault, "`clone`");
    assert_has(&fault, "--threads N");
    assert_has(&fault, "what to do: ");
}

#[test]
fn the_host_names_the_call_the_sandbox_refused() {
    let (_, fault) = misbehaving_against_random("connect");
    assert_has(&fault, "refused the system call `socket`");
    assert_has(&fault, "never allows");
}

/// A bot that read the source: its own SIGSYS handler, SIGSYS ignored or blocked, a refusal
/// line of its own. None carries on after a refused call, and the line changes no cause.
#[test]
fn a_bot_cannot_outwit_the_report_of_a_refused_call() {
    let json = |bot: &str| -> Value {
        let (stdout, _) = play([&spec("misbehave", bot), &random()], &["--json"]);
        serde_json::from_str(&stdout).expect("a JSON record")
    };
    for (bot, cause, named) in [
        (
            "sigsys?call=handler",
            "refused_syscall",
            Some("`rt_sigaction`"),
        ),
        (
            "sigsys?call=ignore",
            "refused_syscall",
            Some("`rt_sigaction`"),
        ),
        ("sigsys?call=block", "refused_syscall", None),
        ("sigsys?call=fake", "illegal", None),
    ] {
        let v = json(bot);
        let fault = &v["faults"][0];
        assert_eq!(fault["seat"], 0, "{bot}: {v}");
        assert_eq!(fault["cause"], cause, "{bot}: {fault}");
        let detail = fault["detail"].as_str().unwrap_or_default();
        let stderr = v["seats"][0]["stderr"].as_str().unwrap_or_default();
        assert!(
            !detail.contains("escaped:") && !stderr.contains("escaped:"),
            "{bot}: {detail} {stderr}"
        );
        if let Some(call) = named {
            assert!(detail.contains(call), "{bot}: {detail}");
        }
    }
}

#[test]
fn a_bot_denied_a_file_is_told_about_the_sandbox() {
    let (summary, fault) = misbehaving_against_random("read-book");
    assert!(
        fault.starts_with("fault: seat 0 (read-book) panic at ply 0: "),
        "{summary}"
    );
    // The book is a file of the machine, which does not exist in the host's own root.
    assert_has(&fault, "No such file or directory");
    assert!(
        fault.contains(
            "what to do: the bot could not open a file: under the process host the \
                        sandbox gives a bot a root of its own"
        ),
        "{fault}"
    );
}

#[test]
fn a_panicking_bots_stderr_shows_where_it_panicked() {
    let (summary, _) = play([&spec("misbehave", "panic"), &random()], &[]);
    let source =
        std::fs::read_to_string(agon_tests::workspace_root().join("plugins/misbehave/src/lib.rs"))
            .unwrap();
    let line = source
        .lines()
        .position(|l| l.contains("deliberate panic in act"))
        .expect("the panic's line")
        + 1;
    let location = format!("plugins/misbehave/src/lib.rs:{line}:");
    let tail: Vec<&str> = summary
        .lines()
        .skip_while(|l| !l.starts_with("stderr of seat 0 (panic)"))
        .skip(1)
        .take_while(|l| l.starts_with("  | "))
        .collect();
    assert!(
        tail.iter()
            .any(|l| l.contains("panicked at ") && l.contains(&location)),
        "{summary}"
    );
    assert!(
        tail.iter().any(|l| l.contains("deliberate panic in act")),
        "{summary}"
    );
    assert!(
        fault_lines(&summary).contains(&format!("what to do: the bot panicked at {location}")),
        "{summary}"
    );
}

/// An in-process host does not capture a bot's stderr: the summary says where it went.
#[test]
fn an_in_process_host_says_where_the_panic_location_went() {
    let Ran {
        stdout: summary,
        stderr: engine_stderr,
        ..
    } = agon_output(
        &[
            match_args("breakthrough", [&spec("misbehave", "panic"), &random()]),
            vec!["--host", "thread", "--seed", "1"],
        ]
        .concat(),
    )
    .expect_success();
    assert_has(&engine_stderr, "panicked at ");
    assert_has(
        &summary,
        "stderr of seat 0 (panic): not captured: the thread host leaves",
    );
}

#[test]
fn show_stderr_prints_what_a_bot_wrote() {
    let chatty = spec("misbehave", "chatty");
    let (plain, _) = play([&chatty, &random()], &[]);
    assert!(!plain.contains("chatty: move"), "{plain}");
    let (shown, _) = play([&chatty, &random()], &["--show-stderr"]);
    assert_has(&shown, "\nstderr of seat 0 (chatty), ");
    assert_has(&shown, "\n  | chatty: move 1\n");
    assert_has(&shown, "\nstderr of seat 1 (random): nothing was written");
}

/// `--trace` prints, in order, one line per action with the game's notation, each after the
/// position its seat was sent; for Breakthrough (turns) and Rectangles (rounds).
#[test]
fn trace_prints_every_position_and_answer() {
    let dir = scratch("feedback-trace");
    let games = [
        ("breakthrough", spec("breakthrough-random", "random")),
        ("rectangles", spec("rectangles-random", "random")),
    ];
    for (game, bot) in games {
        let record_path = dir.join(format!("{game}.json"));
        let mut args = match_args(game, [&bot, &bot]);
        args.extend([
            "--seed",
            "5",
            "--trace",
            "--record",
            record_path.to_str().unwrap(),
        ]);
        let stdout = agon_output(&args).expect_success().stdout;
        let record: Value = serde_json::from_str(&agon_tests::read(&record_path)).unwrap();
        let moves = record["moves"].as_array().unwrap();
        assert!(!moves.is_empty(), "{game}");
        let plays: Vec<&str> = stdout
            .lines()
            .filter(|l| l.starts_with("trace: ") && l.contains(" plays "))
            .collect();
        assert_eq!(plays.len(), moves.len(), "{game}: {stdout}");
        for (line, played) in plays.iter().zip(moves) {
            let when = match played["round"].as_u64() {
                Some(round) => format!("round {round}, ply {}", played["ply"]),
                None => format!("ply {}", played["ply"]),
            };
            let expected = format!(
                "trace: {when}: seat {} (random) plays {} (",
                played["seat"],
                played["action"].as_str().unwrap()
            );
            assert!(line.starts_with(&expected), "{game}: {line} / {expected}");
            assert!(line.ends_with(" ms)"), "{line}");
        }
        let positions = stdout
            .lines()
            .filter(|l| l.starts_with("trace: ") && l.contains(": position sent to "))
            .count();
        assert!(positions > 0, "{game}: {stdout}");
        // The trace comes as the match runs, before the summary.
        let summary_at = stdout.find("result: ").expect("the summary");
        assert!(
            stdout.rfind(" plays ").unwrap() < summary_at,
            "{game}: {stdout}"
        );
    }
}

#[test]
fn trace_and_show_stderr_do_not_mix_with_json() {
    for flag in ["--trace", "--show-stderr"] {
        let random = random();
        let mut args = match_args("breakthrough", [&random, &random]);
        args.extend(["--json", flag]);
        let error = agon_output(&args).expect_failure().stderr;
        assert!(error.contains("cannot be used with"), "{flag}: {error}");
    }
}
