//! ishi's counting against GNU Go 3.8 on finished self-play games
//! (tests/data/scoring/, made by tests/tools/gen_scoring_corpus.py).
//!
//! Each line: size, komi (Japanese), komi (Chinese), level, seed, moves
//! (GTP vertices, Black first, alternating), GNU Go's `final_score` under
//! its Japanese rules and under `--chinese-rules`, its dead stones.
//!
//! A second corpus (tests/data/match_counts/, made by
//! tests/tools/match_counts.py) holds ishi's games against GNU Go that
//! ended in two passes, with GNU Go's Chinese count as the referee gave it.

use ishi::board::coord::parse_vertex;
use ishi::board::{Color, Move};
use ishi::game::Game;
use ishi::rules::Rules;
use ishi::score::score_game;
use ishi::search::status::{judge, StatusConfig};
use std::time::Instant;

struct Record {
    source: String,
    size: usize,
    komi_japanese: f64,
    komi_chinese: f64,
    moves: Vec<String>,
    japanese: String,
    chinese: String,
    dead: String,
}

/// The `.txt` files of `tests/data/<name>`, in name order.
fn data_files(name: &str) -> Vec<std::path::PathBuf> {
    let dir = format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"));
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{dir}: {e}"))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "txt"))
        .collect();
    files.sort();
    files
}

fn load() -> Vec<Record> {
    let mut records = Vec::new();
    for path in data_files("scoring") {
        let text = std::fs::read_to_string(&path).expect("readable corpus file");
        for (n, line) in text.lines().enumerate() {
            let f: Vec<&str> = line.split('\t').collect();
            assert!(f.len() >= 8, "{}:{}: malformed line", path.display(), n + 1);
            records.push(Record {
                source: format!("{}:{}", path.file_name().unwrap().to_string_lossy(), n + 1),
                size: f[0].parse().expect("size"),
                komi_japanese: f[1].parse().expect("komi"),
                komi_chinese: f[2].parse().expect("komi"),
                moves: f[5].split_whitespace().map(str::to_string).collect(),
                japanese: f[6].to_string(),
                chinese: f[7].to_string(),
                dead: f.get(8).unwrap_or(&"").to_string(),
            });
        }
    }
    records
}

fn replay(r: &Record) -> Game {
    // Simple ko while replaying: GNU Go's own games follow it.
    replay_under(
        &r.source,
        r.size,
        &r.moves,
        Rules::preset("japanese").unwrap(),
    )
}

fn replay_under(source: &str, size: usize, moves: &[String], rules: Rules) -> Game {
    let mut g = Game::new(size, rules).unwrap();
    for (i, v) in moves.iter().enumerate() {
        let colour = if i % 2 == 0 {
            Color::Black
        } else {
            Color::White
        };
        let mv = match parse_vertex(v, size).expect("vertex") {
            Some(p) => Move::Place(p),
            None => Move::Pass,
        };
        g.play(colour, mv)
            .unwrap_or_else(|e| panic!("{source}: move {} {v}: {e}", i + 1));
    }
    g
}

fn winner(score: &str) -> char {
    score.chars().next().unwrap_or('0')
}

#[test]
fn agrees_with_gnugo_on_finished_games() {
    let records = load();
    assert!(!records.is_empty(), "the corpus is empty");
    // Default settings, as `final_score` uses them; ISHI_STATUS_PLAYOUTS
    // overrides the playout count to measure how accuracy depends on it.
    let mut config = StatusConfig::default();
    if let Some(n) = std::env::var("ISHI_STATUS_PLAYOUTS")
        .ok()
        .and_then(|v| v.parse().ok())
    {
        config.playouts = n;
    }
    let mut winners = [0usize; 2];
    let mut exact = [0usize; 2];
    let started = Instant::now();
    // Per size: games, total and longest judgement time in seconds.
    let mut timing: Vec<(usize, usize, f64, f64)> = Vec::new();
    for r in &records {
        let mut g = replay(r);
        let t = Instant::now();
        let j = judge(&g, &config);
        let secs = t.elapsed().as_secs_f64();
        match timing.iter_mut().find(|t| t.0 == r.size) {
            Some(t) => {
                t.1 += 1;
                t.2 += secs;
                t.3 = t.3.max(secs);
            }
            None => timing.push((r.size, 1, secs, secs)),
        }
        let mut ours = Vec::new();
        for (name, komi) in [("japanese", r.komi_japanese), ("chinese", r.komi_chinese)] {
            let mut rules = Rules::preset(name).unwrap();
            rules.komi = komi;
            g.set_rules(rules);
            ours.push(score_game(&g, &j.dead, &j.seki).to_string());
        }
        let theirs = [&r.japanese, &r.chinese];
        for k in 0..2 {
            winners[k] += usize::from(winner(&ours[k]) == winner(theirs[k]));
            exact[k] += usize::from(&ours[k] == theirs[k]);
        }
        if ours[0] != r.japanese || ours[1] != r.chinese {
            let dead: Vec<String> = j
                .dead
                .iter()
                .map(|i| ishi::board::coord::vertex_name(ishi::board::Point(i), r.size))
                .collect();
            println!(
                "{} ({}x{}): ishi japanese {} chinese {} | gnugo japanese {} chinese {}\n  ishi dead: {}\n  gnugo dead: {}\n  seki stones: {}\n{}",
                r.source,
                r.size,
                r.size,
                ours[0],
                ours[1],
                r.japanese,
                r.chinese,
                dead.join(" "),
                r.dead,
                j.seki.count(),
                g.board().to_ascii()
            );
        }
    }
    let n = records.len() as f64;
    let pct = |x: usize| 100.0 * x as f64 / n;
    println!(
        "{} games, {} playouts, in {:.1}s: winner japanese {:.1}% chinese {:.1}%, exact japanese {:.1}% chinese {:.1}%",
        records.len(),
        config.playouts,
        started.elapsed().as_secs_f64(),
        pct(winners[0]),
        pct(winners[1]),
        pct(exact[0]),
        pct(exact[1])
    );
    timing.sort_by_key(|t| t.0);
    for (size, games, total, longest) in &timing {
        println!(
            "{size}x{size}: {games} games, judgement mean {:.3}s, longest {longest:.3}s",
            total / *games as f64
        );
    }
    for k in 0..2 {
        assert!(
            pct(winners[k]) >= 98.0,
            "winner agreement {:.1}%",
            pct(winners[k])
        );
        assert!(
            pct(exact[k]) >= 90.0,
            "exact agreement {:.1}%",
            pct(exact[k])
        );
    }
}

/// ishi's games against GNU Go (9x9, komi 7, Chinese rules) that ended in
/// two passes: ishi's count of the last position against the count GNU Go
/// gave as referee. These positions are what `final_score` meets in real
/// games: sekis, false eyes, sacrifices left unplayed.
#[test]
fn agrees_with_gnugo_on_match_counts() {
    // Two threads on every machine, so that the count does not depend on it.
    let config = StatusConfig {
        threads: 2,
        ..StatusConfig::default()
    };
    let (mut games, mut exact, mut winners) = (0usize, 0usize, 0usize);
    for path in data_files("match_counts") {
        let text = std::fs::read_to_string(&path).expect("readable match count file");
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        for (n, line) in text.lines().enumerate() {
            let f: Vec<&str> = line.split('\t').collect();
            assert_eq!(f.len(), 5, "{name}:{}: malformed line", n + 1);
            let source = format!("{name}:{} (seed {})", n + 1, f[2]);
            let mut rules = Rules::preset("chinese").unwrap();
            rules.komi = f[1].parse().expect("komi");
            let moves: Vec<String> = f[3].split_whitespace().map(str::to_string).collect();
            let g = replay_under(&source, f[0].parse().expect("size"), &moves, rules);
            let ours = judge(&g, &config).score.to_string();
            games += 1;
            exact += usize::from(ours == f[4]);
            winners += usize::from(winner(&ours) == winner(f[4]));
            if ours != f[4] {
                println!("{source}: ishi {ours}, gnugo {}", f[4]);
            }
        }
    }
    assert!(games > 0, "the match count corpus is empty");
    let pct = |x: usize| 100.0 * x as f64 / games as f64;
    println!(
        "{games} match games: exact {exact} ({:.1}%), winner {winners} ({:.1}%)",
        pct(exact),
        pct(winners)
    );
    // 1,558 exact of 1,600 when this test was last changed, and every
    // winner but seed 72103's: there a one-eyed group dies only after the
    // killer connects its corner stones first (C1, then A3), which the
    // status playouts seldom find (GNU Go B+32, ishi W+1).
    assert!(pct(exact) >= 93.0, "exact agreement {:.1}%", pct(exact));
    assert!(
        pct(winners) >= 99.0,
        "winner agreement {:.1}%",
        pct(winners)
    );
}
