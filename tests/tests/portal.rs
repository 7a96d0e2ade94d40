//! The course portal (`agon portal`), used as a team and the staff would: the real binary on a
//! folder the test owns, a real HTTP client on 127.0.0.1, headless Chromium for the form, and
//! `kill -9` for the restarts.

use agon_tests::portal::{add_team, build, library, raw_request, Portal, PATIENCE};
use agon_tests::{assert_has, plugin, scratch};
use reqwest::blocking::multipart::{Form, Part};
use serde_json::Value;
use std::io::Write;
use std::net::TcpStream;
use std::time::{Duration, Instant};

#[test]
fn a_team_uploads_sees_its_verdict_its_rating_and_its_games() {
    let dir = scratch("portal-api");
    let (north, south) = (add_team(&dir, "north"), add_team(&dir, "south"));
    let misfits = add_team(&dir, "misfits");
    assert_ne!(north, south);
    let mut portal = Portal::start(&dir, &["--concurrency", "2"]);

    // Accepted: two builds that play.
    let (status, receipt) = portal.upload(
        "north",
        Some(&north),
        library("breakthrough-random"),
        "random.so",
    );
    assert_eq!(status, 201, "{receipt}");
    assert_eq!(receipt["build"], 1);
    assert_eq!(receipt["status"], "validating");
    let (status, _) = portal.upload(
        "south",
        Some(&south),
        library("breakthrough-alphabeta"),
        "ab.so",
    );
    assert_eq!(status, 201);
    assert_eq!(portal.judged("north", 1)["status"], "accepted");
    let accepted = portal.judged("south", 1);
    assert_eq!(accepted["status"], "accepted", "{accepted}");
    assert_eq!(accepted["version"], 1);
    portal.wait_for("rated games", |p| {
        let team = p.json("/api/teams/south");
        team["rating"]["games"].as_u64().unwrap_or(0) >= 2
            && !team["latest_games"].as_array().unwrap().is_empty()
    });
    let team = portal.json("/api/teams/south");
    let game = &team["latest_games"][0];
    let viewer = portal.get(game["viewer"].as_str().unwrap().split('#').next().unwrap());
    assert_eq!(viewer.status(), 200);
    let policy = viewer.headers()["content-security-policy"]
        .to_str()
        .unwrap()
        .to_string();
    assert_has(&policy, "default-src 'none'; script-src 'self' 'sha256-");
    let id = game["id"].as_str().unwrap();
    assert_eq!(portal.get(&format!("/games/{id}.js")).status(), 200);
    let record = portal.get(game["record"].as_str().unwrap());
    assert_eq!(record.status(), 200);
    assert_has(
        record.headers()["content-disposition"].to_str().unwrap(),
        "attachment",
    );
    let record: Value = record.json().unwrap();
    assert_eq!(record["game"], "breakthrough");
    let standings = portal.json("/api/standings");
    assert!(standings["games"].as_u64().unwrap() >= 2, "{standings}");

    // The same content again: the ladder judges this file too, as the build that plays.
    let (status, again) = portal.upload(
        "south",
        Some(&south),
        library("breakthrough-alphabeta"),
        "ab.so",
    );
    assert_eq!((status, &again["build"]), (201, &2.into()), "{again}");
    let again = portal.judged("south", 2);
    assert_eq!(
        (&again["status"], &again["version"]),
        (&"accepted".into(), &1.into()),
        "{again}"
    );

    // Refused, each with its reason on the team's record.
    let (status, _) = portal.upload(
        "misfits",
        Some(&misfits),
        b"#!/bin/sh\necho hi\n".to_vec(),
        "bot.so",
    );
    assert_eq!(status, 201);
    let refused = portal.judged("misfits", 1);
    assert_eq!(refused["status"], "refused");
    assert_has(refused["message"].as_str().unwrap(), "not a shared library");
    let (status, _) = portal.upload(
        "misfits",
        Some(&misfits),
        library("misbehave"),
        "misbehave.so",
    );
    assert_eq!(status, 201);
    let crashed = portal.judged("misfits", 2);
    assert_eq!(crashed["status"], "refused", "{crashed}");
    assert_has(crashed["message"].as_str().unwrap(), "panic");
    let whole = library("breakthrough-random");
    let (status, _) = portal.upload(
        "misfits",
        Some(&misfits),
        whole[..300_000].to_vec(),
        "cut.so",
    );
    assert_eq!(status, 201);
    let cut = portal.judged("misfits", 3);
    assert_eq!(cut["status"], "refused", "{cut}");
    assert_has(cut["message"].as_str().unwrap(), "cut short");
    let (status, _) = portal.upload("misfits", Some(&misfits), library("flip-random"), "flip.so");
    assert_eq!(status, 201);
    let other_game = portal.judged("misfits", 4);
    assert_eq!(other_game["status"], "refused", "{other_game}");
    assert_has(
        other_game["message"].as_str().unwrap(),
        "offers no bot for breakthrough",
    );

    // Wrong, missing and another team's tokens; a team that does not exist.
    let bytes = || library("breakthrough-random");
    let (status, answer) = portal.upload(
        "north",
        Some("agon_0123456789abcdef0123456789abcdef"),
        bytes(),
        "x.so",
    );
    assert_eq!(status, 401, "{answer}");
    assert_has(
        answer["error"].as_str().unwrap(),
        "wrong or has been revoked",
    );
    assert_eq!(portal.upload("north", None, bytes(), "x.so").0, 401);
    let (status, answer) = portal.upload("north", Some(&south), bytes(), "x.so");
    assert_eq!(status, 403, "{answer}");
    assert_has(answer["error"].as_str().unwrap(), "another team's");
    assert_eq!(
        portal.upload("nobody", Some(&north), bytes(), "x.so").0,
        404
    );
    assert_eq!(
        portal.upload("..%2Fetc", Some(&north), bytes(), "x.so").0,
        404
    );
    // None of these reached the slot or the database.
    assert_eq!(portal.own("north")["builds"].as_array().unwrap().len(), 1);
    // The engine itself never panicked (the misbehaving bot's own panic is in its refusal).
    let stderr = portal.stop();
    for engine in [
        "panicked at harness/",
        "panicked at crates/",
        "panicked at engine/",
    ] {
        assert!(!stderr.contains(engine), "{stderr}");
    }
}

#[test]
fn limits_hold_size_rate_and_slow_uploads_block_no_one() {
    let dir = scratch("portal-limits");
    let (east, west) = (add_team(&dir, "east"), add_team(&dir, "west"));
    let north = add_team(&dir, "north");
    let portal = Portal::start(
        &dir,
        &[
            "--max-upload-mib",
            "2",
            "--uploads-per-hour",
            "3",
            "--upload-idle-s",
            "2",
            "--uploads-at-once",
            "2",
        ],
    );
    // Headers sent too slowly: the connection is closed (hyper's header-read timeout).
    let url = portal.url.clone();
    let slow_headers = std::thread::spawn(move || {
        raw_request(
            &url,
            "GET / HTTP/1.1\r\nHost:",
            b"",
            Duration::from_secs(40),
        )
    });

    // Too large: refused while streaming (no Content-Length: the client may see the answer,
    // or only the connection cut), and from the header alone.
    let form = Form::new().part(
        "file",
        Part::reader(std::io::Cursor::new(vec![7u8; 3 << 20])).file_name("big.so"),
    );
    let streamed = portal
        .client
        .post(format!("{}/api/teams/east/builds", portal.url))
        .bearer_auth(&east)
        .multipart(form)
        .send();
    if let Ok(answer) = streamed {
        assert_eq!(answer.status(), 413);
    }
    assert!(portal.own("east")["builds"].as_array().unwrap().is_empty());
    let head = format!(
        "POST /api/teams/east/builds HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {east}\r\n\
         Content-Type: multipart/form-data; boundary=b\r\nContent-Length: 104857600\r\n\r\n"
    );
    let (line, took) = raw_request(&portal.url, &head, b"", Duration::from_secs(10));
    assert!(line.contains("413"), "{line}");
    assert!(took < Duration::from_secs(5), "{took:?}");

    // A slow upload: one part, then nothing. Others go on meanwhile; it is dropped.
    let slow_upload = |team: &str, token: &str| {
        let head = format!(
            "POST /api/teams/{team}/builds HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \
             {token}\r\nContent-Type: multipart/form-data; boundary=b\r\n\
             Content-Length: 1000000\r\n\r\n--b\r\nContent-Disposition: form-data; \
             name=\"file\"; filename=\"slow.so\"\r\n\r\n"
        );
        let url = portal.url.clone();
        std::thread::spawn(move || raw_request(&url, &head, &[1u8; 1000], Duration::from_secs(30)))
    };
    let slow = slow_upload("west", &west);
    std::thread::sleep(Duration::from_millis(300));
    let started = Instant::now();
    assert_eq!(portal.get("/api/standings").status(), 200);
    let (status, answer) = portal.upload("east", Some(&east), b"not a library".to_vec(), "a.so");
    assert_eq!(status, 201, "{answer}");
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "{:?}",
        started.elapsed()
    );
    // Two stalled uploads fill the portal's two places: a third waits its turn (503).
    let slower = slow_upload("north", &north);
    std::thread::sleep(Duration::from_millis(300));
    let (status, answer) = portal.upload("east", Some(&east), b"x".to_vec(), "a.so");
    assert_eq!(status, 503, "{answer}");
    assert_has(
        answer["error"].as_str().unwrap(),
        "2 uploads are in progress",
    );
    for stalled in [slow, slower] {
        let (line, took) = stalled.join().unwrap();
        assert!(line.contains("408"), "{line}");
        assert!(took < Duration::from_secs(10), "{took:?}");
    }
    let parts: Vec<_> = std::fs::read_dir(dir.join("incoming")).unwrap().collect();
    assert!(parts.is_empty(), "{parts:?}");
    for team in ["west", "north"] {
        let builds = portal.own(team)["builds"].clone();
        assert_eq!(builds, Value::Array(Vec::new()), "{team}");
    }

    // No body is read before its sender is known: the form without a session is refused at
    // once, however much of a part header follows.
    let pad = "a".repeat(200_000);
    let endless = |path: &str, auth: &str| {
        format!(
            "POST {path} HTTP/1.1\r\nHost: x\r\n{auth}Content-Type: multipart/form-data; \
             boundary=b\r\nContent-Length: 1500000\r\n\r\n--b\r\nX-Pad: {pad}"
        )
    };
    let (line, took) = raw_request(
        &portal.url,
        &endless("/teams/east/builds", ""),
        b"",
        Duration::from_secs(30),
    );
    assert!(line.contains("401"), "{line}");
    assert!(took < Duration::from_millis(1500), "{took:?}");
    // A team's own upload: a part header that never ends is cut at 64 KiB at once (not
    // buffered until the body limit), and a body that stops before the file is dropped at the
    // idle limit.
    let bearer = format!("Authorization: Bearer {east}\r\n");
    let (line, took) = raw_request(
        &portal.url,
        &endless("/api/teams/east/builds", &bearer),
        b"",
        Duration::from_secs(30),
    );
    assert!(line.contains("400"), "{line}");
    assert!(took < Duration::from_millis(1500), "{took:?}");
    let silent = format!(
        "POST /api/teams/east/builds HTTP/1.1\r\nHost: x\r\n{bearer}Content-Type: \
         multipart/form-data; boundary=b\r\nContent-Length: 5000\r\n\r\n--b\r\n"
    );
    let (line, took) = raw_request(&portal.url, &silent, b"", Duration::from_secs(30));
    assert!(line.contains("408"), "{line}");
    assert!(took < Duration::from_secs(10), "{took:?}");

    // Uploads per hour: the fourth of the hour is refused.
    for _ in 0..2 {
        assert_eq!(
            portal.upload("east", Some(&east), b"x".to_vec(), "a.so").0,
            201
        );
    }
    let (status, answer) = portal.upload("east", Some(&east), b"x".to_vec(), "a.so");
    assert_eq!(status, 429, "{answer}");
    assert_has(answer["error"].as_str().unwrap(), "3 builds per hour");
    let (line, took) = slow_headers.join().unwrap();
    assert!(line.is_empty() || line.contains("408"), "{line}");
    assert!(took < Duration::from_secs(20), "{took:?}");
    portal.stop();
}

#[test]
fn twenty_teams_upload_at_once_and_every_build_is_judged() {
    let dir = scratch("portal-concurrent");
    let names: Vec<String> = (0..20).map(|i| format!("team{i:02}")).collect();
    let tokens: Vec<String> = names.iter().map(|n| add_team(&dir, n)).collect();
    let mut portal = Portal::start(&dir, &["--host", "thread", "--uploads-at-once", "20"]);
    let random = library("breakthrough-random");
    let started = Instant::now();
    let answers: Vec<(u16, Value)> = std::thread::scope(|scope| {
        let uploads: Vec<_> = names
            .iter()
            .zip(&tokens)
            .map(|(name, token)| {
                let (portal, bytes) = (&portal, random.clone());
                scope.spawn(move || portal.upload(name, Some(token), bytes, "random.so"))
            })
            .collect();
        uploads.into_iter().map(|u| u.join().unwrap()).collect()
    });
    eprintln!("20 uploads answered in {:?}", started.elapsed());
    for (status, answer) in &answers {
        assert_eq!(*status, 201, "{answer}");
        assert_eq!(answer["build"], 1);
    }
    for name in &names {
        let file = dir.join("builds").join(format!("{name}.so"));
        assert_eq!(std::fs::read(&file).unwrap(), random, "{}", file.display());
    }
    for name in &names {
        assert_eq!(portal.judged(name, 1)["status"], "accepted");
    }
    portal.stop();
}

#[test]
fn pages_escape_what_teams_send_and_carry_a_strict_policy() {
    let dir = scratch("portal-pages");
    let token = add_team(&dir, "quoted");
    let portal = Portal::start(&dir, &[]);
    let name = "<img src=x onerror=alert(1)>.so";
    assert_eq!(
        portal
            .upload("quoted", Some(&token), b"junk".to_vec(), name)
            .0,
        201
    );
    for path in ["/", "/teams/quoted", "/teams/nobody", "/no/such/page"] {
        let response = portal.get(path);
        let policy = response.headers()["content-security-policy"]
            .to_str()
            .unwrap()
            .to_string();
        assert_has(&policy, "default-src 'none'");
        assert_has(&policy, "frame-ancestors 'none'");
        assert_eq!(response.headers()["x-content-type-options"], "nosniff");
        let page = response.text().unwrap();
        assert!(!page.contains("<img src=x"), "{path}: {page}");
    }
    // The standings cut a long team name to fit; its title keeps it whole.
    let standings = portal.get("/").text().unwrap();
    assert_has(
        &standings,
        "href=\"/teams/quoted\" title=\"quoted\">quoted</a>",
    );
    // The team itself sees its uploads' names, escaped.
    let page = portal.text_as("/teams/quoted", "quoted");
    assert_has(&page, "&lt;img src=x onerror=alert(1)&gt;.so");
    assert!(!page.contains("<img src=x"), "{page}");
    // Names that are not game ids never reach the file system.
    for path in [
        "/games/..%2F..%2Fportal.key",
        "/records/..%2Fportal.sqlite",
        "/games/game-1%2F..%2F..%2Fx.js",
    ] {
        assert_eq!(portal.get(path).status(), 404, "{path}");
    }
    // Staff revoke a token on the command line; `team add` gives the team a new one.
    let dir_text = dir.to_str().unwrap();
    let listed = agon_tests::agon_ok(&["portal", "team", "list", "--dir", dir_text]);
    assert_has(&listed, "quoted\t1 builds\tactive");
    agon_tests::agon_ok(&["portal", "team", "revoke", "quoted", "--dir", dir_text]);
    let (status, answer) = portal.upload("quoted", Some(&token), b"junk".to_vec(), "x.so");
    assert_eq!(status, 401, "{answer}");
    let listed = agon_tests::agon_ok(&["portal", "team", "list", "--dir", dir_text]);
    assert_has(&listed, "quoted\t1 builds\ttoken revoked");
    let again = add_team(&dir, "quoted");
    assert_ne!(again, token);
    assert_eq!(
        portal
            .upload("quoted", Some(&again), b"junk".to_vec(), "x.so")
            .0,
        201
    );
    let refused = agon_tests::agon_output(&["portal", "team", "add", "../x", "--dir", dir_text])
        .expect_failure()
        .stderr;
    assert_has(&refused, "letters, digits");
    // Staff commands are not served.
    let answer = portal
        .client
        .post(format!("{}/api/teams", portal.url))
        .body("{}")
        .send()
        .unwrap();
    assert!(
        matches!(answer.status().as_u16(), 404 | 405),
        "{}",
        answer.status()
    );
    portal.stop();
}

#[test]
fn a_portal_killed_during_play_and_during_an_upload_loses_nothing() {
    let dir = scratch("portal-restart");
    let (red, blue) = (add_team(&dir, "red"), add_team(&dir, "blue"));
    let mut portal = Portal::start(&dir, &[]);
    assert_eq!(
        portal
            .upload("red", Some(&red), library("breakthrough-random"), "r.so")
            .0,
        201
    );
    assert_eq!(
        portal
            .upload("blue", Some(&blue), library("breakthrough-random"), "b.so")
            .0,
        201
    );
    portal.wait_for("games", |p| {
        p.json("/api/standings")["games"].as_u64().unwrap_or(0) >= 3
    });
    // An upload cut off halfway by the kill.
    let head = format!(
        "POST /api/teams/red/builds HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {red}\r\n\
         Content-Type: multipart/form-data; boundary=b\r\nContent-Length: 2000000\r\n\r\n\
         --b\r\nContent-Disposition: form-data; name=\"file\"; filename=\"half.so\"\r\n\r\n"
    );
    let address = portal.url.trim_start_matches("http://").to_string();
    let mut half = TcpStream::connect(&address).unwrap();
    half.write_all(head.as_bytes()).unwrap();
    half.write_all(&library("breakthrough-alphabeta")[..100_000])
        .unwrap();
    std::thread::sleep(Duration::from_millis(300));
    portal.kill_hard();
    drop(half);
    let games_before = std::fs::read_to_string(dir.join("ladder/journal.jsonl"))
        .unwrap()
        .lines()
        .count();

    let mut portal = Portal::start(&dir, &[]);
    // The teams, their tokens and their accepted builds are all there; the half upload is not.
    let team = portal.own("red");
    assert_eq!(team["builds"].as_array().unwrap().len(), 1, "{team}");
    assert_eq!(team["builds"][0]["status"], "accepted");
    let parts: Vec<_> = std::fs::read_dir(dir.join("incoming")).unwrap().collect();
    assert!(parts.is_empty(), "{parts:?}");
    assert_eq!(
        std::fs::read(dir.join("builds/red.so")).unwrap(),
        library("breakthrough-random")
    );
    // The ladder goes on from its journal; a new upload is taken as the next build.
    portal.wait_for("more games", |p| {
        p.json("/api/standings")["games"].as_u64().unwrap_or(0) as usize >= games_before + 2
    });
    let (status, receipt) = portal.upload(
        "red",
        Some(&red),
        library("breakthrough-alphabeta"),
        "ab.so",
    );
    assert_eq!((status, &receipt["build"]), (201, &2.into()), "{receipt}");
    let second = portal.judged("red", 2);
    assert_eq!(
        (&second["status"], &second["version"]),
        (&"accepted".into(), &2.into()),
        "{second}"
    );
    portal.stop();
}

/// An idle portal sleeps: no look at the ladder's files on a timer, no listing of the builds
/// folder caused by the last one. Before, it used most of a core.
#[test]
fn an_idle_portal_uses_no_cpu() {
    let dir = scratch("portal-idle");
    let red = add_team(&dir, "red");
    let mut portal = Portal::start(&dir, &[]);
    let (status, _) = portal.upload("red", Some(&red), library("breakthrough-random"), "r.so");
    assert_eq!(status, 201);
    assert_eq!(portal.judged("red", 1)["status"], "accepted");
    let pid = portal.child.id();
    let cpu = agon_tests::idle_cpu_seconds(pid, Duration::from_secs(1), Duration::from_secs(5));
    assert!(cpu < 0.25, "an idle portal used {cpu:.2} s of CPU in 5 s");
    portal.stop();
}

/// A team's build is a fact kept by content: its last refused upload stays in its slot, yet
/// after a `kill -9` the team plays on with its last accepted build, shown as playing. Before,
/// the restarted ladder judged the refused file again and the team played no more.
#[test]
fn after_a_restart_a_team_whose_last_upload_was_refused_plays_its_last_good_build() {
    let dir = scratch("portal-refused-restart");
    let (red, blue) = (add_team(&dir, "red"), add_team(&dir, "blue"));
    let mut portal = Portal::start(&dir, &[]);
    let random = library("breakthrough-random");
    assert_eq!(
        portal.upload("red", Some(&red), random.clone(), "r.so").0,
        201
    );
    assert_eq!(
        portal.upload("blue", Some(&blue), random.clone(), "b.so").0,
        201
    );
    assert_eq!(portal.judged("red", 1)["status"], "accepted");
    let (status, _) = portal.upload("red", Some(&red), b"#!/bin/sh\n".to_vec(), "bad.so");
    assert_eq!(status, 201);
    assert_eq!(portal.judged("red", 2)["status"], "refused");
    portal.kill_hard();

    let mut portal = Portal::start(&dir, &[]);
    let games_before = portal.json("/api/standings")["games"].as_u64().unwrap_or(0);
    portal.wait_for("games with red's first build", |p| {
        p.json("/api/standings")["games"].as_u64().unwrap_or(0) >= games_before + 2
    });
    let team = portal.own("red");
    assert_eq!(build(&team, 1)["status"], "accepted", "{team}");
    assert_eq!(build(&team, 1)["current"], true, "{team}");
    assert_eq!(build(&team, 2)["status"], "refused", "{team}");
    assert_eq!(
        team["builds"].as_array().unwrap().len(),
        2,
        "no build appeared: {team}"
    );
    let played = &team["latest_games"][0]["seats"];
    assert!(played.to_string().contains("red v1"), "{team}");
    portal.stop();
}

/// Every verdict lands on the upload whose file was judged. Before: a cut-short ELF file
/// replaced within seconds stayed "validating" for ever, and X, Y, X showed Y as superseded
/// although the ladder had played it, with a build that no upload brought.
#[test]
fn every_upload_gets_the_verdict_on_its_own_file() {
    let dir = scratch("portal-verdicts");
    let (red, blue) = (add_team(&dir, "red"), add_team(&dir, "blue"));
    let mut portal = Portal::start(&dir, &[]);
    assert_eq!(
        portal
            .upload("red", Some(&red), b"\x7fELF".to_vec(), "cut.so")
            .0,
        201
    );
    assert_eq!(
        portal
            .upload("red", Some(&red), b"plain text".to_vec(), "text.so")
            .0,
        201
    );
    assert_eq!(portal.judged("red", 2)["status"], "refused");
    let first = portal.judged("red", 1);
    assert_eq!(first["status"], "superseded", "{first}");

    let (x, y) = (
        library("breakthrough-random"),
        library("breakthrough-alphabeta"),
    );
    assert_eq!(portal.upload("blue", Some(&blue), x.clone(), "x.so").0, 201);
    portal.judged("blue", 1);
    // Y, then X again at once: the ladder may take Y before X replaces it, or never see it.
    assert_eq!(portal.upload("blue", Some(&blue), y.clone(), "y.so").0, 201);
    assert_eq!(portal.upload("blue", Some(&blue), x.clone(), "x.so").0, 201);
    let third = portal.judged("blue", 3);
    assert_eq!(
        (&third["status"], &third["version"]),
        (&"accepted".into(), &1.into())
    );
    let second = portal.judged("blue", 2);
    let y_sha = agon_engine::loader::sha256_hex(&y);
    let events = agon_tests::read(dir.join("ladder/events.jsonl"));
    let ladder_took_y = events.lines().any(|line| line.contains(&y_sha));
    if ladder_took_y {
        assert_eq!(
            (&second["status"], &second["version"]),
            (&"accepted".into(), &2.into())
        );
    } else {
        assert_eq!(second["status"], "superseded", "{second}");
    }
    let team = portal.own("blue");
    assert_eq!(
        team["builds"].as_array().unwrap().len(),
        3,
        "no build appeared: {team}"
    );
    portal.stop();
}

/// Polls `condition` on `page`, loading it afresh each time (the team's page reloads itself
/// while a build validates, which an evaluation could be caught in).
fn poll_page(browser: &mut agon_tests::browser::Browser, page: &str, condition: &str) {
    let start = Instant::now();
    loop {
        browser.goto(page).unwrap();
        if browser.eval(condition).unwrap() == Value::Bool(true) {
            return;
        }
        assert!(
            start.elapsed() < PATIENCE,
            "still not true on {page}: {condition}"
        );
        std::thread::sleep(Duration::from_millis(500));
    }
}

#[test]
#[cfg_attr(
    agon_no_browser,
    ignore = "needs Chromium: none was found when the tests were built (AGON_CHROMIUM names one)"
)]
fn a_team_uploads_through_the_form_and_watches_its_game_in_the_viewer() {
    let dir = scratch("portal-browser");
    let token = add_team(&dir, "formteam");
    let house = add_team(&dir, "house");
    let portal = Portal::start(&dir, &[]);
    assert_eq!(
        portal
            .upload(
                "house",
                Some(&house),
                library("breakthrough-random"),
                "r.so"
            )
            .0,
        201
    );
    let profile = scratch("chromium-portal");
    let mut browser =
        agon_tests::browser::Browser::open(&format!("{}/", portal.url), &profile, 1200, 900)
            .unwrap();
    let teams = browser
        .eval("[...document.querySelectorAll('#teams a')].map(a => a.textContent).sort()")
        .unwrap();
    assert_eq!(teams, serde_json::json!(["formteam", "house"]));

    // Signed out, the team page has no form, and a post without a session is refused.
    let team_page = format!("{}/teams/formteam", portal.url);
    browser.goto(&team_page).unwrap();
    let signed_out = browser
        .eval("document.getElementById('upload') === null && document.getElementById('signin') !== null")
        .unwrap();
    assert_eq!(signed_out, Value::Bool(true));
    // Signing in: the token typed once, a session cookie the page's scripts cannot read.
    browser
        .act("document.getElementById('signin').click()")
        .unwrap();
    browser
        .wait_for(
            "document.readyState === 'complete' && document.querySelector('input[name=token]') !== null",
            Duration::from_secs(20),
        )
        .unwrap();
    browser
        .act(&format!(
            "document.querySelector('input[name=token]').value = {}; \
             document.querySelector('form#signin').submit()",
            serde_json::json!(token)
        ))
        .unwrap();
    browser
        .wait_for(
            "location.pathname === '/teams/formteam' && document.readyState === 'complete' \
             && document.getElementById('upload') !== null",
            Duration::from_secs(20),
        )
        .unwrap_or_else(|e| {
            let at = browser.eval("location.href + ': ' + document.body.innerText");
            panic!("{e}: {at:?}")
        });
    assert_eq!(
        browser.eval("document.cookie").unwrap(),
        Value::String(String::new())
    );
    let csrf = browser
        .eval("document.querySelector('#upload input[name=csrf]').value.length")
        .unwrap();
    assert_eq!(csrf, 64, "the form carries its session's CSRF token");
    // The library chosen, submitted.
    let document = browser
        .command("DOM.getDocument", serde_json::json!({}))
        .unwrap();
    let input = browser
        .command(
            "DOM.querySelector",
            serde_json::json!({ "nodeId": document["root"]["nodeId"], "selector": "input[type=file]" }),
        )
        .unwrap();
    let file = plugin("breakthrough-alphabeta");
    browser
        .command(
            "DOM.setFileInputFiles",
            serde_json::json!({ "nodeId": input["nodeId"], "files": [file.to_str().unwrap()] }),
        )
        .unwrap();
    browser
        .act("document.getElementById('upload').submit()")
        .unwrap();
    // The post and its redirect back to the team's page, at the new build (evaluations that
    // meet the page between two documents are tried again).
    let submitted = Instant::now();
    while browser.eval("location.hash === '#build-1' && document.readyState === 'complete'")
        != Ok(Value::Bool(true))
    {
        assert!(
            submitted.elapsed() < PATIENCE,
            "the form's post never came back"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    poll_page(
        &mut browser,
        &team_page,
        "document.querySelector('#build-1 td.accepted') !== null",
    );
    let verdict = browser
        .eval("document.querySelector('#build-1 td.accepted').textContent")
        .unwrap();
    assert_has(verdict.as_str().unwrap(), "accepted as v1");
    let file_shown = browser
        .eval("document.querySelector('#build-1').textContent")
        .unwrap();
    assert_has(file_shown.as_str().unwrap(), "libbreakthrough_alphabeta.so");

    // Rated, with a game the viewer shows under the page's policy.
    poll_page(&mut browser, &team_page, "document.querySelector('#games a[href*=\"#game=\"]') !== null && /rated/.test(document.body.textContent)");
    browser.screenshot(&dir.join("team-page.png")).unwrap();
    let link = browser
        .eval("document.querySelector('#games a[href*=\"#game=\"]').href")
        .unwrap();
    let link = link.as_str().unwrap().to_string();
    let id = link.rsplit("#game=").next().unwrap().to_string();
    browser.goto("about:blank").unwrap();
    browser.goto(&link).unwrap();
    browser
        .wait_for(
            &format!("document.body !== null && document.body.dataset.gameId === '{id}' && document.body.dataset.last !== undefined"),
            Duration::from_secs(20),
        )
        .unwrap();
    browser.screenshot(&dir.join("viewer.png")).unwrap();
    portal.stop();
}
