//! Runs every regression file in `gtp-scripts/` against the built binary,
//! with the rules of gogui-regress: a command with a numeric id is a test;
//! `#? [pattern]` after it is a regular expression the whole response must
//! match (`[!pattern]` must not match); a trailing `*` marks a known
//! failure. An error response fails a test, and an error response to a
//! command without id counts as an error of the file.

mod common;

use common::{Engine, ISHI};
use regex::Regex;
use std::path::{Path, PathBuf};

#[derive(Debug, Default)]
struct Summary {
    passed: usize,
    expected_failures: usize,
    unexpected_passes: Vec<String>,
    failures: Vec<String>,
}

fn check(pattern_line: &str, reply: &common::Reply, command: &str, summary: &mut Summary) {
    let mut pattern = pattern_line.trim();
    let expected_fail = pattern.ends_with('*');
    if expected_fail {
        pattern = &pattern[..pattern.len() - 1];
    }
    let inner = pattern
        .strip_prefix('[')
        .and_then(|p| p.strip_suffix(']'))
        .unwrap_or_else(|| panic!("pattern without brackets: {pattern_line}"))
        .trim();
    let (negated, regex) = match inner.strip_prefix('!') {
        Some(r) => (true, r),
        None => (false, inner),
    };
    // Java's `matches()` with MULTILINE | DOTALL: the whole response.
    let re = Regex::new(&format!(r"(?ms)\A(?:{regex})\z"))
        .unwrap_or_else(|e| panic!("bad pattern {regex}: {e}"));
    let fail = !reply.ok || re.is_match(reply.text.trim()) == negated;
    let what = format!("{command}: expected [{inner}], got '{}'", reply.text);
    match (fail, expected_fail) {
        (false, false) => summary.passed += 1,
        (true, true) => summary.expected_failures += 1,
        (false, true) => summary.unexpected_passes.push(what),
        (true, false) => summary.failures.push(what),
    }
}

fn run_file(path: &Path) -> Summary {
    let dir = path.parent().expect("in a directory");
    let mut engine = Engine::start(ISHI, &["--threads", "1", "--playouts", "100"], Some(dir));
    let text = std::fs::read_to_string(path).expect("readable");
    let mut summary = Summary::default();
    // The last command and its reply, until a pattern or the next command.
    let mut pending: Option<(String, bool, common::Reply)> = None;
    let finish_pending = |pending: &mut Option<(String, bool, common::Reply)>, s: &mut Summary| {
        if let Some((command, is_test, reply)) = pending.take() {
            if !reply.ok {
                s.failures
                    .push(format!("{command}: error '{}'", reply.text));
            } else if is_test {
                s.passed += 1;
            }
        }
    };
    for (number, line) in text.lines().enumerate() {
        let line = line.trim();
        let place = format!("{}:{}", path.display(), number + 1);
        if let Some(pattern) = line.strip_prefix("#?") {
            let (command, _, reply) = pending
                .take()
                .unwrap_or_else(|| panic!("{place}: pattern without a command"));
            if !pattern.trim().is_empty() {
                check(pattern, &reply, &command, &mut summary);
            }
            continue;
        }
        finish_pending(&mut pending, &mut summary);
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let is_test = line
            .split_once(' ')
            .is_some_and(|(id, _)| id.bytes().all(|b| b.is_ascii_digit()));
        let reply = engine.send(line);
        pending = Some((format!("{place} {line}"), is_test, reply));
    }
    finish_pending(&mut pending, &mut summary);
    engine.ok("quit");
    assert!(engine.finish().success());
    summary
}

fn script_files() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("gtp-scripts");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("gtp-scripts/ exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "tst"))
        .collect();
    files.sort();
    files
}

#[test]
fn every_regression_file_passes() {
    let files = script_files();
    assert!(files.len() >= 7, "the scripts are there: {files:?}");
    let mut failures = Vec::new();
    let mut total = 0;
    for file in &files {
        let s = run_file(file);
        total += s.passed + s.expected_failures + s.failures.len() + s.unexpected_passes.len();
        println!(
            "{}: {} passed, {} known failures, {} unexpected passes, {} failures",
            file.display(),
            s.passed,
            s.expected_failures,
            s.unexpected_passes.len(),
            s.failures.len()
        );
        for p in &s.unexpected_passes {
            println!("  unexpected PASS (remove the * mark): {p}");
        }
        failures.extend(s.failures);
    }
    assert!(total >= 120, "only {total} tests");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn the_runner_catches_wrong_answers() {
    // The runner itself: a wrong expectation must be reported.
    let dir = std::env::temp_dir().join(format!("ishi-regress-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("wrong.tst");
    std::fs::write(
        &file,
        "boardsize 9\n1 protocol_version\n#? [3]\n2 name\n#? [!ishi]\n3 play b Z99\n4 name\n#? [ishi]\n5 name\n#? [x]*\n",
    )
    .unwrap();
    let s = run_file(&file);
    assert_eq!(s.passed, 1);
    assert_eq!(s.failures.len(), 3, "{:?}", s.failures);
    assert_eq!(s.expected_failures, 1);
    std::fs::remove_dir_all(&dir).ok();
}
