//! Learned 3×3 shapes: the eight points around a candidate move, seen from
//! the player to move, with the atari status of the four adjacent chains,
//! and how often strong players chose a move of that shape when it was on
//! the board.
//!
//! The counts in `shapes.txt` come from game records (see RESEARCH.md, Learned shapes, for
//! how to make them again with `examples/learn_shapes.rs`); a shape's
//! *strength* is its choice rate over the average choice rate, turned into
//! a share between 0 and 1 that the tree priors use as a win rate.

use super::patterns::{orient, CELLS};
use crate::board::{Board, Color, Point};
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
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

/// The four points two steps straight out from the move. With the 3×3
/// shape they make the *large* shape: Pachi's spatial pattern of
/// gridcular distance 4, one ring beyond the 3×3 square.
const OUTER: [(i32, i32); 4] = [(0, 2), (-2, 0), (2, 0), (0, -2)];

/// Bits of a large shape key: the 3×3 key, then two bits per outer cell.
pub const LARGE_KEY_BITS: u32 = KEY_BITS + 8;

/// The raw large-shape key of `c` playing at `p`: the 3×3 key in the low
/// [`KEY_BITS`] bits, the outer cells (empty 0, own 1, opponent 2, off
/// board 3) above.
#[inline]
pub fn large_key(board: &Board, c: Color, p: Point) -> u32 {
    let (x, y) = board.xy(p);
    let mut outer = 0;
    for (k, (dx, dy)) in OUTER.into_iter().enumerate() {
        let cell = match board.point((x as i32 + dx) as usize, (y as i32 + dy) as usize) {
            Err(_) => 3,
            Ok(q) => board.seen_by(c, q) as u32,
        };
        outer |= cell << (2 * k);
    }
    shape_key(board, c, p) | outer << KEY_BITS
}

/// The eight symmetric forms of a large key, in the order of [`symmetries`].
pub fn large_symmetries(key: u32) -> [u32; 8] {
    let small = symmetries(key & (KEYS as u32 - 1));
    std::array::from_fn(|k| {
        let mut outer = 0;
        for (slot, &cell) in OUTER.iter().enumerate() {
            let target = orient(k, cell);
            let to = OUTER
                .iter()
                .position(|&c| c == target)
                .expect("a symmetry of the square maps an outer cell to an outer cell");
            outer |= (key >> (KEY_BITS + 2 * slot as u32) & 3) << (2 * to);
        }
        small[k] | outer << KEY_BITS
    })
}

/// One name for all eight forms of a large key.
pub fn large_canonical(key: u32) -> u32 {
    large_symmetries(key).into_iter().min().unwrap_or(key)
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

/// Parses `shapes.txt` (or `large_shapes.txt`, with keys of `bits` bits):
/// `#` comments, then `key chosen available` per line (key in hex).
pub fn parse_counts(text: &str, bits: u32) -> Result<Vec<ShapeCount>, String> {
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
            .filter(|&k| (k as u64) < 1 << bits)
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

/// One shape's choice rate pulled towards `prior` by `weight` pseudo-moves.
fn smoothed_rate(c: &ShapeCount, prior: f64, weight: f64) -> f64 {
    (c.chosen as f64 + weight * prior) / (c.available as f64 + weight)
}

/// The choice rate over all shapes together.
fn mean_rate(counts: &[ShapeCount]) -> f64 {
    let chosen: u64 = counts.iter().map(|c| c.chosen).sum();
    let available: u64 = counts.iter().map(|c| c.available).sum();
    if available == 0 {
        1.0
    } else {
        chosen as f64 / available as f64
    }
}

/// A choice rate as a strength: `rate / mean` turned into a share of 255.
fn strength_of(rate: f64, mean: f64) -> u8 {
    let relative = rate / mean;
    let share = relative / (relative + 1.0);
    (share * 255.0).round().clamp(0.0, 255.0) as u8
}

impl ShapeTable {
    pub fn from_counts(counts: &[ShapeCount]) -> ShapeTable {
        let mean = mean_rate(counts);
        let mut strength = vec![128u8; KEYS].into_boxed_slice();
        for c in counts {
            let value = strength_of(smoothed_rate(c, mean, SMOOTHING), mean);
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

/// Pseudo-moves at the rate of its 3×3 shape added to every large shape:
/// a large shape seen a few times keeps the strength of its 3×3 core.
const LARGE_SMOOTHING: f64 = 10.0;

/// Strengths of the large shapes seen often enough in the records, every
/// symmetric form stored; any other large shape is as strong as its 3×3
/// core in `small`.
pub struct LargeShapeTable<'a> {
    small: &'a ShapeTable,
    strength: HashMap<u32, u8, BuildHasherDefault<KeyHasher>>,
}

/// A multiplicative hash for shape keys: the standard SipHash made the
/// lookups a fifth of the priors' time, and the keys come from the board,
/// not from an adversary.
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u32(b as u32);
        }
    }

    #[inline]
    fn write_u32(&mut self, n: u32) {
        let h = (self.0 ^ n as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        // Fold the high bits down: the table picks buckets by the low ones.
        self.0 = h ^ h >> 32;
    }

    #[inline]
    fn finish(&self) -> u64 {
        self.0
    }
}

impl<'a> LargeShapeTable<'a> {
    /// `small` is the 3×3 table made from `small_counts`.
    pub fn from_counts(
        small: &'a ShapeTable,
        small_counts: &[ShapeCount],
        large: &[ShapeCount],
    ) -> LargeShapeTable<'a> {
        let mean = mean_rate(small_counts);
        let small_rate: HashMap<u32, f64> = small_counts
            .iter()
            .map(|c| (c.key, smoothed_rate(c, mean, SMOOTHING)))
            .collect();
        let mut strength = HashMap::with_capacity_and_hasher(8 * large.len(), Default::default());
        for c in large {
            let core = canonical(c.key & (KEYS as u32 - 1));
            let prior = small_rate.get(&core).copied().unwrap_or(mean);
            let value = strength_of(smoothed_rate(c, prior, LARGE_SMOOTHING), mean);
            for key in large_symmetries(c.key) {
                strength.insert(key, value);
            }
        }
        LargeShapeTable { small, strength }
    }

    /// The strength of a raw large key, 128 for an average shape.
    #[inline]
    pub fn strength(&self, key: u32) -> u8 {
        match self.strength.get(&key) {
            Some(&s) => s,
            None => self.small.strength(key),
        }
    }
}

static TABLE: OnceLock<ShapeTable> = OnceLock::new();
static LARGE_TABLE: OnceLock<LargeShapeTable<'static>> = OnceLock::new();

fn shipped(text: &str, bits: u32, name: &str) -> Vec<ShapeCount> {
    parse_counts(text, bits).unwrap_or_else(|e| {
        log::error!("{name}: {e}; shapes are all average");
        Vec::new()
    })
}

/// The table built from the counts shipped with the engine.
pub fn table() -> &'static ShapeTable {
    TABLE.get_or_init(|| {
        ShapeTable::from_counts(&shipped(include_str!("shapes.txt"), KEY_BITS, "shapes.txt"))
    })
}

/// The large-shape table built from the counts shipped with the engine.
/// Built on first use, not by `warm_up`: the large shapes are off by
/// default, and every start of the engine would pay for them.
pub fn large_table() -> &'static LargeShapeTable<'static> {
    LARGE_TABLE.get_or_init(|| {
        let small = shipped(include_str!("shapes.txt"), KEY_BITS, "shapes.txt");
        let large = shipped(
            include_str!("large_shapes.txt"),
            LARGE_KEY_BITS,
            "large_shapes.txt",
        );
        LargeShapeTable::from_counts(table(), &small, &large)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::test_point as at;

    #[test]
    fn the_shipped_counts_parse() {
        let counts = parse_counts(include_str!("shapes.txt"), KEY_BITS).expect("shapes.txt parses");
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
    fn the_large_shape_sees_two_steps_out_in_every_orientation() {
        // The same 3×3 around C3; only the large shape sees the stone at E3.
        let near = Board::from_ascii(
            "
            . . . . .
            . . . . .
            . X . . O
            . . O . .
            . . . . .",
        )
        .unwrap();
        let far = Board::from_ascii(
            "
            . . . . .
            . . . . .
            . X . . .
            . . O . .
            . . . . .",
        )
        .unwrap();
        let p = at(&near, "C3");
        assert_eq!(
            shape_key(&near, Color::Black, p),
            shape_key(&far, Color::Black, p)
        );
        let with = large_key(&near, Color::Black, p);
        let without = large_key(&far, Color::Black, p);
        assert_ne!(large_canonical(with), large_canonical(without));
        // The same shape turned half way round: one canonical key.
        let turned = Board::from_ascii(
            "
            . . . . .
            . . O . .
            O . . X .
            . . . . .
            . . . . .",
        )
        .unwrap();
        let q = large_key(&turned, Color::Black, at(&turned, "C3"));
        assert_ne!(q, with);
        assert_eq!(large_canonical(q), large_canonical(with));
        // And a quarter turn.
        let quarter = Board::from_ascii(
            "
            . . O . .
            . . . . .
            . . . O .
            . . X . .
            . . . . .",
        )
        .unwrap();
        let r = large_key(&quarter, Color::Black, at(&quarter, "C3"));
        assert_eq!(large_canonical(r), large_canonical(with));
        // Two steps out past the edge reads as off board.
        let corner = large_key(&far, Color::Black, at(&far, "A1"));
        assert_eq!(corner >> KEY_BITS & 0b11_00_11_00, 0b11_00_11_00);
    }

    #[test]
    fn a_large_shape_is_judged_against_its_3x3_core() {
        let core = canonical(1);
        let small = [
            ShapeCount {
                key: 0,
                chosen: 10,
                available: 1000,
            },
            ShapeCount {
                key: core,
                chosen: 10,
                available: 100,
            },
        ];
        // The core with an own stone two steps out: chosen far more often.
        let big = large_canonical(core | 1 << KEY_BITS);
        let large = [ShapeCount {
            key: big,
            chosen: 50,
            available: 60,
        }];
        let base = ShapeTable::from_counts(&small);
        let t = LargeShapeTable::from_counts(&base, &small, &large);
        for key in large_symmetries(big) {
            assert!(t.strength(key) > base.strength(key & 0xF_FFFF) + 50);
        }
        // Unseen large shapes are as strong as their core.
        let unseen = core | 2 << KEY_BITS;
        assert_eq!(t.strength(unseen), base.strength(core));
        assert_eq!(t.strength(0), base.strength(0));
    }

    #[test]
    fn the_shipped_large_counts_parse_in_canonical_form() {
        let large = parse_counts(include_str!("large_shapes.txt"), LARGE_KEY_BITS)
            .expect("large_shapes.txt parses");
        assert!(large.len() > 10_000, "only {} large shapes", large.len());
        assert!(large.iter().all(|c| large_canonical(c.key) == c.key));
    }

    #[test]
    fn bad_lines_are_refused() {
        assert!(parse_counts("zz 1 2", KEY_BITS).is_err());
        assert!(parse_counts("10 5 2", KEY_BITS).is_err());
        assert!(parse_counts("fffff0 1 2", KEY_BITS).is_err());
        assert_eq!(parse_counts("# c\n\n1f 1 2\n", KEY_BITS).unwrap().len(), 1);
    }
}
