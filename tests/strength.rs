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
//! light), `ISHI_TUNE` (search constants, as for `ishi --tune`),
//! `ISHI_SEED`, `ISHI_MINUTES` (start no new game after this long),
//! `ISHI_PARALLEL` (games played side by side, 1; with `ISHI_THREADS=1`
//! this keeps both cores busy while GNU Go thinks), `ISHI_RESIGN` (ishi's
//! resign threshold, 0 never resigns), `ISHI_ONLY` (play only these game
//! numbers, comma separated, to replay some games of an earlier match),
//! `ISHI_OPENING=50000,12` (an experiment: that many playouts for ishi's
//! moves among the first 12 plies), `ISHI_OPPONENT` (another GTP engine's
//! command line to play instead of GNU Go, `{seed}` standing for the game's
//! seed, e.g. `/path/to/pachi -t =5000 threads=1 -s {seed}`; GNU Go still
//! follows the moves and scores the end, and the games are saved under the
//! program's name).
//! Game `n` (from 1) has seed `ISHI_SEED + n - 1`, for ishi and for GNU Go
//! alike, so with one search thread it replays move for move.
//! Colours alternate, ishi taking Black in the first game. A game ends on a
//! resignation or after two passes, when GNU Go's `final_score` referees.
//! Each result is printed as it comes, then the win rate with a 95% Wilson
//! interval, and the wins and opening-book moves a game for each colour.
//! With `ISHI_SGF_DIR` set, every game is also saved there as
//! `game-<number>-seed-<seed>.sgf`, ishi's win rate after each of its moves
//! in the game comment.

mod common;

use common::{play_game, wilson, MatchConfig};
use ishi::board::Color;
use ishi::search::{PlayoutKind, Tuning};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

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
        tuning: Tuning::parse(&std::env::var("ISHI_TUNE").unwrap_or_default())
            .unwrap_or_else(|e| panic!("ISHI_TUNE: {e}")),
        resign: std::env::var("ISHI_RESIGN").ok().map(|v| {
            v.parse()
                .unwrap_or_else(|_| panic!("ISHI_RESIGN: '{v}' is not a fraction"))
        }),
        opening: std::env::var("ISHI_OPENING").ok().map(|v| {
            v.split_once(',')
                .and_then(|(n, plies)| Some((n.trim().parse().ok()?, plies.trim().parse().ok()?)))
                .unwrap_or_else(|| panic!("ISHI_OPENING: '{v}' is not playouts,plies"))
        }),
        opponent: std::env::var("ISHI_OPPONENT").ok().map(|v| {
            let command: Vec<String> = v.split_whitespace().map(String::from).collect();
            let name = command
                .first()
                .map_or("", |p| p.rsplit('/').next().unwrap_or(p))
                .to_string();
            (command, name)
        }),
    };
    let only: Option<Vec<usize>> = std::env::var("ISHI_ONLY").ok().map(|v| {
        v.split(',')
            .map(|n| {
                n.trim()
                    .parse()
                    .ok()
                    .filter(|&g: &usize| g >= 1)
                    .unwrap_or_else(|| panic!("ISHI_ONLY: '{n}' is not a game number (from 1)"))
            })
            .collect()
    });
    let opponent = match &cfg.opponent {
        Some((command, _)) => format!("{} (GNU Go referees)", command.join(" ")),
        None => format!("GNU Go level {}", cfg.level),
    };
    println!(
        "ishi vs {opponent}: {}x{} komi {} {} playouts/move {} threads {:?} playouts",
        cfg.size, cfg.size, cfg.komi, cfg.playouts, cfg.threads, cfg.playout
    );
    if cfg.tuning != Tuning::default() {
        println!("tuning: {:?}", cfg.tuning);
    }
    if let Some((playouts, plies)) = cfg.opening {
        println!("opening: {playouts} playouts per move for the first {plies} plies");
    }
    let minutes: f64 = env("ISHI_MINUTES", f64::INFINITY);
    let parallel: usize = env("ISHI_PARALLEL", 1).max(1);
    let start = std::time::Instant::now();
    let next_game = AtomicUsize::new(0);
    // Per colour ishi played (wins, games, book moves), then the draws.
    let tally = Mutex::new(([(0usize, 0usize, 0usize); 2], 0usize));
    // Each game's seed and colours follow from its number alone, so a game
    // plays the same whether the games run one by one or side by side.
    let play = |g: usize| {
        let ishi = if g.is_multiple_of(2) {
            Color::Black
        } else {
            Color::White
        };
        let cfg = MatchConfig {
            seed: cfg.seed.wrapping_add(g as u64),
            ..cfg.clone()
        };
        let outcome = play_game(&cfg, ishi);
        if let (Ok(record), Ok(dir)) = (&outcome, std::env::var("ISHI_SGF_DIR")) {
            let name = format!("game-{:03}-seed-{}.sgf", g + 1, cfg.seed);
            let path = std::path::Path::new(&dir).join(name);
            if let Err(e) = std::fs::write(&path, &record.sgf) {
                println!("cannot save {}: {e}", path.display());
            }
        }
        let mut tally = tally.lock().unwrap_or_else(|e| e.into_inner());
        match outcome {
            Ok(record) => {
                let colour = &mut tally.0[(ishi == Color::White) as usize];
                colour.0 += record.ishi_won() as usize;
                colour.1 += 1;
                colour.2 += record.book_moves;
                tally.1 += record.winner.is_none() as usize;
                println!(
                    "game {:3}: ishi {:?} {} in {} moves -> {}",
                    g + 1,
                    ishi,
                    record.result,
                    record.moves,
                    match record.winner {
                        None => "draw",
                        Some(_) if record.ishi_won() => "win",
                        Some(_) => "loss",
                    }
                );
            }
            Err(e) => println!("game {:3}: aborted: {e}", g + 1),
        }
    };
    std::thread::scope(|s| {
        for _ in 0..parallel {
            s.spawn(|| loop {
                if start.elapsed().as_secs_f64() > 60.0 * minutes {
                    break;
                }
                let k = next_game.fetch_add(1, Ordering::Relaxed);
                let g = match &only {
                    Some(numbers) => match numbers.get(k) {
                        Some(&n) if n >= 1 => n - 1,
                        Some(_) => continue,
                        None => break,
                    },
                    None if k < games => k,
                    None => break,
                };
                play(g);
            });
        }
    });
    let (by_colour, draws) = *tally.lock().unwrap_or_else(|e| e.into_inner());
    let wins = by_colour[0].0 + by_colour[1].0;
    let played = by_colour[0].1 + by_colour[1].1;
    let planned = only.as_ref().map_or(games, Vec::len);
    if next_game.load(Ordering::Relaxed) < planned {
        println!("time is up after {played} games");
    }
    let (lo, hi) = wilson(wins, played);
    println!(
        "ishi won {wins}/{played} = {:.1}% (95% Wilson interval {:.1}%..{:.1}%); draws, counted as not won: {draws}",
        100.0 * wins as f64 / played.max(1) as f64,
        100.0 * lo,
        100.0 * hi
    );
    for (name, (won, played, book_moves)) in ["Black", "White"].iter().zip(by_colour) {
        println!(
            "as {name}: {won}/{played}; book moves a game {:.1}",
            book_moves as f64 / played.max(1) as f64
        );
    }
}
