//! Fixed-size bitsets over the padded point index space used by [`super::Board`].
//!
//! A point `(x, y)` has index `(y + 1) * stride + x + 1` with `stride = size + 1`,
//! so one border column separates rows. Shifting by 1 or by `stride` then moves
//! every bit to a neighbour without wrapping onto the board, which makes
//! neighbour sets and flood fills a handful of word operations.

/// Enough bits for a 25×25 board with its border: `27 * 26 = 702 ≤ 704`.
pub const WORDS: usize = 11;
pub const BITS: usize = WORDS * 64;

#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Bitboard {
    words: [u64; WORDS],
}

impl std::fmt::Debug for Bitboard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

impl Bitboard {
    pub const EMPTY: Bitboard = Bitboard { words: [0; WORDS] };

    #[inline]
    pub fn single(index: usize) -> Bitboard {
        let mut b = Bitboard::EMPTY;
        b.set(index);
        b
    }

    #[inline]
    pub fn set(&mut self, index: usize) {
        self.words[index >> 6] |= 1u64 << (index & 63);
    }

    #[inline]
    pub fn clear(&mut self, index: usize) {
        self.words[index >> 6] &= !(1u64 << (index & 63));
    }

    #[inline]
    pub fn contains(&self, index: usize) -> bool {
        self.words[index >> 6] >> (index & 63) & 1 != 0
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.words.iter().all(|&w| w == 0)
    }

    #[inline]
    pub fn count(&self) -> u32 {
        self.words.iter().map(|w| w.count_ones()).sum()
    }

    #[inline]
    pub fn intersects(&self, other: &Bitboard) -> bool {
        self.words.iter().zip(&other.words).any(|(a, b)| a & b != 0)
    }

    #[inline]
    pub fn and_not(&self, other: &Bitboard) -> Bitboard {
        let mut r = *self;
        for (a, b) in r.words.iter_mut().zip(&other.words) {
            *a &= !b;
        }
        r
    }

    /// The lowest set index, if any.
    #[inline]
    pub fn first(&self) -> Option<usize> {
        self.words
            .iter()
            .enumerate()
            .find(|(_, &w)| w != 0)
            .map(|(i, &w)| i * 64 + w.trailing_zeros() as usize)
    }

    pub fn iter(&self) -> BitIter {
        BitIter {
            words: self.words,
            word: 0,
        }
    }

    /// Shift towards higher indices by `0 < n < 64` bits (a board stride is at most 26).
    #[inline]
    fn shl(&self, n: u32) -> Bitboard {
        debug_assert!(n > 0 && n < 64);
        let mut r = Bitboard::EMPTY;
        r.words[0] = self.words[0] << n;
        for i in 1..WORDS {
            r.words[i] = (self.words[i] << n) | (self.words[i - 1] >> (64 - n));
        }
        r
    }

    /// Shift towards lower indices by `0 < n < 64` bits.
    #[inline]
    fn shr(&self, n: u32) -> Bitboard {
        debug_assert!(n > 0 && n < 64);
        let mut r = Bitboard::EMPTY;
        for i in 0..WORDS - 1 {
            r.words[i] = (self.words[i] >> n) | (self.words[i + 1] << (64 - n));
        }
        r.words[WORDS - 1] = self.words[WORDS - 1] >> n;
        r
    }

    /// Every point orthogonally adjacent to a point of `self` (may include
    /// `self` and the border; callers mask with what they need).
    #[inline]
    pub fn neighbours(&self, stride: usize) -> Bitboard {
        let s = stride as u32;
        self.shl(1) | self.shr(1) | self.shl(s) | self.shr(s)
    }

    /// `self` grown by one step into `within`, repeatedly, until it stops growing.
    pub fn flood_fill(&self, within: &Bitboard, stride: usize) -> Bitboard {
        let mut region = *self & *within;
        loop {
            let grown = (region | region.neighbours(stride)) & *within;
            if grown == region {
                return region;
            }
            region = grown;
        }
    }

    /// [`Bitboard::flood_fill`], given up (`None`) once the region holds
    /// more than `limit` points: asking whether a space is small should
    /// not fill the open board.
    pub fn flood_fill_at_most(
        &self,
        within: &Bitboard,
        stride: usize,
        limit: u32,
    ) -> Option<Bitboard> {
        let mut region = *self & *within;
        loop {
            if region.count() > limit {
                return None;
            }
            let grown = (region | region.neighbours(stride)) & *within;
            if grown == region {
                return Some(region);
            }
            region = grown;
        }
    }

    /// Splits `self` into its 4-connected components.
    pub fn components(&self, stride: usize) -> Vec<Bitboard> {
        let mut rest = *self;
        let mut out = Vec::new();
        while let Some(seed) = rest.first() {
            let comp = Bitboard::single(seed).flood_fill(&rest, stride);
            rest = rest.and_not(&comp);
            out.push(comp);
        }
        out
    }
}

macro_rules! bit_op {
    ($trait:ident, $fn:ident, $assign_trait:ident, $assign_fn:ident, $op:tt) => {
        impl std::ops::$assign_trait for Bitboard {
            #[inline]
            fn $assign_fn(&mut self, rhs: Bitboard) {
                for (a, b) in self.words.iter_mut().zip(&rhs.words) {
                    *a $op *b;
                }
            }
        }
        impl std::ops::$trait for Bitboard {
            type Output = Bitboard;
            #[inline]
            fn $fn(mut self, rhs: Bitboard) -> Bitboard {
                std::ops::$assign_trait::$assign_fn(&mut self, rhs);
                self
            }
        }
    };
}
bit_op!(BitAnd, bitand, BitAndAssign, bitand_assign, &=);
bit_op!(BitOr, bitor, BitOrAssign, bitor_assign, |=);
bit_op!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^=);

pub struct BitIter {
    words: [u64; WORDS],
    word: usize,
}

impl Iterator for BitIter {
    type Item = usize;
    #[inline]
    fn next(&mut self) -> Option<usize> {
        while self.word < WORDS {
            let w = self.words[self.word];
            if w != 0 {
                self.words[self.word] = w & (w - 1);
                return Some(self.word * 64 + w.trailing_zeros() as usize);
            }
            self.word += 1;
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shifts_cross_word_boundaries() {
        let b = Bitboard::single(63);
        assert_eq!(b.shl(1).first(), Some(64));
        assert_eq!(Bitboard::single(64).shr(1).first(), Some(63));
        assert_eq!(Bitboard::single(60).shl(26).first(), Some(86));
    }

    #[test]
    fn flood_fill_stays_inside() {
        // One row of a board with stride 20, split by a wall at index 12.
        let mut within = Bitboard::EMPTY;
        for i in [10, 11, 13, 14] {
            within.set(i);
        }
        let filled = Bitboard::single(10).flood_fill(&within, 20);
        assert_eq!(filled.iter().collect::<Vec<_>>(), vec![10, 11]);
        assert_eq!(within.components(20).len(), 2);
        let small = Bitboard::single(10).flood_fill_at_most(&within, 20, 2);
        assert_eq!(small, Some(filled));
        assert_eq!(
            Bitboard::single(10).flood_fill_at_most(&within, 20, 1),
            None
        );
    }
}
