//! Learned move strengths for the playouts (Coulom's "gammas", 2007): every
//! candidate move is described by a few features (its 3×3 shape with atari
//! marks, what it does tactically, how far it is from the last two moves),
//! each feature value has a strength learned from game records, and a move
//! is chosen with probability proportional to the product of its features'
//! strengths.
//!
//! `gammas.txt` holds the strengths; `examples/learn_gammas.rs` makes it by
//! minorization-maximization over the same records as `shapes.txt` (RESEARCH.md,
//! Learned shapes). The tree priors use them on 9x9 and smaller boards
//! (`policy`), the heavy playouts with `--tune playout_softmax=1` (`softmax`).

use super::shapes::{shape_key, symmetries, KEY_BITS};
use super::spatial::SpatialTable;
use crate::board::tactics::MoveShape;
use crate::board::{Board, Color, Point};
use std::sync::OnceLock;

/// What a move does to the chains next to it, the first that applies in
/// this order. One value per move, so that the strengths of a group stay
/// independent of each other.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Tactic {
    Quiet = 0,
    /// Captures the chain of the opponent's last move.
    CaptureLast = 1,
    /// Captures a chain next to an own chain in atari.
    CaptureSaving = 2,
    /// Captures some other chain.
    Capture = 3,
    /// Extends an own chain out of atari to three liberties or more.
    EscapeSafe = 4,
    /// Extends an own chain out of atari to two liberties.
    EscapeTwo = 5,
    /// Puts a lone stone in atari.
    SelfAtariOne = 6,
    /// Puts two or more own stones in atari.
    SelfAtariMany = 7,
    /// Puts an opposing chain in atari.
    Atari = 8,
}

pub const TACTICS: usize = 9;

/// Distance classes to an earlier move: 0 when there is none (a pass, the
/// start), else Coulom's d = dx + dy + max(dx, dy) less one, capped: 1 is a
/// neighbour, 2 a diagonal, 3 two steps straight out, up to 8 for 9 and
/// beyond.
pub const NEAR_CLASSES: usize = 9;

#[inline]
pub fn near_class(board: &Board, p: Point, earlier: Option<Point>) -> u8 {
    let Some(e) = earlier else {
        return 0;
    };
    let ((px, py), (ex, ey)) = (board.xy(p), board.xy(e));
    distance_class(px.abs_diff(ex), py.abs_diff(ey))
}

/// The distance class of two distinct points `dx` columns and `dy` rows
/// apart (see [`NEAR_CLASSES`]).
#[inline]
pub fn distance_class(dx: usize, dy: usize) -> u8 {
    let d = dx + dy + dx.max(dy);
    (d.clamp(2, 9) - 1) as u8
}

/// A candidate move described for the strengths.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveFeatures {
    /// The raw 3×3 shape key (`shapes::shape_key`).
    pub shape: u32,
    pub tactic: Tactic,
    /// Distance class to the opponent's last move.
    pub near_last: u8,
    /// Distance class to the mover's own previous move.
    pub near_own: u8,
}

/// The features of `c` playing at the empty point `p`, the opponent's last
/// move being `last` and the mover's previous one `own_last`.
pub fn features(
    board: &Board,
    c: Color,
    p: Point,
    last: Option<Point>,
    own_last: Option<Point>,
) -> MoveFeatures {
    features_with(board, c, p, last, own_last, || board.move_shape(c, p, 3))
}

/// [`features`], with `shape` giving `board.move_shape(c, p, 3)` when asked:
/// a caller that has it already saves reading the chains a second time.
pub fn features_with(
    board: &Board,
    c: Color,
    p: Point,
    last: Option<Point>,
    own_last: Option<Point>,
    shape: impl FnOnce() -> MoveShape,
) -> MoveFeatures {
    MoveFeatures {
        shape: shape_key(board, c, p),
        tactic: tactic_with(board, c, p, last, shape),
        near_last: near_class(board, p, last),
        near_own: near_class(board, p, own_last),
    }
}

/// What `c` at `p` does to the chains around it (see [`Tactic`]).
pub fn tactic(board: &Board, c: Color, p: Point, last: Option<Point>) -> Tactic {
    tactic_with(board, c, p, last, || board.move_shape(c, p, 3))
}

/// [`tactic`], with `shape` giving `board.move_shape(c, p, 3)` when asked.
fn tactic_with(
    board: &Board,
    c: Color,
    p: Point,
    last: Option<Point>,
    shape: impl FnOnce() -> MoveShape,
) -> Tactic {
    let empty = board.empty_neighbours(p);
    if empty == 4 {
        return Tactic::Quiet;
    }
    let mut captures_last = false;
    let mut saves = false;
    let mut captures = false;
    let mut own_in_atari = false;
    let mut ataris = false;
    let last_chain = last
        .filter(|&l| board.color_at(l).is_some())
        .map(|l| board.chain_id(l));
    for q in board.neighbours(p) {
        let q = Point(q);
        match board.color_at(q) {
            Some(owner) if owner == c => own_in_atari |= board.in_atari(q),
            Some(_) => {
                if board.in_atari(q) {
                    captures = true;
                    captures_last |= Some(board.chain_id(q)) == last_chain;
                    saves = saves || next_to_own_atari(board, c, q);
                } else if board.two_liberties(q).is_some() {
                    ataris = true;
                }
            }
            None => {}
        }
    }
    if captures_last {
        return Tactic::CaptureLast;
    }
    if captures {
        return if saves {
            Tactic::CaptureSaving
        } else {
            Tactic::Capture
        };
    }
    // Two empty neighbours and no own chain in atari next to it: neither
    // a self-atari nor an escape, and no chain to walk.
    if !own_in_atari && empty >= 2 {
        return if ataris { Tactic::Atari } else { Tactic::Quiet };
    }
    let shape = shape();
    if shape.liberties < 2 {
        return if shape.chain_len >= 2 {
            Tactic::SelfAtariMany
        } else {
            Tactic::SelfAtariOne
        };
    }
    if own_in_atari {
        return if shape.liberties >= 3 {
            Tactic::EscapeSafe
        } else {
            Tactic::EscapeTwo
        };
    }
    if ataris {
        Tactic::Atari
    } else {
        Tactic::Quiet
    }
}

/// Some stone of `c` in atari touches the chain through `q`.
fn next_to_own_atari(board: &Board, c: Color, q: Point) -> bool {
    let stones = board.chain_stones(q);
    let around = stones.neighbours(board.stride()) & *board.stones(c);
    around.iter().any(|s| board.in_atari(Point(s)))
}

/// Strengths are kept as a byte per shape key: the natural logarithm in
/// sixteenths around 128, so that the whole table is one megabyte.
const LOG_STEP: f64 = 1.0 / 16.0;

fn to_level(gamma: f64) -> u8 {
    (128.0 + gamma.max(1e-30).ln() / LOG_STEP)
        .round()
        .clamp(0.0, 255.0) as u8
}

/// The strengths of every feature value.
pub struct Gammas {
    shape_level: Box<[u8]>,
    level: [f32; 256],
    tactic: [f32; TACTICS],
    near_last: [f32; NEAR_CLASSES],
    near_own: [f32; NEAR_CLASSES],
    /// Large patterns (`spatial`), in tables learned with them.
    spatial: SpatialTable,
}

impl Gammas {
    /// The large patterns of the table, if it was learned with them.
    pub fn spatial(&self) -> Option<&SpatialTable> {
        (!self.spatial.is_empty()).then_some(&self.spatial)
    }

    /// The strength of the largest known pattern of `c` at `p` that
    /// reaches no further than gridcular distance `reach` (1 in a table
    /// without large patterns).
    pub fn spatial_strength(&self, board: &Board, c: Color, p: Point, reach: usize) -> f32 {
        match self.spatial() {
            Some(table) => table.strength(table.matched_at(board, c, p, reach)),
            None => 1.0,
        }
    }

    /// The strength of a move with these features.
    #[inline]
    pub fn weight(&self, f: &MoveFeatures) -> f32 {
        self.shape(f.shape)
            * self.tactic(f.tactic)
            * self.near_last(f.near_last)
            * self.near_own(f.near_own)
    }

    /// The strength of a raw shape key.
    #[inline]
    pub fn shape(&self, key: u32) -> f32 {
        self.level[self.shape_level[key as usize & ((1 << KEY_BITS) - 1)] as usize]
    }

    #[inline]
    pub fn tactic(&self, t: Tactic) -> f32 {
        self.tactic[t as usize]
    }

    /// The strength of a distance class to the opponent's last move.
    #[inline]
    pub fn near_last(&self, class: u8) -> f32 {
        self.near_last[class as usize % NEAR_CLASSES]
    }

    /// The strength of a distance class to the mover's previous move.
    #[inline]
    pub fn near_own(&self, class: u8) -> f32 {
        self.near_own[class as usize % NEAR_CLASSES]
    }

    /// Parses `gammas.txt`: `#` comments, then lines `tactic K G`,
    /// `near_last K G`, `near_own K G`, `shape KEY G` (key in hex, any of
    /// its symmetric forms) and `shape_other G` (any shape not listed);
    /// tables learned with large patterns add `spatial D KEY G` and
    /// `spatial_other G` (`spatial`).
    pub fn parse(text: &str) -> Result<Gammas, String> {
        let mut g = Gammas {
            shape_level: vec![128u8; 1 << KEY_BITS].into_boxed_slice(),
            level: std::array::from_fn(|v| ((v as f64 - 128.0) * LOG_STEP).exp() as f32),
            tactic: [1.0; TACTICS],
            near_last: [1.0; NEAR_CLASSES],
            near_own: [1.0; NEAR_CLASSES],
            spatial: SpatialTable::default(),
        };
        let mut shapes = Vec::new();
        let mut other = 1.0;
        for (n, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let bad = || format!("gammas line {}: '{line}'", n + 1);
            let fields: Vec<&str> = line.split_whitespace().collect();
            let gamma = fields
                .last()
                .and_then(|f| f.parse::<f64>().ok())
                .filter(|v| v.is_finite() && *v > 0.0)
                .ok_or_else(bad)?;
            let index = |limit: usize| {
                fields
                    .get(1)
                    .and_then(|f| f.parse::<usize>().ok())
                    .filter(|&k| k < limit && fields.len() == 3)
                    .ok_or_else(bad)
            };
            if g.spatial
                .parse_line(&fields)
                .map_err(|e| format!("{}: {e}", bad()))?
            {
                continue;
            }
            match fields[0] {
                "tactic" => g.tactic[index(TACTICS)?] = gamma as f32,
                "near_last" => g.near_last[index(NEAR_CLASSES)?] = gamma as f32,
                "near_own" => g.near_own[index(NEAR_CLASSES)?] = gamma as f32,
                "shape_other" if fields.len() == 2 => other = gamma,
                "shape" if fields.len() == 3 => {
                    let key = u32::from_str_radix(fields[1], 16)
                        .ok()
                        .filter(|&k| k < 1 << KEY_BITS)
                        .ok_or_else(bad)?;
                    shapes.push((key, gamma));
                }
                _ => return Err(bad()),
            }
        }
        g.shape_level.fill(to_level(other));
        for (key, gamma) in shapes {
            for form in symmetries(key) {
                g.shape_level[form as usize] = to_level(gamma);
            }
        }
        Ok(g)
    }
}

/// Which moves a table of strengths was learned from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// Human game records (`gammas.txt`, RESEARCH.md: Learned shapes).
    Records,
    /// ishi's own moves in its 9x9 matches against GNU Go at 5000 playouts
    /// (`gammas_own9.txt`): strengths that point where the search ended up.
    OwnGames9,
    /// The records of `gammas.txt` learned again with large patterns up
    /// to d 6 (`gammas_spatial.txt`; the default, `--tune
    /// prior_gamma_spatial=0` asks for `Records`).
    Spatial,
}

static RECORDS: OnceLock<Gammas> = OnceLock::new();
static OWN_GAMES_9: OnceLock<Gammas> = OnceLock::new();
static SPATIAL: OnceLock<Gammas> = OnceLock::new();

/// The strengths shipped with the engine, learned from human records.
pub fn table() -> &'static Gammas {
    table_of(Source::Records)
}

/// A table shipped with the engine (all even if its file is broken, which
/// a test rules out).
pub fn table_of(source: Source) -> &'static Gammas {
    let (cell, text) = match source {
        Source::Records => (&RECORDS, include_str!("gammas.txt")),
        Source::OwnGames9 => (&OWN_GAMES_9, include_str!("gammas_own9.txt")),
        Source::Spatial => (&SPATIAL, include_str!("gammas_spatial.txt")),
    };
    cell.get_or_init(|| {
        Gammas::parse(text).unwrap_or_else(|e| {
            log::error!("{e}; move strengths are all even");
            Gammas::parse("").unwrap_or_else(|_| unreachable!("an empty table parses"))
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::test_point as at;
    use crate::search::spatial;

    fn tactic_at(diagram: &str, c: Color, p: &str, last: Option<&str>) -> Tactic {
        let b = Board::from_ascii(diagram).unwrap();
        tactic(&b, c, at(&b, p), last.map(|l| at(&b, l)))
    }

    #[test]
    fn the_shipped_strengths_parse() {
        Gammas::parse(include_str!("gammas.txt")).unwrap();
        Gammas::parse(include_str!("gammas_own9.txt")).unwrap();
        let spatial = Gammas::parse(include_str!("gammas_spatial.txt")).unwrap();
        assert!(spatial.spatial().is_some_and(|t| t.len() > 1000));
    }

    #[test]
    fn captures_tell_the_last_move_and_saving_apart() {
        let lone = "\
            . . . . .\n\
            . . . . .\n\
            . X . . .\n\
            X O X . .\n\
            . . . . .\n";
        let black = Color::Black;
        assert_eq!(
            tactic_at(lone, black, "B1", Some("B2")),
            Tactic::CaptureLast
        );
        assert_eq!(tactic_at(lone, black, "B1", None), Tactic::Capture);
        // Taking B2 also frees A2, in atari next to it.
        let saving = "\
            . . . . .\n\
            . . . . .\n\
            O X . . .\n\
            X O X . .\n\
            . . . . .\n";
        assert_eq!(
            tactic_at(saving, black, "B1", Some("A3")),
            Tactic::CaptureSaving
        );
    }

    #[test]
    fn self_ataris_escapes_and_ataris() {
        let caught = "\
            . . . . .\n\
            . . . . .\n\
            . O O . .\n\
            O X X O .\n\
            . O . . .\n";
        assert_eq!(
            tactic_at(caught, Color::Black, "C1", None),
            Tactic::SelfAtariMany
        );
        assert_eq!(
            tactic_at(caught, Color::White, "C1", Some("C2")),
            Tactic::CaptureLast
        );
        let lone = "\
            . . . . .\n\
            . . . . .\n\
            . O . . .\n\
            O . . . .\n\
            . O . . .\n";
        assert_eq!(
            tactic_at(lone, Color::Black, "B2", None),
            Tactic::SelfAtariOne
        );
        let running = "\
            . . . . .\n\
            . . . . .\n\
            . O . . .\n\
            O X . . .\n\
            . O . . .\n";
        assert_eq!(
            tactic_at(running, Color::Black, "C2", None),
            Tactic::EscapeSafe
        );
        let narrow = "\
            . . . . .\n\
            . . . . .\n\
            . O O . .\n\
            O X . . .\n\
            . O . . .\n";
        assert_eq!(
            tactic_at(narrow, Color::Black, "C2", None),
            Tactic::EscapeTwo
        );
        let two_liberties = "\
            . . . . .\n\
            . . . . .\n\
            . X . . .\n\
            . O X . .\n\
            . . . . .\n";
        assert_eq!(
            tactic_at(two_liberties, Color::Black, "A2", None),
            Tactic::Atari
        );
        assert_eq!(
            tactic_at(two_liberties, Color::Black, "D4", None),
            Tactic::Quiet
        );
    }

    #[test]
    fn distance_classes_follow_coulom() {
        let b = Board::new(9).unwrap();
        let e5 = at(&b, "E5");
        let class = |p: &str| near_class(&b, at(&b, p), Some(e5));
        assert_eq!(class("E6"), 1);
        assert_eq!(class("F6"), 2);
        assert_eq!(class("E7"), 3);
        assert_eq!(class("F7"), 4);
        assert_eq!(class("A1"), 8);
        assert_eq!(near_class(&b, e5, None), 0);
    }

    #[test]
    fn the_shipped_large_patterns_are_found_by_their_keys() {
        // On an empty board strong players take the third line, seldom the
        // second and never the first. The table, learned up to d 6 (three
        // points straight out), knows these open patterns, so the keys it
        // was learned with are the keys computed here; and d 6 sees no
        // further on 19x19 than on 9x9.
        let g = table_of(Source::Spatial);
        for size in [9, 19] {
            let b = Board::new(size).unwrap();
            let strength = |p: &str| {
                let table = g.spatial().unwrap();
                let found = table.matched(&spatial::keys(&b, Color::Black, at(&b, p)));
                (table.distance(found), table.strength(found))
            };
            let (d, third) = strength("C5");
            assert_eq!(d, 6);
            let (d, open) = strength("E5");
            assert_eq!(d, 6);
            let (_, second) = strength("B5");
            let (_, first) = strength("A5");
            assert!(third > 2.0 * open, "{size}: {third} against {open}");
            assert!(open > 10.0 * second, "{size}: {open} against {second}");
            assert!(open > 10.0 * first, "{size}: {open} against {first}");
            // A reach of 3 leaves only the 3×3 shape, which has a feature
            // of its own: no large pattern is matched.
            let c5 = at(&b, "C5");
            assert_eq!(g.spatial().unwrap().largest_distance(), 6);
            assert_eq!(g.spatial_strength(&b, Color::Black, c5, 10), third);
            assert_eq!(g.spatial_strength(&b, Color::Black, c5, 3), 1.0);
            assert_eq!(
                table_of(Source::Records).spatial_strength(&b, Color::Black, c5, 10),
                1.0
            );
        }
    }
}
