//! Benson's unconditional life: chains that no sequence of opposing moves can
//! capture, even if their owner passes every turn ("pass-alive"), and the
//! small regions they enclose, where opposing stones can never live.

use super::{Bitboard, Board, Color, Point};

/// What Benson's test proves for one colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PassAlive {
    /// Stones of the pass-alive chains.
    pub chains: Bitboard,
    /// Regions (empty points and opposing stones) enclosed only by pass-alive
    /// chains whose every empty point is a liberty of one of them: opposing
    /// stones there are unconditionally dead, empty points are sure territory.
    pub territory: Bitboard,
}

struct Chain {
    stones: Bitboard,
    /// The chain's stones grown by one step: its liberties and its neighbours.
    halo: Bitboard,
    alive: bool,
}

struct Region {
    points: Bitboard,
    /// Indices of the chains touching the region.
    borders: Vec<usize>,
    /// Indices of the chains for which every empty point of the region is a liberty.
    vital_to: Vec<usize>,
    alive: bool,
}

impl Board {
    /// Benson's algorithm for `c`: repeatedly drop chains with fewer than two
    /// vital regions, and regions touching a dropped chain, until stable.
    pub fn pass_alive(&self, c: Color) -> PassAlive {
        let stride = self.stride;
        let empty = self.empty_points();
        let mut chains: Vec<Chain> = self
            .chains()
            .into_iter()
            .filter(|&p| self.color_at(p) == Some(c))
            .map(|p| {
                let stones = self.chain_stones(p);
                Chain {
                    stones,
                    halo: stones.neighbours(stride) & self.on_board,
                    alive: true,
                }
            })
            .collect();
        let outside = self.on_board.and_not(&self.stones[c.index()]);
        let mut regions: Vec<Region> = outside
            .components(stride)
            .into_iter()
            .map(|points| {
                let empties = points & empty;
                let borders: Vec<usize> = (0..chains.len())
                    .filter(|&k| chains[k].halo.intersects(&points))
                    .collect();
                let vital_to = borders
                    .iter()
                    .copied()
                    .filter(|&k| !empties.is_empty() && empties.and_not(&chains[k].halo).is_empty())
                    .collect();
                Region {
                    points,
                    borders,
                    vital_to,
                    alive: true,
                }
            })
            .collect();

        loop {
            let mut changed = false;
            for (k, chain) in chains.iter_mut().enumerate() {
                if !chain.alive {
                    continue;
                }
                let vital = regions
                    .iter()
                    .filter(|r| r.alive && r.vital_to.contains(&k))
                    .count();
                if vital < 2 {
                    chain.alive = false;
                    changed = true;
                }
            }
            for r in regions.iter_mut().filter(|r| r.alive) {
                if r.borders.iter().any(|&k| !chains[k].alive) {
                    r.alive = false;
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }

        let mut result = PassAlive {
            chains: Bitboard::EMPTY,
            territory: Bitboard::EMPTY,
        };
        for ch in chains.iter().filter(|ch| ch.alive) {
            result.chains |= ch.stones;
        }
        for r in regions.iter().filter(|r| r.alive && !r.borders.is_empty()) {
            let empties = r.points & empty;
            let mut liberties = Bitboard::EMPTY;
            for &k in &r.borders {
                liberties |= chains[k].halo;
            }
            if empties.and_not(&liberties).is_empty() {
                result.territory |= r.points;
            }
        }
        result
    }

    /// True when the stone at `p` belongs to a pass-alive chain.
    pub fn is_pass_alive(&self, p: Point) -> bool {
        match self.color_at(p) {
            Some(c) => self.pass_alive(c).chains.contains(p.0),
            None => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::test_point as at;

    #[test]
    fn two_real_eyes_are_pass_alive() {
        let b = Board::from_ascii(
            "
            . X . X O .
            X X X X O .
            O O O O O .
            . . . . . .
            . . . . . .
            . . . . . .",
        )
        .unwrap();
        assert!(b.is_pass_alive(at(&b, "A5")));
        let alive = b.pass_alive(Color::Black);
        assert!(alive.territory.contains(at(&b, "A6").0));
        assert!(alive.territory.contains(at(&b, "C6").0));
        assert!(!b.is_pass_alive(at(&b, "E6")));
    }

    #[test]
    fn two_chains_sharing_two_eyes_are_pass_alive() {
        // Neither chain has an eye of its own, but White can play neither
        // C6 nor D5 while both chains keep the other one.
        let b = Board::from_ascii(
            "
            . X . X X O
            X X X . X O
            O O X X O O
            . O O O O .
            . . . . . .
            . . . . . .",
        )
        .unwrap();
        assert!(b.is_pass_alive(at(&b, "B5")));
        assert!(b.is_pass_alive(at(&b, "D6")));
    }

    #[test]
    fn one_eye_is_not_enough() {
        let b = Board::from_ascii(
            "
            . X O . . .
            X X O . . .
            O O O . . .
            . . . . . .
            . . . . . .
            . . . . . .",
        )
        .unwrap();
        assert!(!b.is_pass_alive(at(&b, "B6")));
        assert!(!b.is_pass_alive(at(&b, "C6")));
        assert!(b.pass_alive(Color::Black).territory.is_empty());
    }

    #[test]
    fn dead_stones_in_a_small_enclosure() {
        let b = Board::from_ascii(
            "
            . X O . X .
            X X X X X X
            . . . . . .
            . . . . . .
            . . . . . .
            . . . . . .",
        )
        .unwrap();
        let alive = b.pass_alive(Color::Black);
        assert!(alive.chains.contains(at(&b, "B5").0));
        assert!(alive.territory.contains(at(&b, "C6").0));
    }
}
