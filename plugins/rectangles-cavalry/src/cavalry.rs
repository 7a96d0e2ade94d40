//! The Cavalry (the seed report's "The Cavalry Players"): the robots sweep the board in a row,
//! each on a track of its own (the advancing stage), and every so often form a line from the
//! leftmost to the rightmost robot (the enclosing stage), which closes one rectangle between
//! every two neighbouring tracks. Written for a sweep "south" on a virtual board; the
//! orientation turns it into any direction.
//!
//! Two styles, as the seed team had:
//! - annealing: blind, fixed trajectories; it advances one track spacing between lines, and
//!   after a full scan turns round with the spacing one smaller, so it becomes an Army.
//!   Chased robots stop.
//! - royal: adaptive. Advance distances minimum / standard / extended / maximum; damage
//!   detection (the start line or a track repainted by others: enclose as soon as the minimum
//!   is reached) and danger detection (enemy robots closing in: enclose from the standard
//!   distance, else from the extended one); the enclosing line is the row ahead with the fewest
//!   filled cells; damaged lines are repaired by the nearest robot under a deadline; chased
//!   robots leave the cavalry and move at random over enemy cells (anti-chaser); after one
//!   full scan, Rectmania takes over.

use crate::line::segments;
use crate::orientation::Orientation;
use crate::path::best_step;
use crate::rectmania::{assign, search};
use crate::view::View;
use agon_sdk::protocol::rectangles::{Cell, Direction, Observation, FILLED};
use agon_sdk::rectangles::Rect;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Style {
    Annealing,
    Royal,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Stage {
    /// Going to the tracks on the start row.
    Forming,
    /// Drawing the line on `row`, for at most `rounds_left` more rounds.
    Enclosing {
        row: usize,
        rounds_left: usize,
    },
    /// Sweeping south; the line will be drawn on `target` once chosen.
    Advancing {
        target: Option<usize>,
    },
    Rectmania,
}

/// Rounds in a row an enemy robot must follow one of ours before ours counts as chased.
const CHASED_AFTER: u32 = 1;

/// The robots the opening ring takes unless told otherwise.
pub const DEFAULT_RING_ROBOTS: usize = 8;

/// How many of its last cells a robot remembers to recognise a follower on its path.
const TRAIL: usize = 4;

/// Rounds without a follower after which a dropped robot rejoins the cavalry.
const REJOIN_AFTER: u32 = 6;

pub struct Cavalry {
    style: Style,
    n: usize,
    robots: usize,
    you: usize,
    orientation: Orientation,
    spacing: usize,
    tracks: Vec<usize>,
    members: Vec<bool>,
    start_row: usize,
    stage: Stage,
    /// Annealing's blind line plan, per robot: 0 to the west end, 1 to the east end, 2 home.
    progress: Vec<u8>,
    /// Royal repairs: the cell a robot repaints and the rounds it has left.
    repair: Vec<Option<(Cell, usize)>>,
    /// Cells sent a repairer since the last line was begun.
    repaired: Vec<Cell>,
    /// Rounds in a row each robot has had an enemy robot next to it (annealing), or standing
    /// on the cell it just left (royal: the signature of a chaser).
    chased: Vec<u32>,
    /// Rounds in a row each robot has gone without a follower.
    quiet: Vec<u32>,
    /// Each robot's last cells, on the virtual board, oldest first.
    trail: Vec<Vec<Cell>>,
    target: Option<Rect>,
    rng: ChaCha8Rng,
    /// Robots the royal cavalry's opening ring may take.
    ring_robots: usize,
}

impl Cavalry {
    pub fn new(style: Style, n: usize, robots: usize, you: usize, seed: u64) -> Cavalry {
        let mut cavalry = Cavalry {
            style,
            n,
            robots,
            you,
            orientation: Orientation::nth(start_orientation(style, you)),
            spacing: 2,
            tracks: Vec::new(),
            members: vec![true; robots],
            start_row: 0,
            stage: Stage::Forming,
            progress: vec![0; robots],
            repair: vec![None; robots],
            repaired: Vec::new(),
            chased: vec![0; robots],
            quiet: vec![0; robots],
            trail: Vec::new(),
            target: None,
            rng: ChaCha8Rng::seed_from_u64(seed),
            ring_robots: DEFAULT_RING_ROBOTS,
        };
        cavalry.spread(((n - 1) / robots.saturating_sub(1).max(1)).max(2));
        cavalry
    }

    /// Tracks `spacing` apart (as near as the board allows), spread over the whole width.
    fn spread(&mut self, spacing: usize) {
        self.spacing = spacing.max(2);
        let lines = ((self.n - 1) / self.spacing + 1).min(self.robots).max(1);
        let step = (self.n - 1) as f64 / (lines.max(2) - 1) as f64;
        self.tracks = (0..self.robots)
            .map(|k| ((k.min(lines - 1)) as f64 * step).round() as usize)
            .map(|c| c.min(self.n - 1))
            .collect();
    }

    /// Where the robots start, on the board: on their tracks on virtual row 0. The royal
    /// cavalry opens with a ring: placement is round 0 and is painted and claimed like any
    /// round (rules file, "A round", 3 and 4), so robots placed on the boundary of a
    /// rectangle claim its interior before anyone moves. The ring takes at most
    /// `ring_robots` robots, those of the middle tracks, and stands in the middle of the start
    /// row; the others start on their tracks.
    pub fn placement(&self) -> Vec<Cell> {
        let mut cells: Vec<Cell> = self.tracks.iter().map(|&c| Cell::new(0, c)).collect();
        let ring = ring_for(self.ring_robots.min(self.robots), self.n);
        if self.style == Style::Royal && ring.interior_len() > 0 {
            let mut boundary: Vec<Cell> = ring.boundary().collect();
            // Left to right, so each ring robot has the shortest way to its track.
            boundary.sort_by_key(|c| (c.col, c.row));
            let at = (self.n - 1 - ring.right as usize) / 2;
            let first = (self.robots - boundary.len()) / 2;
            for (k, c) in boundary.into_iter().enumerate() {
                cells[first + k] = Cell::new(c.row as usize, c.col as usize + at);
            }
        }
        cells
            .into_iter()
            .map(|c| self.orientation.to_real(c, self.n))
            .collect()
    }

    /// At most `robots` robots stand on the opening ring (0: no ring).
    pub fn with_ring(mut self, robots: usize) -> Cavalry {
        self.ring_robots = robots;
        self
    }

    fn advance_distances(&self) -> (usize, usize, usize, usize) {
        let s = self.spacing;
        ((s / 2).max(2), s, s, 2 * s)
    }

    /// Whether `observation` is of the game this cavalry was made for: the board's size, a
    /// robot list for every player up to this one, and this player's robots all there.
    pub fn fits(&self, observation: &Observation) -> bool {
        observation.cells.len() == self.n * self.n
            && observation
                .robots
                .get(self.you)
                .is_some_and(|mine| mine.len() == self.robots)
            && observation
                .robots
                .iter()
                .flatten()
                .all(|c| (c.row as usize) < self.n && (c.col as usize) < self.n)
    }

    pub fn act(&mut self, observation: &Observation) -> Vec<Direction> {
        let view = View {
            n: self.n,
            you: self.you,
            obs: observation,
            orientation: self.orientation,
        };
        let mine = view.mine();
        let enemies = view.enemies();
        for (k, &c) in mine.iter().enumerate() {
            let trail = self.trail.get(k).map_or(&[][..], Vec::as_slice);
            let followed = match self.style {
                // A follower walks our path a few steps behind (or sits on our cell).
                Style::Royal => enemies.iter().any(|(e, _)| {
                    trail.iter().any(|t| t == e && *t != c) || (*e == c && self.chased[k] > 0)
                }),
                Style::Annealing => enemies.iter().any(|(e, _)| e.distance(c) <= 1),
            };
            if followed {
                self.chased[k] += 1;
                self.quiet[k] = 0;
            } else {
                self.chased[k] = 0;
                self.quiet[k] += 1;
            }
            if self.style == Style::Royal && self.chased[k] >= CHASED_AFTER {
                self.members[k] = false;
            }
            if self.style == Style::Royal && self.quiet[k] >= REJOIN_AFTER {
                self.members[k] = true;
            }
        }
        self.trail.resize(self.robots, Vec::new());
        for (trail, &c) in self.trail.iter_mut().zip(&mine) {
            if trail.last() != Some(&c) {
                trail.push(c);
            }
            if trail.len() > TRAIL {
                trail.remove(0);
            }
        }
        if self.style == Style::Royal
            && self.stage != Stage::Rectmania
            && self.members.iter().filter(|m| **m).count() < 2
        {
            self.stage = Stage::Rectmania;
        }
        if self.style == Style::Royal {
            self.tick_repairs(&view);
        }
        let mut virtual_moves = match self.stage.clone() {
            Stage::Rectmania => return self.rectmania(observation),
            Stage::Forming => self.forming(&mine),
            Stage::Advancing { target } => self.advancing(&view, &mine, &enemies, target),
            Stage::Enclosing { row, rounds_left } => self.enclosing(&view, &mine, row, rounds_left),
        };
        // Repairs go on beside the line and the advance; neither waits for them.
        for (k, m) in virtual_moves.iter_mut().enumerate() {
            if let Some((cell, _)) = self.repair[k] {
                *m = best_step(&view, mine[k], cell);
            }
        }
        let mut moves: Vec<Direction> = virtual_moves
            .into_iter()
            .map(|d| self.orientation.direction_to_real(d))
            .collect();
        for (k, m) in moves.iter_mut().enumerate() {
            if !self.members[k] || self.chased[k] >= CHASED_AFTER {
                *m = self.evade(observation, k);
            }
        }
        moves
    }

    fn home(&self, k: usize, row: usize) -> Cell {
        Cell::new(row, self.tracks[k])
    }

    fn forming(&mut self, mine: &[Cell]) -> Vec<Direction> {
        let row = self.start_row;
        if (0..self.robots).all(|k| !self.members[k] || mine[k] == self.home(k, row)) {
            self.stage = Stage::Enclosing {
                row,
                rounds_left: 3 * self.spacing + 4,
            };
            self.progress = vec![0; self.robots];
        }
        (0..self.robots)
            .map(|k| mine[k].step_toward(self.home(k, row)))
            .collect()
    }

    fn span(&self) -> (usize, usize) {
        let cols = (0..self.robots)
            .filter(|&k| self.members[k])
            .map(|k| self.tracks[k]);
        (cols.clone().min().unwrap_or(0), cols.max().unwrap_or(0))
    }

    /// Cells of the rectangles being built that no longer hold our colour: the start line
    /// and the tracks down to `row`.
    fn damaged(&self, view: &View, row: usize) -> Vec<Cell> {
        let (lo, hi) = self.span();
        let mut cells: Vec<Cell> = (lo..=hi).map(|c| Cell::new(self.start_row, c)).collect();
        for k in (0..self.robots).filter(|&k| self.members[k]) {
            cells.extend((self.start_row..=row).map(|r| Cell::new(r, self.tracks[k])));
        }
        cells.sort_unstable();
        cells.dedup();
        cells.retain(|&c| !view.own(c) && !view.filled(c));
        cells
    }

    /// Enemy robots that came closer to the area being enclosed in their last move.
    fn danger(&self, enemies: &[(Cell, Cell)], row: usize) -> bool {
        let (lo, hi) = self.span();
        let reach = self.spacing;
        let distance = |c: Cell| {
            let (r, k) = (c.row as usize, c.col as usize);
            let dr = if r < self.start_row {
                self.start_row - r
            } else {
                r.saturating_sub(row)
            };
            let dc = if k < lo { lo - k } else { k.saturating_sub(hi) };
            dr + dc
        };
        enemies
            .iter()
            .any(|&(now, before)| distance(now) <= reach && distance(now) < distance(before))
    }

    fn advancing(
        &mut self,
        view: &View,
        mine: &[Cell],
        enemies: &[(Cell, Cell)],
        target: Option<usize>,
    ) -> Vec<Direction> {
        let row = (0..self.robots)
            .filter(|&k| self.members[k])
            .map(|k| mine[k].row as usize)
            .max()
            .unwrap_or(0);
        let advanced = row - self.start_row.min(row);
        let bottom = row + 1 >= self.n;
        let enclose = match (self.style, target) {
            (_, Some(t)) => row >= t,
            (Style::Annealing, None) => advanced >= self.spacing || bottom,
            (Style::Royal, None) => {
                let (min, standard, extended, max) = self.advance_distances();
                if bottom
                    || advanced >= max
                    || (advanced >= min && !self.damaged(view, row).is_empty())
                {
                    true
                } else if (advanced >= standard && self.danger(enemies, row))
                    || advanced >= extended
                {
                    // The best enclosing line: the row ahead with the fewest filled cells.
                    let (lo, hi) = self.span();
                    let last = (self.start_row + max).min(self.n - 1);
                    let best = (row..=last)
                        .min_by_key(|&r| {
                            let black = (lo..=hi).filter(|&c| view.filled(Cell::new(r, c))).count();
                            (black, r)
                        })
                        .unwrap_or(row);
                    self.stage = Stage::Advancing { target: Some(best) };
                    best == row
                } else {
                    false
                }
            }
        };
        if enclose {
            self.stage = Stage::Enclosing {
                row,
                rounds_left: 3 * self.spacing + 4,
            };
            self.progress = vec![0; self.robots];
            return self.enclosing(view, mine, row, 3 * self.spacing + 4);
        }
        (0..self.robots)
            .map(|k| {
                let behind = (mine[k].row as usize) < row && mine[k].col as usize == self.tracks[k];
                if mine[k] == self.home(k, row) || behind {
                    Direction::South
                } else {
                    mine[k].step_toward(self.home(k, row))
                }
            })
            .collect()
    }

    fn enclosing(
        &mut self,
        view: &View,
        mine: &[Cell],
        row: usize,
        rounds_left: usize,
    ) -> Vec<Direction> {
        let (lo, hi) = self.span();
        let mut moves = vec![Direction::Stay; self.robots];
        let line_done = (lo..=hi)
            .all(|c| view.own(Cell::new(row, c)) || view.paint(Cell::new(row, c)) == FILLED);
        // Royal: once the line stands, damage is what keeps the rectangles from closing; the
        // nearest robots go back to repair it.
        if self.style == Style::Royal && line_done {
            self.plan_repairs(view, mine, row);
        }
        // A repairer keeps its segment of the line and draws it when back.
        let liners: Vec<usize> = (0..self.robots).filter(|&k| self.members[k]).collect();
        let mut by_track = liners.clone();
        by_track.sort_by_key(|&k| self.tracks[k]);
        let positions: Vec<usize> = by_track.iter().map(|&k| self.tracks[k]).collect();
        let segs = segments(&positions, lo, hi);
        let mut all_home = true;
        for (i, &k) in by_track.iter().enumerate() {
            let (a, b) = segs[i];
            let goal = match self.style {
                Style::Annealing => {
                    let plan = [Cell::new(row, a), Cell::new(row, b), self.home(k, row)];
                    while self.progress[k] < 2 && mine[k] == plan[self.progress[k] as usize] {
                        self.progress[k] += 1;
                    }
                    plan[self.progress[k] as usize]
                }
                // The nearest cell of the segment not yet ours, then home.
                Style::Royal => (a..=b)
                    .map(|c| Cell::new(row, c))
                    .filter(|&c| !view.own(c) && !view.filled(c))
                    .min_by_key(|&c| mine[k].distance(c))
                    .unwrap_or(self.home(k, row)),
            };
            all_home &= mine[k] == self.home(k, row) && goal == self.home(k, row);
            moves[k] = best_step(view, mine[k], goal);
        }
        let done = (all_home && (line_done || self.style == Style::Annealing)) || rounds_left == 0;
        if done {
            self.finish_line(row);
        } else {
            self.stage = Stage::Enclosing {
                row,
                rounds_left: rounds_left - 1,
            };
        }
        moves
    }

    /// Royal: the nearest free member repaints each damaged cell it can reach within the
    /// spacing; a repair that runs out of time is given up.
    fn plan_repairs(&mut self, view: &View, mine: &[Cell], row: usize) {
        for cell in self.damaged(view, row) {
            // Each damaged cell is tried once per line: a cell an enemy keeps repainting is
            // left, rather than held up by.
            if self.repaired.contains(&cell) {
                continue;
            }
            let nearest = (0..self.robots)
                .filter(|&k| self.members[k] && self.repair[k].is_none())
                .min_by_key(|&k| mine[k].distance(cell));
            if let Some(k) = nearest {
                let d = mine[k].distance(cell);
                if d <= self.spacing / 2 {
                    self.repair[k] = Some((cell, d + 2));
                    self.repaired.push(cell);
                }
            }
        }
    }

    /// Repairs done, given up at their deadline, or of robots no longer in the cavalry end.
    fn tick_repairs(&mut self, view: &View) {
        for k in 0..self.robots {
            if let Some((cell, left)) = self.repair[k] {
                self.repair[k] = if view.own(cell) || left == 0 || !self.members[k] {
                    None
                } else {
                    Some((cell, left - 1))
                };
            }
        }
    }

    fn finish_line(&mut self, row: usize) {
        self.repaired.clear();
        if row + 1 < self.n {
            self.start_row = row;
            self.stage = Stage::Advancing { target: None };
            return;
        }
        // A full scan is done.
        match self.style {
            Style::Royal => self.stage = Stage::Rectmania,
            Style::Annealing => {
                self.orientation = self.orientation.reversed();
                self.spread(self.spacing - 1);
                self.start_row = 0;
                self.stage = Stage::Forming;
            }
        }
    }

    /// A chased robot: the annealing cavalry stops it; the royal one moves it at random, over
    /// enemy cells where it can (anti-chaser), so its chaser gains nothing by following.
    fn evade(&mut self, observation: &Observation, k: usize) -> Direction {
        if self.style == Style::Annealing {
            return Direction::Stay;
        }
        let at = observation.robots[self.you][k];
        let own = 1 + self.you as u8;
        let enemy_cell = |c: Cell| {
            let p = observation.cells[c.row as usize * self.n + c.col as usize];
            p != own && p != FILLED && p != 0
        };
        let choices: Vec<Direction> = [
            Direction::North,
            Direction::South,
            Direction::East,
            Direction::West,
        ]
        .into_iter()
        .filter(|&d| at.stepped(d, self.n) != at && enemy_cell(at.stepped(d, self.n)))
        .collect();
        if choices.is_empty() {
            Direction::ALL[self.rng.random_range(0..4)]
        } else {
            choices[self.rng.random_range(0..choices.len())]
        }
    }

    /// The end game, on the board as it is (no orientation needed).
    fn rectmania(&mut self, observation: &Observation) -> Vec<Direction> {
        let view = View {
            n: self.n,
            you: self.you,
            obs: observation,
            orientation: Orientation::default(),
        };
        let filled: Vec<bool> = observation.cells.iter().map(|&p| p == FILLED).collect();
        let still_open = |t: &Rect| {
            t.boundary().all(|c| !view.filled(c)) && t.interior().any(|c| !view.filled(c))
        };
        if !self.target.is_some_and(|t| still_open(&t)) {
            let mine = view.mine();
            self.target = search(self.n, &filled, 24).into_iter().max_by_key(|t| {
                let missing = t.boundary().filter(|&c| !view.own(c)).count();
                let reach = mine
                    .iter()
                    .map(|r| {
                        r.distance(Cell {
                            row: t.top,
                            col: t.left,
                        })
                    })
                    .min()
                    .unwrap_or(0);
                // Profit per cost: interior cells per cell still to paint and step to get there.
                (t.interior_len() * 1000) / (missing + reach / 2 + 1)
            });
        }
        let mine = view.mine();
        let workers: Vec<usize> = (0..self.robots)
            .filter(|&k| self.chased[k] < CHASED_AFTER)
            .collect();
        let mut moves: Vec<Direction> = (0..self.robots)
            .map(|k| self.evade(observation, k))
            .collect();
        if let Some(t) = self.target {
            let todo: Vec<Cell> = t.boundary().filter(|&c| !view.own(c)).collect();
            let at: Vec<Cell> = workers.iter().map(|&k| mine[k]).collect();
            let routes = assign(&at, &todo);
            for (i, &k) in workers.iter().enumerate() {
                if let Some(&next) = routes[i].first() {
                    moves[k] = best_step(&view, mine[k], next);
                }
            }
        }
        moves
    }
}

/// The ring of at most `robots` boundary cells with the largest interior that fits on an n x n
/// board, at the top left corner.
fn ring_for(robots: usize, n: usize) -> Rect {
    let mut best = Rect::new(0, 0, 0, 0);
    // A ring of h x w has 2(h + w) - 4 boundary cells: neither side exceeds robots / 2.
    let side = n.min(robots / 2);
    for h in 3..=side {
        for w in 3..=side {
            let ring = Rect::new(0, 0, h - 1, w - 1);
            if 2 * (h + w) - 4 <= robots && ring.interior_len() > best.interior_len() {
                best = ring;
            }
        }
    }
    best
}

/// The orientation a player's cavalry starts in. The annealing cavalry takes the seat's own
/// (players sweep from different edges); the royal one always starts on the south edge and
/// sweeps north, the mirror image taken by seat, so that it meets the 2002 Army's column sweep
/// (north to south) head on only once that sweep has passed its own lines.
fn start_orientation(style: Style, you: usize) -> usize {
    match style {
        Style::Annealing => you % 8,
        Style::Royal => 1 | (you % 2) << 1 | (you / 2 % 2) << 2,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_observation_of_another_game_is_recognised() {
        use agon_sdk::protocol::rectangles::Observation;
        let cavalry = Cavalry::new(Style::Royal, 6, 2, 1, 1);
        let mut obs = Observation {
            you: 1,
            round: 3,
            cells: vec![0; 36],
            robots: vec![vec![Cell::new(0, 0); 2], vec![Cell::new(5, 5); 2]],
            scores: vec![0, 0],
            last_moves: Vec::new(),
            idle: 0,
            out: vec![false, false],
        };
        assert!(cavalry.fits(&obs));
        obs.robots[1].pop();
        assert!(!cavalry.fits(&obs));
        obs.robots.truncate(1);
        assert!(!cavalry.fits(&obs));
        obs.robots = vec![vec![Cell::new(0, 0); 2], vec![Cell::new(6, 0); 2]];
        assert!(!cavalry.fits(&obs));
        obs.robots[1] = vec![Cell::new(0, 0); 2];
        obs.cells.pop();
        assert!(!cavalry.fits(&obs));
    }

    #[test]
    fn the_opening_ring_is_the_largest_the_robots_can_stand_on() {
        let ring = ring_for(8, 40);
        assert_eq!((ring.bottom, ring.right, ring.interior_len()), (2, 2, 1));
        let ring = ring_for(16, 80);
        assert_eq!(ring.interior_len(), 9);
        assert_eq!(ring_for(7, 40).interior_len(), 0);
        let royal = Cavalry::new(Style::Royal, 40, 8, 0, 1);
        let placed = royal.placement();
        assert_eq!(placed.len(), 8);
        let mut unique = placed.clone();
        unique.sort_unstable();
        unique.dedup();
        assert_eq!(unique.len(), 8);
    }
}
