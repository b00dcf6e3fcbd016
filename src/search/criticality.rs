//! Criticality (Coulom, "Criticality: a Monte-Carlo heuristic for Go
//! programs", 2009): how much owning a point at the end of the root's
//! playouts goes with winning them, beyond what ownership and the win rate
//! explain apart. A group whose life decides the game makes its points
//! and the points around it critical; the tree then looks at moves there
//! before their own statistics would have drawn it, which is where
//! first-line refutations hide.
//!
//! `crit(p) = P(p owned by the winner) - (P(p Black) P(Black wins) + P(p White) P(White wins))`
//! over the decisive playouts of one search.

use crate::board::{Board, Color, Point};
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};

/// The final owner of a point: its stone, or for an empty point the colour
/// of a neighbouring stone (playouts end with only eyes empty).
#[inline]
pub fn final_owner(b: &Board, p: Point) -> Option<Color> {
    b.color_at(p).or_else(|| {
        b.neighbours(p)
            .into_iter()
            .find_map(|q| b.color_at(Point(q)))
    })
}

/// One search's counts, summed by every worker.
pub struct SharedCounts {
    black: Vec<AtomicU32>,
    white: Vec<AtomicU32>,
    winner: Vec<AtomicU32>,
    black_wins: AtomicU64,
    /// Decisive playouts counted (a jigo has no winner to own anything).
    samples: AtomicU64,
}

impl SharedCounts {
    /// Counts for point indices below `len`.
    pub fn new(len: usize) -> SharedCounts {
        let zeros = || (0..len).map(|_| AtomicU32::new(0)).collect();
        SharedCounts {
            black: zeros(),
            white: zeros(),
            winner: zeros(),
            black_wins: AtomicU64::new(0),
            samples: AtomicU64::new(0),
        }
    }
}

/// A worker's counts not yet added to the shared ones, and its copy of the
/// criticality of every point, refreshed after each flush.
#[derive(Default)]
pub struct LocalCounts {
    black: Vec<u32>,
    white: Vec<u32>,
    winner: Vec<u32>,
    black_wins: u32,
    samples: u32,
    /// Empty until enough playouts are in for the figures to mean anything.
    values: Vec<f32>,
}

impl LocalCounts {
    /// Adds a finished playout's owners; `black_won` is None for a jigo.
    pub fn record(&mut self, board: &Board, black_won: Option<bool>) {
        let Some(black_won) = black_won else {
            return;
        };
        let len = board.stride() * (board.size() + 2) + 1;
        if self.black.len() < len {
            self.black.resize(len, 0);
            self.white.resize(len, 0);
            self.winner.resize(len, 0);
        }
        let winner = if black_won {
            Color::Black
        } else {
            Color::White
        };
        for p in board.points() {
            let Some(owner) = final_owner(board, p) else {
                continue;
            };
            match owner {
                Color::Black => self.black[p.0] += 1,
                Color::White => self.white[p.0] += 1,
            }
            if owner == winner {
                self.winner[p.0] += 1;
            }
        }
        self.samples += 1;
        self.black_wins += u32::from(black_won);
    }

    /// Adds the local counts to the shared ones, then recomputes the local
    /// criticality from all of them once `min_samples` playouts are in.
    pub fn flush(&mut self, shared: &SharedCounts, min_samples: u64) {
        if self.samples != 0 {
            let columns = [
                (&shared.black, &mut self.black),
                (&shared.white, &mut self.white),
                (&shared.winner, &mut self.winner),
            ];
            for (to, from) in columns {
                for (t, f) in to.iter().zip(from.iter_mut()) {
                    if *f != 0 {
                        t.fetch_add(*f, Ordering::Relaxed);
                        *f = 0;
                    }
                }
            }
            shared
                .black_wins
                .fetch_add(u64::from(self.black_wins), Ordering::Relaxed);
            // Release after the columns: a reader that sees the samples
            // sees at least their counts.
            shared
                .samples
                .fetch_add(u64::from(self.samples), Ordering::Release);
            (self.black_wins, self.samples) = (0, 0);
        }
        let n = shared.samples.load(Ordering::Acquire);
        if n < min_samples.max(1) {
            return;
        }
        let n = n as f64;
        let black_rate = shared.black_wins.load(Ordering::Relaxed) as f64 / n;
        let load = |v: &[AtomicU32], i: usize| v[i].load(Ordering::Relaxed) as f64 / n;
        self.values.clear();
        self.values.extend((0..shared.black.len()).map(|i| {
            let expected =
                load(&shared.black, i) * black_rate + load(&shared.white, i) * (1.0 - black_rate);
            (load(&shared.winner, i) - expected) as f32
        }));
    }

    /// The criticality of every point by index; empty while unknown.
    pub fn values(&self) -> &[f32] {
        &self.values
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_point_that_decides_the_game_is_critical_and_settled_points_are_not() {
        // Black always owns the left column and White the right one; the
        // middle goes to whoever wins.
        let black_wins = Board::from_ascii("X X O\nX X O\nX X O").unwrap();
        let white_wins = Board::from_ascii("X O O\nX O O\nX O O").unwrap();
        let shared = SharedCounts::new(64);
        let mut local = LocalCounts::default();
        for _ in 0..10 {
            local.record(&black_wins, Some(true));
            local.record(&white_wins, Some(false));
        }
        local.record(&black_wins, None);
        local.flush(&shared, 20);
        let at = |x, y| local.values()[black_wins.point(x, y).unwrap().0];
        // Owned by the winner every time, expected half the time: 0.5.
        assert!((at(1, 1) - 0.5).abs() < 1e-6, "{}", at(1, 1));
        assert!(at(0, 1).abs() < 1e-6 && at(2, 1).abs() < 1e-6);
    }

    #[test]
    fn nothing_is_known_before_enough_playouts() {
        let b = Board::from_ascii("X . O\nX . O\nX . O").unwrap();
        let shared = SharedCounts::new(64);
        let mut local = LocalCounts::default();
        local.record(&b, Some(true));
        local.flush(&shared, 2);
        assert!(local.values().is_empty());
        local.record(&b, Some(false));
        local.flush(&shared, 2);
        assert!(!local.values().is_empty());
    }
}
