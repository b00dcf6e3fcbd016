//! The cache of reference searches that `search_regret` writes: one line
//! a position, `name<TAB>budget<TAB>move:visits:winrate ...`, where the name
//! is `file:ply` (or `file:ply|move` for the position after that move).

use ishi::board::coord::move_name;
use ishi::board::Move;
use std::collections::HashMap;
use std::path::Path;

/// The reference's moves with their visits and win rates for the mover.
pub type Valued = Vec<(Move, u64, f64)>;

fn parse_move(text: &str, size: usize) -> Option<Move> {
    match ishi::board::coord::parse_vertex(text, size).ok()? {
        Some(p) => Some(Move::Place(p)),
        None => Some(Move::Pass),
    }
}

/// Reads the cached reference searches of `budget` playouts (the budget
/// of the search_regret run), by name; a missing file is an empty cache.
pub fn read_cache(path: &Path, budget: u64, size: usize) -> HashMap<String, Valued> {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    entries(&text, Some(budget), size).collect()
}

/// The searches of a cache's text in file order, those of `budget`
/// playouts only when it is given; lines that do not read are skipped.
pub fn entries(
    text: &str,
    budget: Option<u64>,
    size: usize,
) -> impl Iterator<Item = (String, Valued)> + '_ {
    text.lines().filter_map(move |line| {
        let mut fields = line.split('\t');
        let (name, b, moves) = (fields.next()?, fields.next()?, fields.next()?);
        if budget.is_some_and(|budget| b.parse::<u64>().ok() != Some(budget)) {
            return None;
        }
        let valued: Option<Valued> = moves
            .split(' ')
            .filter(|m| !m.is_empty())
            .map(|m| {
                let mut parts = m.split(':');
                Some((
                    parse_move(parts.next()?, size)?,
                    parts.next()?.parse().ok()?,
                    parts.next()?.parse().ok()?,
                ))
            })
            .collect();
        Some((name.to_string(), valued?))
    })
}

pub fn cache_line(name: &str, budget: u64, valued: &Valued, size: usize) -> String {
    let moves: Vec<String> = valued
        .iter()
        .map(|(m, v, w)| format!("{}:{v}:{w:.4}", move_name(*m, size)))
        .collect();
    format!("{name}\t{budget}\t{}", moves.join(" "))
}
