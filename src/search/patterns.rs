//! MoGo-style 3×3 shapes around a candidate move (hane, cut, edge moves),
//! compiled once into a bit table indexed by [`Board::neighbourhood_code`].
//!
//! The shapes are those described for MoGo (Gelly, Wang, Munos, Teytaud
//! 2006). Each is matched in all eight orientations and with the colours
//! swapped, so a match says "this is a good shape point for whoever moves".
//!
//! [`Board::neighbourhood_code`]: crate::board::Board::neighbourhood_code

use std::sync::OnceLock;

/// Rows from the top; the centre is the move. `X`, `O`: stones of either
/// colour (both assignments are tried); `.` empty; `x` not X (O or empty);
/// `o` not O; `#` off board; `?` anything.
const SHAPES: &[[&str; 3]] = &[
    // Hane: enclosing, non-cutting, magari, thin.
    ["XOX", "...", "???"],
    ["XO.", "...", "?.?"],
    ["XO?", "X..", "?.?"],
    ["XOO", "...", "?.?"],
    // Cut: the diagonal cut, and pushing between two stones.
    ["XO?", "O.o", "?o?"],
    ["?X?", "O.O", "xxx"],
    // On the first line: chase along the edge, block, connect underneath, sagari, cut.
    ["X.?", "O.?", "###"],
    ["OX?", "X.O", "###"],
    ["?X?", "x.O", "###"],
    ["?XO", "x.x", "###"],
    ["?OX", "X.O", "###"],
];

const EMPTY: u8 = 1 << 0;
const BLACK: u8 = 1 << 1;
const WHITE: u8 = 1 << 2;
const EDGE: u8 = 1 << 3;

/// The 3×3 offsets of the eight neighbourhood cells, in code order.
pub(super) const CELLS: [(i32, i32); 8] = [
    (-1, 1),
    (0, 1),
    (1, 1),
    (-1, 0),
    (1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
];

/// The values a shape symbol allows, with `X` meaning `x_is` (Black or White).
fn allowed(symbol: u8, x_is: u8) -> u8 {
    let o_is = x_is ^ (BLACK | WHITE);
    match symbol {
        b'X' => x_is,
        b'O' => o_is,
        b'.' => EMPTY,
        b'x' => o_is | EMPTY,
        b'o' => x_is | EMPTY,
        b'#' => EDGE,
        _ => EMPTY | BLACK | WHITE | EDGE,
    }
}

/// The eight rotations and reflections of the square.
pub(super) fn orient(k: usize, (x, y): (i32, i32)) -> (i32, i32) {
    let (x, y) = if k & 4 != 0 { (y, x) } else { (x, y) };
    let x = if k & 1 != 0 { -x } else { x };
    let y = if k & 2 != 0 { -y } else { y };
    (x, y)
}

fn set_every_code(masks: &[u8; 8], k: usize, code: u16, table: &mut [u64; 1024]) {
    if k == 8 {
        table[code as usize >> 6] |= 1 << (code & 63);
        return;
    }
    for (value, bit) in [EMPTY, BLACK, WHITE, EDGE].into_iter().enumerate() {
        if masks[k] & bit != 0 {
            set_every_code(masks, k + 1, code | (value as u16) << (2 * k), table);
        }
    }
}

fn build() -> [u64; 1024] {
    let mut table = [0u64; 1024];
    for shape in SHAPES {
        let symbol_at = |(x, y): (i32, i32)| shape[(1 - y) as usize].as_bytes()[(x + 1) as usize];
        for k in 0..8 {
            for x_is in [BLACK, WHITE] {
                let mut masks = [0u8; 8];
                for (slot, &cell) in CELLS.iter().enumerate() {
                    // The shape cell that lands on this neighbourhood cell.
                    let source = (0..8)
                        .map(|i| CELLS[i])
                        .find(|&c| orient(k, c) == cell)
                        .unwrap_or(cell);
                    masks[slot] = allowed(symbol_at(source), x_is);
                }
                set_every_code(&masks, 0, 0, &mut table);
            }
        }
    }
    table
}

static TABLE: OnceLock<[u64; 1024]> = OnceLock::new();

/// True when the neighbourhood code matches one of the shapes.
#[inline]
pub fn is_good_shape(code: u16) -> bool {
    let table = TABLE.get_or_init(build);
    table[code as usize >> 6] & (1 << (code & 63)) != 0
}

/// Builds the table now rather than inside the first timed playout.
pub fn warm_up() {
    TABLE.get_or_init(build);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{coord::parse_vertex, Board};

    fn shape_at(diagram: &str, v: &str) -> bool {
        let b = Board::from_ascii(diagram).unwrap();
        let p = parse_vertex(v, b.size()).unwrap().unwrap();
        is_good_shape(b.neighbourhood_code(p))
    }

    #[test]
    fn hane_matches_in_every_orientation_and_colour() {
        let hane = "
            . . . . .
            . X O X .
            . . . . .
            . . . . .
            . . . . .";
        assert!(shape_at(hane, "C3"));
        let rotated = "
            . . . . .
            . . . . .
            . . . O .
            . . . X .
            . . . O .";
        assert!(shape_at(rotated, "C2"));
    }

    #[test]
    fn empty_and_plain_extensions_do_not_match() {
        let empty = "
            . . .
            . . .
            . . .";
        assert!(!shape_at(empty, "B2"));
        let lone = "
            . . . . .
            . . . . .
            . . X . .
            . . . . .
            . . . . .";
        assert!(!shape_at(lone, "C2"));
    }

    #[test]
    fn edge_shapes_need_the_edge() {
        let connect_underneath = "
            . . . . .
            . . . . .
            . . . . .
            . . X . .
            . . . O .";
        assert!(shape_at(connect_underneath, "C1"));
        let same_in_the_middle = "
            . . . . .
            . . X . .
            . . . O .
            . . . . .
            . . . . .";
        assert!(!shape_at(same_in_the_middle, "C3"));
    }
}
