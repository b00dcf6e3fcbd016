//! Throughput figures, not a timed test: ignored by default. Run with
//!
//! ```text
//! ISHI_BENCH_SECONDS=5 cargo test --release --test search_bench -- --ignored --nocapture
//! ```
//!
//! It prints raw playouts per second and playouts per second inside the
//! tree search, on 9×9 and 19×19, light and heavy, with 1 and 2 threads.

use ishi::search::bench::{bench_lines, BenchPlan};
use ishi::search::PlayoutKind;
use std::time::Duration;

#[test]
#[ignore]
fn print_throughput() {
    let seconds: f64 = std::env::var("ISHI_BENCH_SECONDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(3.0);
    let sizes: Vec<usize> = std::env::var("ISHI_BENCH_SIZES")
        .ok()
        .map(|v| v.split(',').filter_map(|s| s.parse().ok()).collect())
        .unwrap_or(vec![9, 19]);
    let plan = BenchPlan {
        sizes,
        kinds: vec![PlayoutKind::Light, PlayoutKind::Heavy],
        threads: vec![1, 2],
        duration: Duration::from_secs_f64(seconds),
        repeat: 3,
        tuning: Default::default(),
        search_only: false,
    };
    for line in bench_lines(&plan) {
        println!("{line}");
    }
}
