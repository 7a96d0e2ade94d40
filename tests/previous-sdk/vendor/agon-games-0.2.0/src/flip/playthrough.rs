//! Golden playthroughs of Flip (see `crate::transcript`).

use super::protocol as fw;
use super::session::FlipRules;
use crate::contract::{GameRules, RawParams};
use crate::protocol::{self, Reply};
use crate::transcript::{check, finish, PlainFiles, Shows};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::fmt::Write as _;

/// Flip: a seeded game of random flips through the session, every observation printed.
fn flip_playthrough(seed: u64) -> String {
    let params: RawParams =
        crate::contract::raw_params(&[("n", "3"), ("turns", "4"), ("seed", "43")]);
    let mut session = FlipRules.new_session(&params, &PlainFiles).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut out = format!("game: flip (protocol v{})\n", fw::VERSION);
    for (k, v) in session.params() {
        let _ = writeln!(out, "param: {k}={v}");
    }
    while let Some(seat) = session.to_act() {
        let obs: fw::Observation = protocol::decode(&session.observation(seat)).unwrap();
        let coins = |c: &[fw::Coin]| {
            c.iter()
                .map(|p| format!("({:.4},{:.4})", p.x, p.y))
                .collect::<Vec<_>>()
                .join(" ")
        };
        let _ = writeln!(
            out,
            "\nturn {} seat {seat} ({:?}) may move {}, scores {:?}\n  own: {}\n  opponent: {}",
            obs.turn,
            obs.you,
            obs.moves_allowed,
            obs.scores,
            coins(&obs.own),
            coins(&obs.opponent)
        );
        // Random flips, some of them invalid on purpose (any angle, any coin).
        let moves: Vec<fw::FlipMove> = (0..obs.moves_allowed)
            .map(|_| {
                let id = rng.random_range(0..obs.n);
                let angle: f64 = rng.random_range(0.0..std::f64::consts::TAU);
                let c = obs.own[id as usize];
                fw::FlipMove {
                    id,
                    x: c.x + 2.0 * angle.cos(),
                    y: c.y + 2.0 * angle.sin(),
                }
            })
            .collect();
        let applied = session
            .apply_answer(seat, &protocol::encode(&Reply::new(moves)))
            .unwrap();
        let _ = writeln!(out, "  plays {}", applied.notation);
    }
    finish(&mut out, session.as_ref(), Shows::Winner, true);
    out
}

#[test]
fn flip_playthrough_golden() {
    check("flip", "n3_turns4.txt", flip_playthrough(19));
}
