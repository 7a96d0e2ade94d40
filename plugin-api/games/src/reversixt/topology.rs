//! Where every step of a walk leads, computed once per map (rules file, "Map file").
//!
//! A walk takes millions of steps in a search. Working each one out (the bounds, the hole test,
//! a hash lookup for transitions) was most of the rules' time; here a step is one table entry:
//! the ordinary neighbour, or where the transition leads when the step leaves the board. The
//! table ignores holes, so it stays exact however squares change: a neighbour that is a hole
//! sends the walk through the transition starting there, if there is one, looked up in a short
//! sorted list. Only a bomb removes transitions (see [`Topology::remove_links_of`]).

use super::square_set::INLINE_WORDS;
use super::{Direction, Square};
use std::collections::HashMap;

/// Entry flag: no square that way (off the board, no transition). The entry names the square
/// itself, so that reading the square an entry names never leaves the board.
pub(crate) const NOSTEP: u32 = 1 << 31;
/// Entry flag: the step leaves the board and the entry is the transition's far end.
pub(crate) const THROUGH: u32 = 1 << 30;
/// Entry flag: the entry is the ordinary neighbour and a transition starts here in this
/// direction, taken when the neighbour is a hole.
pub(crate) const BEHIND: u32 = 1 << 29;
/// The bits of an entry that name where it leads: `square << 3 | direction to go on in`. A map
/// has at most 1000 x 1000 squares (rules file), so the square fits in 20 bits.
const TARGET: u32 = BEHIND - 1;

/// A square and the direction a walk goes on in, packed as `square << 3 | direction`.
pub(crate) fn pack(square: usize, dir: Direction) -> u32 {
    ((square as u32) << 3) | u32::from(dir.index())
}

/// The square and direction of an entry (flags ignored).
#[inline]
pub(crate) fn unpack(entry: u32) -> (usize, u8) {
    (((entry & TARGET) >> 3) as usize, (entry & 7) as u8)
}

/// The step table of a map and its transitions (the default: of a board of no squares).
#[derive(Clone, Default, PartialEq, Eq)]
pub(crate) struct Topology {
    width: usize,
    height: usize,
    /// `steps[square * 8 + direction]`: an entry as the constants above describe.
    steps: Vec<u32>,
    /// Each transition end, `square * 8 + direction`, with the packed square and direction a
    /// walk leaving it goes on from; sorted by end.
    links: Vec<(u32, u32)>,
    /// Per direction, how a square's index changes with an ordinary step.
    deltas: [isize; 8],
    /// Per direction, as bits of square indices (see `square_set`), the squares whose step
    /// that way is an ordinary one whatever the board holds: it stays on the board (the index
    /// change alone would wrap the last column to the first) and starts no transition. At
    /// least `INLINE_WORDS` words, the rest zero.
    plain: [Vec<u64>; 8],
    /// The ordinary neighbours, on the board, of transition ends that way: while each is a hole
    /// every step can be walked back (see [`Topology::reversible`]).
    behind: Vec<u32>,
}

impl std::fmt::Debug for Topology {
    /// The transitions only: the step table follows from them and the board's size.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let ends = self.links.iter().map(|&(end, to)| {
            let (to, on) = unpack(to);
            ((end >> 3, end & 7), (to, on))
        });
        f.debug_map().entries(ends).finish()
    }
}

impl Topology {
    /// The table of a `width` x `height` board whose transition ends are `links`: (square,
    /// direction out) -> (square entered, direction to go on in).
    pub(crate) fn new(
        width: usize,
        height: usize,
        links: &HashMap<(usize, Direction), (usize, Direction)>,
    ) -> Topology {
        let mut steps = vec![0; width * height * 8];
        for y in 0..height {
            for x in 0..width {
                let square = y * width + x;
                for dir in Direction::ALL {
                    let (dx, dy) = dir.offset();
                    let (nx, ny) = (x as i64 + dx, y as i64 + dy);
                    let on_board = nx >= 0 && ny >= 0 && nx < width as i64 && ny < height as i64;
                    let link = links.get(&(square, dir));
                    steps[square * 8 + dir.index() as usize] = match (on_board, link) {
                        (true, None) => pack(ny as usize * width + nx as usize, dir),
                        (true, Some(_)) => pack(ny as usize * width + nx as usize, dir) | BEHIND,
                        (false, Some(&(to, on))) => pack(to, on) | THROUGH,
                        (false, None) => pack(square, dir) | NOSTEP,
                    };
                }
            }
        }
        let mut links: Vec<(u32, u32)> = links
            .iter()
            .map(|(&(square, dir), &(to, on))| (pack(square, dir), pack(to, on)))
            .collect();
        links.sort_unstable();
        let deltas = Direction::ALL.map(|dir| {
            let (dx, dy) = dir.offset();
            (dy * width as i64 + dx) as isize
        });
        let plain = Direction::ALL.map(|dir| {
            // At least a small board's worth of words, as `board_targets` reads them.
            let mut words = vec![0u64; (width * height).div_ceil(64).max(INLINE_WORDS)];
            for square in 0..width * height {
                let entry = steps[square * 8 + dir.index() as usize];
                if entry & (NOSTEP | THROUGH | BEHIND) == 0 {
                    words[square / 64] |= 1 << (square % 64);
                }
            }
            words
        });
        let mut topology = Topology {
            width,
            height,
            steps,
            links,
            deltas,
            plain,
            behind: Vec::new(),
        };
        topology.list_behind();
        topology
    }

    fn list_behind(&mut self) {
        let steps = &self.steps;
        self.behind = self
            .links
            .iter()
            .map(|&(end, _)| steps[end as usize])
            .filter(|&entry| entry & BEHIND != 0)
            .map(|entry| unpack(entry).0 as u32)
            .collect();
    }

    /// Whether this is the table of a `width` x `height` board of `squares` squares (a map's
    /// public fields can be changed after it was read).
    pub(crate) fn fits(&self, width: usize, height: usize, squares: usize) -> bool {
        self.width == width && self.height == height && squares == width * height
    }

    /// The raw entries, `square * 8 + direction`.
    #[inline]
    pub(crate) fn steps(&self) -> &[u32] {
        &self.steps
    }

    /// How an ordinary step in `dir` changes a square's index, and the squares (as bits) whose
    /// step that way is an ordinary one whatever the board holds.
    #[inline]
    pub(crate) fn plain_step(&self, dir: u8) -> (isize, &[u64]) {
        (self.deltas[dir as usize], &self.plain[dir as usize])
    }

    /// Every transition end: its square and the direction out of it.
    pub(crate) fn link_ends(&self) -> impl Iterator<Item = (usize, u8)> + '_ {
        self.links.iter().map(|&(end, _)| unpack(end))
    }

    /// Where the transition that starts at `square` in `dir` leads, packed (`None` also for a
    /// square off this table).
    #[inline]
    pub(crate) fn link(&self, square: usize, dir: u8) -> Option<u32> {
        if square >= self.width * self.height {
            return None;
        }
        let end = (square * 8 + dir as usize) as u32;
        let i = self.links.binary_search_by_key(&end, |&(e, _)| e).ok()?;
        Some(self.links[i].1)
    }

    /// One step from `square` (on the board) in `dir` over `squares`: the ordinary neighbour
    /// unless it is off the board or a hole, else through the transition starting there.
    #[inline]
    pub(crate) fn step(&self, squares: &[Square], square: usize, dir: u8) -> Option<(usize, u8)> {
        let end = square * 8 + dir as usize;
        let entry = self.steps[end];
        if entry & NOSTEP != 0 {
            return None;
        }
        let (next, on) = unpack(entry);
        if entry & THROUGH != 0 || squares[next] != Square::Hole {
            return Some((next, on));
        }
        if entry & BEHIND == 0 {
            return None;
        }
        self.link(square, dir).map(unpack)
    }

    /// Whether every step can be walked back: stepping from where a step arrives, against the
    /// direction it arrives in, returns to where it started. Ordinary steps between squares can;
    /// a transition can unless its far end's ordinary neighbour that way is on the board and no
    /// hole (an end read leniently, facing the board), because then the way back is the
    /// ordinary step.
    pub(crate) fn reversible(&self, squares: &[Square]) -> bool {
        self.behind
            .iter()
            .all(|&square| squares[square as usize] == Square::Hole)
    }

    /// Removes every transition with an end on a square of `holed` (a bomb's blast, rules file
    /// "Phase 2"), both ends of each.
    pub(crate) fn remove_links_of(&mut self, holed: &[bool]) {
        let holed = |square: usize| holed.get(square).copied().unwrap_or(false);
        let mut ends = Vec::new();
        self.links.retain(|&(end, to)| {
            let keep = !holed((end >> 3) as usize) && !holed(unpack(to).0);
            if !keep {
                ends.push(end as usize);
            }
            keep
        });
        for end in ends {
            let entry = &mut self.steps[end];
            if *entry & THROUGH != 0 {
                // An entry's square and direction, packed, are its own index.
                *entry = end as u32 | NOSTEP;
            } else {
                // Now an ordinary step whatever the board holds.
                *entry &= !BEHIND;
                let square = end / 8;
                self.plain[end % 8][square / 64] |= 1 << (square % 64);
            }
        }
        self.list_behind();
    }

    /// Whether a transition has an end on `square`.
    pub(crate) fn has_link_at(&self, square: usize) -> bool {
        self.steps
            .get(square * 8..square * 8 + 8)
            .is_some_and(|entries| {
                entries
                    .iter()
                    .any(|&e| e & (THROUGH | BEHIND) != 0 && e & NOSTEP == 0)
            })
    }
}
