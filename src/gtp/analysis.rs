//! Live analysis as GUIs read it (`lz-analyze`, `kata-analyze`, Sabaki's
//! `analyze` and their `genmove` variants) and the text of GoGui's analyze
//! commands: argument parsing and output formats, no searching and no I/O.

use super::command::{Args, ParseError};
use crate::board::coord::{move_name, vertex_name};
use crate::board::{Board, Color, Move};
use crate::search::{Candidate, Snapshot};
use std::fmt::Write;
use std::time::Duration;

/// Which program's output format a command follows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    /// Leela Zero's `lz-analyze`: win rate and prior as integers in
    /// hundredths of a percent.
    Leela,
    /// KataGo's `kata-analyze`: floats 0..1, `scoreLead`, optional ownership.
    Kata,
    /// Sabaki's `analyze`: Leela Zero's integers plus `scoreLead`.
    Sabaki,
}

/// The arguments of one analysis command.
#[derive(Clone, Debug, PartialEq)]
pub struct AnalyzeArgs {
    pub dialect: Dialect,
    /// The `genmove` variant: search for the move's time, then play it.
    pub genmove: bool,
    /// The side to analyse for; the side to move when absent.
    pub color: Option<Color>,
    /// Time between `info` lines; `None` (absent or 0) prints none while
    /// searching.
    pub interval: Option<Duration>,
    /// `minmoves`: accepted for compatibility. Only moves the search has
    /// visited are reported, so fewer may appear early in a search.
    pub min_moves: usize,
    /// `maxmoves`: at most this many candidates per line (0: no limit).
    pub max_moves: usize,
    /// `ownership true` (KataGo and Sabaki dialects).
    pub ownership: bool,
}

/// The keywords an analysis command understands after the optional colour
/// and interval: `interval N`, `minmoves N`, `maxmoves N`, `ownership B`.
pub fn parse_args(
    args: &mut Args,
    dialect: Dialect,
    genmove: bool,
) -> Result<AnalyzeArgs, ParseError> {
    let mut tokens = Vec::new();
    while let Some(t) = args.opt_word() {
        tokens.push(t);
    }
    parse_tokens(&tokens, dialect, genmove)
}

fn parse_tokens(
    tokens: &[String],
    dialect: Dialect,
    genmove: bool,
) -> Result<AnalyzeArgs, ParseError> {
    let mut out = AnalyzeArgs {
        dialect,
        genmove,
        color: None,
        interval: None,
        min_moves: 0,
        max_moves: 0,
        ownership: false,
    };
    let mut rest = tokens;
    if let Some((first, tail)) = rest.split_first() {
        if let Ok(c) = Color::parse(first) {
            out.color = Some(c);
            rest = tail;
        }
    }
    if let Some((first, tail)) = rest.split_first() {
        if let Some(cs) = centiseconds(first) {
            out.interval = cs;
            rest = tail;
        }
    }
    while let Some((key, tail)) = rest.split_first() {
        let (value, tail) = tail.split_first().ok_or(ParseError::Syntax)?;
        match key.as_str() {
            "interval" => out.interval = centiseconds(value).ok_or(ParseError::Syntax)?,
            "minmoves" => out.min_moves = count(value)?,
            "maxmoves" => out.max_moves = count(value)?,
            "ownership" if dialect != Dialect::Leela => out.ownership = boolean(value)?,
            _ => return Err(ParseError::Syntax),
        }
        rest = tail;
    }
    Ok(out)
}

/// An interval in centiseconds (integer or decimal, not negative); 0 means
/// no interval.
fn centiseconds(t: &str) -> Option<Option<Duration>> {
    if !t.bytes().all(|b| b.is_ascii_digit() || b == b'.') {
        return None;
    }
    let cs: f64 = t.parse().ok()?;
    if !cs.is_finite() || cs < 0.0 {
        return None;
    }
    // Anything beyond a day is as good as no interval.
    Some((cs > 0.0 && cs < 8_640_000.0).then(|| Duration::from_secs_f64(cs / 100.0)))
}

fn count(t: &str) -> Result<usize, ParseError> {
    if t.is_empty() || !t.bytes().all(|b| b.is_ascii_digit()) {
        return Err(ParseError::Syntax);
    }
    Ok(t.parse().unwrap_or(usize::MAX))
}

fn boolean(t: &str) -> Result<bool, ParseError> {
    match t.to_ascii_lowercase().as_str() {
        "true" => Ok(true),
        "false" => Ok(false),
        _ => Err(ParseError::Syntax),
    }
}

/// A probability as a finite number in 0..1 (a NaN from an empty node is
/// reported as even).
fn unit(x: f64) -> f64 {
    if x.is_finite() {
        x.clamp(0.0, 1.0)
    } else {
        0.5
    }
}

/// Hundredths of a percent, 0..=10000.
fn per_myriad(x: f64) -> u32 {
    (unit(x) * 10_000.0).round() as u32
}

fn finite(x: f64) -> f64 {
    if x.is_finite() {
        x
    } else {
        0.0
    }
}

/// One `info` line of every candidate (best first), `pv` closing each, and
/// for `ownership true` the ownership from the analysed side's view after
/// them. `None` when there is nothing to report yet: a client would take
/// an empty line for the end of the response.
pub fn info_line(
    snapshot: &Snapshot,
    args: &AnalyzeArgs,
    color: Color,
    size: usize,
) -> Option<String> {
    let limit = if args.max_moves == 0 {
        usize::MAX
    } else {
        args.max_moves
    };
    let mut out = String::new();
    for (order, c) in snapshot.candidates.iter().take(limit).enumerate() {
        if !out.is_empty() {
            out.push(' ');
        }
        candidate(&mut out, c, order, args.dialect, size);
    }
    if out.is_empty() {
        return None;
    }
    if args.ownership {
        out.push_str(" ownership");
        let sign = if color == Color::Black { 1.0 } else { -1.0 };
        for i in 0..size * size {
            let v = finite(snapshot.ownership.get(i).copied().unwrap_or(0.0));
            // `+ 0.0` turns -0 into 0.
            let _ = write!(out, " {:.3}", (sign * v).clamp(-1.0, 1.0) + 0.0);
        }
    }
    Some(out)
}

fn candidate(out: &mut String, c: &Candidate, order: usize, dialect: Dialect, size: usize) {
    let mv = move_name(c.mv, size);
    let _ = write!(out, "info move {mv} visits {}", c.visits);
    let lead = finite(c.score_lead);
    match dialect {
        Dialect::Leela | Dialect::Sabaki => {
            let _ = write!(
                out,
                " winrate {} prior {} lcb {}",
                per_myriad(c.winrate),
                per_myriad(c.prior),
                per_myriad(c.lcb)
            );
            if dialect == Dialect::Sabaki {
                let _ = write!(out, " scoreLead {lead:.2}");
            }
        }
        Dialect::Kata => {
            let _ = write!(
                out,
                " winrate {:.6} scoreMean {lead:.2} scoreLead {lead:.2} prior {:.6} lcb {:.6}",
                unit(c.winrate),
                unit(c.prior),
                unit(c.lcb)
            );
        }
    }
    let _ = write!(out, " order {order} pv");
    let pv: &[Move] = if c.pv.is_empty() {
        std::slice::from_ref(&c.mv)
    } else {
        &c.pv
    };
    for &m in pv {
        out.push(' ');
        out.push_str(&move_name(m, size));
    }
}

// ---- GoGui ------------------------------------------------------------------

/// `gogui-analyze_commands`: `type/label/command`, `%c` the colour to move.
pub const GOGUI_ANALYZE_COMMANDS: &str = "\
gfx/Best moves/ishi-best_moves %c
gfx/Principal variation/ishi-pv %c
dboard/Ownership/ishi-ownership
gfx/Territory/ishi-territory
plist/Dead stones/final_status_list dead
plist/Seki stones/final_status_list seki
string/Score estimate/ishi-score_estimate
string/Final score/final_score
string/Rules/ishi-rules
none/Show board/showboard";

/// How many candidates the best-moves display labels.
const GOGUI_CANDIDATES: usize = 9;

/// GoGui gfx: the best candidates labelled with their win rate in percent,
/// the best one marked, and the visits and win rates in the status text.
pub fn best_moves_gfx(snapshot: &Snapshot, color: Color, size: usize) -> String {
    let shown: Vec<&Candidate> = snapshot
        .candidates
        .iter()
        .filter(|c| c.mv != Move::Pass)
        .take(GOGUI_CANDIDATES)
        .collect();
    let mut labels = String::from("LABEL");
    for c in &shown {
        let _ = write!(
            labels,
            " {} {:.0}",
            move_name(c.mv, size),
            unit(c.winrate) * 100.0
        );
    }
    let mut text = format!(
        "TEXT {} to move, {} playouts:",
        color_name(color),
        snapshot.playouts
    );
    for c in snapshot.candidates.iter().take(GOGUI_CANDIDATES) {
        let _ = write!(
            text,
            " {} {:.1}% {}v",
            move_name(c.mv, size),
            unit(c.winrate) * 100.0,
            c.visits
        );
    }
    let mut lines = Vec::new();
    if !shown.is_empty() {
        lines.push(labels);
    }
    if let Some(best) = shown.first() {
        lines.push(format!("SQUARE {}", move_name(best.mv, size)));
    }
    lines.push(text);
    lines.join("\n")
}

/// GoGui gfx: the best candidate's principal variation with alternating
/// colours from `color`.
pub fn pv_gfx(snapshot: &Snapshot, color: Color, size: usize) -> String {
    let Some(best) = snapshot.candidates.first() else {
        return "TEXT no candidates".into();
    };
    let mut var = String::from("VAR");
    let mut to_move = color;
    for &m in &best.pv {
        let c = if to_move == Color::Black { "b" } else { "w" };
        let _ = write!(var, " {c} {}", move_name(m, size));
        to_move = to_move.opponent();
    }
    format!(
        "{var}\nTEXT {} {:.1}% after {} visits",
        move_name(best.mv, size),
        unit(best.winrate) * 100.0,
        best.visits
    )
}

/// GoGui dboard: one row per board row from the top, Black positive.
pub fn ownership_dboard(ownership: &[f64], size: usize) -> String {
    (0..size)
        .map(|row| {
            (0..size)
                .map(|x| {
                    format!(
                        "{:.2}",
                        finite(ownership.get(row * size + x).copied().unwrap_or(0.0)) + 0.0
                    )
                })
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// GoGui gfx INFLUENCE of every point, Black positive.
pub fn territory_gfx(board: &Board, ownership: &[f64]) -> String {
    let size = board.size();
    let mut out = String::from("INFLUENCE");
    for row in 0..size {
        for x in 0..size {
            let Ok(p) = board.point(x, size - 1 - row) else {
                continue;
            };
            let v = finite(ownership.get(row * size + x).copied().unwrap_or(0.0)).clamp(-1.0, 1.0);
            let _ = write!(out, " {} {:.2}", vertex_name(p, size), v + 0.0);
        }
    }
    out
}

/// A lead in points as GTP scores are written: `B+3.5`, `W+0.5`, `0`.
pub fn lead_text(black_lead: f64) -> String {
    let lead = finite(black_lead);
    if lead.abs() < 0.05 {
        "0".into()
    } else if lead > 0.0 {
        format!("B+{lead:.1}")
    } else {
        format!("W+{:.1}", -lead)
    }
}

fn color_name(c: Color) -> &'static str {
    match c {
        Color::Black => "Black",
        Color::White => "White",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::coord::parse_vertex;

    fn args(line: &str, dialect: Dialect) -> Result<AnalyzeArgs, ParseError> {
        let tokens: Vec<String> = line.split_whitespace().map(str::to_string).collect();
        parse_tokens(&tokens, dialect, false)
    }

    fn cs(n: u64) -> Option<Duration> {
        Some(Duration::from_millis(n * 10))
    }

    #[test]
    fn arguments_colour_interval_and_keywords() {
        let a = args("B 50", Dialect::Leela).unwrap();
        assert_eq!((a.color, a.interval), (Some(Color::Black), cs(50)));
        let a = args("", Dialect::Leela).unwrap();
        assert_eq!((a.color, a.interval), (None, None));
        let a = args("25", Dialect::Leela).unwrap();
        assert_eq!((a.color, a.interval), (None, cs(25)));
        let a = args(
            "white interval 10 minmoves 3 maxmoves 5 ownership true",
            Dialect::Kata,
        )
        .unwrap();
        assert_eq!(a.color, Some(Color::White));
        assert_eq!(a.interval, cs(10));
        assert_eq!((a.min_moves, a.max_moves, a.ownership), (3, 5, true));
        assert_eq!(args("w 0", Dialect::Kata).unwrap().interval, None);
        assert_eq!(
            args("b 12.5", Dialect::Kata).unwrap().interval,
            Some(Duration::from_millis(125))
        );
        for bad in [
            "b -5",
            "b 10 interval",
            "b 10 ownership maybe",
            "b 10 avoid b D4 1",
            "b 10 maxmoves -1",
            "x 10",
            "b 10 20",
        ] {
            assert_eq!(args(bad, Dialect::Kata), Err(ParseError::Syntax), "{bad}");
        }
        // Leela Zero has no ownership.
        assert_eq!(
            args("b 10 ownership true", Dialect::Leela),
            Err(ParseError::Syntax)
        );
    }

    fn snapshot() -> Snapshot {
        let b = Board::new(9).unwrap();
        let m = |v: &str| match parse_vertex(v, b.size()).unwrap() {
            Some(p) => Move::Place(p),
            None => Move::Pass,
        };
        let cand = |mv: &str, visits, winrate, pv: &[&str]| Candidate {
            mv: m(mv),
            visits,
            winrate,
            prior: 0.25,
            lcb: winrate - 0.05,
            score_lead: 2.5,
            pv: pv.iter().map(|v| m(v)).collect(),
        };
        let mut ownership = vec![0.0; 81];
        ownership[0] = 1.0; // A9, the top-left corner
        ownership[80] = -0.5; // J1
        Snapshot {
            candidates: vec![
                cand("E5", 300, 0.61234, &["E5", "C3", "pass"]),
                cand("C3", 100, 0.5, &["C3"]),
                cand("pass", 2, 0.0, &[]),
            ],
            ownership,
            playouts: 402,
        }
    }

    #[test]
    fn leela_lines_carry_integer_win_rates_and_pv_last() {
        let a = args("b 10", Dialect::Leela).unwrap();
        let line = info_line(&snapshot(), &a, Color::Black, 9).unwrap();
        assert_eq!(
            line,
            "info move E5 visits 300 winrate 6123 prior 2500 lcb 5623 order 0 pv E5 C3 pass \
             info move C3 visits 100 winrate 5000 prior 2500 lcb 4500 order 1 pv C3 \
             info move pass visits 2 winrate 0 prior 2500 lcb 0 order 2 pv pass"
        );
        let a = args("b 10", Dialect::Sabaki).unwrap();
        let line = info_line(&snapshot(), &a, Color::Black, 9).unwrap();
        assert!(line.starts_with(
            "info move E5 visits 300 winrate 6123 prior 2500 lcb 5623 scoreLead 2.50 order 0 pv E5"
        ));
    }

    #[test]
    fn kata_lines_carry_floats_score_lead_and_ownership_for_the_side_to_move() {
        let a = args("w 10 maxmoves 1 ownership true", Dialect::Kata).unwrap();
        let line = info_line(&snapshot(), &a, Color::White, 9).unwrap();
        let (cands, owned) = line.split_once(" ownership ").unwrap();
        assert_eq!(
            cands,
            "info move E5 visits 300 winrate 0.612340 scoreMean 2.50 scoreLead 2.50 \
             prior 0.250000 lcb 0.562340 order 0 pv E5 C3 pass"
        );
        let values: Vec<f64> = owned.split(' ').map(|v| v.parse().unwrap()).collect();
        assert_eq!(values.len(), 81);
        // White to move: Black's corner is -1 from White's view.
        assert_eq!((values[0], values[80], values[40]), (-1.0, 0.5, 0.0));
        assert!(!owned.contains("-0.000"));
    }

    #[test]
    fn nothing_to_report_gives_no_line() {
        let a = args("b 10", Dialect::Kata).unwrap();
        assert_eq!(info_line(&Snapshot::default(), &a, Color::Black, 9), None);
    }

    #[test]
    fn gogui_outputs() {
        let s = snapshot();
        assert_eq!(
            best_moves_gfx(&s, Color::Black, 9),
            "LABEL E5 61 C3 50\nSQUARE E5\n\
             TEXT Black to move, 402 playouts: E5 61.2% 300v C3 50.0% 100v pass 0.0% 2v"
        );
        assert_eq!(
            pv_gfx(&s, Color::White, 9),
            "VAR w E5 b C3 w pass\nTEXT E5 61.2% after 300 visits"
        );
        let board = Board::new(2).unwrap();
        let own = [1.0, -0.25, 0.0, -0.0];
        assert_eq!(ownership_dboard(&own, 2), "1.00 -0.25\n0.00 0.00");
        assert_eq!(
            territory_gfx(&board, &own),
            "INFLUENCE A2 1.00 B2 -0.25 A1 0.00 B1 0.00"
        );
        assert_eq!(lead_text(3.52), "B+3.5");
        assert_eq!(lead_text(-0.5), "W+0.5");
        assert_eq!(lead_text(0.01), "0");
        for line in GOGUI_ANALYZE_COMMANDS.lines() {
            let parts: Vec<&str> = line.splitn(3, '/').collect();
            assert_eq!(parts.len(), 3, "{line}");
            let name = parts[2].split(' ').next().unwrap();
            assert!(super::super::table::is_known(name), "{name}");
        }
    }
}
