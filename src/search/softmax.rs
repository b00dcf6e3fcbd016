//! The softmax stage of the heavy playouts (`--tune playout_softmax=1`):
//! every sensible move, each as likely as its learned strength (see
//! `gammas`).
//!
//! Working the features of every empty point out at every move made the
//! playouts about five times slower, so a move's strength apart from the
//! last two moves (its shape and tactics) is kept from one move of a
//! playout to the next and worked out again only where a move can have
//! changed it: the 3×3 squares around the stone played and the stones
//! captured, and the liberties of the chains whose liberties changed, when
//! they have few. What depends on the last moves (distance, taking the
//! last move's chain) is applied when choosing.

use super::gammas::{self, distance_class, features, MoveFeatures, Tactic, NEAR_CLASSES};
use crate::board::bitboard::BITS;
use crate::board::{Bitboard, Board, Color, Point};
use rand::RngCore;

/// Chains with more liberties than this keep the strengths around them:
/// no feature tells four liberties from more.
const FEW_LIBERTIES: usize = 4;

/// A point's kept strength for one colour.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Kept {
    /// Shape and tactic strengths multiplied; 0 for a move the playouts
    /// never play (illegal other than by ko, an own eye).
    weight: f32,
    tactic: Tactic,
}

/// Strengths kept across the moves of one playout, per colour.
#[derive(Default)]
pub struct SoftmaxCache {
    kept: [Vec<Option<Kept>>; 2],
    /// Column and row of every point index, for the distance classes.
    xy: Vec<(i8, i8)>,
    stride: usize,
    candidates: Vec<Point>,
    running: Vec<f32>,
    /// Stones about to be captured by the move being played.
    captured: Bitboard,
}

impl SoftmaxCache {
    /// Forgets every strength: a new playout, or a new board.
    pub fn reset(&mut self, board: &Board) {
        for kept in &mut self.kept {
            kept.clear();
            kept.resize(BITS, None);
        }
        if self.stride != board.stride() || self.xy.is_empty() {
            self.stride = board.stride();
            self.xy = (0..BITS)
                .map(|i| {
                    let (x, y) = (i % self.stride, i / self.stride);
                    (x as i8, y as i8)
                })
                .collect();
        }
    }

    /// Call before `c` plays at `p`: notes the stones it will capture.
    pub fn before_move(&mut self, board: &Board, c: Color, p: Point) {
        self.captured = Bitboard::EMPTY;
        for q in board.neighbours(p) {
            let q = Point(q);
            if board.color_at(q) == Some(c.opponent()) && board.in_atari(q) {
                self.captured |= board.chain_stones(q);
            }
        }
    }

    /// Call after `c` played at `p` (with [`SoftmaxCache::before_move`]
    /// before): forgets the strengths the move may have changed. The
    /// mover's chains gain liberties (merging, capturing), so all of
    /// theirs are forgotten; an opposing chain lost one, which matters
    /// only when it is left with few.
    pub fn after_move(&mut self, board: &Board, c: Color, p: Point) {
        self.forget_around(board, p);
        let mut own = Bitboard::single(p.0);
        let captured = self.captured;
        for k in captured.iter() {
            self.forget_around(board, Point(k));
            for q in board.neighbours(Point(k)) {
                if board.color_at(Point(q)) == Some(c) {
                    own.set(q);
                }
            }
        }
        let mut grown = Bitboard::EMPTY;
        for s in own.iter() {
            if !grown.contains(s) {
                grown |= board.chain_stones(Point(s));
            }
        }
        for lib in (grown.neighbours(board.stride()) & board.empty_points()).iter() {
            self.forget(Point(lib));
        }
        let mut liberties = [Point(0); FEW_LIBERTIES];
        for q in board.neighbours(p) {
            let q = Point(q);
            if board.color_at(q) == Some(c.opponent()) {
                if let Some(count) = board.liberties_within(q, &mut liberties) {
                    for lib in &liberties[..count] {
                        self.forget(*lib);
                    }
                }
            }
        }
    }

    fn forget(&mut self, p: Point) {
        self.kept[0][p.0] = None;
        self.kept[1][p.0] = None;
    }

    fn forget_around(&mut self, board: &Board, p: Point) {
        self.forget(p);
        for q in board.neighbours(p).into_iter().chain(board.diagonals(p)) {
            self.forget(Point(q));
        }
    }

    /// The kept strength of `c` at the empty point `p`, worked out if
    /// need be.
    fn kept(&mut self, board: &Board, c: Color, p: Point) -> Kept {
        if let Some(k) = self.kept[c.index()][p.0] {
            return k;
        }
        let k = fresh(board, c, p);
        self.kept[c.index()][p.0] = Some(k);
        k
    }

    /// A sensible move (legal, not an own eye, not a self-atari of two or
    /// more stones unless it kills as nakade) other than `avoid`, each as
    /// likely as its learned strength; the opponent's last move was
    /// `last` and the mover's own previous one `own_last`.
    pub fn choose(
        &mut self,
        board: &Board,
        c: Color,
        [last, own_last]: [Option<Point>; 2],
        avoid: Option<Point>,
        rng: &mut impl RngCore,
    ) -> Option<Point> {
        if self.stride != board.stride() || self.kept[0].is_empty() {
            self.reset(board);
        }
        let g = gammas::table();
        let ko = board.ko_point();
        // Taking the last move's chain is a tactic of its own.
        let last_capture = last
            .filter(|&l| board.color_at(l).is_some())
            .and_then(|l| board.atari_liberty(l));
        let near_last = self.distance_weights(last, |d| g.near_last(d));
        let near_own = self.distance_weights(own_last, |d| g.near_own(d));
        let mut candidates = std::mem::take(&mut self.candidates);
        let mut running = std::mem::take(&mut self.running);
        candidates.clear();
        running.clear();
        let mut total = 0.0f32;
        for &e in board.empties() {
            let p = Point(e as usize);
            if Some(p) == avoid || Some(p) == ko {
                continue;
            }
            let k = self.kept(board, c, p);
            if k.weight == 0.0 {
                continue;
            }
            if k.tactic == Tactic::SelfAtariMany && !board.is_nakade_sacrifice(c, p) {
                continue;
            }
            let mut w = k.weight * near_last(self, p) * near_own(self, p);
            if Some(p) == last_capture {
                w *= g.tactic(Tactic::CaptureLast) / g.tactic(k.tactic);
            }
            total += w;
            candidates.push(p);
            running.push(total);
        }
        let ticket = (rng.next_u32() as f64 / (1u64 << 32) as f64) as f32 * total;
        let k = running.partition_point(|&sum| sum <= ticket);
        let choice = candidates
            .get(k.min(candidates.len().saturating_sub(1)))
            .copied();
        self.candidates = candidates;
        self.running = running;
        // Kept strengths are never trusted with legality.
        choice.filter(|&p| board.is_legal_no_suicide(c, p))
    }

    /// The strength of each point's distance class to `from`, as a
    /// function of the point.
    fn distance_weights(
        &self,
        from: Option<Point>,
        weight: impl Fn(u8) -> f32,
    ) -> impl Fn(&Self, Point) -> f32 {
        let table: [f32; NEAR_CLASSES] = std::array::from_fn(|d| weight(d as u8));
        let origin = from.map(|f| self.xy[f.0]);
        move |cache: &Self, p: Point| match origin {
            None => table[0],
            Some((fx, fy)) => {
                let (x, y) = cache.xy[p.0];
                let (dx, dy) = ((x - fx).unsigned_abs(), (y - fy).unsigned_abs());
                table[distance_class(dx as usize, dy as usize) as usize]
            }
        }
    }
}

/// The kept strength of `c` at `p` worked out from the board: shape and
/// tactics as if there were no last move, legality as if there were no ko.
fn fresh(board: &Board, c: Color, p: Point) -> Kept {
    let playable = board.ko_point() == Some(p) || board.is_legal_no_suicide(c, p);
    if !playable || board.is_eye_like(c, p) {
        return Kept {
            weight: 0.0,
            tactic: Tactic::Quiet,
        };
    }
    let f: MoveFeatures = features(board, c, p, None, None);
    let g = gammas::table();
    Kept {
        weight: g.shape(f.shape) * g.tactic(f.tactic),
        tactic: f.tactic,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::test_point as at;
    use crate::search::playout::random_light_move;
    use rand::SeedableRng;

    #[test]
    fn the_cache_measures_distance_like_the_features() {
        let b = Board::new(9).unwrap();
        let mut cache = SoftmaxCache::default();
        cache.reset(&b);
        let from = at(&b, "C3");
        let g = gammas::table();
        let weights = cache.distance_weights(Some(from), |d| g.near_last(d));
        for p in b.points() {
            assert_eq!(
                weights(&cache, p),
                g.near_last(gammas::near_class(&b, p, Some(from))),
                "{p:?}"
            );
        }
    }

    /// After every move of many random games, every kept strength equals the
    /// one worked out afresh, but for the one feature the cache lets go
    /// stale: whether a capture saves an own chain in atari.
    #[test]
    fn kept_strengths_match_fresh_ones_through_whole_playouts() {
        let mut rng = rand::rngs::SmallRng::seed_from_u64(17);
        let mut checked = 0;
        for size in [7, 9, 13] {
            for _ in 0..6 {
                let mut board = Board::new(size).unwrap();
                let mut cache = SoftmaxCache::default();
                cache.reset(&board);
                let mut color = Color::Black;
                for _ in 0..3 * size * size {
                    let choice = random_light_move(&board, color, &mut rng);
                    let Some(p) = choice.filter(|&p| board.is_legal_no_suicide(color, p)) else {
                        break;
                    };
                    cache.before_move(&board, color, p);
                    board.place_unchecked(color, p);
                    cache.after_move(&board, color, p);
                    color = color.opponent();
                    for &e in board.empties() {
                        let q = Point(e as usize);
                        for c in [Color::Black, Color::White] {
                            let Some(kept) = cache.kept[c.index()][q.0] else {
                                let _ = cache.kept(&board, c, q);
                                continue;
                            };
                            let now = fresh(&board, c, q);
                            let saving = |t| matches!(t, Tactic::Capture | Tactic::CaptureSaving);
                            if !(saving(kept.tactic) && saving(now.tactic)) {
                                assert_eq!(kept, now, "{q:?} for {c:?}\n{}", board.to_ascii());
                            }
                            checked += 1;
                        }
                    }
                }
            }
        }
        assert!(checked > 10_000, "{checked} kept strengths checked");
    }
}
