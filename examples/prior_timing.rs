//! Times the tree priors (`children_with_priors`) over the positions of
//! game records: the work of one expansion, alone.
//!
//!     cargo run --release --example prior_timing -- ROUNDS FILE.sgf...
use ishi::board::Board;
use ishi::rules::Rules;
use ishi::search::policy::{children_with_priors, LadderScratch, Priors, Recent};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let rounds: usize = args[0].parse().expect("rounds");
    let mut positions: Vec<(Board, ishi::board::Color, Recent)> = Vec::new();
    for path in &args[1..] {
        let text = std::fs::read_to_string(path).expect("read");
        for n in (0..60).step_by(3) {
            let Ok(game) = ishi::sgf::read_game(&text, Some(n), &Rules::default()) else {
                continue;
            };
            let c = game.to_move();
            positions.push((game.board().clone(), c, Recent::before(&game, c)));
        }
    }
    let priors = Priors::for_size(9);
    let mut out = Vec::new();
    let mut ladder = LadderScratch::default();
    let mut check = 0u64;
    let start = Instant::now();
    let cpu_start = cpu_ns();
    for _ in 0..rounds {
        for (b, c, r) in &positions {
            children_with_priors(b, *c, *r, &priors, |_| true, &mut out, &mut ladder);
            check = out.iter().fold(check, |a, ch| {
                a.wrapping_mul(31).wrapping_add(
                    ch.prior_wins as u64 * 7 + ch.prior_visits as u64 + ch.policy as u64,
                )
            });
        }
    }
    // Time on the CPU where Linux tells it: steadier than the clock on a
    // shared machine.
    let secs = match (cpu_start, cpu_ns()) {
        (Some(a), Some(b)) => (b - a) as f64 * 1e-9,
        _ => start.elapsed().as_secs_f64(),
    };
    println!(
        "{} positions x {} rounds: {:.3} s, {:.2} us a position, check {:x}",
        positions.len(),
        rounds,
        secs,
        secs * 1e6 / (positions.len() * rounds) as f64,
        check
    );
}

/// This thread's time on the CPU so far (Linux), in nanoseconds.
fn cpu_ns() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    text.split_whitespace().next()?.parse().ok()
}
