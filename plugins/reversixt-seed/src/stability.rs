//! The report's stability (5.1.4): for every stone, the straight lines (of 4: vertical, the
//! two diagonals, horizontal) along which it can no longer be turned by a regular move.
//!
//! A line's axis is its direction mod 4 (directions 0..7 clockwise from up, rules file "Map
//! file"), so axis 0 is up/down, 1 up-right/down-left, 2 right/left, 3 down-right/up-left. A
//! walk that goes through a transition may change direction; at every square the axis is that
//! of the direction the walk has there.

use crate::moves::is_free;
use crate::topology::Topology;
use agon_games::reversixt::Square;

/// Scratch space reused between evaluations, so that one evaluation allocates nothing.
#[derive(Debug, Default, Clone)]
pub struct Stability {
    /// Per square, bit `a` set when the stone there is stable along axis `a`.
    pub masks: Vec<u8>,
    /// Per square, bit `a` set when the line through it along axis `a` has been walked.
    walked: Vec<u8>,
    line: Vec<(u32, u8)>,
    work: Vec<u32>,
}

impl Stability {
    /// Computes [`Stability::masks`] for every player's stones at once. Expansion stones belong
    /// to nobody and get no mask (they can always be turned).
    ///
    /// The report's steps (5.1.4), in an order that finds at least as much:
    /// 1. a stone with no step on one side of an axis (edge or hole, no transition) cannot be
    ///    enclosed along it;
    /// 2. (the report's step 4, done before propagating so that it propagates too) every stone
    ///    on a line that holds no free square is stable along it: no stone can be placed there;
    /// 3. a stone next to a stone of the same owner that is stable along the same line is
    ///    stable along it, repeated until nothing changes (steps 2 and 3).
    pub fn compute(&mut self, squares: &[Square], topo: &Topology) {
        let len = squares.len();
        self.masks.clear();
        self.masks.resize(len, 0);
        self.walked.clear();
        self.walked.resize(len, 0);

        for (x, mask) in self.masks.iter_mut().enumerate() {
            if !matches!(squares[x], Square::Stone(_)) {
                continue;
            }
            for a in 0..4u8 {
                if topo.step(x, a).is_none() || topo.step(x, a + 4).is_none() {
                    *mask |= 1 << a;
                }
            }
        }

        for x in 0..len {
            if !matches!(squares[x], Square::Stone(_) | Square::Expansion) {
                continue;
            }
            for a in 0..4u8 {
                if self.walked[x] & (1 << a) == 0 {
                    self.full_line(squares, topo, x, a);
                }
            }
        }

        // Step 3 as a work list: a stone is looked at again only when a neighbour gained a line.
        self.work.clear();
        self.work
            .extend((0..len as u32).filter(|&x| matches!(squares[x as usize], Square::Stone(_))));
        while let Some(x) = self.work.pop() {
            let x = x as usize;
            let Square::Stone(owner) = squares[x] else {
                continue;
            };
            let before = self.masks[x];
            for a in 0..4u8 {
                if self.masks[x] & (1 << a) != 0 {
                    continue;
                }
                for d in [a, a + 4] {
                    if let Some((y, on)) = topo.step(x, d) {
                        // The line through x continues at y in direction `on`: y must hold
                        // on along that line, whatever the transition made of its direction.
                        if squares[y] == Square::Stone(owner)
                            && self.masks[y] & (1 << (on % 4)) != 0
                        {
                            self.masks[x] |= 1 << a;
                            break;
                        }
                    }
                }
            }
            if self.masks[x] != before {
                for d in 0..8 {
                    if let Some((y, _)) = topo.step(x, d) {
                        if squares[y] == Square::Stone(owner) && self.masks[y] != 0b1111 {
                            self.work.push(y as u32);
                        }
                    }
                }
            }
        }
    }

    /// Walks the whole line through `x` along axis `a` (both ways, to an end or round a loop
    /// back to where it started), marks it walked, and marks its stones stable along it when it
    /// has no free square. A walk is only ever continued through its own states, so a stone met
    /// on it sees no more of the line than this walk did: marking them all is sound.
    fn full_line(&mut self, squares: &[Square], topo: &Topology, x: usize, a: u8) {
        self.line.clear();
        self.line.push((x as u32, a));
        // The rules code's own bound on a walk (position.rs, `line`); hitting it on a map with
        // one-way transitions just counts the line as open.
        let bound = squares.len() * 8;
        let mut closed = true;
        let mut looped = false;
        let (mut at, mut heading) = (x, a);
        for i in 0..=bound {
            match topo.step(at, heading) {
                None => break,
                Some((next, on)) if next == x && on == a => {
                    looped = true;
                    break;
                }
                Some((next, on)) => {
                    self.line.push((next as u32, on % 4));
                    (at, heading) = (next, on);
                }
            }
            if i == bound {
                closed = false;
            }
        }
        if !looped {
            let (mut at, mut heading) = (x, a + 4);
            for i in 0..=bound {
                match topo.step(at, heading) {
                    None => break,
                    Some((next, on)) if next == x && on == a + 4 => break,
                    Some((next, on)) => {
                        self.line.push((next as u32, on % 4));
                        (at, heading) = (next, on);
                    }
                }
                if i == bound {
                    closed = false;
                }
            }
        }
        let full = closed
            && self
                .line
                .iter()
                .all(|&(s, _)| !is_free(squares[s as usize]));
        for &(s, axis) in &self.line {
            let s = s as usize;
            self.walked[s] |= 1 << axis;
            if full && matches!(squares[s], Square::Stone(_)) {
                self.masks[s] |= 1 << axis;
            }
        }
    }

    /// The report's s for one player: the stable lines of its stones, summed (0..=4 each).
    pub fn total(&self, squares: &[Square], player: u8) -> u32 {
        squares
            .iter()
            .zip(&self.masks)
            .filter(|(&s, _)| s == Square::Stone(player))
            .map(|(_, m)| m.count_ones())
            .sum()
    }
}
