/// A fixed-length bit vector over GF(2), 64 bits a word.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Bits {
    len: usize,
    words: Vec<u64>,
}

impl Bits {
    /// `len` bits, all zero.
    pub fn zeros(len: usize) -> Bits {
        Bits {
            len,
            words: vec![0; len.div_ceil(64)],
        }
    }

    /// The words, bit `i` in word `i / 64` (bits past the length are zero).
    pub fn words(&self) -> &[u64] {
        &self.words
    }

    /// The number of bits.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the vector has no bits at all (not whether they are all zero: see
    /// [`Bits::is_zero`]).
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Bit `i`; `i` must be below [`Bits::len`] (not checked: past the last word it panics).
    pub fn get(&self, i: usize) -> bool {
        self.words[i / 64] >> (i % 64) & 1 == 1
    }

    /// Sets bit `i` to `value`; `i` must be below [`Bits::len`] (not checked: a bit past the
    /// length but in the last word is set all the same, past the last word it panics).
    pub fn set(&mut self, i: usize, value: bool) {
        let mask = 1u64 << (i % 64);
        if value {
            self.words[i / 64] |= mask;
        } else {
            self.words[i / 64] &= !mask;
        }
    }

    /// Toggles bit `i`; `i` must be below [`Bits::len`], as for [`Bits::set`].
    pub fn flip(&mut self, i: usize) {
        self.words[i / 64] ^= 1u64 << (i % 64);
    }

    /// Adds `other` over GF(2) (bitwise XOR); both should have the same length (only the
    /// words both have are combined).
    pub fn xor_with(&mut self, other: &Bits) {
        for (a, b) in self.words.iter_mut().zip(&other.words) {
            *a ^= b;
        }
    }

    /// The number of set bits.
    pub fn count_ones(&self) -> usize {
        self.words.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// Whether no bit is set.
    pub fn is_zero(&self) -> bool {
        self.words.iter().all(|&w| w == 0)
    }

    /// Indices of the set bits, ascending.
    pub fn ones(&self) -> impl Iterator<Item = usize> + '_ {
        self.words.iter().enumerate().flat_map(|(i, &w)| {
            let mut w = w;
            std::iter::from_fn(move || {
                if w == 0 {
                    return None;
                }
                let bit = w.trailing_zeros() as usize;
                w &= w - 1;
                Some(i * 64 + bit)
            })
        })
    }

    /// The parity of the bits both vectors have set.
    pub fn dot(&self, other: &Bits) -> bool {
        self.words
            .iter()
            .zip(&other.words)
            .fold(0u32, |acc, (a, b)| acc ^ (a & b).count_ones())
            & 1
            == 1
    }

    /// `x ^ (x << 1) ^ (x >> 1)` within the length: a click row's effect on its own row.
    pub fn spread(&self) -> Bits {
        let mut out = self.clone();
        let n = self.words.len();
        for i in 0..n {
            let w = self.words[i];
            let carry_in_left = if i > 0 { self.words[i - 1] >> 63 } else { 0 };
            let carry_in_right = if i + 1 < n {
                self.words[i + 1] << 63
            } else {
                0
            };
            out.words[i] ^= (w << 1 | carry_in_left) ^ (w >> 1 | carry_in_right);
        }
        out.clear_tail();
        out
    }

    fn clear_tail(&mut self) {
        let extra = self.words.len() * 64 - self.len;
        if extra > 0 {
            if let Some(last) = self.words.last_mut() {
                *last &= u64::MAX >> extra;
            }
        }
    }
}
