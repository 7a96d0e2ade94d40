//! The seed player's search: paranoid alpha-beta or max-n, deepened iteratively until a
//! deadline or a depth limit (rules file, "Time and depth limits": one ply is one move by one
//! player).
//!
//! - Paranoid: every other player is assumed to minimise our evaluation, which makes the
//!   multi-player tree a two-sided one and lets alpha-beta prune.
//! - Max-n: every player maximises its own component of the vector of evaluations from each
//!   player's view; no pruning (shallow pruning needs bounds on the sum of the components,
//!   which the seed evaluation does not have).
//!
//! Which moves a node searches (see `moves`): every regular building move, choice squares once
//! per player number and bonus squares once per bonus; override moves only when the mover has
//! no regular move (report 5.1.5: overrides pay best "after the map has been filled by regular
//! moves"), the best [`crate::moves::OVERRIDE_CANDIDATES`] by stones turned; in the bombing
//! phase [`crate::bombing::BOMB_CANDIDATES`] targets, mostly the best by the report's target
//! score (5.2) plus the few that cost the thrower fewest own stones. Every position is a fresh clone played with the rules' own `Position::play`, so the
//! search can never drift from the rules.

use crate::bombing::{self, Blast};
use crate::eval::Evaluator;
use crate::moves::{building_moves, Overrides};
use agon_games::reversixt::{Move, Phase, Position};
use std::time::Instant;

/// The search algorithm.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    Paranoid,
    MaxN,
}

/// When to stop deepening. Either or both may be set (rules file, "Time and depth limits").
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Limits {
    /// Stop at this instant, keeping the best move of the last depth completed.
    pub deadline: Option<Instant>,
    /// Search at most this many plies.
    pub max_depth: Option<u32>,
}

/// The chosen move, the depth of the last completed iteration (0 when none completed, or when
/// the move was forced and nothing needed searching) and the nodes visited (every position
/// entered, leaves included).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SearchResult {
    pub best: Move,
    pub depth: u32,
    pub nodes: u64,
}

/// The depth searched when neither a deadline nor a depth limit is given: the course server
/// always sets one of them, so this only keeps an unlimited call finite and quick.
pub const DEFAULT_DEPTH: u32 = 3;

/// The deepest iteration with a deadline but no depth limit; far beyond what any deadline
/// reaches except in endgames, where the search stops anyway once the tree is exhausted.
const MAX_DEPTH: u32 = 128;

/// Iterative deepening; always returns a legal move of `position.to_move` (falls back to the
/// first legal move if even depth 1 does not finish before the deadline); never panics on any
/// position where legal_moves() is non-empty.
///
/// The fallback is the first move of the root's ordered list, i.e. the one the cheap key
/// (stones turned, bonus squares first, bomb target score) likes best. A position with a single
/// candidate returns it at once with depth 0: the course's time account carries unused time
/// over (rules file, "Time and depth limits").
pub fn choose(position: &Position, mode: Mode, limits: &Limits) -> SearchResult {
    let mut search = Search::new(position, mode, limits.deadline);
    let mut order = search.moves(position);
    let Some(&first) = order.first() else {
        // Only when the game is over (no legal move at all); answer something harmless.
        let best = position.legal_moves().first().copied().unwrap_or(Move {
            x: 0,
            y: 0,
            special: 0,
        });
        return SearchResult {
            best,
            depth: 0,
            nodes: 0,
        };
    };
    if order.len() == 1 {
        return SearchResult {
            best: first,
            depth: 0,
            nodes: 0,
        };
    }
    let ceiling = match (limits.max_depth, limits.deadline) {
        (Some(d), _) => d,
        (None, Some(_)) => MAX_DEPTH,
        (None, None) => DEFAULT_DEPTH,
    };
    let mut result = SearchResult {
        best: first,
        depth: 0,
        nodes: 0,
    };
    for depth in 1..=ceiling {
        search.exhaustive = true;
        let Some((ranked, pv)) = search.root(position, &order, depth) else {
            break;
        };
        result.best = ranked[0];
        result.depth = depth;
        // The next iteration tries this one's moves best first, and follows its line first.
        order = ranked;
        search.pv = pv;
        // Every leaf was a finished game: deeper iterations would see the same tree.
        if search.exhaustive {
            break;
        }
    }
    result.nodes = search.nodes;
    result
}

struct Search {
    me: u8,
    mode: Mode,
    deadline: Option<Instant>,
    eval: Evaluator,
    blast: Blast,
    nodes: u64,
    /// Set when the deadline passes; every caller then unwinds without using the values.
    aborted: bool,
    /// Cleared when a leaf is cut off by the depth limit rather than by the end of the game.
    exhaustive: bool,
    /// The principal variation of the last completed iteration, searched first.
    pv: Vec<Move>,
}

impl Search {
    fn new(position: &Position, mode: Mode, deadline: Option<Instant>) -> Search {
        Search {
            me: position.to_move,
            mode,
            deadline,
            eval: Evaluator::new(position),
            blast: Blast::default(),
            nodes: 0,
            aborted: false,
            exhaustive: true,
            pv: Vec::new(),
        }
    }

    /// The moves a node searches, best first by the cheap key (see the module doc).
    fn moves(&mut self, position: &Position) -> Vec<Move> {
        match position.phase {
            Phase::Over => Vec::new(),
            Phase::Building => {
                building_moves(position, self.eval.topology(), Overrides::WhenForced)
                    .into_iter()
                    .map(|c| c.mv)
                    .collect()
            }
            Phase::Bombing => bombing::targets(position, &mut self.blast)
                .into_iter()
                .map(|c| c.mv)
                .collect(),
        }
    }

    /// The moves at `ply`, with the principal variation's move first when this node lies on
    /// it; also says whether it did (then the first child lies on it too).
    fn ordered(&mut self, position: &Position, ply: usize, on_pv: bool) -> (Vec<Move>, bool) {
        let mut moves = self.moves(position);
        if on_pv {
            if let Some(&pv_move) = self.pv.get(ply) {
                if let Some(i) = moves.iter().position(|&m| m == pv_move) {
                    moves[..=i].rotate_right(1);
                    return (moves, true);
                }
            }
        }
        (moves, false)
    }

    /// Counts a node and checks the clock (an `Instant::now` is a few tens of nanoseconds,
    /// against the microseconds a node's clone and play take).
    fn enter(&mut self) -> bool {
        self.nodes += 1;
        if let Some(deadline) = self.deadline {
            if Instant::now() >= deadline {
                self.aborted = true;
            }
        }
        !self.aborted
    }

    fn child(position: &Position, m: Move) -> Option<Position> {
        let mut child = position.clone();
        let played = child.play(position.to_move, m);
        debug_assert!(played.is_ok(), "generated {m:?}, refused: {played:?}");
        played.ok().map(|()| child)
    }

    /// One iteration at the root: the moves ranked best first, and the principal variation;
    /// `None` when the deadline cut it short.
    fn root(
        &mut self,
        position: &Position,
        order: &[Move],
        depth: u32,
    ) -> Option<(Vec<Move>, Vec<Move>)> {
        let me = self.me as usize - 1;
        let mut scored: Vec<(Move, f64)> = Vec::with_capacity(order.len());
        let mut best = f64::NEG_INFINITY;
        let mut pv = Vec::new();
        let mut line = Vec::new();
        for (i, &m) in order.iter().enumerate() {
            let Some(child) = Self::child(position, m) else {
                continue;
            };
            line.clear();
            // `order[0]` is the last iteration's best move, the head of its principal variation.
            let on_pv = i == 0 && self.pv.first() == Some(&m);
            let v = match self.mode {
                Mode::Paranoid => {
                    // Only the best value is needed exactly: the others need only be known to
                    // be no better (alpha-beta at the root).
                    let alpha = best;
                    self.paranoid(&child, depth - 1, 1, alpha, f64::INFINITY, on_pv, &mut line)
                }
                // An aborted search returns an empty vector: read it only when complete.
                Mode::MaxN => {
                    let values = self.maxn(&child, depth - 1, 1, on_pv, &mut line);
                    values.get(me).copied().unwrap_or(f64::NEG_INFINITY)
                }
            };
            if self.aborted {
                return None;
            }
            scored.push((m, v));
            if v > best || pv.is_empty() {
                best = v;
                pv.clear();
                pv.push(m);
                pv.extend_from_slice(&line);
            }
        }
        if scored.is_empty() {
            return None;
        }
        // Stable sort: among equal values the earlier (better ordered) move stays ahead, and the
        // best move (the first to reach the best value) comes first.
        scored.sort_by(|a, b| b.1.total_cmp(&a.1));
        Some((scored.into_iter().map(|(m, _)| m).collect(), pv))
    }

    /// Paranoid alpha-beta: the value for the root player, who maximises; everyone else
    /// minimises. `line` receives the best continuation.
    #[allow(clippy::too_many_arguments)]
    fn paranoid(
        &mut self,
        position: &Position,
        depth: u32,
        ply: usize,
        mut alpha: f64,
        mut beta: f64,
        on_pv: bool,
        line: &mut Vec<Move>,
    ) -> f64 {
        if !self.enter() {
            return 0.0;
        }
        if position.phase == Phase::Over {
            return self.eval.evaluate(position, self.me);
        }
        if depth == 0 {
            self.exhaustive = false;
            return self.eval.evaluate(position, self.me);
        }
        let (moves, pv_first) = self.ordered(position, ply, on_pv);
        let maximising = position.to_move == self.me;
        let mut best: Option<f64> = None;
        let mut child_line = Vec::new();
        for (i, &m) in moves.iter().enumerate() {
            let Some(child) = Self::child(position, m) else {
                continue;
            };
            child_line.clear();
            let v = self.paranoid(
                &child,
                depth - 1,
                ply + 1,
                alpha,
                beta,
                pv_first && i == 0,
                &mut child_line,
            );
            if self.aborted {
                return 0.0;
            }
            let better = match best {
                None => true,
                Some(b) if maximising => v > b,
                Some(b) => v < b,
            };
            if better {
                best = Some(v);
                line.clear();
                line.push(m);
                line.extend_from_slice(&child_line);
            }
            if maximising {
                alpha = alpha.max(v);
            } else {
                beta = beta.min(v);
            }
            if alpha >= beta {
                break;
            }
        }
        // No child at all only if the generator offered nothing the rules accept.
        best.unwrap_or_else(|| self.eval.evaluate(position, self.me))
    }

    /// Max-n: the vector of every player's value (index 0 is player 1); the player to move
    /// picks the child best for itself, the earlier one on ties.
    fn maxn(
        &mut self,
        position: &Position,
        depth: u32,
        ply: usize,
        on_pv: bool,
        line: &mut Vec<Move>,
    ) -> Vec<f64> {
        if !self.enter() {
            return Vec::new();
        }
        if position.phase == Phase::Over {
            return self.eval.evaluate_all(position);
        }
        if depth == 0 {
            self.exhaustive = false;
            return self.eval.evaluate_all(position);
        }
        let mover = position.to_move as usize - 1;
        let (moves, pv_first) = self.ordered(position, ply, on_pv);
        let mut best: Option<Vec<f64>> = None;
        let mut child_line = Vec::new();
        for (i, &m) in moves.iter().enumerate() {
            let Some(child) = Self::child(position, m) else {
                continue;
            };
            child_line.clear();
            let v = self.maxn(
                &child,
                depth - 1,
                ply + 1,
                pv_first && i == 0,
                &mut child_line,
            );
            if self.aborted {
                return Vec::new();
            }
            if best.as_ref().is_none_or(|b| v[mover] > b[mover]) {
                best = Some(v);
                line.clear();
                line.push(m);
                line.extend_from_slice(&child_line);
            }
        }
        best.unwrap_or_else(|| self.eval.evaluate_all(position))
    }
}
