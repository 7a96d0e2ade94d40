//! Every parser of outside input, fed arbitrary bytes and mutations of the course's real maps
//! and puzzles (built in: `plugin-api/games/src/GAME/instances/`; proptest, a bounded number of cases each so the suite stays quick): the
//! ReversiXT maps and TCP frames, Flow Free and Lights Out instances, match records (and
//! `replay verify` on those that still parse), bot specs and game parameters; through the
//! binary, tournament configurations and journals. Zero panics, an answer within the call's
//! time, and every refusal says where (a line and column, or the file).

use agon_engine::BotSpec;
use agon_engine::MatchRecord;
use agon_games::contract::RawParams;
use agon_games::flowfree::Puzzle;
use agon_games::lightsout::Board;
use agon_games::registry::Registry;
use agon_games::reversixt::course_wire::{Message, MAX_PAYLOAD};
use agon_games::reversixt::Map;
use agon_tests::{agon, instances, run, scratch, spec, tournament_run_args, Ran};
use proptest::prelude::*;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

fn files_in(dir: &Path, extension: &str) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == extension) {
                found.push(path);
            }
        }
    }
    found.sort();
    found
}

fn corpus(dir: &str, extension: &str) -> &'static [Vec<u8>] {
    static MAPS: OnceLock<Vec<Vec<u8>>> = OnceLock::new();
    static PUZZLES: OnceLock<Vec<Vec<u8>>> = OnceLock::new();
    let cell = if extension == "map" { &MAPS } else { &PUZZLES };
    cell.get_or_init(|| {
        files_in(&instances(dir), extension)
            .iter()
            .map(|p| std::fs::read(p).unwrap())
            .collect()
    })
}

/// A copy of `seed` with each `(position, byte)` written over it, cut at `cut` if given.
fn mutate(seed: &[u8], edits: &[(usize, u8)], cut: Option<usize>) -> Vec<u8> {
    let mut bytes = seed.to_vec();
    if !bytes.is_empty() {
        for &(at, byte) in edits {
            let at = at % bytes.len();
            bytes[at] = byte;
        }
    }
    if let Some(cut) = cut {
        bytes.truncate(cut % (bytes.len() + 1));
    }
    bytes
}

/// Bytes a parser of text is likely to trip on: digits, separators, line ends, signs.
fn interesting_byte() -> impl Strategy<Value = u8> {
    prop_oneof![
        Just(b' '),
        Just(b'\n'),
        Just(b'\r'),
        Just(b'-'),
        Just(b'<'),
        Just(b'>'),
        Just(b'0'),
        Just(b'9'),
        any::<u8>(),
    ]
}

fn edits() -> impl Strategy<Value = Vec<(usize, u8)>> {
    proptest::collection::vec((any::<usize>(), interesting_byte()), 0..12)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn reversixt_maps_refuse_with_a_place_or_load(
        which in any::<usize>(),
        edits in edits(),
        cut in proptest::option::of(any::<usize>()),
    ) {
        let maps = corpus("reversixt", "map");
        let bytes = mutate(&maps[which % maps.len()], &edits, cut);
        let text = String::from_utf8_lossy(&bytes);
        for parsed in [Map::parse(&text), Map::parse_lenient(&text)] {
            match parsed {
                Ok(map) => {
                    // What loads reads back from its own text.
                    prop_assert!(Map::parse_lenient(&map.to_text()).is_ok());
                }
                Err(e) => prop_assert!(e.line >= 1 && e.column >= 1, "{e}"),
            }
        }
    }

    #[test]
    fn flowfree_puzzles_refuse_with_a_place_or_load(
        which in any::<usize>(),
        edits in edits(),
        cut in proptest::option::of(any::<usize>()),
    ) {
        let puzzles = corpus("flowfree", "txt");
        let bytes = mutate(&puzzles[which % puzzles.len()], &edits, cut);
        if let Err(e) = Puzzle::parse(&String::from_utf8_lossy(&bytes)) {
            prop_assert!(e.line >= 1 && e.column >= 1, "{e}");
        }
    }

    #[test]
    fn lightsout_boards_refuse_with_a_place_or_load(
        seed in prop_oneof![Just("#.#\n010\n...\n"), Just("##\n##\n"), Just("0\n")],
        edits in edits(),
        cut in proptest::option::of(any::<usize>()),
        free in proptest::collection::vec(any::<u8>(), 0..64),
    ) {
        for bytes in [mutate(seed.as_bytes(), &edits, cut), free.clone()] {
            if let Err(e) = Board::parse(&String::from_utf8_lossy(&bytes)) {
                prop_assert!(e.line >= 1 && e.column >= 1, "{e}");
            }
        }
    }

    #[test]
    fn reversixt_frames_are_refused_before_anything_is_allocated(
        bytes in proptest::collection::vec(any::<u8>(), 0..64),
        kind in 0u8..12,
        length in prop_oneof![Just(u32::MAX), Just(MAX_PAYLOAD + 1), any::<u32>()],
    ) {
        // Arbitrary bytes, then a header announcing up to 2^32 - 1 bytes, then half a frame.
        let _ = Message::read_from(&mut &bytes[..]);
        let mut frame = vec![kind];
        frame.extend(length.to_be_bytes());
        frame.extend(&bytes);
        let started = Instant::now();
        match Message::read_from(&mut &frame[..]) {
            Ok(message) => prop_assert_eq!(message.encode().len(), 5 + length as usize),
            Err(e) => prop_assert!(!e.to_string().is_empty()),
        }
        prop_assert!(started.elapsed() < Duration::from_secs(1));
    }

    #[test]
    fn bot_specs_parse_or_say_what_is_wrong(spec in "\\PC{0,40}") {
        if let Err(e) = spec.parse::<BotSpec>() {
            prop_assert!(e.to_string().contains("expected FILE:BOT"), "{e}");
        }
    }

    #[test]
    fn game_parameters_are_refused_by_name_or_accepted(
        game in 0usize..Registry::builtin().names().len(),
        pairs in proptest::collection::vec(
            (
                prop_oneof![
                    Just("rows".to_string()), Just("cols".to_string()), Just("n".to_string()),
                    Just("map".to_string()), Just("instance".to_string()),
                    Just("time".to_string()), Just("depth".to_string()),
                    Just("turns".to_string()), Just("puzzle".to_string()),
                    Just("players".to_string()), Just("robots".to_string()),
                    Just("idle_rounds".to_string()), Just("max_rounds".to_string()), "\\PC{0,8}"
                ],
                prop_oneof![
                    "-?[0-9]{1,20}", "[0-9]{0,3}\\.[0-9]{0,3}", Just("NaN".to_string()),
                    Just("inf".to_string()), Just("1e400".to_string()), "\\PC{0,12}"
                ],
            ),
            0..4,
        ),
    ) {
        let registry = Registry::builtin();
        let rules = registry.games().nth(game).unwrap();
        let params: RawParams = pairs.into_iter().collect();
        // Refused with a message, or a game that starts: never a panic.
        if let Ok(session) = rules.new_session(&params, &agon_engine::GameFiles) {
            let _ = session.to_act();
        }
        let _ = rules.seats_for(&params, &agon_engine::GameFiles);
    }
}

/// A real record of each kind of game, written once by the binary.
fn records() -> &'static [String] {
    static RECORDS: OnceLock<Vec<String>> = OnceLock::new();
    RECORDS.get_or_init(|| {
        let dir = scratch("fuzz-records");
        let map = instances("reversixt").join("heartExercise3.map");
        let games: [(&str, Vec<String>, [String; 2]); 3] = [
            (
                "breakthrough",
                Vec::new(),
                [
                    spec("breakthrough-random", "random"),
                    spec("breakthrough-random", "random"),
                ],
            ),
            (
                "reversixt",
                vec!["--param".into(), format!("map={}", map.display())],
                [
                    spec("reversixt-random", "random"),
                    spec("reversixt-greedy", "greedy"),
                ],
            ),
            (
                "rectangles",
                ["n=8", "robots=3", "max_rounds=40"]
                    .iter()
                    .flat_map(|p| ["--param".to_string(), p.to_string()])
                    .collect(),
                [
                    spec("rectangles-army", "army"),
                    spec("rectangles-random", "random"),
                ],
            ),
        ];
        games
            .iter()
            .map(|(game, params, bots)| {
                let file = dir.join(format!("{game}.json"));
                run(agon()
                    .args(["match", "--game", game, "--host", "inline", "--seed", "3"])
                    .args(params)
                    .args(["--bot", &bots[0], "--bot", &bots[1], "--record"])
                    .arg(&file))
                .expect_success();
                agon_tests::read(&file)
            })
            .collect()
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(150))]

    #[test]
    fn match_records_refuse_or_verify_without_panicking(
        which in 0usize..3,
        edits in edits(),
        cut in proptest::option::of(any::<usize>()),
    ) {
        let bytes = mutate(records()[which].as_bytes(), &edits, cut);
        let text = String::from_utf8_lossy(&bytes);
        if let Ok(record) = serde_json::from_str::<MatchRecord>(&text) {
            let _ = agon_engine::replay::verify(&record, &Registry::builtin());
        }
    }
}

/// Runs the binary, killing it if it outlives `limit` (its standard output is not kept).
fn run_bounded(args: &[&str], limit: Duration) -> Ran {
    let mut command = agon();
    command
        .args(args)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped());
    let mut child = command.spawn().unwrap();
    let started = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if started.elapsed() > limit {
            let _ = child.kill();
            panic!("agon {args:?} did not end within {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    Ran::new(&command, child.wait_with_output().unwrap())
}

/// Mutated tournament configurations and journals through `agon tournament plan` and
/// `agon tournament report`: each exits 0 or 1 (never a panic, never killed by a signal),
/// promptly, and a refusal names the file.
#[test]
fn tournament_configs_and_journals_refuse_by_name_or_load() {
    use rand::{Rng, SeedableRng};
    let dir = scratch("fuzz-tournament");
    let config = format!(
        "game = \"breakthrough\"\nseed = 1\ngames_per_pairing = 2\nhost = \"inline\"\n\
         move_ms = 0\n[params]\nrows = 6\ncols = 6\n\
         [[entrant]]\nname = \"a\"\nbot = \"{random}\"\n\
         [[entrant]]\nname = \"b\"\nbot = \"{random}\"\n",
        random = spec("breakthrough-random", "random")
    );
    let cfg = dir.join("t.toml");
    std::fs::write(&cfg, &config).unwrap();
    let folder = dir.join("run");
    let mut args = tournament_run_args(&cfg, &folder);
    args.push("--quiet");
    run_bounded(&args, Duration::from_secs(60)).expect_success();
    let journal = std::fs::read(folder.join("journal.jsonl")).unwrap();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(23);
    let alphabet = b" \n\"=[]{}:,0123456789-.ae";
    let mut random_edits = |len: usize| -> Vec<(usize, u8)> {
        (0..rng.random_range(1..6))
            .map(|_| {
                let byte = if rng.random_bool(0.5) {
                    alphabet[rng.random_range(0..alphabet.len())]
                } else {
                    rng.random()
                };
                (rng.random_range(0..len.max(1)), byte)
            })
            .collect()
    };
    for case in 0..40 {
        let bad_cfg = dir.join(format!("bad{case}.toml"));
        std::fs::write(
            &bad_cfg,
            mutate(config.as_bytes(), &random_edits(config.len()), None),
        )
        .unwrap();
        let out = run_bounded(
            &["tournament", "plan", bad_cfg.to_str().unwrap()],
            Duration::from_secs(30),
        );
        let (code, stderr) = (out.status.code(), out.stderr);
        assert!(
            matches!(code, Some(0 | 1)),
            "config {case}: {code:?} {stderr}"
        );
        assert!(!stderr.contains("panicked"), "config {case}: {stderr}");
        if code == Some(1) {
            assert!(
                stderr.contains(&format!("bad{case}.toml")),
                "config {case}: {stderr}"
            );
        }

        std::fs::write(
            folder.join("journal.jsonl"),
            mutate(&journal, &random_edits(journal.len()), None),
        )
        .unwrap();
        let out = run_bounded(
            &["tournament", "report", folder.to_str().unwrap()],
            Duration::from_secs(30),
        );
        let (code, stderr) = (out.status.code(), out.stderr);
        assert!(
            matches!(code, Some(0 | 1)),
            "journal {case}: {code:?} {stderr}"
        );
        assert!(!stderr.contains("panicked"), "journal {case}: {stderr}");
        if code == Some(1) {
            assert!(stderr.contains("journal"), "journal {case}: {stderr}");
        }
    }
}
