//! Golden "playthroughs" (after OpenSpiel): a seeded game through the engine's session, with
//! every observation a bot receives printed, diffed against `tests/golden/`. Any change to the
//! rules, the protocol or the notation shows up here as a diff.
//!
//! To accept an intended change: `AGON_BLESS=1 cargo test -p agon-engine --test playthrough`.

use agon_engine::game::{GameRules, Session, StartInfo};
use agon_engine::sessions::breakthrough::BreakthroughRules;
use agon_games::params::RawParams;
use agon_plugin_api::protocol::{self, breakthrough as wire, Reply, Start};
use agon_plugin_api::sdk::breakthrough as convert;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::fmt::Write as _;
use std::path::PathBuf;

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
    let params: RawParams = params
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    let mut session: Box<dyn Session> = BreakthroughRules.new_session(&params).unwrap();
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
            obs.last_move.map_or("none".to_string(), |m| {
                agon_games::breakthrough::Move::from(m).to_string()
            }),
            bytes.len()
        );
        out.push_str(&render_cells(setup, &obs));
        let names: Vec<String> = legal.iter().map(|m| position.notation(*m)).collect();
        let _ = writeln!(out, "  legal ({}): {}", legal.len(), names.join(" "));
        let choice = legal[rng.random_range(0..legal.len())];
        let answer = protocol::encode(&Reply::new(wire::Move::from(choice)));
        let applied = session.apply_answer(seat, &answer).unwrap();
        let _ = writeln!(out, "  plays {}", applied.notation);
    }
    let outcome = session.outcome().unwrap();
    let _ = writeln!(
        out,
        "\noutcome: winner {:?}, scores {:?}: {}",
        outcome.winner, outcome.scores, outcome.reason
    );
    out.push_str(&session.render());
    out
}

fn check(name: &str, actual: String) {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden")
        .join(name);
    if std::env::var_os("AGON_BLESS").is_some() {
        std::fs::write(&path, &actual).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "{}: {e} (run with AGON_BLESS=1 to create it)",
            path.display()
        )
    });
    if expected != actual {
        let line = expected
            .lines()
            .zip(actual.lines())
            .position(|(a, b)| a != b)
            .unwrap_or(expected.lines().count().min(actual.lines().count()));
        panic!(
            "{} differs from the golden playthrough from line {}:\n expected: {:?}\n actual:   {:?}\n\
             If the rules or protocol changed on purpose, bless it: AGON_BLESS=1 cargo test -p agon-engine --test playthrough",
            path.display(),
            line + 1,
            expected.lines().nth(line),
            actual.lines().nth(line)
        );
    }
}

#[test]
fn standard_board_playthrough() {
    check("breakthrough_8x8.txt", playthrough(&[], 2017));
}

#[test]
fn extended_rules_playthrough() {
    check(
        "breakthrough_5x10_workers_to_base_3.txt",
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
        "breakthrough_10x5_move_limit.txt",
        playthrough(&[("rows", "10"), ("cols", "5"), ("move_limit", "12")], 7),
    );
}

/// Flip: a seeded game of random flips through the session, every observation printed.
fn flip_playthrough(seed: u64) -> String {
    use agon_engine::sessions::flip::FlipRules;
    use agon_plugin_api::protocol::flip as fw;
    let params: RawParams = [("n", "3"), ("turns", "4"), ("seed", "43")]
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    let mut session = FlipRules.new_session(&params).unwrap();
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
    let outcome = session.outcome().unwrap();
    let _ = writeln!(
        out,
        "\noutcome: winner {:?}, scores {:?}: {}",
        outcome.winner, outcome.scores, outcome.reason
    );
    out.push_str(&session.render());
    out
}

#[test]
fn flip_playthrough_golden() {
    check("flip_n3_turns4.txt", flip_playthrough(19));
}

/// ReversiXT: a seeded game of random legal moves on the rules file's example map (three
/// players, overrides, bombs), every observation printed: the board as the bot receives it, each
/// player's override stones and bombs, the legal moves and the move played.
fn reversixt_playthrough(seed: u64) -> String {
    use agon_engine::sessions::reversixt::ReversiXtRules;
    use agon_plugin_api::protocol::reversixt as rw;
    use agon_plugin_api::sdk::reversixt as convert;
    let map = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../shared/data/reversixt/maps/example.map");
    let params = RawParams::from([("map".to_string(), map.display().to_string())]);
    let mut session = ReversiXtRules.new_session(&params).unwrap();
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
    let outcome = session.outcome().unwrap();
    let _ = writeln!(
        out,
        "\noutcome: ranks {:?}, scores {:?}: {}",
        outcome.ranks, outcome.scores, outcome.reason
    );
    out.push_str(&session.render());
    out
}

#[test]
fn reversixt_playthrough_golden() {
    check("reversixt_example.txt", reversixt_playthrough(2019));
}

/// Prints the verdict on one answer: the notation it was recorded as, or the rules' reason for
/// refusing it (a refused answer changes nothing, so the next one is judged afresh).
fn judged(
    out: &mut String,
    label: &str,
    verdict: Result<agon_engine::game::Applied, agon_engine::game::Rejection>,
) {
    match verdict {
        Ok(applied) => {
            let _ = writeln!(out, "{label}: recorded as {}", applied.notation);
        }
        Err(rejection) => {
            let _ = writeln!(out, "{label}: refused: {rejection:?}");
        }
    }
}

/// Lights Out: a 4 x 4 board (null space of 16 solutions), answered three times: clicks that
/// leave cells black, a non-minimal set claimed minimal, then the fewest clicks.
fn lightsout_playthrough() -> String {
    use agon_engine::sessions::lightsout::LightsOutRules;
    use agon_games::lightsout::{Analysis, Board, Click};
    use agon_plugin_api::protocol::lightsout as lw;
    // A board that clicks at (0,1), (1,3), (2,0), (3,2) and (2,2) make from a white one, so it is
    // solvable.
    let mut board = Board::new(4, 4);
    for (row, col) in [(0, 1), (1, 3), (2, 0), (3, 2), (2, 2)] {
        board.click(Click { row, col }).unwrap();
    }
    let text = board.render();
    let params = RawParams::from([("instance".to_string(), text.clone())]);
    let mut session = LightsOutRules.new_session(&params).unwrap();
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
    let outcome = session.outcome().unwrap();
    let _ = writeln!(
        out,
        "\noutcome: winner {:?}, scores {:?}, game scores {:?}: {}",
        outcome.winner,
        outcome.scores,
        session.game_scores(),
        outcome.reason
    );
    out
}

#[test]
fn lightsout_playthrough_golden() {
    check("lightsout_4x4.txt", lightsout_playthrough());
}

/// Flow Free: the course's 5 x 5 sample, answered with a path that touches itself, then with
/// the course's official answer.
fn flowfree_playthrough() -> String {
    use agon_engine::sessions::flowfree::FlowFreeRules;
    use agon_plugin_api::protocol::flowfree as fw;
    let data = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/data/flowfree");
    let puzzle = data.join("input55.txt");
    let params = RawParams::from([("puzzle".to_string(), puzzle.display().to_string())]);
    let mut session = FlowFreeRules.new_session(&params).unwrap();
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
    let solved: Vec<u8> = std::fs::read_to_string(data.join("output55.txt"))
        .unwrap()
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
    let outcome = session.outcome().unwrap();
    let _ = writeln!(
        out,
        "\noutcome: winner {:?}, scores {:?}, game scores {:?}: {}",
        outcome.winner,
        outcome.scores,
        session.game_scores(),
        outcome.reason
    );
    out.push_str(&session.render());
    out
}

#[test]
fn flowfree_playthrough_golden() {
    check("flowfree_5x5.txt", flowfree_playthrough());
}
