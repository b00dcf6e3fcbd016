//! Zobrist keys from a fixed seed, so hashes are identical across runs and
//! machines (tests and transposition keys may be compared between processes).

use super::bitboard::BITS;

const fn splitmix64(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (state, z ^ (z >> 31))
}

const fn make_table() -> [[u64; BITS]; 2] {
    let mut table = [[0u64; BITS]; 2];
    let mut state = 0x1541_u64; // "ishi"
    let mut c = 0;
    while c < 2 {
        let mut i = 0;
        while i < BITS {
            let (s, v) = splitmix64(state);
            state = s;
            table[c][i] = v;
            i += 1;
        }
        c += 1;
    }
    table
}

/// `STONE[colour index][point index]`.
pub static STONE: [[u64; BITS]; 2] = make_table();

/// Keys mixed into a position key for the player to move and for who made
/// the last placement (situational and natural-situational superko).
pub const TO_MOVE: [u64; 2] = [0x6A09_E667_F3BC_C908, 0xBB67_AE85_84CA_A73B];
pub const PLACED_BY: [u64; 2] = [0x3C6E_F372_FE94_F82B, 0xA54F_F53A_5F1D_36F1];
