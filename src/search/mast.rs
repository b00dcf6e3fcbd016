//! Move averages for the playouts (MAST: Finnsson and Björnsson 2008): over
//! one search, every move's results for the side that played it, wherever
//! it came in the tree or the playout. The heavy playouts' last stage, a
//! random sensible move, can then draw a few candidates and play the one
//! with the best average, so that what the tree has learned about a point
//! (the vital point both sides want) reaches the playouts below it. Off by
//! default (`--tune playout_mast=K`, K candidates).

use super::playout::{decode_move as decode, scan_empties};
use crate::board::{Board, Color, Point};
use rand::RngCore;

/// One worker's averages: half-point wins and plays for each colour and
/// point.
#[derive(Default)]
pub struct MoveAverages {
    cells: usize,
    counts: Vec<[u32; 2]>,
}

impl MoveAverages {
    /// Empties the averages, sized for a board of `cells` cells.
    pub fn fit(&mut self, cells: usize) {
        self.cells = cells;
        self.counts.clear();
        self.counts.resize(2 * cells, [0, 0]);
    }

    fn slot(&self, c: Color, p: usize) -> usize {
        c.index() * self.cells + p
    }

    /// Adds one playout's placements (`moves`, in the playout record's
    /// encoding) with its result: `black_half` is 2 for a Black win, 1 for
    /// a draw and 0 for a White win.
    pub fn learn(&mut self, moves: &[u16], black_half: u32) {
        if self.counts.is_empty() {
            return;
        }
        for &m in moves {
            let (p, c) = decode(m);
            if p == 0 || p >= self.cells {
                continue;
            }
            let half = if c == Color::Black {
                black_half
            } else {
                2 - black_half
            };
            let slot = self.slot(c, p);
            let entry = &mut self.counts[slot];
            entry[0] += half;
            entry[1] += 1;
        }
    }

    /// Whether `a` has a better average for `c` than `b`, each counted
    /// from one won and one lost play before any results (so an unseen
    /// point is even).
    fn better(&self, c: Color, a: Point, b: Point) -> bool {
        let [wa, na] = self.counts[self.slot(c, a.0)];
        let [wb, nb] = self.counts[self.slot(c, b.0)];
        // (wa/2 + 1) / (na + 2) > (wb/2 + 1) / (nb + 2), in integers.
        (u64::from(wa) + 2) * (u64::from(nb) + 2) > (u64::from(wb) + 2) * (u64::from(na) + 2)
    }

    /// Among `tries` points drawn as the random stage draws them (those
    /// `accept` takes), the one with the best average for `c`.
    pub fn choose(
        &self,
        board: &Board,
        c: Color,
        tries: u8,
        rng: &mut impl RngCore,
        mut accept: impl FnMut(Point) -> bool,
    ) -> Option<Point> {
        let mut best = scan_empties(board, rng.next_u32(), &mut accept)?;
        if self.counts.is_empty() {
            return Some(best);
        }
        for _ in 1..tries {
            if let Some(p) = scan_empties(board, rng.next_u32(), &mut accept) {
                if self.better(c, p, best) {
                    best = p;
                }
            }
        }
        Some(best)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::test_point as at;
    use crate::search::playout::encode_move;
    use rand::SeedableRng;

    #[test]
    fn the_point_that_won_for_its_side_is_chosen_over_the_one_that_lost() {
        let board = Board::from_ascii(
            ". . .
             . . .
             . . .",
        )
        .unwrap();
        let mut averages = MoveAverages::default();
        averages.fit(board.stride() * (board.size() + 2) + 1);
        let (good, bad) = (at(&board, "B2"), at(&board, "A1"));
        for _ in 0..10 {
            // Black played B2 and won; Black played A1 and lost.
            averages.learn(&[encode_move(Color::Black, good)], 2);
            averages.learn(&[encode_move(Color::Black, bad)], 0);
        }
        let either = |q: Point| q == good || q == bad;
        let mut rng = rand::rngs::SmallRng::seed_from_u64(1);
        // How often B2 is chosen in 200 choices for `c` among `tries` draws.
        let mut picks_of_good = |c: Color, tries: u8| {
            (0..200)
                .filter(|_| averages.choose(&board, c, tries, &mut rng, either) == Some(good))
                .count()
        };
        // Eight draws miss B2 about once in a hundred (A1 is drawn 5 times in 9).
        let picked_good = picks_of_good(Color::Black, 8);
        assert!(picked_good > 190, "{picked_good}");
        // White has played neither: both are even, the first drawn stays.
        let white_good = picks_of_good(Color::White, 8);
        assert!(white_good > 60 && white_good < 140, "{white_good}");
        // One try is the plain random stage.
        let one_good = picks_of_good(Color::Black, 1);
        assert!(one_good > 60 && one_good < 140, "{one_good}");
    }
}
