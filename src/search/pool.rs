//! The worker threads: one rayon pool per thread count, built the first
//! time that count is asked for and kept, so a search (one per move, or
//! many per second in analysis) starts its workers without spawning any.

use rayon::{ThreadPool, ThreadPoolBuilder};
use std::sync::{Arc, Mutex, OnceLock};

/// The pools built so far, with their thread counts.
type Pools = Vec<(usize, Arc<ThreadPool>)>;

fn pool(threads: usize) -> Option<Arc<ThreadPool>> {
    static POOLS: OnceLock<Mutex<Pools>> = OnceLock::new();
    let mut pools = POOLS
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    if let Some((_, p)) = pools.iter().find(|(n, _)| *n == threads) {
        return Some(Arc::clone(p));
    }
    let built = ThreadPoolBuilder::new()
        .num_threads(threads)
        .thread_name(move |i| format!("ishi-{threads}-{i}"))
        .build();
    match built {
        Ok(p) => {
            let p = Arc::new(p);
            pools.push((threads, Arc::clone(&p)));
            Some(p)
        }
        Err(e) => {
            log::warn!("cannot start {threads} worker threads ({e}); working on one");
            None
        }
    }
}

/// Runs `work(t)` for every `t` in `0..threads`, all at the same time on
/// the pool's threads, and returns the results in the order of `t`.
///
/// Workers of one search run until a shared condition ends them, so running
/// them one after another (the fallback when threads cannot be started)
/// does the same work on one core: the first does it all.
pub fn on_threads<R: Send>(threads: usize, work: impl Fn(usize) -> R + Sync) -> Vec<R> {
    let threads = threads.max(1);
    match pool(threads) {
        Some(p) => p.broadcast(|ctx| work(ctx.index())),
        None => (0..threads).map(work).collect(),
    }
}

/// The generator seed of worker `t` in a run seeded with `seed`: distinct
/// per worker, and worker 0's differs from `seed` itself.
pub fn worker_seed(seed: u64, t: usize) -> u64 {
    seed ^ (t as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;
    use std::sync::Barrier;

    #[test]
    fn every_index_runs_once_on_its_own_thread_at_the_same_time() {
        for threads in [1, 2, 3] {
            // The barrier is passed only when all `threads` run at once.
            let barrier = Barrier::new(threads);
            let seen = on_threads(threads, |t| {
                barrier.wait();
                (t, std::thread::current().id())
            });
            let indices: Vec<usize> = seen.iter().map(|s| s.0).collect();
            assert_eq!(indices, (0..threads).collect::<Vec<_>>());
            let ids: HashSet<_> = seen.iter().map(|s| s.1).collect();
            assert_eq!(ids.len(), threads);
        }
    }

    #[test]
    fn the_pool_is_kept_between_calls() {
        let first = on_threads(2, |_| std::thread::current().id());
        let second = on_threads(2, |_| std::thread::current().id());
        let first: HashSet<_> = first.into_iter().collect();
        assert!(second.iter().all(|id| first.contains(id)));
    }
}
