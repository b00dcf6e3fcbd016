//! Positions of finished games and their results, for the examples that
//! judge playout policies against them.

use super::records::replay;
use ishi::board::{Board, Color, Move, Point};
use ishi::search::playout::{encode_move, play_out, PlayoutScratch, PlayoutStyle};
use rand::RngCore;
use std::path::PathBuf;

/// One position to judge and how its game ended.
pub struct Sample {
    pub board: Board,
    pub to_move: Color,
    /// The last two placements, oldest first, as the playouts record them.
    pub recent: Vec<u16>,
    pub last: Option<Point>,
    pub komi: f64,
    /// The move number the position is before.
    pub ply: usize,
    /// 1 Black won, 0 White won, 0.5 a draw.
    pub result: f64,
}

fn result_of(text: &str) -> Option<f64> {
    let start = text.find("RE[")? + 3;
    let re = &text[start..];
    if re.starts_with("B+") {
        Some(1.0)
    } else if re.starts_with("W+") {
        Some(0.0)
    } else if re.starts_with("0]") || re.starts_with("Draw") || re.starts_with("Jigo") {
        Some(0.5)
    } else {
        None
    }
}

/// The win rates a match record keeps for ishi's moves (the game comment
/// `ishi win rate by move: 1:0.49 3:0.49 ...`), each as the position after
/// that move (the index of the next move) and the rate for Black.
pub fn search_values(text: &str) -> Vec<(usize, f64)> {
    let ishi_black = text.contains("PB[ishi");
    let Some(start) = text.find("win rate by move:") else {
        return Vec::new();
    };
    let list = &text[start + "win rate by move:".len()..];
    let list = &list[..list.find(']').unwrap_or(list.len())];
    list.split_whitespace()
        .filter_map(|item| {
            let (m, rate) = item.split_once(':')?;
            let (m, rate): (usize, f64) = (m.parse().ok()?, rate.parse().ok()?);
            Some((m, if ishi_black { rate } else { 1.0 - rate }))
        })
        .collect()
}

pub fn samples_of(path: &PathBuf, at: &[usize], out: &mut Vec<Sample>) {
    let Ok(bytes) = std::fs::read(path) else {
        return;
    };
    let text = String::from_utf8_lossy(&bytes);
    let Some(result) = result_of(&text) else {
        return;
    };
    replay(&text, &mut |k, game, _, _| {
        if !at.contains(&k) {
            return;
        }
        // The last two placements, as the playouts would have recorded them.
        let placed: Vec<(Color, Point)> = game
            .plies()
            .iter()
            .filter_map(|ply| match ply.mv {
                Move::Place(p) => Some((ply.color, p)),
                Move::Pass => None,
            })
            .collect();
        let recent = placed[placed.len().saturating_sub(2)..]
            .iter()
            .map(|&(c, p)| encode_move(c, p))
            .collect();
        let last = match game.last_move() {
            Some(Move::Place(p)) => Some(p),
            _ => None,
        };
        out.push(Sample {
            board: game.board().clone(),
            to_move: game.to_move(),
            recent,
            last,
            komi: game.rules().komi,
            ply: k,
            result,
        });
    });
}

/// One playout from `s`: 1 when Black wins it, 0 when White does, 0.5 for
/// a draw, and the moves it took. `board` and `record` are scratch.
pub fn play_one(
    s: &Sample,
    style: PlayoutStyle,
    rng: &mut impl RngCore,
    scratch: &mut PlayoutScratch,
    board: &mut Board,
    record: &mut Vec<u16>,
) -> (f64, u32) {
    board.clone_from(&s.board);
    record.clone_from(&s.recent);
    let r = play_out(board, s.to_move, s.last, style, rng, record, scratch);
    let margin = r.black as f64 - r.white as f64 - s.komi;
    let z = if margin > 0.0 {
        1.0
    } else if margin < 0.0 {
        0.0
    } else {
        0.5
    };
    (z, r.moves)
}
