//! A precomputed step table for the building phase.
//!
//! `Map::step_index` recomputes a step (bounds, hole test, and a hash lookup for transitions)
//! every time; a search walks the same steps millions of times. Holes and transitions change
//! only when a bomb falls (rules file, "Phase 2"), so during the whole building phase one table
//! built from the root position answers every step of every position below it.

use agon_games::reversixt::{Direction, Map};

/// "No step": off the board or into a hole with no transition (rules file, "Map file").
const NONE: u32 = u32::MAX;

/// For every square and direction, the square a walk reaches and the direction it goes on in.
#[derive(Debug, Clone)]
pub struct Topology {
    /// `next[index * 8 + dir]` = `(to << 3) | on`, or [`NONE`]. A map has at most
    /// 1000 x 1000 squares (rules file, "Map file"), so `to << 3` fits in a `u32`.
    next: Vec<u32>,
}

impl Topology {
    /// The step table of `map` as it is now; valid until a square becomes a hole.
    pub fn new(map: &Map) -> Topology {
        let mut next = vec![NONE; map.squares.len() * 8];
        for index in 0..map.squares.len() {
            if map.squares[index] == agon_games::reversixt::Square::Hole {
                continue;
            }
            for dir in Direction::ALL {
                if let Some((to, on)) = map.step_index(index, dir) {
                    next[index * 8 + dir.index() as usize] = ((to as u32) << 3) | on.index() as u32;
                }
            }
        }
        Topology { next }
    }

    /// One step of a walk from `index` in direction `dir` (0..8): the square reached and the
    /// direction to go on in, exactly as `Map::step_index` answers on the map this was built
    /// from.
    #[inline]
    pub fn step(&self, index: usize, dir: u8) -> Option<(usize, u8)> {
        let packed = self.next[index * 8 + dir as usize];
        (packed != NONE).then_some(((packed >> 3) as usize, (packed & 7) as u8))
    }
}
