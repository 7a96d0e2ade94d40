//! Tournaments through the `agon` binary: interrupted and resumed, sharded and merged,
//! refused configurations, the report.

use agon_tests::{
    agon, agon_ok as ok, agon_output, assert_has, assert_has_all, plugin, run, scratch, standings,
    tournament_config, tournament_run, tournament_run_args,
};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// The seed secret of runs that must play the same games as another run of the config.
fn secret() -> String {
    agon_tests::TEST_SECRET.to_string()
}

/// `agon tournament run CFG --out OUT --quiet` under the tests' seed secret, which must
/// succeed; its stdout.
fn run_quietly(cfg: &impl AsRef<Path>, out: &Path) -> String {
    let secret = secret();
    let mut args = tournament_run_args(cfg.as_ref(), out);
    args.extend(["--seed-secret", &secret, "--quiet"]);
    ok(&args)
}

/// A configuration over the built plugins, with `extra` lines before the entrants.
fn config(dir: &Path, extra: &str, entrants: &[(&str, String)]) -> PathBuf {
    tournament_config(
        dir,
        &format!("game = \"breakthrough\"\nseed = 5\n{extra}"),
        entrants,
    )
}

fn bot(package: &str, bot: &str) -> String {
    format!("{}:{bot}", plugin(package).display())
}

type Entrants = Vec<(&'static str, String)>;

fn three_entrants() -> Entrants {
    vec![
        ("random", bot("breakthrough-random", "random")),
        (
            "o2",
            format!(
                "{}?depth=3&heuristic=offensive2",
                bot("breakthrough-alphabeta", "alphabeta")
            ),
        ),
        (
            "d2",
            format!(
                "{}?depth=3&heuristic=defensive2",
                bot("breakthrough-alphabeta", "alphabeta")
            ),
        ),
    ]
}

fn journal_ids(dir: &Path) -> Vec<String> {
    std::fs::read_to_string(dir.join("journal.jsonl"))
        .unwrap_or_default()
        .lines()
        .map(|l| {
            serde_json::from_str::<Value>(l).unwrap()["id"]
                .as_str()
                .unwrap()
                .to_string()
        })
        .collect()
}

/// Killed with SIGKILL in the middle and resumed: the same standings as an uninterrupted run,
/// every game once.
#[test]
fn a_killed_run_resumes_to_identical_standings() {
    let dir = scratch("tournament-kill");
    let cfg = config(
        &dir,
        "games_per_pairing = 12\nconcurrency = 2",
        &three_entrants(),
    );
    let whole = dir.join("whole");
    run_quietly(&cfg, &whole);
    assert_eq!(journal_ids(&whole).len(), 36);

    let cut = dir.join("cut");
    let mut child = tournament_run(&cfg, &cut)
        .args(["--seed-secret", &secret(), "--quiet"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let t0 = Instant::now();
    while journal_ids(&cut).len() < 4 && t0.elapsed() < Duration::from_secs(60) {
        std::thread::sleep(Duration::from_millis(5));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let at_kill = journal_ids(&cut).len();
    assert!(
        (4..36).contains(&at_kill),
        "killed after {at_kill} of 36 games"
    );
    let out = ok(&["tournament", "resume", cut.to_str().unwrap(), "--quiet"]);
    assert!(out.contains(&format!("({at_kill} already done)")), "{out}");
    let mut ids = journal_ids(&cut);
    assert_eq!(ids.len(), 36, "no game lost or played twice");
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), 36);
    assert_eq!(standings(&cut), standings(&whole));
    // Resuming a finished tournament plays nothing and changes nothing.
    let out = ok(&[
        "tournament",
        "resume",
        cut.to_str().unwrap(),
        "--quiet",
        "--concurrency",
        "1",
    ]);
    assert_has(&out, "0 played");
    assert_eq!(journal_ids(&cut).len(), 36);
}

/// Three shards, one of them chosen the way a Slurm job array does, merged: one run.
#[test]
fn three_shards_merged_equal_one_run() {
    let dir = scratch("tournament-shards");
    let entrants = vec![
        ("r1", bot("breakthrough-random", "random")),
        (
            "ab",
            format!("{}?depth=1", bot("breakthrough-alphabeta", "alphabeta")),
        ),
        ("r2", bot("breakthrough-random", "random")),
    ];
    let cfg = config(&dir, "games_per_pairing = 6\nhost = \"thread\"\n[[sweep]]\nname = \"first\"\nvalues = [\"white\", \"black\"]", &entrants);
    let cfg = cfg.to_str().unwrap();
    let whole = dir.join("whole");
    // One seed secret for the whole run and every shard (as an option, or from the
    // environment as a job array passes it): every shard plays its games as the whole run.
    let secret = secret();
    run_quietly(&cfg, &whole);
    let plan = ok(&["tournament", "plan", cfg]);
    assert_eq!(plan.lines().count(), 36);
    let shard = |i: u32| dir.join(format!("shard{i}"));
    // `agon tournament merge FOLDERS --out never`, which must fail writing nothing: its stderr.
    let refused_merge = |folders: &[&Path]| {
        let never = dir.join("never");
        let mut args = vec!["tournament", "merge"];
        args.extend(folders.iter().map(|f| f.to_str().unwrap()));
        args.extend(["--out", never.to_str().unwrap()]);
        let stderr = agon_output(&args).expect_failure().stderr;
        assert!(!never.exists());
        stderr
    };
    ok(&[
        "tournament",
        "run",
        cfg,
        "--out",
        shard(0).to_str().unwrap(),
        "--shard",
        "0/3",
        "--seed-secret",
        &secret,
        "--quiet",
    ]);
    let out = run(agon()
        .args([
            "tournament",
            "run",
            cfg,
            "--out",
            shard(1).to_str().unwrap(),
            "--quiet",
        ])
        .env("SLURM_ARRAY_TASK_ID", "1")
        .env("SLURM_ARRAY_TASK_MIN", "0")
        .env("SLURM_ARRAY_TASK_MAX", "2")
        .env("SLURM_ARRAY_TASK_COUNT", "3")
        .env("AGON_SEED_SECRET", &secret))
    .expect_success();
    assert_has(&out.stdout, "in shard 1/3");
    // Shard 1 of 3 plays games i with (i + i / 3) mod 3 = 1, and its folder holds only those.
    let planned: Vec<&str> = plan.lines().collect();
    let mut dealt: Vec<String> = (0..planned.len())
        .filter(|i| (i % 3 + i / 3) % 3 == 1)
        .map(|i| planned[i].to_string())
        .collect();
    dealt.sort();
    let mut played = journal_ids(&shard(1));
    played.sort();
    assert_eq!(played, dealt);
    let slice: Value =
        serde_json::from_str(&agon_tests::read(shard(1).join("tournament.json"))).unwrap();
    assert_eq!(slice["games"].as_array().unwrap().len(), 12);
    assert_eq!(slice["games_total"], 36);
    // Task 1 resubmitted alone (Slurm then says 1 task, ids 1-1) plays shard 1 of 3 again, by
    // the count the first array left in the results folder, never the whole plan.
    let resubmitted = |results: &Path| {
        run(agon()
            .args(["tournament", "run", cfg, "--quiet", "--out"])
            .arg(results.join("again"))
            .env("SLURM_ARRAY_TASK_ID", "1")
            .env("SLURM_ARRAY_TASK_MIN", "1")
            .env("SLURM_ARRAY_TASK_MAX", "1")
            .env("SLURM_ARRAY_TASK_COUNT", "1")
            .env("AGON_SEED_SECRET", &secret))
    };
    assert_has(&resubmitted(&dir).expect_success().stdout, "in shard 1/3");
    let mut again = journal_ids(&dir.join("again"));
    again.sort();
    assert_eq!(again, played);
    // Into a results folder no array has written to, it cannot know the count: refused.
    let fresh = dir.join("fresh-results");
    let refused = resubmitted(&fresh).expect_failure().stderr;
    assert_has_all(&refused, &["cannot tell how many shards", "shards = N"]);
    assert!(!fresh.join("again").exists());
    let merged = dir.join("merged");
    // Two of three shards: the merge refuses, naming what is missing, and writes nothing.
    let partial = dir.join("partial");
    let (shard0, shard1) = (shard(0), shard(1));
    let two_shards = |extra: &[&str]| {
        let mut args = vec![
            "tournament",
            "merge",
            shard0.to_str().unwrap(),
            shard1.to_str().unwrap(),
            "--out",
            partial.to_str().unwrap(),
        ];
        args.extend(extra);
        agon_output(&args)
    };
    let stderr = two_shards(&[]).expect_failure().stderr;
    assert_has(
        &stderr,
        "shard 2 of 3 has no folder among those given (12 games)",
    );
    assert!(!partial.exists());
    // A merge killed earlier left its staging folder: it does not block the next merge.
    let stale = dir.join(".partial.merging.99999999");
    std::fs::create_dir_all(stale.join("records")).unwrap();
    let out = two_shards(&["--allow-missing"]).expect_success();
    assert_has(&out.stderr, "shard 2 of 3 has no folder");
    assert_eq!(standings(&partial)["tournament"]["games_missing"], 12);
    assert!(!stale.exists());
    // Into a folder that holds something: refused.
    let out = two_shards(&["--allow-missing"]).expect_failure();
    assert!(out.stderr.contains("not empty"));
    ok(&[
        "tournament",
        "run",
        cfg,
        "--out",
        shard(2).to_str().unwrap(),
        "--shard",
        "2/3",
        "--seed-secret",
        &secret,
        "--quiet",
    ]);
    for i in 0..3 {
        assert_eq!(journal_ids(&shard(i)).len(), 12);
    }
    // A shard folder whose task never played: named as the shard without a journal.
    let unplayed = dir.join("unplayed");
    std::fs::create_dir_all(&unplayed).unwrap();
    std::fs::copy(
        shard(1).join("tournament.json"),
        unplayed.join("tournament.json"),
    )
    .unwrap();
    let stderr = refused_merge(&[&shard(0), &unplayed, &shard(2)]);
    assert_has(&stderr, "shard 1 of 3 (");
    assert_has(&stderr, "unplayed) has no journal");
    ok(&[
        "tournament",
        "merge",
        shard(0).to_str().unwrap(),
        shard(1).to_str().unwrap(),
        shard(2).to_str().unwrap(),
        "--out",
        merged.to_str().unwrap(),
    ]);
    assert_eq!(standings(&merged), standings(&whole));
    // A game recorded twice with different results (a shard run twice with different builds,
    // or a tampered journal): the merge names it and refuses.
    let journal0 = agon_tests::read(shard(0).join("journal.jsonl"));
    let mut entry: Value = serde_json::from_str(journal0.lines().next().unwrap()).unwrap();
    let id = entry["id"].as_str().unwrap().to_string();
    let scores: Vec<f64> = serde_json::from_value(entry["scores"].clone()).unwrap();
    entry["scores"] = serde_json::json!([scores[1], scores[0]]);
    entry["winner"] = match entry["winner"].as_u64() {
        Some(w) => serde_json::json!(1 - w),
        None => serde_json::json!(0),
    };
    let conflicting = dir.join("conflicting");
    std::fs::create_dir_all(&conflicting).unwrap();
    for file in ["tournament.json", "journal.jsonl"] {
        std::fs::copy(shard(0).join(file), conflicting.join(file)).unwrap();
    }
    let mut lines = agon_tests::read(conflicting.join("journal.jsonl"));
    lines.push_str(&format!("{entry}\n"));
    std::fs::write(conflicting.join("journal.jsonl"), lines).unwrap();
    let stderr = refused_merge(&[&shard(0), &conflicting, &shard(1), &shard(2)]);
    assert_has_all(&stderr, &["different results", &id]);
    // A shard of another layout (the same tournament in 2 shards) is refused.
    let halves = dir.join("halves");
    ok(&[
        "tournament",
        "run",
        cfg,
        "--out",
        halves.to_str().unwrap(),
        "--shard",
        "0/2",
        "--seed-secret",
        &secret,
        "--quiet",
    ]);
    let stderr = refused_merge(&[&shard(0), &halves]);
    assert_has(&stderr, "different shard layouts");
    // A shard of another configuration is refused.
    let other_dir = scratch("tournament-other");
    let other = config(
        &other_dir,
        "games_per_pairing = 2\nhost = \"thread\"",
        &entrants,
    );
    let other_out = other_dir.join("run");
    run_quietly(&other, &other_out);
    assert_has(&refused_merge(&[&shard(0), &other_out]), "cannot be merged");
}

#[test]
fn bad_configurations_are_refused_naming_the_key() {
    let dir = scratch("tournament-config");
    let good = three_entrants();
    type Case<'a> = (String, Vec<(&'a str, String)>, &'a str);
    let cases: Vec<Case> = vec![
        (
            "colour = \"red\"".into(),
            good.clone(),
            "unknown field `colour`",
        ),
        (
            "host = \"cloud\"".into(),
            good.clone(),
            "host: unknown host `cloud`",
        ),
        (
            "[params]\nrows = 99".into(),
            good.clone(),
            "params: parameters rows",
        ),
        (
            "[sandbox]\nuser = \"root\"".into(),
            good.clone(),
            "sandbox.user: `root` is root",
        ),
        (
            "".into(),
            vec![
                ("a", bot("breakthrough-random", "random")),
                ("b", "nowhere/lib.so:x".into()),
            ],
            "entrant `b`: bot: plugin file",
        ),
        (
            "".into(),
            vec![
                ("a", bot("breakthrough-random", "random")),
                ("b", bot("breakthrough-random", "randy")),
            ],
            "entrant `b`: key `bot`",
        ),
        (
            "games_per_pairing = 4294967295".into(),
            good.clone(),
            "games_per_pairing: expected 1 to 100000",
        ),
        (
            format!(
                "[[sweep]]\nname = \"first\"\nvalues = [{}]\n[[sweep]]\nname = \"move_limit\"\nvalues = [{}]\n[[sweep]]\nname = \"workers_to_base\"\nvalues = [{}]",
                vec!["\"white\""; 100].join(","),
                (1..=100).map(|i| i.to_string()).collect::<Vec<_>>().join(","),
                (1..=100).map(|i| i.to_string()).collect::<Vec<_>>().join(","),
            ),
            good.clone(),
            "the sweeps make more than 10000 parameter sets",
        ),
        (
            "games_per_pairing = 100000\n[[sweep]]\nname = \"move_limit\"\nvalues = [10,20,30,40,50,60]".into(),
            good.clone(),
            "plans 1800000 games; at most 1000000",
        ),
    ];
    for (extra, entrants, message) in cases {
        let cfg = config(&dir, &extra, &entrants);
        let out = agon_output(&tournament_run_args(&cfg, &dir.join("never")));
        assert_eq!(out.status.code(), Some(1), "{extra}");
        let stderr = out.stderr;
        assert!(stderr.contains(message), "{extra}: {stderr}");
        assert!(!dir.join("never").exists(), "nothing started");
    }
    let unknown_game = dir.join("game.toml");
    std::fs::write(&unknown_game, "game = \"chess\"\n").unwrap();
    let out = agon_output(&["tournament", "plan", unknown_game.to_str().unwrap()]);
    assert!(out.stderr.contains("game: unknown game `chess`"));
}

/// A bot that crashes while being created is excluded before any game; the rest play.
#[test]
fn a_bot_that_cannot_start_is_excluded() {
    let dir = scratch("tournament-panic-new");
    let entrants = vec![
        ("r1", bot("breakthrough-random", "random")),
        ("r2", bot("breakthrough-random", "random")),
        ("broken", bot("misbehave", "panic-new")),
    ];
    for host in ["process", "thread"] {
        let cfg = config(&dir, &format!("host = \"{host}\""), &entrants);
        let out = dir.join(format!("out-{host}"));
        let text = run_quietly(&cfg, &out);
        assert!(text.contains("excluded: broken"), "{host}: {text}");
        let s = standings(&out);
        assert_eq!(s["standings"].as_array().unwrap().len(), 2);
        assert!(
            s["tournament"]["excluded"][0]["error"]
                .as_str()
                .unwrap()
                .contains("constructor"),
            "{s}"
        );
    }
}

/// A folder entrant brings every bot of every plugin in it; a file that fails to load excludes
/// only itself, and the standings say so.
#[test]
fn a_named_entrant_that_is_no_library_excludes_only_itself() {
    let dir = scratch("tournament-not-a-library");
    let text_file = dir.join("libnotes.so");
    std::fs::write(&text_file, "a team uploaded its report instead").unwrap();
    let mut entrants = three_entrants();
    entrants.push(("notes", format!("{}:random", text_file.display())));
    let cfg = config(&dir, "games_per_pairing = 1\nhost = \"thread\"", &entrants);
    let out = dir.join("out");
    let text = run_quietly(&cfg, &out);
    assert_has(&text, "excluded: notes");
    assert_has(&text, "not a shared library");
    assert_eq!(standings(&out)["standings"].as_array().unwrap().len(), 3);
}

#[test]
fn a_broken_plugin_excludes_only_itself() {
    let dir = scratch("tournament-folder");
    let teams = dir.join("teams");
    std::fs::create_dir_all(&teams).unwrap();
    std::fs::copy(plugin("breakthrough-random"), teams.join("libteam_a.so")).unwrap();
    std::fs::copy(plugin("noop"), teams.join("libteam_b.so")).unwrap();
    std::fs::write(teams.join("libteam_c.so"), "not a library").unwrap();
    std::fs::copy(plugin("fixture-abi-mismatch"), teams.join("libteam_d.so")).unwrap();
    let cfg = dir.join("t.toml");
    std::fs::write(
        &cfg,
        "game = \"breakthrough\"\ngames_per_pairing = 2\n[[entrant]]\nfolder = \"teams\"\n",
    )
    .unwrap();
    let out = dir.join("out");
    let text = run_quietly(&cfg, &out);
    assert_has(&text, "excluded: libteam_c.so");
    let s = standings(&out);
    let names: Vec<&str> = s["standings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["name"].as_str().unwrap())
        .collect();
    assert_eq!(names.len(), 2);
    // Both plugins are the staff's: a shared team is told apart by file.
    assert!(
        names.contains(&"Agon staff (libteam_a.so)")
            && names.contains(&"Agon staff (libteam_b.so)"),
        "{names:?}"
    );
    let excluded = s["tournament"]["excluded"].as_array().unwrap();
    assert_eq!(excluded.len(), 2);
    assert!(excluded
        .iter()
        .any(|e| e["error"].as_str().unwrap().contains("ABI layout")));
    // noop answers a2-a3 every time: illegal from its second move on, or as Black.
    let noop = s["standings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["name"] == "Agon staff (libteam_b.so)")
        .unwrap();
    assert!(noop["faults"]["illegal"].as_u64().unwrap() >= 1);
}

/// The report: standings.json with its top-level list, CSV, Markdown, and HTML whose charts
/// are well-formed XML with a bar per entrant and parameter set, with every game linked to its
/// viewer page.
#[test]
fn the_report_has_every_output_and_well_formed_charts() {
    let dir = scratch("tournament-report");
    let cfg = config(&dir, "games_per_pairing = 2\nhost = \"thread\"\n[[sweep]]\nname = \"workers_to_base\"\nvalues = [1, 2]", &three_entrants());
    let out = dir.join("out");
    let text = run_quietly(&cfg, &out);
    assert_has(&text, "report: ");
    let s = standings(&out);
    assert_eq!(s["standings"].as_array().unwrap().len(), 3);
    assert_eq!(s["per_param"].as_array().unwrap().len(), 2);
    for row in s["standings"].as_array().unwrap() {
        assert!(row["rating_low"].as_f64().unwrap() <= row["rating"].as_f64().unwrap());
        assert!(row["rating"].as_f64().unwrap() <= row["rating_high"].as_f64().unwrap());
    }
    let csv = agon_tests::read(out.join("standings.csv"));
    assert_eq!(csv.lines().count(), 4);
    assert!(
        std::fs::read_to_string(out.join("crosstable.csv"))
            .unwrap()
            .lines()
            .count()
            == 4
    );
    let md = agon_tests::read(out.join("report.md"));
    assert!(md.contains("## workers_to_base=2"));
    // Without a `name`, the title is the game's and the configuration's.
    let hash = s["tournament"]["config_hash"].as_str().unwrap();
    assert!(
        md.starts_with(&format!("# breakthrough tournament {hash}\n")),
        "{md}"
    );
    let html = agon_tests::read(out.join("report.html"));
    // Every result names the entrants, not the colours: the winner by name with its colour
    // beside it, or a draw.
    let games = &html[html.find("<h2>Games</h2>").unwrap()..];
    let results: Vec<&str> = games
        .split("<td class=\"text\">")
        .skip(1)
        .map(|cell| &cell[..cell.find("</td>").unwrap()])
        .collect();
    assert_eq!(results.len(), 12, "{games}");
    for result in &results {
        let named = ["random (", "o2 (", "d2 ("]
            .iter()
            .any(|name| result.starts_with(name));
        assert!(named || result.starts_with("draw"), "{result}");
    }
    assert!(
        results
            .iter()
            .any(|r| r.contains(" (white) wins: ") || r.contains(" (black) wins: ")),
        "{results:?}"
    );
    assert!(html.starts_with("<!DOCTYPE html>") && html.trim_end().ends_with("</html>"));
    let mut charts = Vec::new();
    let mut rest = html.as_str();
    while let Some(start) = rest.find("<svg") {
        let end = rest[start..].find("</svg>").expect("closed svg") + start + "</svg>".len();
        let svg = &rest[start..end];
        let mut reader = quick_xml::Reader::from_str(svg);
        let mut depth = 0i32;
        loop {
            match reader.read_event().expect("well-formed SVG") {
                quick_xml::events::Event::Start(_) => depth += 1,
                quick_xml::events::Event::End(_) => depth -= 1,
                quick_xml::events::Event::Eof => break,
                _ => {}
            }
        }
        assert_eq!(depth, 0);
        charts.push(svg);
        rest = &rest[end..];
    }
    let titles = [
        "Score % per parameter set",
        "Mean game score per parameter set",
        "Rating with its 95% interval",
        "Mean time per move",
        "Draws per parameter set",
    ];
    assert_eq!(charts.len(), titles.len());
    for (svg, title) in charts.iter().zip(titles) {
        assert!(svg.contains(&format!("\n{title}\n")), "{title}");
    }
    // Categorical x: a bar per entrant and parameter set (and a legend swatch), no line.
    let first_colour = "fill=\"#D23C3C\"";
    assert_eq!(
        charts[0].matches(first_colour).count(),
        2 + 1,
        "{}",
        charts[0]
    );
    assert!(!charts[0].contains("<polyline fill=\"none\" opacity=\"1\" stroke=\"#D23C3C\""));
    // The legend explains the columns; every game links to its viewer page, which exists.
    for term in [
        "mean game score</dt>",
        "rating (95% interval)</dt>",
        "ms / move</dt>",
    ] {
        assert!(html.contains(term), "{term}");
    }
    // minijinja writes `/` in attributes as `&#x2f;`, which browsers read as `/`.
    let html = html.replace("&#x2f;", "/");
    let links: Vec<&str> = html
        .match_indices("href=\"games/")
        .map(|(i, _)| {
            let link = &html[i + 6..];
            &link[..link.find('"').unwrap()]
        })
        .collect();
    assert_eq!(links.len(), 12, "a link per game");
    // One viewer page for all games, and a data file per game that it loads.
    assert!(out.join("games/viewer.html").is_file());
    for link in &links {
        let id = link
            .strip_prefix("games/viewer.html#game=")
            .unwrap_or_else(|| panic!("{link}"));
        assert!(
            out.join("games").join(format!("{id}.js")).is_file(),
            "{link}"
        );
    }
    // The cross-table is coloured by score, the per-instance table is there.
    assert!(html.contains("<h2>Cross-table</h2>") && html.contains("background: hsl("));
    assert!(html.contains("<h2>Per parameter set</h2>"));
    // `report` rewrites the same files from the folder.
    let before = agon_tests::read(out.join("standings.json"));
    ok(&["tournament", "report", out.to_str().unwrap()]);
    assert_eq!(agon_tests::read(out.join("standings.json")), before);
    // A second `run` into the same folder points to `resume`.
    let again = agon_output(&tournament_run_args(&cfg, &out));
    assert!(again.stderr.contains("agon tournament resume"));
}

/// The example Slurm script, run as a job array's three tasks would run it, then merged.
#[test]
fn the_slurm_example_runs_shards_that_merge() {
    let dir = scratch("tournament-slurm");
    let entrants = vec![
        ("r1", bot("breakthrough-random", "random")),
        ("r2", bot("breakthrough-random", "random")),
    ];
    let cfg = config(&dir, "games_per_pairing = 6\nhost = \"thread\"", &entrants);
    let results = dir.join("results");
    let script = agon_tests::workspace_root().join("docs/slurm/tournament.sbatch");
    for task in 0..3 {
        run(std::process::Command::new("bash")
            .arg(&script)
            .arg(&cfg)
            .arg(&results)
            .env("AGON", agon_tests::artifacts().join("agon"))
            .env("AGON_CACHE_DIR", agon_tests::cache_dir())
            .env("SLURM_ARRAY_TASK_ID", task.to_string())
            .env("SLURM_ARRAY_TASK_MIN", "0")
            .env("SLURM_ARRAY_TASK_MAX", "2")
            .env("SLURM_ARRAY_TASK_COUNT", "3")
            .env("SLURM_CPUS_PER_TASK", "1")
            .env("AGON_SEED_SECRET", secret()))
        .expect_success();
        assert_eq!(journal_ids(&results.join(format!("shard-{task}"))).len(), 2);
    }
    let merged = dir.join("merged");
    let shards: Vec<String> = (0..3)
        .map(|t| results.join(format!("shard-{t}")).display().to_string())
        .collect();
    let mut args = vec!["tournament", "merge"];
    args.extend(shards.iter().map(String::as_str));
    args.extend(["--out", merged.to_str().unwrap()]);
    ok(&args);
    let whole = dir.join("whole");
    run_quietly(&cfg, &whole);
    assert_eq!(standings(&merged), standings(&whole));
}

/// A three-player map beside the configuration (its path relative to the file) and a
/// two-player one in the same run: rotations for three seats, pairings for two; ranks,
/// mean ranks and ratings in the standings; every record replays.
#[test]
fn many_seat_games_rotate_entrants_and_grade_by_rank() {
    let dir = scratch("tournament-ranks");
    // Three players on a 4 x 4 board: each holds a line through the middle (rules file, "Map
    // file").
    std::fs::write(
        dir.join("three.map"),
        "3\n1\n0 0\n4 4\n0 0 0 0\n1 2 3 0\n3 1 2 0\n0 0 0 0\n",
    )
    .unwrap();
    let duel = agon_tests::instances("reversixt").join("heartExercise3.map");
    let text = format!(
        "game = \"reversixt\"\nseed = 3\ngames_per_pairing = 2\nhost = \"thread\"\n\
         [[sweep]]\nname = \"map\"\nvalues = [\"three.map\", \"{}\"]\n\
         [[entrant]]\nname = \"random\"\nbot = \"{}\"\n\
         [[entrant]]\nname = \"greedy\"\nbot = \"{}\"\n",
        duel.display(),
        bot("reversixt-random", "random"),
        bot("reversixt-greedy", "greedy"),
    );
    let cfg = dir.join("tournament.toml");
    std::fs::write(&cfg, text).unwrap();
    let out = dir.join("out");
    run_quietly(&cfg, &out);
    let ids = journal_ids(&out);
    // Three seats: 2 rotations x 2 games; two seats: 1 pair x 2 games.
    assert_eq!(ids.len(), 6, "{ids:?}");
    assert_eq!(ids.iter().filter(|id| id.contains("-s00-c")).count(), 4);
    let journal = agon_tests::read(out.join("journal.jsonl"));
    for line in journal.lines() {
        let entry: Value = serde_json::from_str(line).unwrap();
        let seats = entry["seats"].as_array().unwrap().len();
        assert_eq!(entry["ranks"].as_array().unwrap().len(), seats, "{line}");
        let total: f64 = entry["scores"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s.as_f64().unwrap())
            .sum();
        // Each seat scores the share of the others it beat: half the pairs in all.
        assert!((total - seats as f64 / 2.0).abs() < 1e-9, "{line}");
    }
    let standings = standings(&out);
    for row in standings["standings"].as_array().unwrap() {
        let mean = row["mean_rank"].as_f64().unwrap();
        assert!((1.0..=3.0).contains(&mean), "{row}");
        assert!(row["rating"].as_f64().is_some(), "{row}");
        // 2 + 2 three-seat games (two seats each in one rotation) and 2 duels.
        assert_eq!(row["games"], 4 + 2 + 2, "{row}");
    }
    for entry in std::fs::read_dir(out.join("records")).unwrap() {
        ok(&["replay", "verify", entry.unwrap().path().to_str().unwrap()]);
    }
}

/// What a grader needs at a glance: the tournament's own title, each fault's message with links
/// to the games where it happened, and viewer pages that `report` writes where missing and
/// `report --games` writes again.
#[test]
fn the_report_names_the_tournament_and_links_each_fault_to_its_games() {
    let dir = scratch("tournament-report-faults");
    let entrants: Entrants = vec![
        ("random", bot("breakthrough-random", "random")),
        ("cheater", bot("misbehave", "illegal")),
    ];
    let cfg = config(
        &dir,
        "name = \"Week 3 <ladder>\"\ngames_per_pairing = 2\nhost = \"thread\"",
        &entrants,
    );
    let out = dir.join("out");
    run_quietly(&cfg, &out);
    let html = std::fs::read_to_string(out.join("report.html"))
        .unwrap()
        .replace("&#x2f;", "/");
    assert!(
        html.contains("<title>Week 3 &lt;ladder&gt;</title>"),
        "the name, escaped"
    );
    let s = standings(&out);
    let cheater = s["standings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["name"] == "cheater")
        .unwrap();
    assert_eq!(cheater["faults"]["illegal"], 2);
    // One line per entrant and kind, not per message (the bot's answer is illegal for a
    // different reason as each colour): how often, the first message as the example, and a
    // link to each game.
    let faults = &html[html.find("id=\"faults\"").unwrap()..html.find("<h2>Games</h2>").unwrap()];
    assert_eq!(
        faults
            .matches("<td class=\"name\">cheater</td><td class=\"name\">illegal</td><td>2</td>")
            .count(),
        1,
        "{faults}"
    );
    assert_has(faults, "black has no worker on a1");
    assert_eq!(faults.matches("href=\"games/").count(), 2, "{faults}");
    let md = agon_tests::read(out.join("report.md"));
    assert!(md.starts_with("# Week 3 <ladder>\n"), "{md}");
    assert_has(
        &md,
        "| cheater | illegal | 2 | 2 | black has no worker on a1 (game ",
    );
    // Each entrant's row says what its grade is of, as the plan recorded it.
    let plan: Value = serde_json::from_str(&agon_tests::read(out.join("tournament.json"))).unwrap();
    for entrant in plan["entrants"].as_array().unwrap() {
        let name = entrant["name"].as_str().unwrap();
        let file = entrant["spec"].as_str().unwrap().split(':').next().unwrap();
        let sha = entrant["sha256"].as_str().unwrap();
        let version = format!(
            "{} {}",
            entrant["plugin"].as_str().unwrap(),
            entrant["version"].as_str().unwrap()
        );
        let row = md
            .lines()
            .find(|l| l.contains(&format!(" | {name} | ")))
            .unwrap_or_else(|| panic!("no row of {name}: {md}"));
        assert!(
            row.ends_with(&format!("| {file} | {version} | {sha} |")),
            "{row}"
        );
        let builds = &html[html.find("id=\"builds\"").expect("a builds table")..];
        let html_row = builds
            .split("<tr>")
            .find(|r| r.contains(&format!("<td class=\"name\">{name}</td>")))
            .unwrap_or_else(|| panic!("no HTML row of {name}"));
        assert_has_all(html_row, &[file, &version, &format!("<code>{sha}</code>")]);
    }
    // Results name the entrants: the winner, and the seat that forfeited by its entrant.
    let games = &html[html.find("<h2>Games</h2>").unwrap()..];
    assert_eq!(
        games.matches("random wins: cheater (seat ").count(),
        2,
        "{games}"
    );
    assert_eq!(
        games
            .matches("<td class=\"name\">cheater: illegal</td>")
            .count(),
        2,
        "{games}"
    );
    assert!(
        !games.contains("seat 0:") && !games.contains("seat 1:"),
        "{games}"
    );
    let ids: Vec<String> = journal_ids(&out);
    for id in &ids {
        assert!(
            faults.contains(&format!("href=\"games/viewer.html#game={id}\"")),
            "{id}"
        );
    }
    // `report` writes a missing data file; `--games` writes every one again.
    let page = out.join("games").join(format!("{}.js", ids[0]));
    std::fs::remove_file(&page).unwrap();
    ok(&["tournament", "report", out.to_str().unwrap()]);
    assert!(page.is_file());
    std::fs::write(&page, "stale").unwrap();
    ok(&["tournament", "report", out.to_str().unwrap()]);
    assert_eq!(agon_tests::read(&page), "stale");
    ok(&["tournament", "report", out.to_str().unwrap(), "--games"]);
    let data = agon_tests::read(&page);
    assert!(data.starts_with("Agon.loaded("));
    // The game's page words its result by entrant too.
    assert_has(&data, "random wins: cheater (seat ");
}

/// A shard's report lists only the entrants that played in it: four entrants, six games in six
/// shards, so each shard's two idle entrants are in neither its standings, its cross-table nor
/// its report.md (they were listed with no games, and before that rated at the prior, 1500).
#[test]
fn a_shard_report_lists_only_the_entrants_that_played_in_it() {
    let dir = scratch("tournament-shard-ratings");
    let random = bot("breakthrough-random", "random");
    let entrants: Vec<(&str, String)> = ["alpha", "bravo", "charlie", "delta"]
        .into_iter()
        .map(|name| (name, random.clone()))
        .collect();
    let cfg = config(&dir, "games_per_pairing = 1\nhost = \"thread\"", &entrants);
    let out = dir.join("shard");
    let mut args = tournament_run_args(&cfg, &out);
    args.extend(["--shard", "0/6", "--quiet"]);
    ok(&args);
    let s = standings(&out);
    let rows = s["standings"].as_array().unwrap();
    assert_eq!(rows.len(), 2, "{rows:?}");
    assert!(
        rows.iter()
            .all(|r| r["games"] == 1 && r["rating"].is_number()),
        "{rows:?}"
    );
    let played: Vec<&str> = rows.iter().map(|r| r["name"].as_str().unwrap()).collect();
    let mut crossed: Vec<&str> = s["crosstable"]["names"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n.as_str().unwrap())
        .collect();
    crossed.sort();
    let mut expected = played.clone();
    expected.sort();
    assert_eq!(crossed, expected);
    let md = agon_tests::read(out.join("report.md"));
    for (name, _) in &entrants {
        assert_eq!(md.contains(name), played.contains(name), "{name}: {md}");
    }
}
