//! Playout throughput, for `ishi bench`. Measurement only; printing is the binary's job.

use super::playout::light_playout;
use crate::board::{Board, Color};
use rand::SeedableRng;
use std::time::{Duration, Instant};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlayoutKind {
    Light,
    Heavy,
}

#[derive(Clone, Copy, Debug)]
pub struct BenchResult {
    pub playouts: u64,
    pub moves: u64,
    pub elapsed: Duration,
}

impl BenchResult {
    pub fn per_second(&self) -> f64 {
        self.playouts as f64 / self.elapsed.as_secs_f64()
    }
}

/// Runs playouts from the empty board on `threads` threads for about
/// `duration`, each thread with its own generator seeded from `seed`.
pub fn playouts_per_second(
    size: usize,
    kind: PlayoutKind,
    threads: usize,
    duration: Duration,
    seed: u64,
) -> BenchResult {
    let empty = Board::new(size).expect("bench size is validated by the caller");
    let start = Instant::now();
    let per_thread: Vec<(u64, u64)> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads.max(1))
            .map(|t| {
                let empty = &empty;
                s.spawn(move || {
                    let mut rng = super::rng::FastRng::seed_from_u64(seed.wrapping_add(t as u64));
                    let mut board = empty.clone();
                    let (mut n, mut moves) = (0u64, 0u64);
                    while start.elapsed() < duration {
                        for _ in 0..64 {
                            board.clone_from(empty);
                            let r = match kind {
                                PlayoutKind::Light => {
                                    light_playout(&mut board, Color::Black, &mut rng)
                                }
                                PlayoutKind::Heavy => super::playout::heavy_playout(
                                    &mut board,
                                    Color::Black,
                                    &mut rng,
                                ),
                            };
                            moves += r.moves as u64;
                            n += 1;
                        }
                    }
                    (n, moves)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or((0, 0)))
            .collect()
    });
    BenchResult {
        playouts: per_thread.iter().map(|r| r.0).sum(),
        moves: per_thread.iter().map(|r| r.1).sum(),
        elapsed: start.elapsed(),
    }
}
