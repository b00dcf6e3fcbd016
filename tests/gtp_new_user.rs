//! ishi as a new user meets it: started without arguments, a few typed
//! commands, clean exit; the help text; the interruption of a long think.

mod common;

use common::{Engine, ISHI};
use regex::Regex;
use std::process::Command;
use std::time::{Duration, Instant};

#[test]
fn plain_ishi_answers_genmove_showboard_final_score_and_quits() {
    let mut ishi = Engine::ishi(&[]);
    let mv = ishi.ok("genmove b");
    assert!(
        Regex::new(r"^([A-HJ-T]([1-9]|1[0-9])|pass|resign)$")
            .unwrap()
            .is_match(&mv),
        "genmove answered '{mv}'"
    );
    let board = ishi.ok("showboard");
    assert!(
        board.contains("A B C D E F G H J K L M N O P Q R S T"),
        "{board}"
    );
    assert_eq!(
        board.lines().filter(|l| l.contains(" . ")).count(),
        19,
        "{board}"
    );
    if mv != "pass" && mv != "resign" {
        assert!(board.contains('X'), "the move is on the board: {board}");
    }
    let score = ishi.ok("final_score");
    assert!(
        Regex::new(r"^([BW]\+[0-9]+(\.[0-9]+)?|0)$")
            .unwrap()
            .is_match(&score),
        "final_score answered '{score}'"
    );
    assert_eq!(ishi.ok("quit"), "");
    assert!(ishi.no_more_output());
    let status = ishi.finish();
    assert!(status.success(), "{status:?}");
}

#[test]
fn end_of_input_exits_cleanly() {
    let mut ishi = Engine::ishi(&[]);
    ishi.write_raw(b"name\nprotocol_version");
    assert_eq!(ishi.read_reply().text, "ishi");
    ishi.close_stdin();
    assert_eq!(
        ishi.read_reply().text,
        "2",
        "the last line needs no newline"
    );
    assert!(ishi.no_more_output());
    assert!(ishi.finish().success());
}

#[test]
fn a_long_think_ends_when_the_next_line_or_an_interrupt_arrives() {
    // A minute per move; the next command or GoGui's "# interrupt" ends
    // the think at once, and the answers stay in order.
    let mut ishi = Engine::ishi(&["--time", "60", "--threads", "1"]);
    let started = Instant::now();
    ishi.write_raw(b"1 genmove b\n2 name\n");
    let first = ishi.read_reply();
    assert_eq!((first.id.as_str(), first.ok), ("1", true));
    assert_eq!(ishi.read_reply().text, "ishi");
    assert!(
        started.elapsed() < Duration::from_secs(20),
        "{:?}",
        started.elapsed()
    );

    let started = Instant::now();
    ishi.write_raw(b"3 genmove w\n");
    std::thread::sleep(Duration::from_millis(300));
    ishi.write_raw(b"# interrupt\n");
    let reply = ishi.read_reply();
    assert_eq!((reply.id.as_str(), reply.ok), ("3", true));
    assert!(
        started.elapsed() < Duration::from_secs(20),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(ishi.ok("4 list_stones black").split_whitespace().count(), 1);
    ishi.ok("quit");
    assert!(ishi.finish().success());
}

#[test]
fn the_end_of_a_piped_script_lets_genmove_finish_but_ends_analysis() {
    // `printf 'genmove b\n' | ishi --time 2`: the move is searched for its
    // time, not cut short by the end of input. The search may still stop
    // early once the best move leads by more playouts than are left, but
    // that lead cannot exceed the playouts done, so not before half the time.
    let mut ishi = Engine::ishi(&["--time", "2", "--threads", "1", "--size", "9"]);
    let started = Instant::now();
    ishi.write_raw(b"genmove b\n");
    ishi.close_stdin();
    assert!(ishi.read_reply().ok);
    let took = started.elapsed();
    assert!(took > Duration::from_millis(900), "answered after {took:?}");
    assert!(ishi.finish().success());

    // Analysis has no end of its own: the end of input ends it.
    let mut ishi = Engine::ishi(&["--threads", "1", "--size", "9"]);
    let started = Instant::now();
    ishi.write_raw(b"lz-analyze b 10\n");
    ishi.close_stdin();
    let reply = ishi.read_reply();
    assert!(reply.ok);
    assert!(ishi.finish().success());
    let took = started.elapsed();
    assert!(took < Duration::from_secs(5), "analysis ran {took:?}");
}

#[test]
fn help_explains_the_options_and_subcommands_still_work() {
    let out = Command::new(ISHI).arg("--help").output().unwrap();
    assert!(out.status.success());
    let help = String::from_utf8(out.stdout).unwrap();
    for option in [
        "--rules",
        "--ko",
        "--suicide",
        "--komi",
        "--size",
        "--threads",
        "--playouts",
        "--time",
        "--playout",
        "--resign",
        "--max-nodes",
        "--tune",
        "--ponder",
        "--lag",
        "--seed",
        "--verbose",
        "perft",
        "bench",
    ] {
        assert!(help.contains(option), "{option} missing from --help");
    }
    let out = Command::new(ISHI)
        .args(["perft", "--size", "2", "--depth", "2"])
        .output()
        .unwrap();
    assert!(out.status.success());
    assert_eq!(String::from_utf8(out.stdout).unwrap(), "1 5\n2 21\n");
    for args in [["--size", "30"], ["--lag", "nan"], ["--lag", "100"]] {
        let bad = Command::new(ISHI).args(args).output().unwrap();
        assert!(
            !bad.status.success(),
            "{args:?} is refused before GTP starts"
        );
        assert!(bad.stdout.is_empty(), "nothing but GTP on stdout");
    }
}

/// CPU seconds ishi reports, or a failure naming the answer.
fn cputime(ishi: &mut Engine) -> f64 {
    let text = ishi.ok("cputime");
    text.trim()
        .parse()
        .unwrap_or_else(|_| panic!("cputime answered '{text}'"))
}

#[test]
fn with_ponder_the_engine_thinks_while_idle_and_still_answers_at_once() {
    // Pondering shows as CPU time spent between commands; the next line
    // must still be answered promptly.
    for (ponder, args) in [
        (
            true,
            &[
                "--ponder",
                "--threads",
                "1",
                "--playouts",
                "200",
                "--size",
                "9",
            ][..],
        ),
        (
            false,
            &["--threads", "1", "--playouts", "200", "--size", "9"][..],
        ),
    ] {
        let mut ishi = Engine::ishi(args);
        ishi.ok("genmove b");
        let before = cputime(&mut ishi);
        let idle_since = Instant::now();
        // A pondering engine on a busy machine gets less than a whole core,
        // so it is given up to 15 s of idle time to show 0.5 CPU seconds;
        // an engine that does not ponder shows none in 1.5 s.
        let (idle_cpu, answer_ms) = loop {
            std::thread::sleep(Duration::from_millis(1500));
            let asked = Instant::now();
            let after = cputime(&mut ishi);
            let answer_ms = asked.elapsed().as_millis();
            let idle_cpu = after - before;
            if !ponder || idle_cpu > 0.5 || idle_since.elapsed() > Duration::from_secs(15) {
                break (idle_cpu, answer_ms);
            }
        };
        let idle_s = idle_since.elapsed().as_secs_f64();
        println!(
            "ponder={ponder}: {idle_cpu:.2} CPU s while idle {idle_s:.1} s, last answer in {answer_ms} ms"
        );
        if ponder {
            assert!(idle_cpu > 0.5, "pondering used only {idle_cpu:.2} s");
        } else {
            assert!(idle_cpu < 0.3, "idle engine used {idle_cpu:.2} s");
        }
        assert!(answer_ms < 1000, "answer took {answer_ms} ms");
        ishi.ok("play w E5");
        ishi.ok("genmove b");
        ishi.ok("quit");
        assert!(ishi.finish().success());
    }
}
