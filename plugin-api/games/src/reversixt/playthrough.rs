//! Golden playthroughs of ReversiXT (see `crate::transcript`).

use super::convert;
use super::protocol as rw;
use super::session::ReversiXtRules;
use crate::contract::{GameRules, RawParams};
use crate::protocol::{self, Reply};
use crate::transcript::{check, finish, PlainFiles, Shows};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::fmt::Write as _;

/// ReversiXT: a seeded game of random legal moves on the rules file's example map (three
/// players, overrides, bombs), every observation printed: the board as the bot receives it, each
/// player's override stones and bombs, the legal moves and the move played.
fn reversixt_playthrough(seed: u64) -> String {
    let params = RawParams::from([("map".to_string(), "example".to_string())]);
    let mut session = ReversiXtRules.new_session(&params, &PlainFiles).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut out = format!(
        "game: reversixt (protocol v{}), map example.map\n",
        rw::VERSION
    );
    for (k, v) in session.params().iter().filter(|(k, _)| *k != "instance") {
        let _ = writeln!(out, "param: {k}={v}");
    }
    while let Some(seat) = session.to_act() {
        let obs: rw::Observation = protocol::decode(&session.observation(seat)).unwrap();
        let position = convert::position(&obs).unwrap();
        let legal = position.legal_moves();
        let _ = writeln!(
            out,
            "\nply {} seat {seat} player {} {:?}: overrides {:?}, bombs {:?}, disqualified {:?}",
            obs.ply, obs.you, obs.phase, obs.overrides, obs.bombs, obs.disqualified
        );
        // Header lines 0-3, then the rows compacted; the transitions follow as they are.
        let height = position.map.height;
        for (i, line) in obs.board.lines().skip(4).enumerate() {
            let line = if i < height {
                line.replace(' ', "")
            } else {
                line.to_string()
            };
            let _ = writeln!(out, "  {line}");
        }
        let names: Vec<String> = legal
            .iter()
            .take(24)
            .map(|m| format!("{},{}:{}", m.x, m.y, m.special))
            .collect();
        let _ = writeln!(
            out,
            "  legal ({}): {}{}",
            legal.len(),
            names.join(" "),
            if legal.len() > 24 { " ..." } else { "" }
        );
        let choice = legal[rng.random_range(0..legal.len())];
        let answer = protocol::encode(&Reply::new(rw::Move::from(choice)));
        let applied = session.apply_answer(seat, &answer).unwrap();
        let _ = writeln!(
            out,
            "  plays {} (turns {})",
            applied.notation, applied.captures
        );
    }
    finish(&mut out, session.as_ref(), Shows::Ranks, true);
    out
}

#[test]
fn reversixt_playthrough_golden() {
    check("reversixt", "example.txt", reversixt_playthrough(2019));
}
