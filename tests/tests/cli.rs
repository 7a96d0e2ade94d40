//! The `agon` binary as users run it.

use agon_tests::{
    agon, agon_output, assert_has, assert_has_all, match_args, plugin, run, scratch, spec, Ran,
};
use serde_json::Value;
use std::time::{Duration, Instant};

fn match_json(bots: [&str; 2], extra: &[&str]) -> Value {
    let mut args = match_args("breakthrough", bots);
    args.push("--json");
    args.extend_from_slice(extra);
    let out = agon_output(&args).expect_success();
    serde_json::from_str(&out.stdout).expect("--json prints one JSON object")
}

#[test]
fn plugins_lists_what_files_offer() {
    let text = agon_output(&["plugins", plugin("misbehave").to_str().unwrap()])
        .expect_success()
        .stdout;
    let version = format!("misbehave {}", env!("CARGO_PKG_VERSION"));
    assert_has(&text, &version);
    assert_has_all(&text, &["panic-start", "breakthrough (protocol v1)"]);
}

#[test]
fn plugins_fails_naming_a_bad_file() {
    let dir = scratch("cli-bad-plugin");
    let bad = dir.join("libbroken.so");
    std::fs::write(&bad, "garbage").unwrap();
    let out = agon_output(&[
        "plugins",
        plugin("noop").to_str().unwrap(),
        bad.to_str().unwrap(),
    ])
    .expect_failure();
    assert!(out.stdout.contains("noop"), "good files are still listed");
    assert_has(&out.stderr, "libbroken.so: not a shared library");
}

/// What a file name tries to put on a line of its own (after a newline in the name).
const FORGED: &str = "INFO forged line";

/// Fails if `shown` holds a raw escape character or a line a file name forged.
fn assert_names_kept_to_their_lines(shown: &str) {
    assert!(!shown.contains('\u{1b}'), "a raw ESC: {shown:?}");
    assert!(
        !shown.lines().any(|l| l.trim_start().starts_with(FORGED)),
        "a forged line: {shown:?}"
    );
}

#[test]
fn plugins_shows_a_file_name_with_a_newline_and_an_escape_on_one_line() {
    let dir = scratch("cli-forging-names");
    let listed = dir.join(format!("good\n{FORGED}\u{1b}[2J.so"));
    std::fs::copy(plugin("breakthrough-random"), &listed).unwrap();
    let refused = dir.join(format!("bad\n{FORGED}\u{1b}[2J.so"));
    std::fs::write(&refused, "garbage").unwrap();
    let out = agon_output(&[
        "plugins",
        listed.to_str().unwrap(),
        refused.to_str().unwrap(),
    ]);
    // The garbage file is an error.
    let Ran { stdout, stderr, .. } = out.expect_failure();
    assert_names_kept_to_their_lines(&stdout);
    assert_names_kept_to_their_lines(&stderr);
    let escaped = format!("\\u{{a}}{FORGED}\\u{{1b}}[2J.so");
    assert!(stdout.contains(&format!("good{escaped}")), "{stdout}");
    assert!(
        stderr.contains(&format!("bad{escaped}: not a shared library")),
        "{stderr}"
    );
}

#[test]
fn match_json_has_result_faults_and_metrics() {
    let ab = format!("{}?depth=2", spec("breakthrough-alphabeta", "alphabeta"));
    let v = match_json(
        [&ab, &spec("breakthrough-random", "random")],
        &[
            "--seed",
            "4",
            "--seed-secret",
            &agon_tests::TEST_SECRET.to_string(),
        ],
    );
    assert_eq!(v["winner"], 0);
    assert_eq!(v["scores"], serde_json::json!([1.0, 0.0]));
    assert!(v["moves"].as_array().unwrap().len() > 10);
    assert_eq!(v["faults"], serde_json::json!([]));
    assert_eq!(v["seed"], 4);
    let metrics = v["metrics"].as_array().unwrap();
    assert!(metrics[0]["nodes_per_move"].as_f64().unwrap() > 1.0);
    assert!(metrics[0]["time_per_move_ms"].as_f64().is_some());
    assert_eq!(v["seats"][0]["sha256"].as_str().unwrap().len(), 64);
    assert_eq!(v["seats"][0]["bot_params"]["depth"], "2");
}

#[test]
fn a_record_verifies_and_a_tampered_one_fails() {
    let dir = scratch("cli-replay");
    let record = dir.join("game.json");
    let random = spec("breakthrough-random", "random");
    let mut args = match_args("breakthrough", [&random, &random]);
    args.extend(["--seed", "9", "--record", record.to_str().unwrap()]);
    let out = agon_output(&args).expect_success();
    assert_has(&out.stdout, "result: seat");
    let ok = agon_output(&["replay", "verify", record.to_str().unwrap()]).expect_success();
    assert!(ok.stdout.contains(": ok:"));

    let mut v: Value = serde_json::from_str(&agon_tests::read(&record)).unwrap();
    let winner = v["winner"].as_u64().unwrap();
    v["winner"] = Value::from(1 - winner);
    let forged = dir.join("forged.json");
    std::fs::write(&forged, v.to_string()).unwrap();
    let bad = agon_output(&["replay", "verify", forged.to_str().unwrap()]).expect_failure();
    assert_has(&bad.stderr, "replay does not match");

    let garbage = dir.join("garbage.json");
    std::fs::write(&garbage, "{ not json").unwrap();
    let bad = agon_output(&["replay", "verify", garbage.to_str().unwrap()]).expect_failure();
    assert_has(&bad.stderr, "garbage.json: not a match record");
}

/// A bot that spins forever is abandoned at its deadline and the match still ends on time.
#[test]
fn a_bot_that_never_returns_forfeits_on_time() {
    let bots = [
        spec("breakthrough-random", "random"),
        spec("misbehave", "loop"),
    ];
    let t0 = Instant::now();
    let v = match_json(
        [&bots[0], &bots[1]],
        &["--host", "thread", "--move-ms", "250"],
    );
    assert!(
        t0.elapsed() < Duration::from_secs(5),
        "took {:?}",
        t0.elapsed()
    );
    assert_eq!(v["winner"], 0);
    assert_eq!(v["faults"][0]["seat"], 1);
    assert_eq!(v["faults"][0]["cause"], "timeout");
    assert_eq!(v["termination"], "forfeit");
}

#[test]
fn bad_input_is_refused_with_a_clear_message() {
    let random = spec("breakthrough-random", "random");
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (vec!["--param", "rows=many"], "parameter `rows`: expected"),
        (vec!["--param", "speed=3"], "unknown parameter `speed`"),
        (vec!["--param", "rows"], "expected KEY=VALUE"),
    ];
    for (extra, message) in cases {
        let mut args = match_args("breakthrough", [&random, &random]);
        args.extend(extra);
        let out = agon_output(&args);
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        assert!(out.stderr.contains(message), "{args:?}: {}", out.stderr);
    }
    // The match profile's modes are the command line's own values: a usage error (2) that
    // lists them.
    for (flag, value, listed) in [
        ("--host", "cloud", "process, thread, inline"),
        ("--clock", "sundial", "cpu, wall"),
        ("--sandbox", "lax", "report, strict"),
        ("--on-fault", "maybe", "forfeit"),
    ] {
        let mut args = match_args("breakthrough", [&random, &random]);
        args.extend([flag, value]);
        let out = agon_output(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert_has(&out.stderr, &format!("invalid value '{value}' for '{flag}"));
        assert_has(&out.stderr, listed);
    }
    let out = agon_output(&match_args("go", [&random, &random]));
    assert!(
        out.stderr.contains(
            "unknown game `go` (known games: breakthrough, flip, flowfree, lightsout, rectangles, \
             reversixt)"
        ),
        "{}",
        out.stderr
    );
    let out = agon_output(&["match", "--game", "breakthrough", "--bot", &random]);
    assert_has(&out.stderr, "needs 2 bots");
    let out = agon_output(&match_args("breakthrough", ["nofile", &random]));
    assert_has(&out.stderr, "no `:`");
    let missing = "missing.so:random";
    let out = agon_output(&match_args("breakthrough", [missing, &random]));
    assert_has(&out.stderr, "missing.so: cannot read");
}

/// Every error is said once: a cause its error already names is not repeated after it (an
/// `io::Error`, a JSON error, a parameter's refusal), and a bad `--param` is refused before any
/// bot's host starts.
#[test]
fn an_error_says_each_thing_once() {
    let dir = scratch("cli-error-once");
    let random = spec("breakthrough-random", "random");
    let said_once = |out: &Ran, what: &str| {
        assert_eq!(
            out.stderr.lines().count(),
            1,
            "one line for one error:\n{}",
            out.stderr
        );
        assert_eq!(out.stderr.matches(what).count(), 1, "{}", out.stderr);
    };
    let missing = dir.join("missing.so");
    let bot = format!("{}:random", missing.display());
    let out = agon_output(&match_args("breakthrough", [&bot, &random])).expect_failure();
    let not_found = std::fs::read(&missing).unwrap_err().to_string();
    said_once(&out, &not_found);
    assert_has(&out.stderr, "missing.so: cannot read the file: ");

    let mut args = match_args("breakthrough", [&random, &random]);
    args.extend(["--param", "speed=3"]);
    said_once(
        &agon_output(&args).expect_failure(),
        "unknown parameter `speed`",
    );

    for (text, problem) in [
        ("{ not json", "key must be a string"),
        ("{}", "missing field"),
    ] {
        let record = dir.join("not-a-record.json");
        std::fs::write(&record, text).unwrap();
        let out = agon_output(&["view", record.to_str().unwrap()]).expect_failure();
        said_once(&out, problem);
        assert_has(&out.stderr, "not-a-record.json: not a match record: ");
    }
}

/// A tournament configuration that is no TOML (or has a key no configuration has) is refused
/// with toml's own message: the file, the line and column, and the line with a mark under the
/// mistake, on lines of their own.
#[test]
fn a_configuration_error_shows_the_line_it_is_on() {
    let dir = scratch("cli-toml-error");
    let cfg = dir.join("broken.toml");
    std::fs::write(&cfg, "game = \"breakthrough\"\nseed = 5\nsedd = [1,\n").unwrap();
    let out = dir.join("out");
    let args = [
        "tournament",
        "run",
        cfg.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ];
    let err = agon_output(&args).expect_failure().stderr;
    assert_has_all(
        &err,
        &[
            "broken.toml: TOML parse error at line 3, column",
            "\n3 | sedd = [1,\n",
            "^",
        ],
    );
    assert!(!err.contains("(syntax)"), "{err}");
    std::fs::write(&cfg, "game = \"breakthrough\"\nsedd = 5\n").unwrap();
    let err = agon_output(&args).expect_failure().stderr;
    assert_has_all(
        &err,
        &[
            "broken.toml: TOML parse error at line 2, column 1",
            "\n2 | sedd = 5\n",
            "unknown field `sedd`",
        ],
    );
    let missing = dir.join("missing.toml");
    let err = agon_output(&[
        "tournament",
        "run",
        missing.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ])
    .expect_failure()
    .stderr;
    assert_eq!(err.matches("missing.toml").count(), 1, "{err}");
}

#[test]
fn help_is_there_for_every_command() {
    for args in [
        vec!["--help"],
        vec!["match", "--help"],
        vec!["plugins", "--help"],
        vec!["replay", "verify", "--help"],
        vec!["bench", "--help"],
        vec!["games", "--help"],
    ] {
        let out = agon_output(&args).expect_success();
        assert!(out.stdout.contains("Usage"), "{args:?}");
    }
    let games = agon_output(&["games"]);
    assert!(games.stdout.contains("workers_to_base"));
}

/// A mistyped bot parameter is the caller's mistake: refused before the match, exit non-zero
/// (it used to play, forfeit at ply 0 and exit 0).
#[test]
fn match_refuses_a_bad_bot_parameter_before_playing() {
    let dir = scratch("cli-bad-bot-param");
    let record = dir.join("never.json");
    let typo = format!("{}?dept=3", spec("breakthrough-alphabeta", "alphabeta"));
    let random = spec("breakthrough-random", "random");
    for host in ["process", "thread"] {
        let mut args = match_args("breakthrough", [&random, &typo]);
        args.extend(["--host", host, "--record", record.to_str().unwrap()]);
        let out = agon_output(&args).expect_failure();
        let err = &out.stderr;
        assert!(
            err.contains("seat 1")
                && err.contains("refused its parameters")
                && err.contains("dept"),
            "{host}: {err}"
        );
        assert!(!record.exists(), "no match was played");
    }
}

/// A bot takes only the parameters it declares: the SDK refuses any other, naming the declared
/// ones, for a bot written against `agon_sdk::Bot` (as `agon new`'s starter is; here the SDK's
/// own sparring bot) and a `WireBot` alike. They used to be ignored: `greedy?depth=3` played,
/// exit 0, as if no depth had been given.
#[test]
fn a_bot_refuses_a_parameter_it_does_not_declare() {
    let refusal = |bot: &str, game: &str, other: &str| {
        let mut args = match_args(game, [bot, other]);
        args.extend(["--seed", "1"]);
        agon_output(&args).expect_failure().stderr
    };
    let flip_random = spec("flip-random", "random");
    for bot in [spec("flip-greedy", "greedy"), flip_random.clone()] {
        let err = refusal(&format!("{bot}?depth=3"), "flip", &flip_random);
        assert_has(
            &err,
            "seat 0): the bot refused its parameters: unknown parameter `depth` (this bot takes \
             no parameters)",
        );
    }
    let random = spec("breakthrough-random", "random");
    let alphabeta = spec("breakthrough-alphabeta", "alphabeta");
    let err = refusal(&format!("{alphabeta}?dept=3"), "breakthrough", &random);
    assert_has(
        &err,
        "unknown parameter `dept` (known: depth, search, heuristic)",
    );
}

/// A bot on the thread host that calls exit(0) ends agon's own process: that must not look
/// like success.
#[test]
fn an_in_process_bot_calling_exit_does_not_end_agon_with_success() {
    let (exit, random) = (
        spec("misbehave", "exit"),
        spec("breakthrough-random", "random"),
    );
    let mut args = match_args("breakthrough", [&exit, &random]);
    args.extend(["--host", "thread"]);
    let out = agon_output(&args).expect_failure();
    assert_eq!(out.status.code(), Some(70), "{}", out.stderr);
    assert_has(&out.stderr, "exiting before agon finished");
}

/// `agon games | head`: a closed standard output ends agon quietly with the shell's status
/// for SIGPIPE, without a panic.
#[test]
fn a_closed_standard_output_is_no_panic() {
    let map = agon_tests::instances("reversixt").join("example.map");
    let map = map.to_str().unwrap().to_string();
    for args in [vec!["games"], vec!["reversixt", "check-map", &map]] {
        let (reader, writer) = std::io::pipe().unwrap();
        drop(reader); // the reader is gone before agon writes its first line
        let out = run(agon()
            .args(&args)
            .stdout(writer)
            .stderr(std::process::Stdio::piped()));
        let err = &out.stderr;
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        assert_eq!(out.status.code(), Some(141), "{args:?}: {err}");
    }
}

/// `--record` onto a device or a folder is refused; the device stays what it was.
#[test]
fn match_records_only_replace_regular_files() {
    let dir = scratch("cli-record-target");
    let random = spec("breakthrough-random", "random");
    for target in ["/dev/full".to_string(), dir.display().to_string()] {
        let mut args = match_args("breakthrough", [&random, &random]);
        args.extend(["--seed", "1", "--record", &target]);
        let out = agon_output(&args).expect_failure();
        assert_has(&out.stderr, "not a regular file");
    }
    use std::os::unix::fs::FileTypeExt;
    assert!(std::fs::metadata("/dev/full")
        .unwrap()
        .file_type()
        .is_char_device());
    assert_eq!(
        std::fs::read_dir(&dir).unwrap().count(),
        0,
        "no temporary file left"
    );
}

/// A ReversiXT record whose ranks contradict its moves (here: three players, the ranks of two
/// swapped, everything else intact) used to pass `replay verify`.
#[test]
fn replay_verify_checks_reversixt_ranks() {
    let dir = scratch("cli-replay-ranks");
    let record = dir.join("game.json");
    let random = spec("reversixt-random", "random");
    let greedy = spec("reversixt-greedy", "greedy");
    let secret = agon_tests::TEST_SECRET.to_string();
    run(agon_tests::reversixt_match("diamond.map").args([
        "--host",
        "inline",
        // The seat seeds derive from the seed under a secret drawn per run unless one is
        // given: without it, this game (and whether it has one winner) changed from run to run.
        "--seed",
        "1",
        "--seed-secret",
        &secret,
        "--bot",
        &random,
        "--bot",
        &random,
        "--bot",
        &greedy,
        "--record",
        record.to_str().unwrap(),
    ]))
    .expect_success();
    agon_output(&["replay", "verify", record.to_str().unwrap()]).expect_success();
    let mut v: Value = serde_json::from_str(&agon_tests::read(&record)).unwrap();
    let ranks: Vec<u64> = v["ranks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r.as_u64().unwrap())
        .collect();
    // Swap the ranks of the two seats that did not win (the winner and scores left alone).
    let losers: Vec<usize> = (0..3).filter(|&s| ranks[s] != 1).collect();
    let [i, j] = losers[..] else {
        panic!("expected one winner: {ranks:?}")
    };
    assert_ne!(ranks[i], ranks[j], "{ranks:?}");
    v["ranks"][i] = Value::from(ranks[j]);
    v["ranks"][j] = Value::from(ranks[i]);
    let forged = dir.join("forged.json");
    std::fs::write(&forged, v.to_string()).unwrap();
    // Contradictory ranks must not pass.
    let bad = agon_output(&["replay", "verify", forged.to_str().unwrap()]).expect_failure();
    assert_has(&bad.stderr, "ranks");
}

/// Truncated and bit-flipped copies of a real plugin, all listed by one `agon plugins`: each
/// is opened in a confined host of its own, so none can crash, hang or abort the command. It
/// used to open them in its own process (panics, hangs, the dynamic linker's assertions).
/// Every copy is either listed or named in an error; nothing panics.
#[test]
fn plugins_survives_truncated_and_bit_flipped_libraries() {
    use rand::{Rng, SeedableRng};
    let dir = scratch("cli-mutated-plugins");
    let original = std::fs::read(plugin("noop")).unwrap();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(17);
    let mut files = Vec::new();
    for (i, len) in [64, 1000, 4096, original.len() / 3, original.len() - 4096]
        .into_iter()
        .enumerate()
    {
        let path = dir.join(format!("libtruncated{i}.so"));
        std::fs::write(&path, &original[..len]).unwrap();
        files.push(path);
    }
    for i in 0..20 {
        let mut bytes = original.clone();
        // Mostly the headers and dynamic tables near the start, where a loader looks first.
        let span = if i % 2 == 0 { 64 << 10 } else { bytes.len() };
        for _ in 0..8 {
            let at = rng.random_range(0..span.min(bytes.len()));
            bytes[at] ^= 1 << rng.random_range(0..8);
        }
        let path = dir.join(format!("libflipped{i}.so"));
        std::fs::write(&path, &bytes).unwrap();
        files.push(path);
    }
    let mut command = agon();
    command
        .arg("plugins")
        .args(&files)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped());
    let mut child = command.spawn().unwrap();
    let t0 = std::time::Instant::now();
    while child.try_wait().unwrap().is_none() {
        // Each file's host has its own start-up limit (10 s); far less is needed.
        if t0.elapsed() > std::time::Duration::from_secs(240) {
            let _ = child.kill();
            panic!("agon plugins hangs");
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    let out = Ran::new(&command, child.wait_with_output().unwrap());
    let (stdout, stderr) = (&out.stdout, &out.stderr);
    // Exit status 1 is agon's own error exit; a panic of agon itself exits with 101. (A copy's
    // host may panic inside abi_stable: that is quoted from its stderr in the copy's error.)
    assert_eq!(
        out.status.code(),
        Some(1),
        "the truncated copies are errors: {stderr}"
    );
    for file in &files {
        let name = file.display().to_string();
        assert!(
            stdout.contains(&name) || stderr.contains(&name),
            "{name} neither listed nor refused:\n{stdout}\n{stderr}"
        );
    }
}

/// A flag's spelling of the release before still works, and says what replaced it.
#[test]
fn an_old_spelling_works_and_warns() {
    let out = agon_output(&["cache", "gc", "--older-than", "100000", "--dry-run"]).expect_success();
    assert_has(
        &out.stderr,
        "agon: warning: --older-than is now --older-than-days; the old spelling goes in the next release",
    );
    let out =
        agon_output(&["cache", "gc", "--older-than-days", "100000", "--dry-run"]).expect_success();
    assert!(!out.stderr.contains("warning"), "{}", out.stderr);
}
