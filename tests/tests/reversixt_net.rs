//! The course TCP protocol over loopback (rules file, "Network protocol"): `agon reversixt
//! serve` against `agon reversixt connect`, and against raw clients written here byte by byte
//! (type, big-endian length, payload) that misbehave: a wrong greeting, a wrong length, a move
//! the rules refuse, silence, a closed connection. Each costs only that client, with the reason.

use agon_tests::{agon, assert_has, instances, run, scratch, spec};
use serde_json::Value;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

fn heart() -> PathBuf {
    instances("reversixt").join("heartExercise3.map")
}

/// A running `agon reversixt serve` and the port it listens on.
struct Server {
    child: Child,
    port: u16,
    record: PathBuf,
}

fn serve(name: &str, seats: &[&str], time: &str) -> Server {
    serve_map(name, &heart(), seats, time)
}

fn serve_map(name: &str, map: &std::path::Path, seats: &[&str], time: &str) -> Server {
    let record = scratch(name).join("record.json");
    let mut command = agon();
    command.args(["reversixt", "serve", "--listen", "127.0.0.1:0"]);
    command.arg("--map").arg(map);
    for s in seats {
        command.args(["--seat", s]);
    }
    command.args([
        "--time-s", time, "--host", "thread", "--seed", "5", "--wait-s", "30",
    ]);
    command.arg("--record").arg(&record);
    let mut child = command
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
    let first = lines.next().unwrap().unwrap();
    let port = first
        .rsplit_once("127.0.0.1:")
        .and_then(|(_, rest)| rest.split(';').next())
        .and_then(|p| p.parse().ok())
        .unwrap_or_else(|| panic!("no port in `{first}`"));
    // Keep draining the server's log so it never blocks on a full pipe.
    std::thread::spawn(move || for _ in lines {});
    Server {
        child,
        port,
        record,
    }
}

impl Server {
    /// Waits for the server to finish; its record.
    fn finish(mut self) -> Value {
        let status = self.child.wait().unwrap();
        let mut out = String::new();
        self.child
            .stdout
            .take()
            .unwrap()
            .read_to_string(&mut out)
            .unwrap();
        assert!(status.success(), "serve failed: {out}");
        serde_json::from_str(&agon_tests::read(&self.record)).unwrap()
    }

    /// `agon reversixt connect` to this server, to add the bot and host to.
    fn connect(&self) -> Command {
        let mut command = agon();
        command.args(["reversixt", "connect", &format!("127.0.0.1:{}", self.port)]);
        command
    }

    fn client(&self) -> TcpStream {
        let s = TcpStream::connect(("127.0.0.1", self.port)).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
        s
    }
}

fn send(s: &mut TcpStream, kind: u8, payload: &[u8]) {
    let mut frame = vec![kind];
    frame.extend((payload.len() as u32).to_be_bytes());
    frame.extend(payload);
    s.write_all(&frame).unwrap();
}

fn receive(s: &mut TcpStream) -> (u8, Vec<u8>) {
    let mut header = [0u8; 5];
    s.read_exact(&mut header).unwrap();
    let len = u32::from_be_bytes([header[1], header[2], header[3], header[4]]) as usize;
    let mut payload = vec![0u8; len];
    s.read_exact(&mut payload).unwrap();
    (header[0], payload)
}

/// Joins as `group`: the map arrives byte for byte as the file, then the player number.
fn join(s: &mut TcpStream, group: u8) -> u8 {
    send(s, 1, &[group]);
    let (kind, map) = receive(s);
    assert_eq!(kind, 2);
    assert_eq!(map, std::fs::read(heart()).unwrap());
    let (kind, number) = receive(s);
    assert_eq!((kind, number.len()), (3, 1));
    number[0]
}

/// Reads announcements until the move request; returns its time (ms) and depth.
fn until_request(s: &mut TcpStream) -> (u32, u8) {
    loop {
        let (kind, p) = receive(s);
        match kind {
            4 => return (u32::from_be_bytes([p[0], p[1], p[2], p[3]]), p[4]),
            6 => assert_eq!(p.len(), 6),
            other => panic!("type {other} before the move request"),
        }
    }
}

/// After a fault: the disqualification of `player` (to the offender too), then the end.
fn expect_disqualified_then_end(s: &mut TcpStream, player: u8) {
    assert_eq!(receive(s), (7, vec![player]));
    // Player 2 alone is left: the game is over at once.
    assert_eq!(receive(s), (9, vec![]));
}

fn only_fault(record: &Value) -> (String, u64, String) {
    let faults = record["faults"].as_array().unwrap();
    assert_eq!(faults.len(), 1, "{faults:?}");
    (
        faults[0]["cause"].as_str().unwrap().to_string(),
        faults[0]["seat"].as_u64().unwrap(),
        faults[0]["detail"].as_str().unwrap().to_string(),
    )
}

fn greedy() -> String {
    spec("reversixt-greedy", "greedy")
}

#[test]
fn serve_and_connect_play_a_game_over_loopback() {
    let server = serve("net-loopback", &["remote", &greedy()], "1");
    let output = run(server
        .connect()
        .args(["--bot", &spec("reversixt-random", "random"), "--group", "7"])
        .args(["--host", "thread", "--json"]));
    let client: Value = serde_json::from_str(&output.expect_success().stdout).unwrap();
    let record_file = server.record.clone();
    let record = server.finish();
    assert_eq!(record["faults"].as_array().unwrap().len(), 0);
    assert_eq!(record["seats"][0]["bot"], "remote");
    assert_eq!(record["seats"][0]["team"], "group 7");
    assert_eq!(client["player"], 1);
    assert_eq!(client["stand_ins"], 0);
    // The client's own copy of the game ends where the server's does.
    assert_eq!(client["ranks"], record["ranks"]);
    let stones: Vec<u64> = record["game_scores"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_f64().unwrap() as u64)
        .collect();
    assert_eq!(client["stones"], serde_json::json!(stones));
    let moves_by_client = record["moves"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["seat"] == 0)
        .count();
    assert_eq!(client["moves_sent"], moves_by_client);
    run(agon().args(["replay", "verify"]).arg(&record_file)).expect_success();
}

#[test]
fn a_bad_greeting_is_turned_away_and_a_wrong_length_disqualifies() {
    let server = serve("net-length", &["remote", &greedy()], "0.5");
    let mut stranger = server.client();
    send(&mut stranger, 5, &[0, 1, 0, 1, 0]);
    let mut rest = Vec::new();
    assert_eq!(stranger.read_to_end(&mut rest).unwrap(), 0, "closed on us");

    let mut client = server.client();
    assert_eq!(join(&mut client, 3), 1);
    let (time, depth) = until_request(&mut client);
    assert_eq!(
        (time, depth),
        (500, 0),
        "the account: 0.5 s before the first move"
    );
    send(&mut client, 5, &[0, 1, 0, 1]);
    expect_disqualified_then_end(&mut client, 1);
    let record = server.finish();
    let (cause, seat, detail) = only_fault(&record);
    assert_eq!((cause.as_str(), seat), ("malformed", 0));
    assert_has(&detail, "5-byte payload");
    assert_eq!(record["ranks"], serde_json::json!([2, 1]));
}

#[test]
fn a_move_the_rules_refuse_disqualifies_with_the_reason() {
    let server = serve("net-illegal", &["remote", &greedy()], "0.5");
    let mut client = server.client();
    join(&mut client, 1);
    until_request(&mut client);
    // (0,0) is a hole on this map.
    send(&mut client, 5, &[0, 0, 0, 0, 0]);
    expect_disqualified_then_end(&mut client, 1);
    let (cause, _, detail) = only_fault(&server.finish());
    assert_eq!(cause, "illegal");
    assert_has(&detail, "(0,0) is a hole");
}

#[test]
fn a_silent_client_is_disqualified_when_its_account_runs_out() {
    let server = serve("net-silent", &["remote", &greedy()], "0.2");
    let mut client = server.client();
    join(&mut client, 1);
    until_request(&mut client);
    // Say nothing: after 200 ms the seat is out.
    expect_disqualified_then_end(&mut client, 1);
    let (cause, _, _) = only_fault(&server.finish());
    assert_eq!(cause, "timeout");
}

#[test]
fn a_client_that_hangs_up_is_disqualified() {
    let server = serve("net-hangup", &["remote", &greedy()], "0.5");
    let mut client = server.client();
    join(&mut client, 1);
    drop(client);
    let (cause, seat, detail) = only_fault(&server.finish());
    assert_eq!((cause.as_str(), seat), ("exited", 0), "{detail}");
}

#[test]
fn an_unknown_message_type_disqualifies() {
    let server = serve("net-unknown", &["remote", &greedy()], "0.5");
    let mut client = server.client();
    join(&mut client, 2);
    until_request(&mut client);
    send(&mut client, 42, &[1, 2, 3]);
    expect_disqualified_then_end(&mut client, 1);
    let (cause, _, detail) = only_fault(&server.finish());
    assert_eq!(cause, "malformed");
    assert_has(&detail, "unknown message type 42");
}

/// Every message a client receives until the end of the game, answering each move request
/// with the first legal move of its own copy of the game.
fn play_to_the_end(s: &mut TcpStream, map: &str) -> Vec<u8> {
    use agon_games::reversixt::{Map, Position};
    let mut position = Position::new(Map::parse(map).unwrap());
    let mut kinds = Vec::new();
    loop {
        let (kind, p) = receive(s);
        kinds.push(kind);
        match kind {
            4 => {
                let m = position.legal_moves()[0];
                let mut reply = Vec::new();
                reply.extend((m.x as u16).to_be_bytes());
                reply.extend((m.y as u16).to_be_bytes());
                reply.push(m.special);
                send(s, 5, &reply);
            }
            6 => {
                let x = u16::from_be_bytes([p[0], p[1]]) as usize;
                let y = u16::from_be_bytes([p[2], p[3]]) as usize;
                let m = agon_games::reversixt::Move {
                    x,
                    y,
                    special: p[4],
                };
                position.play(p[5], m).unwrap();
            }
            9 => return kinds,
            _ => {}
        }
    }
}

fn write_map(name: &str, text: &str) -> PathBuf {
    let path = scratch(name).join("game.map");
    std::fs::write(&path, text).unwrap();
    path
}

/// A map where nobody can build (every square taken, no overrides): the game starts in the
/// bombing phase, and the course server says so before the first request (2, 3, 8, then 4),
/// which a course client waits for.
#[test]
fn a_game_that_starts_past_phase_1_announces_its_end_before_the_first_request() {
    let text = "2\n0\n1 0\n2 2\n1 2\n2 1\n";
    let map = write_map("net-bombing-only-map", text);
    let server = serve_map("net-bombing-only", &map, &["remote", &greedy()], "0.5");
    let mut client = server.client();
    send(&mut client, 1, &[1]);
    assert_eq!(receive(&mut client).0, 2);
    assert_eq!(receive(&mut client), (3, vec![1]));
    let kinds = play_to_the_end(&mut client, text);
    assert_eq!(&kinds[..2], &[8, 4], "{kinds:?}");
    assert_eq!(kinds.iter().filter(|&&k| k == 8).count(), 1, "{kinds:?}");
    let record = server.finish();
    assert!(record["faults"].as_array().unwrap().is_empty(), "{record}");
}

/// A map without bombs (none to start with, no bonus squares to win one): phase 1 ends straight
/// into the end of the game, announced 6, 8, 9.
#[test]
fn phase_1_ending_straight_into_the_end_is_announced_6_8_9() {
    let heart = agon_tests::read(heart());
    let mut lines: Vec<String> = heart.lines().map(str::to_string).collect();
    assert_eq!(lines[2].split_whitespace().count(), 2, "the bombs line");
    lines[2] = "0 2".into();
    let height: usize = lines[3].split_whitespace().next().unwrap().parse().unwrap();
    for row in &mut lines[4..4 + height] {
        *row = row.replace('b', "0");
    }
    let text = lines.join("\n") + "\n";
    let map = write_map("net-no-bombs-map", &text);
    let server = serve_map("net-no-bombs", &map, &["remote", &greedy()], "0.5");
    let mut client = server.client();
    send(&mut client, 1, &[1]);
    assert_eq!(receive(&mut client).0, 2);
    assert_eq!(receive(&mut client), (3, vec![1]));
    let kinds = play_to_the_end(&mut client, &text);
    assert_eq!(&kinds[kinds.len() - 3..], &[6, 8, 9], "{kinds:?}");
    assert_eq!(kinds.iter().filter(|&&k| k == 8).count(), 1, "{kinds:?}");
    let record = server.finish();
    assert!(record["faults"].as_array().unwrap().is_empty(), "{record}");
}

/// `connect` with a process host: a bot late on every third request of each life used to be
/// killed at its first late answer and replaced by stand-ins for the rest of the game. Now
/// each late answer costs that move (a stand-in) and the bot is started again for the next
/// request.
#[test]
fn connect_starts_a_killed_bot_again_instead_of_playing_stand_ins() {
    let server = serve("net-connect-restart", &["remote", &greedy()], "0.3");
    let output = run(server
        .connect()
        .args(["--bot", &spec("misbehave", "spend?ms=0,0,60000,0")])
        .args(["--host", "process", "--json"]))
    .expect_success();
    let client: Value = serde_json::from_str(&output.stdout).unwrap();
    let record = server.finish();
    assert_eq!(record["faults"].as_array().unwrap().len(), 0, "{record}");
    let stand_ins = client["stand_ins"].as_u64().unwrap();
    let restarts = client["restarts"].as_u64().unwrap();
    let sent = client["moves_sent"].as_u64().unwrap();
    assert!(stand_ins >= 2, "{client}");
    assert!(
        restarts + 1 >= stand_ins && restarts <= stand_ins,
        "{client}"
    );
    // Most moves are the bot's own: it was not replaced for the rest of the game.
    assert!(sent >= 2 * stand_ins, "{client}");
}

/// 200 silent or half-greeting connections, then a client trickling its greeting a byte at a
/// time, then a real client: greetings used to be handled one at a time, 10 s each, and a trickler was never
/// timed out, so the real client was locked out past `--wait-s`. Now each connection greets on
/// its own, the real client joins at once, and the game is played.
#[test]
fn silent_and_trickling_connections_do_not_lock_real_clients_out() {
    let server = serve("net-crowd", &["remote", &greedy()], "0.5");
    // 200 connections at once: three that never speak, the rest half a greeting (a type and
    // two of its four length bytes), then silence.
    let silent: Vec<TcpStream> = (0..200)
        .map(|i| {
            let mut s = server.client();
            if i >= 3 {
                s.write_all(&[1, 0, 0]).unwrap();
            }
            s
        })
        .collect();
    let mut trickler = server.client();
    let trickle = std::thread::spawn(move || {
        for byte in [1u8, 0, 0, 0, 1] {
            if trickler.write_all(&[byte]).is_err() {
                break;
            }
            std::thread::sleep(Duration::from_secs(4));
        }
    });
    let mut client = server.client();
    assert_eq!(join(&mut client, 5), 1);
    let kinds = play_to_the_end(&mut client, &agon_tests::read(heart()));
    assert_eq!(kinds.last(), Some(&9));
    let record = server.finish();
    assert!(record["faults"].as_array().unwrap().is_empty(), "{record}");
    drop(silent);
    trickle.join().unwrap();
}

/// `serve` refuses a map larger than the course protocol's map message carries (its own
/// `connect` refuses more than that), before anyone connects.
#[test]
fn serve_refuses_a_map_its_clients_would_refuse() {
    let dir = scratch("net-big-map");
    let map = dir.join("big.map");
    let mut text = String::from("2\n0\n0 0\n2048 2048\n");
    text.push_str(&"- ".repeat(2048 * 2048));
    std::fs::write(&map, text).unwrap();
    let stderr = run(agon()
        .args(["reversixt", "serve", "--listen", "127.0.0.1:0"])
        .arg("--map")
        .arg(&map)
        .args(["--seat", "remote", "--seat", "remote"]))
    .expect_failure()
    .stderr;
    assert_has(
        &stderr,
        "the course protocol's map message carries at most 8388608",
    );
}
