//! Short tactical reading for the tree's priors: can a chain with few
//! liberties be captured, and which moves capture or save it?
//!
//! The heavy playouts misjudge capture races and nets: they neither find
//! the one move that wins a race nor leave alone a chain that is lost.
//! A new tree node therefore asks, for every chain with at most three
//! liberties, whether the side to move decides its fate, and gives the
//! moves that do a head start; the search then reads them out for real.
//!
//! Lines are played out on a stack of scratch boards, one per ply. Every
//! question has a budget of positions, and so has every node: past it the
//! answer is "unknown" and the priors stay as they were.
//!
//! Off unless `prior_critical` is set (`--tune prior_critical=100`): in
//! 9x9 matches against GNU Go at 5,000 playouts it has not yet won more
//! games than the priors without it, while a new node costs more to
//! expand (a fixed number of playouts took 40-90% longer in middle-game
//! positions). It is kept as a switch for experiments on where reading
//! should act (priors alone do not change what the playouts believe).
//! Reading approach moves as well (see `attacks`) finds the race a lost
//! game turned on, but won 61 of 73 games (seeds 5201-5273) that the
//! search without reading won 65 of. With the learned large patterns in
//! the priors it won 178 of 200 (seeds 17090, book off) where the
//! default won 182.

use crate::board::{Board, Color, Point};

/// A chain with more liberties than this gets away.
const MAX_LIBERTIES: usize = 3;
/// Plies one line is read at most.
const MAX_DEPTH: u32 = 9;
/// Positions one question may visit before its answer is unknown.
const QUESTION_BUDGET: u32 = 200;
/// Positions all the questions about one position may visit.
const POSITION_BUDGET: u32 = 2000;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Outcome {
    Works,
    Fails,
    /// The budget ran out before an answer.
    Unknown,
}

/// A handful of distinct candidate moves.
#[derive(Clone, Copy)]
struct Moves {
    at: [Point; 12],
    len: usize,
}

impl Moves {
    fn new() -> Moves {
        Moves {
            at: [Point(0); 12],
            len: 0,
        }
    }

    fn push(&mut self, p: Point) {
        if self.len < self.at.len() && !self.as_slice().contains(&p) {
            self.at[self.len] = p;
            self.len += 1;
        }
    }

    fn as_slice(&self) -> &[Point] {
        &self.at[..self.len]
    }
}

/// What reading says about a move for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// It captures an opposing chain that would live if its owner moved
    /// first, or saves an own chain that would be captured if the
    /// opponent moved first.
    Decisive,
    /// It extends an own chain that is captured whatever is played.
    Hopeless,
}

/// The moves reading picked out in one position, with their verdicts.
#[derive(Default)]
pub struct Findings {
    moves: Vec<(Point, Verdict)>,
}

impl Findings {
    /// The verdict on `p`, if reading had one; decisive wins over hopeless
    /// (a move can save one chain and fail to save another).
    pub fn verdict(&self, p: Point) -> Option<Verdict> {
        let mut found = None;
        for &(q, v) in &self.moves {
            if q == p {
                if v == Verdict::Decisive {
                    return Some(v);
                }
                found = Some(v);
            }
        }
        found
    }

    pub fn clear(&mut self) {
        self.moves.clear();
    }
}

/// Scratch boards and budgets of the reader, reused between positions.
#[derive(Default)]
pub struct Reader {
    /// `boards[ply]` holds the position `ply` moves into the line read.
    boards: Vec<Box<Board>>,
    /// Positions visited by the current question.
    visited: u32,
    /// Positions visited for the current position.
    spent: u32,
}

impl Reader {
    /// Reads every chain of at most three liberties on `board` where `c`
    /// is to move, and records which of `c`'s moves decide a chain's fate
    /// and which are hopeless rescues.
    pub fn read(&mut self, board: &Board, c: Color, findings: &mut Findings) {
        findings.moves.clear();
        self.spent = 0;
        self.set_up(board);
        for owner in [c.opponent(), c] {
            for s in board.stones(owner).iter() {
                let chain = Point(s);
                if board.chain_id(chain) != s {
                    continue;
                }
                let mut libs = [Point(0); MAX_LIBERTIES];
                let Some(n) = board.liberties_within(chain, &mut libs) else {
                    continue;
                };
                if self.spent >= POSITION_BUDGET {
                    return;
                }
                if owner == c {
                    self.read_own(chain, owner, &libs[..n], findings);
                } else {
                    self.read_opposing(chain, owner, &libs[..n], findings);
                }
            }
        }
    }

    /// An opposing chain: if its owner could save it by moving first, the
    /// moves of ours that still capture it are decisive.
    fn read_opposing(
        &mut self,
        chain: Point,
        owner: Color,
        libs: &[Point],
        findings: &mut Findings,
    ) {
        if self.ask(|r| r.defend(0, chain, MAX_DEPTH)) != Outcome::Works {
            return;
        }
        let candidates = attacks(&self.boards[0], owner.opponent(), libs);
        for &m in candidates.as_slice() {
            let answer = self.ask(|r| {
                r.after(0, owner.opponent(), m, |r, ply| {
                    r.defend(ply, chain, MAX_DEPTH - 1)
                })
            });
            if answer == Outcome::Fails {
                findings.moves.push((m, Verdict::Decisive));
            }
        }
    }

    /// An own chain: if the opponent could capture it by moving first, the
    /// moves that save it are decisive; if none does, rescues are hopeless.
    fn read_own(&mut self, chain: Point, owner: Color, libs: &[Point], findings: &mut Findings) {
        if self.ask(|r| r.attack(0, chain, MAX_DEPTH)) != Outcome::Works {
            return;
        }
        let candidates = defences(&self.boards[0], chain, owner, libs);
        let mut saved = false;
        let mut unknown = false;
        for &m in candidates.as_slice() {
            let answer =
                self.ask(|r| r.after(0, owner, m, |r, ply| r.attack(ply, chain, MAX_DEPTH - 1)));
            match answer {
                Outcome::Fails => {
                    findings.moves.push((m, Verdict::Decisive));
                    saved = true;
                }
                Outcome::Unknown => unknown = true,
                Outcome::Works => {}
            }
        }
        if !saved && !unknown {
            // Only extensions: a capture or an atari elsewhere may be
            // worth something even when it does not save the chain.
            for &m in candidates.as_slice().iter().filter(|m| libs.contains(m)) {
                findings.moves.push((m, Verdict::Hopeless));
            }
        }
    }

    fn set_up(&mut self, board: &Board) {
        match self.boards.first_mut() {
            Some(b) => Board::clone_from(b, board),
            None => self.boards.push(Box::new(board.clone())),
        }
    }

    /// One question with a fresh budget.
    fn ask(&mut self, question: impl FnOnce(&mut Reader) -> Outcome) -> Outcome {
        self.visited = 0;
        let answer = question(self);
        self.spent += self.visited;
        answer
    }

    /// Plays `m` for `colour` on the position at `ply` and asks `then`
    /// about the position after it.
    fn after(
        &mut self,
        ply: usize,
        colour: Color,
        m: Point,
        then: impl FnOnce(&mut Reader, usize) -> Outcome,
    ) -> Outcome {
        let next = ply + 1;
        if self.boards.len() <= next {
            let copy = Box::new((*self.boards[ply]).clone());
            self.boards.push(copy);
        }
        let (done, rest) = self.boards.split_at_mut(next);
        Board::clone_from(&mut rest[0], &done[ply]);
        rest[0].place_unchecked(colour, m);
        then(self, next)
    }

    /// Whether the chain through `target`, whose opponent is to move at
    /// `ply`, can be captured.
    fn attack(&mut self, ply: usize, target: Point, depth: u32) -> Outcome {
        self.visited += 1;
        if self.visited > QUESTION_BUDGET {
            return Outcome::Unknown;
        }
        let board = &self.boards[ply];
        let Some(defender) = board.color_at(target) else {
            return Outcome::Works;
        };
        let attacker = defender.opponent();
        let mut libs = [Point(0); MAX_LIBERTIES];
        let n = match board.liberties_within(target, &mut libs) {
            None => return Outcome::Fails,
            Some(1) if board.is_legal_no_suicide(attacker, libs[0]) => return Outcome::Works,
            Some(_) if depth == 0 => return Outcome::Fails,
            Some(n) => n,
        };
        let candidates = attacks(board, attacker, &libs[..n]);
        self.one_of(ply, attacker, candidates.as_slice(), |r, next| {
            r.defend(next, target, depth - 1)
        })
    }

    /// Whether the chain through `target`, whose owner is to move at
    /// `ply`, can be saved.
    fn defend(&mut self, ply: usize, target: Point, depth: u32) -> Outcome {
        self.visited += 1;
        if self.visited > QUESTION_BUDGET {
            return Outcome::Unknown;
        }
        let board = &self.boards[ply];
        let Some(defender) = board.color_at(target) else {
            return Outcome::Fails;
        };
        let mut libs = [Point(0); MAX_LIBERTIES];
        let liberties = match board.liberties_within(target, &mut libs) {
            None => return Outcome::Works,
            Some(_) if depth == 0 => return Outcome::Works,
            Some(n) => n,
        };
        let candidates = defences(board, target, defender, &libs[..liberties]);
        let local = self.one_of(ply, defender, candidates.as_slice(), |r, next| {
            r.attack(next, target, depth - 1)
        });
        // With two liberties or more the owner may also play elsewhere,
        // which is right when every local move only hurts (a seki).
        match local {
            Outcome::Fails | Outcome::Unknown if liberties >= 2 => {
                match (local, self.attack(ply, target, depth - 1)) {
                    (_, Outcome::Fails) => Outcome::Works,
                    (Outcome::Fails, Outcome::Works) => Outcome::Fails,
                    _ => Outcome::Unknown,
                }
            }
            _ => local,
        }
    }

    /// Whether one of `candidates`, played by `mover` on the position at
    /// `ply`, leaves the other side's goal out of reach (`reply` fails
    /// after it); unknown when none does but some reply ran out of budget.
    fn one_of(
        &mut self,
        ply: usize,
        mover: Color,
        candidates: &[Point],
        reply: impl Fn(&mut Reader, usize) -> Outcome,
    ) -> Outcome {
        let mut unknown = false;
        for &m in candidates {
            match self.after(ply, mover, m, &reply) {
                Outcome::Fails => return Outcome::Works,
                Outcome::Unknown => unknown = true,
                Outcome::Works => {}
            }
        }
        if unknown {
            Outcome::Unknown
        } else {
            Outcome::Fails
        }
    }
}

/// The attacker's tries against a chain with liberties `libs`: those
/// liberties, except self-ataris of two or more stones. In place of such
/// a self-atari, the approach: another liberty of the attacker's short
/// chain next to it, which gives the stones there room first (the quiet
/// connection that wins a capture race on the edge).
fn attacks(board: &Board, attacker: Color, libs: &[Point]) -> Moves {
    let mut moves = Moves::new();
    for &m in libs {
        if !board.is_legal_no_suicide(attacker, m) {
            continue;
        }
        let shape = board.move_shape(attacker, m, 2);
        if shape.is_self_atari() && shape.chain_len >= 2 {
            for q in board.neighbours(m).map(Point) {
                if board.color_at(q) != Some(attacker) {
                    continue;
                }
                let mut own = [Point(0); 2];
                let Some(n) = board.liberties_within(q, &mut own) else {
                    continue;
                };
                for &a in own[..n].iter().filter(|&&a| a != m) {
                    if board.is_legal_no_suicide(attacker, a)
                        && !board.move_shape(attacker, a, 2).is_self_atari()
                    {
                        moves.push(a);
                    }
                }
            }
            continue;
        }
        moves.push(m);
    }
    moves
}

/// The owner's tries to save the chain through `target`: capture a
/// neighbour in atari, extend at a liberty (unless that is self-atari),
/// and with two liberties or more, take a liberty of a neighbour that has
/// at most three (the way to win a capture race). `libs` are the
/// chain's liberties.
fn defences(board: &Board, target: Point, defender: Color, libs: &[Point]) -> Moves {
    let n = libs.len();
    let mut moves = Moves::new();
    let stride = board.stride();
    let neighbours =
        board.chain_stones(target).neighbours(stride) & *board.stones(defender.opponent());
    let mut seen = [usize::MAX; 8];
    let mut seen_len = 0;
    let mut counter = Moves::new();
    for s in neighbours.iter() {
        let q = Point(s);
        let id = board.chain_id(q);
        if seen[..seen_len].contains(&id) {
            continue;
        }
        if seen_len < seen.len() {
            seen[seen_len] = id;
            seen_len += 1;
        }
        let mut their = [Point(0); MAX_LIBERTIES];
        match board.liberties_within(q, &mut their) {
            Some(1) => moves.push(their[0]),
            Some(k) if n >= 2 => {
                for &lib in &their[..k] {
                    counter.push(lib);
                }
            }
            _ => {}
        }
    }
    for &m in libs {
        if !board.move_shape(defender, m, 2).is_self_atari() {
            moves.push(m);
        }
    }
    for &m in counter.as_slice() {
        if !board.move_shape(defender, m, 2).is_self_atari() {
            moves.push(m);
        }
    }
    let mut legal = Moves::new();
    for &m in moves.as_slice() {
        if board.is_legal_no_suicide(defender, m) {
            legal.push(m);
        }
    }
    legal
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::test_point;

    fn findings(diagram: &str, c: Color) -> (Board, Findings) {
        let board = Board::from_ascii(diagram).unwrap();
        let mut f = Findings::default();
        Reader::default().read(&board, c, &mut f);
        (board, f)
    }

    fn verdict(diagram: &str, c: Color, v: &str) -> Option<Verdict> {
        let (board, f) = findings(diagram, c);
        f.verdict(test_point(&board, v))
    }

    /// Black's B9-C9-C8 (liberties A9, B8) and White's D9-E9-D8
    /// (liberties F9, E8) are walled in and share no liberty: whoever
    /// moves first wins the race by taking the other's liberties. Filling
    /// an own liberty is self-atari and no help.
    const RACE: &str = "
        . X X O O . X . .
        O . X O . X X . .
        O O O X X X . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .";

    #[test]
    fn the_moves_that_win_a_capture_race_are_decisive_for_either_side() {
        for v in ["E8", "F9"] {
            assert_eq!(
                verdict(RACE, Color::Black, v),
                Some(Verdict::Decisive),
                "{v}"
            );
            assert_eq!(verdict(RACE, Color::White, v), None, "{v}");
        }
        for v in ["A9", "B8"] {
            assert_eq!(
                verdict(RACE, Color::White, v),
                Some(Verdict::Decisive),
                "{v}"
            );
            assert_eq!(verdict(RACE, Color::Black, v), None, "{v}");
        }
        assert_eq!(verdict(RACE, Color::Black, "E5"), None);
    }

    /// Black's D9-D8-D7 and White's E9-E8-E7 have three liberties each,
    /// none shared: whoever starts filling the other's wins. No move of
    /// the race is an atari, so only reading sees it.
    const RACE_OF_THREES: &str = "
        . O . X O . X . .
        . O . X O . X . .
        . O . X O . X . .
        . O O O X X X . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .";

    #[test]
    fn a_race_of_three_liberties_is_read_to_the_end() {
        for v in ["F9", "F8", "F7"] {
            assert_eq!(
                verdict(RACE_OF_THREES, Color::Black, v),
                Some(Verdict::Decisive),
                "{v}"
            );
            assert_eq!(verdict(RACE_OF_THREES, Color::White, v), None, "{v}");
        }
        for v in ["C9", "C8", "C7"] {
            assert_eq!(
                verdict(RACE_OF_THREES, Color::White, v),
                Some(Verdict::Decisive),
                "{v}"
            );
            assert_eq!(verdict(RACE_OF_THREES, Color::Black, v), None, "{v}");
        }
    }

    /// From a game against GNU Go: White's corner group (B9 to B4) has
    /// two liberties, A9 and A5, and Black's big chain has three. Black
    /// cannot take A5 at once (A4-A5 would be in atari and White takes
    /// them at A3); the quiet connection at A3 first gives A4 room, then
    /// A5 and A9 capture White before White fills Black's three.
    const APPROACH: &str = "
        . O X X X . . . .
        O O X O X X O O .
        O X X O . O O X O
        O O X O . O X X .
        . O X . O . X X .
        X O X O . . X . X
        . X O O . O O X X
        X . X O . X X O O
        . X . . . . X . .";

    #[test]
    fn a_race_won_by_an_approach_move_is_read() {
        assert_eq!(
            verdict(APPROACH, Color::Black, "A3"),
            Some(Verdict::Decisive)
        );
        // The self-atari it prepares is no decisive move by itself.
        assert_eq!(verdict(APPROACH, Color::Black, "A5"), None);
    }

    #[test]
    fn the_tree_priors_favour_a_decisive_move() {
        use crate::search::policy::{children_with_priors, LadderScratch, Priors, Recent};
        let board = Board::from_ascii(RACE_OF_THREES).unwrap();
        let f8 = test_point(&board, "F8").0 as u16;
        let value = |priors: &Priors| {
            let mut children = Vec::new();
            children_with_priors(
                &board,
                Color::Black,
                Recent::default(),
                priors,
                |_| true,
                &mut children,
                &mut LadderScratch::default(),
            );
            let c = children.iter().find(|c| c.mv == f8).unwrap();
            f64::from(c.prior_wins) / (2.0 * f64::from(c.prior_visits))
        };
        let unread = Priors::for_size(9);
        let read = Priors {
            critical: 100,
            ..unread
        };
        assert!(value(&read) > value(&unread) + 0.1);
    }

    /// The same race with D7 empty: White has three liberties to Black's
    /// two and wins it even when Black starts. Nothing there is urgent.
    const RACE_LOST: &str = "
        . X X O O . X . .
        O . X O . X X . .
        O O O . X X . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .";

    #[test]
    fn a_race_decided_either_way_holds_no_decisive_move() {
        for c in [Color::Black, Color::White] {
            let (board, f) = findings(RACE_LOST, c);
            for v in ["A9", "B8", "D7", "E8", "F9"] {
                assert_ne!(
                    f.verdict(test_point(&board, v)),
                    Some(Verdict::Decisive),
                    "{c:?} {v}"
                );
            }
        }
    }

    #[test]
    fn extending_a_chain_that_cannot_escape_is_hopeless() {
        // Black C2 in atari can extend to C1 and have two liberties, B1
        // and D1, but White takes either and the chain dies on the edge.
        // It is lost whoever moves, so capturing it is not urgent either.
        let edge = "
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . O . . . . . .
            . O X O . . . . .
            . . . . . . . . .";
        assert_eq!(verdict(edge, Color::Black, "C1"), Some(Verdict::Hopeless));
        assert_eq!(verdict(edge, Color::White, "C1"), None);
    }

    #[test]
    fn a_chain_in_atari_that_can_run_is_saved_by_running() {
        // Black C3 in atari runs out at D3 into the open; for White the
        // same point captures.
        let open = "
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . O . . . . . .
            . O X . . . . . .
            . . O . . . . . .
            . . . . . . . . .";
        assert_eq!(verdict(open, Color::Black, "D3"), Some(Verdict::Decisive));
        assert_eq!(verdict(open, Color::White, "D3"), Some(Verdict::Decisive));
    }
}
