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

/// Runs the whole tree search (descent, expansion, playout, backup) from
/// the empty board on `threads` threads for about `duration`: the playout
/// rate a real `genmove` gets, and how it scales with threads.
pub fn search_playouts_per_second(
    size: usize,
    kind: PlayoutKind,
    threads: usize,
    duration: Duration,
    seed: u64,
) -> BenchResult {
    use super::tree::Tree;
    use super::uct::{prepare_root, search, Params, Root, Scorer, Shared};
    use crate::game::Game;
    use crate::rules::Rules;
    use std::sync::atomic::{AtomicBool, Ordering};

    let game = Game::new(size, Rules::default()).expect("bench size is validated by the caller");
    super::patterns::warm_up();
    let tree = Tree::new(4_000_000);
    let root = Root {
        board: game.board().clone(),
        color: Color::Black,
        passes: 0,
        last: None,
    };
    let params = Params::new(size, kind);
    prepare_root(&tree, &root, &game, &params);
    let stop = AtomicBool::new(false);
    let shared = Shared::new(
        &tree,
        &root,
        &params,
        Scorer::of(&game),
        &stop,
        u64::MAX,
        None,
    );
    let start = Instant::now();
    std::thread::scope(|s| {
        s.spawn(|| {
            std::thread::sleep(duration);
            stop.store(true, Ordering::Relaxed);
        });
        search(&shared, threads, seed);
    });
    BenchResult {
        playouts: shared.done.load(Ordering::Relaxed),
        moves: 0,
        elapsed: start.elapsed(),
    }
}

/// What `ishi bench` prints: for every size and policy, raw playouts per
/// second and playouts per second inside the tree search, for each thread
/// count, with the ratio to the first thread count measured in the same run.
pub fn bench_lines(
    sizes: &[usize],
    kinds: &[PlayoutKind],
    threads: &[usize],
    duration: Duration,
) -> Vec<String> {
    let mut lines = Vec::new();
    for &size in sizes {
        for &kind in kinds {
            for (label, search) in [("playouts", false), ("search", true)] {
                let mut base: Option<f64> = None;
                for &t in threads {
                    let r = if search {
                        search_playouts_per_second(size, kind, t, duration, 1)
                    } else {
                        playouts_per_second(size, kind, t, duration, 1)
                    };
                    let rate = r.per_second();
                    let ratio = base.map_or(1.0, |b| rate / b);
                    base.get_or_insert(rate);
                    lines.push(format!(
                        "{size}x{size} {kind:?} {label} threads={t} playouts/s={rate:.0} ratio_vs_first={ratio:.2}"
                    ));
                }
            }
        }
    }
    lines
}
