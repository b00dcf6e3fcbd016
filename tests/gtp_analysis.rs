//! Live analysis, GoGui's analyze commands and interrupts, through the
//! binary: every streamed line parses under its dialect's format, and an
//! analysis ends within 100 ms of the next line arriving (measured and
//! printed).

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

const ISHI: &str = env!("CARGO_BIN_EXE_ishi");
const STOP_LIMIT: Duration = Duration::from_millis(100);

/// The engine with every stdout line timestamped as it arrives.
struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<(Instant, String)>,
}

impl Engine {
    fn start(args: &[&str]) -> Engine {
        let mut child = Command::new(ISHI)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start ishi");
        let stdout = child.stdout.take().expect("piped");
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { return };
                if tx.send((Instant::now(), line)).is_err() {
                    return;
                }
            }
        });
        Engine {
            stdin: child.stdin.take(),
            child,
            lines: rx,
        }
    }

    fn write(&mut self, line: &str) -> Instant {
        let stdin = self.stdin.as_mut().expect("stdin open");
        let at = Instant::now();
        stdin
            .write_all(format!("{line}\n").as_bytes())
            .expect("write");
        stdin.flush().expect("flush");
        at
    }

    fn line(&self, wait: Duration) -> (Instant, String) {
        match self.lines.recv_timeout(wait) {
            Ok(l) => l,
            Err(RecvTimeoutError::Timeout) => panic!("no output within {wait:?}"),
            Err(RecvTimeoutError::Disconnected) => panic!("stdout closed"),
        }
    }

    /// The lines of one response up to its empty line, and when that came.
    fn response(&self, wait: Duration) -> (Vec<String>, Instant) {
        let mut lines = Vec::new();
        loop {
            let (at, line) = self.line(wait);
            if line.is_empty() {
                return (lines, at);
            }
            lines.push(line);
        }
    }

    fn ok(&mut self, command: &str) -> String {
        self.write(command);
        let (lines, _) = self.response(Duration::from_secs(60));
        let first = lines.first().cloned().unwrap_or_default();
        assert!(first.starts_with('='), "'{command}' failed: {lines:?}");
        let mut text = first[1..].trim_start().to_string();
        for l in &lines[1..] {
            text.push('\n');
            text.push_str(l);
        }
        text
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.stdin = None;
        std::thread::sleep(Duration::from_millis(20));
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
    }
}

fn is_vertex(t: &str) -> bool {
    if t.eq_ignore_ascii_case("pass") {
        return true;
    }
    let mut chars = t.chars();
    let letter = chars.next().map(|c| c.to_ascii_uppercase());
    let digits = chars.as_str();
    matches!(letter, Some('A'..='Z')) && letter != Some('I') && {
        let n: usize = digits.parse().unwrap_or(0);
        (1..=25).contains(&n) && !digits.starts_with('0')
    }
}

#[derive(Clone, Copy, PartialEq)]
enum Winrate {
    Integer,
    Float,
}

/// Parses one analysis line strictly; returns the candidates' moves.
fn parse_info(line: &str, winrate: Winrate, ownership: Option<usize>) -> Vec<String> {
    let tokens: Vec<&str> = line.split(' ').collect();
    assert!(
        tokens.iter().all(|t| !t.is_empty()),
        "single spaces: {line}"
    );
    let mut moves = Vec::new();
    let mut i = 0;
    let mut owned = None;
    while i < tokens.len() {
        if tokens[i] == "ownership" {
            owned = Some(&tokens[i + 1..]);
            break;
        }
        assert_eq!(tokens[i], "info", "candidate starts with info: {line}");
        i += 1;
        let mut fields = std::collections::HashMap::new();
        while tokens.get(i) != Some(&"pv") {
            let key = tokens.get(i).unwrap_or_else(|| panic!("no pv: {line}"));
            let value = tokens.get(i + 1).unwrap_or_else(|| panic!("{key} alone"));
            fields.insert(*key, *value);
            i += 2;
        }
        i += 1;
        let pv_start = i;
        while i < tokens.len() && tokens[i] != "info" && tokens[i] != "ownership" {
            assert!(
                is_vertex(tokens[i]),
                "pv holds vertices only: {}",
                tokens[i]
            );
            i += 1;
        }
        assert!(i > pv_start, "empty pv: {line}");
        let mv = fields["move"];
        assert!(is_vertex(mv));
        assert_eq!(tokens[pv_start], mv, "pv starts with the move");
        assert!(fields["visits"].parse::<u64>().is_ok());
        assert_eq!(fields["order"].parse::<usize>().unwrap(), moves.len());
        let w = fields["winrate"];
        match winrate {
            Winrate::Integer => {
                let v: u32 = w.parse().unwrap_or_else(|_| panic!("integer winrate {w}"));
                assert!(v <= 10_000);
                assert!(fields["prior"].parse::<u32>().is_ok_and(|p| p <= 10_000));
            }
            Winrate::Float => {
                assert!(w.contains('.'), "float winrate {w}");
                let v: f64 = w.parse().unwrap();
                assert!((0.0..=1.0).contains(&v));
                assert!(fields["scoreLead"].parse::<f64>().is_ok_and(f64::is_finite));
            }
        }
        moves.push(mv.to_string());
    }
    assert!(!moves.is_empty(), "at least one candidate: {line}");
    match (ownership, owned) {
        (None, None) => {}
        (Some(n), Some(values)) => {
            assert_eq!(values.len(), n * n);
            for v in values {
                let v: f64 = v.parse().unwrap();
                assert!((-1.0..=1.0).contains(&v));
            }
        }
        _ => panic!("ownership expected {ownership:?}: {line:.200}"),
    }
    moves
}

/// Starts `command`, lets it stream for `run`, sends `name`, and returns
/// the streamed lines and the milliseconds from writing `name` to the end
/// of the analysis response.
fn analyse_then_interrupt(e: &mut Engine, command: &str, run: Duration) -> (Vec<String>, f64) {
    e.write(command);
    let (_, first) = e.line(Duration::from_secs(5));
    assert_eq!(first, "=", "'=' alone first");
    std::thread::sleep(run);
    let sent = e.write("name");
    let (lines, ended) = e.response(Duration::from_secs(5));
    let stop_ms = ended.saturating_duration_since(sent).as_secs_f64() * 1000.0;
    let (name, _) = e.response(Duration::from_secs(5));
    assert_eq!(name, ["= ishi"], "the next command is answered");
    (lines, stop_ms)
}

#[test]
fn analysis_lines_parse_and_stop_within_100_ms_of_the_next_line() {
    for size in [9, 19] {
        let mut e = Engine::start(&["--threads", "1", "--seed", "3"]);
        e.ok(&format!("boardsize {size}"));
        e.ok("play b D4");
        for (command, winrate, ownership) in [
            ("lz-analyze b 5", Winrate::Integer, None),
            ("analyze 5", Winrate::Integer, None),
            ("kata-analyze w interval 5 maxmoves 3", Winrate::Float, None),
            (
                "kata-analyze interval 5 ownership true",
                Winrate::Float,
                Some(size),
            ),
        ] {
            let (lines, stop_ms) =
                analyse_then_interrupt(&mut e, command, Duration::from_millis(400));
            println!(
                "{size}x{size} '{command}': {} lines, ended {stop_ms:.1} ms after the next line",
                lines.len()
            );
            assert!(lines.len() >= 3, "a line every 50 ms: {}", lines.len());
            for line in &lines {
                let moves = parse_info(line, winrate, ownership);
                if command.contains("maxmoves 3") {
                    assert!(moves.len() <= 3);
                }
            }
            assert!(
                stop_ms < STOP_LIMIT.as_secs_f64() * 1000.0,
                "'{command}' ended {stop_ms:.1} ms after the next line"
            );
        }
        // The position is unchanged by analysis.
        assert_eq!(e.ok("list_stones b"), "D4");
        assert_eq!(e.ok("list_stones w"), "");
    }
}

#[test]
fn analysis_ends_at_quit_and_at_the_end_of_input() {
    let mut e = Engine::start(&["--threads", "1", "--size", "9"]);
    e.write("lz-analyze b 5");
    std::thread::sleep(Duration::from_millis(200));
    e.write("quit");
    let (lines, _) = e.response(Duration::from_secs(5));
    assert_eq!(lines[0], "=");
    let (quit, _) = e.response(Duration::from_secs(5));
    assert_eq!(quit, ["="]);
    assert!(e.child.wait().expect("exit").success());

    let mut e = Engine::start(&["--threads", "1", "--size", "9"]);
    e.write("kata-analyze b 5");
    std::thread::sleep(Duration::from_millis(200));
    e.stdin = None;
    let (lines, _) = e.response(Duration::from_secs(5));
    assert_eq!(lines[0], "=");
    assert!(e.child.wait().expect("exit").success());
}

#[test]
fn genmove_analyze_streams_then_plays() {
    let mut e = Engine::start(&["--threads", "1", "--size", "9", "--time", "0.6"]);
    for (command, winrate) in [
        ("lz-genmove_analyze b 10", Winrate::Integer),
        ("kata-genmove_analyze w 10", Winrate::Float),
        ("genmove_analyze b", Winrate::Integer),
    ] {
        e.write(command);
        let (lines, _) = e.response(Duration::from_secs(10));
        assert_eq!(lines[0], "=", "{command}");
        let (last, infos) = lines[1..].split_last().expect("a play line");
        assert!(
            !infos.is_empty(),
            "analysis before the move: {command} {lines:?}"
        );
        for l in infos {
            parse_info(l, winrate, None);
        }
        let mv = last
            .strip_prefix("play ")
            .unwrap_or_else(|| panic!("{last}"));
        assert!(is_vertex(mv), "{mv}");
        if mv != "pass" {
            let colour = command.split(' ').nth(1).unwrap();
            let stones = e.ok(&format!("list_stones {colour}"));
            assert!(
                stones.split(' ').any(|s| s.eq_ignore_ascii_case(mv)),
                "{mv} played: {stones}"
            );
        }
    }
}

/// A move the opening book holds is played at once by the streamed
/// genmoves too (the CGOS client asks `kata-genmove_analyze` for every
/// move): no search spends the clock on a move it would not play, and no
/// line streams a choice other than the one played.
#[test]
fn a_streamed_genmove_plays_the_book_move_at_once_without_analysis() {
    let think = Duration::from_secs(10);
    let args = ["--threads", "1", "--size", "9", "--time", "10"];
    let mut plain = Engine::start(&args);
    plain.ok("komi 7");
    let book_move = plain.ok("genmove b");
    for command in [
        "kata-genmove_analyze b ownership true",
        "lz-genmove_analyze b 10",
        "genmove_analyze b",
    ] {
        let mut e = Engine::start(&args);
        e.ok("komi 7");
        let sent = e.write(command);
        let (lines, at) = e.response(think * 2);
        assert!(at - sent < think / 5, "{command} took {:?}", at - sent);
        assert_eq!(lines, ["=", &format!("play {book_move}")], "{command}");
        let stones = e.ok("list_stones b");
        assert_eq!(stones, book_move, "{command}");
    }
}

#[test]
fn gogui_interrupt_ends_a_long_genmove_with_a_move() {
    let mut e = Engine::start(&["--threads", "1", "--size", "9", "--time", "60"]);
    assert!(e
        .ok("list_commands")
        .lines()
        .any(|l| l == "gogui-interrupt"));
    e.ok("play b E5");
    let begun = e.write("genmove w");
    std::thread::sleep(Duration::from_millis(500));
    let sent = e.write("# interrupt");
    let (lines, at) = e.response(Duration::from_secs(5));
    let ms = at.saturating_duration_since(sent).as_secs_f64() * 1000.0;
    println!(
        "genmove interrupted after {:.0} ms, answered {ms:.1} ms after '# interrupt'",
        sent.duration_since(begun).as_secs_f64() * 1000.0
    );
    assert_eq!(lines.len(), 1, "{lines:?}");
    let mv = lines[0].strip_prefix("= ").expect("success");
    assert!(
        is_vertex(mv) && mv != "pass",
        "a real move after 500 ms: {mv}"
    );
    assert!(ms < 100.0, "{ms} ms");
    assert!(e.ok("list_stones w").eq_ignore_ascii_case(mv));
    // The interrupt line itself is not answered: the next answer is name's.
    assert_eq!(e.ok("name"), "ishi");
}

#[test]
fn gogui_analyze_commands_all_answer_in_their_display_format() {
    let mut e = Engine::start(&["--threads", "1", "--size", "9", "--playouts", "300"]);
    for mv in ["b C3", "w G7", "b C7", "w G3", "b E5"] {
        e.ok(&format!("play {mv}"));
    }
    let entries = e.ok("gogui-analyze_commands");
    let known: Vec<String> = e.ok("list_commands").lines().map(str::to_string).collect();
    let mut types = Vec::new();
    for entry in entries.lines() {
        let mut parts = entry.splitn(3, '/');
        let (kind, label, command) = (
            parts.next().unwrap(),
            parts.next().unwrap(),
            parts.next().unwrap(),
        );
        assert!(!label.is_empty());
        let command = command.replace("%c", "w");
        let name = command.split(' ').next().unwrap();
        assert!(known.iter().any(|k| k == name), "{name} is listed");
        let text = e.ok(&command);
        types.push(kind.to_string());
        match kind {
            "dboard" => {
                let rows: Vec<&str> = text.lines().collect();
                assert_eq!(rows.len(), 9, "{text}");
                for row in rows {
                    let values: Vec<f64> = row.split(' ').map(|v| v.parse().unwrap()).collect();
                    assert_eq!(values.len(), 9);
                    assert!(values.iter().all(|v| (-1.0..=1.0).contains(v)));
                }
            }
            "gfx" => {
                for line in text.lines() {
                    let verb = line.split(' ').next().unwrap();
                    assert!(
                        ["LABEL", "SQUARE", "TEXT", "VAR", "INFLUENCE"].contains(&verb),
                        "{line}"
                    );
                    if verb == "VAR" {
                        let rest: Vec<&str> = line.split(' ').skip(1).collect();
                        assert!(rest.len() >= 2 && rest.len().is_multiple_of(2), "{line}");
                        assert_eq!(rest[0], "w", "the variation starts with the colour asked");
                        assert!(rest
                            .chunks(2)
                            .all(|p| ["b", "w"].contains(&p[0]) && is_vertex(p[1])));
                    }
                    if verb == "INFLUENCE" {
                        assert_eq!(line.split(' ').count(), 1 + 2 * 81);
                    }
                }
            }
            "plist" => assert!(text.split_whitespace().all(is_vertex), "{text}"),
            "string" => assert!(!text.is_empty(), "{command}"),
            _ => {}
        }
    }
    for needed in ["gfx", "dboard", "plist", "string"] {
        assert!(types.iter().any(|t| t == needed), "{needed}");
    }
    let best = e.ok("ishi-best_moves w");
    assert!(best.starts_with("LABEL "), "{best}");
    assert!(best.contains("TEXT White to move"), "{best}");
    assert!(e.ok("ishi-score_estimate").contains("playouts average"));
    assert!(e.ok("ishi-rules").starts_with("chinese"));
}

/// Root visits of an analysis line: the sum over its moves.
fn visits_in(line: &str) -> u64 {
    line.split(" visits ")
        .skip(1)
        .filter_map(|rest| rest.split(' ').next()?.parse::<u64>().ok())
        .sum()
}

#[test]
fn genmove_analyze_keeps_to_the_playout_limit() {
    // Two threads of fast 9x9 playouts: a limit checked only between
    // reports (every 50 ms) let the streamed search run far past it.
    let mut e = Engine::start(&["--threads", "2", "--size", "9", "--playouts", "3000"]);
    e.write("kata-genmove_analyze b 1000");
    let (lines, _) = e.response(Duration::from_secs(20));
    assert_eq!(lines[0], "=");
    let (last, infos) = lines[1..].split_last().expect("a play line");
    assert!(last.starts_with("play "), "{last}");
    let streamed = infos.last().map_or(0, |l| visits_in(l));
    assert!(
        streamed > 0 && streamed <= 3000,
        "{streamed} visits: {infos:?}"
    );
}
