//! Deliberately naive reference implementation of the Go rules, used as an
//! independent test oracle against the fast engine.
//!
//! Everything here favours obviousness over speed: the board is a
//! `Vec<Vec<u8>>`, chains are found by flood fill every time they are needed,
//! and ko / superko is decided by comparing whole boards against the full game
//! history (no hashing, so no chance of a hash collision hiding a bug).
//!
//! Colours: 0 = empty, 1 = black, 2 = white. Points are `(x, y)` with `x` the
//! column and `y` the row; the board is indexed `board[y][x]`.
#![allow(dead_code)]

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NaiveKo {
    Simple,
    Positional,
    Situational,
    NaturalSituational,
}

impl From<ishi::rules::KoRule> for NaiveKo {
    /// The oracle's name for the engine's ko rule; only the name is shared.
    fn from(ko: ishi::rules::KoRule) -> NaiveKo {
        use ishi::rules::KoRule;
        match ko {
            KoRule::Simple => NaiveKo::Simple,
            KoRule::Positional => NaiveKo::Positional,
            KoRule::Situational => NaiveKo::Situational,
            KoRule::NaturalSituational => NaiveKo::NaturalSituational,
        }
    }
}

type Board = Vec<Vec<u8>>;

/// One entry per ply, plus the start position. Keeping the whole record per
/// ply lets every ko flavour be expressed as a plain filter over the history.
#[derive(Clone, Debug)]
struct Ply {
    board: Board,
    /// Player to move in this position (needed by situational superko).
    to_move: u8,
    /// `Some(c)` if this position was produced by a placement of colour `c`
    /// (natural-situational superko only looks at those).
    placed_by: Option<u8>,
    /// Whether this position was produced by a pass (for game-over detection).
    by_pass: bool,
}

#[derive(Clone, Debug)]
pub struct NaiveGame {
    size: usize,
    ko: NaiveKo,
    suicide_allowed: bool,
    /// `history[0]` is the empty start position with Black to move; the last
    /// entry is the current position.
    history: Vec<Ply>,
    /// Indexed by colour (index 0 unused).
    caps: [usize; 3],
}

fn opponent(colour: u8) -> u8 {
    3 - colour
}

fn neighbours(size: usize, x: usize, y: usize) -> Vec<(usize, usize)> {
    let mut v = Vec::new();
    if x > 0 {
        v.push((x - 1, y));
    }
    if x + 1 < size {
        v.push((x + 1, y));
    }
    if y > 0 {
        v.push((x, y - 1));
    }
    if y + 1 < size {
        v.push((x, y + 1));
    }
    v
}

/// Flood fill from a stone: returns the chain's stones and its number of
/// distinct liberties.
fn chain_at(board: &Board, x: usize, y: usize) -> (Vec<(usize, usize)>, usize) {
    let size = board.len();
    let colour = board[y][x];
    assert!(colour != 0, "chain_at called on an empty point");
    let mut seen = vec![vec![false; size]; size];
    let mut libs = vec![vec![false; size]; size];
    let mut stack = vec![(x, y)];
    let mut stones = Vec::new();
    seen[y][x] = true;
    while let Some((cx, cy)) = stack.pop() {
        stones.push((cx, cy));
        for (nx, ny) in neighbours(size, cx, cy) {
            if board[ny][nx] == 0 {
                libs[ny][nx] = true;
            } else if board[ny][nx] == colour && !seen[ny][nx] {
                seen[ny][nx] = true;
                stack.push((nx, ny));
            }
        }
    }
    let nlibs = libs.iter().flatten().filter(|&&b| b).count();
    (stones, nlibs)
}

/// Remove every chain of `colour` that has no liberties, anywhere on the
/// board (scanning everything rather than just neighbours of the last move,
/// on purpose). Returns the number of stones removed.
fn remove_dead(board: &mut Board, colour: u8) -> usize {
    let size = board.len();
    let mut removed = 0;
    for y in 0..size {
        for x in 0..size {
            if board[y][x] == colour {
                let (stones, libs) = chain_at(board, x, y);
                if libs == 0 {
                    for (sx, sy) in stones {
                        board[sy][sx] = 0;
                        removed += 1;
                    }
                }
            }
        }
    }
    removed
}

impl NaiveGame {
    pub fn new(size: usize, ko: NaiveKo, suicide_allowed: bool) -> Self {
        assert!(size >= 1);
        let start = Ply {
            board: vec![vec![0; size]; size],
            to_move: 1,
            placed_by: None,
            by_pass: false,
        };
        NaiveGame {
            size,
            ko,
            suicide_allowed,
            history: vec![start],
            caps: [0; 3],
        }
    }

    fn current(&self) -> &Ply {
        self.history.last().unwrap()
    }

    pub fn to_move(&self) -> u8 {
        self.current().to_move
    }

    pub fn board(&self) -> &Vec<Vec<u8>> {
        &self.current().board
    }

    pub fn captures(&self, colour: u8) -> usize {
        self.caps[colour as usize]
    }

    pub fn is_over(&self) -> bool {
        let n = self.history.len();
        n >= 3 && self.history[n - 1].by_pass && self.history[n - 2].by_pass
    }

    /// Board-level result of a placement, ignoring ko: `None` if the point is
    /// occupied/off-board or the move is a forbidden suicide; otherwise the new
    /// board, stones captured from the opponent, and own stones suicided.
    fn try_place(&self, colour: u8, x: usize, y: usize) -> Option<(Board, usize, usize)> {
        if x >= self.size || y >= self.size || self.board()[y][x] != 0 {
            return None;
        }
        let mut b = self.board().clone();
        b[y][x] = colour;
        // Captures are resolved before looking at the mover's own liberties,
        // which is why a capturing move can never be suicide.
        let captured = remove_dead(&mut b, opponent(colour));
        let (own, libs) = chain_at(&b, x, y);
        let mut suicided = 0;
        if libs == 0 {
            // A lone stone with no liberties is illegal under every rule set
            // (it would be a no-op "pass" that still changes ko history).
            if own.len() == 1 || !self.suicide_allowed {
                return None;
            }
            for (sx, sy) in own {
                b[sy][sx] = 0;
                suicided += 1;
            }
        }
        Some((b, captured, suicided))
    }

    /// Does producing `new_board` by a placement of `colour` violate the ko rule?
    fn ko_forbids(&self, colour: u8, new_board: &Board) -> bool {
        let h = &self.history;
        match self.ko {
            // "2 plies ago" relative to the new position = h[len - 2].
            NaiveKo::Simple => h.len() >= 2 && h[h.len() - 2].board == *new_board,
            NaiveKo::Positional => h.iter().any(|p| p.board == *new_board),
            NaiveKo::Situational => {
                let next = opponent(colour);
                h.iter().any(|p| p.to_move == next && p.board == *new_board)
            }
            NaiveKo::NaturalSituational => h
                .iter()
                .any(|p| p.placed_by == Some(colour) && p.board == *new_board),
        }
    }

    /// Legality for an arbitrary colour, ignoring whose turn it is and whether
    /// the game is over (GTP `play` may do either).
    fn legal_for(&self, colour: u8, mv: Option<(usize, usize)>) -> bool {
        assert!(colour == 1 || colour == 2, "colour must be 1 or 2");
        match mv {
            None => true,
            Some((x, y)) => match self.try_place(colour, x, y) {
                None => false,
                Some((b, _, _)) => !self.ko_forbids(colour, &b),
            },
        }
    }

    /// Legal for the side to move; nothing is legal once the game is over.
    pub fn is_legal(&self, mv: Option<(usize, usize)>) -> bool {
        !self.is_over() && self.legal_for(self.to_move(), mv)
    }

    /// Placements in row-major order (y, then x), followed by the pass.
    pub fn legal_moves(&self) -> Vec<Option<(usize, usize)>> {
        if self.is_over() {
            return Vec::new();
        }
        let mut v = Vec::new();
        for y in 0..self.size {
            for x in 0..self.size {
                if self.is_legal(Some((x, y))) {
                    v.push(Some((x, y)));
                }
            }
        }
        v.push(None);
        v
    }

    pub fn play(&mut self, mv: Option<(usize, usize)>) -> bool {
        if !self.is_legal(mv) {
            return false;
        }
        let c = self.to_move();
        self.apply(c, mv);
        true
    }

    /// Move by an explicit colour (GTP style). Unlike `play` this does not
    /// refuse moves after two passes, since GTP controllers may continue.
    pub fn play_as(&mut self, colour: u8, mv: Option<(usize, usize)>) -> bool {
        if !self.legal_for(colour, mv) {
            return false;
        }
        self.apply(colour, mv);
        true
    }

    /// Appends the ply; assumes legality was already checked.
    fn apply(&mut self, colour: u8, mv: Option<(usize, usize)>) {
        let next = opponent(colour);
        let ply = match mv {
            None => Ply {
                board: self.board().clone(),
                to_move: next,
                placed_by: None,
                by_pass: true,
            },
            Some((x, y)) => {
                let (b, captured, suicided) = self.try_place(colour, x, y).expect("checked legal");
                self.caps[colour as usize] += captured;
                self.caps[next as usize] += suicided;
                Ply {
                    board: b,
                    to_move: next,
                    placed_by: Some(colour),
                    by_pass: false,
                }
            }
        };
        self.history.push(ply);
    }
}

/// Counts of move sequences of length 1..=depth from the empty board.
/// A pass is a move; a finished game (two passes) has no children.
pub fn naive_perft(size: usize, ko: NaiveKo, suicide_allowed: bool, depth: u32) -> Vec<u64> {
    fn rec(g: &NaiveGame, level: usize, counts: &mut Vec<u64>) {
        for mv in g.legal_moves() {
            counts[level] += 1;
            if level + 1 < counts.len() {
                let mut child = g.clone();
                assert!(child.play(mv));
                rec(&child, level + 1, counts);
            }
        }
    }
    let mut counts = vec![0u64; depth as usize];
    if depth > 0 {
        rec(&NaiveGame::new(size, ko, suicide_allowed), 0, &mut counts);
    }
    counts
}
