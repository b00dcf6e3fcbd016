//! The board: stones, chains with liberty tracking, captures, Zobrist hash.
//!
//! Two representations are kept in step. A mailbox (`cells`) with chains as
//! circular stone lists carries the hot path: each chain keeps its
//! pseudo-liberty count plus the sum and sum of squares of those liberty
//! indices, which tells "exactly one real liberty" (atari) in O(1) without a
//! flood fill. Bitboards per colour carry the whole-board questions (areas,
//! regions, real liberty sets) as a few word operations.
//!
//! The board knows nothing of ko or superko history: that is [`crate::game`].

pub mod benson;
pub mod bitboard;
pub mod coord;
pub mod nakade;
pub mod tactics;
pub mod zobrist;

pub use bitboard::Bitboard;
pub use coord::{CoordError, Point};

use std::fmt;

pub const MIN_SIZE: usize = 2;
pub const MAX_SIZE: usize = 25;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    Black,
    White,
}

impl Color {
    #[inline]
    pub fn opponent(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }

    #[inline]
    fn cell(self) -> Cell {
        match self {
            Color::Black => BLACK,
            Color::White => WHITE,
        }
    }

    pub fn letter(self) -> char {
        match self {
            Color::Black => 'B',
            Color::White => 'W',
        }
    }

    pub fn parse(s: &str) -> Result<Color, CoordError> {
        match s.to_ascii_lowercase().as_str() {
            "b" | "black" => Ok(Color::Black),
            "w" | "white" => Ok(Color::White),
            _ => Err(CoordError::BadColor(s.chars().take(32).collect())),
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Color::Black => "black",
            Color::White => "white",
        })
    }
}

/// A placement or a pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    Pass,
    Place(Point),
}

/// Per-point storage with room for the largest board. Indices are masked
/// to the capacity, so the hot path needs no bounds checks and stays safe.
struct PointArray<T: Copy> {
    values: [T; POINT_CAPACITY],
}

const POINT_CAPACITY: usize = 1024;
const POINT_MASK: usize = POINT_CAPACITY - 1;

impl<T: Copy> PointArray<T> {
    fn filled(value: T) -> Self {
        PointArray {
            values: [value; POINT_CAPACITY],
        }
    }

    /// Copies the first `len` values: a board only uses its own size's prefix.
    #[inline]
    fn copy_prefix(&mut self, other: &Self, len: usize) {
        self.values[..len].copy_from_slice(&other.values[..len]);
    }

    #[inline]
    fn swap(&mut self, a: usize, b: usize) {
        self.values.swap(a & POINT_MASK, b & POINT_MASK);
    }
}

impl<T: Copy> std::ops::Index<usize> for PointArray<T> {
    type Output = T;
    #[inline]
    fn index(&self, i: usize) -> &T {
        &self.values[i & POINT_MASK]
    }
}

impl<T: Copy> std::ops::IndexMut<usize> for PointArray<T> {
    #[inline]
    fn index_mut(&mut self, i: usize) -> &mut T {
        &mut self.values[i & POINT_MASK]
    }
}

/// One neighbour of each kind in the packed counts of `Board::nbr`.
const NBR_BLACK: u16 = 1;
const NBR_WHITE: u16 = 1 << 4;
const NBR_EMPTY: u16 = 1 << 8;
const NBR_FIELD: u16 = 0xF;

#[inline]
fn nbr_unit(c: Color) -> u16 {
    match c {
        Color::Black => NBR_BLACK,
        Color::White => NBR_WHITE,
    }
}

/// A chain's liberties apart from one point (see `liberties_besides`).
enum OtherLiberties {
    None,
    One(usize),
    Several,
}

/// The head of every empty and border point: index 0 is a border point,
/// so no chain has it, and its chain fields are scratch space that absorb
/// updates meant for "the chain of a neighbour" when there is none.
const NO_CHAIN: usize = 0;
/// Written to the scratch liberty word after every use, so that between
/// changes it reads as a chain with many liberties, not in atari (a sum of
/// squares that is no square of the sum), and the legality test need not
/// tell border neighbours from stones. While the scratch absorbs updates its
/// count still never reads as 0: the count field sits in the low bits, where
/// the borrows of the other fields' subtractions do not reach.
const NO_CHAIN_LIBERTIES: u64 = 0x800 | 1 << LIB_SQ_SHIFT;

/// A chain's pseudo-liberties packed in one word, so that adding or removing
/// one, or merging two chains, is a single addition: the count in bits
/// 0..12, the sum of the liberty indices in bits 12..32, the sum of their
/// squares in bits 32..64. A chain has at most 1,200 pseudo-liberties (the
/// edges of a 25×25 grid) at indices below 703, so the count stays below
/// 2^12, the sum below 842,400 < 2^20 and the sum of squares below
/// 591,364,800 < 2^32: no field ever carries into the next.
const LIB_COUNT_BITS: u32 = 12;
const LIB_SUM_BITS: u32 = 20;
const LIB_COUNT_MASK: u64 = (1 << LIB_COUNT_BITS) - 1;
const LIB_SUM_MASK: u64 = (1 << LIB_SUM_BITS) - 1;
const LIB_SQ_SHIFT: u32 = LIB_COUNT_BITS + LIB_SUM_BITS;

/// The packed word of the single pseudo-liberty `lib`, looked up: placing a
/// stone needs five of them, and the table is cheaper than the arithmetic.
#[inline]
fn lib_unit(lib: usize) -> u64 {
    LIB_UNITS[lib & POINT_MASK]
}

/// Index 0 is a border point, never a liberty, so its entry is 0: looking up
/// "this point if it is empty, else 0" adds a liberty or nothing with an
/// unconditional load, where a masked or conditional addition gets compiled
/// into a branch that fails half the time.
static LIB_UNITS: [u64; POINT_CAPACITY] = {
    let mut units = [0; POINT_CAPACITY];
    let mut lib = 1;
    while lib < POINT_CAPACITY {
        let l = lib as u64;
        units[lib] = 1 | l << LIB_COUNT_BITS | (l * l) << LIB_SQ_SHIFT;
        lib += 1;
    }
    units
};

#[inline]
fn lib_count(libs: u64) -> u64 {
    libs & LIB_COUNT_MASK
}

#[inline]
fn lib_sum(libs: u64) -> u64 {
    (libs >> LIB_COUNT_BITS) & LIB_SUM_MASK
}

type Cell = u8;
const EMPTY: Cell = 0;
const BLACK: Cell = 1;
const WHITE: Cell = 2;
const BORDER: Cell = 3;

#[inline]
fn cell_color(c: Cell) -> Option<Color> {
    match c {
        BLACK => Some(Color::Black),
        WHITE => Some(Color::White),
        _ => None,
    }
}

/// Why the board refuses a placement. Ko and superko are judged by the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlaceError {
    Occupied,
    /// A lone stone without liberties: illegal under every rule set.
    SingleStoneSuicide,
    /// A chain of two or more stones without liberties, when suicide is forbidden.
    Suicide,
}

/// What a placement would do, computed without changing the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Prediction {
    /// Opponent stones the placement would remove.
    pub captures: u32,
    /// Own stones (the new one included) removed by suicide; 0 when not suicide.
    pub suicide: u32,
    /// Board hash after the placement.
    pub hash_after: u64,
}

/// What a placement did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Placed {
    pub captures: u32,
    pub suicide: u32,
}

pub struct Board {
    size: usize,
    stride: usize,
    /// Number of point indices in use, border included.
    len: usize,
    cells: PointArray<Cell>,
    /// For a stone: the representative point of its chain.
    head: PointArray<u16>,
    /// For a stone: the next stone of its chain (circular).
    next: PointArray<u16>,
    /// Per chain head: number of stones.
    chain_len: PointArray<u16>,
    /// Per chain head: pseudo-liberties (stone–empty adjacencies) and the
    /// sum and sum of squares of their point indices, packed (see
    /// [`lib_unit`]).
    libs: PointArray<u64>,
    /// Per point: how many neighbours are black, white and empty, four bits
    /// each (see [`NBR_EMPTY`]), so that eye and liberty tests read one word.
    nbr: PointArray<u16>,
    /// Empty points, unordered, with each point's position in the list.
    empties: PointArray<u16>,
    empty_count: usize,
    empty_pos: PointArray<u16>,
    stones: [Bitboard; 2],
    on_board: Bitboard,
    hash: u64,
    /// Point banned by simple ko for the side that did not capture, if any.
    /// 0 when there is none (index 0 is a border point).
    ko: usize,
    /// Stones captured by each colour (suicided stones count for the opponent).
    captures: [u32; 2],
}

impl Clone for Board {
    fn clone(&self) -> Board {
        let mut b = Board::new(self.size).expect("size already validated");
        b.clone_from(self);
        b
    }

    /// Copies only the part of the arrays this board size uses, without
    /// allocating when `self` already has the same size: the search copies a
    /// board for every playout.
    fn clone_from(&mut self, o: &Board) {
        let len = o.len;
        self.size = o.size;
        self.stride = o.stride;
        self.len = len;
        self.cells.copy_prefix(&o.cells, len);
        self.head.copy_prefix(&o.head, len);
        self.next.copy_prefix(&o.next, len);
        self.chain_len.copy_prefix(&o.chain_len, len);
        self.libs.copy_prefix(&o.libs, len);
        self.empty_pos.copy_prefix(&o.empty_pos, len);
        self.nbr.copy_prefix(&o.nbr, len);
        self.empties.copy_prefix(&o.empties, o.empty_count);
        self.empty_count = o.empty_count;
        self.stones = o.stones;
        self.on_board = o.on_board;
        self.hash = o.hash;
        self.ko = o.ko;
        self.captures = o.captures;
    }
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "\n{}", self.to_ascii())
    }
}

impl PartialEq for Board {
    /// Same size and same stones (chain bookkeeping is derived from those).
    fn eq(&self, other: &Board) -> bool {
        self.size == other.size && self.stones == other.stones
    }
}

impl Board {
    pub fn new(size: usize) -> Result<Board, CoordError> {
        if !(MIN_SIZE..=MAX_SIZE).contains(&size) {
            return Err(CoordError::BadSize(size));
        }
        let stride = size + 1;
        let len = (size + 2) * stride + 1;
        let mut cells = PointArray::filled(BORDER);
        let mut on_board = Bitboard::EMPTY;
        let mut empties = PointArray::filled(0);
        let mut empty_count = 0;
        let mut empty_pos = PointArray::filled(u16::MAX);
        let mut nbr = PointArray::filled(0);
        let mut libs = PointArray::filled(0);
        libs[NO_CHAIN] = NO_CHAIN_LIBERTIES;
        for y in 0..size {
            for x in 0..size {
                let p = (y + 1) * stride + x + 1;
                cells[p] = EMPTY;
                on_board.set(p);
                empty_pos[p] = empty_count as u16;
                empties[empty_count] = p as u16;
                empty_count += 1;
                let inside = [x > 0, x + 1 < size, y > 0, y + 1 < size];
                nbr[p] = NBR_EMPTY * inside.iter().filter(|&&b| b).count() as u16;
            }
        }
        Ok(Board {
            size,
            stride,
            len,
            cells,
            head: PointArray::filled(0),
            next: PointArray::filled(0),
            chain_len: PointArray::filled(0),
            libs,
            nbr,
            empties,
            empty_count,
            empty_pos,
            stones: [Bitboard::EMPTY; 2],
            on_board,
            hash: 0,
            ko: 0,
            captures: [0; 2],
        })
    }

    // ---- geometry -------------------------------------------------------

    #[inline]
    pub fn size(&self) -> usize {
        self.size
    }

    #[inline]
    pub fn stride(&self) -> usize {
        self.stride
    }

    /// The point at column `x`, row `y` (0-based from the bottom left).
    #[inline]
    pub fn point(&self, x: usize, y: usize) -> Result<Point, CoordError> {
        if x < self.size && y < self.size {
            Ok(Point((y + 1) * self.stride + x + 1))
        } else {
            Err(CoordError::OffBoard)
        }
    }

    #[inline]
    pub fn xy(&self, p: Point) -> (usize, usize) {
        (p.0 % self.stride - 1, p.0 / self.stride - 1)
    }

    #[inline]
    pub fn neighbours(&self, p: Point) -> [usize; 4] {
        let i = p.0;
        [i - self.stride, i - 1, i + 1, i + self.stride]
    }

    #[inline]
    pub fn diagonals(&self, p: Point) -> [usize; 4] {
        let i = p.0;
        let s = self.stride;
        [i - s - 1, i - s + 1, i + s - 1, i + s + 1]
    }

    /// Every point of the board, bottom row first.
    pub fn points(&self) -> impl Iterator<Item = Point> + '_ {
        self.on_board.iter().map(Point)
    }

    pub fn on_board(&self) -> &Bitboard {
        &self.on_board
    }

    /// One past the largest index of a point on the board: the length of
    /// a table with an entry per point.
    pub fn point_index_bound(&self) -> usize {
        self.size * self.stride + self.size + 1
    }

    // ---- contents -------------------------------------------------------

    #[inline]
    pub fn color_at(&self, p: Point) -> Option<Color> {
        cell_color(self.cells[p.0])
    }

    /// What `p` holds as `c` sees it: 0 empty, 1 own stone, 2 opposing
    /// stone, 3 off the board (the border; `Point(0)` is always border).
    /// One table read and no branch, for pattern hashing that reads many
    /// points.
    #[inline]
    pub fn seen_by(&self, c: Color, p: Point) -> usize {
        const SEEN: [[u8; 4]; 2] = [[0, 1, 2, 3], [0, 2, 1, 3]];
        SEEN[c.index()][self.cells[p.0] as usize & 3] as usize
    }

    #[inline]
    pub fn is_empty_at(&self, p: Point) -> bool {
        self.cells[p.0] == EMPTY
    }

    #[inline]
    pub fn stones(&self, c: Color) -> &Bitboard {
        &self.stones[c.index()]
    }

    /// The points holding a stone of either colour.
    #[inline]
    pub fn occupied(&self) -> Bitboard {
        self.stones[0] | self.stones[1]
    }

    pub fn empty_points(&self) -> Bitboard {
        self.on_board.and_not(&self.occupied())
    }

    /// Empty points in no particular order (the playout picks from it).
    #[inline]
    pub fn empties(&self) -> &[u16] {
        &self.empties.values[..self.empty_count]
    }

    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    #[inline]
    pub fn ko_point(&self) -> Option<Point> {
        (self.ko != 0).then_some(Point(self.ko))
    }

    /// Stones captured by `c` so far (suicided stones count for the opponent).
    pub fn captures(&self, c: Color) -> u32 {
        self.captures[c.index()]
    }

    pub fn stone_count(&self) -> u32 {
        self.stones[0].count() + self.stones[1].count()
    }

    // ---- chains ---------------------------------------------------------

    #[inline]
    pub fn chain_id(&self, p: Point) -> usize {
        self.head[p.0] as usize
    }

    pub fn chain_len(&self, p: Point) -> u32 {
        self.chain_len[self.head[p.0] as usize] as u32
    }

    /// True when the stone at `p` or a chain next to it has exactly one
    /// liberty: after a move at `p`, it put something in atari or itself.
    pub fn atari_at_or_beside(&self, p: Point) -> bool {
        std::iter::once(p.0)
            .chain(self.neighbours(p))
            .any(|q| self.color_at(Point(q)).is_some() && self.in_atari(Point(q)))
    }

    /// True when the chain of the stone at `p` has exactly one liberty.
    #[inline]
    pub fn in_atari(&self, p: Point) -> bool {
        self.chain_in_atari(self.head[p.0] as usize)
    }

    #[inline]
    fn chain_in_atari(&self, h: usize) -> bool {
        let libs = self.libs[h];
        let (n, s) = (lib_count(libs), lib_sum(libs));
        n > 0 && n * (libs >> LIB_SQ_SHIFT) == s * s
    }

    /// The liberties of chain `h` other than `p`, where `touching` of the
    /// chain's stones are next to `p`, read from the packed sums without
    /// walking the chain: the rest is one point when its count times its
    /// sum of squares equals its sum squared (all the same point), else
    /// two or more.
    #[inline]
    fn liberties_besides(&self, h: usize, p: usize, touching: u64) -> OtherLiberties {
        let rest = self.libs[h] - touching * lib_unit(p);
        let (n, s) = (lib_count(rest), lib_sum(rest));
        if n == 0 {
            OtherLiberties::None
        } else if n * (rest >> LIB_SQ_SHIFT) == s * s {
            OtherLiberties::One((s / n) as usize)
        } else {
            OtherLiberties::Several
        }
    }

    /// Liberties of the chain through `p` counted once per adjacent stone.
    #[inline]
    fn pseudo_liberties(&self, p: Point) -> u32 {
        lib_count(self.libs[self.head[p.0] as usize]) as u32
    }

    /// The single liberty of a chain in atari.
    #[inline]
    pub fn atari_liberty(&self, p: Point) -> Option<Point> {
        let h = self.head[p.0] as usize;
        if self.chain_in_atari(h) {
            let libs = self.libs[h];
            Some(Point((lib_sum(libs) / lib_count(libs)) as usize))
        } else {
            None
        }
    }

    /// The stones of the chain through `p`.
    pub fn chain_stones(&self, p: Point) -> Bitboard {
        let mut b = Bitboard::EMPTY;
        let mut s = p.0;
        loop {
            b.set(s);
            s = self.next[s] as usize;
            if s == p.0 {
                return b;
            }
        }
    }

    /// The real liberties of the chain through `p`.
    pub fn chain_liberties(&self, p: Point) -> Bitboard {
        self.chain_stones(p).neighbours(self.stride) & self.empty_points()
    }

    pub fn liberty_count(&self, p: Point) -> u32 {
        if self.in_atari(p) {
            1
        } else {
            self.chain_liberties(p).count()
        }
    }

    /// Representative points, one per chain on the board.
    pub fn chains(&self) -> Vec<Point> {
        self.points()
            .filter(|&p| self.cells[p.0] != EMPTY && self.head[p.0] as usize == p.0)
            .collect()
    }

    // ---- move questions -------------------------------------------------

    /// An empty point whose neighbours are all `c`'s stones or the edge, with
    /// at most one opposing diagonal (none on the edge): filling it is almost
    /// never good, so playouts leave such points alone.
    #[inline]
    pub fn is_eye_like(&self, c: Color, p: Point) -> bool {
        let not_own = (NBR_EMPTY * NBR_FIELD) | (nbr_unit(c.opponent()) * NBR_FIELD);
        if self.nbr[p.0] & not_own != 0 {
            return false;
        }
        // Counted without branches: which diagonals are what is random.
        let enemy = c.opponent().cell();
        let mut bad = 0;
        let mut edge = 0;
        for q in self.diagonals(p) {
            let v = self.cells[q];
            bad += u32::from(v == enemy);
            edge |= u32::from(v == BORDER);
        }
        bad + edge <= 1
    }

    /// How many of the four neighbours of `p` are empty.
    #[inline]
    pub fn empty_neighbours(&self, p: Point) -> u32 {
        ((self.nbr[p.0] / NBR_EMPTY) & NBR_FIELD) as u32
    }

    /// Legal for `c` and not eye-like (see [`Board::is_eye_like`]): the light
    /// playout's test, with the common case (an empty neighbour, which rules
    /// out both an eye and the ko point) decided by one branch.
    #[inline]
    pub fn is_playable_non_eye(&self, c: Color, p: Point) -> bool {
        if self.nbr[p.0] & (NBR_EMPTY * NBR_FIELD) != 0 {
            return true;
        }
        !self.is_eye_like(c, p) && self.is_legal_no_suicide(c, p)
    }

    /// Legal for `c` ignoring superko and forbidding every suicide: the test
    /// the playouts use. Simple ko is honoured through the ko point.
    #[inline]
    pub fn is_legal_no_suicide(&self, c: Color, p: Point) -> bool {
        if self.cells[p.0] != EMPTY || self.ko == p.0 {
            return false;
        }
        if self.nbr[p.0] & (NBR_EMPTY * NBR_FIELD) != 0 {
            return true;
        }
        let own = c.cell();
        // A border neighbour is neither own nor in atari (see
        // [`NO_CHAIN_LIBERTIES`]), so it makes no move legal.
        for q in self.neighbours(p) {
            let v = self.cells[q];
            let in_atari = self.chain_in_atari(self.head[q] as usize);
            if (v == own) != in_atari {
                return true;
            }
        }
        false
    }

    /// What placing `c` at the empty point `p` would capture and whether it
    /// would be suicide, and the resulting hash. Ignores ko.
    pub fn predict(&self, c: Color, p: Point) -> Result<Prediction, PlaceError> {
        if self.cells[p.0] != EMPTY {
            return Err(PlaceError::Occupied);
        }
        let own = c.cell();
        let mut hash = self.hash ^ zobrist::STONE[c.index()][p.0];
        let mut captured_heads = [usize::MAX; 4];
        let mut captures = 0u32;
        let mut has_liberty = false;
        let mut own_heads = [usize::MAX; 4];
        for (k, q) in self.neighbours(p).into_iter().enumerate() {
            let v = self.cells[q];
            if v == EMPTY {
                has_liberty = true;
            } else if v == own {
                let h = self.head[q] as usize;
                own_heads[k] = h;
                if !self.chain_in_atari(h) {
                    has_liberty = true;
                }
            } else if v != BORDER {
                let h = self.head[q] as usize;
                if self.chain_in_atari(h) && !captured_heads.contains(&h) {
                    captured_heads[k] = h;
                    captures += self.chain_len[h] as u32;
                    hash ^= self.chain_hash(h, c.opponent());
                }
            }
        }
        if has_liberty || captures > 0 {
            return Ok(Prediction {
                captures,
                suicide: 0,
                hash_after: hash,
            });
        }
        if own_heads.iter().all(|&h| h == usize::MAX) {
            return Err(PlaceError::SingleStoneSuicide);
        }
        // Suicide of the merged chain: the new stone and every own neighbour chain.
        let mut suicide = 1;
        hash ^= zobrist::STONE[c.index()][p.0];
        for (k, &h) in own_heads.iter().enumerate() {
            if h != usize::MAX && !own_heads[..k].contains(&h) {
                suicide += self.chain_len[h] as u32;
                hash ^= self.chain_hash(h, c);
            }
        }
        Ok(Prediction {
            captures: 0,
            suicide,
            hash_after: hash,
        })
    }

    fn chain_hash(&self, h: usize, c: Color) -> u64 {
        let keys = &zobrist::STONE[c.index()];
        let mut hash = 0;
        let mut s = h;
        loop {
            hash ^= keys[s];
            s = self.next[s] as usize;
            if s == h {
                return hash;
            }
        }
    }

    // ---- changing the board ---------------------------------------------

    /// Places a stone of `c` at `p`, removing captured chains, and (when
    /// `allow_suicide`) the mover's own chain if it is left without liberties.
    pub fn place(&mut self, c: Color, p: Point, allow_suicide: bool) -> Result<Placed, PlaceError> {
        let prediction = self.predict(c, p)?;
        if prediction.suicide > 0 && !allow_suicide {
            return Err(PlaceError::Suicide);
        }
        let captures = self.place_unchecked(c, p);
        let mut suicide = 0;
        if prediction.suicide > 0 {
            suicide = self.remove_chain(p, c);
            self.captures[c.opponent().index()] += suicide;
            self.ko = 0;
        }
        Ok(Placed { captures, suicide })
    }

    /// Places a stone that [`Board::is_legal_no_suicide`] or
    /// [`Board::predict`] has already approved. Returns the number captured.
    /// The fast path of the playouts.
    #[inline]
    pub fn place_unchecked(&mut self, c: Color, p: Point) -> u32 {
        let i = p.0;
        let enemy = c.opponent().cell();
        self.add_stone(c, i);
        let neighbours = self.neighbours(p);
        let mut captured = 0;
        let mut last_captured = 0;
        // Captures are rare: one branch asks whether there is any.
        let mut capturing = false;
        for &q in &neighbours {
            capturing |=
                (lib_count(self.libs[self.head[q] as usize]) == 0) & (self.cells[q] == enemy);
        }
        if capturing {
            for &q in &neighbours {
                if lib_count(self.libs[self.head[q] as usize]) == 0 && self.cells[q] == enemy {
                    last_captured = q;
                    captured += self.remove_chain(Point(q), c.opponent());
                }
            }
        }
        self.captures[c.index()] += captured;
        let h = self.head[i] as usize;
        self.ko = if captured == 1 && self.chain_len[h] == 1 && lib_count(self.libs[h]) == 1 {
            last_captured
        } else {
            0
        };
        captured
    }

    /// Puts a stone on the empty point `i` and joins it to its neighbours'
    /// chains. Every stone–empty adjacency is one pseudo-liberty. Captures
    /// are the caller's business.
    ///
    /// Written with few branches: the kind of each neighbour is random in a
    /// playout, so a branch per kind is mispredicted about half the time.
    /// Empty and border neighbours have the scratch head [`NO_CHAIN`], which
    /// absorbs the liberty update meant for a chain.
    #[inline]
    fn add_stone(&mut self, c: Color, i: usize) {
        let own = c.cell();
        self.remove_empty(i);
        self.cells[i] = own;
        self.stones[c.index()].set(i);
        self.hash ^= zobrist::STONE[c.index()][i];
        let delta = nbr_unit(c).wrapping_sub(NBR_EMPTY);
        let mut libs = 0u64;
        let neighbours = self.neighbours(Point(i));
        let unit = lib_unit(i);
        // The first own neighbour in neighbour order, or `i` itself.
        let mut first_own = i;
        for &q in neighbours.iter().rev() {
            // Border points get counts too; nothing reads them.
            self.nbr[q] = self.nbr[q].wrapping_add(delta);
            let v = self.cells[q];
            libs += lib_unit(q * usize::from(v == EMPTY));
            let h = self.head[q] as usize;
            self.libs[h] = self.libs[h].wrapping_sub(unit);
            // A mask rather than a select, which gets compiled into a branch.
            let is_own = usize::from(v == own).wrapping_neg();
            first_own ^= (first_own ^ q) & is_own;
        }
        // The new stone joins the chain of its first own neighbour without a
        // branch (with none, `first` is `i` itself, a chain of no stones
        // yet). The result is the one `merge` gives (a single stone joined
        // to a single stone becomes the head), so chain rings, and with them
        // the order in which captures refill the empty list, stay as they were.
        self.head[i] = i as u16;
        self.next[i] = i as u16;
        self.chain_len[i] = 0;
        self.libs[i] = 0;
        let first = self.head[first_own] as usize;
        let joined = if self.chain_len[first] == 1 { i } else { first };
        self.libs[joined] = self.libs[first] + libs;
        self.chain_len[joined] = self.chain_len[first] + 1;
        self.head[first] = joined as u16;
        self.head[i] = joined as u16;
        self.next.swap(i, first);
        // Further chains to join are rare: one branch for all of them, on
        // whether some own neighbour is outside the chain of the new stone.
        // They are joined in neighbour order, as `merge` always did, which
        // keeps the chain rings as they were.
        let mut mine = joined;
        loop {
            // 0 for none: it is a border point, no neighbour of a stone.
            let mut outside = 0;
            for &q in neighbours.iter().rev() {
                let inside = self.head[q] as usize == mine;
                let other = usize::from((self.cells[q] == own) & !inside).wrapping_neg();
                outside ^= (outside ^ q) & other;
            }
            if outside == 0 {
                break;
            }
            self.merge(mine, self.head[outside] as usize);
            mine = self.head[i] as usize;
        }
        self.libs[NO_CHAIN] = NO_CHAIN_LIBERTIES;
    }

    /// Joins the smaller chain into the larger one.
    fn merge(&mut self, a: usize, b: usize) {
        let (big, small) = if self.chain_len[a] >= self.chain_len[b] {
            (a, b)
        } else {
            (b, a)
        };
        let mut s = small;
        loop {
            self.head[s] = big as u16;
            s = self.next[s] as usize;
            if s == small {
                break;
            }
        }
        self.next.swap(big, small);
        self.chain_len[big] += self.chain_len[small];
        self.libs[big] += self.libs[small];
    }

    /// Removes the chain through `p` (of colour `c`), returning its size and
    /// giving its points back as liberties to the neighbouring chains.
    fn remove_chain(&mut self, p: Point, c: Color) -> u32 {
        let start = p.0;
        let keys = &zobrist::STONE[c.index()];
        let mut count = 0;
        let delta = NBR_EMPTY.wrapping_sub(nbr_unit(c));
        let mut s = start;
        loop {
            for q in self.neighbours(Point(s)) {
                self.nbr[q] = self.nbr[q].wrapping_add(delta);
            }
            self.cells[s] = EMPTY;
            self.head[s] = NO_CHAIN as u16;
            self.stones[c.index()].clear(s);
            self.hash ^= keys[s];
            self.push_empty(s);
            count += 1;
            s = self.next[s] as usize;
            if s == start {
                break;
            }
        }
        // Liberties are given back only once every stone is gone, so that
        // adjacent stones of the removed chain do not receive them.
        let mut s = start;
        loop {
            for q in self.neighbours(Point(s)) {
                let h = self.head[q] as usize;
                self.libs[h] = self.libs[h].wrapping_add(lib_unit(s));
            }
            s = self.next[s] as usize;
            if s == start {
                break;
            }
        }
        self.libs[NO_CHAIN] = NO_CHAIN_LIBERTIES;
        count
    }

    #[inline]
    fn remove_empty(&mut self, i: usize) {
        let pos = self.empty_pos[i] as usize;
        self.empty_count -= 1;
        let last = self.empties[self.empty_count];
        if pos < self.empty_count {
            self.empties[pos] = last;
            self.empty_pos[last as usize] = pos as u16;
        }
        self.empty_pos[i] = u16::MAX;
    }

    #[inline]
    fn push_empty(&mut self, i: usize) {
        self.empty_pos[i] = self.empty_count as u16;
        self.empties[self.empty_count] = i as u16;
        self.empty_count += 1;
    }

    /// Removes stones given as dead (scoring) or by setup (SGF `AE`).
    pub fn remove_stone(&mut self, p: Point) {
        if let Some(c) = self.color_at(p) {
            // Rebuild rather than patch: removal can split a chain.
            let mut stones = self.stones;
            stones[c.index()].clear(p.0);
            *self = self.rebuilt(&stones);
        }
    }

    /// A board with exactly these stones (setup, diagrams, dead-stone removal).
    /// Chains without liberties are kept as given; no captures happen.
    fn rebuilt(&self, stones: &[Bitboard; 2]) -> Board {
        let mut b = Board::new(self.size).expect("size already validated");
        b.captures = self.captures;
        for c in [Color::Black, Color::White] {
            for i in stones[c.index()].iter() {
                b.put_setup_stone(c, Point(i));
            }
        }
        b
    }

    /// Adds a setup stone (handicap, SGF `AB`/`AW`) without capturing anything.
    pub fn put_setup_stone(&mut self, c: Color, p: Point) {
        if self.cells[p.0] != EMPTY {
            return;
        }
        self.add_stone(c, p.0);
        self.ko = 0;
    }

    /// A copy with the given chains (any stones in `dead`) taken off.
    pub fn without(&self, dead: &Bitboard) -> Board {
        let stones = [self.stones[0].and_not(dead), self.stones[1].and_not(dead)];
        self.rebuilt(&stones)
    }

    pub fn clear_ko(&mut self) {
        self.ko = 0;
    }

    // ---- areas ------------------------------------------------------------

    /// Empty points whose every empty path reaches only `c`'s stones
    /// (Tromp-Taylor "reaches"), for the literal position.
    pub fn area_territory(&self, c: Color) -> Bitboard {
        let empty = self.empty_points();
        let s = self.stride;
        let reach_own = self.stones[c.index()].neighbours(s).flood_fill(&empty, s);
        let reach_other = self.stones[c.opponent().index()]
            .neighbours(s)
            .flood_fill(&empty, s);
        reach_own.and_not(&reach_other)
    }

    /// Area score of the literal position: stones plus empty points reaching
    /// only that colour. `(black, white)`.
    pub fn area_counts(&self) -> (u32, u32) {
        (
            self.stones[0].count() + self.area_territory(Color::Black).count(),
            self.stones[1].count() + self.area_territory(Color::White).count(),
        )
    }

    /// Area counts for the end of a playout, where every empty region is a
    /// single point: an empty point counts for a colour when all its
    /// neighbours are that colour's stones. A few word operations instead of
    /// flood fills; larger regions (seki liberties) count for nobody.
    #[inline]
    pub fn playout_area_counts(&self) -> (u32, u32) {
        let empty = self.empty_points();
        let [black, white] = self.stones;
        let s = self.stride;
        let near_white_or_empty = (white | empty).neighbours(s);
        let near_black_or_empty = (black | empty).neighbours(s);
        (
            black.count() + empty.and_not(&near_white_or_empty).count(),
            white.count() + empty.and_not(&near_black_or_empty).count(),
        )
    }

    // ---- text -------------------------------------------------------------

    /// Rows from the top, `X` black, `O` white, `.` empty, separated by spaces.
    pub fn to_ascii(&self) -> String {
        let mut out = String::new();
        for y in (0..self.size).rev() {
            for x in 0..self.size {
                let p = Point((y + 1) * self.stride + x + 1);
                out.push(match self.cells[p.0] {
                    BLACK => 'X',
                    WHITE => 'O',
                    _ => '.',
                });
                if x + 1 < self.size {
                    out.push(' ');
                }
            }
            out.push('\n');
        }
        out
    }

    /// Reads a diagram: rows from the top, `X`/`B`/`#` black, `O`/`W`/`@`
    /// white, `.`/`+`/`,` empty; spaces ignored; blank lines skipped. The board
    /// is square with the number of rows as its size. Stones are placed as
    /// setup (no captures).
    pub fn from_ascii(diagram: &str) -> Result<Board, CoordError> {
        let rows: Vec<Vec<char>> = diagram
            .lines()
            .map(|l| {
                l.chars()
                    .filter(|ch| !ch.is_whitespace())
                    .collect::<Vec<_>>()
            })
            .filter(|r| !r.is_empty())
            .collect();
        let size = rows.len();
        let mut board = Board::new(size)?;
        for (row, cells) in rows.iter().enumerate() {
            if cells.len() != size {
                return Err(CoordError::BadDiagram(format!(
                    "row {} has {} points, expected {}",
                    row + 1,
                    cells.len(),
                    size
                )));
            }
            let y = size - 1 - row;
            for (x, &ch) in cells.iter().enumerate() {
                let p = board.point(x, y)?;
                match ch {
                    'X' | 'x' | 'B' | '#' => board.put_setup_stone(Color::Black, p),
                    'O' | 'o' | 'W' | '@' => board.put_setup_stone(Color::White, p),
                    '.' | '+' | ',' => {}
                    other => {
                        return Err(CoordError::BadDiagram(format!("unexpected '{other}'")));
                    }
                }
            }
        }
        Ok(board)
    }

    /// Recomputes the hash from scratch (tests compare it with the incremental one).
    pub fn recompute_hash(&self) -> u64 {
        let mut h = 0;
        for c in [Color::Black, Color::White] {
            for i in self.stones[c.index()].iter() {
                h ^= zobrist::STONE[c.index()][i];
            }
        }
        h
    }

    /// Checks every derived structure against the stones; for tests.
    pub fn check_consistency(&self) -> Result<(), String> {
        if self.hash != self.recompute_hash() {
            return Err("hash differs from recomputation".into());
        }
        if self.chain_in_atari(NO_CHAIN) {
            return Err("border and empty points read as a chain in atari".into());
        }
        let fresh = self.rebuilt(&self.stones);
        for p in self.points() {
            let expected = match (self.stones[0].contains(p.0), self.stones[1].contains(p.0)) {
                (true, false) => BLACK,
                (false, true) => WHITE,
                (false, false) => EMPTY,
                (true, true) => return Err(format!("point {} is both colours", p.0)),
            };
            if self.cells[p.0] != expected {
                return Err(format!("cell {} disagrees with bitboards", p.0));
            }
            if self.nbr[p.0] != fresh.nbr[p.0] {
                return Err(format!("neighbour counts of {} differ", p.0));
            }
            if expected != EMPTY {
                if self.chain_stones(p) != fresh.chain_stones(p) {
                    return Err(format!("chain through {} differs", p.0));
                }
                let (h, fh) = (self.head[p.0] as usize, fresh.head[p.0] as usize);
                if self.libs[h] != fresh.libs[fh] {
                    return Err(format!("liberties of chain through {} differ", p.0));
                }
            } else if self.empties[self.empty_pos[p.0] as usize] as usize != p.0 {
                return Err(format!("empty list misses {}", p.0));
            }
        }
        if self.empty_count != fresh.empty_count {
            return Err("empty list length differs".into());
        }
        Ok(())
    }
}

/// The point named `v` (e.g. "C3") on `b`: for unit tests' diagrams.
#[cfg(test)]
pub(crate) fn test_point(b: &Board, v: &str) -> Point {
    coord::parse_vertex(v, b.size())
        .expect("test vertex")
        .expect("test vertex is not a pass")
}

#[cfg(test)]
mod tests {
    use super::test_point as at;
    use super::*;

    #[test]
    fn the_point_index_bound_is_one_past_the_last_point() {
        for size in MIN_SIZE..=MAX_SIZE {
            let b = Board::new(size).unwrap();
            let last = b.points().map(|p| p.0).max().unwrap();
            assert_eq!(b.point_index_bound(), last + 1, "size {size}");
        }
    }

    #[test]
    fn capture_in_the_corner() {
        let mut b = Board::from_ascii(
            "
            . . .
            . . .
            O X .",
        )
        .unwrap();
        assert!(b.in_atari(at(&b, "A1")));
        assert_eq!(b.atari_liberty(at(&b, "A1")), Some(at(&b, "A2")));
        let before = b.hash();
        let placed = b.place(Color::Black, at(&b, "A2"), false).unwrap();
        assert_eq!(placed.captures, 1);
        assert_ne!(b.hash(), before);
        assert!(b.is_empty_at(at(&b, "A1")));
        b.check_consistency().unwrap();
        assert_eq!(b.captures(Color::Black), 1);
    }

    #[test]
    fn each_side_sees_its_own_stones_as_own() {
        let b = Board::from_ascii(
            "
            . . .
            . X .
            O . .",
        )
        .unwrap();
        let (black, white) = (at(&b, "B2"), at(&b, "A1"));
        assert_eq!(b.seen_by(Color::Black, black), 1);
        assert_eq!(b.seen_by(Color::Black, white), 2);
        assert_eq!(b.seen_by(Color::White, black), 2);
        assert_eq!(b.seen_by(Color::White, white), 1);
        assert_eq!(b.seen_by(Color::White, at(&b, "C3")), 0);
        // Point 0 and the point left of A1 are off the board.
        assert_eq!(b.seen_by(Color::Black, Point(0)), 3);
        assert_eq!(b.seen_by(Color::White, Point(white.0 - 1)), 3);
    }

    #[test]
    fn single_stone_suicide_is_refused() {
        let mut b = Board::from_ascii(
            "
            . X .
            X . X
            . X .",
        )
        .unwrap();
        let p = at(&b, "B2");
        assert_eq!(
            b.place(Color::White, p, true),
            Err(PlaceError::SingleStoneSuicide)
        );
        assert!(!b.is_legal_no_suicide(Color::White, p));
        assert!(b.is_legal_no_suicide(Color::Black, p));
    }

    #[test]
    fn multi_stone_suicide_when_allowed() {
        let diagram = "
            . O O .
            O X . O
            . O O .
            . . . .";
        let mut b = Board::from_ascii(diagram).unwrap();
        let p = at(&b, "C3");
        assert_eq!(b.place(Color::Black, p, false), Err(PlaceError::Suicide));
        let placed = b.place(Color::Black, p, true).unwrap();
        assert_eq!(placed.suicide, 2);
        assert_eq!(b.captures(Color::White), 2);
        b.check_consistency().unwrap();
        assert!(b.is_empty_at(p) && b.is_empty_at(at(&b, "B3")));
    }

    #[test]
    fn ko_point_after_single_capture() {
        let mut b = Board::from_ascii(
            "
            . X O .
            X O . O
            . X O .
            . . . .",
        )
        .unwrap();
        let placed = b.place(Color::Black, at(&b, "C3"), false).unwrap();
        assert_eq!(placed.captures, 1);
        assert_eq!(b.ko_point(), Some(at(&b, "B3")));
        assert!(!b.is_legal_no_suicide(Color::White, at(&b, "B3")));
        b.check_consistency().unwrap();
    }

    #[test]
    fn predict_matches_place() {
        let b = Board::from_ascii(
            "
            . X O .
            X O . O
            . X O .
            . . . .",
        )
        .unwrap();
        let p = at(&b, "C3");
        let pred = b.predict(Color::Black, p).unwrap();
        let mut after = b.clone();
        after.place(Color::Black, p, false).unwrap();
        assert_eq!(pred.hash_after, after.hash());
        assert_eq!(pred.captures, 1);
    }

    #[test]
    fn a_chain_left_in_atari_is_seen_from_the_point_of_the_move() {
        // Black C3 has just put White's C2 in atari.
        let b = Board::from_ascii(
            "
            . . . . .
            . . . . .
            . . X . .
            . X O X .
            . . . . .",
        )
        .unwrap();
        assert!(b.atari_at_or_beside(at(&b, "C3")));
        assert!(
            b.atari_at_or_beside(at(&b, "C1")),
            "the empty liberty touches it too"
        );
        assert!(b.atari_at_or_beside(at(&b, "B2")), "B2 touches White's C2");
        assert!(
            !b.atari_at_or_beside(at(&b, "B3")),
            "B3 touches no chain in atari"
        );
        assert!(!b.atari_at_or_beside(at(&b, "E5")));
        // White A1 has put itself in atari: only A2 is left.
        let b = Board::from_ascii(
            "
            . . . . .
            . . . . .
            . . . . .
            . . . . .
            O X . . .",
        )
        .unwrap();
        assert!(b.atari_at_or_beside(at(&b, "A1")));
        // Two liberties for every chain: nothing in atari.
        let b = Board::from_ascii(
            "
            . . . . .
            . . . . .
            . . . . .
            . X O . .
            . . . . .",
        )
        .unwrap();
        assert!(!b.atari_at_or_beside(at(&b, "C2")));
        assert!(!b.atari_at_or_beside(at(&b, "B2")));
    }
}
