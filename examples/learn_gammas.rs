//! Learns the playout move strengths of `ishi::search::gammas` from game
//! records: every move played is a win of the move chosen over every other
//! legal move of the position (Coulom's generalized Bradley-Terry model),
//! a move's strength is the product of its features' strengths, and the
//! strengths that make the moves played most likely are found by
//! minorization-maximization, one feature group at a time. Writes
//! `gammas.txt` to stdout and, on stderr, the likelihood at each round and
//! how well the strengths predict the moves of games held out.
//!
//!     cargo run --release --example learn_gammas -- [--files N] [--rounds R] DIR... > src/search/gammas.txt
//!
//! Every tenth file (in sorted path order) is held out; `--files` keeps
//! only the first N files of the rest. `--spatial N` adds a feature group
//! of large patterns (`ishi::search::spatial`): every pattern from d 4 to
//! d 10 that was the move played at least N times gets a strength, and a
//! move is described by the largest of them that it matches. `--reach D`
//! keeps only the patterns up to d D, so that the smaller ones learn
//! their strengths from every move they describe and not only from the
//! moves that no larger known pattern matched.

use ishi::board::{Color, Move, Point};
use ishi::game::Game;
use ishi::search::gammas::{features, Gammas, MoveFeatures, NEAR_CLASSES, TACTICS};
use ishi::search::shapes::{canonical, KEY_BITS};
use ishi::search::spatial::{self, SpatialTable, MIN_DISTANCE};
use rayon::prelude::*;
use records::{candidates, held_out_and_training, positions};
use std::collections::HashMap;
use std::path::PathBuf;

#[path = "common/records.rs"]
mod records;

/// Shapes seen as a legal move fewer times than this share one strength.
const MIN_AVAILABLE: u64 = 20;

/// The smallest strength written: a move seen often and never played
/// learns a strength near 0, which the table (and its log scale) cannot
/// hold.
const MIN_GAMMA: f64 = 1e-4;

/// One candidate move: the dense index of its shape, then its other
/// feature values.
#[derive(Clone, Copy)]
struct Candidate {
    shape: u32,
    tactic: u8,
    near_last: u8,
    near_own: u8,
    /// The index of its largest known large pattern, 0 for none.
    spatial: u32,
}

/// Every training position's candidates, the move played first.
#[derive(Default)]
struct Data {
    candidates: Vec<Candidate>,
    /// Where each position's candidates start; one more entry at the end.
    starts: Vec<usize>,
}

/// The placements before the position's move: the opponent's last move
/// and the mover's own previous one.
fn recent(game: &Game) -> (Option<Point>, Option<Point>) {
    let placed = |k: usize| {
        let plies = game.plies();
        plies.len().checked_sub(k).and_then(|i| match plies[i].mv {
            Move::Place(p) => Some(p),
            Move::Pass => None,
        })
    };
    (placed(1), placed(2))
}

/// Whose moves are learned from: everyone's, or only those of the player
/// of that name (SGF `PB`/`PW`), such as ishi's own in its match records.
#[derive(Clone, Copy)]
enum Learner<'a> {
    Everyone,
    Player(&'a str),
}

impl Learner<'_> {
    /// The colour whose moves count in the record at `path`; `None` for
    /// both, `Some(None)` for neither.
    fn colour_in(self, path: &std::path::Path) -> Option<Option<Color>> {
        let Learner::Player(name) = self else {
            return None;
        };
        let text = std::fs::read(path).ok()?;
        let text = String::from_utf8_lossy(&text);
        Some(if text.contains(&format!("PB[{name}]")) {
            Some(Color::Black)
        } else if text.contains(&format!("PW[{name}]")) {
            Some(Color::White)
        } else {
            None
        })
    }
}

/// A candidate's features and the index of its largest pattern in the
/// table of large patterns (0 when there is no table).
type Features = (MoveFeatures, u32);

/// The large-pattern keys of every move `learner` played in a file.
fn played_patterns(path: &std::path::Path, learner: Learner) -> Vec<spatial::Keys> {
    let mut out = Vec::new();
    let only = learner.colour_in(path);
    positions(path, &mut |game, c: Color, played| {
        if only.is_none_or(|colour| colour == Some(c)) {
            out.push(spatial::keys(game.board(), c, played));
        }
    });
    out
}

/// The features of every candidate of every position of a file whose
/// move `learner` made, the move played first; `None` for a file that
/// does not read as a game.
fn file_features(
    path: &std::path::Path,
    learner: Learner,
    patterns: Option<&SpatialTable>,
) -> Option<Vec<Vec<Features>>> {
    let mut out = Vec::new();
    let mut moves = Vec::new();
    let only = learner.colour_in(path);
    let ok = positions(path, &mut |game, c: Color, played| {
        if only.is_some_and(|colour| colour != Some(c)) {
            return;
        }
        candidates(game, c, &mut moves);
        if !moves.contains(&played) {
            return;
        }
        let (last, own) = recent(game);
        let b = game.board();
        let describe = |p: Point| {
            let pattern = patterns.map_or(0, |t| t.matched_at(b, c, p, spatial::MAX_DISTANCE));
            (features(b, c, p, last, own), pattern)
        };
        let mut position = vec![describe(played)];
        position.extend(moves.iter().filter(|&&p| p != played).map(|&p| describe(p)));
        out.push(position);
    });
    ok.then_some(out)
}

/// The strengths being learned, one vector per feature group, indexed by
/// [`Group`].
struct Model([Vec<f64>; 5]);

impl Model {
    fn weight(&self, c: &Candidate) -> f64 {
        GROUPS.iter().map(|&g| self.group(g)[g.of(c)]).product()
    }

    fn group(&self, g: Group) -> &Vec<f64> {
        &self.0[g as usize]
    }

    fn group_mut(&mut self, g: Group) -> &mut Vec<f64> {
        &mut self.0[g as usize]
    }
}

#[derive(Clone, Copy)]
enum Group {
    Shape = 0,
    Tactic = 1,
    NearLast = 2,
    NearOwn = 3,
    Spatial = 4,
}

const GROUPS: [Group; 5] = [
    Group::Shape,
    Group::Tactic,
    Group::NearLast,
    Group::NearOwn,
    Group::Spatial,
];

impl Group {
    fn of(self, c: &Candidate) -> usize {
        match self {
            Group::Shape => c.shape as usize,
            Group::Tactic => c.tactic as usize,
            Group::NearLast => c.near_last as usize,
            Group::NearOwn => c.near_own as usize,
            Group::Spatial => c.spatial as usize,
        }
    }
}

/// One minorization-maximization step on `group`: each strength becomes
/// its wins over the sum, across positions, of its share of the position's
/// total strength (with one virtual win and one loss against a strength of
/// 1, so that rare values stay finite). Returns the log-likelihood of the
/// moves played before the step.
fn mm_step(data: &Data, model: &mut Model, group: Group, wins: &[f64]) -> f64 {
    let n = model.group(group).len();
    let (denominators, log_likelihood) = data
        .starts
        .par_windows(2)
        .fold(
            || (vec![0.0f64; n], 0.0f64),
            |(mut d, mut ll), w| {
                let position = &data.candidates[w[0]..w[1]];
                let total: f64 = position.iter().map(|c| model.weight(c)).sum();
                ll += (model.weight(&position[0]) / total).ln();
                let values = model.group(group);
                for c in position {
                    let i = group.of(c);
                    d[i] += model.weight(c) / values[i] / total;
                }
                (d, ll)
            },
        )
        .reduce(
            || (vec![0.0f64; n], 0.0f64),
            |(mut a, la), (b, lb)| {
                for (x, y) in a.iter_mut().zip(b) {
                    *x += y;
                }
                (a, la + lb)
            },
        );
    let values = model.group_mut(group);
    for (i, v) in values.iter_mut().enumerate() {
        *v = (wins[i] + 1.0) / (denominators[i] + 2.0 / (1.0 + *v));
    }
    log_likelihood
}

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    // A flag and the value after it, both taken out of the arguments.
    let mut take = |flag: &str| -> Option<String> {
        let k = args.iter().position(|a| a == flag)?;
        let value = args.get(k + 1).cloned();
        args.drain(k..(k + 2).min(args.len()));
        value
    };
    let max_files = take("--files")
        .and_then(|v| v.parse().ok())
        .unwrap_or(usize::MAX);
    let rounds = take("--rounds").and_then(|v| v.parse().ok()).unwrap_or(12);
    let player = take("--player");
    let compare = take("--compare");
    let spatial_min: Option<u32> = take("--spatial").and_then(|v| v.parse().ok());
    let spatial_reach: usize = take("--reach")
        .and_then(|v| v.parse().ok())
        .unwrap_or(spatial::MAX_DISTANCE);
    let learner = player.as_deref().map_or(Learner::Everyone, Learner::Player);
    let dirs: Vec<PathBuf> = args.into_iter().map(PathBuf::from).collect();
    if dirs.is_empty() {
        eprintln!(
            "usage: learn_gammas [--files N] [--rounds R] [--player NAME] [--compare GAMMAS] [--spatial N [--reach D]] DIR... > gammas.txt"
        );
        std::process::exit(2);
    }
    let (held_out, training) = held_out_and_training(&dirs);
    let training: Vec<_> = training.into_iter().take(max_files).collect();

    let canon: Vec<u32> = (0..1u32 << KEY_BITS)
        .into_par_iter()
        .map(canonical)
        .collect();
    // Large patterns played often enough, sorted by key so that a run
    // always numbers them alike.
    let patterns = spatial_min.map(|min| {
        let mut played: HashMap<u64, (u32, usize)> = HashMap::new();
        for keys in training
            .par_iter()
            .map(|path| played_patterns(path, learner))
            .collect::<Vec<_>>()
        {
            for k in keys {
                for (i, key) in k.into_iter().enumerate() {
                    played.entry(key).or_insert((0, MIN_DISTANCE + i)).0 += 1;
                }
            }
        }
        let mut kept: Vec<(u64, usize)> = played
            .into_iter()
            .filter(|(_, (n, d))| *n >= min && *d <= spatial_reach)
            .map(|(key, (_, d))| (key, d))
            .collect();
        kept.sort();
        SpatialTable::from_patterns(kept)
    });
    let read: Vec<Option<Vec<Vec<Features>>>> = training
        .par_iter()
        .map(|path| file_features(path, learner, patterns.as_ref()))
        .collect();
    let skipped = read.iter().filter(|r| r.is_none()).count();

    // Shapes seen often enough get a strength of their own; index 0 is
    // every other shape.
    let mut available: HashMap<u32, u64> = HashMap::new();
    for position in read.iter().flatten().flatten() {
        for (f, _) in position {
            *available.entry(canon[f.shape as usize]).or_default() += 1;
        }
    }
    let mut kept: Vec<u32> = available
        .iter()
        .filter(|(_, &n)| n >= MIN_AVAILABLE)
        .map(|(&k, _)| k)
        .collect();
    kept.sort();
    let index: HashMap<u32, u32> = kept
        .iter()
        .enumerate()
        .map(|(i, &k)| (k, i as u32 + 1))
        .collect();

    let mut data = Data::default();
    for position in read.into_iter().flatten().flatten() {
        data.starts.push(data.candidates.len());
        data.candidates
            .extend(position.iter().map(|(f, pattern)| Candidate {
                shape: index.get(&canon[f.shape as usize]).copied().unwrap_or(0),
                tactic: f.tactic as u8,
                near_last: f.near_last,
                near_own: f.near_own,
                spatial: *pattern,
            }));
    }
    data.starts.push(data.candidates.len());
    let positions_count = data.starts.len() - 1;
    eprintln!(
        "training: {} files read, {skipped} skipped, {positions_count} moves, {} candidates, {} shapes kept, {} large patterns",
        training.len() - skipped,
        data.candidates.len(),
        kept.len(),
        patterns.as_ref().map_or(0, |t| t.len() - 1)
    );
    if let Some(table) = &patterns {
        let mut by_distance = [0u64; spatial::MAX_DISTANCE + 1];
        for s in data.starts.iter().take(positions_count) {
            by_distance[table.distance(data.candidates[*s].spatial)] += 1;
        }
        eprintln!(
            "moves played by the size of their largest known pattern (0: none): {by_distance:?}"
        );
    }

    let mut model = Model([
        vec![1.0; kept.len() + 1],
        vec![1.0; TACTICS],
        vec![1.0; NEAR_CLASSES],
        vec![1.0; NEAR_CLASSES],
        vec![1.0; patterns.as_ref().map_or(1, SpatialTable::len)],
    ]);
    let wins: Vec<Vec<f64>> = GROUPS
        .iter()
        .map(|&g| {
            let mut w = vec![0.0; model.group(g).len()];
            for s in data.starts.iter().take(positions_count) {
                w[g.of(&data.candidates[*s])] += 1.0;
            }
            w
        })
        .collect();
    for round in 0..rounds {
        let mut ll = 0.0;
        for (g, w) in GROUPS.iter().zip(&wins) {
            ll = mm_step(&data, &mut model, *g, w);
        }
        eprintln!(
            "round {}: mean log-likelihood of the move played {:.4}",
            round + 1,
            ll / positions_count as f64
        );
    }
    // Only ratios within a group matter: a quiet move, a far move and an
    // unlisted shape are 1.
    let normalise = |v: &mut Vec<f64>, by: usize| {
        let unit = v[by];
        v.iter_mut().for_each(|x| *x /= unit);
    };
    normalise(model.group_mut(Group::Tactic), 0);
    normalise(model.group_mut(Group::Shape), 0);
    normalise(model.group_mut(Group::Spatial), 0);
    for near in [Group::NearLast, Group::NearOwn] {
        normalise(model.group_mut(near), NEAR_CLASSES - 1);
        // Class 0 (no such move) is the same for every candidate of a position.
        model.group_mut(near)[0] = 1.0;
    }

    let mut text = String::new();
    text.push_str("# Playout move strengths (ishi::search::gammas), one per feature value.\n");
    text.push_str(&format!(
        "# Learned by examples/learn_gammas.rs over {} game records ({positions_count} moves, {rounds} rounds); shapes seen fewer than {MIN_AVAILABLE} times share shape_other.\n",
        training.len() - skipped
    ));
    for (name, values) in [
        ("tactic", model.group(Group::Tactic)),
        ("near_last", model.group(Group::NearLast)),
        ("near_own", model.group(Group::NearOwn)),
    ] {
        for (k, v) in values.iter().enumerate() {
            text.push_str(&format!("{name} {k} {:.6}\n", v.max(MIN_GAMMA)));
        }
    }
    text.push_str(&format!(
        "shape_other {:.6}\n",
        model.group(Group::Shape)[0].max(MIN_GAMMA)
    ));
    for (k, key) in kept.iter().enumerate() {
        text.push_str(&format!(
            "shape {key:05x} {:.6}\n",
            model.group(Group::Shape)[k + 1].max(MIN_GAMMA)
        ));
    }
    if let Some(table) = &patterns {
        text.push_str("spatial_other 1.000000\n");
        let keys = table.keys_by_index();
        for (k, key) in keys.iter().enumerate().skip(1) {
            text.push_str(&format!(
                "spatial {} {key:016x} {:.6}\n",
                table.distance(k as u32),
                model.group(Group::Spatial)[k].max(MIN_GAMMA)
            ));
        }
    }
    print!("{text}");

    // How well the shipped form of the strengths predicts held-out moves,
    // and, for comparison, another table of strengths.
    let gammas = Gammas::parse(&text).expect("the strengths just written parse");
    let held_for = |gammas: &Gammas| -> Vec<Vec<Features>> {
        held_out
            .par_iter()
            .filter_map(|path| file_features(path, learner, gammas.spatial()))
            .flatten()
            .collect()
    };
    report("held out", held_out.len(), &held_for(&gammas), &gammas);
    if let Some(path) = compare {
        match std::fs::read_to_string(&path)
            .map_err(|e| e.to_string())
            .and_then(|t| Gammas::parse(&t))
        {
            Ok(other) => report(
                &format!("held out, {path}"),
                held_out.len(),
                &held_for(&other),
                &other,
            ),
            Err(e) => eprintln!("cannot compare with {path}: {e}"),
        }
    }
}

/// How often the strongest move of `gammas` is the move played in
/// `positions`, and the mean log-likelihood of the moves played.
fn report(what: &str, files: usize, positions: &[Vec<Features>], gammas: &Gammas) {
    let (n, top, ll) = positions
        .par_iter()
        .map(|position| {
            let spatial = |k: u32| gammas.spatial().map_or(1.0, |t| t.strength(k));
            let w: Vec<f64> = position
                .iter()
                .map(|(f, k)| (gammas.weight(f) * spatial(*k)) as f64)
                .collect();
            let best = w.iter().cloned().fold(0.0, f64::max);
            let ties = w.iter().filter(|&&x| x == best).count();
            let top = if w[0] == best { 1.0 / ties as f64 } else { 0.0 };
            (1u64, top, (w[0] / w.iter().sum::<f64>()).ln())
        })
        .reduce(|| (0, 0.0, 0.0), |a, b| (a.0 + b.0, a.1 + b.1, a.2 + b.2));
    eprintln!(
        "{what}: {files} files, {n} moves; the strongest move is the move played {:.1}% of the time; mean log-likelihood {:.4}",
        100.0 * top / n.max(1) as f64,
        ll / n.max(1) as f64
    );
}
