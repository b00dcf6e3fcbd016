//! Tactical questions about one move, answered from the chain bookkeeping
//! without changing the board: how many liberties the new stone's chain
//! would have, what it would capture, which captures save a chain in atari,
//! and the 3×3 neighbourhood code the pattern tables are indexed by.
//! Playouts and tree priors ask these millions of times per second.

use super::{Board, Color, OtherLiberties, Point, BORDER, EMPTY};

/// What placing a stone would do to the mover's own chain.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveShape {
    /// Liberties of the chain holding the new stone, counted up to the cap given.
    pub liberties: u32,
    /// Opposing stones the move captures.
    pub captures: u32,
    /// Stones in the chain holding the new stone (itself included).
    pub chain_len: u32,
}

impl MoveShape {
    /// The move leaves its own chain in atari without capturing anything.
    #[inline]
    pub fn is_self_atari(&self) -> bool {
        self.liberties < 2 && self.captures == 0
    }
}

/// A tiny set of distinct points, enough for counting liberties up to a cap.
struct PointSet {
    points: [u16; 8],
    len: usize,
}

impl PointSet {
    #[inline]
    fn insert(&mut self, p: usize) {
        if self.len < self.points.len() && !self.points[..self.len].contains(&(p as u16)) {
            self.points[self.len] = p as u16;
            self.len += 1;
        }
    }
}

impl Board {
    /// The effect of `c` playing at the empty point `p` on its own chain,
    /// counting liberties up to `cap` (at most 8). Ignores ko; the caller
    /// checks legality.
    pub fn move_shape(&self, c: Color, p: Point, cap: u32) -> MoveShape {
        let cap = cap.min(8) as usize;
        let own = c.cell();
        let mut libs = PointSet {
            points: [0; 8],
            len: 0,
        };
        let mut own_heads = [usize::MAX; 4];
        // Per own chain (in its `own_heads` slot): its stones next to `p`.
        let mut touching = [0u64; 4];
        let mut captured_heads = [usize::MAX; 4];
        let mut captures = 0;
        let mut chain_len = 1;
        for (k, q) in self.neighbours(p).into_iter().enumerate() {
            match self.cells[q] {
                EMPTY => libs.insert(q),
                BORDER => {}
                v if v == own => {
                    let h = self.head[q] as usize;
                    match own_heads.iter().position(|&o| o == h) {
                        Some(slot) => touching[slot] += 1,
                        None => {
                            own_heads[k] = h;
                            touching[k] = 1;
                            chain_len += self.chain_len[h] as u32;
                        }
                    }
                }
                _ => {
                    let h = self.head[q] as usize;
                    if self.chain_in_atari(h) {
                        // The captured neighbour becomes a liberty next to the new stone.
                        libs.insert(q);
                        if !captured_heads.contains(&h) {
                            captured_heads[k] = h;
                            captures += self.chain_len[h] as u32;
                        }
                    }
                }
            }
        }
        if cap <= 2 {
            // A self-atari test: the packed liberty sums of each chain tell
            // whether it has none, one or several liberties besides `p`,
            // with no walk along its stones.
            for (&h, &touching) in own_heads.iter().zip(&touching) {
                if h == usize::MAX {
                    continue;
                }
                if libs.len >= cap {
                    break;
                }
                match self.liberties_besides(h, p.0, touching) {
                    OtherLiberties::None => {}
                    OtherLiberties::One(l) => libs.insert(l),
                    OtherLiberties::Several => libs.len = cap,
                }
            }
            return MoveShape {
                liberties: libs.len.min(cap) as u32,
                captures,
                chain_len,
            };
        }
        'chains: for &h in own_heads.iter().filter(|&&h| h != usize::MAX) {
            let mut s = h;
            loop {
                if libs.len >= cap {
                    break 'chains;
                }
                for r in self.neighbours(Point(s)) {
                    if self.cells[r] == EMPTY && r != p.0 {
                        libs.insert(r);
                    }
                }
                s = self.next[s] as usize;
                if s == h {
                    break;
                }
            }
        }
        MoveShape {
            liberties: libs.len.min(cap) as u32,
            captures,
            chain_len,
        }
    }

    /// `c` at `p` is a lone stone in atari that sets up a snapback: the
    /// opponent taking it on its last liberty is left, two stones or more,
    /// in atari on `p`, to be captured back whole. Such a throw-in gives
    /// nothing away, unlike an ordinary self-atari. Ignores ko.
    pub fn sets_snapback(&self, c: Color, p: Point) -> bool {
        let shape = self.move_shape(c, p, 2);
        if !(shape.is_self_atari() && shape.chain_len == 1 && shape.liberties == 1) {
            return false;
        }
        let Some(last_liberty) = self
            .neighbours(p)
            .into_iter()
            .find(|&q| self.cells[q] == EMPTY)
        else {
            return false;
        };
        // On this board `p` is still empty, as it will be again once taken,
        // so the taker's shape here is its shape after the capture.
        let taker = self.move_shape(c.opponent(), Point(last_liberty), 2);
        taker.liberties == 1 && taker.chain_len >= 2
    }

    /// Moves that capture an opposing chain in atari touching the chain
    /// through `p` (the classic way out of atari besides extending), pushed
    /// onto `out` without duplicates.
    pub fn capturing_escapes(&self, p: Point, out: &mut Vec<Point>) {
        let Some(c) = self.color_at(p) else {
            return;
        };
        let enemy = c.opponent().cell();
        let start = p.0;
        let mut s = start;
        loop {
            for q in self.neighbours(Point(s)) {
                if self.cells[q] == enemy {
                    if let Some(lib) = self.atari_liberty(Point(q)) {
                        if !out.contains(&lib) {
                            out.push(lib);
                        }
                    }
                }
            }
            s = self.next[s] as usize;
            if s == start {
                break;
            }
        }
    }

    /// The two liberties of the chain through `p`, when it has exactly two
    /// (the chains a single move puts in atari). Stops walking the chain at
    /// a third liberty, so long healthy chains cost little.
    pub fn two_liberties(&self, p: Point) -> Option<[Point; 2]> {
        let mut libs = [Point(0); 2];
        (self.liberties_within(p, &mut libs)? == 2).then_some(libs)
    }

    /// The liberties of the chain through `p` written to the front of
    /// `out`, with their number, when it has no more than `out.len()`;
    /// `None` when it has more (the walk stops at the first one too many).
    pub fn liberties_within(&self, p: Point, out: &mut [Point]) -> Option<usize> {
        self.color_at(p)?;
        // A liberty touches at most four stones of the chain, so more
        // pseudo-liberties than four per slot mean too many liberties:
        // most healthy chains are told without a walk.
        if self.pseudo_liberties(p) > 4 * out.len() as u32 {
            return None;
        }
        let mut found = 0;
        let start = p.0;
        let mut s = start;
        loop {
            for q in self.neighbours(Point(s)) {
                if self.cells[q] == EMPTY && !out[..found].contains(&Point(q)) {
                    *out.get_mut(found)? = Point(q);
                    found += 1;
                }
            }
            s = self.next[s] as usize;
            if s == start {
                return Some(found);
            }
        }
    }

    /// The eight cells around `p`, two bits each (empty 0, black 1, white
    /// 2, off board 3), in the order top-left, top, top-right, left, right,
    /// bottom-left, bottom, bottom-right (top = higher row).
    #[inline]
    pub fn neighbourhood_code(&self, p: Point) -> u16 {
        let s = self.stride;
        let i = p.0;
        let cells = [
            i + s - 1,
            i + s,
            i + s + 1,
            i - 1,
            i + 1,
            i - s - 1,
            i - s,
            i - s + 1,
        ];
        let mut code = 0u16;
        for (k, q) in cells.into_iter().enumerate() {
            code |= (self.cells[q] as u16) << (2 * k);
        }
        code
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::test_point as at;

    /// The self-atari test reads the chains' packed sums; counting to 3 by
    /// walking the chains must agree with it everywhere.
    #[test]
    fn the_self_atari_shortcut_agrees_with_walking_the_chains() {
        use rand::{Rng, SeedableRng};
        let mut checked = 0;
        for seed in 0..20 {
            let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
            let mut b = Board::new(7 + (seed as usize % 3) * 2).expect("a legal size");
            for turn in 0..200 {
                let empties: Vec<Point> = b.points().filter(|&p| b.is_empty_at(p)).collect();
                if empties.is_empty() {
                    break;
                }
                let c = if turn % 2 == 0 {
                    Color::Black
                } else {
                    Color::White
                };
                let _ = b.place(c, empties[rng.gen_range(0..empties.len())], false);
                for &p in &empties {
                    if !b.is_empty_at(p) {
                        continue;
                    }
                    for c in [Color::Black, Color::White] {
                        let walked = b.move_shape(c, p, 3);
                        let expected = MoveShape {
                            liberties: walked.liberties.min(2),
                            ..walked
                        };
                        assert_eq!(b.move_shape(c, p, 2), expected, "seed {seed} {p:?}");
                        checked += 1;
                    }
                }
            }
        }
        assert!(checked > 10_000);
    }

    #[test]
    fn self_atari_is_told_from_a_safe_move_and_a_capture() {
        let b = Board::from_ascii(
            "
            . . . .
            O . . .
            . . . .
            X O . .",
        )
        .unwrap();
        let connect = b.move_shape(Color::Black, at(&b, "A2"), 3);
        assert_eq!((connect.liberties, connect.chain_len), (1, 2));
        assert!(connect.is_self_atari());
        let open = b.move_shape(Color::Black, at(&b, "B2"), 3);
        assert_eq!((open.liberties, open.chain_len), (3, 1));
        assert!(!open.is_self_atari());
        let capture = b.move_shape(Color::White, at(&b, "A2"), 3);
        // A1 freed, B2, and the joined A3 stone's A4 and B3: capped at 3.
        assert_eq!((capture.captures, capture.liberties), (1, 3));
        assert!(!capture.is_self_atari());
    }

    #[test]
    fn a_snapback_is_told_from_a_stone_given_away() {
        // Black A1 or B1 is taken at the other point, and White's five
        // stones are then in atari on the point they took back.
        let snapback = Board::from_ascii(
            "
            . . . . .
            . . . . .
            X X X X .
            O O O X .
            . . O X .",
        )
        .unwrap();
        assert!(snapback.sets_snapback(Color::Black, at(&snapback, "A1")));
        assert!(snapback.sets_snapback(Color::Black, at(&snapback, "B1")));
        // With A3 open, White taking keeps a second liberty there.
        let open = Board::from_ascii(
            "
            . . . . .
            . . . . .
            . X X X .
            O O O X .
            . . O X .",
        )
        .unwrap();
        assert!(!open.sets_snapback(Color::Black, at(&open, "B1")));
        // A lone white stone taking is only a ko, and a stone with room
        // to breathe is no throw-in at all.
        let ko = Board::from_ascii(
            "
            . . . . . .
            . . . . . .
            . . . . . .
            . . X . . .
            . X . X . .
            O O . O O .",
        )
        .unwrap();
        assert!(!ko.sets_snapback(Color::White, at(&ko, "C2")));
        assert!(ko
            .move_shape(Color::White, at(&ko, "C2"), 2)
            .is_self_atari());
        assert!(!snapback.sets_snapback(Color::Black, at(&snapback, "E1")));
    }

    #[test]
    fn a_capture_frees_the_captured_point() {
        let b = Board::from_ascii(
            "
            . . . .
            . . . .
            X O X .
            . X . .",
        )
        .unwrap();
        let s = b.move_shape(Color::Black, at(&b, "B3"), 8);
        assert_eq!(s.captures, 1);
        assert_eq!(s.liberties, 4, "A3, C3, B4 and the captured B2");
    }

    #[test]
    fn escapes_by_capturing_the_attacker() {
        let b = Board::from_ascii(
            "
            . . . . .
            . . . . .
            . X O . .
            X O X O .
            . . . . .",
        )
        .unwrap();
        assert!(b.in_atari(at(&b, "C2")));
        let mut out = Vec::new();
        b.capturing_escapes(at(&b, "C2"), &mut out);
        assert_eq!(out, vec![at(&b, "B1")]);
    }

    #[test]
    fn two_liberties_are_found_only_when_there_are_exactly_two() {
        let b = Board::from_ascii(
            "
            . . . . .
            . . . . .
            O . . . .
            X X O . .
            . O . . .",
        )
        .unwrap();
        let sorted = |v: &str| {
            b.two_liberties(at(&b, v)).map(|mut l| {
                l.sort_by_key(|p| p.0);
                l
            })
        };
        assert_eq!(sorted("A2"), Some([at(&b, "A1"), at(&b, "B3")]));
        assert_eq!(sorted("B1"), Some([at(&b, "A1"), at(&b, "C1")]));
        let lone = Board::from_ascii(". O\n. X").unwrap();
        assert_eq!(lone.two_liberties(at(&lone, "B1")), None, "one liberty");
        assert_eq!(b.two_liberties(at(&b, "C2")), None, "three liberties");
        assert_eq!(b.two_liberties(at(&b, "E5")), None, "an empty point");
    }

    #[test]
    fn neighbourhood_code_sees_the_edge() {
        let b = Board::from_ascii(
            "
            . . .
            . X .
            O . .",
        )
        .unwrap();
        let code = b.neighbourhood_code(at(&b, "A2"));
        // Top-left, left and bottom-left are off board; right is black; bottom is white.
        assert_eq!(code, 3 | 3 << 6 | 1 << 8 | 3 << 10 | 2 << 12);
    }
}
