//! Golden playthroughs of Breakthrough (see `crate::transcript`).

use super::convert;
use super::protocol as wire;
use super::session::BreakthroughRules;
use crate::contract::{GameRules, RawParams, Session, StartInfo};
use crate::protocol::{self, Reply, Start};
use crate::transcript::{check, finish, PlainFiles, Shows};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::fmt::Write as _;

fn render_cells(setup: &wire::Setup, obs: &wire::Observation) -> String {
    let mut out = String::new();
    for row in (0..setup.rows as usize).rev() {
        let _ = write!(out, "  {:>2} ", row + 1);
        for col in 0..setup.cols as usize {
            out.push(match obs.board[row * setup.cols as usize + col] {
                wire::Cell::Empty => '.',
                wire::Cell::White => 'W',
                wire::Cell::Black => 'B',
            });
        }
        out.push('\n');
    }
    out
}

fn playthrough(params: &[(&str, &str)], seed: u64) -> String {
    let params: RawParams = crate::contract::raw_params(params);
    let mut session: Box<dyn Session> =
        BreakthroughRules.new_session(&params, &PlainFiles).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut out = String::new();
    let _ = writeln!(out, "game: breakthrough (protocol v{})", wire::VERSION);
    for (k, v) in session.params() {
        let _ = writeln!(out, "param: {k}={v}");
    }
    let _ = writeln!(out, "seed: {seed}");
    let info = StartInfo {
        seed: 0,
        start_budget_ms: 0,
        move_budget_ms: 0,
        bot_params: RawParams::new(),
    };
    let setups: Vec<wire::Setup> = (0..2)
        .map(|seat| {
            let start: Start<wire::Setup> =
                protocol::decode(&session.start_message(seat, &info)).unwrap();
            let _ = writeln!(out, "start seat {seat}: {:?}", start.game);
            start.game
        })
        .collect();
    while let Some(seat) = session.to_act() {
        let bytes = session.observation(seat);
        let obs: wire::Observation = protocol::decode(&bytes).unwrap();
        let setup = &setups[seat];
        let position = convert::position(setup, &obs).unwrap();
        let legal = position.legal_moves();
        let _ = writeln!(
            out,
            "\nply {} seat {seat} to move ({:?}), last move {}, observation {} bytes",
            obs.ply,
            obs.to_move,
            obs.last_move.map_or("none".to_string(), |m| m.to_string()),
            bytes.len()
        );
        out.push_str(&render_cells(setup, &obs));
        let names: Vec<String> = legal.iter().map(|m| position.notation(*m)).collect();
        let _ = writeln!(out, "  legal ({}): {}", legal.len(), names.join(" "));
        let choice = legal[rng.random_range(0..legal.len())];
        let answer = protocol::encode(&Reply::new(choice));
        let applied = session.apply_answer(seat, &answer).unwrap();
        let _ = writeln!(out, "  plays {}", applied.notation);
    }
    finish(&mut out, session.as_ref(), Shows::Winner, true);
    out
}

#[test]
fn standard_board_playthrough() {
    check("breakthrough", "8x8.txt", playthrough(&[], 2017));
}

#[test]
fn extended_rules_playthrough() {
    check(
        "breakthrough",
        "5x10_workers_to_base_3.txt",
        playthrough(
            &[
                ("rows", "5"),
                ("cols", "10"),
                ("workers_to_base", "3"),
                ("first", "black"),
            ],
            440,
        ),
    );
}

#[test]
fn move_limit_playthrough() {
    check(
        "breakthrough",
        "10x5_move_limit.txt",
        playthrough(&[("rows", "10"), ("cols", "5"), ("move_limit", "12")], 7),
    );
}
