//! Strength against GNU Go 3.8 (`gnugo --mode gtp --level 10 --chinese-rules`).
//!
//! Ignored by default: a match takes minutes to hours. Run it with
//!
//! ```text
//! ISHI_GAMES=100 ISHI_SIZE=9 ISHI_PLAYOUTS=5000 ISHI_KOMI=7 ISHI_THREADS=2 \
//!     cargo test --release --test strength -- --ignored --nocapture
//! ```
//!
//! Other knobs: `ISHI_LEVEL` (GNU Go level, 10), `ISHI_PLAYOUT` (heavy or
//! light), `ISHI_SEED`, `ISHI_MINUTES` (start no new game after this long). Colours alternate, ishi taking Black in the first
//! game. A game ends on a resignation or after two passes, when GNU Go's
//! `final_score` referees. Each result is printed as it comes, then the win
//! rate with a 95% Wilson interval.

mod common;

use common::{play_game, wilson, MatchConfig};
use ishi::board::Color;
use ishi::search::PlayoutKind;

fn env<T: std::str::FromStr>(name: &str, default: T) -> T {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

#[test]
#[ignore]
fn match_against_gnugo() {
    let games: usize = env("ISHI_GAMES", 10);
    let cfg = MatchConfig {
        size: env("ISHI_SIZE", 9),
        komi: env("ISHI_KOMI", 7.0),
        playouts: env("ISHI_PLAYOUTS", 5000),
        threads: env("ISHI_THREADS", 2),
        level: env("ISHI_LEVEL", 10),
        playout: match std::env::var("ISHI_PLAYOUT").as_deref() {
            Ok("light") => PlayoutKind::Light,
            _ => PlayoutKind::Heavy,
        },
        seed: env("ISHI_SEED", 1),
    };
    println!(
        "ishi vs GNU Go level {}: {}x{} komi {} {} playouts/move {} threads {:?} playouts",
        cfg.level, cfg.size, cfg.size, cfg.komi, cfg.playouts, cfg.threads, cfg.playout
    );
    let minutes: f64 = env("ISHI_MINUTES", f64::INFINITY);
    let start = std::time::Instant::now();
    let (mut wins, mut played) = (0, 0);
    for g in 0..games {
        if start.elapsed().as_secs_f64() > 60.0 * minutes {
            println!("time is up after {played} games");
            break;
        }
        let ishi = if g % 2 == 0 {
            Color::Black
        } else {
            Color::White
        };
        let cfg = MatchConfig {
            seed: cfg.seed.wrapping_add(g as u64),
            ..cfg
        };
        match play_game(&cfg, ishi) {
            Ok(record) => {
                played += 1;
                wins += record.ishi_won() as usize;
                println!(
                    "game {:3}: ishi {:?} {} in {} moves -> {}",
                    g + 1,
                    ishi,
                    record.result,
                    record.moves,
                    if record.ishi_won() { "win" } else { "loss" }
                );
            }
            Err(e) => println!("game {:3}: aborted: {e}", g + 1),
        }
    }
    let (lo, hi) = wilson(wins, played);
    println!(
        "ishi won {wins}/{played} = {:.1}% (95% Wilson interval {:.1}%..{:.1}%)",
        100.0 * wins as f64 / played.max(1) as f64,
        100.0 * lo,
        100.0 * hi
    );
}
