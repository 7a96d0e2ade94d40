//! The seed team's evaluation (rules file, "The seed team's evaluation"; report sections 5.1
//! and 5.2), always from one player's own view: the report (5) argues that in a multi-player
//! game hurting one rival helps all the others, so a selfish player values its own position
//! and leaves rivals alone except where they compete with it directly (clustering, bombs).
//!
//! | stage | value |
//! |---|---|
//! | uncertainty (choice or inversion squares left) | b_bomb + b_override (5.1.1, 5.1.7) |
//! | rest of building | m + s + b_bomb + b_override + 4(1 - f/t) l (5.1.7) |
//! | bombing | 4 N + 4 sum_j g(N - N_j) + b_bomb (our reading of 5.2, see [`bombing_value`]) |
//! | over | by rank: +[`WIN`] first, -[`WIN`] last, plus the stone margin |

use crate::bombing::{blast_area, prefix_sums, rivalry_weights, window};
use crate::moves::{is_free, mobility, stone_counts};
use crate::stability::Stability;
use crate::topology::Topology;
use agon_games::reversixt::{Map, Phase, Position, Square};

/// The value of finishing first; last is -WIN. Far above any heuristic value: that counts a
/// few units per square (4 stable lines, mobility, clustering) plus the assets, so even on the
/// largest map allowed (10^6 squares, rules file "Map file") with plenty of bombs it stays
/// orders of magnitude below, and a proven result always outweighs a guess.
pub const WIN: f64 = 1.0e12;

/// The report's weight of a fully stable stone (5.1.7: "the factor 4 is due to our other
/// heuristics assigning value 4 to completely stable stones"); also the weight of a stone in the
/// bombing phase, where regular moves are over and every stone is fully stable.
const STABLE_STONE: f64 = 4.0;

/// The seed evaluation of `position` from `player`'s view (see the module table). Builds its own
/// step table; a search should keep an [`Evaluator`] instead.
pub fn evaluate(position: &Position, player: u8) -> f64 {
    Evaluator::new(position).evaluate(position, player)
}

/// Whether choice or inversion squares remain: the report's "uncertainty phase" (5.1.1), in
/// which stone ownership may still be swapped or rotated wholesale.
pub fn in_uncertainty(map: &Map) -> bool {
    map.squares
        .iter()
        .any(|&s| matches!(s, Square::Choice | Square::Inversion))
}

/// b_bomb = 2(2r+1)^2 * bombs (report 5.1.5): a bomb's area, times 4 for fully stable stones,
/// halved because our bombs also destroy our own stones.
pub fn bomb_asset(position: &Position, player: u8) -> f64 {
    2.0 * blast_area(position.map.bomb_strength) * f64::from(position.bombs[player as usize - 1])
}

/// b_override = 2 sqrt(h w) * overrides (report 5.1.5): an override on a full map turns about
/// sqrt(hw) stones, times 4, halved because rivals' overrides can take them back.
pub fn override_asset(position: &Position, player: u8) -> f64 {
    let (h, w) = (position.map.height as f64, position.map.width as f64);
    2.0 * (h * w).sqrt() * f64::from(position.overrides[player as usize - 1])
}

/// The report's s (5.1.4) for one player, from scratch. For tests and callers; the evaluator
/// reuses its buffers.
pub fn stability(position: &Position, player: u8) -> u32 {
    let mut s = Stability::default();
    s.compute(&position.map.squares, &Topology::new(&position.map));
    s.total(&position.map.squares, player)
}

/// The seed evaluation with its buffers and the step table of the building phase kept between
/// calls. The step table is that of the position it was made from: it serves every
/// building-phase position reached from there (holes only appear when bombing), and
/// bombing-phase positions do not use it.
#[derive(Debug, Clone)]
pub struct Evaluator {
    topo: Topology,
    stability: Stability,
}

impl Evaluator {
    pub fn new(position: &Position) -> Evaluator {
        Evaluator {
            topo: Topology::new(&position.map),
            stability: Stability::default(),
        }
    }

    /// The step table of the position this evaluator was made from.
    pub fn topology(&self) -> &Topology {
        &self.topo
    }

    /// The seed evaluation from `player`'s view.
    pub fn evaluate(&mut self, position: &Position, player: u8) -> f64 {
        match position.phase {
            Phase::Over => terminal_value(position, player),
            Phase::Bombing => bombing_value(position, player),
            Phase::Building if in_uncertainty(&position.map) => {
                bomb_asset(position, player) + override_asset(position, player)
            }
            Phase::Building => {
                self.stability.compute(&position.map.squares, &self.topo);
                self.building_value(position, player)
            }
        }
    }

    /// The evaluation from every player's view (index 0 is player 1), for max-n; the
    /// stability of all players comes from one pass.
    pub fn evaluate_all(&mut self, position: &Position) -> Vec<f64> {
        let players = 1..=position.players();
        match position.phase {
            Phase::Building if !in_uncertainty(&position.map) => {
                self.stability.compute(&position.map.squares, &self.topo);
                players.map(|p| self.building_value(position, p)).collect()
            }
            _ => players.map(|p| self.evaluate(position, p)).collect(),
        }
    }

    /// h_Build = m + s + b_bomb + b_override + 4(1 - f/t) l (report 5.1.7); needs
    /// `self.stability` computed for `position`.
    fn building_value(&self, position: &Position, player: u8) -> f64 {
        let squares = &position.map.squares;
        let m = mobility(squares, &self.topo, player) as f64;
        let s = f64::from(self.stability.total(squares, player));
        let total = squares.iter().filter(|&&q| q != Square::Hole).count();
        let free = squares.iter().filter(|&&q| is_free(q)).count();
        let late = 1.0 - free as f64 / total.max(1) as f64;
        let l = if late > 0.0 {
            clustering(position, player)
        } else {
            0.0
        };
        m + s
            + bomb_asset(position, player)
            + override_asset(position, player)
            + STABLE_STONE * late * l
    }
}

/// The report's clustering l = sum over our stones i of c_i (5.1.6), with
/// c_i = sum_j n_j r_j / (2(2r+1)-1)^2, n_j the stones of player j within one bomb diameter of
/// i (i itself left out: it is the stone under threat, not collateral), r_own = -1 and for an
/// active rival r_j = m_j (2r+1)^2 / ((p-1)(|N_j - N|+1)).
///
/// Choices where the report is vague:
/// - "within one bomb diameter" is the square of side 2(2r+1)-1 = 4r+1 around the stone (the
///   report's figure 5 and its normaliser): any bomb that hits the stone hits only squares in
///   there. It is summed on the grid with prefix sums, ignoring holes and transitions, which
///   the normaliser ignores too; a breadth-first reach per stone would cost (4r+1)^2 steps per
///   stone per evaluation.
/// - p is the number of active players, and disqualified players weigh 0: they rank last
///   whatever happens (rules file, "Result"), so nobody needs to bomb them or fear them.
/// - with no rival holding a bomb there is no threat, so l = 0 (otherwise r_own = -1 alone
///   would penalise our own clusters for a danger that does not exist).
pub fn clustering(position: &Position, player: u8) -> f64 {
    let map = &position.map;
    let n = position.players();
    let rivals_armed = (1..=n).any(|j| {
        j != player && !position.disqualified[j as usize - 1] && position.bombs[j as usize - 1] > 0
    });
    if !rivals_armed {
        return 0.0;
    }
    let weight = rivalry_weights(position, player, |j| {
        f64::from(position.bombs[j as usize - 1])
    });
    let value = |t: usize| match map.squares[t] {
        Square::Stone(p) => weight[p as usize],
        _ => 0.0,
    };
    let sums = prefix_sums(map.width, map.height, value);
    let reach = (2 * map.bomb_strength as usize).min(map.width.max(map.height));
    let norm = (4.0 * f64::from(map.bomb_strength) + 1.0).powi(2);
    (0..map.squares.len())
        .filter(|&t| map.squares[t] == Square::Stone(player))
        .map(|t| (window(&sums, map.width, map.height, t, reach) - weight[player as usize]) / norm)
        .sum()
}

/// The bombing phase's position value, our reading of report 5.2. The report's h_Bombing sums
/// its target score c_k over all our targets, which values a position by how many targets it
/// offers rather than by what has happened; we use c_k where it belongs, to pick and order
/// targets (`bombing::targets`), and value a position by
/// `4 N + 4 sum_j g(N - N_j) + b_bomb`:
/// - 4 per own stone, as the building phase values a fully stable stone (report 5.1.7), so a
///   leaf's value does not jump where the building phase ends;
/// - for each active rival j, g(d) = A d / (|d| + A) with A = (2r+1)^2: slope 1 when j is close
///   to us and flattening beyond a blast's worth of stones. This keeps the report's rivalry
///   (rivals close in rank matter most, 5.1.6, 5.2: 1/(|N_j - N|+1)) but, unlike r'_j N_j, never
///   rewards a rival for keeping stones;
/// - our bombs left at the report's asset value (5.1.5).
pub fn bombing_value(position: &Position, player: u8) -> f64 {
    let stones = stone_counts(&position.map);
    let mine = stones[player as usize - 1] as f64;
    let a = blast_area(position.map.bomb_strength);
    let rivalry: f64 = (1..=position.players())
        .filter(|&j| j != player && !position.disqualified[j as usize - 1])
        .map(|j| {
            let d = mine - stones[j as usize - 1] as f64;
            a * d / (d.abs() + a)
        })
        .sum();
    STABLE_STONE * (mine + rivalry) + bomb_asset(position, player)
}

/// A finished game by rank (rules file, "Result"): first +[`WIN`], last -[`WIN`], linear in
/// between; plus our margin over the best rival, so a clear win beats a shared first place and
/// a narrow loss beats a heavy one.
pub fn terminal_value(position: &Position, player: u8) -> f64 {
    let ranks = position.ranks();
    let n = ranks.len();
    let rank = ranks[player as usize - 1];
    let stones = stone_counts(&position.map);
    let best_rival = (1..=n)
        .filter(|&j| j != player as usize && !position.disqualified[j - 1])
        .map(|j| stones[j - 1])
        .max()
        .unwrap_or(0);
    let margin = stones[player as usize - 1] as f64 - best_rival as f64;
    WIN * (1.0 - 2.0 * (rank - 1) as f64 / (n - 1).max(1) as f64) + margin
}
