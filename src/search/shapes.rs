//! Learned 3×3 shapes: the eight points around a candidate move, seen from
//! the player to move, with the atari status of the four adjacent chains,
//! and how often strong players chose a move of that shape when it was on
//! the board.
//!
//! The counts in `shapes.txt` come from game records (see the README for
//! how to make them again with `examples/learn_shapes.rs`); a shape's
//! *strength* is its choice rate over the average choice rate, turned into
//! a share between 0 and 1 that the tree priors use as a win rate.

use super::patterns::{orient, CELLS};
use crate::board::{Board, Color, Point};
use std::sync::OnceLock;

/// Bits of a shape key: two per neighbour cell (empty, own, opponent,
/// edge) and one atari mark per orthogonal neighbour.
pub const KEY_BITS: u32 = 20;
const KEYS: usize = 1 << KEY_BITS;

/// The cells (indices into [`CELLS`]) that touch the move.
const ORTHOGONAL: [usize; 4] = [1, 3, 4, 6];

/// The raw shape key of `c` playing at `p`: not reduced by symmetry.
#[inline]
pub fn shape_key(board: &Board, c: Color, p: Point) -> u32 {
    let code = board.neighbourhood_code(p) as u32;
    // The board codes Black 1 and White 2; the key codes own 1, opponent 2.
    let key = if c == Color::White {
        let black = code & 0x5555 & !(code >> 1);
        let white = (code >> 1) & 0x5555 & !code;
        code & !(black | white << 1) | black << 1 | white
    } else {
        code
    };
    let ataris = board
        .neighbours(p)
        .into_iter()
        .enumerate()
        .fold(0u32, |acc, (k, q)| {
            let q = Point(q);
            let marked = board.color_at(q).is_some() && board.in_atari(q);
            acc | (marked as u32) << k
        });
    // `neighbours` lists south, west, east, north; the key keeps the
    // marks in cell order (north, west, east, south).
    let ataris = (ataris & 0b0110) | (ataris & 1) << 3 | (ataris >> 3) & 1;
    key | ataris << 16
}

/// Where cell `slot` of a shape lands under symmetry `k` (one of the eight
/// rotations and reflections).
fn image(k: usize, slot: usize) -> usize {
    let target = orient(k, CELLS[slot]);
    CELLS
        .iter()
        .position(|&c| c == target)
        .expect("a symmetry of the square maps a neighbour cell to a neighbour cell")
}

/// `key` under symmetry `k`.
fn transform(key: u32, k: usize) -> u32 {
    let mut out = 0;
    for slot in 0..8 {
        out |= (key >> (2 * slot) & 3) << (2 * image(k, slot));
    }
    for (bit, &slot) in ORTHOGONAL.iter().enumerate() {
        if key >> (16 + bit) & 1 != 0 {
            let to = ORTHOGONAL
                .iter()
                .position(|&s| s == image(k, slot))
                .expect("a symmetry maps an orthogonal cell to an orthogonal cell");
            out |= 1 << (16 + to);
        }
    }
    out
}

/// The eight symmetric forms of `key`.
pub fn symmetries(key: u32) -> [u32; 8] {
    std::array::from_fn(|k| transform(key, k))
}

/// The smallest of the symmetric forms: one name for all eight.
pub fn canonical(key: u32) -> u32 {
    symmetries(key).into_iter().min().unwrap_or(key)
}

/// Counts of one shape in the game records.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ShapeCount {
    pub key: u32,
    /// Moves played with this shape.
    pub chosen: u64,
    /// Legal moves with this shape in the positions where a move was played.
    pub available: u64,
}

/// Parses `shapes.txt`: `#` comments, then `key chosen available` per line
/// (key in hex).
pub fn parse_counts(text: &str) -> Result<Vec<ShapeCount>, String> {
    let mut counts = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let bad = || format!("shapes line {}: '{line}'", n + 1);
        let mut fields = line.split_whitespace();
        let key = fields
            .next()
            .and_then(|f| u32::from_str_radix(f, 16).ok())
            .filter(|&k| (k as usize) < KEYS)
            .ok_or_else(bad)?;
        let chosen = fields.next().and_then(|f| f.parse().ok()).ok_or_else(bad)?;
        let available: u64 = fields.next().and_then(|f| f.parse().ok()).ok_or_else(bad)?;
        if chosen > available || fields.next().is_some() {
            return Err(bad());
        }
        counts.push(ShapeCount {
            key,
            chosen,
            available,
        });
    }
    Ok(counts)
}

/// Pseudo-moves of average choice rate added to every shape, so that a
/// shape seen a few times is not judged on those few.
const SMOOTHING: f64 = 4.0;

/// Strengths between 0 and 255 for every raw key: a shape chosen at the
/// average rate gets 128, one never chosen near 0, one almost always
/// chosen near 255; a shape missing from the counts is average.
pub struct ShapeTable {
    strength: Box<[u8]>,
}

impl ShapeTable {
    pub fn from_counts(counts: &[ShapeCount]) -> ShapeTable {
        let chosen: u64 = counts.iter().map(|c| c.chosen).sum();
        let available: u64 = counts.iter().map(|c| c.available).sum();
        let mean = if available == 0 {
            1.0
        } else {
            chosen as f64 / available as f64
        };
        let mut strength = vec![128u8; KEYS].into_boxed_slice();
        for c in counts {
            let rate = (c.chosen as f64 + SMOOTHING * mean) / (c.available as f64 + SMOOTHING);
            let relative = rate / mean;
            let share = relative / (relative + 1.0);
            let value = (share * 255.0).round().clamp(0.0, 255.0) as u8;
            for key in symmetries(c.key) {
                strength[key as usize] = value;
            }
        }
        ShapeTable { strength }
    }

    /// The strength of a raw key, 128 for an average shape.
    #[inline]
    pub fn strength(&self, key: u32) -> u8 {
        self.strength[key as usize & (KEYS - 1)]
    }
}

static TABLE: OnceLock<ShapeTable> = OnceLock::new();

/// The table built from the counts shipped with the engine.
pub fn table() -> &'static ShapeTable {
    TABLE.get_or_init(|| {
        let counts = parse_counts(include_str!("shapes.txt")).unwrap_or_else(|e| {
            log::error!("{e}; shapes are all average");
            Vec::new()
        });
        ShapeTable::from_counts(&counts)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::test_point as at;

    #[test]
    fn the_shipped_counts_parse() {
        let counts = parse_counts(include_str!("shapes.txt")).expect("shapes.txt parses");
        assert!(counts.len() > 1000, "only {} shapes", counts.len());
        assert!(counts.iter().all(|c| canonical(c.key) == c.key));
    }

    #[test]
    fn the_key_is_seen_from_the_mover_with_atari_marks() {
        // The black stone at B3 is in atari; the white stones beside it
        // are not, and diagonal cells carry no marks.
        let b = Board::from_ascii(
            "
            . O . .
            O X O .
            . . . .
            . . . .",
        )
        .unwrap();
        let black = shape_key(&b, Color::Black, at(&b, "B2"));
        let white = shape_key(&b, Color::White, at(&b, "B2"));
        // Seen from the other side, own and opponent swap; the marks stay.
        assert_eq!(black & 0xF_0000, white & 0xF_0000);
        assert_ne!(black & 0xFFFF, white & 0xFFFF);
        // North of B2 is the black stone in atari: mark bit 0.
        assert_eq!(black >> 16, 1);
        let swapped = |k: u32| {
            (0..8).fold(k & 0xF_0000, |acc, s| {
                let v = k >> (2 * s) & 3;
                let v = match v {
                    1 => 2,
                    2 => 1,
                    v => v,
                };
                acc | v << (2 * s)
            })
        };
        assert_eq!(swapped(black), white);
    }

    #[test]
    fn mirrored_positions_share_one_canonical_shape() {
        let left = Board::from_ascii(
            "
            . . . .
            X O . .
            . X . .
            . . . .",
        )
        .unwrap();
        let right = Board::from_ascii(
            "
            . . . .
            . . O X
            . . X .
            . . . .",
        )
        .unwrap();
        let a = shape_key(&left, Color::White, at(&left, "A2"));
        let b = shape_key(&right, Color::White, at(&right, "D2"));
        assert_ne!(a, b);
        assert_eq!(canonical(a), canonical(b));
        // A different shape stays different.
        let c = shape_key(&left, Color::White, at(&left, "C2"));
        assert_ne!(canonical(a), canonical(c));
    }

    #[test]
    fn a_shape_chosen_more_often_than_average_is_stronger() {
        let counts = [
            ShapeCount {
                key: 0,
                chosen: 10,
                available: 1000,
            },
            ShapeCount {
                key: canonical(1),
                chosen: 90,
                available: 100,
            },
        ];
        let t = ShapeTable::from_counts(&counts);
        assert!(t.strength(0) < 128);
        assert!(t.strength(canonical(1)) > 200);
        for key in symmetries(1) {
            assert_eq!(t.strength(key), t.strength(canonical(1)));
        }
        // Unlisted: average.
        assert_eq!(t.strength(canonical(2)), 128);
    }

    #[test]
    fn bad_lines_are_refused() {
        assert!(parse_counts("zz 1 2").is_err());
        assert!(parse_counts("10 5 2").is_err());
        assert!(parse_counts("fffff0 1 2").is_err());
        assert_eq!(parse_counts("# c\n\n1f 1 2\n").unwrap().len(), 1);
    }
}
