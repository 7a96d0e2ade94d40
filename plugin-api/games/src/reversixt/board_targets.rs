//! Where a player may build (rules file, "Phase 1"), for a board of up to a few thousand
//! squares, with sets of squares as bits.
//!
//! The walker of `targets` walks out from each of the mover's stones in each direction. Here
//! the board is first read once into sets (the mover's stones, and what a line passes over:
//! others' stones and expansion stones), which say with a few bit tests in which directions a
//! stone's walk passes anything at all. Only those walks are taken, all of them together a
//! step at a time so that a step costs no branch on the board; a walk that reaches a step that
//! is no ordinary one (off the board, or a transition) is handed to the walker, and so are
//! the walks from stones at a transition's end.

use super::square_set::{bits, SquareSet, INLINE_WORDS};
use super::targets::TargetSearch;
use super::topology::Topology;
use super::Square;
use crate::set_bit_positions::SET_BIT_POSITIONS;

/// Squares as bits (see `square_set`) of a board of up to `64 * INLINE_WORDS` squares.
type Bits = [u64; INLINE_WORDS];

/// Whether `square` is in `set`, as 0 or 1. The word index is masked into range (a square of
/// the board is never changed by it), which spares a bound check.
#[inline]
fn bit(set: &Bits, square: usize) -> u64 {
    (set[(square / 64) % INLINE_WORDS] >> (square % 64)) & 1
}

/// How many walks go on together (see [`BoardTargets::walk_on`]).
const FRONT: usize = 64;

/// A walk out from one of the mover's stones: the other's stone it stands on and its
/// direction, packed as `square << 3 | direction` (a plain number, so that arrays of them
/// start as zeroed memory).
#[derive(Debug, Clone, Copy, Default)]
struct Walk(u32);

impl Walk {
    fn new(at: usize, dir: u8) -> Walk {
        Walk(((at as u32) << 3) | u32::from(dir))
    }

    fn at(self) -> usize {
        (self.0 >> 3) as usize
    }

    fn dir(self) -> usize {
        (self.0 & 7) as usize
    }
}

/// The board as the mover sees it.
struct Sides {
    own: Bits,
    /// Other players' stones and expansion stones: what a line passes over.
    others: Bits,
}

/// The building targets of one player on a board whose steps can be walked back.
pub(crate) struct BoardTargets<'a> {
    squares: &'a [Square],
    topology: &'a Topology,
    player: u8,
    may_override: bool,
    /// Per direction: how a square's index changes with an ordinary step, and the squares
    /// whose step that way is an ordinary one whatever the board holds.
    steps: [(isize, &'a Bits); 8],
}

impl<'a> BoardTargets<'a> {
    /// The search for `player`'s targets on `squares` (the board `topology` was built for, with
    /// every step reversible), override moves included when `may_override`; `None` for a board
    /// of more than `64 * INLINE_WORDS` squares.
    pub(crate) fn new(
        squares: &'a [Square],
        topology: &'a Topology,
        player: u8,
        may_override: bool,
    ) -> Option<BoardTargets<'a>> {
        let mut steps = [(0, &[0; INLINE_WORDS]); 8];
        for (dir, step) in steps.iter_mut().enumerate() {
            let (by, plain) = topology.plain_step(dir as u8);
            *step = (by, plain.try_into().ok()?);
        }
        (squares.len() <= 64 * INLINE_WORDS).then_some(BoardTargets {
            squares,
            topology,
            player,
            may_override,
            steps,
        })
    }

    /// Adds every target to `targets` (a set of this board).
    pub(crate) fn run(&self, targets: &mut SquareSet) {
        let sides = self.sides(targets);
        let walker = TargetSearch::new(self.squares, self.topology, self.player, self.may_override);
        // Room for eight more than a batch: a stone's walks are written all eight at once.
        let mut front = [Walk::default(); FRONT + 8];
        let mut walks = 0;
        for from in (0..INLINE_WORDS).flat_map(|w| bits(sides.own[w]).map(move |b| 64 * w + b)) {
            let dirs = self.first_steps(from, &sides);
            for (slot, &dir) in front[walks..walks + 8]
                .iter_mut()
                .zip(&SET_BIT_POSITIONS[dirs])
            {
                *slot = Walk::new(from.wrapping_add_signed(self.steps[dir as usize].0), dir);
            }
            walks += dirs.count_ones() as usize;
            if walks >= FRONT {
                self.walk_on(&mut front[..walks], &sides, &walker, targets);
                walks = 0;
            }
        }
        self.walk_on(&mut front[..walks], &sides, &walker, targets);
        // A first step that is no ordinary one: the walker takes the whole walk.
        for (end, dir) in self.topology.link_ends() {
            if bit(&sides.own, end) == 1 {
                walker.walk_out(end, dir, targets);
            }
        }
    }

    /// The directions (as bits) in which the mover's stone `from` has another's stone as its
    /// ordinary neighbour, where its walks start; found without a branch on the board.
    fn first_steps(&self, from: usize, sides: &Sides) -> usize {
        let mut dirs = 0;
        for (dir, &(by, plain)) in self.steps.iter().enumerate() {
            // Off the board the index change means nothing: look at `from`, an own stone.
            let next = if bit(plain, from) == 1 {
                from.wrapping_add_signed(by)
            } else {
                from
            };
            dirs |= bit(&sides.others, next) << dir;
        }
        dirs as usize
    }

    /// Goes on with the walks of `front`, each standing on another's stone, all together a step
    /// at a time, as the walker's walks but on the sets: a step costs no branch on the board
    /// (a walk that stops is dropped from the front). The walker takes over the few walks whose
    /// next step is no ordinary one, from the mover's stone they started at.
    fn walk_on(
        &self,
        front: &mut [Walk],
        sides: &Sides,
        walker: &TargetSearch,
        targets: &mut SquareSet,
    ) {
        let may_override = u64::from(self.may_override);
        let mut handed_over = [Walk::default(); FRONT + 8];
        let mut hand_overs = 0;
        let words = targets.words_mut();
        let mut walks = front.len();
        while walks > 0 {
            let mut kept = 0;
            for i in 0..walks {
                let walk = front[i];
                let at = walk.at();
                let (by, plain) = self.steps[walk.dir()];
                if bit(plain, at) == 0 {
                    handed_over[hand_overs] = walk;
                    hand_overs += 1;
                    continue;
                }
                let next = at.wrapping_add_signed(by);
                let over = bit(&sides.others, next);
                let mine = bit(&sides.own, next);
                let free = u64::from(is_free(self.squares[next]));
                // Past the first, another's stone is a target for an override stone; where the
                // line ends, a free square is a target, and one of the mover's stones with an
                // override stone in hand.
                let target = ((over | mine) & may_override) | (!(over | mine) & free & 1);
                words[next / 64] |= target << (next % 64);
                front[kept] = Walk::new(next, walk.dir() as u8);
                kept += over as usize;
            }
            walks = kept;
        }
        for walk in &handed_over[..hand_overs] {
            let by = self.steps[walk.dir()].0;
            let mut from = walk.at();
            while bit(&sides.own, from) == 0 {
                from = from.wrapping_add_signed(-by);
            }
            walker.walk_out(from, walk.dir() as u8, targets);
        }
    }

    /// The mover's stones and what a line passes over; adds the expansion stones to `targets`
    /// when the mover has an override stone (taking one needs nothing else, rules file
    /// "Phase 1").
    fn sides(&self, targets: &mut SquareSet) -> Sides {
        let mut sides = Sides {
            own: [0; INLINE_WORDS],
            others: [0; INLINE_WORDS],
        };
        for (c, chunk) in self.squares.chunks(64).enumerate() {
            let (mut own, mut expansions) = (0u64, 0u64);
            let occupied = occupied(chunk);
            for i in bits(occupied) {
                match chunk[i] {
                    Square::Stone(q) => own |= u64::from(q == self.player) << i,
                    _ => expansions |= 1 << i,
                }
            }
            sides.own[c % INLINE_WORDS] = own;
            sides.others[c % INLINE_WORDS] = occupied & !own;
            if self.may_override {
                targets.words_mut()[c] |= expansions;
            }
        }
        sides
    }
}

/// A free square: it takes a stone by an ordinary move and ends a capture line (rules file,
/// "Squares").
fn is_free(content: Square) -> bool {
    // Every kind named: the compiler reads the answer from a table rather than branching.
    match content {
        Square::Empty | Square::Choice | Square::Inversion | Square::Bonus => true,
        Square::Stone(_) | Square::Expansion | Square::Hole => false,
    }
}

/// Which of up to 64 squares hold stones or expansion stones, as bits (bit `i` for square
/// `i`). Without a branch: a flag per square, eight flags gathered into bits by one
/// multiplication.
fn occupied(chunk: &[Square]) -> u64 {
    let mut flags = [0u8; 64];
    for (flag, content) in flags.iter_mut().zip(chunk) {
        *flag = u8::from(matches!(content, Square::Stone(_) | Square::Expansion));
    }
    // Byte j of a word of flags is 0 or 1; the product gathers the eight into its top byte.
    const GATHER: u64 = 0x0102_0408_1020_4080;
    let mut occupied = 0u64;
    for (k, eight) in flags.chunks_exact(8).enumerate() {
        let word = u64::from_le_bytes(eight.try_into().expect("chunks of eight"));
        occupied |= (word.wrapping_mul(GATHER) >> 56) << (8 * k);
    }
    occupied
}
