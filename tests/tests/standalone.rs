//! The repository stands alone: no file names a path outside it, and every tournament
//! configuration it ships plans and plays from the checkout (its maps and puzzles built in, its
//! bots the workspace's plugins).

use agon_tests::{agon, run, scratch, shipped_config, workspace_root};
use std::path::{Path, PathBuf};

/// Folders not searched: build output and Git's own.
const NOT_SEARCHED: &[&str] = &["target", ".git"];

fn files_under(root: &Path, dir: &Path, found: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let relative = path
            .strip_prefix(root)
            .unwrap()
            .to_string_lossy()
            .into_owned();
        if NOT_SEARCHED.contains(&relative.as_str()) {
            continue;
        }
        let Ok(kind) = entry.file_type() else {
            continue;
        };
        if kind.is_dir() {
            files_under(root, &path, found);
        } else if kind.is_file() {
            found.push(path);
        }
    }
}

/// The course material that lived beside the repository while it was written.
fn outside_names() -> Vec<String> {
    // Built from parts, so that this file does not name them itself.
    let beside = ["..", "shared"].join("/");
    let mut names = vec![beside];
    for part in ["data", "rules", "seeds"] {
        names.push(["shared", part].join("/"));
    }
    names
}

/// Where `text` (the file `relative`, in the repository) names a path that climbs out of the
/// repository with `../`: more steps up than the file's folder is deep.
fn climbs_out(relative: &Path, text: &str) -> Option<String> {
    let depth = relative.components().count() - 1;
    let up = ["..", "/"].concat();
    let mut rest = text;
    while let Some(at) = rest.find(&up) {
        let run = &rest[at..];
        let steps = run
            .as_bytes()
            .chunks(3)
            .take_while(|c| *c == up.as_bytes())
            .count();
        let starts_a_path = at == 0 || !rest.as_bytes()[at - 1].is_ascii_alphanumeric();
        if starts_a_path && steps > depth {
            return Some(run.chars().take(60).collect());
        }
        rest = &rest[at + up.len() * steps.max(1)..];
    }
    None
}

#[test]
fn no_file_names_a_path_outside_the_repository() {
    let root = workspace_root();
    let mut files = Vec::new();
    files_under(&root, &root, &mut files);
    assert!(
        files.len() > 100,
        "only {} files found under {}",
        files.len(),
        root.display()
    );
    let names = outside_names();
    let mut problems = Vec::new();
    for path in &files {
        let Ok(text) = std::fs::read_to_string(path) else {
            continue; // not text
        };
        let relative = path.strip_prefix(&root).unwrap();
        for (number, line) in text.lines().enumerate() {
            if let Some(name) = names.iter().find(|n| line.contains(n.as_str())) {
                problems.push(format!(
                    "{}:{}: names `{name}`",
                    relative.display(),
                    number + 1
                ));
            }
            if let Some(path) = climbs_out(relative, line) {
                problems.push(format!(
                    "{}:{}: `{path}` leads out of the repository",
                    relative.display(),
                    number + 1
                ));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn a_path_out_of_the_repository_is_seen() {
    let up = ["..", "/"].concat();
    let two_up = format!("map = \"{up}{up}maps/x.map\"");
    assert!(climbs_out(Path::new("tournaments/a.toml"), &two_up).is_some());
    let one_up = format!("bot = \"{up}target/release/liba.so:a\"");
    assert_eq!(climbs_out(Path::new("tournaments/a.toml"), &one_up), None);
    assert!(climbs_out(Path::new("README.md"), &one_up).is_some());
    let link = format!("[guide]({up}writing-a-bot.md)");
    assert_eq!(climbs_out(Path::new("docs/games/flip.md"), &link), None);
}

/// Plans `name` and plays about `games` of its games (one shard of the plan), which must end
/// without a fault charged to a bot and with a report.
fn plays(name: &str, games: usize) {
    let dir = scratch(&format!("shipped-{}", name.trim_end_matches(".toml")));
    let config = shipped_config(name, &dir);
    let plan = run(agon().args(["tournament", "plan"]).arg(&config)).expect_success();
    let planned = plan.stdout.lines().count();
    assert!(planned > 0, "{name} plans no game");
    let shards = planned.div_ceil(games).max(1);
    let out = dir.join("out");
    let ran = run(agon()
        .args([
            "tournament",
            "run",
            "--quiet",
            "--concurrency",
            "2",
            "--shard",
        ])
        .arg(format!("0/{shards}"))
        .arg("--out")
        .arg(&out)
        .arg(&config))
    .expect_success();
    let journal = std::fs::read_to_string(out.join("journal.jsonl"))
        .unwrap_or_else(|e| panic!("{name}: no journal ({e}); agon said:\n{}", ran.stderr));
    assert!(journal.lines().count() >= 1, "{name}: no game played");
    assert!(out.join("report.html").is_file(), "{name}: no report");
}

/// Every configuration in `tournaments/`, with the games a test plays of it: a few where games
/// are quick, one where a game takes long (3,000 turns of Flip, eight players of ReversiXT).
const SHIPPED: &[(&str, usize)] = &[
    ("demo.toml", 3),
    ("flip-course.toml", 1),
    ("flowfree.toml", 3),
    ("rectangles-4p.toml", 2),
    ("rectangles-80.toml", 2),
    ("rectangles.toml", 2),
    ("reversixt-8p.toml", 1),
    ("reversixt-all-maps.toml", 2),
    ("reversixt-duels.toml", 3),
];

#[test]
fn every_shipped_configuration_is_tested() {
    let mut shipped: Vec<String> = std::fs::read_dir(workspace_root().join("tournaments"))
        .expect("tournaments/")
        .map(|e| {
            e.expect("an entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .filter(|n| n.ends_with(".toml"))
        .collect();
    shipped.sort();
    let tested: Vec<String> = SHIPPED.iter().map(|(n, _)| n.to_string()).collect();
    assert_eq!(
        shipped, tested,
        "tournaments/ and this file's SHIPPED list differ"
    );
}

macro_rules! shipped_tests {
    ($($test:ident: $index:expr,)*) => {$(
        #[test]
        fn $test() {
            let (name, games) = SHIPPED[$index];
            plays(name, games);
        }
    )*};
}

shipped_tests! {
    demo_plays: 0,
    flip_course_plays: 1,
    flowfree_plays: 2,
    rectangles_4p_plays: 3,
    rectangles_80_plays: 4,
    rectangles_plays: 5,
    reversixt_8p_plays: 6,
    reversixt_all_maps_plays: 7,
    reversixt_duels_plays: 8,
}
