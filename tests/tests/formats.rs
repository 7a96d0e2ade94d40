//! Tournament formats through the `agon` binary: a Swiss tournament round by round (and
//! resumed between rounds), a gauntlet, `agon sprt`, and the configurations they refuse.

use agon_tests::{
    agon_ok as ok, agon_output, assert_has, plugin, scratch, standings, tournament_config,
    tournament_run_args,
};
use serde_json::Value;
use std::path::{Path, PathBuf};

fn bot(package: &str, bot: &str) -> String {
    format!("{}:{bot}", plugin(package).display())
}

fn alphabeta(depth: u32, heuristic: &str) -> String {
    format!(
        "{}?depth={depth}&heuristic={heuristic}",
        bot("breakthrough-alphabeta", "alphabeta")
    )
}

fn five_entrants() -> Vec<(&'static str, String)> {
    vec![
        ("random", bot("breakthrough-random", "random")),
        ("o1", alphabeta(1, "offensive1")),
        ("d2", alphabeta(1, "defensive2")),
        ("o2", alphabeta(2, "offensive2")),
        ("random2", bot("breakthrough-random", "random")),
    ]
}

fn config(dir: &Path, extra: &str, entrants: &[(&str, String)]) -> PathBuf {
    tournament_config(
        dir,
        &format!("game = \"breakthrough\"\nseed = 5\nhost = \"thread\"\nmove_ms = 500\n{extra}"),
        entrants,
    )
}

fn run(cfg: &Path, out: &Path) -> String {
    let mut args = tournament_run_args(cfg, out);
    args.push("--quiet");
    ok(&args)
}

fn json(path: PathBuf) -> Value {
    serde_json::from_str(&agon_tests::read(path)).unwrap()
}

fn plan_games(dir: &Path) -> Vec<(String, Vec<u64>)> {
    json(dir.join("tournament.json"))["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| {
            let seats = g["seats"].as_array().unwrap();
            (
                g["id"].as_str().unwrap().to_string(),
                seats.iter().map(|s| s.as_u64().unwrap()).collect(),
            )
        })
        .collect()
}

/// Five entrants, three rounds of two meetings of two games: one bye a round, each to another
/// entrant; no rematch; a shard is refused; stopped after its first round (its later rounds
/// not laid out yet), it resumes to the same rounds and standings.
#[test]
fn a_swiss_tournament_pairs_round_by_round_and_resumes_between_rounds() {
    let dir = scratch("format-swiss");
    let cfg = config(&dir, "format = \"swiss\"\nrounds = 3\n", &five_entrants());
    let out = dir.join("out");
    run(&cfg, &out);
    let games = plan_games(&out);
    assert_eq!(games.len(), 3 * 2 * 2);
    let mut byes = Vec::new();
    let mut met = std::collections::HashSet::new();
    for round in 0..3 {
        let in_round: Vec<&Vec<u64>> = games
            .iter()
            .filter(|(id, _)| id.contains(&format!("-r{round:02}-")))
            .map(|(_, seats)| seats)
            .collect();
        assert_eq!(in_round.len(), 4, "round {round}");
        let playing: std::collections::BTreeSet<u64> =
            in_round.iter().flat_map(|s| s.iter().copied()).collect();
        assert_eq!(playing.len(), 4);
        byes.push((0..5).find(|e| !playing.contains(e)).unwrap());
        for seats in in_round.iter().step_by(2) {
            let pair = (seats[0].min(seats[1]), seats[0].max(seats[1]));
            assert!(met.insert(pair), "round {round}: {pair:?} met before");
        }
    }
    byes.sort();
    byes.dedup();
    assert_eq!(byes.len(), 3, "three different byes");
    let whole = standings(&out);
    assert_eq!(whole["tournament"]["games_played"], 12);
    assert_has(
        &agon_tests::read(out.join("report.md")),
        "Swiss, 3 rounds paired by score.",
    );

    let shard = agon_output(&[
        "tournament",
        "run",
        cfg.to_str().unwrap(),
        "--out",
        dir.join("shard").to_str().unwrap(),
        "--shard",
        "0/2",
    ])
    .expect_failure();
    assert_has(&shard.stderr, "cannot be split into shards");

    // The folder as a stop after the first round left it: the plan holds that round alone.
    let cut = dir.join("cut");
    std::fs::create_dir_all(&cut).unwrap();
    let mut plan = json(out.join("tournament.json"));
    let first: Vec<Value> = plan["games"].as_array().unwrap()[..4].to_vec();
    plan["games"] = Value::Array(first);
    std::fs::write(cut.join("tournament.json"), plan.to_string()).unwrap();
    let journal = agon_tests::read(out.join("journal.jsonl"));
    let kept: String = journal
        .lines()
        .filter(|l| l.contains("-r00-"))
        .map(|l| format!("{l}\n"))
        .collect();
    assert_eq!(kept.lines().count(), 4);
    std::fs::write(cut.join("journal.jsonl"), kept).unwrap();
    ok(&["tournament", "resume", cut.to_str().unwrap(), "--quiet"]);
    assert_eq!(plan_games(&cut), games, "the same rounds");
    assert_eq!(standings(&cut)["standings"], whole["standings"]);
}

/// The candidates play the field and nothing else.
#[test]
fn a_gauntlet_plays_its_candidates_against_the_field() {
    let dir = scratch("format-gauntlet");
    let entrants = &five_entrants()[..4];
    let cfg = config(
        &dir,
        "format = \"gauntlet\"\ncandidates = [\"o2\", \"o1\"]\n",
        entrants,
    );
    let out = dir.join("out");
    run(&cfg, &out);
    let games = plan_games(&out);
    // Two candidates (entrants 1 and 3) x two field members x two games.
    assert_eq!(games.len(), 8);
    for (id, seats) in &games {
        let candidates = seats.iter().filter(|&&e| e == 1 || e == 3).count();
        assert_eq!(candidates, 1, "{id}: {seats:?}");
    }
    assert_eq!(standings(&out)["tournament"]["games_played"], 8);
    assert_has(
        &agon_tests::read(out.join("report.md")),
        "Gauntlet: o1, o2 against the field.",
    );
}

/// `agon sprt` finds a searching bot stronger than a random one, and not the other way round;
/// the verdict is in sprt.json.
#[test]
fn sprt_decides_which_build_is_stronger() {
    let dir = scratch("format-sprt");
    let strong = alphabeta(2, "offensive2");
    let weak = bot("breakthrough-random", "random");
    for (name, old, new, verdict) in [
        ("gain", &weak, &strong, "h1"),
        ("loss", &strong, &weak, "h0"),
    ] {
        let out = dir.join(name);
        let printed = ok(&[
            "sprt",
            "--game",
            "breakthrough",
            old,
            new,
            "--elo0",
            "0",
            "--elo1",
            "100",
            "--host",
            "thread",
            "--move-ms",
            "500",
            "--out",
            out.to_str().unwrap(),
            "--quiet",
        ]);
        assert_has(&printed, &format!("{} accepted", verdict.to_uppercase()));
        let state = json(out.join("sprt.json"));
        assert_eq!(state["verdict"], verdict, "{name}: {state}");
        assert_has(
            &agon_tests::read(out.join("report.md")),
            &format!("{} accepted", verdict.to_uppercase()),
        );
        let pairs: u64 = state["pentanomial"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c.as_u64().unwrap())
            .sum();
        assert!((5..=100).contains(&pairs), "{name}: {pairs} pairs");
        let again = agon_output(&[
            "sprt",
            "--game",
            "breakthrough",
            old,
            new,
            "--out",
            out.to_str().unwrap(),
        ])
        .expect_failure();
        assert_has(&again.stderr, "agon tournament resume");
    }
}

/// Each format's keys only with it; what a format cannot play is refused before any game.
#[test]
fn formats_refuse_what_they_cannot_play() {
    let dir = scratch("format-refusals");
    let two = &five_entrants()[..2];
    let three = &five_entrants()[..3];
    for (extra, entrants, expected) in [
        (
            "rounds = 3\n",
            two,
            "rounds: belongs to `format = \"swiss\"`",
        ),
        (
            "format = \"swiss\"\nrounds = 2\ngames_per_pairing = 1\n",
            two,
            "even number",
        ),
        ("format = \"swiss\"\n", two, "rounds = N"),
        ("format = \"knockout\"\n", two, "unknown variant"),
        (
            "format = \"gauntlet\"\ncandidates = [\"nobody\"]\n",
            two,
            "`nobody`",
        ),
        ("format = \"sprt\"\n[sprt]\nelo1 = 5\n", three, "two builds"),
        (
            "format = \"sprt\"\n[sprt]\nelo0 = 5\nelo1 = 0\n",
            two,
            "elo0 < elo1",
        ),
    ] {
        let sub = dir.join(format!("c{}", expected.len()));
        std::fs::create_dir_all(&sub).unwrap();
        let cfg = config(&sub, extra, entrants);
        let mut args = tournament_run_args(&cfg, &sub);
        args.push("--quiet");
        let refused = agon_output(&args).expect_failure();
        assert_has(&refused.stderr, expected);
    }
}
