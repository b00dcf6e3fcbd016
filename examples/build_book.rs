//! Builds the opening book of `ishi::search::book` by searching every
//! position of a tree of openings far deeper than a game's search does.
//!
//!     cargo run --release --example build_book -- [--playouts 50000] [--plies 10] \
//!         [--replies 3] > src/search/book9_own.txt
//!
//! The tree follows the book's own moves for the side it plays and the
//! opponent's strongest replies by the same deep search (the `--replies`
//! most visited, a comma-separated list to give each depth its own
//! number): from the empty board once as Black and once as White (the
//! replies to the opponent's strongest first moves). Every position where
//! the book's side moves before ply `--plies` gets a line. Positions are
//! searched two at a time (rayon), each with one search thread; progress
//! goes to stderr.
//!
//!     cargo run --release --example build_book -- --merge A.txt B.txt > book.txt
//!
//! writes the union of books (a position in several: the first book's line).
//!
//!     cargo run --release --example build_book -- --records DIR [--records DIR] \
//!         [--player NAME] [--min-games 3] [--plies 12] [--known BOOK] > new.txt
//!
//! searches instead the positions that game records (the `*.sgf` files in
//! each DIR) reached at least `--min-games` times before ply `--plies`,
//! under any symmetry, with NAME (the record's `PB` or `PW`) to move, and
//! writes those that neither the shipped book (both files) nor any `--known` book
//! holds. Records of a player's games say which openings it meets, where
//! a tree of strongest replies guesses; merge the result into the book.

use ishi::board::Move;
use ishi::game::Game;
use ishi::rules::Rules;
use ishi::search::book::{Book, BookMove};
use ishi::search::{Decision, Limits, SearchConfig, Searcher, Tuning};
use rayon::prelude::*;
use std::sync::atomic::AtomicBool;

/// The game the engine's book is for (`ishi::search::book::nine_by_nine`).
const SIZE: usize = 9;
const KOMI: f64 = 7.0;

struct Options {
    playouts: u64,
    plies: usize,
    replies: Vec<usize>,
    records: Vec<String>,
    player: Option<String>,
    min_games: usize,
    known: Vec<String>,
}

fn number<T: std::str::FromStr>(flag: &str, v: &str) -> Result<T, String> {
    v.trim()
        .parse()
        .map_err(|_| format!("{flag}: '{v}' is not a number"))
}

fn options() -> Result<Options, String> {
    let mut o = Options {
        playouts: 50_000,
        plies: 10,
        replies: vec![3],
        records: Vec::new(),
        player: None,
        min_games: 3,
        known: Vec::new(),
    };
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let v = args.next().ok_or(format!("{flag} needs a value"))?;
        match flag.as_str() {
            "--playouts" => o.playouts = number(&flag, &v)?,
            "--plies" => o.plies = number(&flag, &v)?,
            "--replies" => {
                o.replies = v
                    .split(',')
                    .map(|n| number(&flag, n))
                    .collect::<Result<_, _>>()?
            }
            "--records" => o.records.push(v),
            "--player" => o.player = Some(v),
            "--min-games" => o.min_games = number(&flag, &v)?,
            "--known" => o.known.push(v),
            other => return Err(format!("unknown option {other}")),
        }
    }
    if o.replies.is_empty() {
        return Err("--replies needs at least one number".into());
    }
    Ok(o)
}

/// What a deep search of `game` finds: the move it plays and the moves
/// by visits, most first.
struct Found {
    best: BookMove,
    by_visits: Vec<Move>,
}

fn search(game: &Game, playouts: u64) -> Found {
    let mut searcher = Searcher::new(SearchConfig {
        threads: 1,
        playouts: Some(playouts),
        resign_threshold: 0.0,
        // Every position is searched: a book answer has no visits to
        // find the opponent's replies by.
        tuning: Tuning::parse("book=0").unwrap_or_default(),
        ..SearchConfig::default()
    });
    let limits = Limits {
        playouts: Some(playouts),
        time: None,
        unsettled_time: None,
    };
    let stop = AtomicBool::new(false);
    let outcome = searcher.genmove(game, game.to_move(), &limits, &stop);
    let candidates = &outcome.snapshot.candidates;
    let mv = match outcome.decision {
        Decision::Play(mv) => mv,
        Decision::Resign => Move::Pass,
    };
    let winrate = candidates
        .iter()
        .find(|c| c.mv == mv)
        .map_or(0.5, |c| c.winrate);
    let mut by_visits: Vec<_> = candidates.iter().filter(|c| c.visits > 0).collect();
    by_visits.sort_by_key(|c| std::cmp::Reverse(c.visits));
    Found {
        best: BookMove { mv, winrate },
        by_visits: by_visits.iter().map(|c| c.mv).collect(),
    }
}

fn after(game: &Game, mv: Move) -> Option<Game> {
    let mut next = game.clone();
    next.play_move(mv).ok()?;
    Some(next)
}

/// The opponent's strongest replies in `game` as the positions they lead to.
fn replies(game: &Game, found: &Found, count: usize) -> Vec<Game> {
    found
        .by_visits
        .iter()
        .filter(|mv| matches!(mv, Move::Place(_)))
        .take(count)
        .filter_map(|&mv| after(game, mv))
        .collect()
}

/// The union of the books in `paths`.
fn merged(paths: &[String]) -> Result<Book, String> {
    let mut union = Book::new(SIZE, KOMI);
    for path in paths {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
        let book = Book::parse(&text, SIZE, KOMI).map_err(|e| format!("{path}: {e}"))?;
        union.merge(&book);
    }
    Ok(union)
}

/// The positions before ply `o.plies` that the records in `o.records`
/// reached at least `o.min_games` times with `o.player` to move, and that
/// `known` lacks, most often reached first.
fn positions_in_records(o: &Options, known: &Book, rules: &Rules) -> Result<Vec<Game>, String> {
    let mut records = Vec::new();
    for dir in &o.records {
        let entries = std::fs::read_dir(dir).map_err(|e| format!("{dir}: {e}"))?;
        for entry in entries.flatten() {
            let path = entry.path();
            if path.extension().and_then(|e| e.to_str()) == Some("sgf") {
                records.push(std::fs::read_to_string(&path).map_err(|e| format!("{path:?}: {e}"))?);
            }
        }
    }
    let counted = known.unanswered_positions(&records, o.player.as_deref(), o.plies, rules);
    let often: Vec<(usize, Game)> = counted
        .into_iter()
        .filter(|(n, _)| *n >= o.min_games)
        .collect();
    let games: usize = often.iter().map(|(n, _)| n).sum();
    eprintln!(
        "{} records: {} positions reached {}+ times ({games} times in all)",
        records.len(),
        often.len(),
        o.min_games
    );
    Ok(often.into_iter().map(|(_, g)| g).collect())
}

/// Searches `positions` and returns the book of their moves.
fn searched(positions: Vec<Game>, playouts: u64) -> Book {
    let found: Vec<(Game, Found)> = positions
        .into_par_iter()
        .map(|game| {
            let own = search(&game, playouts);
            (game, own)
        })
        .collect();
    let mut book = Book::new(SIZE, KOMI);
    for (game, own) in found {
        book.insert(&game, own.best);
    }
    book
}

fn main() {
    if let Err(e) = run() {
        eprintln!("build_book: {e}");
        std::process::exit(2);
    }
}

fn run() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("--merge") {
        print!("{}", merged(&args[1..])?.to_text());
        return Ok(());
    }
    let o = options()?;
    let mut rules = Rules::preset("chinese").map_err(|e| e.to_string())?;
    rules.komi = KOMI;
    if !o.records.is_empty() {
        let mut known = merged(&o.known)?;
        known.merge(ishi::search::book::nine_by_nine(true));
        let positions = positions_in_records(&o, &known, &rules)?;
        print!("{}", searched(positions, o.playouts).to_text());
        return Ok(());
    }
    let empty = Game::new(SIZE, rules).map_err(|e| e.to_string())?;
    let replies_at = |depth: usize| o.replies[depth.min(o.replies.len() - 1)];
    let mut book = Book::new(SIZE, KOMI);
    // As Black the book starts on the empty board; as White after each of
    // the opponent's strongest first moves.
    let first = search(&empty, o.playouts);
    let mut level: Vec<Game> = vec![empty.clone()];
    level.extend(replies(&empty, &first, replies_at(0)));
    let mut depth = 0;
    while !level.is_empty() {
        let fresh: Vec<Game> = level
            .into_iter()
            .filter(|g| g.plies().len() < o.plies && book.lookup(g).is_none())
            .collect();
        eprintln!("depth {depth}: {} positions", fresh.len());
        let found: Vec<(Game, Found, Vec<Game>)> = fresh
            .into_par_iter()
            .map(|game| {
                let own = search(&game, o.playouts);
                let next = match after(&game, own.best.mv) {
                    Some(reply_to) if reply_to.plies().len() + 1 < o.plies => {
                        let theirs = search(&reply_to, o.playouts);
                        replies(&reply_to, &theirs, replies_at(depth + 1))
                    }
                    _ => Vec::new(),
                };
                (game, own, next)
            })
            .collect();
        level = Vec::new();
        for (game, own, next) in found {
            if book.insert(&game, own.best) {
                level.extend(next);
            }
        }
        eprintln!("book: {} positions", book.len());
        depth += 1;
    }
    print!("{}", book.to_text());
    Ok(())
}
