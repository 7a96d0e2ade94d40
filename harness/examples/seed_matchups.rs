//! Reproduces the six Breakthrough matchups of the seed report (UIUC CS440 F17 A2; rules file
//! "The seed's agents"): minimax at depth 3, alpha-beta at depth 5, the first-named agent plays
//! White (the report's `W`). Prints a Markdown table for the README.
//!
//! ```text
//! cargo build --release && cargo run --release -p agon --example seed_matchups [-- SEED]
//! ```

use agon_engine::seating;
use agon_engine::BotSpec;
use agon_engine::Budgets;
use agon_engine::HostKind;
use agon_engine::{run_match, MatchSettings};
use agon_games::contract::RawParams;
use agon_games::registry::Registry;
use anyhow::Context;

/// (name, search, depth, heuristic) as the report names its agents.
type Agent = (&'static str, &'static str, u32, &'static str);

const O1: Agent = ("alpha-beta O1", "alphabeta", 5, "offensive1");
const O2: Agent = ("alpha-beta O2", "alphabeta", 5, "offensive2");
const D1: Agent = ("alpha-beta D1", "alphabeta", 5, "defensive1");
const D2: Agent = ("alpha-beta D2", "alphabeta", 5, "defensive2");
const MINIMAX_O1: Agent = ("minimax O1", "minimax", 3, "offensive1");

const MATCHUPS: [(Agent, Agent); 6] = [
    (O2, D1),
    (O2, O1),
    (D2, O1),
    (D2, D1),
    (O2, D2),
    (O1, MINIMAX_O1),
];

fn main() -> anyhow::Result<()> {
    let seed: u64 = match std::env::args().nth(1) {
        Some(s) => s
            .parse()
            .context("the argument is the match seed, a number")?,
        None => 2017,
    };
    let exe = std::env::current_exe()?;
    // Examples live in target/<profile>/examples; the plugins in target/<profile>.
    let dir = exe
        .parent()
        .and_then(|p| p.parent())
        .context("cannot locate target/<profile>")?;
    let plugin = dir.join("libbreakthrough_alphabeta.so");
    anyhow::ensure!(
        plugin.exists(),
        "{} not found: run `cargo build --release` first",
        plugin.display()
    );
    let registry = Registry::builtin();
    let game = registry.get("breakthrough")?;
    // The agents are trusted staff code, and the thread host measures them without the pipes.
    let hosting = seating::Hosting::in_process(HostKind::Thread);
    println!("Seed {seed}; thread host; a node is an expanded position (leaves not counted).\n");
    println!(
        "| White vs Black | winner | moves | nodes W / B | nodes per move W / B | \
         ms per move W / B | captures W / B |"
    );
    println!("|---|---|---|---|---|---|---|");
    for (white, black) in MATCHUPS {
        let seats = [white, black]
            .iter()
            .enumerate()
            .map(|(i, (_, search, depth, heuristic))| {
                let spec: BotSpec = format!(
                    "{}:alphabeta?search={search}&depth={depth}&heuristic={heuristic}",
                    plugin.display()
                )
                .parse()?;
                Ok(seating::seat(&spec, i, game, &hosting)?)
            })
            .collect::<anyhow::Result<Vec<_>>>()?;
        let settings = MatchSettings {
            params: RawParams::new(),
            seed,
            seed_secret: agon_engine::SeedSecret::draw()?,
            budgets: Budgets {
                start_ms: Some(10_000),
                move_ms: Some(600_000),
                clock: Default::default(),
            },
            fault_policy: None,
        };
        let record = run_match(game, &settings, seats)?;
        let winner = match record.outcome.winner {
            Some(0) => format!("{} (W)", white.0),
            Some(_) => format!("{} (B)", black.0),
            None => "draw".into(),
        };
        let m = &record.metrics;
        let nodes = |i: usize| m[i].nodes.unwrap_or(0);
        let per_move = |i: usize| m[i].nodes_per_move.unwrap_or(0.0);
        println!(
            "| {} vs {} | {winner} | {} | {} / {} | {:.0} / {:.0} | {:.2} / {:.2} | {} / {} |",
            white.0,
            black.0,
            record.moves.len(),
            nodes(0),
            nodes(1),
            per_move(0),
            per_move(1),
            m[0].time_per_move_ms,
            m[1].time_per_move_ms,
            m[0].captures,
            m[1].captures
        );
        for fault in &record.faults {
            eprintln!(
                "  fault: seat {} {}: {}",
                fault.seat, fault.cause, fault.detail
            );
        }
    }
    Ok(())
}
