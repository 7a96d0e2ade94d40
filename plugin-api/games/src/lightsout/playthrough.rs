//! Golden playthroughs of Lights Out (see `crate::transcript`).

use super::protocol as lw;
use super::session::LightsOutRules;
use super::{Analysis, Board, Click};
use crate::contract::{GameRules, RawParams};
use crate::protocol::{self, Reply};
use crate::transcript::{check, finish, judged, PlainFiles, Shows};
use std::fmt::Write as _;

/// Lights Out: a 4 x 4 board (null space of 16 solutions), answered three times: clicks that
/// leave cells black, a non-minimal set claimed minimal, then the fewest clicks.
fn lightsout_playthrough() -> String {
    // A board that clicks at (0,1), (1,3), (2,0), (3,2) and (2,2) make from a white one, so it is
    // solvable.
    let mut board = Board::new(4, 4);
    for (row, col) in [(0, 1), (1, 3), (2, 0), (3, 2), (2, 2)] {
        board.click(Click { row, col }).unwrap();
    }
    let text = board.render();
    let params = RawParams::from([("instance".to_string(), text.clone())]);
    let mut session = LightsOutRules.new_session(&params, &PlainFiles).unwrap();
    let mut out = format!("game: lightsout (protocol v{})\n", lw::VERSION);
    out.push_str(&session.render());
    let obs: lw::Observation = protocol::decode(&session.observation(0)).unwrap();
    let _ = writeln!(
        out,
        "\nobservation: {} x {}, black bitmap {:02x?}",
        obs.rows, obs.cols, obs.black
    );
    let (rows, cols) = (obs.rows as usize, obs.cols as usize);
    let answer = |clicks: &[(usize, usize)], proven_minimal: bool| {
        protocol::encode(&Reply::new(lw::Answer::Clicks {
            clicks: lw::pack(rows, cols, |r, c| clicks.contains(&(r, c))),
            proven_minimal,
        }))
    };
    judged(
        &mut out,
        "one click at 0,0",
        session.apply_answer(0, &answer(&[(0, 0)], false)),
    );
    let analysis = Analysis::new(&board);
    let fewest: Vec<(usize, usize)> = analysis
        .fewest_clicks(16, &mut || false)
        .unwrap()
        .0
        .cells()
        .iter()
        .map(|c| (c.row as usize, c.col as usize))
        .collect();
    let longer: Vec<(usize, usize)> = analysis
        .null_patterns()
        .iter()
        .map(|pattern| {
            (0..rows)
                .flat_map(|r| (0..cols).map(move |c| (r, c)))
                .filter(|&(r, c)| pattern.get(r, c) != fewest.contains(&(r, c)))
                .collect::<Vec<_>>()
        })
        .find(|cells| cells.len() > fewest.len())
        .unwrap();
    judged(
        &mut out,
        "a longer solution claimed minimal",
        session.apply_answer(0, &answer(&longer, true)),
    );
    judged(
        &mut out,
        "the fewest clicks, claimed minimal",
        session.apply_answer(0, &answer(&fewest, true)),
    );
    finish(
        &mut out,
        session.as_ref(),
        Shows::WinnerAndGameScores,
        false,
    );
    out
}

#[test]
fn lightsout_playthrough_golden() {
    check("lightsout", "4x4.txt", lightsout_playthrough());
}
