//! Playouts: finishing a game quickly at random so its result can be counted.

use super::adaptive::AdaptiveShapes;
use super::balanced::{ShapeTrace, ShapeWeights};
use super::bench::PlayoutKind;
use super::mast::MoveAverages;
use super::patterns::is_good_shape;
use super::policy::{atari_catches, escape_fails, LadderScratch};
use super::rave_pool::RavePool;
use super::replies::Replies;
use super::shapes::shape_key;
use super::softmax::SoftmaxCache;
use crate::board::{Board, Color, Point};
use rand::RngCore;
use std::sync::Arc;

/// How a playout ended: area counts of the final literal position.
#[derive(Clone, Copy, Debug)]
pub struct PlayoutResult {
    pub black: u32,
    pub white: u32,
    pub moves: u32,
}

/// A uniform choice in `0..n` from 32 random bits (multiply-shift: no
/// division, bias below 2^-32 · n).
#[inline]
pub fn below(rng: &mut impl RngCore, n: usize) -> usize {
    ((rng.next_u32() as u64 * n as u64) >> 32) as usize
}

/// Plays the chosen placement for `color`, or passes when there is none (a
/// pass lifts the ko ban). True when that was the second pass in a row,
/// which ends the playout.
#[inline]
pub fn play_or_pass(
    board: &mut Board,
    color: Color,
    choice: Option<Point>,
    passes: &mut u32,
) -> bool {
    match choice {
        Some(p) => {
            board.place_unchecked(color, p);
            *passes = 0;
            false
        }
        None => {
            board.clear_ko();
            *passes += 1;
            *passes == 2
        }
    }
}

/// Plays uniformly random legal moves that do not fill a one-point eye
/// until both sides pass, starting with `to_move`. Suicide is never played;
/// simple ko is honoured through the board's ko point.
pub fn light_playout(
    board: &mut Board,
    mut to_move: Color,
    rng: &mut impl RngCore,
) -> PlayoutResult {
    let limit = 3 * board.size() * board.size();
    let mut passes = 0;
    let mut moves = 0;
    while moves < limit {
        let choice = random_light_move(board, to_move, rng);
        if play_or_pass(board, to_move, choice, &mut passes) {
            break;
        }
        moves += 1;
        to_move = to_move.opponent();
    }
    let (black, white) = board.playout_area_counts();
    PlayoutResult {
        black,
        white,
        moves: moves as u32,
    }
}

/// The first empty point that `accept` takes, scanning the list of empty
/// points cyclically from a start chosen by `draw` (32 random bits): one
/// random draw per move, whatever the number of points rejected.
#[inline]
pub fn scan_empties(
    board: &Board,
    draw: u32,
    mut accept: impl FnMut(Point) -> bool,
) -> Option<Point> {
    let empties = board.empties();
    let start = ((draw as u64 * empties.len() as u64) >> 32) as usize;
    // Two plain slice walks rather than one index taken modulo the length:
    // no wrap test and no bounds check at each point.
    let (before, from_start) = empties.split_at(start);
    for part in [from_start, before] {
        for &e in part {
            let p = Point(e as usize);
            if accept(p) {
                return Some(p);
            }
        }
    }
    None
}

/// A random legal placement that does not fill a one-point eye.
#[inline]
pub fn random_light_move(board: &Board, color: Color, rng: &mut impl RngCore) -> Option<Point> {
    scan_empties(board, rng.next_u32(), |p| {
        board.is_playable_non_eye(color, p)
    })
}

/// The MoGo-style policy from the empty board or any position, without a
/// last move to answer; see [`play_out`].
pub fn heavy_playout(
    board: &mut Board,
    to_move: Color,
    rng: &mut impl RngCore,
    scratch: &mut PlayoutScratch,
) -> PlayoutResult {
    let mut record = Vec::new();
    play_out(
        board,
        to_move,
        None,
        PlayoutStyle::HEAVY,
        rng,
        &mut record,
        scratch,
    )
}

/// Working space a playout reuses from one playout to the next.
#[derive(Default)]
pub struct PlayoutScratch {
    candidates: Vec<Point>,
    weights: Vec<u32>,
    /// The softmax stage's strengths, kept through a playout.
    softmax: SoftmaxCache,
    ladder: LadderScratch,
    /// The worker's last good replies, learned over its search.
    pub(super) replies: Replies,
    /// The worker's move averages, learned over its search.
    pub(super) averages: MoveAverages,
    /// Moves the tree's AMAF values favour for each side, for this
    /// playout (see `rave_pool`).
    pub(super) rave_pool: RavePool,
    /// Training only: balanced shape weights in place of the shipped
    /// table, and a record of the balanced stage's choices in the last
    /// playout.
    pub balance: Option<(Arc<ShapeWeights>, ShapeTrace)>,
    /// The worker's offsets to the balanced stage's weights, learned over
    /// its search (see `adaptive`).
    pub(super) adaptive: AdaptiveShapes,
}

impl PlayoutScratch {
    /// The ladder reader's boards, for the priors of the same worker.
    pub(super) fn ladder(&mut self) -> &mut LadderScratch {
        &mut self.ladder
    }
}

/// Recorded moves carry their colour in the top bit.
pub const WHITE_MOVE: u16 = 1 << 15;

#[inline]
pub fn encode_move(c: Color, p: Point) -> u16 {
    p.0 as u16 | if c == Color::White { WHITE_MOVE } else { 0 }
}

/// A recorded move's point index (0 for a pass the tree recorded: never a
/// board point) and colour.
#[inline]
pub fn decode_move(m: u16) -> (usize, Color) {
    let c = if m & WHITE_MOVE != 0 {
        Color::White
    } else {
        Color::Black
    };
    ((m & !WHITE_MOVE) as usize, c)
}

/// Percent chances of the heavy stages firing when they have a candidate,
/// by default: a little randomness keeps the playouts from being blind to
/// the stages' mistakes (MoGo and Pachi do the same).
pub const ATARI_RATE: u8 = 95;
pub const SHAPE_RATE: u8 = 90;

/// Which policy a playout follows, and whether it may stop early.
#[derive(Clone, Copy, Debug)]
pub struct PlayoutStyle {
    pub kind: PlayoutKind,
    /// Stop as soon as one side leads by more than a third of the board in
    /// stones: the result cannot change any more.
    pub mercy: bool,
    /// Random points tried, when nothing near the last move needs an
    /// answer, for one whose whole 3×3 area is empty (MoGo's "fill the
    /// board"); 0 turns the stage off.
    pub fill_tries: u32,
    /// How the shape stage picks among the points next to the last move:
    /// see [`ShapeChoice`].
    pub shapes: ShapeChoice,
    /// Percent chance of the two-liberty stage (see [`two_liberty_moves`])
    /// running when the last move left no atari to answer; 0 turns it off.
    pub two_liberty_rate: u8,
    /// Last good replies with forgetting (see `replies`): 0 off, 1 answers
    /// to the last move, 2 to the last two moves first.
    pub replies: u8,
    /// Percent chance of answering the last move's ataris (and of playing
    /// the vital point after a big capture).
    pub atari_rate: u8,
    /// Percent chance of the shape stage playing one of its shapes.
    pub shape_rate: u8,
    /// Candidates the random stage draws, playing the one with the best
    /// move average (see `mast`); 0 or 1 draws one.
    pub mast: u8,
    /// Percent chance that the random stage first draws from the mover's
    /// pool of moves the tree's AMAF values favour (see `rave_pool`),
    /// playing the drawn move if it is sensible; 0 turns it off.
    pub pool_rate: u8,
    /// Percent chance of retaking a ko at the first turn the ban allows,
    /// if the point still captures (Pachi's ko fights): the side that lost
    /// the ko has played a threat, its opponent answered, and now it takes
    /// back. Without it the random moves let a ko drop after one capture,
    /// and the playouts give it to whoever took first. 0 turns it off.
    pub ko_rate: u8,
    /// With `ko_rate`, the capturer also ends the ko at its first turn
    /// after the ban (at the same rate), before the loser can retake: the
    /// move between was seldom a real threat (Pachi's ko stage does both).
    pub ko_connect: bool,
    /// Play the vital point after any move that closes a dead eye shape of
    /// three to six points, not only after a capture of three or more
    /// stones left one (at the atari stage's rate), each space beside the
    /// move judged on its own (see [`Board::vital_point_beside`]).
    pub nakade_closed: bool,
    /// Fuego's self-atari correction in the random stage: a drawn point
    /// whose stone would be left in atari is replaced by the chain's last
    /// liberty when extending there is sensible and no self-atari (see
    /// [`random_corrected_move`]). 0 off; 1 for chains of two or more
    /// stones, which the random stage otherwise skips; 2 for lone stones
    /// too, which it otherwise plays.
    pub self_atari_fix: u8,
    /// When no good shape stands next to the last move, the shape stage
    /// looks next to the mover's own previous move (that stone still on
    /// the board) before the random stage: the mover's own unfinished
    /// shape is the next most urgent place.
    pub shapes_own: bool,
}

impl PlayoutStyle {
    /// The default heavy policy, played to the end.
    pub const HEAVY: PlayoutStyle = PlayoutStyle {
        kind: PlayoutKind::Heavy,
        mercy: false,
        fill_tries: 0,
        shapes: ShapeChoice::Mogo,
        two_liberty_rate: 0,
        replies: 0,
        atari_rate: ATARI_RATE,
        shape_rate: SHAPE_RATE,
        mast: 0,
        pool_rate: 0,
        ko_rate: 0,
        ko_connect: false,
        nakade_closed: false,
        self_atari_fix: 0,
        shapes_own: false,
    };
}

/// How the heavy playouts' shape stage chooses a point next to the last
/// move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum ShapeChoice {
    /// Uniformly among the hand-written MoGo shapes.
    #[default]
    Mogo,
    /// Among the MoGo shapes, in proportion to how often strong players
    /// choose the learned 3×3 shape (see `shapes`).
    MogoWeighted,
    /// Among every point whose learned shape has at least this strength
    /// (0-255, 128 average), in proportion to the choice rate.
    Learned(u8),
    /// No shape stage and no uniform random move: every sensible move on
    /// the board, each as likely as its learned strength (see `gammas`:
    /// shape, tactics, distance to the last two moves).
    Softmax,
    /// The MoGo shapes next to the last move as usual, then, in place of
    /// a uniform random move, every sensible move as likely as the
    /// strength of its shape and tactics (not its distance: the shape
    /// stage already answered locally).
    MogoThenSoftmax,
    /// Every sensible point next to the last move and a random move
    /// elsewhere, each as likely as its weight trained by simulation
    /// balancing (see `balanced`); the stage's rate is not used. Off by
    /// default: against GNU Go (9x9, komi 7, 5000 playouts, book off,
    /// seeds 17090 and 17290) the shipped table won 345 of 378 games, as
    /// many as the MoGo shapes (RESEARCH.md, Shapes balanced by simulation).
    Balanced,
}

impl ShapeChoice {
    /// The playouts keep learned strengths (see `softmax`).
    fn uses_softmax(self) -> bool {
        matches!(self, ShapeChoice::Softmax | ShapeChoice::MogoThenSoftmax)
    }
}

/// Finishes a game from `board` with `to_move` playing and `last` the
/// opponent's last placement, pushing every placement onto `record` (for
/// AMAF).
pub fn play_out(
    board: &mut Board,
    mut to_move: Color,
    mut last: Option<Point>,
    style: PlayoutStyle,
    rng: &mut impl RngCore,
    record: &mut Vec<u16>,
    scratch: &mut PlayoutScratch,
) -> PlayoutResult {
    let area = board.size() * board.size();
    let limit = 3 * area;
    let mercy_margin = (area / 3) as i64;
    let mut passes = 0;
    let mut moves = 0;
    // Stones the last move captured: a big capture may leave a dead eye shape.
    let mut last_captured = 0;
    let softmax = style.shapes.uses_softmax();
    if softmax {
        scratch.softmax.reset(board);
    }
    if let Some((_, trace)) = scratch.balance.as_mut() {
        trace.clear();
    }
    scratch.adaptive.clear_playout();
    // The mover's own previous placement, when the record has it.
    let mut own_last = record
        .len()
        .checked_sub(2)
        .map(|k| decode_move(record[k]))
        .filter(|&(p, c)| c == to_move && p != 0)
        .map(|(p, _)| Point(p));
    // Kept only when the ko stage is on. A ko the tree's last move took
    // counts too.
    let mut ko_fight = (style.ko_rate > 0).then(|| {
        let mut fight = KoFight::default();
        fight.note(board, 0);
        fight
    });
    while moves < limit {
        let retake = ko_fight
            .as_ref()
            .and_then(|fight| fight.take(board, to_move, moves, style.ko_connect))
            .filter(|_| below(rng, 100) < style.ko_rate as usize);
        let choice = match style.kind {
            PlayoutKind::Light => random_light_move(board, to_move, rng),
            PlayoutKind::Heavy if retake.is_some() => retake,
            PlayoutKind::Heavy => {
                let reply = if style.replies > 0 {
                    scratch.replies.reply(to_move, record)
                } else {
                    None
                };
                heavy_move(
                    board,
                    to_move,
                    [last, own_last],
                    last_captured,
                    reply,
                    style,
                    rng,
                    scratch,
                )
            }
        };
        if let Some(p) = choice {
            record.push(encode_move(to_move, p));
        }
        own_last = last;
        last = choice;
        let captured_before = board.captures(to_move);
        if let Some(p) = choice.filter(|_| softmax) {
            scratch.softmax.before_move(board, to_move, p);
        }
        if play_or_pass(board, to_move, choice, &mut passes) {
            break;
        }
        if let Some(p) = choice.filter(|_| softmax) {
            scratch.softmax.after_move(board, to_move, p);
        }
        last_captured = board.captures(to_move) - captured_before;
        moves += 1;
        if let Some(fight) = ko_fight.as_mut() {
            fight.note(board, moves);
        }
        to_move = to_move.opponent();
        if style.mercy && moves % 8 == 0 {
            let lead = board.stones(Color::Black).count() as i64
                - board.stones(Color::White).count() as i64;
            if lead.abs() > mercy_margin {
                break;
            }
        }
    }
    let (black, white) = board.area_counts();
    PlayoutResult {
        black,
        white,
        moves: moves as u32,
    }
}

/// The last ko capture of a playout, so that the side that lost the ko
/// can take it back at the first turn the ban allows.
#[derive(Default)]
struct KoFight {
    /// The point the capture banned, and the number of moves played by then.
    banned: Option<(Point, usize)>,
}

impl KoFight {
    /// Notes the position after `moves` moves.
    fn note(&mut self, board: &Board, moves: usize) {
        if let Some(k) = board.ko_point() {
            self.banned = Some((k, moves));
        }
    }

    /// The ko move for `c`, to play after `moves` moves: the banned point,
    /// if `c` lost the ko two moves ago (it has played a threat since, and
    /// the capturer answered) and playing there still captures one stone;
    /// with `connect`, also for the capturer at its first turn after the
    /// ban, if the ko is still on: it ends the ko by filling the point.
    fn take(&self, board: &Board, c: Color, moves: usize, connect: bool) -> Option<Point> {
        let (p, at) = self.banned?;
        let lone_stone_in_atari_there = |owner: Color| {
            board.neighbours(p).into_iter().any(|q| {
                let q = Point(q);
                board.color_at(q) == Some(owner)
                    && board.atari_liberty(q) == Some(p)
                    && board.chain_len(q) == 1
            })
        };
        let playable =
            || board.is_legal_no_suicide(c, p) && !board.move_shape(c, p, 2).is_self_atari();
        let retake = moves == at + 2 && lone_stone_in_atari_there(c.opponent());
        let fill = connect && moves == at + 1 && lone_stone_in_atari_there(c);
        ((retake || fill) && playable()).then_some(p)
    }
}

/// One heavy-playout move: after a capture of three or more stones that
/// left a dead eye shape, its vital point; else answer the last move's
/// ataris (capture it, or save what it threatens), else (with
/// `style.replies`) the stored last good reply `reply`, else (with
/// `style.two_liberty_rate`) a move in a two-liberty fight around it, else
/// a good 3×3 shape next to it (chosen as `style.shapes` says), else (with
/// `fill_tries`) a point whose 3×3 area is empty, else a random move that neither fills an own eye nor puts two or more
/// own stones in atari (unless it is a killing sacrifice).
///
/// Filling the board is off by default: against GNU Go (9x9, komi 7, 5000
/// playouts, seeds 5401-5500) 4 tries won 85 games where the default won
/// 88 of the same seeds. The learned shapes are off too: on those seeds the
/// MoGo shapes weighted by their learned rates won 89 games, and every
/// neighbour of learned strength 160 or more, weighted, 86.
///
/// Only the last move is answered. Also taking a chain that the mover's own
/// previous move left in atari and the opponent did not save (a narrow
/// form of MoGo's capture stage) lost strength: against GNU Go (9x9, komi
/// 7, 5000 playouts, seeds 5001-5300) 252 wins in 299 games with it, 265
/// in 300 without, although it fixed the misjudged fight of a lost game.
#[allow(clippy::too_many_arguments)]
fn heavy_move(
    board: &Board,
    c: Color,
    [last, own_last]: [Option<Point>; 2],
    last_captured: u32,
    reply: Option<Point>,
    style: PlayoutStyle,
    rng: &mut impl RngCore,
    scratch: &mut PlayoutScratch,
) -> Option<Point> {
    let PlayoutScratch {
        candidates,
        weights,
        softmax,
        ladder,
        balance,
        averages,
        rave_pool,
        adaptive,
        ..
    } = scratch;
    // A run into a ladder is not offered again as a shape move.
    let mut failed_escape = None;
    if let Some(l) = last.filter(|&l| board.color_at(l) == Some(c.opponent())) {
        let vital = if style.nakade_closed {
            board.vital_point_beside(l)
        } else if last_captured >= 3 {
            board.vital_point_next_to(l)
        } else {
            None
        };
        if let Some(v) = vital.filter(|&v| board.is_legal_no_suicide(c, v)) {
            if below(rng, 100) < style.atari_rate as usize {
                return Some(v);
            }
        }
        candidates.clear();
        if let Some(lib) = board.atari_liberty(l) {
            candidates.push(lib);
        }
        for q in board.neighbours(l) {
            let q = Point(q);
            if board.color_at(q) != Some(c) {
                continue;
            }
            if let Some(lib) = board.atari_liberty(q) {
                board.capturing_escapes(q, candidates);
                if !candidates.contains(&lib) {
                    if escape_works(board, c, lib, ladder) {
                        candidates.push(lib);
                    } else {
                        failed_escape = Some(lib);
                    }
                }
            }
        }
        candidates.retain(|&p| board.is_legal_no_suicide(c, p));
        if !candidates.is_empty() && below(rng, 100) < style.atari_rate as usize {
            return Some(candidates[below(rng, candidates.len())]);
        }
        if let Some(r) = reply.filter(|&r| is_sensible(board, c, r)) {
            return Some(r);
        }
        if style.two_liberty_rate > 0 && below(rng, 100) < style.two_liberty_rate as usize {
            candidates.clear();
            two_liberty_moves(board, c, l, candidates, ladder);
            candidates.retain(|&p| board.is_legal_no_suicide(c, p));
            if !candidates.is_empty() {
                return Some(candidates[below(rng, candidates.len())]);
            }
        }
        if style.shapes == ShapeChoice::Softmax {
            return softmax.choose(board, c, [last, own_last], failed_escape, rng);
        }
        if style.shapes == ShapeChoice::Balanced {
            let learned = adaptive.active().then_some(&mut *adaptive);
            return balanced_shape(
                board,
                c,
                l,
                failed_escape,
                balance,
                learned,
                candidates,
                rng,
            )
            .or_else(|| random_sensible_move(board, c, rng));
        }
        good_shapes_next_to(
            board,
            c,
            l,
            failed_escape,
            style.shapes,
            candidates,
            weights,
        );
        if candidates.is_empty() && style.shapes_own {
            if let Some(o) = own_last.filter(|&o| board.color_at(o) == Some(c)) {
                good_shapes_next_to(board, c, o, None, style.shapes, candidates, weights);
            }
        }
        if !candidates.is_empty() && below(rng, 100) < style.shape_rate as usize {
            return Some(pick_weighted(candidates, weights, rng));
        }
    }
    match style.shapes {
        ShapeChoice::Softmax => {
            return softmax.choose(board, c, [last, own_last], failed_escape, rng)
        }
        ShapeChoice::MogoThenSoftmax => return softmax.choose(board, c, [None, None], None, rng),
        _ => {}
    }
    if style.pool_rate > 0 && below(rng, 100) < style.pool_rate as usize {
        let pool = rave_pool.of(c);
        if !pool.is_empty() {
            let p = pool[below(rng, pool.len())];
            if is_sensible(board, c, p) {
                return Some(p);
            }
        }
    }
    fill_the_board(board, style.fill_tries, rng).or_else(|| {
        if style.mast > 1 {
            averages.choose(board, c, style.mast, rng, |p| is_sensible(board, c, p))
        } else if style.self_atari_fix > 0 {
            random_corrected_move(board, c, style.self_atari_fix >= 2, rng)
        } else {
            random_sensible_move(board, c, rng)
        }
    })
}

/// The shape stage's candidates next to `l` (its eight neighbours) and
/// their weights, as `shapes` chooses them; `skip` is a run into a ladder.
fn good_shapes_next_to(
    board: &Board,
    c: Color,
    l: Point,
    skip: Option<Point>,
    shapes: ShapeChoice,
    candidates: &mut Vec<Point>,
    weights: &mut Vec<u32>,
) {
    candidates.clear();
    weights.clear();
    for q in board.neighbours(l).into_iter().chain(board.diagonals(l)) {
        let q = Point(q);
        if !board.is_empty_at(q) || skip == Some(q) {
            continue;
        }
        let mogo = || is_good_shape(board.neighbourhood_code(q));
        let learned = || super::shapes::table().strength(shape_key(board, c, q));
        let weight = match shapes {
            ShapeChoice::Mogo | ShapeChoice::MogoThenSoftmax => mogo() as u32,
            ShapeChoice::MogoWeighted if mogo() => choice_weight(learned()),
            ShapeChoice::MogoWeighted => 0,
            ShapeChoice::Softmax | ShapeChoice::Balanced => 0,
            ShapeChoice::Learned(least) => {
                let strength = learned();
                if strength >= least {
                    choice_weight(strength)
                } else {
                    0
                }
            }
        };
        if weight > 0 && fit_for_shape_stage(board, c, q) {
            candidates.push(q);
            weights.push(weight);
        }
    }
}

/// A point next to the last move that the shape stage may play: legal,
/// and not a self-atari unless it keeps two empty neighbours.
fn fit_for_shape_stage(board: &Board, c: Color, q: Point) -> bool {
    board.is_legal_no_suicide(c, q)
        && (two_empty_neighbours(board, q) || !board.move_shape(c, q, 2).is_self_atari())
}

/// The balanced shape stage: a sensible point next to the last move `l`,
/// or `None` for a move elsewhere, each as likely as its weight. With a
/// training table in `balance`, the choice is recorded there; with
/// `adaptive`, the weights are the table's times the search's learned
/// factors, and the choice is recorded for it to learn from.
#[allow(clippy::too_many_arguments)]
fn balanced_shape(
    board: &Board,
    c: Color,
    l: Point,
    failed_escape: Option<Point>,
    balance: &mut Option<(Arc<ShapeWeights>, ShapeTrace)>,
    mut adaptive: Option<&mut AdaptiveShapes>,
    candidates: &mut Vec<Point>,
    rng: &mut impl RngCore,
) -> Option<Point> {
    let (table, mut trace) = match balance {
        Some((table, trace)) => (&**table, Some(trace)),
        None => (super::balanced::table(), None),
    };
    candidates.clear();
    let mut weights = [0f32; 8];
    let mut keys = [0u32; 8];
    for q in board.neighbours(l).into_iter().chain(board.diagonals(l)) {
        let q = Point(q);
        if !board.is_empty_at(q) || failed_escape == Some(q) || !fit_for_shape_stage(board, c, q) {
            continue;
        }
        let key = shape_key(board, c, q);
        keys[candidates.len()] = key;
        weights[candidates.len()] =
            table.weight(key) * adaptive.as_ref().map_or(1.0, |a| a.factor(c, q, key));
        candidates.push(q);
    }
    let n = candidates.len();
    if n == 0 {
        return None;
    }
    let elsewhere = table.random();
    let total: f32 = weights[..n].iter().sum::<f32>() + elsewhere;
    let mut ticket = below(rng, 1 << 24) as f32 / (1 << 24) as f32 * total;
    let mut chosen = n;
    for (k, &w) in weights[..n].iter().enumerate() {
        if ticket < w {
            chosen = k;
            break;
        }
        ticket -= w;
    }
    if let Some(trace) = trace.as_mut() {
        trace
            .choices
            .push((trace.keys.len() as u32, n as u16, chosen as u16));
        trace.keys.extend_from_slice(&keys[..n]);
        trace.weights.extend_from_slice(&weights[..n]);
        trace.random = elsewhere;
    }
    if let Some(adaptive) = adaptive.as_mut() {
        adaptive.record(c, candidates, &keys[..n], &weights[..n], elsewhere, chosen);
    }
    candidates.get(chosen).copied()
}

/// The fights over two-liberty chains that the last move `l` started or
/// joined, pushed onto `out`: an atari on the last move's own chain that it
/// cannot get out of (no capture frees it, running leads into a ladder),
/// and, for each own chain next to `l` that the opponent could catch that
/// way, the extensions that give it three liberties. MoGo and Pachi's
/// playouts fight these fights too; without them a playout lets a cut-off
/// group die or live at random.
fn two_liberty_moves(
    board: &Board,
    c: Color,
    l: Point,
    out: &mut Vec<Point>,
    ladder: &mut LadderScratch,
) {
    if let Some([a, b]) = board.two_liberties(l) {
        for (x, y) in [(a, b), (b, a)] {
            if atari_catches(board, c, l, x, y, ladder) {
                out.push(x);
            }
        }
    }
    let mut read = [usize::MAX; 4];
    for (k, q) in board.neighbours(l).into_iter().enumerate() {
        let q = Point(q);
        if board.color_at(q) != Some(c) || read.contains(&board.chain_id(q)) {
            continue;
        }
        read[k] = board.chain_id(q);
        let Some([a, b]) = board.two_liberties(q) else {
            continue;
        };
        // Cheap tests first. An extension to four liberties already makes
        // the atari on the other side harmless; and a chain that cannot
        // reach three is not worth reading.
        let run = |lib| {
            if board.is_legal_no_suicide(c, lib) {
                board.move_shape(c, lib, 4).liberties
            } else {
                0
            }
        };
        let (run_a, run_b) = (run(a), run(b));
        if run_a < 3 && run_b < 3 {
            continue;
        }
        // A chain next to an opposing chain in atari is never caught this
        // way (`atari_catches` checks), so saving it means extending.
        let threatened = (run_b < 4 && atari_catches(board, c.opponent(), q, a, b, ladder))
            || (run_a < 4 && atari_catches(board, c.opponent(), q, b, a, ladder));
        if !threatened {
            continue;
        }
        for (lib, liberties) in [(a, run_a), (b, run_b)] {
            if liberties >= 3 && !out.contains(&lib) {
                out.push(lib);
            }
        }
    }
}

/// A learned shape's choice rate relative to the average move, in
/// sixteenths: strength 128 (average) weighs 16.
#[inline]
fn choice_weight(strength: u8) -> u32 {
    let s = strength as u32;
    (16 * s / (256 - s)).max(1)
}

/// One of `candidates`, each as likely as its weight.
fn pick_weighted(candidates: &[Point], weights: &[u32], rng: &mut impl RngCore) -> Point {
    let total: u32 = weights.iter().sum();
    let mut ticket = below(rng, total as usize) as u32;
    for (&p, &w) in candidates.iter().zip(weights) {
        if ticket < w {
            return p;
        }
        ticket -= w;
    }
    candidates[candidates.len() - 1]
}

/// A random point whose whole 3×3 area is empty, found within `tries`
/// draws. Off-board cells code as 3, so no first-line point qualifies.
fn fill_the_board(board: &Board, tries: u32, rng: &mut impl RngCore) -> Option<Point> {
    let empties = board.empties();
    if empties.is_empty() {
        return None;
    }
    (0..tries)
        .map(|_| Point(empties[below(rng, empties.len())] as usize))
        .find(|&p| board.neighbourhood_code(p) == 0)
}

/// Extending at `lib` saves the chain: three liberties, or two that do not
/// lead into a ladder. Running into a ladder only feeds the opponent more
/// stones, and playouts that believe in it misjudge the whole fight.
fn escape_works(board: &Board, c: Color, lib: Point, ladder: &mut LadderScratch) -> bool {
    let shape = board.move_shape(c, lib, 3);
    shape.liberties >= 3
        || (shape.liberties == 2 && (shape.captures > 0 || !escape_fails(board, c, lib, ladder)))
}

/// A stone with two empty neighbours has two liberties: no self-atari,
/// and no need to look at chains.
#[inline]
fn two_empty_neighbours(board: &Board, p: Point) -> bool {
    board
        .neighbours(p)
        .into_iter()
        .filter(|&q| board.is_empty_at(Point(q)))
        .count()
        >= 2
}

/// A random legal move that does not fill an own eye and does not put a
/// chain of two or more own stones in atari (lone-stone throw-ins stay),
/// unless that chain fills an opposing eye space to leave a dead shape.
#[inline]
fn random_sensible_move(board: &Board, c: Color, rng: &mut impl RngCore) -> Option<Point> {
    scan_empties(board, rng.next_u32(), |p| is_sensible(board, c, p))
}

/// [`random_sensible_move`] with Fuego's self-atari correction: the first
/// point of the scan that [`corrected_point`] keeps or replaces.
fn random_corrected_move(
    board: &Board,
    c: Color,
    lone_stones: bool,
    rng: &mut impl RngCore,
) -> Option<Point> {
    let mut chosen = None;
    scan_empties(board, rng.next_u32(), |p| {
        chosen = corrected_point(board, c, p, lone_stones);
        chosen.is_some()
    });
    chosen
}

/// What the corrected random stage plays when it draws `p`: `p` itself
/// when the plain stage would play it, the last liberty of `p`'s chain
/// when `p` is a self-atari and extending there is sensible and keeps two
/// liberties, or nothing (draw on). A self-atari is often the right local
/// move played from the wrong side; skipping it (chains) or playing it
/// (lone stones) drops the local answer. With `lone_stones` lone stones
/// are corrected too, except a throw-in that sets up a snapback; killing
/// sacrifices of chains stay as they are.
fn corrected_point(board: &Board, c: Color, p: Point, lone_stones: bool) -> Option<Point> {
    match drawn_point(board, c, p) {
        Drawn::Unplayable => None,
        Drawn::Fine | Drawn::Sacrifice => Some(p),
        Drawn::LoneSelfAtari if !lone_stones || board.sets_snapback(c, p) => Some(p),
        kind => board
            .last_liberty_after(c, p)
            .filter(|&l| drawn_point(board, c, l) == Drawn::Fine)
            .or((kind == Drawn::LoneSelfAtari).then_some(p)),
    }
}

/// How a point looks to the random stage, for `c` to play there.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Drawn {
    /// Illegal, or in `c`'s own eye.
    Unplayable,
    /// Leaves the new stone's chain at least two liberties, or captures.
    Fine,
    /// A lone stone left in atari: a throw-in, kept.
    LoneSelfAtari,
    /// Two or more stones left in atari to kill an eye space.
    Sacrifice,
    /// Two or more stones left in atari for nothing.
    BadSelfAtari,
}

#[inline]
fn drawn_point(board: &Board, c: Color, p: Point) -> Drawn {
    if board.is_eye_like(c, p) || !board.is_legal_no_suicide(c, p) {
        return Drawn::Unplayable;
    }
    if two_empty_neighbours(board, p) {
        return Drawn::Fine;
    }
    let shape = board.move_shape(c, p, 2);
    if !shape.is_self_atari() {
        Drawn::Fine
    } else if shape.chain_len < 2 {
        Drawn::LoneSelfAtari
    } else if board.is_nakade_sacrifice(c, p) {
        Drawn::Sacrifice
    } else {
        Drawn::BadSelfAtari
    }
}

/// `c` may play at `p` in a playout: legal, not in its own eye, and not
/// putting two or more own stones in atari unless as a killing sacrifice.
#[inline]
fn is_sensible(board: &Board, c: Color, p: Point) -> bool {
    !matches!(
        drawn_point(board, c, p),
        Drawn::Unplayable | Drawn::BadSelfAtari
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::test_point as at;
    use crate::search::policy::line;
    use rand::SeedableRng;

    /// The side whose pass ended a playout that Black began. It is the one
    /// to check for moves left: the first pass lifted any ko ban, so the
    /// first passer may have a ko capture again that the second saw too.
    fn final_passer(r: &PlayoutResult) -> Color {
        if r.moves.is_multiple_of(2) {
            Color::Black
        } else {
            Color::White
        }
    }

    #[test]
    fn playouts_end_with_a_full_consistent_board() {
        let mut rng = rand::rngs::SmallRng::seed_from_u64(7);
        for size in [2, 3, 5, 9, 19] {
            for _ in 0..20 {
                let mut b = Board::new(size).unwrap();
                let r = light_playout(&mut b, Color::Black, &mut rng);
                b.check_consistency().unwrap();
                assert!(r.black + r.white <= (size * size) as u32);
                // Unless the move limit cut it short, the last player to
                // pass (White or Black) had nothing left but eyes.
                if r.moves as usize >= 3 * size * size {
                    continue;
                }
                let last = final_passer(&r);
                for &e in b.empties() {
                    let p = Point(e as usize);
                    assert!(
                        b.is_eye_like(last, p) || !b.is_legal_no_suicide(last, p),
                        "size {size}: {p:?} playable for {last:?}\n{}",
                        b.to_ascii()
                    );
                }
            }
        }
    }

    /// Playouts of `style` from the empty board end with nothing the
    /// heavy policy would play: every empty point is an own eye, illegal,
    /// or a self-atari of two or more stones that kills nothing.
    fn playouts_leave_only_eyes_and_self_ataris(style: PlayoutStyle, sizes: &[usize], seed: u64) {
        let mut rng = rand::rngs::SmallRng::seed_from_u64(seed);
        let mut scratch = PlayoutScratch::default();
        for &size in sizes {
            for _ in 0..20 {
                let mut b = Board::new(size).unwrap();
                let r = play_out(
                    &mut b,
                    Color::Black,
                    None,
                    style,
                    &mut rng,
                    &mut Vec::new(),
                    &mut scratch,
                );
                b.check_consistency().unwrap();
                if r.moves as usize >= 3 * size * size {
                    continue;
                }
                let last = final_passer(&r);
                for &e in b.empties() {
                    let p = Point(e as usize);
                    let shape = b.move_shape(last, p, 2);
                    assert!(
                        b.is_eye_like(last, p)
                            || !b.is_legal_no_suicide(last, p)
                            || (shape.is_self_atari()
                                && shape.chain_len >= 2
                                && !b.is_nakade_sacrifice(last, p)),
                        "size {size}: {p:?} playable for {last:?}\n{}",
                        b.to_ascii()
                    );
                }
            }
        }
    }

    /// Of 200 heavy playouts from `diagram` with `to_move` first, how many
    /// end with `vertex` still holding a stone of the colour it holds now.
    fn playouts_keeping(diagram: &str, to_move: Color, vertex: &str) -> usize {
        let start = Board::from_ascii(diagram).unwrap();
        let p = at(&start, vertex);
        let colour = start.color_at(p);
        let mut rng = rand::rngs::SmallRng::seed_from_u64(3);
        let mut scratch = PlayoutScratch::default();
        (0..200)
            .filter(|_| {
                let mut b = start.clone();
                play_out(
                    &mut b,
                    to_move,
                    None,
                    PlayoutStyle::HEAVY,
                    &mut rng,
                    &mut Vec::new(),
                    &mut scratch,
                );
                b.color_at(p) == colour
            })
            .count()
    }

    #[test]
    fn heavy_playouts_keep_a_seki_that_a_sacrifice_would_only_break() {
        // From a game against GNU Go. Black H9 and J8 share J9 and H8 with
        // the white chain G9..H5, which has an eye at H6: a seki. Black J9
        // or H8 puts three stones in atari in a bent three, which looks
        // like a killing sacrifice, but White's eye at H6 makes the space
        // left behind its second eye. The playouts used to fill it and
        // count the game for White; the seki decided it for Black by 1.
        let seki_with_one_eye = "
            O O O O O X O X .
            . . O X X X O . X
            O O O X X O O O O
            O X X . X X O . O
            X . . X X O O O X
            X X X O X X X X X
            X O X O X X O O O
            O O O O O O . O .
            . . . . . . . . .";
        let kept = playouts_keeping(seki_with_one_eye, Color::Black, "H9");
        assert!(kept >= 190, "the seki held in only {kept} of 200 playouts");
        // White G2 or G1 here puts F1 F2 in atari with a bent three that
        // looks like nakade, but Black's capture joins the space to the
        // living group around E2, which has its own eye at D2.
        let seki_next_to_a_living_group = "
            X O . O . O X X X
            X O O O O O O X .
            X X X X X O X X X
            X X . X X O O X X
            X X X . X O O O O
            . X X X O O X O O
            X . X X O X X X O
            . X X . X O . X O
            X X . X X O . X O";
        let kept = playouts_keeping(seki_next_to_a_living_group, Color::White, "F1");
        assert!(kept >= 190, "the seki held in only {kept} of 200 playouts");
    }

    #[test]
    fn heavy_playouts_leave_only_eyes_and_self_ataris() {
        playouts_leave_only_eyes_and_self_ataris(PlayoutStyle::HEAVY, &[3, 5, 9, 13, 19], 11);
    }

    #[test]
    fn corrected_playouts_leave_only_eyes_and_self_ataris() {
        let corrected = PlayoutStyle {
            self_atari_fix: 2,
            ..PlayoutStyle::HEAVY
        };
        playouts_leave_only_eyes_and_self_ataris(corrected, &[3, 5, 9, 13], 19);
    }

    #[test]
    fn balanced_playouts_leave_only_eyes_and_self_ataris() {
        let balanced = PlayoutStyle {
            shapes: ShapeChoice::Balanced,
            ..PlayoutStyle::HEAVY
        };
        playouts_leave_only_eyes_and_self_ataris(balanced, &[3, 5, 9, 13, 19], 17);
    }

    #[test]
    fn softmax_playouts_leave_only_eyes_and_self_ataris() {
        playouts_leave_only_eyes_and_self_ataris(SOFTMAX, &[3, 5, 9, 13], 13);
        let after_mogo = PlayoutStyle {
            shapes: ShapeChoice::MogoThenSoftmax,
            ..PlayoutStyle::HEAVY
        };
        playouts_leave_only_eyes_and_self_ataris(after_mogo, &[3, 5, 9, 13], 14);
    }

    /// How many of 100 heavy playouts from the empty 9x9 board begin on
    /// the first line: about 40 at random, next to none when the
    /// fill-the-board stage looks for an empty 3×3 area first.
    fn first_moves_on_the_edge(fill_tries: u32) -> usize {
        let mut rng = rand::rngs::SmallRng::seed_from_u64(5);
        let style = PlayoutStyle {
            fill_tries,
            ..PlayoutStyle::HEAVY
        };
        (0..100)
            .filter(|_| {
                let mut b = Board::new(9).unwrap();
                let mut record = Vec::new();
                let mut scratch = PlayoutScratch::default();
                play_out(
                    &mut b,
                    Color::Black,
                    None,
                    style,
                    &mut rng,
                    &mut record,
                    &mut scratch,
                );
                let first = Point(decode_move(record[0]).0);
                line(&b, first) == 1
            })
            .count()
    }

    #[test]
    fn filling_the_board_starts_away_from_the_edge() {
        assert!(first_moves_on_the_edge(0) >= 20);
        // Each try misses the 49 inner points with odds 32/81.
        assert_eq!(first_moves_on_the_edge(20), 0);
    }

    /// How often the heavy policy answers `last` with `expected`, out of 200.
    fn answers(diagram: &str, to_move: Color, last: &str, expected: &str) -> usize {
        answers_capture(diagram, to_move, last, 0, expected)
    }

    /// [`answers`] when `last` captured `captured` stones.
    fn answers_capture(
        diagram: &str,
        to_move: Color,
        last: &str,
        captured: u32,
        expected: &str,
    ) -> usize {
        answers_in_style(
            diagram,
            to_move,
            last,
            captured,
            PlayoutStyle::HEAVY,
            &[expected],
        )
    }

    /// How often a heavy policy of `style` answers `last` with one of
    /// `expected`, out of 200.
    fn answers_in_style(
        diagram: &str,
        to_move: Color,
        last: &str,
        captured: u32,
        style: PlayoutStyle,
        expected: &[&str],
    ) -> usize {
        let b = Board::from_ascii(diagram).unwrap();
        let expected: Vec<Option<Point>> = expected.iter().map(|e| Some(at(&b, e))).collect();
        let mut rng = rand::rngs::SmallRng::seed_from_u64(3);
        let mut scratch = PlayoutScratch::default();
        (0..200)
            .filter(|_| {
                let choice = heavy_move(
                    &b,
                    to_move,
                    [Some(at(&b, last)), None],
                    captured,
                    None,
                    style,
                    &mut rng,
                    &mut scratch,
                );
                expected.contains(&choice)
            })
            .count()
    }

    #[test]
    fn weighted_choice_follows_the_weights() {
        let b = Board::new(9).unwrap();
        let points = [at(&b, "A1"), at(&b, "B1"), at(&b, "C1")];
        let mut rng = rand::rngs::SmallRng::seed_from_u64(5);
        let mut seen = [0usize; 3];
        for _ in 0..4000 {
            let p = pick_weighted(&points, &[1, 3, 0], &mut rng);
            seen[points.iter().position(|&q| q == p).unwrap()] += 1;
        }
        assert_eq!(seen[2], 0, "weight 0 is never chosen");
        assert!(
            (2800..3200).contains(&seen[1]),
            "{seen:?}: about three in four"
        );
        // An average learned shape weighs 16; a stronger one more.
        assert_eq!(choice_weight(128), 16);
        assert!(choice_weight(200) > 3 * choice_weight(128));
        assert!(choice_weight(0) >= 1);
    }

    const SOFTMAX: PlayoutStyle = PlayoutStyle {
        shapes: ShapeChoice::Softmax,
        ..PlayoutStyle::HEAVY
    };

    #[test]
    fn the_softmax_stage_answers_near_the_last_move() {
        // Eight of the 48 empty points touch White's last move E5: a
        // uniform choice lands there one time in six, the learned
        // strengths (strong players answer nearby) far more often.
        let diagram = "
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . X . . . .
            . . . X O . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .";
        let around = ["D6", "E6", "F6", "D5", "F5", "D4", "E4", "F4"];
        let near = answers_in_style(diagram, Color::Black, "E5", 0, SOFTMAX, &around);
        assert!(near > 90, "{near}/200 next to the last move");
        let far = answers_in_style(diagram, Color::Black, "E5", 0, SOFTMAX, &["A1", "J9"]);
        assert!(far < 10, "{far}/200 in the far corners");
    }

    #[test]
    fn a_ko_is_retaken_after_one_exchange_or_connected_by_the_capturer() {
        // Black C3 takes the white stone B3: White may not retake at once.
        let diagram = "
            . . . . .
            . X O . .
            X O . O .
            . X O . .
            . . . . .";
        let start = Board::from_ascii(diagram).unwrap();
        let play = |b: &mut Board, c: Color, v: &str| {
            b.place(c, at(b, v), false).unwrap();
        };
        let mut b = start.clone();
        let mut fight = KoFight::default();
        play(&mut b, Color::Black, "C3");
        fight.note(&b, 1);
        assert_eq!(fight.take(&b, Color::White, 1, true), None, "banned");
        play(&mut b, Color::White, "E5"); // a threat
        fight.note(&b, 2);
        assert_eq!(
            fight.take(&b, Color::Black, 2, false),
            None,
            "no connect asked"
        );
        assert_eq!(
            fight.take(&b, Color::Black, 2, true),
            Some(at(&b, "B3")),
            "connect"
        );
        let mut answered = b.clone();
        play(&mut answered, Color::Black, "E4"); // the answer
        fight.note(&answered, 3);
        assert_eq!(
            fight.take(&answered, Color::White, 3, false),
            Some(at(&b, "B3"))
        );
        // Too late: White played elsewhere once more.
        play(&mut answered, Color::White, "A1");
        fight.note(&answered, 4);
        play(&mut answered, Color::Black, "E1");
        fight.note(&answered, 5);
        assert_eq!(
            fight.take(&answered, Color::White, 5, true),
            None,
            "too late"
        );
        // Black connected instead of answering: the ko is over.
        play(&mut b, Color::Black, "B3");
        fight.note(&b, 3);
        assert_eq!(fight.take(&b, Color::White, 3, true), None, "filled");
    }

    #[test]
    fn playouts_fight_a_ko_only_when_asked() {
        // Black D4 has just taken the ko at C4. With the ko stage on,
        // White's first move is a threat, Black answers, and White takes
        // back at C4, nearly always; with it off, seldom. Asked to connect,
        // Black fills C4 instead of answering.
        let diagram = "
            . . . . . . .
            . . . . . . .
            . . X O . . .
            . X O . O . .
            . . X O . . .
            . . . . . . .
            . . . . . . .";
        let start = Board::from_ascii(diagram).unwrap();
        let ko_move_at = |ko_rate: u8, ko_connect: bool, index: usize| {
            let style = PlayoutStyle {
                ko_rate,
                ko_connect,
                ..PlayoutStyle::HEAVY
            };
            let mut rng = rand::rngs::SmallRng::seed_from_u64(5);
            let mut scratch = PlayoutScratch::default();
            let (capture, retake) = (at(&start, "D4"), at(&start, "C4"));
            (0..200)
                .filter(|_| {
                    let mut b = start.clone();
                    let mut record = Vec::new();
                    b.place(Color::Black, capture, false).unwrap();
                    play_out(
                        &mut b,
                        Color::White,
                        Some(capture),
                        style,
                        &mut rng,
                        &mut record,
                        &mut scratch,
                    );
                    let mover = [Color::White, Color::Black][index % 2];
                    record.get(index) == Some(&encode_move(mover, retake))
                })
                .count()
        };
        let (off, on) = (ko_move_at(0, false, 2), ko_move_at(100, false, 2));
        assert!(on > 150, "{on} of 200 retaken with the stage on");
        assert!(off < 100, "{off} of 200 retaken with it off");
        let (off, on) = (ko_move_at(100, false, 1), ko_move_at(100, true, 1));
        assert!(on > 150, "{on} of 200 connected when asked");
        assert!(off < 100, "{off} of 200 connected when not asked");
    }

    #[test]
    fn the_balanced_stage_follows_its_weights_and_records_its_choices() {
        // White E5 hanes against Black E6. Black's hanes at D5 and F5 are
        // mirror images, one shape; the other points around E5 have others.
        let diagram = "
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . X . . . .
            . . . . O . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .";
        let b = Board::from_ascii(diagram).unwrap();
        let (last, hane, mirror) = (at(&b, "E5"), at(&b, "F5"), at(&b, "D5"));
        let hane_key = shape_key(&b, Color::Black, hane);
        let balanced = PlayoutStyle {
            shapes: ShapeChoice::Balanced,
            ..PlayoutStyle::HEAVY
        };
        let choose = |table: ShapeWeights, rng: &mut rand::rngs::SmallRng| {
            let mut scratch = PlayoutScratch {
                balance: Some((Arc::new(table), ShapeTrace::default())),
                ..PlayoutScratch::default()
            };
            let choice = heavy_move(
                &b,
                Color::Black,
                [Some(last), None],
                0,
                None,
                balanced,
                rng,
                &mut scratch,
            );
            (choice, scratch.balance.map(|(_, trace)| trace))
        };
        let mut rng = rand::rngs::SmallRng::seed_from_u64(9);
        // The hane weighs e^8 against at most e^0 each for the other seven
        // and e^-8 for playing elsewhere: nearly always the hane.
        let hane_heavy = || ShapeWeights::with_log_weights([(hane_key, 8.0)], -8.0);
        let hanes = (0..200)
            .filter(|_| [Some(hane), Some(mirror)].contains(&choose(hane_heavy(), &mut rng).0))
            .count();
        assert!(hanes > 190, "{hanes}/200 hanes");
        // Weighing a move elsewhere e^8 sends nearly every choice to the
        // random move, which lands next to E5 about 7 times in 79.
        let away = || ShapeWeights::with_log_weights([], 8.0);
        let near = (0..200)
            .filter(|_| {
                let p = choose(away(), &mut rng).0.unwrap();
                b.neighbours(last).contains(&p.0) || b.diagonals(last).contains(&p.0)
            })
            .count();
        assert!(near < 40, "{near}/200 next to E5");
        // The record names each candidate's key and the choice.
        let (choice, trace) = choose(hane_heavy(), &mut rng);
        let trace = trace.unwrap();
        assert_eq!(trace.choices.len(), 1);
        let (start, count, chosen) = trace.choices[0];
        assert_eq!(
            (start, count),
            (0, 7),
            "E6 is taken: seven points around E5"
        );
        assert!(chosen < count, "the hane, not a move elsewhere");
        let key = shape_key(&b, Color::Black, choice.unwrap());
        assert_eq!(trace.keys[chosen as usize], key);
    }

    #[test]
    fn heavy_policy_saves_the_chain_the_last_move_put_in_atari() {
        // White C3 ataris the black pair; extending to D2 gives three liberties.
        let diagram = "
            . . . . . . .
            . . . . . . .
            . . . . . . .
            . . . . . . .
            . O O . . . .
            O X X . . . .
            . O O . . . .";
        assert!(answers(diagram, Color::Black, "C3", "D2") > 150);
    }

    #[test]
    fn the_stage_rates_say_how_often_each_stage_plays() {
        let rates = |atari_rate, shape_rate| PlayoutStyle {
            atari_rate,
            shape_rate,
            ..PlayoutStyle::HEAVY
        };
        let atari = "
            . . . . . . .
            . . . . . . .
            . . . . . . .
            . . . . . . .
            . O O . . . .
            O X X . . . .
            . O O . . . .";
        // With the shape stage off, D2 is otherwise one of 38 random points.
        let saved = |rate| answers_in_style(atari, Color::Black, "C3", 0, rates(rate, 0), &["D2"]);
        assert_eq!(saved(100), 200);
        assert!(saved(0) < 30, "{}: D2 only at random", saved(0));
        let open = "
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . X . . . .
            . . . X O . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .";
        let around = ["D6", "E6", "F6", "D5", "F5", "D4", "E4", "F4"];
        let near = |rate| answers_in_style(open, Color::Black, "E5", 0, rates(95, rate), &around);
        assert_eq!(near(100), 200);
        let at_random = near(0);
        assert!(at_random < 80, "{at_random}: one in six at random");
        let by_default = near(SHAPE_RATE);
        assert!(by_default > 160 && by_default < 200, "{by_default}");
    }

    const TWO_LIBERTY_FIGHTS: PlayoutStyle = PlayoutStyle {
        two_liberty_rate: 100,
        ..PlayoutStyle::HEAVY
    };

    #[test]
    fn the_two_liberty_stage_ataris_a_stone_that_cannot_get_away() {
        // White C2 has two liberties. Black D2 or C1 puts it in atari, and
        // running then leads along the edge into capture.
        let diagram = "
            . . . . . . .
            . . . . . . .
            . . . . . . .
            . . . . . . .
            . . X X . . .
            . X O . . . .
            . . . . . . .";
        let catch = ["D2", "C1"];
        let with = answers_in_style(diagram, Color::Black, "C2", 0, TWO_LIBERTY_FIGHTS, &catch);
        let without = answers_in_style(diagram, Color::Black, "C2", 0, PlayoutStyle::HEAVY, &catch);
        assert_eq!(with, 200);
        assert!(without < 150, "{without}: the stage made the difference");
    }

    #[test]
    fn the_two_liberty_stage_leaves_a_stone_that_runs_away_alone() {
        // In the open, an atari on White D4 only chases it: no fight.
        let diagram = "
            . . . . . . .
            . . . . . . .
            . . . X . . .
            . . X O . . .
            . . . . . . .
            . . . . . . .
            . . . . . . .";
        let chase = ["E4"];
        let with = answers_in_style(diagram, Color::Black, "D4", 0, TWO_LIBERTY_FIGHTS, &chase);
        assert!(with < 100, "{with}: E4 is only a shape move here");
    }

    #[test]
    fn the_two_liberty_stage_extends_the_chain_the_last_move_threatens() {
        // White B3 left the black pair two liberties. White D2 would catch
        // it (B1 runs into the corner); D2 for Black gives it three.
        let diagram = "
            . . . . . . .
            . . . . . . .
            . . . . . . .
            . . . . . . .
            . O O . . . .
            O X X . . . .
            . . O . . . .";
        let with = answers_in_style(diagram, Color::Black, "B3", 0, TWO_LIBERTY_FIGHTS, &["D2"]);
        let without =
            answers_in_style(diagram, Color::Black, "B3", 0, PlayoutStyle::HEAVY, &["D2"]);
        assert_eq!(with, 200);
        assert!(without < 150, "{without}: the stage made the difference");
    }

    #[test]
    fn heavy_policy_does_not_run_into_a_ladder() {
        // White D3 put Black C3 in atari. Running to C4 is a ladder while
        // White holds D4; with D4 empty it is a real escape.
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
        assert!(answers(ladder, Color::Black, "D3", "C4") < 10);
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
        assert!(answers(open, Color::Black, "D3", "C4") > 150);
    }

    /// What the corrected random stage plays for Black drawing `vertex`.
    fn black_corrected(diagram: &str, vertex: &str, lone_stones: bool) -> Option<String> {
        let b = Board::from_ascii(diagram).unwrap();
        corrected_point(&b, Color::Black, at(&b, vertex), lone_stones)
            .map(|q| crate::board::coord::vertex_name(q, b.size()))
    }

    #[test]
    fn self_atari_correction_extends_a_chain_from_the_other_side() {
        // Black C1 leaves C1 C2 D2 with the one liberty D1, and the plain
        // random stage skips it; corrected, Black extends at D1, which
        // keeps C1 and E1.
        let diagram = "
            . . . . .
            . . . . .
            . . O O .
            . O X X O
            . O . . .";
        let b = Board::from_ascii(diagram).unwrap();
        assert!(!is_sensible(&b, Color::Black, at(&b, "C1")));
        assert_eq!(black_corrected(diagram, "C1", false).as_deref(), Some("D1"));
        assert_eq!(black_corrected(diagram, "D1", false).as_deref(), Some("D1"));
    }

    #[test]
    fn self_atari_correction_skips_a_chain_whose_extension_is_in_atari_too() {
        // Black's seven stones keep A1 and B1: filling either leaves only
        // the other, and too many stones die for a killing sacrifice.
        let diagram = "
            . . . . .
            O O O O O
            X X X X O
            X X X O .
            . . O . .";
        assert_eq!(black_corrected(diagram, "A1", false), None);
        assert_eq!(black_corrected(diagram, "B1", true), None);
    }

    #[test]
    fn self_atari_correction_moves_a_lone_stone_only_when_asked() {
        // Black B1 alone has only C1; at C1 it would have D1 and C2.
        let diagram = "
            . . . . .
            . . . . .
            . . . . .
            . O . . .
            O . . . .";
        assert_eq!(black_corrected(diagram, "B1", false).as_deref(), Some("B1"));
        assert_eq!(black_corrected(diagram, "B1", true).as_deref(), Some("C1"));
    }

    #[test]
    fn self_atari_correction_keeps_killing_sacrifices_and_snapbacks() {
        // Black A1 fills White's straight three to its last point: once
        // White captures at C1, the space left dies at B1.
        let straight_three = "
            . . . . .
            . . . . .
            . . . . .
            O O O O .
            . X . O .";
        assert_eq!(
            black_corrected(straight_three, "A1", true).as_deref(),
            Some("A1")
        );
        // Black A1 is taken at B1, and White's five stones are then in
        // atari on B1: the throw-in stays.
        let snapback = "
            . . . . .
            . . . . .
            X X X X .
            O O O X .
            . . O X .";
        assert_eq!(black_corrected(snapback, "A1", true).as_deref(), Some("A1"));
    }

    #[test]
    fn with_shapes_own_the_shape_stage_turns_to_the_movers_last_stone() {
        // White's last move J9 has no shape next to it; Black's own last
        // move D5 has the hane at C4 (Black B5 D5 around White C5).
        let diagram = "
            . . . . . . . . O
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . X O X . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .";
        let b = Board::from_ascii(diagram).unwrap();
        let (mut near_white, mut near_black) = (Vec::new(), Vec::new());
        let mut weights = Vec::new();
        good_shapes_next_to(
            &b,
            Color::Black,
            at(&b, "J9"),
            None,
            ShapeChoice::Mogo,
            &mut near_white,
            &mut weights,
        );
        good_shapes_next_to(
            &b,
            Color::Black,
            at(&b, "D5"),
            None,
            ShapeChoice::Mogo,
            &mut near_black,
            &mut weights,
        );
        assert!(near_white.is_empty());
        assert!(near_black.contains(&at(&b, "C4")));
        let own = PlayoutStyle {
            shapes_own: true,
            ..PlayoutStyle::HEAVY
        };
        let mut rng = rand::rngs::SmallRng::seed_from_u64(7);
        let mut scratch = PlayoutScratch::default();
        let mut hits = |style: PlayoutStyle| {
            (0..200)
                .filter(|_| {
                    let last = [Some(at(&b, "J9")), Some(at(&b, "D5"))];
                    let choice = heavy_move(
                        &b,
                        Color::Black,
                        last,
                        0,
                        None,
                        style,
                        &mut rng,
                        &mut scratch,
                    );
                    choice.is_some_and(|q| near_black.contains(&q))
                })
                .count()
        };
        let with = hits(own);
        let without = hits(PlayoutStyle::HEAVY);
        assert!(with > 160, "{with}/200");
        assert!(without < 40, "{without}/200");
    }

    #[test]
    fn heavy_policy_captures_a_stone_in_atari() {
        // White D2 stands in atari after playing; Black takes it at E2.
        let diagram = "
            . . . . . . .
            . . . . . . .
            . . . . . . .
            . . . . . . .
            . . . X . . .
            . . X O . . .
            . . . X . . .";
        assert!(answers(diagram, Color::Black, "D2", "E2") > 150);
    }

    #[test]
    fn heavy_policy_plays_the_vital_point_after_a_capture_of_three() {
        // White E1 has just taken three Black stones from the straight
        // three B1 C1 D1: Black kills at C1.
        let diagram = "
            . . . . . .
            . . . . . .
            . . . . . .
            . . . . . .
            O O O O O O
            O . . . O O";
        let hits = answers_capture(diagram, Color::Black, "E1", 3, "C1");
        assert!(hits > 170, "{hits}/200");
        // Without a capture, C1 is one of many random moves.
        let hits = answers_capture(diagram, Color::Black, "E1", 0, "C1");
        assert!(hits < 50, "{hits}/200");
    }

    #[test]
    fn with_nakade_closed_the_policy_plays_the_vital_point_of_a_space_just_closed() {
        // Black D1 has just closed the straight three A1 B1 C1, capturing
        // nothing: White kills at B1, when asked to.
        let diagram = "
            . . . . . . .
            . . . . . . .
            . . . . . . .
            . . . . . . .
            . . . . . . .
            X X X X . . .
            . . . X . . .";
        let closed = PlayoutStyle {
            nakade_closed: true,
            ..PlayoutStyle::HEAVY
        };
        let hits = answers_in_style(diagram, Color::White, "D1", 0, closed, &["B1"]);
        assert!(hits > 170, "{hits}/200");
        let hits = answers(diagram, Color::White, "D1", "B1");
        assert!(hits < 50, "{hits}/200");
    }

    #[test]
    fn heavy_playouts_kill_a_group_whose_only_eye_is_a_pyramid_four() {
        // White's one eye space B1 C1 D1 C2 holds a Black stone at C1;
        // the rest of the board is Black's. Left alone, each playout has
        // Black fill the eye with a sacrifice and kill at the vital point.
        let diagram = "
            . . . . . . .
            . . . . . . .
            . . . . . . .
            X X X X X X .
            O O O O O X .
            O O . O O X .
            O . X . O X .";
        let mut rng = rand::rngs::SmallRng::seed_from_u64(5);
        let mut white_died = 0;
        for _ in 0..100 {
            let mut b = Board::from_ascii(diagram).unwrap();
            play_out(
                &mut b,
                Color::Black,
                None,
                PlayoutStyle::HEAVY,
                &mut rng,
                &mut Vec::new(),
                &mut PlayoutScratch::default(),
            );
            white_died += usize::from(b.color_at(at(&b, "A1")) != Some(Color::White));
        }
        assert!(white_died > 80, "White died in {white_died}/100 playouts");
    }
}
