//! A GTP line turned into a typed command before anything runs, so that the
//! handler only ever sees well-formed requests and every argument error is
//! answered the same way.

use super::analysis::AnalyzeArgs;
use super::clock::TimeSystem;
use super::table::{find, Spec};
use crate::board::Color;

/// A vertex as GTP writes it, before it is checked against the board size:
/// column `0..25` (letters without `I`), row `1..=25`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Vertex {
    Pass,
    At { col: u8, row: u8 },
}

const LETTERS: &[u8] = b"ABCDEFGHJKLMNOPQRSTUVWXYZ";

impl Vertex {
    pub fn parse(s: &str) -> Option<Vertex> {
        if s.eq_ignore_ascii_case("pass") {
            return Some(Vertex::Pass);
        }
        let mut chars = s.chars();
        let letter = chars.next()?.to_ascii_uppercase();
        let col = LETTERS.iter().position(|&l| l as char == letter)?;
        let digits = chars.as_str();
        if digits.is_empty() || digits.len() > 2 || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let row: u8 = digits.parse().ok()?;
        (1..=25).contains(&row).then_some(Vertex::At {
            col: col as u8,
            row,
        })
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StoneStatus {
    Alive,
    Dead,
    Seki,
}

/// How `genmove` variants differ: whether the move is played and whether
/// dead opposing stones must be captured before passing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GenmoveKind {
    Play,
    /// `reg_genmove`: choose, do not play.
    Regression,
    /// `kgs-genmove_cleanup`: never pass while dead opposing stones remain.
    Cleanup,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    ProtocolVersion,
    Name,
    Version,
    KnownCommand(String),
    ListCommands,
    Quit,
    /// Any integer; the handler answers `unacceptable size` outside 2..=25.
    BoardSize(i64),
    ClearBoard,
    Komi(f64),
    Play(Color, Vertex),
    Genmove(Color, GenmoveKind),
    Undo,
    GgUndo(i64),
    FixedHandicap(i64),
    PlaceFreeHandicap(i64),
    SetFreeHandicap(Vec<Vertex>),
    TimeSettings(TimeSystem),
    TimeLeft {
        color: Color,
        seconds: f64,
        stones: i64,
    },
    FinalScore,
    FinalStatusList(StoneStatus),
    LoadSgf {
        path: String,
        move_number: Option<i64>,
    },
    PrintSgf(Option<String>),
    ShowBoard,
    ListStones(Color),
    AllLegal(Color),
    IsLegal(Color, Vertex),
    Captures(Color),
    CpuTime,
    KgsRules(String),
    KgsGameOver,
    IshiRules(Option<String>),
    IshiRule {
        knob: String,
        value: String,
    },
    /// Listed so that GoGui sends `# interrupt`; as a command it does nothing.
    GoguiInterrupt,
    /// `lz-analyze`, `kata-analyze`, `analyze` and their genmove variants.
    Analyze(AnalyzeArgs),
    GoguiAnalyzeCommands,
    /// GoGui displays: a search's best moves, its principal variation, the
    /// ownership estimate as numbers and as influence, the score estimate.
    IshiBestMoves(Color),
    IshiPv(Color),
    IshiOwnership,
    IshiTerritory,
    IshiScoreEstimate,
}

/// Why a line could not become a command; `Display` gives the GTP text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ParseError {
    UnknownCommand,
    Syntax,
}

impl std::fmt::Display for ParseError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            ParseError::UnknownCommand => "unknown command",
            ParseError::Syntax => "syntax error",
        })
    }
}

/// A preprocessed line: its optional id and the command or why there is none.
#[derive(Clone, Debug, PartialEq)]
pub struct Request {
    pub id: Option<String>,
    pub command: Result<Command, ParseError>,
}

/// Parses one preprocessed, non-empty line.
pub fn parse_line(line: &str) -> Request {
    let mut tokens = line.split_ascii_whitespace().peekable();
    let id = match tokens.peek() {
        Some(t) if t.bytes().all(|b| b.is_ascii_digit()) => tokens.next().map(str::to_string),
        _ => None,
    };
    let command = match tokens.next() {
        None => Err(ParseError::UnknownCommand),
        Some(name) => match find(name) {
            None => Err(ParseError::UnknownCommand),
            Some(spec) => parse_args(spec, tokens.collect()),
        },
    };
    Request { id, command }
}

fn parse_args(spec: &Spec, args: Vec<&str>) -> Result<Command, ParseError> {
    let mut args = Args {
        tokens: args.into_iter(),
    };
    let command = (spec.parse)(&mut args)?;
    args.end()?;
    Ok(command)
}

/// The arguments of one command, consumed left to right.
pub struct Args<'a> {
    tokens: std::vec::IntoIter<&'a str>,
}

type Parsed<T> = Result<T, ParseError>;

impl<'a> Args<'a> {
    fn next(&mut self) -> Parsed<&'a str> {
        self.tokens.next().ok_or(ParseError::Syntax)
    }

    pub fn word(&mut self) -> Parsed<String> {
        self.next().map(str::to_string)
    }

    pub fn opt_word(&mut self) -> Option<String> {
        self.tokens.next().map(str::to_string)
    }

    pub fn color(&mut self) -> Parsed<Color> {
        Color::parse(self.next()?).map_err(|_| ParseError::Syntax)
    }

    pub fn vertex(&mut self) -> Parsed<Vertex> {
        Vertex::parse(self.next()?).ok_or(ParseError::Syntax)
    }

    /// Every remaining argument as a vertex.
    pub fn vertices(&mut self) -> Parsed<Vec<Vertex>> {
        let mut out = Vec::new();
        for t in self.tokens.by_ref() {
            out.push(Vertex::parse(t).ok_or(ParseError::Syntax)?);
        }
        Ok(out)
    }

    /// An integer; digit strings too long for `i64` saturate, so that a
    /// huge board size is answered `unacceptable size`, not `syntax error`.
    pub fn int(&mut self) -> Parsed<i64> {
        parse_int(self.next()?).ok_or(ParseError::Syntax)
    }

    pub fn opt_int(&mut self) -> Parsed<Option<i64>> {
        match self.tokens.next() {
            None => Ok(None),
            Some(t) => parse_int(t).map(Some).ok_or(ParseError::Syntax),
        }
    }

    pub fn float(&mut self) -> Parsed<f64> {
        let t = self.next()?;
        let v: f64 = t.parse().map_err(|_| ParseError::Syntax)?;
        v.is_finite().then_some(v).ok_or(ParseError::Syntax)
    }

    /// A time in seconds: finite and not negative.
    pub fn seconds(&mut self) -> Parsed<f64> {
        let v = self.float()?;
        (v >= 0.0).then_some(v).ok_or(ParseError::Syntax)
    }

    pub fn count(&mut self) -> Parsed<i64> {
        let v = self.int()?;
        (v >= 0).then_some(v).ok_or(ParseError::Syntax)
    }

    pub fn end(&mut self) -> Parsed<()> {
        match self.tokens.next() {
            None => Ok(()),
            Some(_) => Err(ParseError::Syntax),
        }
    }
}

fn parse_int(t: &str) -> Option<i64> {
    let (negative, digits) = match t.as_bytes().first()? {
        b'-' => (true, &t[1..]),
        b'+' => (false, &t[1..]),
        _ => (false, t),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let magnitude = digits.parse::<i64>().unwrap_or(i64::MAX);
    Some(if negative { -magnitude } else { magnitude })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cmd(line: &str) -> Result<Command, ParseError> {
        parse_line(line).command
    }

    #[test]
    fn ids_are_echoed_verbatim() {
        let r = parse_line("0042 name");
        assert_eq!(r.id.as_deref(), Some("0042"));
        assert_eq!(r.command, Ok(Command::Name));
        let r = parse_line("7 frobnicate");
        assert_eq!(r.id.as_deref(), Some("7"));
        assert_eq!(r.command, Err(ParseError::UnknownCommand));
        assert_eq!(parse_line("12").command, Err(ParseError::UnknownCommand));
    }

    #[test]
    fn vertices_and_colours() {
        assert_eq!(
            cmd("play B d4"),
            Ok(Command::Play(Color::Black, Vertex::At { col: 3, row: 4 }))
        );
        assert_eq!(
            cmd("play white PASS"),
            Ok(Command::Play(Color::White, Vertex::Pass))
        );
        assert_eq!(
            cmd("play w Z25"),
            Ok(Command::Play(Color::White, Vertex::At { col: 24, row: 25 }))
        );
        for bad in [
            "play b i5",
            "play b a0",
            "play b a26",
            "play x a1",
            "play b",
            "play b a1 c3",
            "play b a+1",
        ] {
            assert_eq!(cmd(bad), Err(ParseError::Syntax), "{bad}");
        }
    }

    #[test]
    fn numbers() {
        assert_eq!(cmd("boardsize 19"), Ok(Command::BoardSize(19)));
        assert_eq!(
            cmd("boardsize 99999999999999999999999"),
            Ok(Command::BoardSize(i64::MAX))
        );
        assert_eq!(cmd("boardsize -3"), Ok(Command::BoardSize(-3)));
        assert_eq!(cmd("boardsize nine"), Err(ParseError::Syntax));
        assert_eq!(cmd("komi -7"), Ok(Command::Komi(-7.0)));
        assert_eq!(cmd("komi inf"), Err(ParseError::Syntax));
        assert_eq!(cmd("komi NaN"), Err(ParseError::Syntax));
        assert_eq!(cmd("gg-undo"), Ok(Command::GgUndo(1)));
        assert_eq!(cmd("gg-undo 3"), Ok(Command::GgUndo(3)));
    }

    #[test]
    fn optional_arguments() {
        assert_eq!(cmd("printsgf"), Ok(Command::PrintSgf(None)));
        assert_eq!(
            cmd("loadsgf game.sgf 12"),
            Ok(Command::LoadSgf {
                path: "game.sgf".into(),
                move_number: Some(12)
            })
        );
        assert_eq!(cmd("loadsgf"), Err(ParseError::Syntax));
        assert_eq!(cmd("ishi-rules"), Ok(Command::IshiRules(None)));
    }

    #[test]
    fn time_systems() {
        assert_eq!(
            cmd("kgs-time_settings byoyomi 600 30 5"),
            Ok(Command::TimeSettings(TimeSystem::Byoyomi {
                main: 600.0,
                period: 30.0,
                periods: 5
            }))
        );
        assert_eq!(
            cmd("kgs-time_settings none"),
            Ok(Command::TimeSettings(TimeSystem::None))
        );
        assert_eq!(cmd("kgs-time_settings absolute"), Err(ParseError::Syntax));
        assert_eq!(
            cmd("time_settings 0 1 0"),
            Ok(Command::TimeSettings(TimeSystem::None))
        );
        assert_eq!(
            cmd("time_settings 300 0 0"),
            Ok(Command::TimeSettings(TimeSystem::Absolute { main: 300.0 }))
        );
        assert_eq!(cmd("time_settings 300 -1 0"), Err(ParseError::Syntax));
    }
}
