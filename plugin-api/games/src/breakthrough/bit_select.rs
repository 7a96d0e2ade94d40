//! Counting and selecting set bits of a bitboard without branches. A random playout picks the
//! `n`th of a few dozen moves every ply; a loop clearing `n` bits ends at an unpredictable count
//! (a mispredicted branch per ply), and without the `popcnt` instruction (not in the baseline
//! x86-64 target) each `count_ones` is a dozen instructions that the running counts below share
//! between counting and selecting.

use crate::set_bit_positions::SET_BIT_POSITIONS;

const ONES: u64 = 0x0101_0101_0101_0101;
const HIGHS: u64 = 0x8080_8080_8080_8080;

/// Per byte of a bitboard, the number of set bits in that byte and every lower one.
#[derive(Debug, Clone, Copy)]
pub(super) struct RunningCounts(u64);

impl RunningCounts {
    #[inline]
    pub(super) fn of(bits: u64) -> RunningCounts {
        // Pairs added rather than the usual `bits - ((bits >> 1) & 0x55..)`: LLVM recognises
        // the usual form as a population count and computes `total` through a `ctpop` of its
        // own, apart from the running counts the selection needs (the same bits counted twice
        // per ply).
        let pairs = (bits & 0x5555_5555_5555_5555) + ((bits >> 1) & 0x5555_5555_5555_5555);
        let nibbles = (pairs & 0x3333_3333_3333_3333) + ((pairs >> 2) & 0x3333_3333_3333_3333);
        let bytes = (nibbles + (nibbles >> 4)) & 0x0f0f_0f0f_0f0f_0f0f;
        RunningCounts(bytes.wrapping_mul(ONES))
    }

    /// All set bits (the running count of the top byte).
    #[inline]
    pub(super) fn total(self) -> u32 {
        (self.0 >> 56) as u32
    }
}

/// The index of the `n`th lowest set bit of `bits` (from 0), given its running counts; `n` must
/// be below the number of set bits (otherwise the answer is some index, not a panic).
#[inline]
pub(super) fn nth_set_bit(bits: u64, counts: RunningCounts, n: u32) -> u32 {
    let n = n & 63;
    // A byte's high bit survives the subtraction where its running count is at most `n`: those
    // bytes lie wholly before the wanted bit (running counts never exceed 64, so no byte
    // borrows from its neighbour). They are the lowest bytes, so the wanted bit's byte is the
    // first whose high bit is gone.
    let before = ((n as u64 * ONES) | HIGHS).wrapping_sub(counts.0) & HIGHS;
    let shift = (!before & HIGHS).trailing_zeros().wrapping_sub(7) & 56;
    let skipped = (((counts.0 << 8) >> shift) & 0xff) as u32;
    let in_byte = ((bits >> shift) & 0xff) as usize;
    shift + SET_BIT_POSITIONS[in_byte][(n.wrapping_sub(skipped) & 7) as usize] as u32
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    fn by_clearing(bits: u64, n: u32) -> u32 {
        let mut rest = bits;
        for _ in 0..n {
            rest &= rest - 1;
        }
        rest.trailing_zeros()
    }

    #[test]
    fn counts_and_selection_agree_with_the_plain_loops() {
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        let edges = [u64::MAX, 1, 1 << 63, 0xff00_0000_0000_00ff, HIGHS, ONES];
        let random = (0..2000).map(|_| rng.random::<u64>() & rng.random::<u64>());
        for bits in edges.into_iter().chain(random) {
            let counts = RunningCounts::of(bits);
            assert_eq!(counts.total(), bits.count_ones(), "{bits:#x}");
            for n in 0..bits.count_ones() {
                assert_eq!(
                    nth_set_bit(bits, counts, n),
                    by_clearing(bits, n),
                    "{bits:#x}, n = {n}"
                );
            }
        }
        assert_eq!(RunningCounts::of(0).total(), 0);
    }
}
