//! Depth-limited minimax and alpha-beta, as the seed report's agents search (rules file, "The
//! seed's agents").
//!
//! A *node* is an expanded position: one whose legal moves were generated. Positions only
//! evaluated (at the depth limit or at the end of the game) are leaves and are counted apart;
//! the seed report's per-move figures (hundreds at depth 3) count expanded nodes, and counting
//! leaves too would multiply them by about the branching factor (~20x).

use crate::heuristics::Evaluator;
use agon_sdk::breakthrough::{Move, Position};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Algorithm {
    Minimax,
    AlphaBeta,
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SearchResult {
    pub best: Option<Move>,
    pub value: f64,
    /// Expanded positions (see the module docs).
    pub nodes: u64,
    /// Evaluated positions.
    pub leaves: u64,
}

/// Searches `depth` plies below `root` for the side to move, which must be the evaluator's side.
pub fn search(
    root: &Position,
    depth: u32,
    algorithm: Algorithm,
    evaluator: &mut Evaluator,
) -> SearchResult {
    let mut search = Search {
        evaluator,
        algorithm,
        nodes: 0,
        leaves: 0,
    };
    let (value, best) = search.value(root, depth, 0, f64::NEG_INFINITY, f64::INFINITY);
    SearchResult {
        best,
        value,
        nodes: search.nodes,
        leaves: search.leaves,
    }
}

struct Search<'a> {
    evaluator: &'a mut Evaluator,
    algorithm: Algorithm,
    nodes: u64,
    leaves: u64,
}

impl Search<'_> {
    /// The value of `position` for the evaluator's side, and the move that attains it. With
    /// alpha-beta the value is exact inside (alpha, beta) and a bound outside it.
    fn value(
        &mut self,
        position: &Position,
        depth: u32,
        ply: u32,
        mut alpha: f64,
        mut beta: f64,
    ) -> (f64, Option<Move>) {
        if depth == 0 || position.outcome().is_some() {
            self.leaves += 1;
            return (self.evaluator.evaluate(position, ply), None);
        }
        self.nodes += 1;
        let maximizing = position.to_move() == self.evaluator.me;
        let mut best_value = if maximizing {
            f64::NEG_INFINITY
        } else {
            f64::INFINITY
        };
        let mut best_move = None;
        for mv in position.legal_moves() {
            let mut child = *position;
            child.apply_unchecked(mv);
            let (value, _) = self.value(&child, depth - 1, ply + 1, alpha, beta);
            let better = if maximizing {
                value > best_value
            } else {
                value < best_value
            };
            if better || best_move.is_none() {
                best_value = value;
                best_move = Some(mv);
            }
            if self.algorithm == Algorithm::AlphaBeta {
                if maximizing {
                    alpha = alpha.max(best_value);
                } else {
                    beta = beta.min(best_value);
                }
                if alpha >= beta {
                    break;
                }
            }
        }
        (best_value, best_move)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::heuristics::Heuristic;
    use agon_sdk::breakthrough::{Config, Side};
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    fn evaluator(heuristic: Heuristic, me: Side) -> Evaluator {
        Evaluator::new(heuristic, me, ChaCha8Rng::seed_from_u64(1)).without_noise()
    }

    /// Without the random term both searches must agree on the value, and alpha-beta must
    /// expand no more nodes than minimax.
    #[test]
    fn alphabeta_agrees_with_minimax() {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        for heuristic in [
            Heuristic::Defensive1,
            Heuristic::Offensive1,
            Heuristic::Defensive2,
            Heuristic::Offensive2,
        ] {
            let mut position = Position::start(Config::STANDARD);
            for _ in 0..30 {
                if position.outcome().is_some() {
                    break;
                }
                let me = position.to_move();
                let mm = search(
                    &position,
                    3,
                    Algorithm::Minimax,
                    &mut evaluator(heuristic, me),
                );
                let ab = search(
                    &position,
                    3,
                    Algorithm::AlphaBeta,
                    &mut evaluator(heuristic, me),
                );
                assert_eq!(mm.value, ab.value, "{heuristic:?}\n{}", position.render());
                assert!(ab.nodes <= mm.nodes);
                let moves = position.legal_moves();
                position.apply_unchecked(moves[rng.random_range(0..moves.len())]);
            }
        }
    }

    #[test]
    fn improved_heuristics_take_a_win_in_one() {
        let pieces = [
            ("c7", Side::White),
            ("a1", Side::White),
            ("h8", Side::Black),
            ("g8", Side::Black),
        ];
        let position = Position::from_pieces(
            Config::STANDARD,
            pieces.iter().map(|(s, side)| (s.parse().unwrap(), *side)),
            Side::White,
            0,
        )
        .unwrap();
        for heuristic in [Heuristic::Offensive2, Heuristic::Defensive2] {
            let mut ev = Evaluator::new(heuristic, Side::White, ChaCha8Rng::seed_from_u64(9));
            let result = search(&position, 3, Algorithm::AlphaBeta, &mut ev);
            let best = result.best.unwrap();
            assert_eq!(best.from.to_string(), "c7", "{heuristic:?}");
            assert_eq!(best.to.row, 7, "{heuristic:?}");
            assert!(result.value > 900.0);
        }
    }

    #[test]
    fn node_counts_follow_the_definition() {
        let position = Position::start(Config::STANDARD);
        let mut ev = evaluator(Heuristic::Offensive1, Side::White);
        let r = search(&position, 2, Algorithm::Minimax, &mut ev);
        // Depth 2 from the start: the root and its 22 children are expanded; 484 leaves.
        assert_eq!((r.nodes, r.leaves), (23, 484));
    }
}
