//! A small, fast generator for playouts (wyrand): a random draw costs a
//! few instructions, against about twenty for the general-purpose generators,
//! and playouts draw once per move. Not for anything needing unpredictability.

use rand::{RngCore, SeedableRng};

#[derive(Clone, Debug)]
pub struct FastRng {
    state: u64,
}

impl RngCore for FastRng {
    #[inline]
    fn next_u32(&mut self) -> u32 {
        (self.next_u64() >> 32) as u32
    }

    #[inline]
    fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0xa076_1d64_78bd_642f);
        let t = (self.state as u128).wrapping_mul((self.state ^ 0xe703_7ed1_a0b4_28db) as u128);
        ((t >> 64) ^ t) as u64
    }

    fn fill_bytes(&mut self, dest: &mut [u8]) {
        for chunk in dest.chunks_mut(8) {
            let v = self.next_u64().to_le_bytes();
            chunk.copy_from_slice(&v[..chunk.len()]);
        }
    }

    fn try_fill_bytes(&mut self, dest: &mut [u8]) -> Result<(), rand::Error> {
        self.fill_bytes(dest);
        Ok(())
    }
}

impl SeedableRng for FastRng {
    type Seed = [u8; 8];

    fn from_seed(seed: [u8; 8]) -> FastRng {
        FastRng {
            state: u64::from_le_bytes(seed),
        }
    }

    fn seed_from_u64(seed: u64) -> FastRng {
        FastRng { state: seed }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::playout::below;

    #[test]
    fn below_is_roughly_uniform() {
        let mut rng = FastRng::seed_from_u64(3);
        let mut counts = [0u32; 7];
        for _ in 0..70_000 {
            counts[below(&mut rng, 7)] += 1;
        }
        for c in counts {
            assert!((9_500..10_500).contains(&c), "{counts:?}");
        }
    }
}
