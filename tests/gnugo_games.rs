//! Complete games against GNU Go 3.8 through pipes, each engine's `genmove`
//! `play`ed into the other: only legal moves, the boards stay equal, and
//! both engines' `final_score` are well-formed (and printed; GNU Go's
//! estimate for games stopped by the move cap). Skipped with a
//! message when GNU Go is not installed.
//!
//! The default run plays 9x9 to two passes and a 19x19 game capped in
//! length; `cargo test --release --test gnugo_games -- --ignored` plays
//! full 19x19 games.

mod common;

use common::{gnugo_available, vertex_set, Engine, GNUGO};
use regex::Regex;
use std::time::Instant;

struct Outcome {
    moves: usize,
    ended_by: &'static str,
    ishi_score: String,
    gnugo_score: String,
}

fn play_game(size: usize, ishi_colour: &str, max_moves: usize, seed: u64) -> Outcome {
    let seed = seed.to_string();
    let mut ishi = Engine::ishi(&[
        "--rules",
        "japanese",
        "--threads",
        "1",
        "--playouts",
        "200",
        "--seed",
        &seed,
    ]);
    let mut gnugo = Engine::start(GNUGO, &["--mode", "gtp", "--level", "1"], None);
    for e in [&mut ishi, &mut gnugo] {
        e.ok(&format!("boardsize {size}"));
        e.ok("clear_board");
        e.ok("komi 6.5");
    }
    let vertex = Regex::new(r"^(?i)(pass|resign|[A-HJ-Z][0-9]{1,2})$").unwrap();
    let mut colour = "black";
    let mut passes = 0;
    let mut moves = 0;
    let mut ended_by = "move cap";
    let mut crashed = None;
    while moves < max_moves {
        let ishi_moves = colour == ishi_colour;
        let (mover, other) = if ishi_moves {
            (&mut ishi, &mut gnugo)
        } else {
            (&mut gnugo, &mut ishi)
        };
        let reply = match mover.send_checked(&format!("genmove {colour}")) {
            Ok(r) => r,
            Err(died) if !ishi_moves => {
                crashed = Some(died);
                break;
            }
            Err(died) => panic!("{died}"),
        };
        assert!(reply.ok, "{}: genmove failed: {}", mover.name, reply.text);
        let answer = reply.text;
        assert!(
            vertex.is_match(&answer),
            "{}: genmove answered '{answer}'",
            mover.name
        );
        if answer.eq_ignore_ascii_case("resign") {
            ended_by = if ishi_moves {
                "ishi resigned"
            } else {
                "gnugo resigned"
            };
            break;
        }
        let reply = match other.send_checked(&format!("play {colour} {answer}")) {
            Ok(r) => r,
            Err(died) if ishi_moves => {
                crashed = Some(died);
                break;
            }
            Err(died) => panic!("{died}"),
        };
        assert!(
            reply.ok,
            "{} refused {}'s move {colour} {answer} at move {}: {}",
            other.name,
            mover.name,
            moves + 1,
            reply.text
        );
        moves += 1;
        passes = if answer.eq_ignore_ascii_case("pass") {
            passes + 1
        } else {
            0
        };
        if passes == 2 {
            ended_by = "two passes";
            break;
        }
        colour = if colour == "black" { "white" } else { "black" };
    }
    if let Some(died) = crashed {
        // The opponent is gone; ishi must still be sound and able to score.
        let ishi_score = ishi.ok("final_score");
        ishi.ok("quit");
        assert!(ishi.finish().success());
        return Outcome {
            moves,
            ended_by: "GNU Go crashed",
            ishi_score,
            gnugo_score: died,
        };
    }
    for c in ["black", "white"] {
        let a = vertex_set(&ishi.ok(&format!("list_stones {c}")));
        let b = vertex_set(&gnugo.ok(&format!("list_stones {c}")));
        assert_eq!(a, b, "{c} stones differ after the game");
    }
    let score = Regex::new(r"^([BW]\+[0-9]+(\.[0-9]+)?|0)$").unwrap();
    let ishi_score = ishi.ok("final_score");
    assert!(
        score.is_match(&ishi_score),
        "ishi final_score '{ishi_score}'"
    );
    // GNU Go's final_score plays the game out, which takes minutes on a
    // 19x19 board far from finished; its quick estimate serves there.
    let gnugo_score = if passes == 2 {
        let s = gnugo.ok("final_score");
        assert!(score.is_match(&s), "gnugo final_score '{s}'");
        s
    } else {
        format!("{} (estimate)", gnugo.ok("estimate_score"))
    };
    ishi.ok("quit");
    gnugo.ok("quit");
    assert!(ishi.finish().success());
    Outcome {
        moves,
        ended_by,
        ishi_score,
        gnugo_score,
    }
}

fn report(size: usize, ishi_colour: &str, o: &Outcome, started: Instant) {
    println!(
        "{size}x{size}, ishi {ishi_colour}: {} moves, ended by {}; final_score ishi {} gnugo {} ({:.1}s)",
        o.moves,
        o.ended_by,
        o.ishi_score,
        o.gnugo_score,
        started.elapsed().as_secs_f64()
    );
}

#[test]
fn games_against_gnu_go_use_legal_moves_and_end_in_a_score() {
    if !gnugo_available() {
        eprintln!("GNU Go not found at {GNUGO}: games skipped");
        return;
    }
    for (size, ishi_colour, cap) in [(9, "black", 300), (9, "white", 300), (19, "black", 60)] {
        // GNU Go 3.8 segfaults in some positions: such a game is reported
        // and replayed with another seed, up to three times.
        for attempt in 0..3 {
            let started = Instant::now();
            let o = play_game(size, ishi_colour, cap, size as u64 + 100 * attempt);
            report(size, ishi_colour, &o, started);
            assert!(o.moves > 0);
            if o.ended_by == "GNU Go crashed" {
                continue;
            }
            if size == 9 {
                assert_ne!(o.ended_by, "move cap", "a 9x9 game ends by itself");
            }
            break;
        }
    }
}

#[test]
#[ignore = "full 19x19 games take minutes"]
fn full_19x19_games_against_gnu_go() {
    if !gnugo_available() {
        eprintln!("GNU Go not found at {GNUGO}: games skipped");
        return;
    }
    for ishi_colour in ["black", "white"] {
        let started = Instant::now();
        let o = play_game(19, ishi_colour, 1000, 19);
        report(19, ishi_colour, &o, started);
        assert_ne!(o.ended_by, "move cap");
    }
}
