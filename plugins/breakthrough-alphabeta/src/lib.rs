//! `alphabeta`: the seed report's Breakthrough agents (UIUC CS440 F17 A2; rules file "The
//! seed's agents"). Parameters (bot spec `?key=value&...`):
//! - `depth`: plies to search (default 3);
//! - `search`: `minimax` or `alphabeta` (default `alphabeta`);
//! - `heuristic`: `defensive1`, `offensive1`, `defensive2` or `offensive2` (default
//!   `offensive2`).
//!
//! Each reply reports the nodes expanded for it (see [`search`] for what a node is).

pub mod heuristics;
pub mod search;

use agon_sdk::breakthrough::convert;
use agon_sdk::export::{ParamReader, WireBot};
use agon_sdk::protocol::breakthrough::{Breakthrough, Move, Observation, Setup};
use agon_sdk::protocol::{Reply, Start};
use heuristics::{Evaluator, Heuristic};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use search::Algorithm;

/// The search settings a bot spec chooses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Settings {
    pub depth: u32,
    pub algorithm: Algorithm,
    pub heuristic: Heuristic,
}

impl Settings {
    pub fn from_params(
        params: &std::collections::BTreeMap<String, String>,
    ) -> Result<Self, String> {
        let mut reader = ParamReader::new(params);
        let depth: u32 = reader
            .get("depth", "a search depth from 1 to 12", 3)
            .map_err(|e| e.to_string())?;
        if !(1..=12).contains(&depth) {
            return Err(format!(
                "parameter `depth`: expected a search depth from 1 to 12, got `{depth}`"
            ));
        }
        let search: String = reader
            .get(
                "search",
                "`minimax` or `alphabeta`",
                "alphabeta".to_string(),
            )
            .map_err(|e| e.to_string())?;
        let algorithm = match search.as_str() {
            "minimax" => Algorithm::Minimax,
            "alphabeta" => Algorithm::AlphaBeta,
            other => {
                return Err(format!(
                    "parameter `search`: expected `minimax` or `alphabeta`, got `{other}`"
                ))
            }
        };
        let heuristic_name: String = reader
            .get("heuristic", "a heuristic", "offensive2".to_string())
            .map_err(|e| e.to_string())?;
        let heuristic = heuristic_name.parse().map_err(|()| {
            format!(
                "parameter `heuristic`: expected defensive1, offensive1, defensive2 or \
                 offensive2, got `{heuristic_name}`"
            )
        })?;
        reader.finish().map_err(|e| e.to_string())?;
        Ok(Settings {
            depth,
            algorithm,
            heuristic,
        })
    }
}

#[derive(Default)]
pub struct AlphaBetaBot {
    state: Option<Playing>,
}

struct Playing {
    setup: Setup,
    settings: Settings,
    evaluator: Evaluator,
}

impl WireBot for AlphaBetaBot {
    type Game = Breakthrough;
    const PARAMS: &'static [&'static str] = &["depth", "search", "heuristic"];

    fn start(&mut self, start: &Start<Setup>) -> Result<(), String> {
        let settings = Settings::from_params(&start.bot_params)?;
        let me = start.game.you;
        let rng = ChaCha8Rng::seed_from_u64(start.seed);
        self.state = Some(Playing {
            setup: start.game.clone(),
            settings,
            evaluator: Evaluator::new(settings.heuristic, me, rng),
        });
        Ok(())
    }

    fn act(&mut self, observation: &Observation) -> Reply<Move> {
        let playing = self.state.as_mut().expect("the engine calls start first");
        let position = convert::position(&playing.setup, observation).expect("a valid board");
        let result = search::search(
            &position,
            playing.settings.depth,
            playing.settings.algorithm,
            &mut playing.evaluator,
        );
        let best = result.best.expect("asked to move in a finished game");
        Reply::new(best).with_nodes(result.nodes)
    }
}

agon_sdk::export_plugin! {
    team: "UIUC CS440 F17 seed",
    wire_bots: {
        "alphabeta" => AlphaBetaBot:
            "minimax / alpha-beta with the seed's heuristics (depth, search, heuristic)",
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    fn params(pairs: &[(&str, &str)]) -> std::collections::BTreeMap<String, String> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    #[test]
    fn parameters_parse_and_bad_ones_are_named() {
        let s = Settings::from_params(&params(&[
            ("depth", "5"),
            ("search", "minimax"),
            ("heuristic", "defensive1"),
        ]))
        .unwrap();
        assert_eq!(s.depth, 5);
        assert_eq!(s.algorithm, Algorithm::Minimax);
        assert_eq!(s.heuristic, Heuristic::Defensive1);
        for (key, value) in [
            ("depth", "x"),
            ("depth", "0"),
            ("search", "mcts"),
            ("heuristic", "o3"),
        ] {
            let e = Settings::from_params(&params(&[(key, value)])).unwrap_err();
            assert!(e.contains(key), "{e}");
        }
        assert!(Settings::from_params(&params(&[("dept", "3")]))
            .unwrap_err()
            .contains("dept"));
    }
}
