//! `java.util.Random`, bit for bit (rules file, "Initial placement"): the 48-bit LCG, so that
//! the course's boards can be reproduced.

const MULTIPLIER: u64 = 0x5_DEEC_E66D;
const ADDEND: u64 = 0xB;
const MASK: u64 = (1 << 48) - 1;

/// `java.util.Random`'s generator: a 48-bit state advanced as in the rules file ("Initial
/// placement"), giving the same numbers as Java for the same seed.
#[derive(Debug, Clone)]
pub struct JavaRandom {
    seed: u64,
}

impl JavaRandom {
    /// `new Random(seed)`: the seed is scrambled with the multiplier.
    pub fn new(seed: i64) -> JavaRandom {
        JavaRandom {
            seed: (seed as u64 ^ MULTIPLIER) & MASK,
        }
    }

    /// `next(bits)`: the top `bits` of the new state, as a signed 32-bit int.
    pub fn next(&mut self, bits: u32) -> i32 {
        self.seed = self.seed.wrapping_mul(MULTIPLIER).wrapping_add(ADDEND) & MASK;
        (self.seed >> (48 - bits)) as i64 as i32
    }

    /// `nextDouble()`: 53 random bits in [0, 1).
    pub fn next_double(&mut self) -> f64 {
        let high = self.next(26) as i64;
        let low = self.next(27) as i64;
        ((high << 27) + low) as f64 * (1.0 / (1u64 << 53) as f64)
    }
}
