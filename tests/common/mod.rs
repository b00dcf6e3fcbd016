//! Driving GTP engines (ishi itself, GNU Go) through pipes in tests.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

pub const ISHI: &str = env!("CARGO_BIN_EXE_ishi");
pub const GNUGO: &str = "/usr/games/gnugo";

/// One GTP engine as a child process. Responses are read by a thread, so a
/// hanging engine fails the test after `timeout` instead of blocking it.
pub struct Engine {
    pub name: String,
    child: Child,
    stdin: Option<ChildStdin>,
    lines: mpsc::Receiver<String>,
    pub timeout: Duration,
}

/// A parsed response: success flag and the text after `=`/`?` and the id.
#[derive(Clone, Debug, PartialEq)]
pub struct Reply {
    pub ok: bool,
    pub id: String,
    pub text: String,
}

impl Engine {
    pub fn start(program: &str, args: &[&str], dir: Option<&Path>) -> Engine {
        let mut command = Command::new(program);
        command
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        if let Some(d) = dir {
            command.current_dir(d);
        }
        let mut child = command.spawn().unwrap_or_else(|e| panic!("{program}: {e}"));
        let stdout = child.stdout.take().expect("piped stdout");
        let stdin = child.stdin.take();
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            loop {
                let mut buf = Vec::new();
                match reader.read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => return,
                    Ok(_) => {
                        let line = String::from_utf8(buf).expect("stdout is UTF-8");
                        if tx.send(line).is_err() {
                            return;
                        }
                    }
                }
            }
        });
        Engine {
            name: program.rsplit('/').next().unwrap_or(program).to_string(),
            child,
            stdin,
            lines: rx,
            timeout: Duration::from_secs(120),
        }
    }

    pub fn ishi(args: &[&str]) -> Engine {
        Engine::start(ISHI, args, None)
    }

    pub fn write_raw(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(bytes).expect("engine reads stdin");
        stdin.flush().expect("flush");
    }

    pub fn close_stdin(&mut self) {
        self.stdin = None;
    }

    fn next_line(&self) -> Option<String> {
        match self.lines.recv_timeout(self.timeout) {
            Ok(l) => Some(l),
            Err(mpsc::RecvTimeoutError::Disconnected) => None,
            Err(mpsc::RecvTimeoutError::Timeout) => {
                panic!("{}: no response within {:?}", self.name, self.timeout)
            }
        }
    }

    /// Reads one framed response, checking the framing: first line `=` or
    /// `?` with an optional id, then lines up to the empty line, none empty.
    pub fn read_reply(&self) -> Reply {
        let first = self
            .next_line()
            .unwrap_or_else(|| panic!("{}: stdout closed", self.name));
        assert!(first.ends_with('\n'), "unterminated line {first:?}");
        let first = first.trim_end_matches('\n').trim_end_matches('\r');
        let ok = match first.chars().next() {
            Some('=') => true,
            Some('?') => false,
            _ => panic!(
                "{}: response does not start with = or ?: {first:?}",
                self.name
            ),
        };
        let rest = &first[1..];
        let id: String = rest.chars().take_while(|c| c.is_ascii_digit()).collect();
        let after_id = &rest[id.len()..];
        assert!(
            after_id.is_empty() || after_id.starts_with(' '),
            "{}: bad response start {first:?}",
            self.name
        );
        let mut text = after_id.trim_start_matches(' ').to_string();
        loop {
            let line = self
                .next_line()
                .unwrap_or_else(|| panic!("{}: stdout closed inside a response", self.name));
            let line = line.trim_end_matches('\n').trim_end_matches('\r');
            if line.is_empty() {
                break;
            }
            text.push('\n');
            text.push_str(line);
        }
        Reply { ok, id, text }
    }

    pub fn send(&mut self, command: &str) -> Reply {
        self.write_raw(format!("{command}\n").as_bytes());
        self.read_reply()
    }

    /// The text of a command that must succeed.
    pub fn ok(&mut self, command: &str) -> String {
        let r = self.send(command);
        assert!(r.ok, "{}: '{command}' failed: {}", self.name, r.text);
        r.text
    }

    /// True when no more output arrives and the process exits with 0.
    pub fn finish(mut self) -> std::process::ExitStatus {
        self.close_stdin();
        self.child.wait().expect("wait")
    }

    pub fn no_more_output(&self) -> bool {
        self.next_line().is_none()
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.stdin = None;
        if let Ok(None) = self.child.try_wait() {
            std::thread::sleep(Duration::from_millis(50));
            if let Ok(None) = self.child.try_wait() {
                let _ = self.child.kill();
            }
        }
        let _ = self.child.wait();
    }
}

pub fn gnugo_available() -> bool {
    Path::new(GNUGO).exists()
}

/// Vertices of a `list_stones`/`all_legal` answer as a sorted list.
pub fn vertex_set(text: &str) -> Vec<String> {
    let mut v: Vec<String> = text.split_whitespace().map(|s| s.to_uppercase()).collect();
    v.sort();
    v
}
