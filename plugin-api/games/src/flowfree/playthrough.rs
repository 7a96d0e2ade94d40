//! Golden playthroughs of Flow Free (see `crate::transcript`).

use super::protocol as fw;
use super::session::FlowFreeRules;
use crate::contract::{GameRules, RawParams};
use crate::protocol::{self, Reply};
use crate::transcript::{check, finish, judged, PlainFiles, Shows};
use std::fmt::Write as _;

/// Flow Free: the course's 5 x 5 sample, answered with a path that touches itself, then with
/// the course's official answer.
fn flowfree_playthrough() -> String {
    let params = RawParams::from([("puzzle".to_string(), "input55".to_string())]);
    let mut session = FlowFreeRules.new_session(&params, &PlainFiles).unwrap();
    let mut out = format!(
        "game: flowfree (protocol v{}), puzzle input55.txt\n",
        fw::VERSION
    );
    out.push_str(&session.render());
    let obs: fw::Observation = protocol::decode(&session.observation(0)).unwrap();
    let _ = writeln!(
        out,
        "\nobservation: {} x {}, cells {}",
        obs.rows,
        obs.cols,
        String::from_utf8_lossy(&obs.cells)
    );
    let solved: Vec<u8> = include_str!("instances/solutions/output55.txt")
        .bytes()
        .filter(u8::is_ascii_uppercase)
        .collect();
    let mut wrong = solved.clone();
    // Row 0 `BRRRO` -> `BBRRO`: B's path touches itself and R's loses a cell.
    wrong[1] = b'B';
    let answer =
        |cells: Vec<u8>| protocol::encode(&Reply::new(fw::Answer::Solved { cells }).with_nodes(25));
    judged(
        &mut out,
        "a self-touching path",
        session.apply_answer(0, &answer(wrong)),
    );
    judged(
        &mut out,
        "the official answer",
        session.apply_answer(0, &answer(solved)),
    );
    finish(&mut out, session.as_ref(), Shows::WinnerAndGameScores, true);
    out
}

#[test]
fn flowfree_playthrough_golden() {
    check("flowfree", "5x5.txt", flowfree_playthrough());
}
