//! Flow Free solvers (`docs/games/flowfree.md`; the seed report's Part 1):
//! `dumb`, `smart` and `smarter` are the seed's CSP solvers (see [`csp`]); `fast` encodes the
//! puzzle for a SAT solver (see [`sat`]). Every answer reports the attempted assignments as its
//! `nodes`. `dumb` takes a `cutoff` parameter (attempted assignments, default 20,000,000) and
//! says so when it stops there.

pub mod csp;
pub mod problem;
pub mod sat;

use agon_sdk::export::{ParamReader, WireBot};
use agon_sdk::protocol::flowfree::{Answer, FlowFree, Observation, Setup};
use agon_sdk::protocol::{Reply, Start};
use csp::{Search, Strategy};
use problem::Problem;

const DEFAULT_CUTOFF: u64 = 20_000_000;

fn answer(problem: &Problem, result: csp::Result, attempts: u64, cutoff: u64) -> Reply<Answer> {
    let action = match result {
        csp::Result::Solved(colours) => Answer::Solved {
            cells: problem.grid(&colours),
        },
        csp::Result::Exhausted => Answer::GaveUp {
            reason: format!(
                "no solution exists (search exhausted after {attempts} attempted assignments)"
            ),
        },
        csp::Result::CutOff => Answer::GaveUp {
            reason: format!("cut-off: stopped after {cutoff} attempted assignments"),
        },
    };
    Reply::new(action).with_nodes(attempts)
}

fn solve_csp(
    observation: &Observation,
    strategy: Strategy,
    cutoff: u64,
    seed: u64,
) -> Reply<Answer> {
    let problem = match Problem::new(observation) {
        Ok(p) => p,
        Err(e) => {
            return Reply::new(Answer::GaveUp {
                reason: format!("unreadable grid: {e}"),
            })
        }
    };
    let mut search = Search::new(&problem, strategy, cutoff, seed);
    let result = search.run();
    answer(&problem, result, search.attempts.min(cutoff), cutoff)
}

/// A CSP bot; only `dumb` has a cut-off parameter.
pub struct CspBot<const STRATEGY: u8> {
    cutoff: u64,
    seed: u64,
}

impl<const S: u8> Default for CspBot<S> {
    fn default() -> Self {
        CspBot {
            cutoff: if S == 0 { DEFAULT_CUTOFF } else { u64::MAX },
            seed: 0,
        }
    }
}

impl<const S: u8> WireBot for CspBot<S> {
    type Game = FlowFree;
    const PARAMS: &'static [&'static str] = if S == 0 { &["cutoff"] } else { &[] };

    fn start(&mut self, start: &Start<Setup>) -> Result<(), String> {
        let mut reader = ParamReader::new(&start.bot_params);
        if S == 0 {
            self.cutoff = reader
                .get(
                    "cutoff",
                    "a number of attempted assignments",
                    DEFAULT_CUTOFF,
                )
                .map_err(|e| e.to_string())?;
        }
        reader.finish().map_err(|e| e.to_string())?;
        self.seed = start.seed;
        Ok(())
    }

    fn act(&mut self, observation: &Observation) -> Reply<Answer> {
        let strategy = match S {
            0 => Strategy::Dumb,
            1 => Strategy::Smart,
            _ => Strategy::Smarter,
        };
        solve_csp(observation, strategy, self.cutoff, self.seed)
    }
}

#[derive(Default)]
pub struct FastBot;

impl WireBot for FastBot {
    type Game = FlowFree;

    fn act(&mut self, observation: &Observation) -> Reply<Answer> {
        let problem = match Problem::new(observation) {
            Ok(p) => p,
            Err(e) => {
                return Reply::new(Answer::GaveUp {
                    reason: format!("unreadable grid: {e}"),
                })
            }
        };
        let outcome = sat::solve(&problem);
        let action = match outcome.colours {
            Some(colours) => Answer::Solved {
                cells: problem.grid(&colours),
            },
            None => Answer::GaveUp {
                reason: "the SAT encoding is unsatisfiable: no solution exists".into(),
            },
        };
        Reply::new(action).with_nodes(outcome.attempts)
    }
}

agon_sdk::export_plugin! {
    team: "UIUC CS440 F17 seed",
    wire_bots: {
        "dumb" => CspBot<0>: "CSP, random variable and value order, no forward checking (cutoff)",
        "smart" => CspBot<1>: "CSP, most-constrained variable, forward checking",
        "smarter" => CspBot<2>: "CSP, smart plus propagation to a fixed point",
        "fast" => FastBot: "SAT encoding of the neighbour counts, separate loops cut lazily",
    },
}
