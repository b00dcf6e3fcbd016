//! Trains the weights of the balanced shape stage
//! (`--tune playout_shapes_balanced=1`, see `src/search/balanced.rs`) by
//! simulation balancing (Silver & Tesauro 2009): for each position of
//! finished games, the share of playouts Black wins should be who won the
//! game. Each step runs `--value` playouts for that share V and, apart,
//! `--gradient` playouts for the gradient g of the expected result
//! (each playout's result less V, times the gradient of the log chance of
//! its shape choices), and moves the log weights by `rate * (result - V) * g`,
//! averaged over a batch of positions.
//!
//!     cargo run --release --example balance_shapes -- [--at 10,15,...,60] [--epochs 8] \
//!         [--rate 2] [--batch 256] [--value 16] [--gradient 16] [--start FILE] [--out FILE] \
//!         [--reference CACHE] [--target search] DIR...
//!
//! One game in five (by the seed in its file name, or its place in the
//! list) is held out; after each epoch the held-out positions are judged
//! with 64 playouts each, on fixed seeds, beside the default MoGo shapes,
//! and the table that judged them best is written to `--out`. With
//! `--reference`, the positions of a `search_regret` cache are judged too,
//! against the win rate the deep search found there rather than the
//! game's result (`--epochs 0 --start FILE` judges a table as it is).
//! `--target search` takes as the target, in place of the game's result,
//! the win rate ishi's own search gave its move in the match record, for
//! the position after each of ishi's moves between the first and last
//! plies of `--at` (the playouts learn to agree with a 5,000-playout
//! search rather than with how a game against GNU Go ended).

use ishi::search::balanced::{parse_log_weights, start_weight, ShapeTrace, ShapeWeights};
use ishi::search::params::Params;
use ishi::search::playout::{PlayoutScratch, PlayoutStyle};
use ishi::search::shapes::canonical;
use ishi::search::{PlayoutKind, Tuning};
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rayon::prelude::*;
use records::sorted_sgf_files;
use reference_cache::entries;
use samples::{play_one, samples_of, search_values, Sample};
use stats::paired_difference;
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;

#[path = "common/records.rs"]
#[allow(dead_code)]
mod records;
#[path = "common/reference_cache.rs"]
#[allow(dead_code)]
mod reference_cache;
#[path = "common/samples.rs"]
#[allow(dead_code)]
mod samples;
#[path = "common/stats.rs"]
mod stats;

/// Log weights by canonical key; keys never seen keep MoGo's start.
struct Theta {
    shapes: HashMap<u32, f64>,
    random: f64,
}

impl Theta {
    fn table(&self) -> Arc<ShapeWeights> {
        Arc::new(ShapeWeights::with_log_weights(
            self.shapes.iter().map(|(&k, &t)| (k, t)),
            self.random,
        ))
    }

    /// Continues from a written table.
    fn read(&mut self, text: &str) -> Result<(), String> {
        let (shapes, random) = parse_log_weights(text)?;
        self.shapes.extend(
            shapes
                .into_iter()
                .map(|(key, theta)| (canonical(key), theta)),
        );
        self.random = random;
        Ok(())
    }

    fn write(&self, path: &str, header: &str) -> std::io::Result<()> {
        let mut keys: Vec<_> = self
            .shapes
            .iter()
            .filter(|(&k, &t)| (t - (start_weight(k) as f64).ln()).abs() > 1e-3)
            .collect();
        keys.sort_by_key(|(&k, _)| k);
        let mut text = String::from(header);
        text += &format!("random {:.4}\n", self.random);
        for (k, t) in keys {
            text += &format!("{k:05x} {t:.4}\n");
        }
        std::fs::write(path, text)
    }
}

/// The game's seed from a match record's file name, else its place.
fn game_number(path: &std::path::Path, place: usize) -> usize {
    let name = path.file_stem().and_then(|s| s.to_str()).unwrap_or("");
    name.rsplit('-')
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or(place)
}

/// Black's share of 64 playouts from each sample, on fixed seeds.
fn judge(samples: &[&Sample], style: PlayoutStyle, table: Option<Arc<ShapeWeights>>) -> Vec<f64> {
    samples
        .par_iter()
        .enumerate()
        .map_init(
            || {
                let mut scratch = PlayoutScratch::default();
                scratch.balance = table.clone().map(|t| (t, ShapeTrace::default()));
                scratch
            },
            |scratch, (k, s)| {
                let mut rng = rand::rngs::SmallRng::seed_from_u64(k as u64);
                let (mut board, mut record) = (s.board.clone(), Vec::new());
                let mut wins = 0.0;
                for _ in 0..64 {
                    wins += play_one(s, style, &mut rng, scratch, &mut board, &mut record).0;
                }
                wins / 64.0
            },
        )
        .collect()
}

fn squared_errors(samples: &[&Sample], judged: &[f64]) -> Vec<f64> {
    samples
        .iter()
        .zip(judged)
        .map(|(s, j)| (j - s.result).powi(2))
        .collect()
}

/// The positions of a `search_regret` reference cache, each with its most
/// visited move's win rate, for Black, in place of the game's result.
/// File names are read from the current directory.
fn reference_samples(path: &str) -> Vec<Sample> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| {
        eprintln!("cannot read {path}: {e}");
        std::process::exit(2)
    });
    let mut out = Vec::new();
    for (name, valued) in entries(&text, None, 9) {
        // Follow-up searches of the position after a move are keyed `file:ply|move`.
        let Some((file, ply)) = name.rsplit_once(':').filter(|_| !name.contains('|')) else {
            continue;
        };
        let Ok(ply) = ply.parse::<usize>() else {
            continue;
        };
        let Some(&(_, _, rate)) = valued.iter().max_by_key(|&&(_, visits, _)| visits) else {
            continue;
        };
        let before = out.len();
        samples_of(&PathBuf::from(file), &[ply], &mut out);
        for s in &mut out[before..] {
            s.result = if s.to_move == ishi::board::Color::Black {
                rate
            } else {
                1.0 - rate
            };
        }
    }
    out
}

/// One position's step: `(result - V) * g`, by canonical key (`None` for
/// the random move).
fn step(
    s: &Sample,
    style: PlayoutStyle,
    scratch: &mut PlayoutScratch,
    canon: &mut HashMap<u32, u32>,
    seed: u64,
    (value_playouts, gradient_playouts): (usize, usize),
) -> HashMap<Option<u32>, f64> {
    let mut rng = rand::rngs::SmallRng::seed_from_u64(seed);
    let (mut board, mut record) = (s.board.clone(), Vec::new());
    let mut value = 0.0;
    for _ in 0..value_playouts {
        value += play_one(s, style, &mut rng, scratch, &mut board, &mut record).0;
    }
    value /= value_playouts as f64;
    let mut grad: HashMap<Option<u32>, f64> = HashMap::new();
    for _ in 0..gradient_playouts {
        let z = play_one(s, style, &mut rng, scratch, &mut board, &mut record).0;
        let weight = (s.result - value) * (z - value) / gradient_playouts as f64;
        if weight == 0.0 {
            continue;
        }
        if let Some((_, trace)) = scratch.balance.as_ref() {
            trace.score_function(&mut |key, amount| {
                let key = key.map(|k| *canon.entry(k).or_insert_with(|| canonical(k)));
                *grad.entry(key).or_insert(0.0) += weight * amount;
            });
        }
    }
    grad
}

fn main() {
    let mut at: Vec<usize> = (10..=60).step_by(5).collect();
    let (mut epochs, mut rate, mut batch) = (8usize, 2.0f64, 256usize);
    let (mut value_playouts, mut gradient_playouts) = (16usize, 16usize);
    let (mut out, mut start, mut reference) = (None, None, None);
    let mut search_target = false;
    let mut dirs = Vec::new();
    let mut args = std::env::args().skip(1);
    let number = |v: Option<String>, name: &str| -> f64 {
        v.and_then(|v| v.parse().ok()).unwrap_or_else(|| {
            eprintln!("{name} needs a number");
            std::process::exit(2)
        })
    };
    while let Some(a) = args.next() {
        match a.as_str() {
            "--at" => {
                at = args
                    .next()
                    .unwrap_or_default()
                    .split(',')
                    .filter_map(|n| n.trim().parse().ok())
                    .collect()
            }
            "--epochs" => epochs = number(args.next(), "--epochs") as usize,
            "--rate" => rate = number(args.next(), "--rate"),
            "--batch" => batch = (number(args.next(), "--batch") as usize).max(1),
            "--value" => value_playouts = (number(args.next(), "--value") as usize).max(1),
            "--gradient" => gradient_playouts = (number(args.next(), "--gradient") as usize).max(1),
            "--out" => out = args.next(),
            "--start" => start = args.next(),
            "--reference" => reference = args.next(),
            "--target" => search_target = args.next().as_deref() == Some("search"),
            _ => dirs.push(PathBuf::from(a)),
        }
    }
    let files = sorted_sgf_files(&dirs);
    let (mut train, mut held) = (Vec::new(), Vec::new());
    for (place, f) in files.iter().enumerate() {
        let into = if game_number(f, place).is_multiple_of(5) {
            &mut held
        } else {
            &mut train
        };
        if search_target {
            let Ok(text) = std::fs::read_to_string(f) else {
                continue;
            };
            let (low, high) = (at.iter().min(), at.iter().max());
            let values: HashMap<usize, f64> = search_values(&text)
                .into_iter()
                .filter(|&(k, _)| Some(&k) >= low && Some(&k) <= high)
                .collect();
            let plies: Vec<usize> = values.keys().copied().collect();
            let before = into.len();
            samples_of(f, &plies, into);
            for s in &mut into[before..] {
                s.result = values[&s.ply];
            }
        } else {
            samples_of(f, &at, into);
        }
    }
    train.retain(|s: &Sample| s.board.size() == 9);
    held.retain(|s: &Sample| s.board.size() == 9);
    if train.is_empty() || held.is_empty() {
        eprintln!("no positions: give directories of finished 9x9 records");
        std::process::exit(2);
    }
    eprintln!(
        "{} training and {} held-out positions from {} files",
        train.len(),
        held.len(),
        files.len()
    );
    let heavy = Params::tuned(9, PlayoutKind::Heavy, &Tuning::default());
    let mogo = heavy.playout_style(true);
    let balanced = PlayoutStyle {
        shapes: ishi::search::playout::ShapeChoice::Balanced,
        ..mogo
    };
    let held: Vec<&Sample> = held.iter().collect();
    let base = squared_errors(&held, &judge(&held, mogo, None));
    let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len() as f64;
    eprintln!("default MoGo shapes: held-out mse {:.4}", mean(&base));
    let deep = reference
        .map(|path| reference_samples(&path))
        .unwrap_or_default();
    let deep: Vec<&Sample> = deep.iter().collect();
    let deep_base = squared_errors(&deep, &judge(&deep, mogo, None));
    if !deep.is_empty() {
        eprintln!(
            "default MoGo shapes: mse {:.4} against {} deep searches' values",
            mean(&deep_base),
            deep.len()
        );
    }
    let mut theta = Theta {
        shapes: HashMap::new(),
        random: (ishi::search::balanced::RANDOM_START as f64).ln(),
    };
    if let Some(path) = &start {
        let text = std::fs::read_to_string(path).unwrap_or_else(|e| {
            eprintln!("cannot read {path}: {e}");
            std::process::exit(2)
        });
        if let Err(e) = theta.read(&text) {
            eprintln!("{path}: {e}");
            std::process::exit(2)
        }
    }
    let mut best = f64::INFINITY;
    let mut order: Vec<usize> = (0..train.len()).collect();
    let mut shuffle = rand::rngs::SmallRng::seed_from_u64(1);
    for epoch in 0..=epochs {
        if epoch > 0 {
            order.shuffle(&mut shuffle);
            for (b, chunk) in order.chunks(batch).enumerate() {
                let table = theta.table();
                let total = chunk
                    .par_iter()
                    .map_init(
                        || {
                            let mut scratch = PlayoutScratch::default();
                            scratch.balance = Some((table.clone(), ShapeTrace::default()));
                            (scratch, HashMap::new())
                        },
                        |(scratch, canon), &i| {
                            let seed = (epoch * 1_000_003 + i) as u64;
                            let playouts = (value_playouts, gradient_playouts);
                            step(&train[i], balanced, scratch, canon, seed, playouts)
                        },
                    )
                    .reduce(HashMap::new, |mut a, b| {
                        for (k, v) in b {
                            *a.entry(k).or_insert(0.0) += v;
                        }
                        a
                    });
                let scale = rate / chunk.len() as f64;
                for (key, g) in total {
                    match key {
                        None => theta.random += scale * g,
                        Some(k) => {
                            *theta
                                .shapes
                                .entry(k)
                                .or_insert_with(|| (start_weight(k) as f64).ln()) += scale * g
                        }
                    }
                }
                if b % 20 == 0 {
                    eprint!(".");
                }
            }
            eprintln!();
        }
        let errors = squared_errors(&held, &judge(&held, balanced, Some(theta.table())));
        let diff: Vec<f64> = errors.iter().zip(&base).map(|(a, b)| a - b).collect();
        let mse = mean(&errors);
        print!(
            "epoch {epoch}: held-out mse {mse:.4}, against MoGo {}, random {:.3}, {} shapes",
            paired_difference(&diff),
            theta.random,
            theta.shapes.len()
        );
        if !deep.is_empty() {
            let errors = squared_errors(&deep, &judge(&deep, balanced, Some(theta.table())));
            let diff: Vec<f64> = errors.iter().zip(&deep_base).map(|(a, b)| a - b).collect();
            print!(
                "; deep searches' values: mse {:.4}, against MoGo {}",
                mean(&errors),
                paired_difference(&diff)
            );
        }
        println!();
        if mse < best {
            best = mse;
            if let Some(path) = &out {
                let header = format!(
                    "# Log weights of the heavy playouts' balanced shape stage (ishi::search::balanced).\n\
                     # examples/balance_shapes.rs, epoch {epoch} of {epochs}, rate {rate}, batch {batch}, \
                     {value_playouts}+{gradient_playouts} playouts, plies {at:?}, {} training positions;\n\
                     # held-out mse {mse:.4} against MoGo shapes {:.4} ({} positions).\n",
                    train.len(),
                    mean(&base),
                    held.len()
                );
                if let Err(e) = theta.write(path, &header) {
                    eprintln!("cannot write {path}: {e}");
                }
            }
        }
    }
}
