//! Sets of squares as bits, one per square index (`y * width + x`), for move generation.

/// A set of squares. Boards of up to `64 * INLINE_WORDS` squares (every course map) need no
/// allocation.
#[derive(Clone)]
pub(crate) struct SquareSet {
    inline: [u64; INLINE_WORDS],
    heap: Vec<u64>,
    words: usize,
}

/// Words kept inline: 2048 squares, more than any course map has.
pub(crate) const INLINE_WORDS: usize = 32;

impl SquareSet {
    /// The empty set of a board of `squares` squares.
    pub(crate) fn new(squares: usize) -> SquareSet {
        let words = squares.div_ceil(64);
        SquareSet {
            inline: [0; INLINE_WORDS],
            heap: if words > INLINE_WORDS {
                vec![0; words]
            } else {
                Vec::new()
            },
            words,
        }
    }

    /// The bits: square `64 * i + b` is bit `b` of word `i`.
    #[inline]
    pub(crate) fn words(&self) -> &[u64] {
        if self.words > INLINE_WORDS {
            &self.heap
        } else {
            &self.inline[..self.words]
        }
    }

    #[inline]
    pub(crate) fn words_mut(&mut self) -> &mut [u64] {
        if self.words > INLINE_WORDS {
            &mut self.heap
        } else {
            &mut self.inline[..self.words]
        }
    }

    #[inline]
    pub(crate) fn insert(&mut self, square: usize) {
        self.words_mut()[square / 64] |= 1 << (square % 64);
    }

    #[inline]
    pub(crate) fn contains(&self, square: usize) -> bool {
        self.words()[square / 64] & (1 << (square % 64)) != 0
    }

    /// The squares in increasing order.
    pub(crate) fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        self.words()
            .iter()
            .enumerate()
            .flat_map(|(w, &word)| bits(word).map(move |bit| w * 64 + bit))
    }
}

/// The positions of the set bits of `word`, lowest first.
#[inline]
pub(crate) fn bits(mut word: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (word != 0).then(|| {
            let bit = word.trailing_zeros() as usize;
            word &= word - 1;
            bit
        })
    })
}
