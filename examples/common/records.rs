//! Game records for the learning examples: finding SGF files, replaying
//! their games move by move, and the candidate moves of a position.

use ishi::board::{Color, Move, Point};
use ishi::game::Game;
use ishi::rules::Rules;
use std::path::{Path, PathBuf};

pub fn sgf_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        eprintln!("cannot read {}", dir.display());
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            sgf_files(&path, out);
        } else if path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("sgf"))
        {
            out.push(path);
        }
    }
}

/// The games of one file, replayed: for each move, the position before it,
/// the mover and the point played (passes are skipped).
pub fn positions(path: &Path, each: &mut dyn FnMut(&Game, Color, Point)) -> bool {
    let Ok(bytes) = std::fs::read(path) else {
        return false;
    };
    replay(
        &String::from_utf8_lossy(&bytes),
        &mut |_, game, color, mv| {
            if let Move::Place(p) = mv {
                each(game, color, p);
            }
        },
    )
}

/// The main line of the record `text`, replayed: for each move (passes
/// too), its index, the game before it (with its history), the mover and
/// the move. False when the record cannot be read or holds an illegal move.
pub fn replay(text: &str, each: &mut dyn FnMut(usize, &Game, Color, Move)) -> bool {
    let Ok(game) = ishi::sgf::read_game(text, None, &Rules::default()) else {
        return false;
    };
    let (start, to_move) = game.start_position();
    let mut replay = Game::from_position(start.clone(), to_move, *game.rules());
    for (k, ply) in game.plies().iter().enumerate() {
        each(k, &replay, ply.color, ply.mv);
        if replay.play(ply.color, ply.mv).is_err() {
            return false;
        }
    }
    true
}

/// The legal moves a search would consider: not an own eye.
pub fn candidates(game: &Game, c: Color, out: &mut Vec<Point>) {
    let b = game.board();
    out.clear();
    out.extend(
        b.empties()
            .iter()
            .map(|&e| Point(e as usize))
            .filter(|&p| b.is_playable_non_eye(c, p)),
    );
}

/// The SGF files under `dirs`, in sorted path order.
pub fn sorted_sgf_files(dirs: &[PathBuf]) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for d in dirs {
        sgf_files(d, &mut files);
    }
    files.sort();
    files
}

/// The SGF files under `dirs` in sorted path order, split into every tenth
/// (held out, to judge what was learned) and the rest (to learn from).
pub fn held_out_and_training(dirs: &[PathBuf]) -> (Vec<PathBuf>, Vec<PathBuf>) {
    let files = sorted_sgf_files(dirs);
    let (held_out, training): (Vec<_>, Vec<_>) = files
        .into_iter()
        .enumerate()
        .partition(|(k, _)| k % 10 == 0);
    let strip = |v: Vec<(usize, PathBuf)>| v.into_iter().map(|(_, p)| p).collect();
    (strip(held_out), strip(training))
}
