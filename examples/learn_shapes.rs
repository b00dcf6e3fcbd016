//! Counts the 3×3 shapes of `ishi::search::shapes` in game records: for
//! every move of every game, the shape of the move played and the shape of
//! every other legal move. Writes `shapes.txt` to stdout and, on stderr,
//! how well the counts predict the moves of games held out of the count.
//!
//!     cargo run --release --example learn_shapes -- DIR... > src/search/shapes.txt
//!
//! With `--large` first, it counts the large shapes (the 3×3 shape and the
//! four points two steps out) instead, and judges them together with the
//! shipped 3×3 counts:
//!
//!     cargo run --release --example learn_shapes -- --large DIR... > src/search/large_shapes.txt
//!
//! Every tenth file (in sorted path order) is held out. Files that do not
//! read as a game are skipped and counted.

use ishi::board::{Board, Color, Point};
use ishi::search::shapes::{
    canonical, large_canonical, large_key, parse_counts, shape_key, LargeShapeTable, ShapeCount,
    ShapeTable, KEY_BITS,
};
use rayon::prelude::*;
use records::{candidates, held_out_and_training, positions};
use std::collections::HashMap;
use std::path::PathBuf;

#[path = "common/records.rs"]
mod records;

/// Shapes seen as a legal move fewer times than this are left out of the
/// file (they read as average, or as their 3×3 core).
const MIN_AVAILABLE: u64 = 20;
/// Large shapes must also have been played this often to be kept: one
/// never played is told well enough by its 3×3 core, and the file stays
/// small.
const MIN_CHOSEN_LARGE: u64 = 3;

/// Moves played with a shape, and legal moves with it, per canonical key.
#[derive(Default)]
struct Counts {
    seen: HashMap<u32, (u64, u64)>,
    files: usize,
    skipped: usize,
}

impl Counts {
    fn merge(mut self, other: Counts) -> Counts {
        for (k, (c, a)) in other.seen {
            let e = self.seen.entry(k).or_default();
            e.0 += c;
            e.1 += a;
        }
        self.files += other.files;
        self.skipped += other.skipped;
        self
    }
}

/// The strength of a move's shape.
type Judge = dyn Fn(&Board, Color, Point) -> u8 + Sync;

/// Which shapes to count: the raw key of a move and its canonical form.
struct Kind {
    key: fn(&Board, Color, Point) -> u32,
    canonical: Box<dyn Fn(u32) -> u32 + Sync>,
}

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let large = args.first().is_some_and(|a| a == "--large");
    if large {
        args.remove(0);
    }
    let dirs: Vec<PathBuf> = args.into_iter().map(PathBuf::from).collect();
    if dirs.is_empty() {
        eprintln!("usage: learn_shapes [--large] DIR... > shapes.txt");
        std::process::exit(2);
    }
    let (held_out, training) = held_out_and_training(&dirs);
    let kind = if large {
        Kind {
            key: large_key,
            canonical: Box::new(large_canonical),
        }
    } else {
        let canon: Vec<u32> = (0..1u32 << KEY_BITS)
            .into_par_iter()
            .map(canonical)
            .collect();
        Kind {
            key: shape_key,
            canonical: Box::new(move |k| canon[k as usize]),
        }
    };

    let counts = training
        .par_iter()
        .fold(Counts::default, |mut acc, path| {
            let mut moves = Vec::new();
            let ok = positions(path, &mut |game, c, played| {
                let b = game.board();
                candidates(game, c, &mut moves);
                if !moves.contains(&played) {
                    return;
                }
                for &p in &moves {
                    acc.seen
                        .entry((kind.canonical)((kind.key)(b, c, p)))
                        .or_default()
                        .1 += 1;
                }
                acc.seen
                    .entry((kind.canonical)((kind.key)(b, c, played)))
                    .or_default()
                    .0 += 1;
            });
            if ok {
                acc.files += 1;
            } else {
                acc.skipped += 1;
            }
            acc
        })
        .reduce(Counts::default, Counts::merge);

    let least_chosen = if large { MIN_CHOSEN_LARGE } else { 0 };
    let mut shapes: Vec<ShapeCount> = counts
        .seen
        .iter()
        .filter(|(_, &(c, a))| a >= MIN_AVAILABLE && c >= least_chosen)
        .map(|(&key, &(chosen, available))| ShapeCount {
            key,
            chosen,
            available,
        })
        .collect();
    shapes.sort_by_key(|s| s.key);
    let total_chosen: u64 = counts.seen.values().map(|v| v.0).sum();
    if large {
        println!("# Large shapes (3x3 with atari marks, then the four points two steps out), seen from the player to move (ishi::search::shapes).");
        println!(
            "# Counted by examples/learn_shapes.rs --large over {} game records ({} moves); shapes seen fewer than {} times or played fewer than {} left out.",
            counts.files, total_chosen, MIN_AVAILABLE, MIN_CHOSEN_LARGE
        );
    } else {
        println!(
            "# 3x3 shapes with atari marks, seen from the player to move (ishi::search::shapes)."
        );
        println!(
            "# Counted by examples/learn_shapes.rs over {} game records ({} moves); shapes seen fewer than {} times left out.",
            counts.files, total_chosen, MIN_AVAILABLE
        );
    }
    println!("# key (hex, canonical) / moves played with this shape / legal moves with this shape");
    for s in &shapes {
        println!("{:05x} {} {}", s.key, s.chosen, s.available);
    }
    eprintln!(
        "training: {} files read, {} skipped, {} moves, {} shapes kept",
        counts.files,
        counts.skipped,
        total_chosen,
        shapes.len()
    );

    // How often the strongest shape is the move played, on games not counted.
    let strength: Box<Judge> = if large {
        let small = parse_counts(include_str!("../src/search/shapes.txt"), KEY_BITS)
            .expect("the shipped shapes.txt parses");
        let table = LargeShapeTable::from_counts(ishi::search::shapes::table(), &small, &shapes);
        Box::new(move |b, c, p| table.strength(large_key(b, c, p)))
    } else {
        let table = ShapeTable::from_counts(&shapes);
        Box::new(move |b, c, p| table.strength(shape_key(b, c, p)))
    };
    let (positions_seen, top, uniform) = held_out
        .par_iter()
        .map(|path| {
            let mut moves = Vec::new();
            let (mut n, mut top, mut uniform) = (0u64, 0f64, 0f64);
            positions(path, &mut |game, c, played| {
                let b = game.board();
                candidates(game, c, &mut moves);
                if !moves.contains(&played) {
                    return;
                }
                let strength = |p: Point| strength(b, c, p);
                let best = moves.iter().map(|&p| strength(p)).max().unwrap_or(0);
                let ties = moves.iter().filter(|&&p| strength(p) == best).count();
                if strength(played) == best {
                    top += 1.0 / ties as f64;
                }
                uniform += 1.0 / moves.len() as f64;
                n += 1;
            });
            (n, top, uniform)
        })
        .reduce(|| (0, 0.0, 0.0), |a, b| (a.0 + b.0, a.1 + b.1, a.2 + b.2));
    eprintln!(
        "held out: {} files, {} moves; the strongest shape is the move played {:.1}% of the time (a random legal move: {:.1}%)",
        held_out.len(),
        positions_seen,
        100.0 * top / positions_seen.max(1) as f64,
        100.0 * uniform / positions_seen.max(1) as f64
    );
}
