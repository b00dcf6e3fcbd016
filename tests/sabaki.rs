//! Sabaki's own GTP library (`@sabaki/gtp`, pinned in tests/sabaki) drives
//! the engine as Sabaki does: attach, sync with undo and
//! set_free_handicap, genmove, live analysis stopped by the next command.
//! The checks live in tests/sabaki/sabaki.test.js; this runs it (after
//! `npm ci` when its modules are missing) and fails when it does.

use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

const HARNESS_DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/sabaki");

/// Runs a command to its end or kills it after `limit`.
fn run_bounded(mut command: Command, limit: Duration) -> Output {
    let mut child = command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {command:?}: {e} (are node and npm installed?)"));
    let started = Instant::now();
    // Output is read by threads so that a chatty child never blocks.
    let mut stdout = child.stdout.take().expect("piped");
    let mut stderr = child.stderr.take().expect("piped");
    let out = std::thread::spawn(move || {
        let mut v = Vec::new();
        std::io::Read::read_to_end(&mut stdout, &mut v).ok();
        v
    });
    let err = std::thread::spawn(move || {
        let mut v = Vec::new();
        std::io::Read::read_to_end(&mut stderr, &mut v).ok();
        v
    });
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break status;
        }
        if started.elapsed() > limit {
            let _ = child.kill();
            let status = child.wait().expect("wait");
            let stdout = String::from_utf8_lossy(&out.join().unwrap_or_default()).into_owned();
            panic!("{command:?} did not finish within {limit:?} ({status:?}); output so far:\n{stdout}");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    Output {
        status,
        stdout: out.join().unwrap_or_default(),
        stderr: err.join().unwrap_or_default(),
    }
}

#[test]
fn sabaki_gtp_library_attaches_syncs_and_analyses() {
    let dir = Path::new(HARNESS_DIR);
    if !dir.join("node_modules/@sabaki/gtp").exists() {
        let mut npm = Command::new("npm");
        npm.args(["ci", "--no-audit", "--no-fund"]).current_dir(dir);
        let out = run_bounded(npm, Duration::from_secs(300));
        assert!(
            out.status.success(),
            "npm ci failed:\n{}\n{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let mut node = Command::new("node");
    node.arg("sabaki.test.js")
        .arg(env!("CARGO_BIN_EXE_ishi"))
        .current_dir(dir);
    let out = run_bounded(node, Duration::from_secs(180));
    let stdout = String::from_utf8_lossy(&out.stdout);
    println!("{stdout}");
    eprintln!("{}", String::from_utf8_lossy(&out.stderr));
    assert!(
        out.status.success(),
        "the Sabaki harness failed ({:?}):\n{stdout}",
        out.status
    );
    assert!(stdout.contains(" passed, 0 failed"), "{stdout}");
}
