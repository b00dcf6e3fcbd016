//! A game: the board plus everything the rules need from the past, namely
//! the move history, superko over the whole game, passes, prisoners and
//! handicap. Undo restores the previous state exactly.

use crate::board::{Bitboard, Board, Color, CoordError, Move, PlaceError, Point};
use crate::rules::{KoRule, Rules};
use std::collections::HashMap;
use std::fmt;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IllegalMove {
    Occupied,
    SingleStoneSuicide,
    Suicide,
    /// Recreates the position before the opponent's last move.
    Ko,
    /// Recreates an earlier position (positional, situational or natural-situational).
    Superko,
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            IllegalMove::Occupied => "the point is occupied",
            IllegalMove::SingleStoneSuicide => "a lone stone may not take its own last liberty",
            IllegalMove::Suicide => "suicide is forbidden under these rules",
            IllegalMove::Ko => "the ko may not be retaken immediately",
            IllegalMove::Superko => "the move repeats an earlier position (superko)",
        })
    }
}

impl From<PlaceError> for IllegalMove {
    fn from(e: PlaceError) -> IllegalMove {
        match e {
            PlaceError::Occupied => IllegalMove::Occupied,
            PlaceError::SingleStoneSuicide => IllegalMove::SingleStoneSuicide,
            PlaceError::Suicide => IllegalMove::Suicide,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HandicapError {
    BoardNotEmpty,
    InvalidNumber,
    BadVertexList,
}

impl fmt::Display for HandicapError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            HandicapError::BoardNotEmpty => "board not empty",
            HandicapError::InvalidNumber => "invalid number of stones",
            HandicapError::BadVertexList => "bad vertex list",
        })
    }
}

/// One move of the game with what undo needs to restore.
#[derive(Clone, Debug)]
pub struct Ply {
    pub color: Color,
    pub mv: Move,
    board_before: Board,
    ever_occupied_before: Bitboard,
    to_move_before: Color,
    consecutive_passes_before: u32,
}

#[derive(Clone, Debug)]
pub struct Game {
    rules: Rules,
    board: Board,
    to_move: Color,
    /// Board hash after each ply, the start position first.
    hashes: Vec<u64>,
    plies: Vec<Ply>,
    /// Keys of every earlier position under the active ko rule, with counts
    /// so undo can remove one occurrence.
    seen: HashMap<u64, u32>,
    /// Points that ever held a stone: a placement elsewhere that kills none
    /// of its own stones cannot repeat a position.
    ever_occupied: Bitboard,
    consecutive_passes: u32,
    handicap: u32,
    /// Position and side to move before the first ply (setup included).
    start: Board,
    start_to_move: Color,
}

impl Game {
    pub fn new(size: usize, rules: Rules) -> Result<Game, CoordError> {
        let board = Board::new(size)?;
        Ok(Game::from_position(board, Color::Black, rules))
    }

    /// A game starting from a set-up position (diagram, SGF setup, handicap).
    pub fn from_position(board: Board, to_move: Color, rules: Rules) -> Game {
        let mut ever = Bitboard::EMPTY;
        for c in [Color::Black, Color::White] {
            ever |= *board.stones(c);
        }
        let mut game = Game {
            rules,
            hashes: vec![board.hash()],
            start: board.clone(),
            start_to_move: to_move,
            board,
            to_move,
            plies: Vec::new(),
            seen: HashMap::new(),
            ever_occupied: ever,
            consecutive_passes: 0,
            handicap: 0,
        };
        if let Some(key) = game.start_key() {
            game.seen.insert(key, 1);
        }
        game
    }

    // ---- accessors ------------------------------------------------------

    pub fn board(&self) -> &Board {
        &self.board
    }

    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    pub fn size(&self) -> usize {
        self.board.size()
    }

    pub fn to_move(&self) -> Color {
        self.to_move
    }

    pub fn plies(&self) -> &[Ply] {
        &self.plies
    }

    pub fn handicap(&self) -> u32 {
        self.handicap
    }

    pub fn start_position(&self) -> (&Board, Color) {
        (&self.start, self.start_to_move)
    }

    pub fn consecutive_passes(&self) -> u32 {
        self.consecutive_passes
    }

    /// Two passes in a row ended the alternation (play may still resume).
    pub fn is_over(&self) -> bool {
        self.consecutive_passes >= 2
    }

    pub fn last_move(&self) -> Option<Move> {
        self.plies.last().map(|p| p.mv)
    }

    /// Number of passes by each colour over the game (AGA pass stones).
    pub fn passes_by(&self, c: Color) -> u32 {
        self.plies
            .iter()
            .filter(|p| p.color == c && p.mv == Move::Pass)
            .count() as u32
    }

    /// Who made the first pass of the final run of passes, if the game ends in passes.
    pub fn first_passer_of_ending(&self) -> Option<Color> {
        let run = self
            .plies
            .iter()
            .rev()
            .take_while(|p| p.mv == Move::Pass)
            .count();
        (run > 0).then(|| self.plies[self.plies.len() - run].color)
    }

    /// A key for the whole situation: stones, side to move, simple-ko point
    /// and the rules, so that search results never mix across rule sets.
    pub fn position_key(&self) -> u64 {
        let ko = self
            .simple_ko_point()
            .map_or(0, |p| crate::board::zobrist::STONE[1][p.0].rotate_left(17));
        self.board.hash()
            ^ crate::board::zobrist::TO_MOVE[self.to_move.index()]
            ^ ko
            ^ self.rules.hash()
    }

    pub fn set_rules(&mut self, rules: Rules) {
        let replay_needed = rules.ko != self.rules.ko || rules.suicide != self.rules.suicide;
        self.rules = rules;
        if replay_needed {
            self.rebuild_seen();
        }
    }

    pub fn set_komi(&mut self, komi: f64) {
        self.rules.komi = komi;
    }

    // ---- ko keys ----------------------------------------------------------

    fn start_key(&self) -> Option<u64> {
        let h = self.board.hash();
        match self.rules.ko {
            KoRule::Simple => None,
            KoRule::Positional => Some(h),
            KoRule::Situational => Some(h ^ crate::board::zobrist::TO_MOVE[self.to_move.index()]),
            // Only positions that followed a placement count.
            KoRule::NaturalSituational => None,
        }
    }

    /// The key a ply's resulting position is remembered under, if any.
    fn key_after(&self, hash_after: u64, mover: Color, mv: Move) -> Option<u64> {
        use crate::board::zobrist::{PLACED_BY, TO_MOVE};
        match self.rules.ko {
            KoRule::Simple => None,
            KoRule::Positional => Some(hash_after),
            KoRule::Situational => Some(hash_after ^ TO_MOVE[mover.opponent().index()]),
            KoRule::NaturalSituational => match mv {
                Move::Place(_) => Some(hash_after ^ PLACED_BY[mover.index()]),
                Move::Pass => None,
            },
        }
    }

    fn rebuild_seen(&mut self) {
        self.seen.clear();
        let (start, to_move) = (self.start.clone(), self.start_to_move);
        let board = std::mem::replace(&mut self.board, start);
        let real_to_move = std::mem::replace(&mut self.to_move, to_move);
        if let Some(k) = self.start_key() {
            *self.seen.entry(k).or_default() += 1;
        }
        self.board = board;
        self.to_move = real_to_move;
        for (i, ply) in self.plies.iter().enumerate() {
            if let Some(k) = self.key_after(self.hashes[i + 1], ply.color, ply.mv) {
                *self.seen.entry(k).or_default() += 1;
            }
        }
    }

    /// The point simple ko forbids to the side to move, if any (for display
    /// and position keys; legality uses the exact position test).
    pub fn simple_ko_point(&self) -> Option<Point> {
        self.board.ko_point()
    }

    // ---- legality and play --------------------------------------------------

    /// Checks a move by `color` under the rules; passes are always legal.
    /// Returns the resulting board hash and whether it removed own stones.
    pub fn check(&self, color: Color, mv: Move) -> Result<(), IllegalMove> {
        match mv {
            Move::Pass => Ok(()),
            Move::Place(p) => self.check_place(color, p).map(|_| ()),
        }
    }

    fn check_place(&self, color: Color, p: Point) -> Result<u64, IllegalMove> {
        let pred = self.board.predict(color, p)?;
        if pred.suicide > 0 && !self.rules.allows_suicide() {
            return Err(IllegalMove::Suicide);
        }
        let h = pred.hash_after;
        // Simple ko: never recreate the position before the opponent's last move.
        // Every superko rule implies this except natural-situational, where
        // the earlier position may have followed a pass.
        if self.rules.ko == KoRule::Simple
            && self.hashes.len() >= 2
            && self.hashes[self.hashes.len() - 2] == h
        {
            return Err(IllegalMove::Ko);
        }
        // A stone on a point never occupied, removing none of the mover's own
        // stones, makes a position that cannot have occurred before.
        let fresh = !self.ever_occupied.contains(p.0) && pred.suicide == 0;
        if !fresh {
            if let Some(key) = self.key_after(h, color, Move::Place(p)) {
                if self.seen.contains_key(&key) {
                    return Err(IllegalMove::Superko);
                }
            }
        }
        Ok(h)
    }

    pub fn is_legal(&self, color: Color, mv: Move) -> bool {
        self.check(color, mv).is_ok()
    }

    /// Plays a move for `color` (not necessarily the side to move: GTP
    /// allows consecutive moves of one colour). The opponent moves next.
    pub fn play(&mut self, color: Color, mv: Move) -> Result<(), IllegalMove> {
        if let Move::Place(p) = mv {
            self.check_place(color, p)?;
        }
        let ply = Ply {
            color,
            mv,
            board_before: self.board.clone(),
            ever_occupied_before: self.ever_occupied,
            to_move_before: self.to_move,
            consecutive_passes_before: self.consecutive_passes,
        };
        match mv {
            Move::Pass => {
                self.consecutive_passes += 1;
                // A pass lifts the simple-ko ban: the position before the
                // opponent's last move is then the current one.
                self.board.clear_ko();
            }
            Move::Place(p) => {
                self.board.place(color, p, self.rules.allows_suicide())?;
                self.ever_occupied.set(p.0);
                self.consecutive_passes = 0;
            }
        }
        let h = self.board.hash();
        self.hashes.push(h);
        if let Some(key) = self.key_after(h, color, mv) {
            *self.seen.entry(key).or_default() += 1;
        }
        self.plies.push(ply);
        self.to_move = color.opponent();
        Ok(())
    }

    /// Plays for the side to move.
    pub fn play_move(&mut self, mv: Move) -> Result<(), IllegalMove> {
        self.play(self.to_move, mv)
    }

    /// Takes back the last move; false when there is none.
    pub fn undo(&mut self) -> bool {
        let Some(ply) = self.plies.pop() else {
            return false;
        };
        let h = self.hashes.pop().expect("one hash per ply");
        if let Some(key) = self.key_after(h, ply.color, ply.mv) {
            if let Some(n) = self.seen.get_mut(&key) {
                *n -= 1;
                if *n == 0 {
                    self.seen.remove(&key);
                }
            }
        }
        self.board = ply.board_before;
        self.ever_occupied = ply.ever_occupied_before;
        self.to_move = ply.to_move_before;
        self.consecutive_passes = ply.consecutive_passes_before;
        true
    }

    /// Every legal move for `color`, placements bottom row first, then pass.
    pub fn legal_moves(&self, color: Color) -> Vec<Move> {
        let mut moves: Vec<Move> = self
            .board
            .points()
            .filter(|&p| self.check_place(color, p).is_ok())
            .map(Move::Place)
            .collect();
        moves.push(Move::Pass);
        moves
    }

    // ---- handicap -----------------------------------------------------------

    /// Places `n` handicap stones on the standard points (GTP `fixed_handicap`).
    pub fn fixed_handicap(&mut self, n: u32) -> Result<Vec<Point>, HandicapError> {
        if self.board.stone_count() > 0 || !self.plies.is_empty() {
            return Err(HandicapError::BoardNotEmpty);
        }
        let points = handicap_points(self.size(), n).ok_or(HandicapError::InvalidNumber)?;
        self.place_handicap(&points)?;
        Ok(points)
    }

    /// Places handicap stones where the controller says (`set_free_handicap`).
    pub fn set_free_handicap(&mut self, points: &[Point]) -> Result<(), HandicapError> {
        if self.board.stone_count() > 0 || !self.plies.is_empty() {
            return Err(HandicapError::BoardNotEmpty);
        }
        let area = (self.size() * self.size()) as u32;
        let mut distinct = points.to_vec();
        distinct.sort();
        distinct.dedup();
        if points.len() < 2 || distinct.len() != points.len() || points.len() as u32 >= area {
            return Err(HandicapError::BadVertexList);
        }
        self.place_handicap(points)
    }

    fn place_handicap(&mut self, points: &[Point]) -> Result<(), HandicapError> {
        let mut board = self.board.clone();
        for &p in points {
            board.put_setup_stone(Color::Black, p);
        }
        let rules = self.rules;
        *self = Game::from_position(board, Color::White, rules);
        self.handicap = points.len() as u32;
        Ok(())
    }

    /// Records a handicap given as ordinary moves (`play B` repeated, or SGF HA).
    pub fn set_handicap_count(&mut self, n: u32) {
        self.handicap = n;
    }
}

/// The standard handicap points for `n` stones on a board of `size`, in the
/// order GNU Go gives them; `None` when that many fixed stones do not exist.
pub fn handicap_points(size: usize, n: u32) -> Option<Vec<Point>> {
    let max = if !size.is_multiple_of(2) && size >= 9 {
        9
    } else if (size.is_multiple_of(2) && size >= 8) || size == 7 {
        4
    } else {
        0
    };
    if n < 2 || n > max {
        return None;
    }
    let edge = if size >= 13 { 3 } else { 2 };
    let (lo, hi, mid) = (edge, size - 1 - edge, size / 2);
    let stride = size + 1;
    let pt = |x: usize, y: usize| Point((y + 1) * stride + x + 1);
    let corners = [pt(lo, lo), pt(hi, hi), pt(lo, hi), pt(hi, lo)];
    let mut points: Vec<Point> = corners[..(n.min(4) as usize)].to_vec();
    let centre = pt(mid, mid);
    let sides_lr = [pt(lo, mid), pt(hi, mid)];
    let sides_tb = [pt(mid, lo), pt(mid, hi)];
    match n {
        5 => points.push(centre),
        6 => points.extend(sides_lr),
        7 => {
            points.extend(sides_lr);
            points.push(centre);
        }
        8 => {
            points.extend(sides_lr);
            points.extend(sides_tb);
        }
        9 => {
            points.extend(sides_lr);
            points.extend(sides_tb);
            points.push(centre);
        }
        _ => {}
    }
    Some(points)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::coord::{parse_vertex, vertex_name};

    fn mv(game: &Game, v: &str) -> Move {
        match parse_vertex(v, game.size()).unwrap() {
            Some(p) => Move::Place(p),
            None => Move::Pass,
        }
    }

    #[test]
    fn star_points_19() {
        let names = |n| -> Vec<String> {
            handicap_points(19, n)
                .unwrap()
                .iter()
                .map(|&p| vertex_name(p, 19))
                .collect()
        };
        assert_eq!(names(2), ["D4", "Q16"]);
        assert_eq!(names(3), ["D4", "Q16", "D16"]);
        assert_eq!(names(5), ["D4", "Q16", "D16", "Q4", "K10"]);
        assert_eq!(
            names(8),
            ["D4", "Q16", "D16", "Q4", "D10", "Q10", "K4", "K16"]
        );
        assert!(handicap_points(19, 10).is_none());
        assert!(handicap_points(6, 2).is_none());
        assert_eq!(handicap_points(7, 4).unwrap().len(), 4);
        assert!(handicap_points(8, 5).is_none());
    }

    #[test]
    fn undo_restores_everything() {
        let mut g = Game::new(5, Rules::preset("tromp-taylor").unwrap()).unwrap();
        let before = g.clone();
        g.play(Color::Black, mv(&g, "C3")).unwrap();
        g.play(Color::White, Move::Pass).unwrap();
        assert!(g.undo());
        assert!(g.undo());
        assert!(!g.undo());
        assert_eq!(g.board(), before.board());
        assert_eq!(g.seen, before.seen);
        assert_eq!(g.to_move(), Color::Black);
    }
}
