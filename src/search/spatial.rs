//! Large spatial patterns around a move, as Pachi's priors use them (after
//! Stern, Herbrich and Graepel, 2006): every point within a gridcular
//! distance d of the move (d = dx + dy + max(dx, dy); d 3 is the 3×3
//! shape, d 10 reaches five points straight out), seen from the mover as
//! empty, own, opposing or off the board. A move is described by the
//! largest of its patterns, from d 4 up to d 10, that a table knows; the
//! table keeps only patterns that strong players chose often enough to
//! learn a strength for.
//!
//! A pattern is named by a 64-bit key that is the same under the board's
//! eight symmetries: the smallest of the eight Zobrist hashes of its
//! transformed forms. Keys are recomputed from the board for each move
//! asked about, so they are meant for the tree priors, not the playouts.

use crate::board::{Bitboard, Board, Color, Point, MAX_SIZE};
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::OnceLock;

/// The smallest distance with a pattern of its own (d 2 and 3 are the
/// 3×3 shape, which the strengths see as a feature of its own).
pub const MIN_DISTANCE: usize = 4;
pub const MAX_DISTANCE: usize = 10;
/// Pattern sizes per move: one key for each d from `MIN_DISTANCE` to
/// `MAX_DISTANCE`.
pub const SIZES: usize = MAX_DISTANCE - MIN_DISTANCE + 1;

/// The keys of a move's patterns, smallest first.
pub type Keys = [u64; SIZES];

fn gridcular(dx: i32, dy: i32) -> usize {
    let (x, y) = (dx.unsigned_abs() as usize, dy.unsigned_abs() as usize);
    x + y + x.max(y)
}

/// The points of the largest pattern in a fixed order (nearer first), and
/// what the symmetries and the hash make of them.
struct Geometry {
    offsets: Vec<(i32, i32)>,
    /// `within[d]`: how many offsets lie within distance d.
    within: [usize; MAX_DISTANCE + 1],
    /// `by_content[j][v][s]`: what offset j holding content v adds to the
    /// hash of the pattern under symmetry s. Laid out so that one point
    /// updates all eight hashes from one contiguous row, with no gather.
    by_content: Vec<[[u64; 8]; 4]>,
    /// `stone_change[j][v]`: what a stone of content v at offset j changes
    /// in the eight hashes of the empty pattern (its key for v, its key
    /// for empty taken out), so that a stone costs one pass over the row.
    stone_change: Vec<[[u64; 8]; 4]>,
    /// The distance of each offset.
    rings: Vec<u8>,
}

/// The farthest a pattern reaches along a line (d 10 is five points out).
const AXIS_REACH: i32 = MAX_DISTANCE as i32 / 2;

fn symmetry(s: usize, (x, y): (i32, i32)) -> (i32, i32) {
    let (x, y) = if s & 4 != 0 { (y, x) } else { (x, y) };
    let x = if s & 1 != 0 { -x } else { x };
    let y = if s & 2 != 0 { -y } else { y };
    (x, y)
}

fn geometry() -> &'static Geometry {
    static GEOMETRY: OnceLock<Geometry> = OnceLock::new();
    GEOMETRY.get_or_init(|| {
        let reach = AXIS_REACH;
        let mut offsets: Vec<(i32, i32)> = (-reach..=reach)
            .flat_map(|dx| (-reach..=reach).map(move |dy| (dx, dy)))
            .filter(|&(dx, dy)| {
                let d = gridcular(dx, dy);
                (2..=MAX_DISTANCE).contains(&d)
            })
            .collect();
        offsets.sort_by_key(|&(dx, dy)| (gridcular(dx, dy), dx, dy));
        let mut within = [0; MAX_DISTANCE + 1];
        for (d, slot) in within.iter_mut().enumerate() {
            *slot = offsets
                .iter()
                .filter(|&&(dx, dy)| gridcular(dx, dy) <= d)
                .count();
        }
        let position: HashMap<(i32, i32), usize> =
            offsets.iter().enumerate().map(|(i, &o)| (o, i)).collect();
        let images: Vec<[usize; 8]> = offsets
            .iter()
            .map(|&o| std::array::from_fn(|s| position[&symmetry(s, o)]))
            .collect();
        // splitmix64 from a fixed seed: the keys in the learned table
        // depend on these, so they must never change.
        let mut state = 0x5eed_1511_u64;
        let mut next = || {
            state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^ (z >> 31)
        };
        let zobrist: Vec<[u64; 4]> = offsets
            .iter()
            .map(|_| std::array::from_fn(|_| next()))
            .collect();
        // The hash under symmetry s reads offset i's key for the content at
        // offset i's image; turned around, offset j feeds symmetry s with
        // the key of the offset whose image it is.
        let mut by_content = vec![[[0u64; 8]; 4]; offsets.len()];
        for (i, images) in images.iter().enumerate() {
            for (s, &j) in images.iter().enumerate() {
                for v in 0..4 {
                    by_content[j][v][s] = zobrist[i][v];
                }
            }
        }
        let stone_change = by_content
            .iter()
            .map(|row| std::array::from_fn(|v| std::array::from_fn(|s| row[v][s] ^ row[EMPTY][s])))
            .collect();
        let rings = offsets
            .iter()
            .map(|&(dx, dy)| gridcular(dx, dy) as u8)
            .collect();
        Geometry {
            offsets,
            within,
            by_content,
            stone_change,
            rings,
        }
    })
}

/// The keys of the patterns of `c` playing at `p`, from d 4 to d 10.
pub fn keys(board: &Board, c: Color, p: Point) -> Keys {
    keys_within(board, c, p, MAX_DISTANCE)
}

/// The keys of the patterns of `c` playing at `p` from d 4 to d `reach`
/// (at most d 10); the slots of larger sizes stay 0.
pub fn keys_within(board: &Board, c: Color, p: Point, reach: usize) -> Keys {
    let reach = reach.min(MAX_DISTANCE);
    let hashes = hashes_within(board, c, p, reach);
    std::array::from_fn(|i| {
        let d = i + MIN_DISTANCE;
        if d <= reach {
            key_of(&hashes[i], d)
        } else {
            0
        }
    })
}

/// The eight hashes (one per symmetry) of each pattern of `c` at `p` from
/// d 4 to d `reach`; the slots of larger sizes stay 0. The hashes of the
/// empty board around `p` are known in advance, so only the stones within
/// `reach` are looked at: near the start of a game, and on every point
/// far from the fighting, that is a handful instead of the 40-odd points
/// of a d 6 pattern.
fn hashes_within(board: &Board, c: Color, p: Point, reach: usize) -> [[u64; 8]; SIZES] {
    let mut out = [[0u64; 8]; SIZES];
    if reach < MIN_DISTANCE {
        return out;
    }
    let g = geometry();
    let empty = EmptyBoard::of(board);
    // What the stones at each distance change in the eight hashes.
    let mut by_ring = [[0u64; 8]; MAX_DISTANCE + 1];
    let near = board.occupied() & empty.windows[p.0][reach - MIN_DISTANCE];
    let offsets = empty.offsets_from(p);
    for q in near.iter() {
        let j = offsets[q] as usize;
        let change = &g.stone_change[j][board.seen_by(c, Point(q))];
        for (h, &x) in by_ring[g.rings[j] as usize].iter_mut().zip(change) {
            *h ^= x;
        }
    }
    let mut change = [0u64; 8];
    for d in 2..=reach {
        for (acc, r) in change.iter_mut().zip(&by_ring[d]) {
            *acc ^= r;
        }
        if d >= MIN_DISTANCE {
            let base = &empty.hashes[p.0][d - MIN_DISTANCE];
            out[d - MIN_DISTANCE] = std::array::from_fn(|s| base[s] ^ change[s]);
        }
    }
    out
}

/// The size goes into the key so that no two sizes can share one.
fn size_mark(d: usize) -> u64 {
    (d as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15)
}

/// The key of a pattern of size `d` from its eight hashes: the smallest.
fn key_of(h: &[u64; 8], d: usize) -> u64 {
    // A tree of scalar minimums: the eight-lane form becomes emulated
    // 64-bit vector compares on baseline x86-64, slower.
    let smallest = (h[0].min(h[1]).min(h[2].min(h[3]))).min(h[4].min(h[5]).min(h[6].min(h[7])));
    smallest ^ size_mark(d)
}

/// [`filter_slot`] of [`key_of`] without the 64-bit minimum: the top bits
/// of the smallest hash are the smallest of the top bits.
fn filter_slot_of(h: &[u64; 8], d: usize) -> usize {
    let top = h.map(|x| (x >> (64 - FILTER_BITS)) as u16);
    let smallest = top.into_iter().min().unwrap_or(u16::MAX);
    (smallest ^ (size_mark(d) >> (64 - FILTER_BITS)) as u16) as usize
}

/// What a point holds, seen from the mover ([`Board::seen_by`]).
const EMPTY: usize = 0;
const OFF_BOARD: usize = 3;

/// The patterns of a board of one size with no stones on it, by point
/// index: a move's keys are these, changed at the stones near it.
struct EmptyBoard {
    /// The eight hashes of each pattern size from d 4 (off the board
    /// counts; empty points are part of the hash too).
    hashes: Vec<[[u64; 8]; SIZES]>,
    /// The points within d 4, 5, ... 10 of each point, on the board.
    windows: Vec<[Bitboard; SIZES]>,
    /// Point indexes in use (the padded layout's length).
    len: usize,
    /// `offsets[p * len + q]`: which offset of the largest pattern (in
    /// `Geometry::offsets`) the point q is from p; `u8::MAX` past it.
    offsets: Vec<u8>,
}

impl EmptyBoard {
    /// The empty board of `board`'s size (made on first use, then kept).
    fn of(board: &Board) -> &'static EmptyBoard {
        static BY_SIZE: [OnceLock<EmptyBoard>; MAX_SIZE + 1] =
            [const { OnceLock::new() }; MAX_SIZE + 1];
        BY_SIZE[board.size().min(MAX_SIZE)].get_or_init(|| EmptyBoard::new(board))
    }

    /// Only `board`'s size and point layout are read, not its stones.
    fn new(board: &Board) -> EmptyBoard {
        let g = geometry();
        let len = board.point_index_bound();
        let mut hashes = vec![[[0u64; 8]; SIZES]; len];
        let mut windows = vec![[Bitboard::EMPTY; SIZES]; len];
        let mut offsets = vec![u8::MAX; len * len];
        for p in board.points() {
            let (x, y) = board.xy(p);
            let (x, y) = (x as i32, y as i32);
            let mut running = [0u64; 8];
            let mut j = 0;
            for d in 2..=MAX_DISTANCE {
                while j < g.within[d] {
                    let (dx, dy) = g.offsets[j];
                    // Negative coordinates wrap to huge ones, off the board too.
                    let q = board.point((x + dx) as usize, (y + dy) as usize).ok();
                    let content = if q.is_some() { EMPTY } else { OFF_BOARD };
                    for (h, &key) in running.iter_mut().zip(&g.by_content[j][content]) {
                        *h ^= key;
                    }
                    if let Some(q) = q {
                        for window in &mut windows[p.0][d.max(MIN_DISTANCE) - MIN_DISTANCE..] {
                            window.set(q.0);
                        }
                        offsets[p.0 * len + q.0] = j as u8;
                    }
                    j += 1;
                }
                if d >= MIN_DISTANCE {
                    hashes[p.0][d - MIN_DISTANCE] = running;
                }
            }
        }
        EmptyBoard {
            hashes,
            windows,
            len,
            offsets,
        }
    }

    /// Which offset each point index is from `p` (see `offsets`); every
    /// point of `p`'s windows has one.
    fn offsets_from(&self, p: Point) -> &[u8] {
        &self.offsets[p.0 * self.len..(p.0 + 1) * self.len]
    }
}

/// Keys are already uniform hashes: hashing them again is wasted work.
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ b as u64;
        }
    }
    fn write_u64(&mut self, k: u64) {
        self.0 = k;
    }
}

type KeyMap<V> = HashMap<u64, V, BuildHasherDefault<KeyHasher>>;

/// Bits of a key that pick its bit in [`SpatialTable`]'s filter (2^16 bits:
/// eight kilobytes, a fifth of them set by the shipped table).
const FILTER_BITS: u32 = 16;

fn filter_slot(key: u64) -> usize {
    (key >> (64 - FILTER_BITS)) as usize
}

/// Known patterns, each with an index (0 stands for none known) and a
/// strength.
pub struct SpatialTable {
    index: KeyMap<u32>,
    /// One bit per value of a key's top [`FILTER_BITS`] bits, set for the
    /// keys in `index`: most keys asked about are of no known pattern,
    /// and this answers them from a few kilobytes instead of the map.
    filter: Vec<u64>,
    /// `strengths[0]` is the strength of a move with no known pattern.
    strengths: Vec<f32>,
    /// The distance of each pattern, by index (0 for none).
    distances: Vec<u8>,
    /// The largest distance of any pattern (0 for none): keys beyond it
    /// need not be computed.
    largest: usize,
}

/// No pattern known: only the entry for none, of strength 1.
impl Default for SpatialTable {
    fn default() -> SpatialTable {
        SpatialTable {
            index: KeyMap::default(),
            filter: vec![0; 1 << (FILTER_BITS - 6)],
            strengths: vec![1.0],
            distances: vec![0],
            largest: 0,
        }
    }
}

impl SpatialTable {
    /// A table of these patterns (key and distance), all of strength 1.
    pub fn from_patterns(patterns: impl IntoIterator<Item = (u64, usize)>) -> SpatialTable {
        let mut table = SpatialTable::default();
        for (key, d) in patterns {
            table.insert(key, d, 1.0);
        }
        table
    }

    fn insert(&mut self, key: u64, d: usize, strength: f32) {
        let next = self.strengths.len() as u32;
        let slot = filter_slot(key);
        self.filter[slot >> 6] |= 1 << (slot & 63);
        let k = *self.index.entry(key).or_insert(next);
        if k == next {
            self.strengths.push(strength);
            self.distances.push(d as u8);
            self.largest = self.largest.max(d);
        } else {
            self.strengths[k as usize] = strength;
        }
    }

    /// How many entries the table has, the "none known" entry included.
    pub fn len(&self) -> usize {
        self.strengths.len()
    }

    pub fn is_empty(&self) -> bool {
        self.strengths.len() <= 1
    }

    /// The index of the largest known of these patterns (keys smallest
    /// first), 0 for none.
    pub fn matched(&self, keys: &[u64]) -> u32 {
        keys.iter()
            .rev()
            .filter(|&&k| self.may_hold(filter_slot(k)))
            .find_map(|k| self.index.get(k).copied())
            .unwrap_or(0)
    }

    /// Whether a key with this [`filter_slot`] may be known: false means
    /// certainly not.
    fn may_hold(&self, slot: usize) -> bool {
        self.filter[slot >> 6] >> (slot & 63) & 1 != 0
    }

    /// The index of the largest known pattern of `c` at `p` that reaches
    /// no further than distance `reach`, 0 for none. Only the points out
    /// to the table's largest pattern are read.
    pub fn matched_at(&self, board: &Board, c: Color, p: Point, reach: usize) -> u32 {
        let upto = reach.min(self.largest);
        if upto < MIN_DISTANCE {
            return 0;
        }
        // As `matched` on the keys, with the filter asked before each
        // key's full minimum is taken: most sizes stop there.
        let hashes = hashes_within(board, c, p, upto);
        (MIN_DISTANCE..=upto)
            .rev()
            .filter(|&d| self.may_hold(filter_slot_of(&hashes[d - MIN_DISTANCE], d)))
            .find_map(|d| {
                let key = key_of(&hashes[d - MIN_DISTANCE], d);
                self.index.get(&key).copied()
            })
            .unwrap_or(0)
    }

    pub fn strength(&self, index: u32) -> f32 {
        self.strengths.get(index as usize).copied().unwrap_or(1.0)
    }

    /// The largest distance of a known pattern (0 when none is known).
    pub fn largest_distance(&self) -> usize {
        self.largest
    }

    pub fn distance(&self, index: u32) -> usize {
        self.distances.get(index as usize).copied().unwrap_or(0) as usize
    }

    /// The key of the pattern at `index` (none for 0).
    pub fn keys_by_index(&self) -> Vec<u64> {
        let mut keys = vec![0; self.len()];
        for (&k, &i) in &self.index {
            keys[i as usize] = k;
        }
        keys
    }

    /// Reads one line `spatial D KEY G` (key in hex) or `spatial_other G`
    /// of a strengths file; `Ok(false)` for a line of another kind, an
    /// error saying what is wrong with a spatial line that does not read.
    pub fn parse_line(&mut self, fields: &[&str]) -> Result<bool, String> {
        let gamma = |f: &str| {
            f.parse::<f32>()
                .ok()
                .filter(|g| g.is_finite() && *g > 0.0)
                .ok_or_else(|| format!("strength '{f}' is not a positive number"))
        };
        match fields {
            ["spatial_other", g] => {
                self.strengths[0] = gamma(g)?;
                Ok(true)
            }
            ["spatial", d, key, g] => {
                let d = d
                    .parse::<usize>()
                    .ok()
                    .filter(|d| (MIN_DISTANCE..=MAX_DISTANCE).contains(d))
                    .ok_or_else(|| {
                        format!("size '{d}' is not from {MIN_DISTANCE} to {MAX_DISTANCE}")
                    })?;
                let key = u64::from_str_radix(key, 16)
                    .map_err(|_| format!("key '{key}' is not hexadecimal"))?;
                self.insert(key, d, gamma(g)?);
                Ok(true)
            }
            _ => Ok(false),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::test_point as at;

    fn keys_at(diagram: &str, c: Color, p: &str) -> Keys {
        let b = Board::from_ascii(diagram).unwrap();
        keys(&b, c, at(&b, p))
    }

    #[test]
    fn the_patterns_grow_by_distance() {
        let g = geometry();
        // d 2: four neighbours; d 3: the diagonals; d 4: two steps out.
        assert_eq!(g.within[2], 4);
        assert_eq!(g.within[3], 8);
        assert_eq!(g.within[4], 12);
        assert_eq!(g.within[MAX_DISTANCE], g.offsets.len());
        assert!(g.offsets.len() < u8::MAX as usize);
    }

    #[test]
    fn a_pattern_and_its_mirror_image_share_keys() {
        let left = "\
            . . . . . . .\n\
            . . . . . . .\n\
            . . X . . . .\n\
            . . . . O . .\n\
            . . . . . . .\n\
            . . . . . . .\n\
            . . . . . . .\n";
        let right = "\
            . . . . . . .\n\
            . . . . . . .\n\
            . . . . X . .\n\
            . . O . . . .\n\
            . . . . . . .\n\
            . . . . . . .\n\
            . . . . . . .\n";
        assert_eq!(
            keys_at(left, Color::Black, "D4"),
            keys_at(right, Color::Black, "D4")
        );
        // Seen from White, the same stones make another pattern.
        assert_ne!(
            keys_at(left, Color::Black, "D4"),
            keys_at(left, Color::White, "D4")
        );
    }

    /// The keys as the module doc defines them, point by point: for each
    /// symmetry, the hash of what the transformed pattern holds, then the
    /// smallest of the eight. The fast path must give the same keys, or
    /// the learned table no longer matches.
    fn keys_by_definition(board: &Board, c: Color, p: Point) -> Keys {
        const EMPTY: usize = 0;
        const OWN: usize = 1;
        const OPPOSING: usize = 2;
        const OFF_BOARD: usize = 3;
        let g = geometry();
        let (px, py) = board.xy(p);
        let content = |(dx, dy): (i32, i32)| {
            let (x, y) = (px as i32 + dx, py as i32 + dy);
            let size = board.size() as i32;
            if x < 0 || y < 0 || x >= size || y >= size {
                return OFF_BOARD;
            }
            let point = board.point(x as usize, y as usize).expect("on the board");
            match board.color_at(point) {
                None => EMPTY,
                Some(owner) if owner == c => OWN,
                Some(_) => OPPOSING,
            }
        };
        // Symmetry 0 is the identity, so its column is each offset's own key.
        let key = |i: usize, v: usize| g.by_content[i][v][0];
        std::array::from_fn(|slot| {
            let d = MIN_DISTANCE + slot;
            let smallest = (0..8)
                .map(|s| {
                    (0..g.within[d])
                        .map(|i| key(i, content(symmetry(s, g.offsets[i]))))
                        .fold(0, |h, k| h ^ k)
                })
                .min()
                .unwrap_or_default();
            smallest ^ (d as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15)
        })
    }

    #[test]
    fn keys_are_the_smallest_hash_of_the_eight_transformed_patterns() {
        let diagram = "\
            . . O . . . . . .\n\
            . . O X . . . . .\n\
            . X . X X . O . .\n\
            . . . O . X . . .\n\
            O . . . . . . X .\n\
            . . O . X . X . .\n\
            . X . . . O . . .\n\
            . . . . . X . . O\n\
            X . . . . . . . .\n";
        let b = Board::from_ascii(diagram).unwrap();
        for p in b.points() {
            for c in [Color::Black, Color::White] {
                assert_eq!(keys(&b, c, p), keys_by_definition(&b, c, p), "{p:?}");
            }
        }
    }

    /// Boards of every size class with stones strewn at several densities,
    /// from a fixed generator: the keys built from the empty board and the
    /// stones near the move must equal the keys by definition, at every
    /// point, for both colours and every reach.
    #[test]
    fn keys_from_the_empty_board_and_the_stones_match_the_definition() {
        let boards = random_boards();
        for b in &boards {
            let size = b.size();
            for p in b.points() {
                for c in [Color::Black, Color::White] {
                    let whole = keys_by_definition(b, c, p);
                    for reach in 0..=MAX_DISTANCE + 1 {
                        let part = keys_within(b, c, p, reach);
                        for (i, (&k, &w)) in part.iter().zip(&whole).enumerate() {
                            let expected = if MIN_DISTANCE + i <= reach { w } else { 0 };
                            assert_eq!(k, expected, "size {size}, {p:?}, reach {reach}");
                        }
                    }
                }
            }
        }
    }

    /// Legal boards of sizes 2 to 25 with stones on none, a tenth, three
    /// tenths and six tenths of the points, from a fixed generator.
    fn random_boards() -> Vec<Board> {
        let mut state = 0x1234_5678_u64;
        let mut next = move || {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (state >> 33) as usize
        };
        let mut boards = Vec::new();
        for size in [2, 3, 5, 9, 13, 19, 25] {
            for density in [0, 10, 30, 60] {
                let diagram: String = (0..size)
                    .map(|_| {
                        let row: Vec<&str> = (0..size)
                            .map(|_| match next() % 100 {
                                r if r >= density => ".",
                                r if r % 2 == 0 => "X",
                                _ => "O",
                            })
                            .collect();
                        row.join(" ") + "\n"
                    })
                    .collect();
                boards.extend(Board::from_ascii(&diagram).ok());
            }
        }
        assert!(
            boards.len() >= 20,
            "only {} boards were legal",
            boards.len()
        );
        boards
    }

    #[test]
    fn matching_at_a_point_finds_what_matching_its_keys_finds() {
        // The shipped table, so that the filter in front of it lets
        // through real patterns as well as near misses.
        let table = crate::search::gammas::table_of(crate::search::gammas::Source::Spatial)
            .spatial()
            .expect("the shipped strengths have large patterns");
        let mut found = 0;
        for b in &random_boards() {
            for p in b.points() {
                for c in [Color::Black, Color::White] {
                    for reach in MIN_DISTANCE - 1..=MAX_DISTANCE {
                        let upto = reach.min(table.largest_distance());
                        let expected = if upto < MIN_DISTANCE {
                            0
                        } else {
                            table.matched(&keys_within(b, c, p, upto)[..=upto - MIN_DISTANCE])
                        };
                        assert_eq!(table.matched_at(b, c, p, reach), expected, "{p:?} {reach}");
                        found += usize::from(expected != 0);
                    }
                }
            }
        }
        assert!(found > 1000, "only {found} matches: the test shows little");
    }

    #[test]
    fn the_filter_slot_from_the_hashes_is_the_slot_of_the_key() {
        let mut state = 0x9abc_u64;
        for d in MIN_DISTANCE..=MAX_DISTANCE {
            for _ in 0..1000 {
                let h: [u64; 8] = std::array::from_fn(|_| {
                    state = state
                        .wrapping_mul(6_364_136_223_846_793_005)
                        .wrapping_add(1_442_695_040_888_963_407);
                    // Equal top bits now and then, where the low bits decide.
                    if state & 7 == 0 {
                        state & 0xffff
                    } else {
                        state
                    }
                });
                assert_eq!(filter_slot_of(&h, d), filter_slot(key_of(&h, d)));
            }
        }
    }

    #[test]
    fn keys_within_a_reach_are_the_smaller_keys_of_the_whole() {
        let diagram = "\
            . . . . . . . . .\n\
            . . O . . . . . .\n\
            . . . X X . . . .\n\
            . . . O . X . . .\n\
            . . . . . . . . .\n\
            . . O . . . X . .\n\
            . . . . . . . . .\n\
            . . . . . X . . .\n\
            . . . . . . . . .\n";
        let b = Board::from_ascii(diagram).unwrap();
        let whole = keys(&b, Color::White, at(&b, "E5"));
        for reach in MIN_DISTANCE - 1..=MAX_DISTANCE {
            let part = keys_within(&b, Color::White, at(&b, "E5"), reach);
            for (i, (&k, &w)) in part.iter().zip(&whole).enumerate() {
                let expected = if MIN_DISTANCE + i <= reach { w } else { 0 };
                assert_eq!(k, expected, "reach {reach}, d {}", MIN_DISTANCE + i);
            }
        }
    }

    #[test]
    fn a_stone_three_steps_out_changes_only_the_larger_patterns() {
        let near = "\
            . . . . . . . . .\n\
            . . . . . . . . .\n\
            . . . . . . . . .\n\
            . . . . . . . . .\n\
            . . . . . . . . .\n\
            . . . . . . . . .\n\
            . . . . . . . . .\n\
            . . . . . . . . .\n\
            . . . . . . . . .\n";
        let far = "\
            . . . . . . . . .\n\
            . . . . . . . . .\n\
            . . . . . . . . .\n\
            . . . . . . . . .\n\
            . . . . . . . X .\n\
            . . . . . . . . .\n\
            . . . . . . . . .\n\
            . . . . . . . . .\n\
            . . . . . . . . .\n";
        // H5 is three steps right of E5: gridcular distance 6.
        let (a, b) = (
            keys_at(near, Color::Black, "E5"),
            keys_at(far, Color::Black, "E5"),
        );
        for d in MIN_DISTANCE..=MAX_DISTANCE {
            assert_eq!(a[d - MIN_DISTANCE] == b[d - MIN_DISTANCE], d < 6, "d {d}");
        }
    }

    #[test]
    fn the_largest_known_pattern_is_the_match() {
        let empty = Board::new(9).unwrap();
        let k = keys(&empty, Color::Black, at(&empty, "C3"));
        let mut table = SpatialTable::from_patterns([(k[0], 4), (k[3], 7)]);
        assert!(table.parse_line(&["spatial_other", "0.5"]).unwrap());
        let seven = table.matched(&k);
        assert_eq!(table.distance(seven), 7);
        assert_eq!(table.largest_distance(), 7);
        let c3 = at(&empty, "C3");
        assert_eq!(table.matched_at(&empty, Color::Black, c3, 10), seven);
        assert_eq!(table.matched_at(&empty, Color::Black, c3, 7), seven);
        let four = table.matched_at(&empty, Color::Black, c3, 6);
        assert_eq!(table.distance(four), 4);
        assert_eq!(table.matched_at(&empty, Color::Black, c3, 3), 0);
        assert_eq!(SpatialTable::default().largest_distance(), 0);
        // In the centre only the small empty pattern is the same as C3's;
        // in the corner none is.
        let centre = keys(&empty, Color::Black, at(&empty, "E5"));
        assert_eq!(table.distance(table.matched(&centre)), 4);
        let corner = keys(&empty, Color::Black, at(&empty, "A1"));
        assert_eq!(table.matched(&corner), 0);
        assert_eq!(table.strength(0), 0.5);
        assert!(table.parse_line(&["spatial", "3", "ff", "1.0"]).is_err());
        assert!(!table.parse_line(&["shape", "ff", "1.0"]).unwrap());
    }
}
