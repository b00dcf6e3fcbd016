//! Playouts: finishing a game quickly at random so its result can be counted.

use crate::board::{Board, Color, Point};
use rand::RngCore;

/// How a playout ended: area counts of the final literal position.
#[derive(Clone, Copy, Debug)]
pub struct PlayoutResult {
    pub black: u32,
    pub white: u32,
    pub moves: u32,
}

/// A uniform choice in `0..n` from 32 random bits (multiply-shift: no
/// division, bias below 2^-32 · n).
#[inline]
pub fn below(rng: &mut impl RngCore, n: usize) -> usize {
    ((rng.next_u32() as u64 * n as u64) >> 32) as usize
}

/// Plays uniformly random legal moves that do not fill a one-point eye
/// until both sides pass, starting with `to_move`. Suicide is never played;
/// simple ko is honoured through the board's ko point.
pub fn light_playout(
    board: &mut Board,
    mut to_move: Color,
    rng: &mut impl RngCore,
) -> PlayoutResult {
    let limit = 3 * board.size() * board.size();
    let mut passes = 0;
    let mut moves = 0;
    while moves < limit {
        match random_light_move(board, to_move, rng) {
            Some(p) => {
                board.place_unchecked(to_move, p);
                passes = 0;
            }
            None => {
                board.clear_ko();
                passes += 1;
                if passes == 2 {
                    break;
                }
            }
        }
        moves += 1;
        to_move = to_move.opponent();
    }
    let (black, white) = board.playout_area_counts();
    PlayoutResult {
        black,
        white,
        moves: moves as u32,
    }
}

/// A uniformly random point among the legal non-eye-filling placements,
/// found by scanning the empty list from a random start.
#[inline]
pub fn random_light_move(board: &Board, color: Color, rng: &mut impl RngCore) -> Option<Point> {
    let empties = board.empties();
    let n = empties.len();
    if n == 0 {
        return None;
    }
    let start = below(rng, n);
    for k in 0..n {
        let i = if start + k >= n {
            start + k - n
        } else {
            start + k
        };
        let p = Point(empties[i] as usize);
        if !board.is_eye_like(color, p) && board.is_legal_no_suicide(color, p) {
            return Some(p);
        }
    }
    None
}

/// Placeholder until the heavy policy lands: the light playout.
pub fn heavy_playout(board: &mut Board, to_move: Color, rng: &mut impl RngCore) -> PlayoutResult {
    light_playout(board, to_move, rng)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn playouts_end_with_a_full_consistent_board() {
        let mut rng = rand::rngs::SmallRng::seed_from_u64(7);
        for size in [2, 3, 5, 9, 19] {
            for _ in 0..20 {
                let mut b = Board::new(size).unwrap();
                let r = light_playout(&mut b, Color::Black, &mut rng);
                b.check_consistency().unwrap();
                assert!(r.black + r.white <= (size * size) as u32);
                // Unless the move limit cut it short, the last player to
                // pass (White or Black) had nothing left but eyes.
                if r.moves as usize >= 3 * size * size {
                    continue;
                }
                for &e in b.empties() {
                    let p = Point(e as usize);
                    let last = if r.moves % 2 == 0 {
                        Color::White
                    } else {
                        Color::Black
                    };
                    assert!(
                        b.is_eye_like(last, p) || !b.is_legal_no_suicide(last, p),
                        "size {size}: {p:?} playable for {last:?}\n{}",
                        b.to_ascii()
                    );
                }
            }
        }
    }
}
