//! Building-phase move generation without allocation per square.
//!
//! `Position::legal_moves` asks `Position::captures` for every square, which collects every
//! line into vectors. Here a line is only counted, on the [`Topology`] step table, with the
//! same walk as the rules (rules file, "Phase 1"); `tests` checks that the full set equals
//! `legal_moves` on every course map.

use crate::topology::Topology;
use agon_games::reversixt::{Map, Move, Phase, Position, Square, BONUS_BOMB, BONUS_OVERRIDE};

/// A move with the cheap ordering key the search sorts by (larger first).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Candidate {
    pub mv: Move,
    pub key: f64,
}

/// Which override moves to generate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Overrides {
    /// Every legal override move (for checking against `legal_moves`).
    All,
    /// The seed policy: the report (5.1.5) keeps override stones "until the map has been
    /// filled by regular moves", so they are offered only when the mover has no regular move,
    /// and then only the [`OVERRIDE_CANDIDATES`] that turn the most stones.
    WhenForced,
}

/// How many override moves the search looks at when it must override: every occupied square
/// may be a target, far too many to search, and the report (5.1.5) values an override by the
/// stones it turns, so the best few by that count stand for the rest.
pub const OVERRIDE_CANDIDATES: usize = 8;

/// Puts bonus squares ahead of any capture count: in the uncertainty phase bonus assets are
/// the only thing the evaluation values (report 5.1.1), and later a bonus is worth 2(2r+1)^2 or
/// 2 sqrt(hw) (report 5.1.5), more than the stones of any ordinary move.
const BONUS_KEY: f64 = 1000.0;

/// Empty squares, plain or special: they take a stone by an ordinary move and stop capture
/// lines (rules file, "Squares").
#[inline]
pub fn is_free(square: Square) -> bool {
    matches!(
        square,
        Square::Empty | Square::Choice | Square::Inversion | Square::Bonus
    )
}

/// How many squares a stone of `player` on `target` turns in direction `dir`, the walk of
/// `Position::line` step for step (rules file, "Phase 1"): one or more other players' stones or
/// expansion stones, then one of the mover's own; it breaks at a free square, at an edge or hole
/// with no transition, and on returning to the target. The bound is the rules code's own guard
/// against a walk that never ends.
#[inline]
fn line_len(squares: &[Square], topo: &Topology, player: u8, target: usize, dir: u8) -> usize {
    let (mut at, mut heading) = (target, dir);
    let mut passed = 0;
    for _ in 0..=squares.len() * 8 {
        let Some((next, on)) = topo.step(at, heading) else {
            return 0;
        };
        if next == target {
            return 0;
        }
        match squares[next] {
            Square::Stone(q) if q == player => return passed,
            Square::Stone(_) | Square::Expansion => passed += 1,
            _ => return 0,
        }
        at = next;
        heading = on;
    }
    0
}

/// The stones a stone of `player` on `target` turns, summed over the 8 directions. Lines that
/// cross through transitions may share squares, so this can exceed `captures().len()`; it is
/// zero exactly when `captures` is empty, which is all legality needs, and close enough as an
/// ordering key.
pub fn turns(squares: &[Square], topo: &Topology, player: u8, target: usize) -> usize {
    (0..8)
        .map(|d| line_len(squares, topo, player, target, d))
        .sum()
}

/// Whether a stone of `player` on `target` turns anything.
#[inline]
pub fn captures_any(squares: &[Square], topo: &Topology, player: u8, target: usize) -> bool {
    (0..8).any(|d| line_len(squares, topo, player, target, d) > 0)
}

/// The report's mobility (5.1.3): the number of squares where `player` has a regular
/// (non-override) move. Override moves are left out: with override stones in hand nearly every
/// occupied square is one, which would swamp the measure of how open the position is.
pub fn mobility(squares: &[Square], topo: &Topology, player: u8) -> usize {
    (0..squares.len())
        .filter(|&t| is_free(squares[t]) && captures_any(squares, topo, player, t))
        .count()
}

/// Stones per player (index 0 is player 1), as `Map::stones` counts them but in one pass over
/// the board instead of one per player.
pub fn stone_counts(map: &Map) -> Vec<usize> {
    let mut counts = vec![0; map.players as usize];
    for &s in &map.squares {
        if let Square::Stone(p) = s {
            counts[p as usize - 1] += 1;
        }
    }
    counts
}

fn at(width: usize, index: usize, special: u8) -> Move {
    Move {
        x: index % width,
        y: index / width,
        special,
    }
}

/// The building-phase moves of the player to move, ordered best first by the cheap key
/// (stones turned; bonus squares first), with override moves as `overrides` says. `topo` must
/// be the step table of `position`'s holes and transitions.
pub fn building_moves(
    position: &Position,
    topo: &Topology,
    overrides: Overrides,
) -> Vec<Candidate> {
    let map = &position.map;
    let squares = &map.squares[..];
    let p = position.to_move;
    let mut out = Vec::new();
    // Counted only if a choice square needs it (for the choice keys below).
    let mut stones: Option<Vec<usize>> = None;
    let r = f64::from(map.bomb_strength);
    // The bonus choice worth more by the report's asset values (5.1.5) is tried first.
    let bomb_first =
        2.0 * (2.0 * r + 1.0).powi(2) >= 2.0 * ((map.width * map.height) as f64).sqrt();
    for t in 0..squares.len() {
        let square = squares[t];
        if !is_free(square) {
            continue;
        }
        let n = turns(squares, topo, p, t);
        if n == 0 {
            continue;
        }
        let key = n as f64;
        match square {
            Square::Choice => {
                // Naming q hands us q's stones: the more q has, the likelier the better move.
                let stones = stones.get_or_insert_with(|| stone_counts(map));
                for q in 1..=map.players {
                    let mv = at(map.width, t, q);
                    out.push(Candidate {
                        mv,
                        key: key + stones[q as usize - 1] as f64,
                    });
                }
            }
            Square::Bonus => {
                for (special, first) in [(BONUS_BOMB, bomb_first), (BONUS_OVERRIDE, !bomb_first)] {
                    out.push(Candidate {
                        mv: at(map.width, t, special),
                        key: key + BONUS_KEY + f64::from(u8::from(first)),
                    });
                }
            }
            _ => out.push(Candidate {
                mv: at(map.width, t, 0),
                key,
            }),
        }
    }
    let may_override =
        position.overrides[p as usize - 1] > 0 && (overrides == Overrides::All || out.is_empty());
    if may_override {
        let mut over = Vec::new();
        for t in 0..squares.len() {
            let square = squares[t];
            if !matches!(square, Square::Stone(_) | Square::Expansion) {
                continue;
            }
            let n = turns(squares, topo, p, t);
            // An expansion stone may be overridden even when nothing turns (rules file,
            // "Phase 1").
            if n > 0 || square == Square::Expansion {
                over.push(Candidate {
                    mv: at(map.width, t, 0),
                    key: n as f64,
                });
            }
        }
        if overrides == Overrides::WhenForced {
            over.sort_by(|a, b| b.key.total_cmp(&a.key));
            over.truncate(OVERRIDE_CANDIDATES);
        }
        out.extend(over);
    }
    // Stable: equal keys keep board order, so the search is deterministic.
    out.sort_by(|a, b| b.key.total_cmp(&a.key));
    out
}

/// Every legal move of the player to move, as a set equal to `Position::legal_moves` (in
/// another order): building moves from the step table, every non-hole square when bombing
/// (rules file, "Phase 2"), none when the game is over.
pub fn all_moves(position: &Position, topo: &Topology) -> Vec<Move> {
    match position.phase {
        Phase::Over => Vec::new(),
        Phase::Bombing => (0..position.map.squares.len())
            .filter(|&t| position.map.squares[t] != Square::Hole)
            .map(|t| at(position.map.width, t, 0))
            .collect(),
        Phase::Building => building_moves(position, topo, Overrides::All)
            .into_iter()
            .map(|c| c.mv)
            .collect(),
    }
}
