//! Adaptive playouts (Graf and Platzner, 2015): over one search, the
//! balanced shape stage's choices are tuned by policy gradient to what
//! wins from the position being searched (`--tune playout_adapt=RATE`,
//! with `playout_shapes_balanced=1`; off by default).
//!
//! The shipped balanced table weighs a point next to the last move by its
//! 3×3 shape, the same on every board. A fight the playouts get wrong in
//! one position (a group that dies in every playout although its owner can
//! save it) stays wrong however long the search runs: the tree can only
//! correct the moves it holds. Here each choice's log weight also gets an
//! offset for the mover's colour and the point, and one for the colour,
//! the point and the shape, and after every playout the offsets of the
//! choices made move along REINFORCE's gradient: up for the options the
//! winner chose, down for those the loser chose, in proportion to how far
//! the result is from this search's mean result. Each worker keeps its own
//! offsets and starts every search from zero.
//!
//! The weight of a move elsewhere stays the table's. That option is
//! offered dozens of times in every playout, so its gradient is mostly
//! noise: learned too, at rate 0.1 it wandered to factors of e^-2 and e^2
//! within one search.
//!
//! It lost in self-play against the shipped search, and the faster it
//! learns, the more: 339 of 729 games at rate 0.03, 365 of 731 at 0.1,
//! 315 of 767 at 0.3 with the node baseline (RESEARCH.md, Self-play as a
//! screen).

use crate::board::{Color, Point};

/// Slots of the hashed (colour, point, shape) offsets.
const SHAPE_SLOT_BITS: u32 = 16;
/// No offset grows beyond this: one search's playouts may push a weight
/// up or down by a factor of about 50, not more.
const LIMIT: f32 = 4.0;

/// One candidate of a recorded choice: its two offset slots and its chance.
#[derive(Clone, Copy)]
struct Candidate {
    point_slot: u32,
    shape_slot: u32,
    chance: f32,
}

/// One choice of the stage in the current playout.
#[derive(Clone, Copy)]
struct Choice {
    color: Color,
    start: u32,
    count: u16,
    /// Index of the candidate played; `count` for a move elsewhere.
    chosen: u16,
}

/// One worker's offsets, and the choices of its current playout.
#[derive(Default)]
pub struct AdaptiveShapes {
    rate: f32,
    cells: usize,
    by_point: Vec<f32>,
    by_shape: Vec<f32>,
    /// Sum of Black's results (in halves) and number of playouts, this
    /// search: the baseline a result is measured against.
    black_halves: u64,
    playouts: u64,
    choices: Vec<Choice>,
    candidates: Vec<Candidate>,
}

impl AdaptiveShapes {
    /// Starts a search on a board of `cells` cells with this learning
    /// rate; 0 leaves the stage as the table says.
    pub fn fit(&mut self, cells: usize, rate: f32) {
        self.rate = rate;
        self.cells = cells;
        self.by_point.clear();
        self.by_shape.clear();
        if rate > 0.0 {
            self.by_point.resize(2 * cells, 0.0);
            self.by_shape.resize(1 << SHAPE_SLOT_BITS, 0.0);
        }
        self.black_halves = 0;
        self.playouts = 0;
        self.clear_playout();
    }

    pub fn active(&self) -> bool {
        self.rate > 0.0
    }

    /// Forgets the current playout's choices.
    pub fn clear_playout(&mut self) {
        self.choices.clear();
        self.candidates.clear();
    }

    fn point_slot(&self, c: Color, p: Point) -> u32 {
        (c.index() * self.cells + p.0) as u32
    }

    fn shape_slot(c: Color, p: Point, key: u32) -> u32 {
        let mixed = (p.0 as u32)
            .wrapping_mul(0x9e37_79b1)
            .wrapping_add(key.wrapping_mul(0x85eb_ca6b))
            ^ (c.index() as u32).wrapping_mul(0xc2b2_ae35);
        mixed.wrapping_mul(0x27d4_eb2f) >> (32 - SHAPE_SLOT_BITS)
    }

    /// The factor on the table's weight of `c` playing `p` with shape `key`
    /// (only while [`AdaptiveShapes::active`]).
    pub fn factor(&self, c: Color, p: Point, key: u32) -> f32 {
        let point = self.by_point[self.point_slot(c, p) as usize];
        let shape = self.by_shape[Self::shape_slot(c, p, key) as usize];
        (point + shape).exp()
    }

    /// Records one choice: the candidates' points, keys and final weights,
    /// the weight of a move elsewhere and which was played (`points.len()`
    /// for elsewhere).
    pub fn record(
        &mut self,
        c: Color,
        points: &[Point],
        keys: &[u32],
        weights: &[f32],
        elsewhere: f32,
        chosen: usize,
    ) {
        let total: f32 = weights.iter().sum::<f32>() + elsewhere;
        if total <= 0.0 || !total.is_finite() {
            return;
        }
        let start = self.candidates.len() as u32;
        for ((&p, &key), &w) in points.iter().zip(keys).zip(weights) {
            self.candidates.push(Candidate {
                point_slot: self.point_slot(c, p),
                shape_slot: Self::shape_slot(c, p, key),
                chance: w / total,
            });
        }
        self.choices.push(Choice {
            color: c,
            start,
            count: points.len() as u16,
            chosen: chosen as u16,
        });
    }

    /// Learns from the current playout's result (`black_half`: 2 a Black
    /// win, 1 a draw, 0 a White win) and forgets its choices. `expected`
    /// is Black's expected result (in halves) from where the playout
    /// started, when the tree knows it; otherwise the search's mean
    /// result so far stands in.
    pub fn learn(&mut self, black_half: u32, expected: Option<f32>) {
        if !self.active() {
            return;
        }
        let search_mean = if self.playouts == 0 {
            1.0
        } else {
            self.black_halves as f32 / self.playouts as f32
        };
        let mean = expected.unwrap_or(search_mean);
        // Black's advantage over the mean, as a share of a win.
        let black_advantage = (black_half as f32 - mean) / 2.0;
        self.black_halves += u64::from(black_half);
        self.playouts += 1;
        for choice in &self.choices {
            let advantage = if choice.color == Color::Black {
                black_advantage
            } else {
                -black_advantage
            };
            let step = self.rate * advantage;
            let candidates = &self.candidates[choice.start as usize..][..choice.count as usize];
            for (k, candidate) in candidates.iter().enumerate() {
                let played = (k == choice.chosen as usize) as u8 as f32;
                let delta = step * (played - candidate.chance);
                nudge(&mut self.by_point[candidate.point_slot as usize], delta);
                nudge(&mut self.by_shape[candidate.shape_slot as usize], delta);
            }
        }
        self.clear_playout();
    }
}

fn nudge(offset: &mut f32, delta: f32) {
    *offset = (*offset + delta).clamp(-LIMIT, LIMIT);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Black chooses between A (point 10) and B (point 11) and a move
    /// elsewhere; A wins every playout, B loses every one.
    #[test]
    fn the_option_that_wins_gains_weight_and_the_one_that_loses_falls() {
        let mut adaptive = AdaptiveShapes::default();
        adaptive.fit(30, 0.1);
        let (a, b) = (Point(10), Point(11));
        let (key_a, key_b) = (7, 9);
        for round in 0..400 {
            let weights = [
                adaptive.factor(Color::Black, a, key_a),
                adaptive.factor(Color::Black, b, key_b),
            ];
            let elsewhere = 0.1;
            let chosen = round % 3;
            adaptive.record(
                Color::Black,
                &[a, b],
                &[key_a, key_b],
                &weights,
                elsewhere,
                chosen,
            );
            let black_half = match chosen {
                0 => 2,
                1 => 0,
                _ => 1,
            };
            adaptive.learn(black_half, None);
        }
        let (fa, fb) = (
            adaptive.factor(Color::Black, a, key_a),
            adaptive.factor(Color::Black, b, key_b),
        );
        assert!(fa > 2.0 && fb < 0.5, "A x{fa}, B x{fb}");
        // White chose nothing: its weights are the table's.
        assert_eq!(adaptive.factor(Color::White, a, key_a), 1.0);
        // A new search starts from the table again.
        adaptive.fit(30, 0.1);
        assert_eq!(adaptive.factor(Color::Black, a, key_a), 1.0);
    }

    #[test]
    fn a_result_no_better_than_the_mean_teaches_nothing() {
        let mut adaptive = AdaptiveShapes::default();
        adaptive.fit(30, 0.5);
        for _ in 0..50 {
            adaptive.record(Color::White, &[Point(5)], &[3], &[1.0], 1.0, 0);
            adaptive.learn(2, None);
        }
        // After the first playout every result equals the mean.
        let after_first = adaptive.factor(Color::White, Point(5), 3);
        for _ in 0..50 {
            adaptive.record(Color::White, &[Point(5)], &[3], &[1.0], 1.0, 0);
            adaptive.learn(2, None);
        }
        assert_eq!(adaptive.factor(Color::White, Point(5), 3), after_first);
        // Measured against what the tree expects from where the playout
        // started, the same win is a surprise again and teaches.
        adaptive.record(Color::White, &[Point(5)], &[3], &[1.0], 1.0, 0);
        adaptive.learn(2, Some(1.5));
        assert!(adaptive.factor(Color::White, Point(5), 3) < after_first);
    }
}
