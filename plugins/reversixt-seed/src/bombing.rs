//! Bomb targets: what a blast destroys, and the report's target score (5.2).
//!
//! Every non-hole square is a legal target (rules file, "Phase 2"), far too many to search on a
//! big map, so targets are scored by the heuristic and only the best [`BOMB_CANDIDATES`] are
//! searched.

use crate::moves::{stone_counts, Candidate};
use agon_games::reversixt::{Direction, Move, Position, Square};

/// How many bomb targets the search looks at per node. The report (5.2) ranks targets by its
/// heuristic; the search only has to decide among the best few, and eight keeps the bombing
/// phase's branching factor that of a quiet building position.
pub const BOMB_CANDIDATES: usize = 8;

/// How many of those are the targets that destroy the fewest of the thrower's own stones,
/// whatever they do to rivals. The report's score (5.2) weighs a rival's stone at
/// m (2r+1)^2 / ((p-1)(|N_j - N|+1)) against 1 for our own, so with several bombs and a close
/// rival every top target trades many own stones for a few of the rival's; keeping the
/// cheapest targets among the candidates lets the search, which values positions by stones and
/// ranks, refuse that trade.
pub const SAFE_CANDIDATES: usize = 2;

/// Scoring every target by a breadth-first blast costs (non-hole squares) x (2r+1)^2 steps;
/// above this many, targets are first ranked by a window sum (see [`targets`]).
const EXACT_BUDGET: f64 = 60_000.0;

/// Scratch space for blasts, reused so that a blast allocates nothing.
#[derive(Debug, Default, Clone)]
pub struct Blast {
    seen: Vec<u32>,
    stamp: u32,
    frontier: Vec<usize>,
    next: Vec<usize>,
}

impl Blast {
    /// Counts, per owner, the stones a bomb on `target` destroys: every square within
    /// `bomb_strength` steps (8-neighbour steps or transitions, never through holes; rules
    /// file, "Phase 2"). `counts[p]` is player p's stones (index 0 unused).
    pub fn count(&mut self, position: &Position, target: usize, counts: &mut [u32; 9]) {
        let map = &position.map;
        *counts = [0; 9];
        if self.seen.len() != map.squares.len() {
            self.seen = vec![0; map.squares.len()];
            self.stamp = 0;
        }
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.seen.iter_mut().for_each(|s| *s = 0);
            self.stamp = 1;
        }
        let stamp = self.stamp;
        self.seen[target] = stamp;
        self.frontier.clear();
        self.frontier.push(target);
        let mut tally = |s: usize| {
            if let Square::Stone(p) = map.squares[s] {
                counts[p as usize] += 1;
            }
        };
        tally(target);
        for _ in 0..map.bomb_strength {
            if self.frontier.is_empty() {
                break;
            }
            self.next.clear();
            for &at in &self.frontier {
                for d in Direction::ALL {
                    if let Some((to, _)) = map.step_index(at, d) {
                        if self.seen[to] != stamp {
                            self.seen[to] = stamp;
                            self.next.push(to);
                            tally(to);
                        }
                    }
                }
            }
            std::mem::swap(&mut self.frontier, &mut self.next);
        }
    }
}

/// The area of one blast, (2r+1)^2 (report 5.1.5), as a float: bomb strengths go up to
/// `u32::MAX`.
pub fn blast_area(strength: u32) -> f64 {
    (2.0 * f64::from(strength) + 1.0).powi(2)
}

/// The report's bombing-phase rivalry factors (5.2) for `player` throwing: as the building
/// phase's ([`rivalry_weights`]), but every rival weighed with our own bomb count m instead of
/// its own ("we're taking the initiative this time"). Index p is player p.
pub fn target_weights(position: &Position, player: u8) -> [f64; 9] {
    let m = f64::from(position.bombs[player as usize - 1]);
    rivalry_weights(position, player, |_| m)
}

/// The report's rivalry factors (5.1.6, 5.2): `player`'s own stones weigh -1, an active rival
/// j weighs r_j = m_j (2r+1)^2 / ((p-1)(|N_j - N|+1)) with `bombs(j)` as m_j, N the stone
/// counts and p the active players; disqualified players weigh 0 (they rank last whatever
/// happens to their stones, rules file "Result"). Index p is player p.
pub fn rivalry_weights(position: &Position, player: u8, bombs: impl Fn(u8) -> f64) -> [f64; 9] {
    let stones = stone_counts(&position.map);
    let active = position.disqualified.iter().filter(|&&d| !d).count().max(2);
    let mine = stones[player as usize - 1] as f64;
    let area = blast_area(position.map.bomb_strength);
    let mut w = [0.0; 9];
    for j in 1..=position.players() {
        let idx = j as usize - 1;
        w[j as usize] = if j == player {
            -1.0
        } else if position.disqualified[idx] {
            0.0
        } else {
            bombs(j) * area / ((active - 1) as f64 * ((stones[idx] as f64 - mine).abs() + 1.0))
        };
    }
    w
}

/// The report's target score c_k = sum_j n_j r'_j / (2r+1)^2 (5.2) from blast counts.
fn score(counts: &[u32; 9], weights: &[f64; 9], area: f64) -> f64 {
    (1..9)
        .map(|p| f64::from(counts[p]) * weights[p])
        .sum::<f64>()
        / area
}

/// [`BOMB_CANDIDATES`] bomb targets for the player to move, best first by the report's score
/// (5.2): the best by that score and the [`SAFE_CANDIDATES`] cheapest in own stones. On a
/// small board every target is scored exactly; on a big one window sums over the (2r+1) x
/// (2r+1) square (which ignore holes and transitions) shortlist the most promising
/// 3 x [`BOMB_CANDIDATES`] and the [`BOMB_CANDIDATES`] cheapest, which are then scored exactly.
pub fn targets(position: &Position, blast: &mut Blast) -> Vec<Candidate> {
    let map = &position.map;
    let player = position.to_move;
    let weights = target_weights(position, player);
    let area = blast_area(map.bomb_strength);
    let open: Vec<usize> = (0..map.squares.len())
        .filter(|&t| map.squares[t] != Square::Hole)
        .collect();
    let shortlist: Vec<usize> = if open.len() as f64 * area <= EXACT_BUDGET {
        open
    } else {
        let mut own = [0.0; 9];
        own[player as usize] = 1.0;
        let approx = window_scores(position, &weights);
        let loss = window_scores(position, &own);
        let mut by_score = open.clone();
        by_score.sort_by(|&a, &b| approx[b].total_cmp(&approx[a]));
        by_score.truncate(3 * BOMB_CANDIDATES);
        let mut by_loss = open;
        by_loss.sort_by(|&a, &b| loss[a].total_cmp(&loss[b]));
        by_loss.truncate(BOMB_CANDIDATES);
        by_loss.retain(|t| !by_score.contains(t));
        by_score.extend(by_loss);
        by_score
    };
    let mut counts = [0u32; 9];
    // (candidate, own stones destroyed)
    let mut scored: Vec<(Candidate, u32)> = shortlist
        .into_iter()
        .map(|t| {
            blast.count(position, t, &mut counts);
            let candidate = Candidate {
                mv: Move {
                    x: t % map.width,
                    y: t / map.width,
                    special: 0,
                },
                key: score(&counts, &weights, area),
            };
            (candidate, counts[player as usize])
        })
        .collect();
    // Stable sorts: among equal scores board order decides, so the search is deterministic.
    scored.sort_by(|a, b| b.0.key.total_cmp(&a.0.key));
    let mut chosen: Vec<Candidate> = scored
        .iter()
        .take(BOMB_CANDIDATES - SAFE_CANDIDATES)
        .map(|c| c.0)
        .collect();
    let mut rest: Vec<&(Candidate, u32)> = scored
        .iter()
        .skip(BOMB_CANDIDATES - SAFE_CANDIDATES)
        .collect();
    // Fewest own stones lost; among those, the best by the report's score (already sorted).
    rest.sort_by_key(|c| c.1);
    chosen.extend(rest.iter().take(SAFE_CANDIDATES).map(|c| c.0));
    chosen.sort_by(|a, b| b.key.total_cmp(&a.key));
    chosen
}

/// The weighted stones around every square from a 2-D prefix sum over the board grid, blast =
/// the square of side 2r+1 around the target (the report's own picture of a blast, figure 5).
fn window_scores(position: &Position, weights: &[f64; 9]) -> Vec<f64> {
    let map = &position.map;
    let value = |t: usize| match map.squares[t] {
        Square::Stone(p) => weights[p as usize],
        _ => 0.0,
    };
    let sums = prefix_sums(map.width, map.height, value);
    let r = (map.bomb_strength as usize).min(map.width.max(map.height));
    (0..map.squares.len())
        .map(|t| window(&sums, map.width, map.height, t, r))
        .collect()
}

/// `sums[(y) * (w+1) + x]` = the sum of `value` over columns `< x` and rows `< y`.
pub fn prefix_sums(width: usize, height: usize, value: impl Fn(usize) -> f64) -> Vec<f64> {
    let stride = width + 1;
    let mut sums = vec![0.0; stride * (height + 1)];
    for y in 0..height {
        let mut row = 0.0;
        for x in 0..width {
            row += value(y * width + x);
            sums[(y + 1) * stride + x + 1] = sums[y * stride + x + 1] + row;
        }
    }
    sums
}

/// The sum over the square of radius `r` (Chebyshev) around square `t`, clipped to the board.
pub fn window(sums: &[f64], width: usize, height: usize, t: usize, r: usize) -> f64 {
    let stride = width + 1;
    let (x, y) = (t % width, t / width);
    let (x0, y0) = (x.saturating_sub(r), y.saturating_sub(r));
    let (x1, y1) = ((x + r + 1).min(width), (y + r + 1).min(height));
    sums[y1 * stride + x1] - sums[y0 * stride + x1] - sums[y1 * stride + x0]
        + sums[y0 * stride + x0]
}
