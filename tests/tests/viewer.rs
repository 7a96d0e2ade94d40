//! `agon view` checked in a real browser: for a real record of every game, headless Chromium
//! opens the page from a file:// URL, steps with the keyboard, and the page must show the
//! record's final board, exactly its faults, and a legend whose colours are the board's. A
//! screenshot of each game at a mid-game ply is written to
//! `target/<profile>/viewer-screenshots/` for inspection.
//!
//! The tests that need the browser are compiled as ignored, with the reason, where none was
//! found when they were built, so `cargo test` shows them as ignored rather than passed; under
//! CI (`CI=true`, set by `.ci/run`, which installs Chromium) they run and a missing browser
//! fails them (`tests/build.rs`).

use agon_tests::browser::Browser;
use agon_tests::{
    agon, agon_ok, agon_output, artifacts, assert_has, assert_has_all, instances, match_args, run,
    scratch, spec, tournament_config, tournament_standings,
};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Plays (or solves) with `args` and returns the record's path.
fn record(dir: &Path, name: &str, args: &[&str]) -> PathBuf {
    let path = dir.join(format!("{name}.json"));
    let seed: &[&str] = if args[0] == "match" {
        &["--seed", "5"]
    } else {
        &[]
    };
    let out = agon_output(&[args, seed, &["--record", path.to_str().unwrap()]].concat());
    // A match with faults exits non-zero; its record is still written.
    assert!(
        out.status.success() || path.is_file(),
        "{name}: {}",
        out.stderr
    );
    path
}

fn view(record: &Path) -> PathBuf {
    let page = record.with_extension("html");
    agon_ok(&[
        "view",
        record.to_str().unwrap(),
        "--out",
        page.to_str().unwrap(),
    ]);
    page
}

/// Moves the page's slider to `ply`, as a user dragging it would.
fn go_to_ply(browser: &mut Browser, ply: &Value) {
    browser
        .eval(&format!(
            "(() => {{ const s = document.getElementById('slider'); s.value = {ply}; \
             s.dispatchEvent(new Event('input')); }})()"
        ))
        .unwrap();
}

fn shown_ply(browser: &mut Browser) -> u64 {
    browser
        .eval("Number(document.body.dataset.ply)")
        .unwrap()
        .as_u64()
        .unwrap()
}

/// Opens `page`, checks the last ply's board and the fault list against `record`, and leaves a
/// screenshot of a mid-game ply.
fn check_in_browser(name: &str, record: &Path, page: &Path) {
    let rec: Value = serde_json::from_str(&agon_tests::read(record)).unwrap();
    let plies = rec["moves"].as_array().unwrap().len() as u64;
    let profile = scratch(&format!("chromium-{name}"));
    let url = format!("file://{}", page.display());
    let mut browser = Browser::open(&url, &profile, 1200, 820).unwrap();
    browser
        .wait_for(
            "document.body.dataset.last !== undefined",
            Duration::from_secs(10),
        )
        .unwrap();
    assert_eq!(
        browser.eval("document.body.dataset.last").unwrap(),
        json!(plies.to_string())
    );
    assert_eq!(
        shown_ply(&mut browser),
        0,
        "{name}: a page opens at the start"
    );
    let legend = check_legend(name, &mut browser, &rec);
    if rec["game"] == "breakthrough" {
        check_breakthrough_sides(name, &mut browser, &legend);
    }
    // The keyboard: End, then back and forth with the arrows.
    browser.press("End", 35).unwrap();
    assert_eq!(
        shown_ply(&mut browser),
        plies,
        "{name}: End shows the last ply"
    );
    let shown = browser
        .eval("document.getElementById('position-text').textContent")
        .unwrap();
    assert_eq!(
        shown, rec["final_board"],
        "{name}: the displayed final position"
    );
    if rec["game"] == "rectangles" {
        check_rectangles_claims(name, &mut browser, &rec, &legend);
    }
    if plies > 0 {
        browser.press("ArrowLeft", 37).unwrap();
        assert_eq!(shown_ply(&mut browser), plies - 1, "{name}: ArrowLeft");
        browser.press("ArrowRight", 39).unwrap();
        assert_eq!(shown_ply(&mut browser), plies, "{name}: ArrowRight");
    }
    // The fault list: every recorded fault, at its ply, with its cause and detail.
    let listed = browser
        .eval(
            "[...document.querySelectorAll('#faults li.fault')].map(li => [Number(li.dataset.ply), \
             Number(li.dataset.seat), li.dataset.cause, li.querySelector('.detail').textContent])",
        )
        .unwrap();
    let recorded: Vec<Value> = rec["faults"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| json!([f["ply"], f["seat"], f["cause"], f["detail"]]))
        .collect();
    assert_eq!(listed, json!(recorded), "{name}: the fault list");
    // An illegal answer the record keeps is drawn on the board at its ply.
    for f in rec["faults"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["answer"].is_string())
    {
        go_to_ply(&mut browser, &f["ply"]);
        let drawn = browser
            .eval("document.querySelectorAll('#board .refused').length")
            .unwrap();
        assert!(
            drawn.as_u64().unwrap() > 0,
            "{name}: the refused {} is drawn",
            f["answer"]
        );
    }
    // A mid-game ply through the slider, drawn without a script error, for the screenshot.
    let mid = plies / 2;
    go_to_ply(&mut browser, &json!(mid));
    assert_eq!(shown_ply(&mut browser), mid);
    let drawn = browser
        .eval("document.querySelector('#board svg, #board p') !== null")
        .unwrap();
    assert_eq!(drawn, json!(true), "{name}: the board is drawn");
    let shots = artifacts().join("viewer-screenshots");
    std::fs::create_dir_all(&shots).unwrap();
    browser
        .screenshot(&shots.join(format!("{name}.png")))
        .unwrap();
}

/// The legend: one entry per seat, in seat order, naming the record's team and bot, each seat in
/// a colour of its own. Returns the entries (`seat`, `colour`, `name`, `team`, `who`).
fn check_legend(name: &str, browser: &mut Browser, rec: &Value) -> Vec<Value> {
    let legend = browser
        .eval(
            "[...document.querySelectorAll('#legend li')].map(li => ({seat: Number(li.dataset.seat), \
             colour: li.dataset.colour, name: li.dataset.name, \
             team: li.querySelector('.who').textContent, who: li.querySelector('.who').title}))",
        )
        .unwrap();
    let legend = legend.as_array().unwrap().clone();
    let seats = rec["seats"].as_array().unwrap();
    assert_eq!(
        legend.len(),
        seats.len(),
        "{name}: one legend entry per seat"
    );
    for (i, (entry, seat)) in legend.iter().zip(seats).enumerate() {
        assert_eq!(entry["seat"], json!(i), "{name}");
        assert_eq!(entry["team"], seat["team"], "{name}: seat {i}'s team");
        let who = format!(
            "{}:{}",
            seat["team"].as_str().unwrap(),
            seat["bot"].as_str().unwrap()
        );
        assert_eq!(
            entry["who"],
            json!(who),
            "{name}: seat {i}'s player in full"
        );
    }
    let colours: std::collections::BTreeSet<&str> = legend
        .iter()
        .map(|e| e["colour"].as_str().unwrap())
        .collect();
    assert_eq!(
        colours.len(),
        seats.len(),
        "{name}: a colour per seat: {legend:?}"
    );
    legend
}

/// Breakthrough's legend names the sides, each in its workers' colour (seat 0 White).
fn check_breakthrough_sides(name: &str, browser: &mut Browser, legend: &[Value]) {
    for (seat, side) in [(0, "White"), (1, "Black")] {
        assert_eq!(legend[seat]["name"], side, "{name}");
        let fills = browser
            .eval(&format!(
                "[...new Set([...document.querySelectorAll('#board g.piece')] \
                 .filter(g => g.querySelector('title').textContent === '{} worker') \
                 .map(g => g.querySelector('circle').getAttribute('fill')))]",
                side.to_lowercase()
            ))
            .unwrap();
        assert_eq!(
            fills,
            json!([legend[seat]["colour"]]),
            "{name}: {side}'s workers"
        );
    }
}

/// Every filled Rectangles cell is drawn in the legend colour of the player whose claim filled
/// it: a player has as many such cells as its game score (the cells its claims filled).
fn check_rectangles_claims(name: &str, browser: &mut Browser, rec: &Value, legend: &[Value]) {
    let claimed = browser
        .eval(
            "[...document.querySelectorAll('#board rect.claimed')] \
             .map(r => [Number(r.dataset.player), r.getAttribute('fill')])",
        )
        .unwrap();
    let claimed = claimed.as_array().unwrap();
    for (player, score) in rec["game_scores"].as_array().unwrap().iter().enumerate() {
        let fills: Vec<&str> = claimed
            .iter()
            .filter(|c| c[0] == json!(player))
            .map(|c| c[1].as_str().unwrap())
            .collect();
        assert_eq!(
            fills.len() as f64,
            score.as_f64().unwrap(),
            "{name}: player {player}"
        );
        let colours: std::collections::BTreeSet<&str> = fills.into_iter().collect();
        assert!(
            colours.iter().all(|f| *f == legend[player]["colour"]),
            "{name}: player {player}'s claims in its colour {}, not {colours:?}",
            legend[player]["colour"]
        );
    }
    let scored: f64 = rec["game_scores"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_f64().unwrap())
        .sum();
    assert_eq!(
        claimed.len() as f64,
        scored,
        "{name}: every filled cell has its claimer"
    );
}

/// Every game's record and its page.
#[test]
#[cfg_attr(
    agon_no_browser,
    ignore = "needs Chromium: none was found when the tests were built (AGON_CHROMIUM names one)"
)]
fn every_game_replays_in_a_real_browser() {
    let dir = scratch("viewer");
    let map = instances("reversixt").join("example.map");
    let lights = dir.join("lights.txt");
    std::fs::write(&lights, "#..#.\n.##..\n#.#.#\n..##.\n.#..#\n").unwrap();
    let flow = instances("flowfree").join("input77.txt");
    let matches: Vec<(&str, Vec<String>)> = vec![
        (
            "breakthrough",
            vec![
                "match".into(),
                "--game".into(),
                "breakthrough".into(),
                "--bot".into(),
                spec("breakthrough-alphabeta", "alphabeta"),
                "--bot".into(),
                spec("breakthrough-random", "random"),
            ],
        ),
        (
            "breakthrough-illegal",
            vec![
                "match".into(),
                "--game".into(),
                "breakthrough".into(),
                "--bot".into(),
                spec("breakthrough-random", "random"),
                "--bot".into(),
                spec("misbehave", "illegal"),
            ],
        ),
        (
            "flip",
            vec![
                "match".into(),
                "--game".into(),
                "flip".into(),
                "--param".into(),
                "turns=60".into(),
                "--bot".into(),
                spec("flip-greedy", "greedy"),
                "--bot".into(),
                spec("flip-random", "random"),
            ],
        ),
        (
            "reversixt",
            vec![
                "match".into(),
                "--game".into(),
                "reversixt".into(),
                "--param".into(),
                format!("map={}", map.display()),
                "--bot".into(),
                spec("reversixt-greedy", "greedy"),
                "--bot".into(),
                spec("reversixt-random", "random"),
                "--bot".into(),
                spec("misbehave", "illegal"),
            ],
        ),
        (
            "rectangles",
            vec![
                "match".into(),
                "--game".into(),
                "rectangles".into(),
                "--param".into(),
                "n=20".into(),
                "--param".into(),
                "max_rounds=200".into(),
                "--bot".into(),
                spec("rectangles-cavalry", "cavalry"),
                "--bot".into(),
                spec("rectangles-army", "army"),
            ],
        ),
        (
            "rectangles-illegal",
            vec![
                "match".into(),
                "--game".into(),
                "rectangles".into(),
                "--param".into(),
                "n=12".into(),
                "--param".into(),
                "max_rounds=10".into(),
                "--bot".into(),
                spec("rectangles-army", "army"),
                "--bot".into(),
                spec("misbehave", "illegal"),
            ],
        ),
        (
            "lightsout",
            vec![
                "solve".into(),
                "--game".into(),
                "lightsout".into(),
                "--bot".into(),
                spec("lightsout-gf2", "gf2"),
                "--puzzle".into(),
                lights.display().to_string(),
            ],
        ),
        (
            "flowfree",
            vec![
                "solve".into(),
                "--game".into(),
                "flowfree".into(),
                "--bot".into(),
                spec("flowfree-solver", "fast"),
                "--puzzle".into(),
                flow.display().to_string(),
            ],
        ),
    ];
    for (name, args) in &matches {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let record = record(&dir, name, &args);
        if *name == "rectangles" {
            // Both players claim cells, so both owners' shading is checked.
            let rec: Value = serde_json::from_str(&agon_tests::read(&record)).unwrap();
            assert!(
                rec["game_scores"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .all(|s| s.as_f64().unwrap() > 0.0),
                "{}",
                rec["reason"]
            );
        }
        let page = view(&record);
        check_in_browser(name, &record, &page);
    }
}

/// A record of random against random in `dir`.
fn random_game(dir: &Path) -> PathBuf {
    let random = spec("breakthrough-random", "random");
    record(dir, "bt", &match_args("breakthrough", [&random, &random]))
}

/// The page is one file: no script, style, font or image is fetched from anywhere.
#[test]
fn the_page_is_self_contained() {
    let dir = scratch("viewer-self-contained");
    let record = random_game(&dir);
    let html = agon_tests::read(view(&record));
    for external in ["src=", "href=\"http", "url(", "@import", "<link"] {
        assert!(!html.contains(external), "the page refers out: {external}");
    }
}

/// A record whose moves do not replay is refused with the first mismatch, and no page is
/// written.
#[test]
fn a_record_that_does_not_replay_is_refused() {
    let dir = scratch("viewer-refused");
    let record = random_game(&dir);
    let mut v: Value = serde_json::from_str(&agon_tests::read(&record)).unwrap();
    v["moves"][1]["action"] = json!("a1-a5");
    std::fs::write(&record, serde_json::to_string(&v).unwrap()).unwrap();
    let err = agon_output(&["view", record.to_str().unwrap()])
        .expect_failure()
        .stderr;
    assert_has_all(&err, &["does not replay", "ply 1"]);
    assert!(!record.with_extension("html").exists());
}

/// `agon match --view` writes the page of the match it just played.
#[test]
fn match_view_writes_the_page_of_the_match_just_played() {
    let dir = scratch("viewer-match");
    let (record, page) = (dir.join("m.json"), dir.join("m.html"));
    let (alphabeta, random) = (
        spec("breakthrough-alphabeta", "alphabeta"),
        spec("breakthrough-random", "random"),
    );
    let mut args = match_args("breakthrough", [&alphabeta, &random]);
    args.extend([
        "--seed",
        "9",
        "--record",
        record.to_str().unwrap(),
        "--view",
        page.to_str().unwrap(),
    ]);
    let stdout = agon_ok(&args);
    assert!(
        stdout.contains(&format!("view: {}", page.display())),
        "{stdout}"
    );
    // The result names the winner's team, its colour beside it, not the colour alone.
    let html = agon_tests::read(&page);
    assert_has(&html, "UIUC CS440 F17 seed (white) wins");
    // Without a browser the page is the one the ignored tests above would open.
    if !cfg!(agon_no_browser) {
        check_in_browser("match-view", &record, &page);
    }
}

/// A tournament report's game links open working viewers (from file:// URLs, as a grader
/// opens the folder).
#[test]
#[cfg_attr(
    agon_no_browser,
    ignore = "needs Chromium: none was found when the tests were built (AGON_CHROMIUM names one)"
)]
fn the_report_links_open_working_viewers() {
    let dir = scratch("viewer-report");
    let cfg = tournament_config(
        &dir,
        "game = \"breakthrough\"\nname = \"links\"\ngames_per_pairing = 2\nhost = \"thread\"",
        &[
            ("random", spec("breakthrough-random", "random")),
            ("alphabeta", spec("breakthrough-alphabeta", "alphabeta")),
        ],
    );
    let out = dir.join("out");
    tournament_standings(&cfg, &out);
    let report = format!("file://{}", out.join("report.html").display());
    let mut browser = Browser::open(&report, &scratch("chromium-report"), 1200, 900).unwrap();
    let links = browser
        .eval("[...document.querySelectorAll('a[href^=\"games/\"]')].map(a => a.href)")
        .unwrap();
    let links: Vec<String> = links
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l.as_str().unwrap().to_string())
        .collect();
    assert_eq!(links.len(), 2, "{links:?}");
    for link in links {
        let id = open_game_link(&mut browser, &link);
        browser.press("End", 35).unwrap();
        let record: Value = serde_json::from_str(&agon_tests::read(
            out.join("records").join(format!("{id}.json")),
        ))
        .unwrap();
        let shown = browser
            .eval("document.getElementById('position-text').textContent")
            .unwrap();
        assert_eq!(shown, record["final_board"], "{link}");
    }
}

/// The two largest pages the games make, a 3000-turn Flip game at n = 50 and an 8-player
/// ReversiXT game on the course's 8-player map, show their last position exactly. Their sizes
/// and the time the browser took to make them ready are printed (figures, not limits: see
/// `agon bench --suite viewer`).
#[test]
#[cfg_attr(
    agon_no_browser,
    ignore = "needs Chromium: none was found when the tests were built (AGON_CHROMIUM names one)"
)]
fn the_largest_pages_open_and_end_on_the_recorded_board() {
    let dir = scratch("viewer-large");
    let greedy = spec("flip-greedy", "greedy");
    let mut args = match_args("flip", [&greedy, &greedy]);
    args.extend([
        "--host",
        "inline",
        "--param",
        "n=50",
        "--param",
        "turns=3000",
    ]);
    let flip = record(&dir, "flip-3000", &args);
    let map = instances("reversixt").join("comp2019_04_8p.map");
    let greedy = spec("reversixt-greedy", "greedy");
    let mut args = vec![
        "match".to_string(),
        "--game".into(),
        "reversixt".into(),
        "--host".into(),
        "inline".into(),
        "--param".into(),
        format!("map={}", map.display()),
    ];
    for _ in 0..8 {
        args.extend(["--bot".to_string(), greedy.clone()]);
    }
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let reversixt = record(&dir, "reversixt-8", &args);
    for (name, record) in [("flip-3000", flip), ("reversixt-8", reversixt)] {
        let page = view(&record);
        let rec: Value = serde_json::from_str(&agon_tests::read(&record)).unwrap();
        let url = format!("file://{}", page.display());
        let t0 = std::time::Instant::now();
        let mut browser =
            Browser::open(&url, &scratch(&format!("chromium-{name}")), 1200, 820).unwrap();
        browser
            .wait_for(
                "document.body.dataset.readyMs !== undefined",
                Duration::from_secs(30),
            )
            .unwrap();
        let opened = t0.elapsed();
        let ready = browser
            .eval("Number(document.body.dataset.readyMs)")
            .unwrap();
        browser.press("End", 35).unwrap();
        assert_eq!(
            browser
                .eval("document.getElementById('position-text').textContent")
                .unwrap(),
            rec["final_board"],
            "{name}"
        );
        eprintln!(
            "{name}: {} plies, page {} KiB, ready {ready} ms after navigation ({} ms with the browser's start)",
            rec["moves"].as_array().unwrap().len(),
            std::fs::metadata(&page).unwrap().len() / 1024,
            opened.as_millis()
        );
    }
}

/// `--open` hands the written page to the desktop's opener (here a stand-in `xdg-open` on the
/// PATH that notes what it was given).
#[test]
fn open_hands_the_page_to_the_desktop_opener() {
    use std::os::unix::fs::PermissionsExt;
    let dir = scratch("viewer-open");
    let record = random_game(&dir);
    let bin = dir.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let noted = dir.join("opened.txt");
    let opener = bin.join("xdg-open");
    std::fs::write(
        &opener,
        // Written aside and renamed, so the test never reads it half-written.
        format!(
            "#!/bin/sh\nprintf '%s' \"$1\" > '{0}.tmp' && mv '{0}.tmp' '{0}'\n",
            noted.display()
        ),
    )
    .unwrap();
    std::fs::set_permissions(&opener, std::fs::Permissions::from_mode(0o755)).unwrap();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    run(agon()
        .env("PATH", path)
        .args(["view", record.to_str().unwrap(), "--open"]))
    .expect_success();
    let page = std::fs::canonicalize(record.with_extension("html")).unwrap();
    let t0 = std::time::Instant::now();
    while !noted.is_file() && t0.elapsed() < Duration::from_secs(10) {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert_eq!(agon_tests::read(&noted), page.display().to_string());
}

/// A long title (long team names) stays on one line in the header, cut with an ellipsis, and
/// whole in the heading's tooltip.
#[test]
#[cfg_attr(
    agon_no_browser,
    ignore = "needs Chromium: none was found when the tests were built (AGON_CHROMIUM names one)"
)]
fn a_long_title_is_cut_to_one_line_and_whole_in_its_tooltip() {
    let dir = scratch("viewer-long-title");
    let record = random_game(&dir);
    let title = format!(
        "breakthrough: {}vs the team next door",
        "A team whose name goes on and on ".repeat(5)
    );
    let page = dir.join("long.html");
    agon_ok(&[
        "view",
        record.to_str().unwrap(),
        "--title",
        &title,
        "--out",
        page.to_str().unwrap(),
    ]);
    let url = format!("file://{}", page.display());
    let mut browser = Browser::open(&url, &scratch("chromium-long-title"), 900, 700).unwrap();
    browser
        .wait_for(
            "document.body.dataset.last !== undefined",
            Duration::from_secs(10),
        )
        .unwrap();
    let heading = browser
        .eval(
            "(() => { const h = document.querySelector('header h1'); \
             return [h.title, h.scrollWidth > h.clientWidth, h.getClientRects()[0].height, \
             parseFloat(getComputedStyle(h).lineHeight)]; })()",
        )
        .unwrap();
    assert_eq!(
        heading[0],
        json!(title),
        "the tooltip holds the title whole"
    );
    assert_eq!(heading[1], json!(true), "the title is cut: {heading}");
    let (height, line) = (heading[2].as_f64().unwrap(), heading[3].as_f64().unwrap());
    assert!(height < 1.5 * line, "the title takes one line: {heading}");
}

/// A ladder's page names the teams and links each game it lists to the shared viewer page,
/// which shows that game: its final board, and its teams in the legend.
#[test]
#[cfg_attr(
    agon_no_browser,
    ignore = "needs Chromium: none was found when the tests were built (AGON_CHROMIUM names one)"
)]
fn the_ladder_page_links_each_game_to_a_working_viewer() {
    let root = scratch("viewer-ladder");
    let (teams, out) = (root.join("teams"), root.join("out"));
    std::fs::create_dir_all(&teams).unwrap();
    for (package, slot) in [
        ("breakthrough-random", "north.so"),
        ("breakthrough-alphabeta", "south.so"),
    ] {
        std::fs::copy(agon_tests::plugin(package), teams.join(slot)).unwrap();
    }
    agon_ok(&[
        "ladder",
        teams.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--game",
        "breakthrough",
        "--games",
        "2",
        "--settle-ms",
        "300",
        "--quiet",
    ]);
    let page = format!("file://{}", out.join("ladder.html").display());
    let mut browser = Browser::open(&page, &scratch("chromium-ladder"), 1200, 900).unwrap();
    let teams_shown = browser
        .eval(
            "[...new Set([...document.querySelectorAll('.team')].map(t => t.textContent))].sort()",
        )
        .unwrap();
    assert_eq!(teams_shown, json!(["Agon staff", "UIUC CS440 F17 seed"]));
    let links = browser
        .eval("[...document.querySelectorAll('a[href*=\"#game=\"]')].map(a => a.href)")
        .unwrap();
    let links: Vec<String> = serde_json::from_value(links).unwrap();
    assert_eq!(links.len(), 2, "{links:?}");
    for link in links {
        assert!(link.contains("/games/viewer.html#game="), "{link}");
        let id = open_game_link(&mut browser, &link);
        let record: Value = serde_json::from_str(&agon_tests::read(
            out.join("records").join(format!("{id}.json")),
        ))
        .unwrap();
        check_legend(id, &mut browser, &record);
        browser.press("End", 35).unwrap();
        let shown = browser
            .eval("document.getElementById('position-text').textContent")
            .unwrap();
        assert_eq!(shown, record["final_board"], "{link}");
    }
}

/// Opens a viewer link (`…/viewer.html#game=ID`) and waits until its game is shown whole; the
/// game's id. From another page, as a click in a report opens it (a jump from one game to
/// another within the viewer page reloads it, which an evaluation could be caught in).
fn open_game_link<'a>(browser: &mut Browser, link: &'a str) -> &'a str {
    let id = link.rsplit("#game=").next().unwrap();
    browser.goto("about:blank").unwrap();
    browser.goto(link).unwrap();
    browser
        .wait_for(
            &format!(
                "document.body !== null && document.body.dataset.gameId === '{id}' && \
                 document.body.dataset.last !== undefined"
            ),
            Duration::from_secs(10),
        )
        .unwrap();
    id
}
