//! Points and their GTP names (`A1` bottom left, no `I`, `pass`).

use std::fmt;

/// An index into the padded point space of a [`super::Board`]; only
/// meaningful together with the board's size.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Point(pub usize);

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CoordError {
    BadSize(usize),
    OffBoard,
    BadVertex(String),
    BadColor(String),
    BadDiagram(String),
}

impl fmt::Display for CoordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CoordError::BadSize(n) => write!(f, "board size {n} is not between 2 and 25"),
            CoordError::OffBoard => f.write_str("vertex is off the board"),
            CoordError::BadVertex(v) => write!(f, "invalid vertex '{v}'"),
            CoordError::BadColor(c) => write!(f, "invalid color '{c}'"),
            CoordError::BadDiagram(why) => write!(f, "bad diagram: {why}"),
        }
    }
}

impl std::error::Error for CoordError {}

const LETTERS: &[u8] = b"ABCDEFGHJKLMNOPQRSTUVWXYZ";

/// `Ok(None)` for a pass. Column letters skip `I`; any case.
pub fn parse_vertex(s: &str, size: usize) -> Result<Option<Point>, CoordError> {
    let short: String = s.chars().take(16).collect();
    if s.eq_ignore_ascii_case("pass") {
        return Ok(None);
    }
    let bad = || CoordError::BadVertex(short.clone());
    let mut chars = s.chars();
    let letter = chars.next().ok_or_else(bad)?.to_ascii_uppercase();
    let x = LETTERS
        .iter()
        .position(|&l| l as char == letter)
        .ok_or_else(bad)?;
    let digits = chars.as_str();
    if digits.is_empty() || digits.len() > 3 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(bad());
    }
    let row: usize = digits.parse().map_err(|_| bad())?;
    if row == 0 || row > size || x >= size {
        return Err(CoordError::OffBoard);
    }
    let stride = size + 1;
    Ok(Some(Point(row * stride + x + 1)))
}

/// The GTP name of a point on a board of `size`.
pub fn vertex_name(p: Point, size: usize) -> String {
    let stride = size + 1;
    let (x, y) = (p.0 % stride - 1, p.0 / stride);
    format!("{}{}", LETTERS[x] as char, y)
}

/// The GTP name of a move (`pass` for a pass).
pub fn move_name(m: super::Move, size: usize) -> String {
    match m {
        super::Move::Pass => "pass".to_string(),
        super::Move::Place(p) => vertex_name(p, size),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_every_vertex() {
        for size in [2, 9, 19, 25] {
            for y in 1..=size {
                for &letter in &LETTERS[..size] {
                    let name = format!("{}{}", letter as char, y);
                    let p = parse_vertex(&name, size).unwrap().unwrap();
                    assert_eq!(vertex_name(p, size), name);
                    let lower = parse_vertex(&name.to_lowercase(), size).unwrap();
                    assert_eq!(lower, Some(p));
                }
            }
        }
    }

    #[test]
    fn rejects_nonsense() {
        for bad in ["", "I5", "A0", "A", "5A", "Z99", "A-1", "A+1", "A1x", "é3"] {
            assert!(parse_vertex(bad, 9).is_err(), "{bad}");
        }
        assert_eq!(parse_vertex("J10", 9), Err(CoordError::OffBoard));
        assert_eq!(parse_vertex("PaSs", 9), Ok(None));
    }
}
