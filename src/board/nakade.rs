//! Eye shapes that make only one eye (nakade): the small enclosed spaces
//! where the side that plays the vital point first kills, and the
//! sacrifices that leave such a space behind. Random playouts never find
//! these by themselves: filling an eye space means putting two or more
//! stones in atari, which the heavy policy otherwise forbids, so a group
//! with a three-point eye looked alive in every playout.

use super::{Bitboard, Board, Color, Point};

/// The largest eye space that can be dead however it is shaped (rabbity six).
const LARGEST_NAKADE: u32 = 6;

impl Board {
    /// The vital point of `region` (4-connected, at most six points) when
    /// it is an eye shape that makes one eye if the attacker plays there
    /// first: any shape of up to three points, square and pyramid four,
    /// bulky and crossed five, rabbity six. `None` for the shapes that make
    /// two eyes whoever moves (straight and bent four, and the other fives
    /// and sixes) and for anything larger. Corner effects (bent four in the
    /// corner) are ignored.
    pub fn nakade_vital_point(&self, region: &Bitboard) -> Option<Point> {
        let size = region.count();
        if size == 0 || size > LARGEST_NAKADE {
            return None;
        }
        let mut vital = None;
        let mut most = 0;
        let mut degrees = 0;
        for p in region.iter() {
            let degree = self
                .neighbours(Point(p))
                .into_iter()
                .filter(|&q| region.contains(q))
                .count() as u32;
            degrees += degree;
            if vital.is_none() || degree > most {
                vital = Some(Point(p));
                most = degree;
            }
        }
        let edges = degrees / 2;
        // A cycle of adjacencies (edges >= size) in so few points is a 2×2
        // square: square four, bulky five, rabbity six.
        let dead = match size {
            1..=3 => true,
            4 => most == 3 || edges == 4,
            5 => most == 4 || edges == 5,
            _ => most == 4 && edges == 6,
        };
        dead.then_some(vital).flatten()
    }

    /// `c` at `p` fills an opposing eye space up to its last point, putting
    /// the filling chain (two to six stones) in atari, and the space it will
    /// leave when captured is a dead shape. A sacrifice that kills when the
    /// space is the opponent's only eye, where an ordinary self-atari only
    /// gives stones away. The caller knows the move is a self-atari.
    pub fn is_nakade_sacrifice(&self, c: Color, p: Point) -> bool {
        // Playouts ask this of every self-atari they consider, so no
        // bitboards until the chain's size is known and its last liberty
        // is known to be closed in: the chain's other neighbours are
        // opposing stones, or they would be liberties too.
        let mut own_chains = [None; 4];
        let mut size = 1;
        for (k, q) in self.neighbours(p).into_iter().enumerate() {
            let q = Point(q);
            if self.color_at(q) == Some(c) && !own_chains.contains(&Some(self.chain_id(q))) {
                own_chains[k] = Some(self.chain_id(q));
                size += self.chain_len(q);
            }
        }
        if !(2..=LARGEST_NAKADE).contains(&size) {
            return false;
        }
        let Some(last_liberty) = self.last_liberty_after(c, p) else {
            return false;
        };
        let closed = self.neighbours(last_liberty).into_iter().all(|q| {
            let q = Point(q);
            q == p
                || match self.color_at(q) {
                    None => !self.is_empty_at(q),
                    Some(owner) => owner != c || own_chains.contains(&Some(self.chain_id(q))),
                }
        });
        if !closed {
            return false;
        }
        let mut chain = Bitboard::single(p.0);
        for q in self.neighbours(p) {
            if self.color_at(Point(q)) == Some(c) && !chain.contains(q) {
                chain |= self.chain_stones(Point(q));
            }
        }
        self.nakade_vital_point(&chain).is_some()
            && !self
                .walls(&chain, c.opponent())
                .has_another_eye(self, &chain, last_liberty)
    }

    /// The stones of every `owner` chain touching a point of `points`,
    /// from their stone lists (the playouts ask this of every closed-in
    /// self-atari of two or three stones, so no flood fill).
    pub fn chains_next_to(&self, points: &Bitboard, owner: Color) -> Bitboard {
        let mut stones = Bitboard::EMPTY;
        for s in points.iter() {
            for q in self.neighbours(Point(s)) {
                if self.color_at(Point(q)) == Some(owner) && !stones.contains(q) {
                    stones |= self.chain_stones(Point(q));
                }
            }
        }
        stones
    }

    /// The chains of `owner` around `space`.
    fn walls(&self, space: &Bitboard, owner: Color) -> Walls {
        Walls {
            stones: self.chains_next_to(space, owner),
            owner,
        }
    }

    /// The dead shape a sacrifice leaves in `space` (the stones `owner`
    /// captures at `capture`) kills nothing, as the dead-stone judgement
    /// sees it: some chain of `owner` around the space has an eye-like
    /// liberty elsewhere, so the space becomes its second eye; or a chain
    /// around it that the capture does not join has a liberty outside it,
    /// so the empty space links the capturer to a chain that reaches out
    /// (the sacrifice breaks a seki of the capturer and the sacrificed
    /// stones, which share their liberties). The playouts ask only the
    /// first: with the second, they also spared invaders whose eye space
    /// is walled by several chains, which then lived in too many playouts
    /// (RESEARCH.md, Sekis the sacrifices broke).
    pub fn sacrifice_spares_the_walls(
        &self,
        space: &Bitboard,
        owner: Color,
        capture: Point,
    ) -> bool {
        let walls = self.walls(space, owner);
        if walls.has_another_eye(self, space, capture) {
            return true;
        }
        let joined = self.chains_next_to(&Bitboard::single(capture.0), owner);
        let stride = self.stride();
        let outside = walls.liberties_outside(self, space, capture);
        !(walls.stones.and_not(&joined).neighbours(stride) & outside).is_empty()
    }

    /// The one liberty the chain through `c` at `p` keeps, the move being
    /// a self-atari: an empty neighbour of `p`, or the liberty other than
    /// `p` of a neighbouring own chain.
    pub fn last_liberty_after(&self, c: Color, p: Point) -> Option<Point> {
        let neighbours = self.neighbours(p).map(Point);
        if let Some(&q) = neighbours.iter().find(|&&q| self.is_empty_at(q)) {
            return Some(q);
        }
        neighbours
            .iter()
            .filter(|&&q| self.color_at(q) == Some(c))
            .find_map(|&q| {
                let [a, b] = self.two_liberties(q)?;
                Some(if a == p { b } else { a })
            })
    }

    /// The vital point of the empty space next to `last` when that space is
    /// enclosed by `last`'s colour and dead in shape: right after `last`
    /// captured a sacrifice, or closed an eye space too small, playing
    /// there at once is how the other side kills.
    pub fn vital_point_next_to(&self, last: Point) -> Option<Point> {
        let owner = self.color_at(last)?;
        let seed = Bitboard::single(last.0).neighbours(self.stride());
        self.vital_point_of_dead_space_from(seed, &self.empty_points(), owner)
    }

    /// [`Board::vital_point_next_to`] asking each empty space beside
    /// `last` on its own: a move that closes an eye space often also
    /// touches the open board, and the two together are no eye shape.
    pub fn vital_point_beside(&self, last: Point) -> Option<Point> {
        let owner = self.color_at(last)?;
        let empty = self.empty_points();
        self.neighbours(last)
            .into_iter()
            .find_map(|q| self.vital_point_of_dead_space_from(Bitboard::single(q), &empty, owner))
    }

    /// The vital point of the empty space grown from `seed` when it holds
    /// three to six points, all enclosed by `owner`'s stones, in a shape
    /// that makes one eye.
    fn vital_point_of_dead_space_from(
        &self,
        seed: Bitboard,
        empty: &Bitboard,
        owner: Color,
    ) -> Option<Point> {
        // Most spaces next to a move are the open board: given up early.
        let space = seed.flood_fill_at_most(empty, self.stride(), LARGEST_NAKADE)?;
        let size = space.count();
        if !(3..=LARGEST_NAKADE).contains(&size) || !self.enclosed_by(&space, owner) {
            return None;
        }
        self.nakade_vital_point(&space)
    }

    /// Every on-board point next to `region` holds a stone of `owner`.
    pub fn enclosed_by(&self, region: &Bitboard, owner: Color) -> bool {
        let border = (region.neighbours(self.stride()) & *self.on_board()).and_not(region);
        border.and_not(self.stones(owner)).is_empty()
    }
}

/// The chains around an eye space that a sacrifice fills.
struct Walls {
    stones: Bitboard,
    owner: Color,
}

impl Walls {
    /// Their liberties other than the space and the capture point.
    fn liberties_outside(&self, board: &Board, space: &Bitboard, capture: Point) -> Bitboard {
        let mut outside =
            (self.stones.neighbours(board.stride()) & board.empty_points()).and_not(space);
        outside.clear(capture.0);
        outside
    }

    /// One of those liberties is eye-like for their owner.
    fn has_another_eye(&self, board: &Board, space: &Bitboard, capture: Point) -> bool {
        self.liberties_outside(board, space, capture)
            .iter()
            .any(|q| board.is_eye_like(self.owner, Point(q)))
    }
}

#[cfg(test)]
mod tests {
    use crate::board::coord::vertex_name;
    use crate::board::test_point as at;
    use crate::board::{Bitboard, Board, Color};

    /// The points marked `*` in `diagram` (read as empty), and the board.
    fn region(diagram: &str) -> (Board, Bitboard) {
        let board = Board::from_ascii(&diagram.replace('*', ".")).unwrap();
        let mut marked = Bitboard::EMPTY;
        let rows: Vec<&str> = diagram.lines().filter(|l| !l.trim().is_empty()).collect();
        for (row, line) in rows.iter().enumerate() {
            for (x, cell) in line.split_whitespace().enumerate() {
                if cell == "*" {
                    let y = rows.len() - 1 - row;
                    marked.set(board.point(x, y).unwrap().0);
                }
            }
        }
        (board, marked)
    }

    fn vital(diagram: &str) -> Option<String> {
        let (board, space) = region(diagram);
        board
            .nakade_vital_point(&space)
            .map(|p| vertex_name(p, board.size()))
    }

    #[test]
    fn three_point_spaces_die_at_their_middle() {
        let straight = "
            . . . . .
            . . . . .
            . . . . .
            . * * * .
            . . . . .";
        assert_eq!(vital(straight).as_deref(), Some("C2"));
        let bent = "
            . . . . .
            . . . . .
            . . . . .
            . * * . .
            . . * . .";
        assert_eq!(vital(bent).as_deref(), Some("C2"));
    }

    #[test]
    fn pyramid_and_square_four_are_dead_straight_and_bent_four_alive() {
        let pyramid = "
            . . . . .
            . . . . .
            . . . . .
            . * * * .
            . . * . .";
        assert_eq!(vital(pyramid).as_deref(), Some("C2"));
        let square = "
            . . . .
            . . . .
            . * * .
            . * * .";
        assert!(vital(square).is_some());
        let straight = "
            . . . . . .
            . . . . . .
            . . . . . .
            . . . . . .
            . * * * * .
            . . . . . .";
        assert_eq!(vital(straight), None);
        let bent = "
            . . . . .
            . . . . .
            . . . . .
            . * * * .
            . * . . .";
        assert_eq!(vital(bent), None);
    }

    #[test]
    fn bulky_and_crossed_five_and_rabbity_six_are_dead() {
        let bulky = "
            . . . . .
            . . . . .
            . * * . .
            . * * * .
            . . . . .";
        assert_eq!(vital(bulky).as_deref(), Some("C2"));
        let cross = "
            . . . . .
            . . . . .
            . . * . .
            . * * * .
            . . * . .";
        assert_eq!(vital(cross).as_deref(), Some("C2"));
        let rabbity = "
            . . . . .
            . . . . .
            . . * . .
            . * * * .
            . . * * .";
        assert_eq!(vital(rabbity).as_deref(), Some("C2"));
        let long_l = "
            . . . . . .
            . . . . . .
            . . . . . .
            . * . . . .
            . * * * * .
            . . . . . .";
        assert_eq!(vital(long_l), None);
        let six_in_a_row = "
            . . . . . . . .
            . . . . . . . .
            . . . . . . . .
            . . . . . . . .
            . . . . . . . .
            . . . . . . . .
            . . . . . . . .
            . * * * * * * .";
        assert_eq!(vital(six_in_a_row), None);
    }

    /// Whether Black at `vertex` in `diagram` is a nakade sacrifice; the
    /// move is checked to be a self-atari first, as callers know it is.
    fn black_sacrifices(diagram: &str, vertex: &str) -> bool {
        let board = Board::from_ascii(diagram).unwrap();
        let p = at(&board, vertex);
        assert!(
            board.move_shape(Color::Black, p, 2).is_self_atari(),
            "Black {vertex} is no self-atari"
        );
        board.is_nakade_sacrifice(Color::Black, p)
    }

    #[test]
    fn filling_a_pyramid_eye_to_its_last_point_is_a_killing_sacrifice() {
        // White's eye space is the pyramid B1 C1 D1 C2; Black holds C1 and
        // C2. Black D1 puts three stones in atari: once White captures at
        // B1, the bent three left behind dies at C1.
        let diagram = "
            . . . . . .
            . . . . . .
            . . . . . .
            O O O O O .
            O O X O O .
            O . X . O .";
        assert!(black_sacrifices(diagram, "D1"));
        assert!(black_sacrifices(diagram, "B1"));
    }

    #[test]
    fn filling_an_eye_space_of_a_group_with_another_eye_kills_nothing() {
        // The pyramid of the test above, but White has a second eye at F1:
        // the bent three Black's capture leaves behind is White's other
        // eye, and D1 or B1 only gives three stones away.
        let diagram = "
            . . . . . . .
            . . . . . . .
            . . . . . . .
            . . . . . . .
            O O O O O O O
            O O X O O O O
            O . X . O . O";
        assert!(!black_sacrifices(diagram, "D1"));
        assert!(!black_sacrifices(diagram, "B1"));
    }

    #[test]
    fn a_self_atari_whose_liberty_leads_outside_is_no_sacrifice() {
        // D1 opens onto D2: the space is not White's eye, and C1 only
        // throws two stones away.
        let diagram = "
            . . . . . .
            . . . . . .
            . . . . . .
            . . . . . .
            O O O . O .
            O X . . O .";
        assert!(!black_sacrifices(diagram, "C1"));
    }

    #[test]
    fn filling_a_straight_five_leaves_a_live_straight_four() {
        let straight_five = "
            . . . . . . .
            . . . . . . .
            . . . . . . .
            . . . . . . .
            . . . . . . .
            O O O O O O O
            O X X X . . O";
        assert!(!black_sacrifices(straight_five, "E1"));
        // One point shorter, the same fill leaves a dead straight three.
        let straight_four = "
            . . . . . .
            . . . . . .
            . . . . . .
            . . . . . .
            O O O O O O
            O X X . . O";
        assert!(black_sacrifices(straight_four, "D1"));
    }

    #[test]
    fn a_lone_stone_thrown_in_is_no_chain_sacrificed() {
        // Black B1 is a throw-in into White's two-point eye: one stone.
        let diagram = "
            . . . .
            . . . .
            O O O O
            O . . O";
        assert!(!black_sacrifices(diagram, "B1"));
    }

    #[test]
    fn the_vital_point_of_the_space_a_capture_left_is_found() {
        // White E1 has just captured Black's B1 C1 D1: the straight three
        // left behind dies at C1.
        let board = Board::from_ascii(
            "
            . . . . . .
            . . . . . .
            . . . . . .
            . . . . . .
            O O O O O O
            O . . . O O",
        )
        .unwrap();
        assert_eq!(
            board.vital_point_next_to(at(&board, "E1")),
            Some(at(&board, "C1"))
        );
        // A space that opens to the outside is no eye.
        let board = Board::from_ascii(
            "
            . . . . . .
            . . . . . .
            . . . . . .
            . . . . . .
            O O O . O O
            O . . . O O",
        )
        .unwrap();
        assert_eq!(board.vital_point_next_to(at(&board, "E1")), None);
        assert_eq!(board.vital_point_beside(at(&board, "E1")), None);
    }

    #[test]
    fn a_space_closed_beside_the_open_board_is_judged_on_its_own() {
        // Black D1 closes the straight three A1 B1 C1 and also touches the
        // open board at E1: together the two spaces are no eye shape,
        // alone the three dies at B1.
        let board = Board::from_ascii(
            "
            . . . . . .
            . . . . . .
            . . . . . .
            . . . . . .
            X X X X . .
            . . . X . .",
        )
        .unwrap();
        let d1 = at(&board, "D1");
        assert_eq!(board.vital_point_next_to(d1), None);
        assert_eq!(board.vital_point_beside(d1), Some(at(&board, "B1")));
        // With a second space of four beside it, the dead three is still found.
        let board = Board::from_ascii(
            "
            . . . . . .
            . . . . . .
            . . . . X X
            . . . . X .
            X X X X X .
            . . . X . .",
        )
        .unwrap();
        let d1 = at(&board, "D1");
        assert_eq!(board.vital_point_beside(d1), Some(at(&board, "B1")));
    }
}
