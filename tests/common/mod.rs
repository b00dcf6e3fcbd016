//! Driving GTP engines (ishi itself, GNU Go) through pipes in tests, and
//! playing ishi in process against GNU Go.
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
        self.reply_from(first)
    }

    /// Like [`Engine::send`], but an engine that died reports `Err` with its
    /// exit status instead of failing the test: GNU Go 3.8 segfaults in
    /// some positions, and that is not the engine under test failing.
    pub fn send_checked(&mut self, command: &str) -> Result<Reply, String> {
        let written = self.stdin.as_mut().map(|stdin| {
            stdin
                .write_all(format!("{command}\n").as_bytes())
                .and_then(|_| stdin.flush())
        });
        let first = match written {
            Some(Ok(())) => self.next_line(),
            _ => None,
        };
        match first {
            Some(line) => Ok(self.reply_from(line)),
            None => {
                self.stdin = None;
                let status = self
                    .child
                    .wait()
                    .map_or_else(|e| e.to_string(), |s| s.to_string());
                Err(format!("{} died during '{command}': {status}", self.name))
            }
        }
    }

    fn reply_from(&self, first: String) -> Reply {
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

// ---- Playing ishi in process (through `Searcher` and `Game`) against GNU Go ----

use ishi::board::coord::{move_name, parse_vertex};
use ishi::board::{Color, Move};
use ishi::game::Game;
use ishi::rules::Rules;
use ishi::search::{Decision, Limits, PlayoutKind, SearchConfig, Searcher, Tuning};
use std::process::ChildStdout;
use std::sync::atomic::AtomicBool;

pub struct Gtp {
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
}

impl Gtp {
    /// GNU Go at `level` with Chinese rules, or `None` when it is not
    /// installed; its random choices are fixed by `seed` (without one it
    /// takes a seed from the clock, and no game could be replayed).
    pub fn gnugo(level: u32, seed: u64) -> Option<Gtp> {
        // GNU Go reads 0 as "take one from the clock".
        let seed = (seed % (i32::MAX as u64)).max(1);
        let args = [
            "--mode",
            "gtp",
            "--level",
            &level.to_string(),
            "--chinese-rules",
            "--seed",
            &seed.to_string(),
        ]
        .map(String::from);
        Gtp::spawn(GNUGO, &args)
    }

    /// Another engine as the opponent, from its command line (`{seed}` in
    /// an argument becomes the game's seed). It runs in its program's
    /// folder, where engines such as Pachi look for their data files.
    pub fn opponent(command: &[String], seed: u64) -> Option<Gtp> {
        let (program, args) = command.split_first()?;
        let args: Vec<String> = args
            .iter()
            .map(|a| a.replace("{seed}", &seed.to_string()))
            .collect();
        Gtp::spawn(program, &args)
    }

    fn spawn(program: &str, args: &[String]) -> Option<Gtp> {
        let mut command = Command::new(program);
        command
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        if let Some(dir) = Path::new(program).parent().filter(|d| d.is_dir()) {
            command.current_dir(dir);
        }
        let mut child = command.spawn().ok()?;
        let input = child.stdin.take()?;
        let output = BufReader::new(child.stdout.take()?);
        Some(Gtp {
            child,
            input,
            output,
        })
    }

    /// Sends one command; the answer without its `= ` prefix, or the error text.
    pub fn send(&mut self, command: &str) -> Result<String, String> {
        writeln!(self.input, "{command}").map_err(|e| e.to_string())?;
        self.input.flush().map_err(|e| e.to_string())?;
        let mut answer = String::new();
        loop {
            let mut line = String::new();
            let n = self
                .output
                .read_line(&mut line)
                .map_err(|e| e.to_string())?;
            if n == 0 {
                return Err("the engine closed its output".into());
            }
            if line.trim().is_empty() && !answer.is_empty() {
                break;
            }
            answer.push_str(&line);
        }
        let answer = answer.trim();
        if let Some(rest) = answer.strip_prefix('=') {
            Ok(rest.trim().to_string())
        } else {
            Err(answer.trim_start_matches('?').trim().to_string())
        }
    }
}

impl Drop for Gtp {
    fn drop(&mut self) {
        let _ = writeln!(self.input, "quit");
        let _ = self.input.flush();
        let _ = self.child.wait();
    }
}

#[derive(Clone)]
pub struct MatchConfig {
    pub size: usize,
    pub komi: f64,
    pub playouts: u64,
    pub threads: usize,
    pub level: u32,
    pub playout: PlayoutKind,
    pub seed: u64,
    /// Tree-search constants changed for a tuning match.
    pub tuning: Tuning,
    /// ishi's resign threshold, when not the default (0 never resigns).
    pub resign: Option<f64>,
    /// More playouts for ishi's moves in the opening: (playouts, plies).
    /// An experiment on what a deeper opening would be worth, not a way to
    /// play a match at a fixed playout count.
    pub opening: Option<(u64, usize)>,
    /// Another GTP engine to play against instead of GNU Go: its command
    /// line, and the name its games are saved under. GNU Go still follows
    /// every move and referees the final position.
    pub opponent: Option<(Vec<String>, String)>,
}

#[derive(Debug)]
pub struct GameRecord {
    pub ishi: Color,
    pub winner: Option<Color>,
    /// How the game ended: the referee's score, or who resigned.
    pub result: String,
    pub moves: usize,
    /// ishi's moves that came from the opening book.
    pub book_moves: usize,
    /// The game as SGF, with players, result and ishi's win rate after each
    /// of its moves in the game comment, for looking at losses afterwards.
    pub sgf: String,
}

impl GameRecord {
    pub fn ishi_won(&self) -> bool {
        self.winner == Some(self.ishi)
    }
}

fn letter(c: Color) -> &'static str {
    match c {
        Color::Black => "B",
        Color::White => "W",
    }
}

/// Plays one game; every ishi move must be legal for both ishi's rules and
/// GNU Go, or this returns an error.
pub fn play_game(cfg: &MatchConfig, ishi: Color) -> Result<GameRecord, String> {
    let mut gnugo = Gtp::gnugo(cfg.level, cfg.seed).ok_or("GNU Go is not installed")?;
    let mut other = match &cfg.opponent {
        Some((command, name)) => {
            Some(Gtp::opponent(command, cfg.seed).ok_or(format!("cannot start {name}"))?)
        }
        None => None,
    };
    let opponent_name = cfg.opponent.as_ref().map_or("GNU Go", |(_, name)| name);
    for engine in std::iter::once(&mut gnugo).chain(other.as_mut()) {
        engine.send(&format!("boardsize {}", cfg.size))?;
        engine.send("clear_board")?;
        engine.send(&format!("komi {}", cfg.komi))?;
    }
    let mut rules = Rules::preset("chinese").map_err(|e| e.to_string())?;
    rules.komi = cfg.komi;
    let mut game = Game::new(cfg.size, rules).map_err(|e| e.to_string())?;
    let defaults = SearchConfig::default();
    let mut searcher = Searcher::new(SearchConfig {
        threads: cfg.threads,
        playouts: Some(cfg.playouts),
        playout: cfg.playout,
        seed: cfg.seed,
        tuning: cfg.tuning.clone(),
        resign_threshold: cfg.resign.unwrap_or(defaults.resign_threshold),
        ..defaults
    });
    let limits_at = |ply: usize| Limits {
        playouts: Some(match cfg.opening {
            Some((playouts, plies)) if ply < plies => playouts,
            _ => cfg.playouts,
        }),
        time: None,
        unsettled_time: None,
    };
    let stop = AtomicBool::new(false);
    let mut to_move = Color::Black;
    let max_moves = 3 * cfg.size * cfg.size;
    let mut moves = 0;
    let verbose = std::env::var("ISHI_VERBOSE").is_ok();
    let mut winrates = Vec::new();
    let record = |game: &Game, winner: Option<Color>, result: String, winrates: &[String]| {
        let (pb, pw) = match ishi {
            Color::Black => ("ishi", opponent_name),
            Color::White => (opponent_name, "ishi"),
        };
        let header = format!(
            "PB[{pb}]PW[{pw}]RE[{result}]GC[seed {} playouts {}; ishi win rate by move: {}]",
            cfg.seed,
            cfg.playouts,
            winrates.join(" ")
        );
        let sgf = ishi::sgf::write_game(game).replacen("\n", &format!("{header}\n"), 1);
        GameRecord {
            ishi,
            winner,
            result,
            moves: game.plies().len(),
            book_moves: winrates.iter().filter(|w| w.ends_with('b')).count(),
            sgf,
        }
    };
    while moves < max_moves && !game.is_over() {
        let mv = if to_move == ishi {
            let outcome = searcher.genmove(&game, to_move, &limits_at(moves), &stop);
            let best = outcome.snapshot.candidates.first();
            if let Some(best) = best {
                // A move from the opening book (no playouts) is marked "b".
                let book = if outcome.snapshot.playouts == 0 {
                    "b"
                } else {
                    ""
                };
                winrates.push(format!("{}:{:.2}{book}", moves + 1, best.winrate));
            }
            if verbose {
                println!(
                    "  {moves:3} ishi {:?} -> {:?} winrate {:.3} lead {:.1}",
                    outcome.decision,
                    best.map(|c| move_name(c.mv, cfg.size)),
                    best.map_or(0.0, |c| c.winrate),
                    best.map_or(0.0, |c| c.score_lead)
                );
                if matches!(outcome.decision, Decision::Resign) {
                    println!("{}", game.board().to_ascii());
                }
            }
            match outcome.decision {
                Decision::Resign => {
                    let result = format!("{}+Resign", letter(ishi.opponent()));
                    return Ok(record(&game, Some(ishi.opponent()), result, &winrates));
                }
                Decision::Play(mv) => {
                    game.play(to_move, mv)
                        .map_err(|e| format!("ishi played an illegal move: {e}"))?;
                    let play = format!("play {} {}", letter(to_move), move_name(mv, cfg.size));
                    for engine in std::iter::once(&mut gnugo).chain(other.as_mut()) {
                        engine
                            .send(&play)
                            .map_err(|e| format!("the opponent refused ishi's move: {e}"))?;
                    }
                    mv
                }
            }
        } else {
            let genmove = format!("genmove {}", letter(to_move));
            let answer = other.as_mut().unwrap_or(&mut gnugo).send(&genmove)?;
            if verbose {
                println!("  {moves:3} {opponent_name} {answer}");
            }
            if answer.eq_ignore_ascii_case("resign") {
                let result = format!("{}+Resign", letter(ishi));
                return Ok(record(&game, Some(ishi), result, &winrates));
            }
            let mv = match parse_vertex(&answer, cfg.size).map_err(|e| e.to_string())? {
                Some(p) => Move::Place(p),
                None => Move::Pass,
            };
            game.play(to_move, mv)
                .map_err(|e| format!("{opponent_name}'s {answer} is illegal here: {e}"))?;
            if other.is_some() {
                gnugo
                    .send(&format!("play {} {answer}", letter(to_move)))
                    .map_err(|e| format!("GNU Go, refereeing, refused {answer}: {e}"))?;
            }
            mv
        };
        let _ = mv;
        moves += 1;
        to_move = to_move.opponent();
    }
    let score = gnugo.send("final_score")?;
    let winner = match score.chars().next() {
        Some('B') => Some(Color::Black),
        Some('W') => Some(Color::White),
        _ => None,
    };
    Ok(record(&game, winner, score, &winrates))
}

/// The 95% Wilson score interval for `wins` out of `n`.
pub fn wilson(wins: usize, n: usize) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let z = 1.96f64;
    let n = n as f64;
    let p = wins as f64 / n;
    let denominator = 1.0 + z * z / n;
    let centre = (p + z * z / (2.0 * n)) / denominator;
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / denominator;
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// A seki without eyes: the white C column and the black D-E chain share
/// D9 and D1, and whoever fills one is captured. Black's area is 18 + 16
/// seki stones, White's 36 + 9 seki stones.
pub const SEKI_WITHOUT_EYES: &str = "
    . X O . X O O O .
    X X O X X O O O O
    . X O X X O O O .
    X X O X X O O O O
    X X O X X O O O O
    X X O X X O O O O
    X X O X X O O O O
    X X O X X O O O O
    X X O . X O O O O";
