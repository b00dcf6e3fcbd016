//! How well the playouts judge real positions: from positions of finished
//! games (by default moves 20, 30 and 40 of each record), runs playouts
//! with each given tuning and compares the share Black won with who won
//! the game. The measure is the mean squared error of that share against
//! the result (1 for Black, 0 for White, 0.5 for a draw), the quantity
//! simulation balancing (Silver & Tesauro 2009) makes small: a search
//! built on playouts that judge positions better should need fewer of
//! them. Every tuning plays the same positions with the same random seeds.
//!
//!     cargo run --release --example playout_accuracy -- [--at 20,30,40] [--playouts 64] \
//!         [--light] [--tune a=1] [--tune b=2] ... DIR...
//!
//! The first line of output is the default (heavy) policy; `--light` and
//! each `--tune` add one line. A record's result is only as good as the players who finished
//! the game, so the figures compare policies with each other on the same
//! records rather than measure any one of them.

use ishi::search::params::Params;
use ishi::search::playout::PlayoutScratch;
use ishi::search::{PlayoutKind, Tuning};
use rand::SeedableRng;
use rayon::prelude::*;
use records::sorted_sgf_files;
use samples::{play_one, samples_of, Sample};
use stats::paired_difference;
use std::path::PathBuf;
use std::time::Instant;

#[path = "common/records.rs"]
#[allow(dead_code)]
mod records;
#[path = "common/samples.rs"]
#[allow(dead_code)]
mod samples;
#[path = "common/stats.rs"]
mod stats;

/// Black's share of `playouts` playouts from each sample, and the
/// playouts' moves in all.
fn judge(samples: &[Sample], params: &Params, playouts: usize) -> (Vec<f64>, u64) {
    let style = params.playout_style(true);
    let judged: Vec<(f64, u64)> = samples
        .par_iter()
        .enumerate()
        .map_init(PlayoutScratch::default, |scratch, (k, s)| {
            let mut rng = rand::rngs::SmallRng::seed_from_u64(k as u64);
            let mut board = s.board.clone();
            let mut record = Vec::new();
            let (mut black_wins, mut moves) = (0.0, 0);
            for _ in 0..playouts {
                let (z, n) = play_one(s, style, &mut rng, scratch, &mut board, &mut record);
                black_wins += z;
                moves += n as u64;
            }
            (black_wins / playouts as f64, moves)
        })
        .collect();
    let moves = judged.iter().map(|j| j.1).sum();
    (judged.into_iter().map(|j| j.0).collect(), moves)
}

fn main() {
    let mut at = vec![20, 30, 40];
    let mut playouts = 64;
    let mut tunings = vec![("default".to_string(), Tuning::default(), PlayoutKind::Heavy)];
    let mut dirs = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--at" => {
                let list = args.next().unwrap_or_default();
                at = list
                    .split(',')
                    .filter_map(|n| n.trim().parse().ok())
                    .collect();
            }
            "--playouts" => {
                playouts = args.next().and_then(|n| n.parse().ok()).unwrap_or(64);
            }
            "--tune" => {
                let text = args.next().unwrap_or_default();
                match Tuning::parse(&text) {
                    Ok(t) => tunings.push((text, t, PlayoutKind::Heavy)),
                    Err(e) => {
                        eprintln!("--tune {text}: {e}");
                        std::process::exit(2);
                    }
                }
            }
            "--light" => tunings.push(("light".into(), Tuning::default(), PlayoutKind::Light)),
            _ => dirs.push(PathBuf::from(a)),
        }
    }
    let files = sorted_sgf_files(&dirs);
    let mut samples = Vec::new();
    for f in &files {
        samples_of(f, &at, &mut samples);
    }
    if samples.is_empty() {
        eprintln!("no positions: give directories of finished 9x9 records");
        std::process::exit(2);
    }
    let size = samples[0].board.size();
    samples.retain(|s| s.board.size() == size);
    eprintln!(
        "{} positions from {} files, {size}x{size}, {playouts} playouts each",
        samples.len(),
        files.len()
    );
    print!("{:<40} {:>8}", "tuning", "mse");
    for k in &at {
        print!(" {:>8}", format!("mse@{k}"));
    }
    println!(
        " {:>8} {:>16} {:>10}",
        "right", "vs default (se)", "moves/s"
    );
    let mut baseline: Option<Vec<f64>> = None;
    for (name, tuning, kind) in &tunings {
        let params = Params::tuned(size, *kind, tuning);
        let started = Instant::now();
        let (judged, moves) = judge(&samples, &params, playouts);
        let seconds = started.elapsed().as_secs_f64();
        let error = |keep: &dyn Fn(&Sample) -> bool| {
            let (sum, n) = samples
                .iter()
                .zip(&judged)
                .filter(|(s, _)| keep(s))
                .fold((0.0, 0), |(sum, n), (s, j)| {
                    (sum + (j - s.result).powi(2), n + 1)
                });
            sum / n.max(1) as f64
        };
        let right = samples
            .iter()
            .zip(&judged)
            .filter(|(s, j)| s.result != 0.5 && (**j > 0.5) == (s.result > 0.5))
            .count() as f64
            / samples.len() as f64;
        print!("{name:<40} {:>8.4}", error(&|_| true));
        for &k in &at {
            print!(" {:>8.4}", error(&|s| s.ply == k));
        }
        // Each position's squared error against the default's on the same
        // position: the paired difference and its standard error.
        let squared: Vec<f64> = samples
            .iter()
            .zip(&judged)
            .map(|(s, j)| (j - s.result).powi(2))
            .collect();
        let paired = match &baseline {
            None => String::from("-"),
            Some(base) => {
                let d: Vec<f64> = squared.iter().zip(base).map(|(a, b)| a - b).collect();
                paired_difference(&d)
            }
        };
        baseline.get_or_insert(squared);
        println!(
            " {right:>8.3} {paired:>16} {:>10.0}",
            moves as f64 / seconds
        );
    }
}
