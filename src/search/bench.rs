//! Playout throughput, for `ishi bench`. Measurement only; printing is the binary's job.

use super::params::{Params, Tuning};
use super::playout::light_playout;
use super::pool::on_threads;
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
    let per_thread: Vec<(u64, u64)> = on_threads(threads, |t| {
        let mut rng = super::rng::FastRng::seed_from_u64(seed.wrapping_add(t as u64));
        let mut board = empty.clone();
        let mut scratch = super::playout::PlayoutScratch::default();
        let (mut n, mut moves) = (0u64, 0u64);
        while start.elapsed() < duration {
            for _ in 0..64 {
                board.clone_from(&empty);
                let r = match kind {
                    PlayoutKind::Light => light_playout(&mut board, Color::Black, &mut rng),
                    PlayoutKind::Heavy => super::playout::heavy_playout(
                        &mut board,
                        Color::Black,
                        &mut rng,
                        &mut scratch,
                    ),
                };
                moves += r.moves as u64;
                n += 1;
            }
        }
        (n, moves)
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
///
/// With a `budget`, the search stops after that many playouts instead (the
/// duration is then only a safety limit), so that thread counts can be
/// compared on equal work: the same number of playouts grows the same tree,
/// and a deeper tree makes each playout dearer.
pub fn search_playouts_per_second(
    size: usize,
    params: &Params,
    threads: usize,
    duration: Duration,
    budget: Option<u64>,
    seed: u64,
) -> BenchResult {
    use super::policy::Recent;
    use super::tree::Tree;
    use super::uct::{prepare_root, search, Root, Scorer, Shared};
    use crate::game::Game;
    use crate::rules::Rules;
    use std::sync::atomic::{AtomicBool, Ordering};

    let game = Game::new(size, Rules::default()).expect("bench size is validated by the caller");
    super::warm_up();
    let tree = Tree::new(4_000_000);
    let root = Root {
        board: game.board().clone(),
        color: Color::Black,
        passes: 0,
        recent: Recent::default(),
    };
    prepare_root(&tree, &root, &game, params);
    let stop = AtomicBool::new(false);
    let shared = Shared::new(
        &tree,
        &root,
        params,
        Scorer::of(&game),
        &stop,
        budget.unwrap_or(u64::MAX),
        None,
    );
    let limit = if budget.is_some() {
        4 * duration
    } else {
        duration
    };
    let start = Instant::now();
    let finished = AtomicBool::new(false);
    std::thread::scope(|s| {
        // Wakes once, at the limit or when the search ends first: a timer
        // polling every millisecond would take turns with the workers on a
        // machine with no idle core, and so cost the many-thread runs only.
        let timer = s.spawn(|| {
            while !finished.load(Ordering::Acquire) {
                match limit.checked_sub(start.elapsed()) {
                    Some(left) if !left.is_zero() => std::thread::park_timeout(left),
                    _ => break,
                }
            }
            stop.store(true, Ordering::Relaxed);
        });
        search(&shared, threads, seed);
        finished.store(true, Ordering::Release);
        timer.thread().unpark();
    });
    BenchResult {
        playouts: shared.done.load(Ordering::Relaxed),
        moves: 0,
        elapsed: start.elapsed(),
    }
}

/// One line of `ishi bench`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Measure {
    /// Playouts alone, from the empty board.
    Raw,
    /// The tree search, all threads sharing one tree.
    Search,
    /// One single-thread search per thread, each on its own tree: nothing
    /// is shared, so this is what the machine itself allows the shared
    /// search (its caches and memory serving several cores at once).
    SeparateTrees,
}

impl Measure {
    fn label(self) -> &'static str {
        match self {
            Measure::Raw => "playouts",
            Measure::Search => "search",
            Measure::SeparateTrees => "separate-trees",
        }
    }
}

/// Runs `threads` independent one-thread searches at once for about
/// `duration` and adds up their rates.
fn separate_searches(
    size: usize,
    params: &Params,
    threads: usize,
    duration: Duration,
) -> BenchResult {
    let start = Instant::now();
    let results: Vec<BenchResult> = std::thread::scope(|s| {
        let runs: Vec<_> = (0..threads.max(1))
            .map(|t| {
                s.spawn(move || {
                    search_playouts_per_second(size, params, 1, duration, None, 1 + t as u64)
                })
            })
            .collect();
        // A search that panicked must not pass for a slower one.
        runs.into_iter()
            .map(|r| r.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
            .collect()
    });
    BenchResult {
        playouts: results.iter().map(|r| r.playouts).sum(),
        moves: 0,
        elapsed: start.elapsed(),
    }
}

/// What `ishi bench` measures.
#[derive(Clone, Debug)]
pub struct BenchPlan {
    pub sizes: Vec<usize>,
    pub kinds: Vec<PlayoutKind>,
    /// Thread counts; every one is compared with the first.
    pub threads: Vec<usize>,
    pub duration: Duration,
    /// Every measurement is taken this many times and the best one kept.
    pub repeat: usize,
    /// Tree constants for the search measurements, over the defaults.
    pub tuning: Tuning,
    /// Skip the raw playouts and measure only inside the search.
    pub search_only: bool,
}

/// What `ishi bench` prints: for every size and policy, raw playouts per
/// second and playouts per second inside the tree search, for each thread
/// count, with the ratio to the first thread count measured in the same run.
///
/// Shared machines are noisy, so every measurement is taken `repeat` times,
/// the thread counts interleaved, and the best rate of each is reported (the
/// one least disturbed by other load). A lucky fast spell in one thread
/// count's best moves the ratio of bests, so with more than one round each
/// line also gives the median over rounds of the ratio taken within the
/// round (`median_round_ratio`). Raw playouts run for `duration`; the
/// tree search runs the first thread count for `duration` and every other
/// one for the same number of playouts (equal work, equal tree). With more
/// than one thread count, separate one-thread searches follow, as many at
/// once as threads: the ceiling the hardware sets for the shared search.
pub fn bench_lines(plan: &BenchPlan) -> Vec<String> {
    let threads = &plan.threads;
    let mut lines = Vec::new();
    for &size in &plan.sizes {
        for &kind in &plan.kinds {
            let params = Params::tuned(size, kind, &plan.tuning);
            let mut measures = vec![Measure::Search];
            if !plan.search_only {
                measures.insert(0, Measure::Raw);
            }
            if threads.len() > 1 {
                measures.push(Measure::SeparateTrees);
            }
            for measure in measures {
                let mut best = vec![0.0f64; threads.len()];
                // Playout length: a policy change that lengthens playouts
                // costs speed without any slower code.
                let mut length = vec![0.0f64; threads.len()];
                let mut budget: Option<u64> = None;
                // Per thread count, the ratio to the first thread count
                // within each round.
                let mut round_ratios = vec![Vec::new(); threads.len()];
                for _ in 0..plan.repeat.max(1) {
                    let mut first_rate = 0.0;
                    for (k, &t) in threads.iter().enumerate() {
                        let r = match measure {
                            Measure::Raw => playouts_per_second(size, kind, t, plan.duration, 1),
                            Measure::Search => {
                                let b = if k == 0 { None } else { budget };
                                let r = search_playouts_per_second(
                                    size,
                                    &params,
                                    t,
                                    plan.duration,
                                    b,
                                    1,
                                );
                                if k == 0 {
                                    budget.get_or_insert(r.playouts.max(1));
                                }
                                r
                            }
                            Measure::SeparateTrees => {
                                separate_searches(size, &params, t, plan.duration)
                            }
                        };
                        if k == 0 {
                            first_rate = r.per_second();
                        }
                        round_ratios[k].push(r.per_second() / first_rate.max(f64::MIN_POSITIVE));
                        if r.per_second() > best[k] {
                            best[k] = r.per_second();
                            length[k] = r.moves as f64 / r.playouts.max(1) as f64;
                        }
                    }
                }
                let label = measure.label();
                for (k, &t) in threads.iter().enumerate() {
                    let rate = best[k];
                    let ratio = rate / best[0].max(f64::MIN_POSITIVE);
                    let mut line = format!(
                        "{size}x{size} {kind:?} {label} threads={t} playouts/s={rate:.0} ratio_vs_first={ratio:.2}"
                    );
                    if round_ratios[k].len() > 1 {
                        line += &format!(" median_round_ratio={:.2}", median(&mut round_ratios[k]));
                    }
                    if measure == Measure::Raw {
                        line += &format!(" moves/playout={:.1}", length[k]);
                    }
                    lines.push(line);
                }
            }
        }
    }
    lines
}

/// The middle value (the mean of the two middle ones for an even count).
fn median(values: &mut [f64]) -> f64 {
    values.sort_by(f64::total_cmp);
    match values.len() {
        0 => 0.0,
        n if n % 2 == 1 => values[n / 2],
        n => (values[n / 2 - 1] + values[n / 2]) / 2.0,
    }
}

#[cfg(test)]
mod tests {
    use super::median;

    #[test]
    fn the_median_is_the_middle_round_or_the_mean_of_the_two_middle_ones() {
        assert_eq!(median(&mut [1.9, 1.6, 2.1]), 1.9);
        assert_eq!(median(&mut [2.0, 1.7, 1.8, 1.6]), 1.75);
        assert_eq!(median(&mut []), 0.0);
    }
}
