//! Prior knowledge for new tree nodes, expressed as virtual playouts
//! ("equivalent experience"): a move that looks good starts with some
//! virtual wins, a move that looks bad with some virtual losses, and real
//! playouts soon outweigh both.

use super::gammas::{features_with, Source};
use super::patterns::is_good_shape;
use super::reading::{Findings, Reader, Verdict};
use super::shapes::{large_key, shape_key};
use super::tree::{NewChild, PASS};
use crate::board::{Bitboard, Board, Color, Move, Point, MAX_SIZE};
use crate::game::{Game, Ply};
use std::sync::OnceLock;

/// Virtual playouts for each piece of knowledge. Win counts are in half
/// points like the tree's (a value of 0.5 over `n` visits is `n` half-wins).
#[derive(Clone, Copy, Debug)]
pub struct Priors {
    /// Every move starts even: this many visits at 50%.
    pub even: u16,
    pub capture: u16,
    pub escape: u16,
    pub self_atari: u16,
    /// The vital point of a dead eye shape the last move left next to it
    /// (see [`Board::vital_point_next_to`]). Killing sacrifices are also
    /// spared the self-atari loss. With the nakade playouts, against GNU Go
    /// (9x9, 5000 playouts, seeds 5001-5100): 89/100 with the playouts
    /// alone, 90/100 with these priors too; 86/100 without either. On
    /// fresh seeds 5101-5200: 88/100 with both, 82/100 without either.
    pub nakade: u16,
    pub shape: u16,
    pub near_last: u16,
    /// A first-line move with no stone near (every board), and on boards
    /// of 13x13 and up a second-line one: it claims nothing.
    pub empty_edge: u16,
    /// On boards of 13x13 and up, a move on the third or fourth line with
    /// no stone near: where openings take corners and sides. Without it
    /// and the second-line loss, the learned 3×3 shapes see every open
    /// point off the first line alike, and 19x19 openings wandered to
    /// the centre and the second line.
    pub third_line: u16,
    /// A move that reading finds decides a capture race or a chain's
    /// escape. 0, the default, turns the reading off: against GNU Go it
    /// has not won more games yet (see `reading`), and it makes a node
    /// dearer to expand; `--tune prior_critical=100` turns it on.
    pub critical: u16,
    /// Virtual playouts won in proportion to the strength of the move's
    /// learned 3×3 shape (see `shapes`): none for a shape strong players
    /// never choose, half for one chosen at the average rate, all for one
    /// they always choose. Against GNU Go (9x9, 5000 playouts, the same
    /// 100 games): 85.9% with 20 (86% again in a later run), 79.8%
    /// without, 81.0% when only shapes above the average count (no
    /// virtual losses for weak shapes); 79% with 40, 88% with 10. With
    /// the nakade playouts, on other seeds (5101-5151), 10 won 34 of 51
    /// games that 20 won 43 of: 10's 88% was luck. Off by default since
    /// the learned strengths (`gamma`) took its place on every size.
    pub pattern: u16,
    /// Judge the shape by the large shape (the 3×3 one and the four points
    /// two steps out) where the records saw it often enough. On from
    /// 19x19 up, the size the shapes were learned on: against GNU Go
    /// (19x19, 10000 playouts) on the 61 seeds both played, it won 20
    /// games the 3×3 shapes lost and lost 11 they won. Off on smaller
    /// boards: on 9x9 (5000 playouts, seeds 5401-5500) it won 85 games
    /// where the 3×3 shapes won 88. Only `pattern` uses them, which is
    /// off on every size since the learned strengths took its place.
    pub large_shapes: bool,
    /// Virtual playouts won in proportion to the move's learned playout
    /// strength (see `gammas`: shape, tactics, distance to the last move)
    /// over the average strength of the node's moves: half for an average
    /// move, nearly all for a move far stronger. On 9x9 and below it takes
    /// the place of the 3×3 shapes (`pattern`), at their weight: against
    /// GNU Go (9x9, komi 7, 5000 playouts, seeds from 8890, 9090 and 9290)
    /// it won 524 of 597 games where the shapes won 500 of the same games
    /// (85 won only with it, 61 only without; sign test p = 0.057), more
    /// in each of the three blocks (RESEARCH.md, Learned playout strengths).
    /// On 19x19 and up too, with the large-pattern strengths: against GNU
    /// Go (19x19, komi 7.5, 10000 playouts, seeds from 4600 and 4640) 51
    /// of 75 games (68.0%) where the large shapes had won 135 of 228
    /// (59.2%; RESEARCH.md, Large patterns). On 13x13 as well: against GNU Go
    /// (13x13, komi 7.5, 10000 playouts, seeds 50100-50219) 103 of 120
    /// where the 3×3 shapes won 90 of the same games (26 won only with
    /// it, 13 only without).
    pub gamma: u16,
    /// Virtual playouts, all won, of `sqrt(p)` times this many, where `p`
    /// is the move's share of the learned strengths of all the node's
    /// moves (its probability under the learned model): the form of
    /// Pachi's pattern prior, where a likely move gets many wins and an
    /// unlikely one next to none, instead of every move getting the same
    /// visits. 0, the default, leaves it out: at 150 (Pachi's weight scaled
    /// to ishi's even prior) it won 166 of 200 against GNU Go (9x9, komi
    /// 7, 5000 playouts, seeds from 10490) where the default won 171, and
    /// 23 of 76 against Pachi where the default won 16 of the first 51;
    /// with the large patterns, 171 of 192 against GNU Go from seed 15290
    /// where the default won 178 (RESEARCH.md, Against Pachi).
    pub gamma_wins: u16,
    /// How sharply `gamma`'s virtual win rate follows the learned
    /// strength: a move `r` times as strong as the node's average gets
    /// `r^s / (r^s + 1)`. 1, the default, is the Bradley-Terry chance that
    /// the move beats an average one; above 1 the likely moves pull
    /// further ahead of the rest. At 1.5, against GNU Go (9x9, komi 7,
    /// 5000 playouts, book off) it won 185 of 200 from seed 29286 where
    /// the default won 172, but over 973 paired games 870 to the
    /// default's 874: no gain (RESEARCH.md, The slope of the learned priors).
    pub gamma_slope: f32,
    /// The learned strengths see the distance to the mover's own previous
    /// move too, as they were learned; without it, every move counts as
    /// far from it. Off: against GNU Go (9x9, komi 7, 5000 playouts) it
    /// won 175 of 200 from seed 9490 where the default won 177, and 69 of
    /// the first 85 from 9690 where the default won 79 (RESEARCH.md, Learned
    /// playout strengths).
    pub gamma_own: bool,
    /// Which learned strengths `gamma` uses. By default those learned
    /// with large patterns up to d 6 (`gammas_spatial.txt`): against GNU
    /// Go (9x9, komi 7, 5000 playouts, book off) they won 185 of 200 from
    /// seed 10490 where the 3×3 strengths of `gammas.txt`
    /// (`prior_gamma_spatial=0`) won 171, and against Pachi 37 of 100
    /// from seed 20400 where those won 30 (RESEARCH.md, Large patterns). Those
    /// from ishi's own 9x9 match moves (`prior_gamma_distilled=1`) won no
    /// more: 170 of 200 from seed 10490.
    pub gamma_source: Source,
    /// The largest large pattern (gridcular distance) the strengths may
    /// match (`--tune spatial_reach=D`; 3 matches none). The shipped
    /// table stops at d 6: larger patterns, learned on 19x19, carried a
    /// big board's whole-board context onto 9x9.
    pub spatial_reach: u8,
    /// Moves that atari or take an opposing chain of at least this many
    /// stones are marked tactical (`Node::is_tactical`): their AMAF
    /// results may raise their value but not lower it. 0, the default,
    /// marks none: with 4 (`--tune tactical_amaf=4`), against GNU Go (9x9,
    /// komi 7, 5000 playouts, book off) it won 179 of 200 from seed 20090,
    /// as many as the default (13 won only with it, 13 only without),
    /// and 155 of the first 175 from 20290, again as many (8 / 8;
    /// RESEARCH.md, Sudden falls).
    pub tactical_chain: u32,
    /// On 9x9, scale the learned strengths of the first twelve moves by
    /// the move's line (see [`OPENING_LINES`]): the large patterns, learned
    /// on 19x19, see every point off the third line of a small board as
    /// open centre. Off: against GNU Go (9x9, komi 7, 5000 playouts, book
    /// off, seeds from 20690 and 20490) it won 355 of 399 games where the
    /// default won 353 (40 won only with it, 38 only without; RESEARCH.md,
    /// Opening lines on 9x9).
    pub opening_lines: bool,
    /// `gamma` at the empty board, falling in a straight line to `gamma`
    /// by `opening_stones` stones (0, the default: `gamma` throughout):
    /// early on the playouts know least. Off: at 60 on 9x9 (5,000
    /// playouts, book off) it won 318 of 582 self-play games against the
    /// default (54.6%, komi 7.5), but against GNU Go (komi 7) 180 of 200
    /// paired games to the default's 182, and against Pachi 40 of 100
    /// where the default had won 43 (RESEARCH.md, The learned strengths
    /// weighed more in the opening).
    pub opening_gamma: u16,
    /// See `opening_gamma`.
    pub opening_stones: u16,
    /// The nakade prior judges each empty space beside the last move on
    /// its own (see `Board::vital_point_beside`); set with the playouts'
    /// `nakade_closed` by `--tune playout_nakade_closed=1`.
    pub nakade_beside: bool,
}

/// Factors on the learned strength of a 9x9 move by the stones on the
/// board (0-3, 4-7, 8-11) and the move's line (first and second, third,
/// fourth, fifth). Learned by minorization-maximization from the 453
/// positions of `book9_own.txt`, whose 50,000-playout choices no
/// opponent's games had a say in (`examples/learn_opening_lines.rs`):
/// there the strengths alone rated the fourth and fifth lines of an
/// empty board five times too low and the second line two to six times
/// too high. On the 1,500 positions `book9_records.txt` then held, held out,
/// the strongest move by the scaled strengths is the deep search's
/// choice 28.8% of the time against 26.3% (mean log-likelihood -2.64
/// against -2.75).
pub const OPENING_LINES: [[f32; 4]; 3] = [
    [0.41, 1.0, 5.2, 4.49],
    [0.17, 1.0, 1.97, 2.47],
    [0.25, 1.0, 1.09, 0.53],
];

/// The column of [`OPENING_LINES`] for a move at `p`.
pub fn opening_line_column(board: &Board, p: Point) -> usize {
    line(board, p).clamp(2, 5) - 2
}

/// The line factors of [`OPENING_LINES`] for a position with `stones` on
/// a 9x9 board, or none.
fn opening_line_factors(size: usize, stones: u32) -> Option<&'static [f32; 4]> {
    (size == 9)
        .then(|| OPENING_LINES.get(stones as usize / 4))
        .flatten()
}

impl Priors {
    /// Hand-set weights. On 9x9 every one halved won 227 of 457 games in
    /// self-play against these and every one doubled 219 of 451 (5,000
    /// playouts, komi 7.5, book off; RESEARCH.md, Self-play as a screen).
    pub fn for_size(size: usize) -> Priors {
        let e = if size <= 9 { 10 } else { 20 };
        Priors {
            even: e,
            capture: e * 3,
            escape: e * 3,
            self_atari: e * 2,
            nakade: e * 3,
            shape: e,
            near_last: e,
            empty_edge: e,
            third_line: e / 2,
            critical: 0,
            pattern: 0,
            large_shapes: size >= 19,
            gamma: e * 2,
            gamma_wins: 0,
            gamma_slope: 1.0,
            gamma_own: false,
            gamma_source: Source::Spatial,
            spatial_reach: super::spatial::MAX_DISTANCE as u8,
            tactical_chain: 0,
            opening_lines: false,
            opening_gamma: 0,
            opening_stones: 20,
            nakade_beside: false,
        }
    }

    /// The weight of the learned strengths at a node with `stones` on the
    /// board (see `opening_gamma`).
    fn gamma_at(&self, stones: u32) -> u16 {
        let (from, over) = (
            f32::from(self.opening_gamma),
            f32::from(self.opening_stones),
        );
        if self.opening_gamma == 0 || stones as f32 >= over {
            return self.gamma;
        }
        let left = 1.0 - stones as f32 / over;
        (f32::from(self.gamma) + (from - f32::from(self.gamma)) * left).round() as u16
    }
}

/// Chebyshev distance 2 around `p` holds none of `stones`.
fn quiet_around(board: &Board, stones: &Bitboard, p: Point) -> bool {
    !stones.intersects(&squares_around(board)[p.0])
}

/// For each point of a board of `board`'s size, the points within
/// Chebyshev distance 2 of it (made on first use, then kept).
fn squares_around(board: &Board) -> &'static [Bitboard] {
    static BY_SIZE: [OnceLock<Vec<Bitboard>>; MAX_SIZE + 1] =
        [const { OnceLock::new() }; MAX_SIZE + 1];
    BY_SIZE[board.size().min(MAX_SIZE)].get_or_init(|| {
        let len = board.point_index_bound();
        let mut squares = vec![Bitboard::EMPTY; len];
        let size = board.size();
        for p in board.points() {
            let (x, y) = board.xy(p);
            for yy in y.saturating_sub(2)..=(y + 2).min(size - 1) {
                for xx in x.saturating_sub(2)..=(x + 2).min(size - 1) {
                    if let Ok(q) = board.point(xx, yy) {
                        squares[p.0].set(q.0);
                    }
                }
            }
        }
        squares
    })
}

/// Distance to the edge, 1 on the first line.
pub(super) fn line(board: &Board, p: Point) -> usize {
    let (x, y) = board.xy(p);
    let s = board.size();
    1 + x.min(y).min(s - 1 - x).min(s - 1 - y)
}

/// Close to `last` in the sense players use: within a knight's move.
fn near(board: &Board, p: Point, last: Point) -> bool {
    let (x, y) = board.xy(p);
    let (lx, ly) = board.xy(last);
    let (dx, dy) = (x.abs_diff(lx), y.abs_diff(ly));
    dx + dy + dx.max(dy) <= 4
}

/// Boards and a point list reused by the ladder reader: it is called inside
/// playouts, where allocating a board per step would cost more than the
/// playout.
#[derive(Default)]
pub struct LadderScratch {
    /// Boxed: a board is tens of kilobytes, too big to move in and out.
    boards: Vec<Box<Board>>,
    escapes: Vec<Point>,
    reader: Reader,
    findings: Findings,
}

impl LadderScratch {
    /// A scratch copy of `board`, to hand back with `give_back`.
    fn copy_of(&mut self, board: &Board) -> Box<Board> {
        match self.boards.pop() {
            Some(mut b) => {
                Board::clone_from(&mut b, board);
                b
            }
            None => Box::new(board.clone()),
        }
    }

    fn give_back(&mut self, b: Box<Board>) {
        self.boards.push(b);
    }
}

/// Whether the chain through `p` (colour `c`), which has two liberties,
/// is caught in a ladder: the attacker keeps putting it in atari, it keeps
/// extending, and it never gains a third liberty or a capture. `board` is
/// a scratch board the reader plays the ladder out on: a forced line needs
/// no copies, only a choice between two ataris does.
fn caught_in_ladder(
    board: &mut Board,
    p: Point,
    c: Color,
    depth: u32,
    scratch: &mut LadderScratch,
) -> bool {
    let Some([first, second]) = board.two_liberties(p) else {
        return board.in_atari(p);
    };
    if depth > 40 {
        return false;
    }
    let attacker = c.opponent();
    let viable = |a: Point, run: Point| {
        // Where the run would reach three liberties after the atari at `a`,
        // the atari fails; telling so needs no scratch board.
        let shape = board.move_shape(c, run, 4);
        !(shape.captures == 0 && shape.liberties >= 4)
            && board.is_legal_no_suicide(attacker, a)
            && !board.move_shape(attacker, a, 2).is_self_atari()
    };
    let ataris = [(first, second), (second, first)];
    let [one, other] = ataris.map(|(a, run)| viable(a, run).then_some(a));
    let chosen = match (one, other) {
        (Some(a), Some(b)) => {
            let mut copy = scratch.copy_of(board);
            let caught = atari_then_run(&mut copy, p, c, a, depth, scratch);
            scratch.give_back(copy);
            if caught {
                return true;
            }
            b
        }
        (Some(a), None) | (None, Some(a)) => a,
        (None, None) => return false,
    };
    atari_then_run(board, p, c, chosen, depth, scratch)
}

/// One ladder step on the scratch `board`: the attacker ataris at `a`, the
/// chain through `p` runs unless a capture frees it; then the reading goes on.
fn atari_then_run(
    board: &mut Board,
    p: Point,
    c: Color,
    a: Point,
    depth: u32,
    scratch: &mut LadderScratch,
) -> bool {
    board.place_unchecked(c.opponent(), a);
    scratch.escapes.clear();
    board.capturing_escapes(p, &mut scratch.escapes);
    if !scratch.escapes.is_empty() {
        return false;
    }
    let Some(run) = board.atari_liberty(p) else {
        return false;
    };
    if !board.is_legal_no_suicide(c, run) {
        return true;
    }
    board.place_unchecked(c, run);
    caught_in_ladder(board, p, c, depth + 1, scratch)
}

/// `c` extending its chain in atari at `p` only runs into a ladder.
pub(super) fn escape_fails(board: &Board, c: Color, p: Point, scratch: &mut LadderScratch) -> bool {
    caught_after(board, &[(c, p)], p, c, scratch)
}

/// Whether, once `moves` are played on a scratch copy of `board`, the chain
/// through `p` (colour `c`) is caught in a ladder.
fn caught_after(
    board: &Board,
    moves: &[(Color, Point)],
    p: Point,
    c: Color,
    scratch: &mut LadderScratch,
) -> bool {
    let mut after = scratch.copy_of(board);
    for &(mover, q) in moves {
        after.place_unchecked(mover, q);
    }
    let caught = caught_in_ladder(&mut after, p, c, 0, scratch);
    scratch.give_back(after);
    caught
}

/// `c` playing at `x` puts the opposing chain through `target`, whose two
/// liberties are `x` and `y`, in atari it cannot get out of: no capture
/// frees it (taking the stone at `x` only as a snapback), and extending at
/// `y` leaves at most two liberties, which then lead into a ladder. Cheap
/// tests first; a scratch board only for the ladder.
pub(super) fn atari_catches(
    board: &Board,
    c: Color,
    target: Point,
    x: Point,
    y: Point,
    scratch: &mut LadderScratch,
) -> bool {
    let prey = c.opponent();
    // Liberties after the atari and the run; `x` counts among the run's
    // liberties now, and the atari takes it.
    let run_liberties = if board.is_legal_no_suicide(prey, y) {
        let run = board.move_shape(prey, y, 4);
        if run.captures > 0 || run.liberties >= 4 {
            return false;
        }
        run.liberties.saturating_sub(1)
    } else {
        0
    };
    // A stone in atari catches only as a snapback: taking it leaves the
    // taker in atari, to be captured back whole.
    if board.move_shape(c, x, 2).is_self_atari() && !board.sets_snapback(c, x) {
        return false;
    }
    scratch.escapes.clear();
    board.capturing_escapes(target, &mut scratch.escapes);
    if !scratch.escapes.is_empty() {
        return false;
    }
    match run_liberties {
        0 | 1 => true,
        2 => caught_after(board, &[(c, x), (prey, y)], target, prey, scratch),
        _ => false,
    }
}

/// `c` at `p` ataris a neighbouring chain that cannot get away: as good as
/// capturing it. A chain touching `p` twice is read once.
fn catches_a_neighbour(board: &Board, c: Color, p: Point, ladder: &mut LadderScratch) -> bool {
    let mut read = [usize::MAX; 4];
    board.neighbours(p).into_iter().enumerate().any(|(k, q)| {
        let q = Point(q);
        if board.color_at(q) != Some(c.opponent()) || read.contains(&board.chain_id(q)) {
            return false;
        }
        read[k] = board.chain_id(q);
        board.two_liberties(q).is_some_and(|[a, b]| {
            let y = if a == p { b } else { a };
            atari_catches(board, c, q, p, y, ladder)
        })
    })
}

/// The placements just before a node: the opponent's last, and the
/// mover's own before it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Recent {
    pub last: Option<Point>,
    pub own: Option<Point>,
}

impl Recent {
    /// The placements before `color` moves in `game`: the opponent's last,
    /// and `color`'s own just before it.
    pub fn before(game: &Game, color: Color) -> Recent {
        let placement = |ply: &Ply| match ply.mv {
            Move::Place(p) => Some(p),
            Move::Pass => None,
        };
        match game.plies() {
            [.., mine, theirs] if mine.color == color && theirs.color != color => Recent {
                last: placement(theirs),
                own: placement(mine),
            },
            [.., theirs] if theirs.color != color => Recent {
                last: placement(theirs),
                own: None,
            },
            _ => Recent::default(),
        }
    }

    /// The placements before the next node once the mover has played
    /// `placed` (`None` for a pass): its move becomes the last, and the
    /// last becomes the next mover's own.
    pub fn after(self, placed: Option<Point>) -> Recent {
        Recent {
            last: placed,
            own: self.last,
        }
    }
}

/// The children of a node where `c` moves on `board`: every legal move that
/// does not fill an own eye and that `allowed` accepts, then pass, each with
/// its prior.
pub fn children_with_priors(
    board: &Board,
    c: Color,
    recent: Recent,
    k: &Priors,
    allowed: impl Fn(Point) -> bool,
    out: &mut Vec<NewChild>,
    ladder: &mut LadderScratch,
) {
    let last = recent.last;
    let own_last = recent.own.filter(|_| k.gamma_own);
    out.clear();
    // Openness matters on the first line everywhere, and on lines 1-4 of
    // big boards; the scan of the area is skipped elsewhere.
    let open_lines = if board.size() >= 13 { 4 } else { 1 };
    let stones = board.occupied();
    let shapes = super::shapes::table();
    let large_shapes = k.large_shapes.then(super::shapes::large_table);
    let mut findings = std::mem::take(&mut ladder.findings);
    if k.critical > 0 {
        ladder.reader.read(board, c, &mut findings);
    } else {
        findings.clear();
    }
    let vital = if k.nakade_beside {
        last.and_then(|l| board.vital_point_beside(l))
    } else {
        last.and_then(|l| board.vital_point_next_to(l))
    };
    let gammas = (k.gamma > 0 || k.gamma_wins > 0).then(|| super::gammas::table_of(k.gamma_source));
    let mut strengths = Vec::with_capacity(if gammas.is_some() {
        board.empties().len()
    } else {
        0
    });
    let stone_count = board.stone_count();
    let line_factors = opening_line_factors(board.size(), stone_count).filter(|_| k.opening_lines);
    let gamma = k.gamma_at(stone_count);
    for &e in board.empties() {
        let p = Point(e as usize);
        if board.is_eye_like(c, p) || !board.is_legal_no_suicide(c, p) || !allowed(p) {
            continue;
        }
        // (visits, half-wins): start even.
        let (mut n, mut w) = (k.even as u32, k.even as u32);
        let mut win = |amount: u16| {
            n += amount as u32;
            w += 2 * amount as u32;
        };
        let shape = board.move_shape(c, p, 3);
        let catches = shape.captures > 0 || catches_a_neighbour(board, c, p, ladder);
        if catches {
            win(k.capture);
        }
        let saves = board.neighbours(p).into_iter().any(|q| {
            let q = Point(q);
            board.color_at(q) == Some(c) && board.in_atari(q)
        });
        let verdict = findings.verdict(p);
        if verdict == Some(Verdict::Decisive) {
            win(k.critical);
        }
        if vital == Some(p) {
            win(k.nakade);
        }
        let mut doomed = verdict == Some(Verdict::Hopeless);
        if saves && shape.liberties >= 2 && !doomed {
            if shape.captures == 0 && shape.liberties == 2 && escape_fails(board, c, p, ladder) {
                doomed = true;
            } else {
                win(k.escape);
            }
        }
        if is_good_shape(board.neighbourhood_code(p)) {
            win(k.shape);
        }
        if last.is_some_and(|l| near(board, p, l)) {
            win(k.near_last);
        }
        let line = line(board, p);
        let quiet = line <= open_lines && quiet_around(board, &stones, p);
        if quiet && line >= 3 {
            win(k.third_line);
        }
        let mut lose = |amount: u16| n += amount as u32;
        // Asked of self-ataris only: the other moves need no excuse.
        let bad_self_atari = shape.is_self_atari()
            && !(catches || board.is_nakade_sacrifice(c, p) || board.sets_snapback(c, p));
        if bad_self_atari || doomed {
            lose(k.self_atari);
        }
        if quiet && line <= 2 {
            lose(k.empty_edge);
        }
        if k.pattern > 0 {
            let strength = if let Some(large) = large_shapes {
                large.strength(large_key(board, c, p))
            } else {
                shapes.strength(shape_key(board, c, p))
            } as u32;
            n += k.pattern as u32;
            w += 2 * k.pattern as u32 * strength / 255;
        }
        if let Some(g) = gammas {
            let by_line = line_factors.map_or(1.0, |f| f[opening_line_column(board, p)]);
            strengths.push(
                g.weight(&features_with(board, c, p, last, own_last, || shape))
                    * g.spatial_strength(board, c, p, k.spatial_reach as usize)
                    * by_line,
            );
        }
        out.push(NewChild {
            mv: p.0 as u16,
            prior_visits: n.min(u16::MAX as u32) as u16,
            prior_wins: w.min(u16::MAX as u32) as u16,
            policy: 0,
            tactical: k.tactical_chain > 0 && threatens_chain(board, c, p, k.tactical_chain),
            ..Default::default()
        });
    }
    ladder.findings = findings;
    if !strengths.is_empty() {
        let total = strengths.iter().sum::<f32>();
        let mean = total / strengths.len() as f32;
        for (child, strength) in out.iter_mut().zip(&strengths) {
            child.policy = (f32::from(u16::MAX) * strength / total).round() as u16;
            // The slope is 1 unless tuned, and powf is costly next to the rest.
            let ratio = strength / mean;
            let relative = if k.gamma_slope == 1.0 {
                ratio
            } else {
                ratio.powf(k.gamma_slope)
            };
            let won = 2.0 * gamma as f32 * relative / (relative + 1.0);
            child.prior_visits = child.prior_visits.saturating_add(gamma);
            child.prior_wins = child.prior_wins.saturating_add(won.round() as u16);
        }
        if k.gamma_wins > 0 {
            for (child, strength) in out.iter_mut().zip(&strengths) {
                let wins = (k.gamma_wins as f32 * (strength / total).sqrt()).round() as u16;
                child.prior_visits = child.prior_visits.saturating_add(wins);
                child.prior_wins = child.prior_wins.saturating_add(2 * wins);
            }
        }
    }
    // Pass starts pessimistic: it is rarely right until the end.
    out.push(NewChild {
        mv: PASS,
        prior_visits: k.even,
        prior_wins: k.even / 2,
        policy: 0,
        ..Default::default()
    });
}

/// `c` at `p` takes or ataris an opposing chain of at least `stones`.
fn threatens_chain(board: &Board, c: Color, p: Point, stones: u32) -> bool {
    board.neighbours(p).into_iter().any(|q| {
        let q = Point(q);
        board.color_at(q) == Some(c.opponent())
            && (board.in_atari(q) || board.two_liberties(q).is_some())
            && board.chain_len(q) >= stones
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::coord::parse_vertex;

    /// The prior value of `v` from the hand-written knowledge alone (the
    /// learned shapes have a test of their own).
    fn value_of(diagram: &str, c: Color, v: &str) -> f64 {
        let hand_written = Priors {
            pattern: 0,
            large_shapes: false,
            gamma: 0,
            ..Priors::for_size(9)
        };
        value_with(&hand_written, diagram, c, None, v)
    }

    fn value_with(priors: &Priors, diagram: &str, c: Color, last: Option<&str>, v: &str) -> f64 {
        value_after(priors, diagram, c, [last, None], v)
    }

    /// The prior value of `c` at `v` after the opponent's last move and
    /// `c`'s own before it (`recent`).
    fn value_after(
        priors: &Priors,
        diagram: &str,
        c: Color,
        recent: [Option<&str>; 2],
        v: &str,
    ) -> f64 {
        let b = Board::from_ascii(diagram).unwrap();
        let vertex = |v: &str| parse_vertex(v, b.size()).unwrap().unwrap();
        let p = vertex(v);
        let mut out = Vec::new();
        let mut ladder = LadderScratch::default();
        let [last, own] = recent.map(|r| r.map(vertex));
        let recent = Recent { last, own };
        children_with_priors(&b, c, recent, priors, |_| true, &mut out, &mut ladder);
        let child = out.iter().find(|ch| ch.mv as usize == p.0).unwrap();
        child.prior_wins as f64 / (2.0 * child.prior_visits as f64)
    }

    #[test]
    fn the_recent_placements_are_the_opponents_last_and_the_movers_own() {
        let mut game = Game::new(9, crate::rules::Rules::default()).unwrap();
        let at = |v: &str| parse_vertex(v, 9).unwrap().unwrap();
        assert_eq!(Recent::before(&game, Color::Black), Recent::default());
        game.play_move(Move::Place(at("E5"))).unwrap();
        let after_e5 = Recent {
            last: Some(at("E5")),
            own: None,
        };
        assert_eq!(Recent::before(&game, Color::White), after_e5);
        game.play_move(Move::Place(at("F6"))).unwrap();
        let after_f6 = Recent {
            last: Some(at("F6")),
            own: Some(at("E5")),
        };
        assert_eq!(Recent::before(&game, Color::Black), after_f6);
        // White moved last: nothing of Black's answers it.
        assert_eq!(Recent::before(&game, Color::White), Recent::default());
        game.play_move(Move::Pass).unwrap();
        let after_pass = Recent {
            last: None,
            own: Some(at("F6")),
        };
        assert_eq!(Recent::before(&game, Color::White), after_pass);
    }

    #[test]
    fn a_point_is_quiet_with_no_stone_two_steps_around_it_in_any_direction() {
        // B1 is quiet until a stone stands within two columns and two rows.
        let diagram = "\
            . . . . . . . . .\n\
            . . . . . . . . .\n\
            . . . . . . . . .\n\
            . . . . . . . . .\n\
            . . . . . . . . .\n\
            . . . . . . . . .\n\
            . . . X . . . . .\n\
            . . . . . . . . .\n\
            . . . . . . . . .\n";
        let quiet = |diagram: &str, v: &str| {
            let b = Board::from_ascii(diagram).unwrap();
            let stones = b.occupied();
            quiet_around(&b, &stones, parse_vertex(v, 9).unwrap().unwrap())
        };
        // D3 is two columns right of B1 and two rows up: the corner of its square.
        assert!(!quiet(diagram, "B1"));
        assert!(quiet(diagram, "A1"));
        assert!(!quiet(diagram, "F1"));
        assert!(quiet(diagram, "G1"));
        assert!(quiet(diagram, "D6"));
        assert!(!quiet(diagram, "D5"));
    }

    #[test]
    fn the_opening_lines_draw_a_small_board_to_its_centre() {
        let empty = ". . . . . . . . .\n".repeat(9);
        let plain = Priors::for_size(9);
        let lines = Priors {
            opening_lines: true,
            ..plain
        };
        let value =
            |k: &Priors, diagram: &str, v: &str| value_with(k, diagram, Color::Black, None, v);
        // Strengths learned on 19x19 like the third line of any board best,
        // and an empty 9x9 board's second line as much as its centre.
        let gap = |k: &Priors| value(k, &empty, "C3") - value(k, &empty, "D4");
        assert!(gap(&plain) > 0.2, "{}", gap(&plain));
        assert_eq!(value(&plain, &empty, "B2"), value(&plain, &empty, "E5"));
        // The 50,000-playout searches of the book chose the fourth and
        // fifth lines and seldom the second.
        for v in ["D4", "E5"] {
            assert!(
                value(&lines, &empty, v) > value(&plain, &empty, v) + 0.1,
                "{v}"
            );
        }
        assert!(value(&lines, &empty, "B2") < value(&plain, &empty, "B2") - 0.1);
        assert!(gap(&lines) < gap(&plain) / 4.0, "{}", gap(&lines));
        // From twelve stones on, and on other sizes, nothing changes.
        let twelve = "
            . . . . . . . . .
            . . X . . . O . .
            . . . . X . . . .
            . O . . . . . X .
            . . . X . O . . .
            . X . . . . . O .
            . . . . O . . . .
            . . X . . . O . .
            . . . . . . . . .";
        for v in ["C3", "E5", "B2"] {
            assert_eq!(value(&lines, twelve, v), value(&plain, twelve, v));
        }
        let empty13 = ". . . . . . . . . . . . .\n".repeat(13);
        let plain13 = Priors::for_size(13);
        let lines13 = Priors {
            opening_lines: true,
            ..plain13
        };
        for v in ["C3", "G7", "D4"] {
            assert_eq!(value(&lines13, &empty13, v), value(&plain13, &empty13, v));
        }
    }

    #[test]
    fn the_opening_weight_of_the_strengths_falls_to_the_usual_one() {
        let plain = Priors::for_size(9);
        let opening = Priors {
            opening_gamma: 60,
            opening_stones: 20,
            ..plain
        };
        assert_eq!(plain.gamma, 20);
        assert_eq!(opening.gamma_at(0), 60);
        assert_eq!(opening.gamma_at(10), 40);
        assert_eq!(opening.gamma_at(19), 22);
        assert_eq!(opening.gamma_at(20), 20);
        assert_eq!(opening.gamma_at(70), 20);
        for stones in [0, 10, 20] {
            assert_eq!(plain.gamma_at(stones), 20);
        }
        // On the empty board the strengths steer harder: the third line
        // gains on the centre. With twenty stones nothing changes.
        let empty = ". . . . . . . . .\n".repeat(9);
        let value =
            |k: &Priors, diagram: &str, v: &str| value_with(k, diagram, Color::Black, None, v);
        let gap = |k: &Priors| value(k, &empty, "C3") - value(k, &empty, "E5");
        assert!(
            gap(&opening) > gap(&plain) + 0.05,
            "{} {}",
            gap(&opening),
            gap(&plain)
        );
        let twenty = "
            . . . . . . . . .
            . X X . . . O O .
            . . . . X . . . .
            . O . X . O . X .
            . . . X . O . . .
            . X . . X . O O .
            . . . . O . . . .
            . . X . . X O . .
            . . . . . . . . O";
        for v in ["C3", "E5", "B2"] {
            assert_eq!(value(&opening, twenty, v), value(&plain, twenty, v));
        }
    }
    #[test]
    fn a_sacrifice_that_kills_is_no_bad_self_atari() {
        // White's only eye space is the pyramid B1 C1 D1 C2; Black D1
        // fills it up to B1, and the bent three left after the capture dies.
        let diagram = "
            . . . . . .
            . . . . . .
            X X X X X X
            O O O O O X
            O O X O O X
            O . X . O X";
        let hand_written = Priors {
            pattern: 0,
            large_shapes: false,
            gamma: 0,
            near_last: 0,
            ..Priors::for_size(9)
        };
        assert!(value_with(&hand_written, diagram, Color::Black, None, "D1") >= 0.5);
        // White filling its own last liberty but one is still a blunder.
        assert!(value_with(&hand_written, diagram, Color::White, None, "D1") < 0.4);
    }

    #[test]
    fn openings_on_big_boards_take_the_third_and_fourth_lines() {
        // An empty 13x13 board:
        //   first line  A7  second line B7   third line C7, C4 (3-4 point)
        //   fourth line D4 (star point)      centre G7
        let empty_13 = ". . . . . . . . . . . . .\n".repeat(13);
        let hand_written = Priors {
            pattern: 0,
            large_shapes: false,
            gamma: 0,
            ..Priors::for_size(13)
        };
        let value = |v: &str| value_with(&hand_written, &empty_13, Color::Black, None, v);
        for corner_or_side in ["C4", "D4", "C7"] {
            assert!(value(corner_or_side) > value("G7"), "{corner_or_side}");
        }
        for low in ["A7", "B7"] {
            assert!(value(low) < value("G7"), "{low}");
        }
        // On 9x9 the second line is no worse than the centre.
        let empty_9 = ". . . . . . . . .\n".repeat(9);
        let small = Priors {
            pattern: 0,
            large_shapes: false,
            gamma: 0,
            ..Priors::for_size(9)
        };
        let value_9 = |v: &str| value_with(&small, &empty_9, Color::Black, None, v);
        assert_eq!(value_9("B5"), value_9("E5"));
    }

    #[test]
    fn the_vital_point_of_a_space_just_closed_looks_good() {
        // White E1 has just captured three Black stones: C1 kills.
        let diagram = "
            . . . . . .
            . . . . . .
            . . . . . .
            . . . . . .
            O O O O O O
            O . . . O O";
        let hand_written = Priors {
            pattern: 0,
            large_shapes: false,
            gamma: 0,
            near_last: 0,
            ..Priors::for_size(9)
        };
        let at_c1 = |k: &Priors| value_with(k, diagram, Color::Black, Some("E1"), "C1");
        assert!(at_c1(&hand_written) > 0.7);
        let without = Priors {
            nakade: 0,
            ..hand_written
        };
        assert!((at_c1(&without) - 0.5).abs() < 1e-9);
    }

    #[test]
    fn captures_look_good_and_self_ataris_bad() {
        let diagram = "
            . . . . .
            . . X . .
            . X O X .
            . . . . .
            . . . . .";
        assert!(value_of(diagram, Color::Black, "C2") > 0.7, "capture");
        assert!(value_of(diagram, Color::White, "C2") > 0.6, "escape");
        let corner = "
            . . . . .
            . . . . .
            O . . . .
            . . . . .
            X O . . .";
        assert!(value_of(corner, Color::Black, "A2") < 0.4, "self-atari");
        assert!(value_of(corner, Color::White, "A2") > 0.7, "capture A1");
        let lone = "
            . . . . .
            X . . . .
            . X . . .
            . . . . .
            . . . . .";
        assert!(
            value_of(lone, Color::White, "A3") < 0.4,
            "lone stone into atari"
        );
    }

    /// Only the even start: none of the knowledge.
    const EVEN_ONLY: Priors = Priors {
        even: 10,
        capture: 0,
        escape: 0,
        self_atari: 0,
        nakade: 0,
        shape: 0,
        near_last: 0,
        empty_edge: 0,
        third_line: 0,
        critical: 0,
        pattern: 0,
        large_shapes: false,
        gamma: 0,
        gamma_wins: 0,
        gamma_slope: 1.0,
        gamma_own: false,
        gamma_source: Source::Records,
        spatial_reach: crate::search::spatial::MAX_DISTANCE as u8,
        tactical_chain: 0,
        opening_lines: false,
        opening_gamma: 0,
        opening_stones: 20,
        nakade_beside: false,
    };

    #[test]
    fn learned_shapes_favour_saving_a_chain_over_the_empty_corner() {
        // Only the even start and the learned shapes count here.
        let shapes_only = Priors {
            pattern: 20,
            ..EVEN_ONLY
        };
        let diagram = "
            . . . . .
            . . O . .
            . O X O .
            . . . . .
            . . . . .";
        // Extending out of atari: a shape strong players choose.
        let save = value_with(&shapes_only, diagram, Color::Black, None, "C2");
        assert!(save > 0.6, "extending out of atari: {save}");
        // The 1-1 point, which they avoid.
        let corner = value_with(&shapes_only, diagram, Color::Black, None, "A1");
        assert!(corner < 0.3, "the 1-1 point: {corner}");
        // Without the shapes every move starts even.
        assert_eq!(
            value_with(&EVEN_ONLY, diagram, Color::Black, None, "C2"),
            0.5
        );
    }

    /// White's last move C3 stands in atari at C2.
    const LAST_MOVE_IN_ATARI: &str = "
            . . . . . . .
            . . . . . . .
            . . . . . . .
            . . X . . . .
            . X O X . . .
            . . . . . . .
            . . . . . . .";

    #[test]
    fn moves_that_atari_or_take_a_big_chain_are_tactical() {
        // G4 and G6 atari the five white stones, H3 and J3 the two, A1 and
        // B2 the one.
        let diagram = "\
            . . . . . . . . .\n\
            . . . . . . . . .\n\
            . . . . . . . . .\n\
            . . X X X X . . .\n\
            . X O O O O O X .\n\
            . . X X X X . . .\n\
            . . . . . . . . .\n\
            . . . . . . X O O\n\
            . O X . . . . X X\n";
        let tactical = |stones: u32| -> Vec<String> {
            let b = Board::from_ascii(diagram).unwrap();
            let priors = Priors {
                tactical_chain: stones,
                ..Priors::for_size(9)
            };
            let mut out = Vec::new();
            let mut ladder = LadderScratch::default();
            let recent = Recent::default();
            children_with_priors(
                &b,
                Color::Black,
                recent,
                &priors,
                |_| true,
                &mut out,
                &mut ladder,
            );
            let mut marked: Vec<String> = out
                .iter()
                .filter(|c| c.tactical)
                .map(|c| crate::board::coord::vertex_name(Point(c.mv as usize), b.size()))
                .collect();
            marked.sort();
            marked
        };
        assert_eq!(tactical(5), ["G4", "G6"]);
        assert_eq!(tactical(2), ["G4", "G6", "H3", "J3"]);
        assert_eq!(tactical(1), ["A1", "B2", "G4", "G6", "H3", "J3"]);
        assert!(tactical(6).is_empty());
        assert!(tactical(0).is_empty());
    }

    #[test]
    fn learned_strengths_favour_taking_the_last_move_over_a_far_point() {
        let diagram = LAST_MOVE_IN_ATARI;
        for source in [Source::Records, Source::OwnGames9] {
            let strengths_only = Priors {
                gamma: 20,
                gamma_source: source,
                ..EVEN_ONLY
            };
            let take = value_with(&strengths_only, diagram, Color::Black, Some("C3"), "C2");
            assert!(take > 0.7, "{source:?}: taking the last move: {take}");
            let far = value_with(&strengths_only, diagram, Color::Black, Some("C3"), "G7");
            assert!(far < 0.4, "{source:?}: a far corner point: {far}");
            let off = Priors {
                gamma: 0,
                ..strengths_only
            };
            assert_eq!(
                value_with(&off, diagram, Color::Black, Some("C3"), "C2"),
                0.5
            );
        }
    }

    #[test]
    fn the_slope_sets_how_far_the_likely_and_unlikely_moves_stand_apart() {
        let diagram = LAST_MOVE_IN_ATARI;
        let with_slope = |gamma_slope| Priors {
            gamma: 20,
            gamma_slope,
            ..EVEN_ONLY
        };
        let value = |slope, v| value_with(&with_slope(slope), diagram, Color::Black, Some("C3"), v);
        // C2 takes the last move; E2, away from the fight, is a plain move.
        let (take, plain) = (value(1.0, "C2"), value(1.0, "E2"));
        let (take_steep, plain_steep) = (value(2.0, "C2"), value(2.0, "E2"));
        assert!(
            take_steep > take,
            "taking the last move: {take_steep} against {take}"
        );
        assert!(
            plain_steep < plain,
            "a plain move: {plain_steep} against {plain}"
        );
        let (take_flat, plain_flat) = (value(0.5, "C2"), value(0.5, "E2"));
        assert!(
            take_flat < take,
            "taking the last move: {take_flat} against {take}"
        );
        assert!(
            plain_flat > plain,
            "a plain move: {plain_flat} against {plain}"
        );
        // Slope 0 forgets the strengths: every move an even prior.
        assert_eq!(value(0.0, "C2"), value(0.0, "G7"));
    }

    #[test]
    fn likely_moves_get_wins_and_unlikely_ones_next_to_none() {
        let diagram = LAST_MOVE_IN_ATARI;
        let wins_only = Priors {
            gamma_wins: 200,
            ..EVEN_ONLY
        };
        let take = value_with(&wins_only, diagram, Color::Black, Some("C3"), "C2");
        assert!(take > 0.8, "taking the last move: {take}");
        // A far point is not counted as losing, only left near even.
        let far = value_with(&wins_only, diagram, Color::Black, Some("C3"), "G7");
        assert!((0.5..0.6).contains(&far), "a far corner point: {far}");
    }

    #[test]
    fn the_policy_shares_the_learned_strength_among_the_moves() {
        let b = Board::from_ascii(LAST_MOVE_IN_ATARI).unwrap();
        let vertex = |v: &str| parse_vertex(v, b.size()).unwrap().unwrap().0 as u16;
        let strengths = Priors {
            gamma: 20,
            ..EVEN_ONLY
        };
        let mut out = Vec::new();
        let recent = Recent {
            last: Some(Point(vertex("C3") as usize)),
            own: None,
        };
        let mut ladder = LadderScratch::default();
        children_with_priors(
            &b,
            Color::Black,
            recent,
            &strengths,
            |_| true,
            &mut out,
            &mut ladder,
        );
        let share = |v: &str| {
            let child = out.iter().find(|c| c.mv == vertex(v)).unwrap();
            f64::from(child.policy) / f64::from(u16::MAX)
        };
        let total: f64 = out.iter().map(|c| f64::from(c.policy)).sum::<f64>() / f64::from(u16::MAX);
        assert!((total - 1.0).abs() < 0.01, "shares add up to {total}");
        assert_eq!(out.last().map(|c| (c.mv, c.policy)), Some((PASS, 0)));
        let (take, far) = (share("C2"), share("G7"));
        assert!(
            take > 20.0 * far,
            "taking the last move {take}, a far point {far}"
        );
        // Without learned strengths there is no policy.
        children_with_priors(
            &b,
            Color::Black,
            recent,
            &EVEN_ONLY,
            |_| true,
            &mut out,
            &mut ladder,
        );
        assert!(out.iter().all(|c| c.policy == 0));
    }

    #[test]
    fn learned_strengths_can_favour_staying_near_the_own_last_move() {
        // White's last move D4; Black's own before it A7. C5 and E3 are
        // the same shape at the same distance from D4; only C5 is near A7.
        let diagram = "
            X . . . . . .
            . . . . . . .
            . . . . . . .
            . . . O . . .
            . . . . . . .
            . . . . . . .
            . . . . . . .";
        let value = |gamma_own: bool, v: &str| {
            let priors = Priors {
                gamma: 20,
                gamma_own,
                ..EVEN_ONLY
            };
            value_after(&priors, diagram, Color::Black, [Some("D4"), Some("A7")], v)
        };
        assert_eq!(value(false, "C5"), value(false, "E3"));
        assert!(
            value(true, "C5") > value(true, "E3") + 0.05,
            "near the own last move {} against far from it {}",
            value(true, "C5"),
            value(true, "E3")
        );
    }

    /// White D4 has two liberties, D3 and E4. With Black on E3 either
    /// atari catches it (a ladder follows on this empty board); without
    /// E3, White escapes from both.
    const NET: &str = "
        . . . . . . .
        . . . . . . .
        . . . X . . .
        . . X O . . .
        . . . . X . .
        . . . . . . .
        . . . . . . .";
    const OPEN: &str = "
        . . . . . . .
        . . . . . . .
        . . . X . . .
        . . X O . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .";

    #[test]
    fn an_atari_catches_only_a_chain_that_cannot_get_away() {
        let mut ladder = LadderScratch::default();
        let catches = |diagram: &str, x: &str, y: &str, ladder: &mut LadderScratch| {
            let b = Board::from_ascii(diagram).unwrap();
            let at = |v| crate::board::test_point(&b, v);
            atari_catches(&b, Color::Black, at("D4"), at(x), at(y), ladder)
        };
        assert!(catches(NET, "E4", "D3", &mut ladder));
        assert!(catches(NET, "D3", "E4", &mut ladder));
        assert!(!catches(OPEN, "E4", "D3", &mut ladder));
        assert!(!catches(OPEN, "D3", "E4", &mut ladder));
        // A white stone on C2 breaks the ladder after E4, D3.
        let broken = "
            . . . . . . .
            . . . . . . .
            . . . X . . .
            . . X O . . .
            . . . . X . .
            . . O . . . .
            . . . . . . .";
        assert!(!catches(broken, "E4", "D3", &mut ladder));
    }

    /// White's four stones have two liberties, A1 and B1. A black stone on
    /// either is in atari, and White taking it is left in atari on the
    /// point it took, to be captured back whole: a snapback.
    const SNAPBACK: &str = "
        . . . . . .
        . . . . . .
        . . . . . .
        X X X X . .
        O O O X . .
        . . O X . .";

    /// White's four stones have two liberties, B1 and C1. Black C1 is in
    /// atari, but White taking it at B1 has A1 and C1: only a stone given away.
    const THROW_IN: &str = "
        . . . . . .
        . . . . . .
        . . . . . .
        . X X X . .
        X O O O X .
        . . . O X .";

    #[test]
    fn a_snapback_catches_and_a_stone_given_away_does_not() {
        let mut ladder = LadderScratch::default();
        let catches =
            |diagram: &str, target: &str, x: &str, y: &str, ladder: &mut LadderScratch| {
                let b = Board::from_ascii(diagram).unwrap();
                let at = |v| crate::board::test_point(&b, v);
                atari_catches(&b, Color::Black, at(target), at(x), at(y), ladder)
            };
        assert!(catches(SNAPBACK, "B2", "B1", "A1", &mut ladder));
        assert!(catches(SNAPBACK, "B2", "A1", "B1", &mut ladder));
        assert!(!catches(THROW_IN, "B2", "C1", "B1", &mut ladder));
        // Black B1 there is an atari with liberties to spare, and White
        // cannot run: C1 would be suicide.
        assert!(catches(THROW_IN, "B2", "B1", "C1", &mut ladder));
        for (diagram, v, good) in [
            (SNAPBACK, "B1", true),
            (SNAPBACK, "A1", true),
            (THROW_IN, "C1", false),
        ] {
            let value = value_of(diagram, Color::Black, v);
            assert_eq!(value > 0.5, good, "{v}: {value}");
        }
    }

    /// From a lost match game (seeds 7001-7200, game 190, move 59): White's
    /// big group on the left has two liberties, its eye at B7 and A6.
    /// Black A6 is in atari itself, but White taking it at A5 is left in
    /// atari on A6 with A4, and Black A6 again takes both and leaves the
    /// big group in atari once more: it cannot get out.
    const THROW_IN_ATARI: &str = "
        O X X X . . . . .
        O O O X . . . . .
        O . O X . . X O .
        . O O X . X . X .
        . X O O X . X . .
        O X X X O X X . .
        X . X O O O X X O
        . O O . O O O X .
        . . . O X . O X .";

    #[test]
    fn a_throw_in_that_sets_up_a_snapback_catches() {
        let value = value_of(THROW_IN_ATARI, Color::Black, "A6");
        assert!(value > 0.6, "A6 {value}");
        let mut ladder = LadderScratch::default();
        let b = Board::from_ascii(THROW_IN_ATARI).unwrap();
        let at = |v| crate::board::test_point(&b, v);
        assert!(atari_catches(
            &b,
            Color::Black,
            at("B6"),
            at("A6"),
            at("B7"),
            &mut ladder
        ));
    }

    #[test]
    fn an_atari_that_catches_looks_as_good_as_a_capture() {
        let (net, open) = (
            value_of(NET, Color::Black, "E4"),
            value_of(OPEN, Color::Black, "E4"),
        );
        // The same move with the same shape, differing only in what it catches.
        assert!(net > open + 0.1, "net {net}, open {open}");
    }

    #[test]
    fn running_into_a_ladder_is_not_an_escape() {
        // Black C3 is in atari at C4. With D4 empty the run gets three
        // liberties; with White on D4 it is a ladder to the edge; a black
        // stone on B5 breaks that ladder.
        let open = "
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . O X O . . . . .
            . . O . . . . . .
            . . . . . . . . .";
        assert!(value_of(open, Color::Black, "C4") > 0.6, "a real escape");
        let ladder = "
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . O . . . . .
            . O X O . . . . .
            . . O . . . . . .
            . . . . . . . . .";
        assert!(value_of(ladder, Color::Black, "C4") < 0.5, "ladder");
        let broken = "
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . X . . . . . . .
            . . . O . . . . .
            . O X O . . . . .
            . . O . . . . . .
            . . . . . . . . .";
        assert!(value_of(broken, Color::Black, "C4") > 0.6, "ladder breaker");
    }
}
