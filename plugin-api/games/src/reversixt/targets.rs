//! Where a player may build (rules file, "Phase 1"), found from the player's own stones.
//!
//! A capture line runs from the target over one or more other players' stones or expansion
//! stones to one of the mover's own. When every step can be walked back
//! ([`Topology::reversible`]), the same lines are found by walking out from each of the mover's
//! stones over others' stones: the free square where such a walk ends is an ordinary target,
//! and with an override stone in hand so is every stone it passes after the first, and an own
//! stone it ends on. A mover holds a fraction of the board and most walks end after one step,
//! so this visits far fewer squares than trying every square in every direction.
//!
//! A walk that went through a transition may come back over its own squares, and the rules'
//! walk breaks when it returns to its target; a target found on such a walk is confirmed by
//! walking its line forward as the rules do.

use super::square_set::{bits, SquareSet};
use super::topology::{unpack, Topology, BEHIND, NOSTEP, THROUGH};
use super::Square;

/// The building targets of one player on a board whose steps can be walked back.
pub(crate) struct TargetSearch<'a> {
    squares: &'a [Square],
    steps: &'a [u32],
    topology: &'a Topology,
    player: u8,
    may_override: bool,
    /// The rules' bound on a walk's length (a walk cannot take more steps than there are
    /// square and direction pairs).
    limit: usize,
}

impl<'a> TargetSearch<'a> {
    /// The search for `player`'s targets on `squares` (the board `topology` was built for, with
    /// every step reversible), override moves included when `may_override`.
    pub(crate) fn new(
        squares: &'a [Square],
        topology: &'a Topology,
        player: u8,
        may_override: bool,
    ) -> TargetSearch<'a> {
        TargetSearch {
            squares,
            steps: topology.steps(),
            topology,
            player,
            may_override,
            limit: squares.len() * 8,
        }
    }

    /// Adds every target to `targets`; with `first_only` it stops at the first one found.
    /// Says whether it found any.
    pub(crate) fn run(&self, targets: &mut SquareSet, first_only: bool) -> bool {
        let mut found = false;
        for (c, chunk) in self.squares.chunks(64).enumerate() {
            // Stones and expansion stones, found without a branch per square: most squares are
            // neither.
            let mut occupied = 0u64;
            for (i, content) in chunk.iter().enumerate() {
                let hit = matches!(content, Square::Stone(_) | Square::Expansion);
                occupied |= u64::from(hit) << i;
            }
            let mut own = 0u64;
            for i in bits(occupied) {
                match chunk[i] {
                    Square::Stone(q) => own |= u64::from(q == self.player) << i,
                    // Taking an expansion stone needs an override stone and nothing else
                    // (rules file, "Phase 1").
                    _ if self.may_override => {
                        targets.insert(c * 64 + i);
                        if first_only {
                            return true;
                        }
                        found = true;
                    }
                    _ => {}
                }
            }
            for i in bits(own) {
                found |= self.walks_from(c * 64 + i, targets, first_only);
                if found && first_only {
                    return true;
                }
            }
        }
        found
    }

    /// Walks out from the mover's stone `own` in every direction whose first square holds
    /// another player's stone or an expansion stone (or is a hole a transition leads past).
    fn walks_from(&self, own: usize, targets: &mut SquareSet, first_only: bool) -> bool {
        let mut dirs = 0u8;
        for (dir, &entry) in self.steps[own * 8..own * 8 + 8].iter().enumerate() {
            // A step off the board names `own` itself, which stops nothing here.
            let go = match self.squares[unpack(entry).0] {
                Square::Stone(q) => q != self.player,
                Square::Expansion => true,
                Square::Hole => entry & BEHIND != 0,
                _ => false,
            };
            dirs |= u8::from(go) << dir;
        }
        let mut found = false;
        for dir in bits(u64::from(dirs)) {
            found |= self.walk_out(own, dir as u8, targets);
            if found && first_only {
                return true;
            }
        }
        found
    }

    /// Walks from the mover's stone `own` in direction `dir` over others' stones and adds the
    /// targets whose lines end at `own` this way; says whether it added any.
    pub(crate) fn walk_out(&self, own: usize, dir: u8, targets: &mut SquareSet) -> bool {
        let (mut at, mut heading) = (own, dir);
        let mut passed = 0;
        let mut crossed = false;
        let mut found = false;
        for _ in 0..=self.limit {
            let mut entry = self.steps[at * 8 + heading as usize];
            if entry & NOSTEP != 0 {
                return found;
            }
            let (mut next, mut on) = unpack(entry);
            let mut content = self.squares[next];
            if content == Square::Hole && entry & BEHIND != 0 {
                // The neighbour is a hole: the transition that starts here is taken.
                let Some(link) = self.topology.link(at, heading) else {
                    return found;
                };
                entry = link | THROUGH;
                (next, on) = unpack(entry);
                content = self.squares[next];
            }
            crossed |= entry & THROUGH != 0;
            match content {
                Square::Stone(q) if q == self.player => {
                    let target = passed > 0 && self.may_override && next != own;
                    return found | (target && self.offer(next, on, crossed, targets));
                }
                Square::Stone(_) | Square::Expansion => {
                    passed += 1;
                    if passed > 1 && self.may_override {
                        found |= self.offer(next, on, crossed, targets);
                    }
                }
                Square::Empty | Square::Choice | Square::Inversion | Square::Bonus => {
                    return found | (passed > 0 && self.offer(next, on, crossed, targets));
                }
                Square::Hole => return found,
            }
            at = next;
            heading = on;
        }
        found
    }

    /// Adds `target`, reached heading `on`, unless the walk there went through a transition and
    /// the rules' walk from it (against `on`) turns nothing; says whether it is a target.
    fn offer(&self, target: usize, on: u8, crossed: bool, targets: &mut SquareSet) -> bool {
        if targets.contains(target) {
            return true;
        }
        if crossed && !self.line_turns(target, (on + 4) % 8) {
            return false;
        }
        targets.insert(target);
        true
    }

    /// The rules' walk (rules file, "Phase 1"): from `target` in direction `dir`, one or more
    /// others' stones and then one of the mover's; it breaks at a free square, a hole or edge
    /// without transition, and on returning to the target.
    fn line_turns(&self, target: usize, dir: u8) -> bool {
        let (mut at, mut heading) = (target, dir);
        let mut any = false;
        for _ in 0..=self.limit {
            let Some((next, on)) = self.topology.step(self.squares, at, heading) else {
                return false;
            };
            if next == target {
                return false;
            }
            match self.squares[next] {
                Square::Stone(q) if q == self.player => return any,
                Square::Stone(_) | Square::Expansion => any = true,
                _ => return false,
            }
            at = next;
            heading = on;
        }
        false
    }
}
