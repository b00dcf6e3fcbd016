//! Symmetric positions: on a board that a rotation or reflection maps onto
//! itself (the empty board, tengen alone, a mirrored opening), moves that
//! the same symmetry maps onto each other are the same move. The search
//! keeps one of each such set, so the playouts are not split between
//! copies of one move; this matters in the opening, where a short search
//! otherwise picks among near-equal moves by the luck of its playouts.

use super::book::transform;
use crate::board::{Board, Point};

/// The image of `p` under symmetry `s` (0 is the identity; the book's
/// numbering).
fn map(board: &Board, s: usize, p: Point) -> Point {
    let (x, y) = board.xy(p);
    // Boards are at most 25 points wide.
    let (x, y) = transform((x as u8, y as u8), s, board.size());
    // An image of an on-board point is on the board.
    board.point(x as usize, y as usize).unwrap_or(p)
}

/// The symmetries other than the identity that leave the stones and the
/// ko point as they are.
pub fn of(board: &Board) -> Vec<usize> {
    let n = board.size();
    (1..8)
        .filter(|&s| {
            board.ko_point().is_none_or(|k| map(board, s, k) == k)
                && (0..n).all(|y| {
                    (0..n).all(|x| match board.point(x, y) {
                        Ok(p) => board.color_at(p) == board.color_at(map(board, s, p)),
                        Err(_) => true,
                    })
                })
        })
        .collect()
}

/// `p` is the one move kept of those `symmetries` map it to: the one
/// with the smallest index. `allowed` says which moves may be played.
pub fn is_kept(
    board: &Board,
    symmetries: &[usize],
    p: Point,
    allowed: impl Fn(Point) -> bool,
) -> bool {
    symmetries.iter().all(|&s| {
        let q = map(board, s, p);
        q.0 >= p.0 || !allowed(q)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::coord::parse_vertex;
    use crate::board::Color;

    fn kept_moves(board: &Board) -> usize {
        let symmetries = of(board);
        board
            .empties()
            .iter()
            .filter(|&&e| is_kept(board, &symmetries, Point(e as usize), |_| true))
            .count()
    }

    #[test]
    fn the_empty_board_has_every_symmetry_and_fifteen_moves_on_9x9() {
        let board = Board::new(9).unwrap();
        assert_eq!(of(&board).len(), 7);
        // Points of one eighth of the board: 5 + 4 + 3 + 2 + 1.
        assert_eq!(kept_moves(&board), 15);
    }

    #[test]
    fn tengen_keeps_every_symmetry_and_a_stone_off_the_axes_breaks_them() {
        let mut board = Board::new(9).unwrap();
        let at = |v: &str| parse_vertex(v, 9).unwrap().unwrap();
        board.place_unchecked(Color::Black, at("E5"));
        assert_eq!(of(&board).len(), 7);
        assert_eq!(kept_moves(&board), 14);
        // C5 lies on the line through the centre: the reflection in it stays.
        board.place_unchecked(Color::White, at("C5"));
        assert_eq!(of(&board).len(), 1);
        board.place_unchecked(Color::Black, at("C4"));
        assert!(of(&board).is_empty());
        assert_eq!(kept_moves(&board), 78);
    }

    #[test]
    fn a_move_whose_images_may_not_be_played_is_kept() {
        let board = Board::new(9).unwrap();
        let symmetries = of(&board);
        let at = |v: &str| parse_vertex(v, 9).unwrap().unwrap();
        let corners = [at("C3"), at("C7"), at("G3"), at("G7")];
        let kept = |allowed: &dyn Fn(Point) -> bool| {
            corners
                .iter()
                .filter(|&&p| allowed(p) && is_kept(&board, &symmetries, p, allowed))
                .count()
        };
        assert_eq!(kept(&|_| true), 1, "one 3-3 point of the four");
        // Superko might forbid three of them: the fourth stays.
        for only in corners {
            assert_eq!(kept(&|q| q == only), 1);
        }
    }
}
