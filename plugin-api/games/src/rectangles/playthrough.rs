//! Golden playthrough of Rectangles (see `crate::transcript`).

use super::protocol::{self as wire, Action, Cell, Direction};
use super::session::RectanglesRules;
use crate::contract::{GameRules, RawParams};
use crate::protocol::{self, Reply};
use crate::transcript::{check, finish, PlainFiles, Shows};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::fmt::Write as _;

/// Three players with three robots each on a 7 x 7 board. Every robot walks a 3 x 3 ring
/// (so rings close and claims happen) and now and then steps aside at random, which breaks
/// other players' rings: every round's board, actions and scores.
fn rectangles_playthrough(seed: u64) -> String {
    let params: RawParams = crate::contract::raw_params(&[
        ("n", "7"),
        ("players", "3"),
        ("robots", "3"),
        ("max_rounds", "60"),
    ]);
    let mut session = RectanglesRules.new_session(&params, &PlainFiles).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut out = format!("game: rectangles (protocol v{})\n", wire::VERSION);
    for (k, v) in session.params() {
        let _ = writeln!(out, "param: {k}={v}");
    }
    use Direction::*;
    let ring = [East, East, South, South, West, West, North, North];
    while !session.round_seats().is_empty() {
        let round = session.round().unwrap();
        let obs: wire::Observation = protocol::decode(&session.observation(0)).unwrap();
        let _ = writeln!(
            out,
            "\nround {round}: scores {:?}, idle {}",
            obs.scores, obs.idle
        );
        for row in obs.cells.chunks(7) {
            let line: String = row.iter().map(|&p| super::paint_char(p)).collect();
            let _ = writeln!(out, "  {line}");
        }
        for seat in session.round_seats() {
            let action = if round == 0 {
                Action::Place(
                    (0..3)
                        .map(|_| Cell::new(rng.random_range(0..7), rng.random_range(0..7)))
                        .collect(),
                )
            } else {
                Action::Move(
                    (0..3)
                        .map(|robot| {
                            if rng.random_range(0..6) == 0 {
                                Direction::ALL[rng.random_range(0..5)]
                            } else {
                                ring[(round as usize + 3 * robot + seat) % ring.len()]
                            }
                        })
                        .collect(),
                )
            };
            let applied = session
                .apply_answer(seat, &protocol::encode(&Reply::new(action)))
                .unwrap();
            let _ = writeln!(out, "  player {seat}: {}", applied.notation);
        }
    }
    finish(&mut out, session.as_ref(), Shows::Ranks, true);
    out
}

#[test]
fn rectangles_playthrough_golden() {
    check(
        "rectangles",
        "three_players.txt",
        rectangles_playthrough(2003),
    );
}
