//! Tens of thousands of random and malformed lines through the binary:
//! exactly one well-formed response per non-empty line (with its id), no
//! crash, and every failed command leaves the whole state (board, side to
//! move, captures, rules, komi: all of `showboard`) as it was.

mod common;

use common::{Engine, ISHI};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::time::{Duration, Instant};

/// The test's own reading of GTP preprocessing: the line gets an answer
/// when something is left after dropping control characters and comments.
fn expected_text(raw: &[u8]) -> String {
    let text = String::from_utf8_lossy(raw);
    let mut out = String::new();
    for ch in text.chars() {
        match ch {
            '#' => break,
            '\t' => out.push(' '),
            c if c.is_ascii_control() => {}
            c => out.push(c),
        }
    }
    out.trim().to_string()
}

const COMMANDS: &[&str] = &[
    "protocol_version",
    "name",
    "version",
    "known_command",
    "list_commands",
    "boardsize",
    "clear_board",
    "komi",
    "play",
    "genmove",
    "reg_genmove",
    "kgs-genmove_cleanup",
    "undo",
    "gg-undo",
    "fixed_handicap",
    "place_free_handicap",
    "set_free_handicap",
    "time_settings",
    "kgs-time_settings",
    "time_left",
    "final_score",
    "final_status_list",
    "loadsgf",
    "printsgf",
    "showboard",
    "list_stones",
    "all_legal",
    "is_legal",
    "captures",
    "cputime",
    "kgs-rules",
    "kgs-game_over",
    "ishi-rules",
    "ishi-rule",
    "gogui-interrupt",
];

const ARGS: &[&str] = &[
    "b",
    "w",
    "B",
    "white",
    "BLACK",
    "x",
    "",
    "pass",
    "PASS",
    "a1",
    "A1",
    "T19",
    "t19",
    "Z25",
    "I5",
    "A0",
    "A26",
    "A-1",
    "J10",
    "e5",
    "D4",
    "c3",
    "0",
    "1",
    "2",
    "3",
    "9",
    "19",
    "25",
    "26",
    "-1",
    "-19",
    "7.5",
    "-0.5",
    "1e400",
    "nan",
    "inf",
    "99999999999999999999999999",
    "18446744073709551616",
    "0x10",
    "alive",
    "dead",
    "seki",
    "none",
    "absolute",
    "byoyomi",
    "canadian",
    "chinese",
    "japanese",
    "new_zealand",
    "tromp-taylor",
    "ko",
    "suicide",
    "positional",
    "allowed",
    "komi",
    "nosuch.sgf",
    "/dev/zero",
    "/",
    ".",
    "fuzz.sgf",
    "\u{e9}",
    "\u{2603}",
    "\u{0}",
    "\t",
    "#",
    "=",
    "?",
];

fn random_bytes(rng: &mut SmallRng, len: usize) -> Vec<u8> {
    (0..len)
        .map(|_| loop {
            let b: u8 = rng.gen();
            if b != b'\n' {
                return b;
            }
        })
        .collect()
}

fn random_line(rng: &mut SmallRng, size: usize) -> Vec<u8> {
    let vertex = |rng: &mut SmallRng| {
        let letters = b"ABCDEFGHJKLMNOPQRSTUVWXYZ";
        format!(
            "{}{}",
            letters[rng.gen_range(0..size.min(25))] as char,
            rng.gen_range(1..=size)
        )
    };
    let mut line = match rng.gen_range(0..100) {
        0..=9 => {
            let len = rng.gen_range(0..80);
            random_bytes(rng, len)
        }
        10..=14 => {
            // Invalid UTF-8 around a real command.
            let mut l = COMMANDS[rng.gen_range(0..COMMANDS.len())]
                .as_bytes()
                .to_vec();
            l.extend(random_bytes(rng, 4).iter().map(|b| b | 0x80));
            l
        }
        15..=44 => {
            // A command with arguments from the pool, right or wrong.
            let mut l = COMMANDS[rng.gen_range(0..COMMANDS.len())].to_string();
            for _ in 0..rng.gen_range(0..4) {
                l.push(' ');
                l.push_str(ARGS[rng.gen_range(0..ARGS.len())]);
            }
            l.into_bytes()
        }
        45..=69 => {
            // Plausible moves, so that the board fills and captures happen.
            let colour = if rng.gen() { "b" } else { "w" };
            format!("play {colour} {}", vertex(rng)).into_bytes()
        }
        70..=74 => b"undo".to_vec(),
        75..=77 => format!("is_legal b {}", vertex(rng)).into_bytes(),
        78 => b"clear_board".to_vec(),
        79 => format!("boardsize {}", rng.gen_range(1..27)).into_bytes(),
        80..=81 => format!("set_free_handicap {} {}", vertex(rng), vertex(rng)).into_bytes(),
        82..=85 => {
            let mut l = b"  \t\r".to_vec();
            l.extend(random_bytes(rng, 3));
            l
        }
        86..=88 => format!("# comment {}", rng.gen::<u32>()).into_bytes(),
        89 => b"genmove b".to_vec(),
        90 => format!("{} {}", "9".repeat(rng.gen_range(1..40)), "name").into_bytes(),
        91 => b"".to_vec(),
        92 => b"# interrupt".to_vec(),
        93..=95 => {
            let cmd = COMMANDS[rng.gen_range(0..COMMANDS.len())];
            format!("{cmd} {}", "7".repeat(rng.gen_range(20..200))).into_bytes()
        }
        _ => format!("fixed_handicap {}", rng.gen_range(0..11)).into_bytes(),
    };
    if rng.gen_range(0..10) == 0 {
        // Some lines get an id, some a control character or a CR.
        let mut with_id = format!("{} ", rng.gen::<u16>()).into_bytes();
        with_id.append(&mut line);
        line = with_id;
    }
    if rng.gen_range(0..20) == 0 {
        let at = rng.gen_range(0..=line.len());
        const CONTROLS: &[u8] = b"\x00\x01\x07\x08\t\x0b\x0c\r\x1b\x1f\x7f";
        line.insert(at, CONTROLS[rng.gen_range(0..CONTROLS.len())]);
    }
    if rng.gen_range(0..20) == 0 {
        line.push(b'\r');
    }
    line
}

struct Session {
    engine: Engine,
    state: String,
    size: usize,
    answered: usize,
    failed: usize,
}

impl Session {
    /// Sends one raw line followed by `showboard`, checks the answer to the
    /// line and that a failed command changed nothing.
    fn line(&mut self, raw: &[u8]) {
        let text = expected_text(raw);
        let verb = text
            .split_whitespace()
            .find(|t| !t.bytes().all(|b| b.is_ascii_digit()));
        if verb == Some("quit") {
            return;
        }
        let mut bytes = raw.to_vec();
        bytes.extend_from_slice(b"\nshowboard\n");
        self.engine.write_raw(&bytes);
        if !text.is_empty() {
            let reply = self.engine.read_reply();
            let first = text.split_whitespace().next().unwrap_or("");
            if first.bytes().all(|b| b.is_ascii_digit()) && !first.is_empty() {
                assert_eq!(reply.id, first, "id echoed for {text:.80}");
            } else {
                assert_eq!(reply.id, "", "no id for {text:.80}");
            }
            self.answered += 1;
            let board = self.engine.read_reply();
            assert!(board.ok);
            if !reply.ok {
                self.failed += 1;
                assert_eq!(
                    board.text, self.state,
                    "'{text:.120}' failed ({}) but changed the state",
                    reply.text
                );
            }
            if reply.ok && verb == Some("boardsize") {
                self.size = board.text.lines().count().saturating_sub(5).max(2);
            }
            self.state = board.text;
        } else {
            let board = self.engine.read_reply();
            assert_eq!(board.text, self.state, "an ignored line changed the state");
        }
    }
}

#[test]
fn random_and_malformed_lines_get_one_answer_each_and_change_nothing_when_refused() {
    let dir = std::env::temp_dir().join(format!("ishi-fuzz-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let engine = Engine::start(
        ISHI,
        // Small budgets: the fuzzer cares about framing, not strength.
        &[
            "--threads",
            "1",
            "--playouts",
            "20",
            "--score-playouts",
            "50",
            "--size",
            "9",
        ],
        Some(&dir),
    );
    let mut s = Session {
        engine,
        state: String::new(),
        size: 9,
        answered: 0,
        failed: 0,
    };
    s.state = s.engine.ok("showboard");
    let mut rng = SmallRng::seed_from_u64(0x15_41_f0_22);
    let started = Instant::now();
    let lines = 50_000;
    for i in 0..lines {
        let raw = random_line(&mut rng, s.size);
        s.line(&raw);
        if i % 10_000 == 0 {
            // Huge lines: garbage, a huge argument, a huge comment, spaces,
            // and one beyond the line limit.
            let mega = 1 << 20;
            s.line(&random_bytes(&mut rng, mega));
            s.line(format!("play b {}", "A".repeat(mega)).as_bytes());
            s.line(format!("name #{}", "x".repeat(mega)).as_bytes());
            s.line(" ".repeat(mega).as_bytes());
            s.line(format!("{} name", "1".repeat(mega)).as_bytes());
        }
        assert!(
            started.elapsed() < Duration::from_secs(120),
            "too slow at line {i}"
        );
    }
    s.line(format!("komi {}", "5".repeat(5 << 20)).as_bytes());
    println!(
        "{} lines, {} answered, {} refused, {:.1}s",
        lines,
        s.answered,
        s.failed,
        started.elapsed().as_secs_f64()
    );
    assert!(s.answered > lines / 2);
    assert!(s.failed > lines / 10, "refusals are exercised");
    assert!(s.failed < s.answered, "successes are exercised");
    let status = s.engine.finish();
    assert!(
        status.success(),
        "exit status {status:?} after end of input"
    );
    std::fs::remove_dir_all(&dir).ok();
}
