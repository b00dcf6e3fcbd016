//! Poolrave (Rimmel, Teytaud and Teytaud 2010): the tree's AMAF values
//! steer the playouts below it. Before each playout, each colour gets a
//! pool of the moves with the best AMAF win rates at the deepest node on
//! the playout's path where that colour chose and that has been visited
//! often enough to trust them. The heavy playouts' random stage then
//! draws from the pool some of the time instead of from the whole board
//! (see `PlayoutStyle::pool_rate`), so a playout tends to play the moves
//! that the search already found good for each side in this part of the
//! game, not just any sensible move.

use super::tree::{NodeId, Tree, PASS};
use super::uct::color_at_depth;
use crate::board::{Color, Point};

/// The pools of one worker, rebuilt for each playout.
#[derive(Default)]
pub struct RavePool {
    /// Indexed by `Color::index`.
    moves: [Vec<Point>; 2],
    /// Scratch for the ranking: (AMAF win rate, point).
    ranked: Vec<(f64, Point)>,
}

/// AMAF samples a move needs before its win rate can put it in a pool.
const MIN_AMAF: u32 = 8;

impl RavePool {
    /// Rebuilds both pools from a playout's path below the tree's root (the
    /// node at depth `d` is `path[d - 1]`), in a search whose root
    /// `root_color` moves at.
    /// Each colour's pool is the `size` moves of best AMAF win rate among
    /// the children of its deepest node with at least `min_visits` real
    /// visits, or empty where it has none.
    pub fn fill(
        &mut self,
        tree: &Tree,
        path: &[NodeId],
        root_color: Color,
        size: usize,
        min_visits: u32,
    ) {
        let mut done = [false; 2];
        self.moves[0].clear();
        self.moves[1].clear();
        for d in (0..=path.len()).rev() {
            let id = if d == 0 { tree.root() } else { path[d - 1] };
            let c = color_at_depth(root_color, d).index();
            if done[c] || tree.node(id).visits() < min_visits {
                continue;
            }
            let Some((first, n)) = tree.node(id).children() else {
                continue;
            };
            self.ranked.clear();
            for child in tree.block(first, n) {
                let (samples, wins) = child.rave();
                if child.mv() == PASS || child.is_pruned() || samples < MIN_AMAF {
                    continue;
                }
                let rate = f64::from(wins) / (2.0 * f64::from(samples));
                self.ranked.push((rate, Point(child.mv() as usize)));
            }
            let keep = size.min(self.ranked.len());
            if keep > 0 {
                self.ranked
                    .select_nth_unstable_by(keep - 1, |a, b| b.0.total_cmp(&a.0));
                self.moves[c].extend(self.ranked[..keep].iter().map(|&(_, p)| p));
            }
            done[c] = true;
            if done == [true, true] {
                break;
            }
        }
    }

    /// The pool of colour `c`: no particular order.
    pub fn of(&self, c: Color) -> &[Point] {
        &self.moves[c.index()]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::tree::NewChild;

    fn child(mv: u16, rave: (u32, u32)) -> NewChild {
        NewChild {
            mv,
            rave,
            ..Default::default()
        }
    }

    /// Black chooses at the root among 10, 11, 12 and a pass; White at
    /// Black's 10 among 20 and 21. AMAF rates are half-point wins.
    fn two_ply_tree() -> (Tree, Vec<NodeId>) {
        let tree = Tree::new(64);
        let root = tree.root();
        assert!(tree.node(root).try_begin_expansion());
        let black = [
            child(10, (100, 120)), // 60%
            child(11, (100, 160)), // 80%
            child(12, (100, 40)),  // 20%
            child(PASS, (100, 200)),
        ];
        assert!(tree.expand(root, &black));
        tree.node(root).add_results(100, 100);
        let ten = tree.child_with_move(root, 10).unwrap();
        assert!(tree.node(ten).try_begin_expansion());
        assert!(tree.expand(
            ten,
            &[child(20, (50, 10)), child(21, (50, 90)), child(22, (4, 8))]
        ));
        (tree, vec![ten])
    }

    /// The pools of the tree after White's node has had `white_visits`,
    /// at most `size` moves each, from nodes of 50 visits or more.
    fn pools(white_visits: u32, size: usize) -> RavePool {
        let (tree, path) = two_ply_tree();
        tree.node(path[0]).add_results(white_visits, white_visits);
        let mut pool = RavePool::default();
        pool.fill(&tree, &path, Color::Black, size, 50);
        pool
    }

    fn sorted(pool: &[Point]) -> Vec<usize> {
        let mut v: Vec<usize> = pool.iter().map(|p| p.0).collect();
        v.sort();
        v
    }

    #[test]
    fn each_side_draws_its_best_amaf_moves_from_its_deepest_trusted_node() {
        let pool = pools(60, 2);
        // Black's best two at the root, never the pass.
        assert_eq!(sorted(pool.of(Color::Black)), vec![10, 11]);
        // White's two at its node; 22 has too few AMAF samples to count.
        assert_eq!(sorted(pool.of(Color::White)), vec![20, 21]);
        assert_eq!(sorted(pools(60, 1).of(Color::White)), vec![21]);
    }

    #[test]
    fn a_node_with_too_few_visits_gives_no_pool() {
        let pool = pools(10, 3);
        assert!(pool.of(Color::White).is_empty());
        assert_eq!(sorted(pool.of(Color::Black)), vec![10, 11, 12]);
    }
}
