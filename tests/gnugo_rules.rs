//! Random games checked move by move against GNU Go 3.8 (Japanese rules in
//! GTP mode: simple ko, no suicide): both engines must accept exactly the
//! same attempted moves (legal and illegal, both colours, with undos) and
//! agree on the stones, the legal moves and the captures after every step.
//! Skipped with a message when GNU Go is not installed.

mod common;

use common::{gnugo_available, vertex_set, Engine, GNUGO};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::time::{Duration, Instant};

fn compare(ishi: &mut Engine, gnugo: &mut Engine, query: &str, context: &str) -> String {
    let a = ishi.send(query);
    let b = gnugo.send(query);
    assert_eq!(a.ok, b.ok, "{query} after {context}");
    if query.starts_with("captures") {
        assert_eq!(a.text.trim(), b.text.trim(), "{query} after {context}");
    } else {
        assert_eq!(
            vertex_set(&a.text),
            vertex_set(&b.text),
            "{query} after {context}"
        );
    }
    a.text
}

#[test]
fn random_moves_are_judged_like_gnu_go() {
    if !gnugo_available() {
        eprintln!("GNU Go not found at {GNUGO}: cross-check skipped");
        return;
    }
    let mut ishi = Engine::ishi(&["--rules", "japanese", "--threads", "1", "--playouts", "10"]);
    let mut gnugo = Engine::start(GNUGO, &["--mode", "gtp"], None);
    let mut rng = SmallRng::seed_from_u64(0x60_60);
    let started = Instant::now();
    let letters = b"ABCDEFGHJKLMNOPQRST";
    let (mut attempts, mut accepted, mut undos) = (0, 0, 0);
    // Refused moves on empty points: suicides and ko retakes.
    let mut refused_on_empty = 0;
    let sizes = [5, 6, 7, 9, 11, 13, 19];
    for (game, &size) in sizes.iter().cycle().take(42).enumerate() {
        for e in [&mut ishi, &mut gnugo] {
            e.ok(&format!("boardsize {size}"));
            e.ok("clear_board");
        }
        let steps = if size >= 13 { 300 } else { size * size * 2 };
        let mut history = String::new();
        let mut occupied: Vec<String> = Vec::new();
        for _ in 0..steps {
            let colour = if rng.gen() { "black" } else { "white" };
            let command = match rng.gen_range(0..100) {
                0..=7 => "undo".to_string(),
                8..=10 => format!("play {colour} pass"),
                11..=25 => {
                    let x = letters[rng.gen_range(0..size)] as char;
                    format!("play {colour} {x}{}", rng.gen_range(1..=size))
                }
                26..=50 => {
                    // An empty point, legal or not: suicides and kos.
                    let empty: Vec<String> = (0..size)
                        .flat_map(|x| (1..=size).map(move |y| format!("{}{y}", letters[x] as char)))
                        .filter(|v| !occupied.contains(v))
                        .collect();
                    match empty.len() {
                        0 => format!("play {colour} pass"),
                        n => format!("play {colour} {}", empty[rng.gen_range(0..n)]),
                    }
                }
                _ => {
                    // A legal move of ishi's: mostly agreed on, and it fills
                    // the board so that captures and kos arise.
                    let legal = ishi.ok(&format!("all_legal {colour}"));
                    let moves: Vec<&str> = legal.split_whitespace().collect();
                    if moves.is_empty() {
                        format!("play {colour} pass")
                    } else {
                        format!("play {colour} {}", moves[rng.gen_range(0..moves.len())])
                    }
                }
            };
            let a = ishi.send(&command);
            let b = gnugo.send(&command);
            attempts += 1;
            history.push_str(&command);
            history.push_str("; ");
            let context = format!("game {game} ({size}x{size}): {history}");
            assert_eq!(
                a.ok, b.ok,
                "acceptance differs (ishi: {}, gnugo: {}) for {context}",
                a.text, b.text
            );
            if a.ok {
                if command == "undo" {
                    undos += 1;
                } else {
                    accepted += 1;
                }
            } else if command.starts_with("play") {
                assert_eq!(a.text, "illegal move", "{command}");
                let vertex = command.rsplit(' ').next().unwrap_or("").to_uppercase();
                if !occupied.contains(&vertex) {
                    refused_on_empty += 1;
                }
            }
            occupied.clear();
            for query in [
                "list_stones black",
                "list_stones white",
                "all_legal black",
                "all_legal white",
                "captures black",
                "captures white",
            ] {
                let answer = compare(&mut ishi, &mut gnugo, query, &context);
                if query.starts_with("list_stones") {
                    occupied.extend(vertex_set(&answer));
                }
            }
        }
        assert!(
            started.elapsed() < Duration::from_secs(150),
            "cross-check too slow"
        );
    }
    println!(
        "{attempts} attempted moves ({accepted} accepted, {undos} undos, \
         {refused_on_empty} refused on empty points) agree with GNU Go in {:.1}s",
        started.elapsed().as_secs_f64()
    );
    assert!(attempts > 6000 && accepted > 4500 && undos > 450);
    assert!(refused_on_empty > 100, "suicide and ko cases are exercised");
}
