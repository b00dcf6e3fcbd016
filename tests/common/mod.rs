//! Playing ishi (in process, through `Searcher` and `Game`) against GNU Go
//! (a child process spoken to in GTP through pipes).

#![allow(dead_code)]

use ishi::board::coord::{move_name, parse_vertex};
use ishi::board::{Color, Move};
use ishi::game::Game;
use ishi::rules::Rules;
use ishi::search::{Decision, Limits, PlayoutKind, SearchConfig, Searcher};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::atomic::AtomicBool;

pub const GNUGO: &str = "/usr/games/gnugo";

pub struct Gtp {
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
}

impl Gtp {
    /// GNU Go at `level` with Chinese rules, or `None` when it is not installed.
    pub fn gnugo(level: u32) -> Option<Gtp> {
        let mut child = Command::new(GNUGO)
            .args([
                "--mode",
                "gtp",
                "--level",
                &level.to_string(),
                "--chinese-rules",
            ])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .ok()?;
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
                return Err("GNU Go closed its output".into());
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

#[derive(Clone, Copy)]
pub struct MatchConfig {
    pub size: usize,
    pub komi: f64,
    pub playouts: u64,
    pub threads: usize,
    pub level: u32,
    pub playout: PlayoutKind,
    pub seed: u64,
}

#[derive(Debug)]
pub struct GameRecord {
    pub ishi: Color,
    pub winner: Option<Color>,
    /// How the game ended: the referee's score, or who resigned.
    pub result: String,
    pub moves: usize,
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
    let mut gnugo = Gtp::gnugo(cfg.level).ok_or("GNU Go is not installed")?;
    gnugo.send(&format!("boardsize {}", cfg.size))?;
    gnugo.send("clear_board")?;
    gnugo.send(&format!("komi {}", cfg.komi))?;
    let mut rules = Rules::preset("chinese").map_err(|e| e.to_string())?;
    rules.komi = cfg.komi;
    let mut game = Game::new(cfg.size, rules).map_err(|e| e.to_string())?;
    let mut searcher = Searcher::new(SearchConfig {
        threads: cfg.threads,
        playouts: Some(cfg.playouts),
        playout: cfg.playout,
        seed: cfg.seed,
        ..SearchConfig::default()
    });
    let limits = Limits {
        playouts: Some(cfg.playouts),
        time: None,
    };
    let stop = AtomicBool::new(false);
    let mut to_move = Color::Black;
    let max_moves = 3 * cfg.size * cfg.size;
    let mut moves = 0;
    let verbose = std::env::var("ISHI_VERBOSE").is_ok();
    while moves < max_moves && !game.is_over() {
        let mv = if to_move == ishi {
            let outcome = searcher.genmove(&game, to_move, &limits, &stop);
            if verbose {
                let best = outcome.snapshot.candidates.first();
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
                    return Ok(GameRecord {
                        ishi,
                        winner: Some(ishi.opponent()),
                        result: format!("{}+Resign", letter(ishi.opponent())),
                        moves,
                    })
                }
                Decision::Play(mv) => {
                    game.play(to_move, mv)
                        .map_err(|e| format!("ishi played an illegal move: {e}"))?;
                    gnugo
                        .send(&format!(
                            "play {} {}",
                            letter(to_move),
                            move_name(mv, cfg.size)
                        ))
                        .map_err(|e| format!("GNU Go refused ishi's move: {e}"))?;
                    mv
                }
            }
        } else {
            let answer = gnugo.send(&format!("genmove {}", letter(to_move)))?;
            if verbose {
                println!("  {moves:3} gnugo {answer}");
            }
            if answer.eq_ignore_ascii_case("resign") {
                return Ok(GameRecord {
                    ishi,
                    winner: Some(ishi),
                    result: format!("{}+Resign", letter(ishi)),
                    moves,
                });
            }
            let mv = match parse_vertex(&answer, cfg.size).map_err(|e| e.to_string())? {
                Some(p) => Move::Place(p),
                None => Move::Pass,
            };
            game.play(to_move, mv)
                .map_err(|e| format!("GNU Go's {answer} is illegal here: {e}"))?;
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
    Ok(GameRecord {
        ishi,
        winner,
        result: score,
        moves,
    })
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
