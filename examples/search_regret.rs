//! How good the moves of a short search are, judged by a long one: from
//! positions of finished games, a reference search of many playouts
//! (100,000 by default, book off, no early stop) values every move it
//! tried, and then each tuning given searches the same positions with
//! the match budget (5,000 playouts) and is charged the reference's
//! win rate of its best move less that of the move it chose (the
//! regret). A chosen move the reference tried fewer than 50 times is
//! valued by one more reference search, of the position after it. Matches need hundreds of games to see a change of a few
//! points of win rate; this asks the question move by move.
//!
//!     cargo run --release --example search_regret -- [--positions 600] [--playouts 5000] \
//!         [--reference 100000] [--cache FILE] [--reseed] [--tune a=1] ... DIR...
//!
//! The positions are those before moves 10, 20, 30, 40 and 50 of the
//! records, spread over the games by a fixed shuffle. The reference
//! searches take long (seconds each); with `--cache FILE` they are read
//! from FILE when it holds them for the same positions and reference
//! budget, and written there otherwise. The first line of output is the
//! default; each `--tune` adds one (with how many of its moves needed a
//! search of their own), with its difference from the default
//! on the same positions and the standard error of that difference;
//! `--reseed` adds the default again with other random seeds, to show
//! how far chance alone moves a line.
//!
//! The reference is ishi itself searching longer, so the measure judges
//! a tuning by what a deeper search of the default believes: it can
//! favour tunings that think like the default.

use ishi::board::coord::move_name;
use ishi::board::{Color, Move};
use ishi::game::Game;
use ishi::search::{Decision, Limits, PlayoutKind, SearchConfig, Searcher, Tuning};
use rayon::prelude::*;
use records::{replay, sorted_sgf_files};
use reference_cache::{cache_line, read_cache, Valued};
use stats::paired_difference;
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

#[path = "common/records.rs"]
#[allow(dead_code)]
mod records;
#[path = "common/reference_cache.rs"]
mod reference_cache;
#[path = "common/stats.rs"]
mod stats;

/// Plies before which positions are taken.
const PLIES: [usize; 5] = [10, 20, 30, 40, 50];
/// Reference visits below which a move's win rate is too uncertain to
/// judge a choice by: such a move gets a reference search of its own.
const MIN_VISITS: u64 = 50;

struct Position {
    /// `file:ply`, the key of the reference cache.
    name: String,
    game: Game,
    to_move: Color,
}

fn positions_of(path: &PathBuf, out: &mut Vec<Position>) {
    let Ok(bytes) = std::fs::read(path) else {
        return;
    };
    replay(&String::from_utf8_lossy(&bytes), &mut |k, game, _, _| {
        if PLIES.contains(&k) {
            out.push(Position {
                name: format!("{}:{k}", path.display()),
                game: game.clone(),
                to_move: game.to_move(),
            });
        }
    });
}

fn searcher(playouts: u64, tuning: &Tuning, seed: u64) -> Searcher {
    Searcher::new(SearchConfig {
        threads: 1,
        playouts: Some(playouts),
        playout: PlayoutKind::Heavy,
        seed,
        resign_threshold: 0.0,
        tuning: tuning.clone(),
        ..SearchConfig::default()
    })
}

fn search(
    game: &Game,
    to_move: Color,
    playouts: u64,
    tuning: &Tuning,
    seed: u64,
) -> (Move, Valued) {
    let mut s = searcher(playouts, tuning, seed);
    let outcome = s.genmove(game, to_move, &Limits::default(), &AtomicBool::new(false));
    let chosen = match outcome.decision {
        Decision::Play(m) => m,
        Decision::Resign => Move::Pass,
    };
    let valued = outcome
        .snapshot
        .candidates
        .iter()
        .map(|c| (c.mv, c.visits, c.winrate))
        .collect();
    (chosen, valued)
}

/// The reference's win rate of `chosen`, when it tried the move often
/// enough to say.
fn judged_rate(valued: &[(Move, u64, f64)], chosen: Move) -> Option<f64> {
    let (_, visits, rate) = valued.iter().find(|(m, _, _)| *m == chosen)?;
    (*visits >= MIN_VISITS).then_some(*rate)
}

/// Reference searches still missing from `cache` for `jobs` (cache key,
/// position, side to move), run in parallel, added to `cache` and
/// appended to the cache file.
fn run_references(
    jobs: Vec<(String, Game, Color)>,
    cache: &mut HashMap<String, Valued>,
    path: Option<&PathBuf>,
    budget: u64,
    size: usize,
) {
    let jobs: Vec<_> = jobs
        .into_iter()
        .filter(|(name, _, _)| !cache.contains_key(name))
        .collect();
    if jobs.is_empty() {
        return;
    }
    let started = Instant::now();
    let reference_tuning = Tuning::parse("book=0,early_stop=0").unwrap_or_default();
    let fresh: Vec<(String, Valued)> = jobs
        .into_par_iter()
        .map(|(name, game, color)| {
            let valued = search(&game, color, budget, &reference_tuning, 1).1;
            (name, valued)
        })
        .collect();
    eprintln!(
        "{} reference searches took {:.0}s",
        fresh.len(),
        started.elapsed().as_secs_f64()
    );
    if let Some(path) = path {
        use std::io::Write;
        let lines: Vec<String> = fresh
            .iter()
            .map(|(name, v)| cache_line(name, budget, v, size))
            .collect();
        let written = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .and_then(|mut f| writeln!(f, "{}", lines.join("\n")));
        if let Err(e) = written {
            eprintln!("cannot write {}: {e}", path.display());
        }
    }
    cache.extend(fresh);
}

fn main() {
    let mut count = 600;
    let mut playouts = 5000;
    let mut reference = 100_000;
    let mut cache_path = None;
    // Name, tuning, and the base of the searches' seeds.
    let mut tunings = vec![(String::from("default"), String::new(), 1000)];
    let mut dirs = Vec::new();
    let mut args = std::env::args().skip(1);
    let number =
        |a: Option<String>, default: u64| a.and_then(|n| n.parse().ok()).unwrap_or(default);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--positions" => count = number(args.next(), 600) as usize,
            "--playouts" => playouts = number(args.next(), 5000),
            "--reference" => reference = number(args.next(), 100_000),
            "--cache" => cache_path = args.next().map(PathBuf::from),
            "--tune" => {
                let text = args.next().unwrap_or_default();
                tunings.push((text.clone(), text, 1000));
            }
            "--reseed" => tunings.push(("default, other seeds".into(), String::new(), 2000)),
            _ => dirs.push(PathBuf::from(a)),
        }
    }
    let tunings: Vec<(String, Tuning, u64)> = tunings
        .into_iter()
        .map(|(name, text, seeds)| {
            let full = if text.is_empty() {
                String::from("book=0")
            } else {
                format!("book=0,{text}")
            };
            match Tuning::parse(&full) {
                Ok(t) => (name, t, seeds),
                Err(e) => {
                    eprintln!("--tune {text}: {e}");
                    std::process::exit(2);
                }
            }
        })
        .collect();
    let files = sorted_sgf_files(&dirs);
    let mut positions = Vec::new();
    for f in &files {
        positions_of(f, &mut positions);
    }
    let Some(size) = positions.first().map(|p| p.game.size()) else {
        eprintln!("no positions: give directories of finished game records");
        std::process::exit(2);
    };
    positions.retain(|p| p.game.size() == size);
    // A fixed shuffle (by a hash of the name) spreads the chosen positions
    // over all the games and plies.
    let scramble = |name: &str| {
        name.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
            (h ^ b as u64).wrapping_mul(0x100_0000_01b3)
        })
    };
    positions.sort_by_key(|p| scramble(&p.name));
    positions.truncate(count);

    let mut cache = cache_path
        .as_ref()
        .map(|p| read_cache(p, reference, size))
        .unwrap_or_default();
    let jobs = positions
        .iter()
        .map(|p| (p.name.clone(), p.game.clone(), p.to_move))
        .collect();
    eprintln!(
        "{} positions ({size}x{size}), reference searches at {reference} playouts",
        positions.len()
    );
    run_references(jobs, &mut cache, cache_path.as_ref(), reference, size);

    println!(
        "{:<40} {:>8} {:>8} {:>8} {:>18}",
        "tuning", "regret", "agrees", "followed", "vs default (se)"
    );
    let mut baseline: Option<Vec<Option<f64>>> = None;
    for (name, tuning, seeds) in &tunings {
        let chosen: Vec<Move> = positions
            .par_iter()
            .enumerate()
            .map(|(k, p)| search(&p.game, p.to_move, playouts, tuning, seeds + k as u64).0)
            .collect();
        // A move the reference hardly tried is valued by a reference
        // search of the position after it.
        let follow_name = |p: &Position, m: Move| format!("{}|{}", p.name, move_name(m, size));
        let mut follow_ups = Vec::new();
        for (p, &m) in positions.iter().zip(&chosen) {
            let valued = cache.get(&p.name).map_or(&[][..], Vec::as_slice);
            if judged_rate(valued, m).is_none() {
                let mut after = p.game.clone();
                if after.play(p.to_move, m).is_ok() {
                    follow_ups.push((follow_name(p, m), after, p.to_move.opponent()));
                }
            }
        }
        let followed = follow_ups.len();
        run_references(follow_ups, &mut cache, cache_path.as_ref(), reference, size);
        let regrets: Vec<(Option<f64>, bool)> = positions
            .iter()
            .zip(&chosen)
            .map(|(p, &m)| {
                let Some(valued) = cache.get(&p.name) else {
                    return (None, false);
                };
                let Some(best) = valued.first() else {
                    return (None, false);
                };
                let rate = judged_rate(valued, m).or_else(|| {
                    let reply = cache.get(&follow_name(p, m))?.first()?;
                    Some(1.0 - reply.2)
                });
                (rate.map(|r| best.2 - r), best.0 == m)
            })
            .collect();
        let judged: Vec<f64> = regrets.iter().filter_map(|r| r.0).collect();
        let mean = judged.iter().sum::<f64>() / judged.len().max(1) as f64;
        let agrees = regrets.iter().filter(|r| r.1).count() as f64 / regrets.len() as f64;
        let own: Vec<Option<f64>> = regrets.iter().map(|r| r.0).collect();
        let paired = match &baseline {
            None => String::from("-"),
            Some(base) => {
                let d: Vec<f64> = own
                    .iter()
                    .zip(base)
                    .filter_map(|(a, b)| Some((*a)? - (*b)?))
                    .collect();
                paired_difference(&d)
            }
        };
        baseline.get_or_insert(own);
        println!("{name:<40} {mean:>8.4} {agrees:>8.3} {followed:>8} {paired:>18}");
    }
}
