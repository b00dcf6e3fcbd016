//! Tree statistics stay consistent when several threads search one tree.

use ishi::board::{Board, Color, Move, Point};
use ishi::game::Game;
use ishi::rules::Rules;
use ishi::search::params::Params;
use ishi::search::policy::Recent;
use ishi::search::tree::{NodeId, Tree};
use ishi::search::uct::{prepare_root, search, Root, Scorer, Shared};
use ishi::search::{symmetry, PlayoutKind, Tuning};
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};

struct Totals {
    nodes: usize,
    /// Parents that share their children with another node (transpositions).
    sharing: usize,
}

/// Where a block of children was first reached: the position above it.
struct Above {
    hash: u64,
    ko: Option<Point>,
    depth: usize,
    children: u32,
    /// Visits of every parent of the block, less the playouts that stopped
    /// at them.
    passed_down: u32,
}

/// Checks every node: the visits of a block of children add up to the
/// visits of its parents less the playouts that stopped at them (while a
/// leaf or being expanded by another thread); a leaf's visits are its
/// stops. Without transpositions a block has one parent. Virtual loss is
/// counted in a node's visits while a playout is below it, so virtual
/// loss left behind breaks these sums at the deepest node that kept it.
/// Parents that share a block stand for the same position at the same
/// depth.
fn check(tree: &Tree, root: &Board, root_color: Color) -> Totals {
    let mut totals = Totals {
        nodes: 0,
        sharing: 0,
    };
    let mut blocks: HashMap<NodeId, Above> = HashMap::new();
    let mut stack = vec![(tree.root(), root.clone(), root_color, 0usize)];
    while let Some((id, board, color, depth)) = stack.pop() {
        let node = tree.node(id);
        totals.nodes += 1;
        let stops = tree.tally(id).stops();
        let Some((first, n)) = node.children() else {
            assert_eq!(node.visits(), stops, "leaf {id}");
            continue;
        };
        if let Some(above) = blocks.get_mut(&first) {
            totals.sharing += 1;
            assert_eq!(
                (above.hash, above.ko, above.depth),
                (board.hash(), board.ko_point(), depth)
            );
            above.passed_down += node.visits() - stops;
            continue;
        }
        blocks.insert(
            first,
            Above {
                hash: board.hash(),
                ko: board.ko_point(),
                depth,
                children: n,
                passed_down: node.visits() - stops,
            },
        );
        for c in first..first + n {
            let mut next = board.clone();
            match tree.node(c).as_move() {
                Move::Place(p) => {
                    next.place_unchecked(color, p);
                }
                Move::Pass => next.clear_ko(),
            }
            stack.push((c, next, color.opponent(), depth + 1));
        }
    }
    for (first, above) in &blocks {
        let children: u32 = (*first..first + above.children)
            .map(|c| tree.node(c).visits())
            .sum();
        assert_eq!(above.passed_down, children, "block {first}");
    }
    totals
}

fn run(kind: PlayoutKind, threads: usize, playouts: u64, size: usize) {
    let totals = run_with(Params::new(size, kind), threads, playouts, size);
    assert_eq!(totals.sharing, 0, "no transpositions unless asked for");
}

/// A tree searched from the empty board with Black to move, the root it
/// stands for, and how many playouts the search ran.
fn searched_from_empty(
    params: &Params,
    threads: usize,
    playouts: u64,
    size: usize,
) -> (Tree, Root, u64) {
    searched_from_empty_at_komi(params, threads, playouts, size, Rules::default().komi)
}

fn searched_from_empty_at_komi(
    params: &Params,
    threads: usize,
    playouts: u64,
    size: usize,
    komi: f64,
) -> (Tree, Root, u64) {
    searched_in(Tree::new(200_000), params, threads, playouts, size, komi)
}

/// [`searched_from_empty_at_komi`] in the given tree.
fn searched_in(
    tree: Tree,
    params: &Params,
    threads: usize,
    playouts: u64,
    size: usize,
    komi: f64,
) -> (Tree, Root, u64) {
    let mut game = Game::new(size, Rules::default()).unwrap();
    game.set_komi(komi);
    let root = Root {
        board: Board::new(size).unwrap(),
        color: Color::Black,
        passes: 0,
        recent: Recent::default(),
    };
    prepare_root(&tree, &root, &game, params);
    let stop = AtomicBool::new(false);
    let shared = Shared::new(
        &tree,
        &root,
        params,
        Scorer::of(&game),
        &stop,
        playouts,
        None,
    );
    search(&shared, threads, 42);
    let done = shared.done.load(Ordering::Relaxed);
    drop(shared);
    (tree, root, done)
}

fn run_with(params: Params, threads: usize, playouts: u64, size: usize) -> Totals {
    let (tree, root, done) = searched_from_empty(&params, threads, playouts, size);
    assert!(done > 0 && done <= playouts);
    assert_eq!(tree.node(tree.root()).visits() as u64, done);
    // The root is expanded before the search, so nothing stops there.
    let root_children: u32 = root_visits(&tree).iter().sum();
    assert_eq!(root_children as u64, done);
    let totals = check(&tree, &root.board, root.color);
    assert!(totals.nodes > 100, "the tree grew: {} nodes", totals.nodes);
    totals
}

/// Visits of the root's children, in order.
fn root_visits(tree: &Tree) -> Vec<u32> {
    let (first, n) = tree.node(tree.root()).children().unwrap();
    (first..first + n).map(|c| tree.node(c).visits()).collect()
}

#[test]
fn a_tree_in_spare_chunks_searches_exactly_as_a_fresh_one() {
    let params = Params::new(9, PlayoutKind::Heavy);
    let komi = Rules::default().komi;
    let used = || searched_from_empty(&params, 4, 3000, 9).0.into_spares();
    let (fresh, root, _) = searched_from_empty(&params, 1, 2000, 9);
    let (reused, _, _) = searched_in(Tree::reusing(200_000, used()), &params, 1, 2000, 9, komi);
    assert_eq!(reused.len(), fresh.len());
    assert_eq!(root_visits(&reused), root_visits(&fresh));
    check(&reused, &root.board, root.color);
    let (threaded, root, done) =
        searched_in(Tree::reusing(200_000, used()), &params, 4, 3000, 9, komi);
    assert_eq!(threaded.node(threaded.root()).visits() as u64, done);
    check(&threaded, &root.board, root.color);
}

#[test]
fn statistics_add_up_with_one_thread() {
    run(PlayoutKind::Heavy, 1, 3000, 9);
}

#[test]
fn statistics_add_up_with_four_threads() {
    run(PlayoutKind::Heavy, 4, 4000, 9);
    run(PlayoutKind::Light, 4, 2000, 13);
}

#[test]
fn statistics_add_up_with_root_halving_on_four_threads() {
    // Workers replace the halving's survivors while others read them.
    let tuning = Tuning::parse("root_halving=8,halving_warmup=0.1").unwrap();
    run_with(Params::tuned(9, PlayoutKind::Heavy, &tuning), 4, 4000, 9);
}

#[test]
fn transposed_nodes_share_children_and_statistics_still_add_up() {
    // Five by five with many playouts: lines that swap two moves meet.
    let tuning = Tuning::parse("transpose=1").unwrap();
    let totals = run_with(Params::tuned(5, PlayoutKind::Heavy, &tuning), 1, 20_000, 5);
    assert!(totals.sharing > 10, "{} shared nodes", totals.sharing);
    let totals = run_with(Params::tuned(9, PlayoutKind::Heavy, &tuning), 4, 20_000, 9);
    assert!(totals.sharing > 0, "{} shared nodes", totals.sharing);
}

#[test]
fn nodes_of_symmetric_positions_keep_one_move_of_each_symmetric_set() {
    let tuning = Tuning::parse("symmetry=1").unwrap();
    let params = Params::tuned(9, PlayoutKind::Heavy, &tuning);
    let (tree, root, _) = searched_from_empty(&params, 1, 5000, 9);
    let mut checked = 0;
    for (_, child) in tree.children_of(tree.root()) {
        let (Some((_, n)), Move::Place(p)) = (child.children(), child.as_move()) else {
            continue;
        };
        // One black stone: every empty point is a legal move for White.
        let mut board = root.board.clone();
        board.place_unchecked(Color::Black, p);
        let symmetries = symmetry::of(&board);
        let kept = board
            .empties()
            .iter()
            .filter(|&&e| symmetry::is_kept(&board, &symmetries, Point(e as usize), |_| true))
            .count();
        assert_eq!(n as usize, kept + 1, "White's moves and pass after {p:?}");
        checked += 1;
    }
    assert!(checked >= 3, "{checked} first moves expanded");
}

#[test]
fn a_full_arena_stops_growth_but_not_the_search() {
    let game = Game::new(9, Rules::default()).unwrap();
    let tree = Tree::new(1024);
    let root = Root {
        board: Board::new(9).unwrap(),
        color: Color::Black,
        passes: 0,
        recent: Recent::default(),
    };
    let params = Params::new(9, PlayoutKind::Light);
    prepare_root(&tree, &root, &game, &params);
    let stop = AtomicBool::new(false);
    let shared = Shared::new(&tree, &root, &params, Scorer::of(&game), &stop, 3000, None);
    search(&shared, 2, 7);
    let done = shared.done.load(Ordering::Relaxed);
    // More playouts than nodes: the search went on after the arena filled.
    assert!(done > 1024, "{done} playouts");
    assert_eq!(tree.node(tree.root()).visits() as u64, done);
    assert!(tree.len() <= 1024);
    assert!(tree.is_full());
}

#[test]
fn a_childs_own_playouts_count_twice_in_its_amaf_when_weighted_by_distance() {
    // A playout through a child plays its move first of all the moves
    // after its parent, the nearest, so weighting by distance counts it
    // twice; unweighted, once. One thread: no AMAF update is lost.
    let amaf_over_visits = |tuning: &str| {
        let params = Params::tuned(9, PlayoutKind::Heavy, &Tuning::parse(tuning).unwrap());
        let (tree, _, _) = searched_from_empty(&params, 1, 3000, 9);
        let mut ratios = Vec::new();
        for (id, child) in tree.children_of(tree.root()) {
            let mut near = vec![(id, child)];
            if child.children().is_some() {
                near.extend(tree.children_of(id));
            }
            for (_, node) in near {
                if node.visits() > 0 && node.as_move() != Move::Pass {
                    ratios.push(f64::from(node.rave().0) / f64::from(node.visits()));
                }
            }
        }
        ratios
    };
    let weighted = amaf_over_visits("rave_distance=1");
    assert!(weighted.len() > 20, "{} nodes", weighted.len());
    assert!(weighted.iter().all(|&r| r >= 2.0), "{weighted:?}");
    let plain = amaf_over_visits("");
    assert!(plain.iter().all(|&r| r >= 1.0), "{plain:?}");
    assert!(plain.iter().any(|&r| r < 2.0), "{plain:?}");
}

#[test]
fn the_opponents_first_plays_join_a_childs_amaf_with_the_opponents_result() {
    // With a komi of -100 Black wins every playout from the empty 9x9
    // board. A child of the root (Black to play) gets Black's first plays
    // of its point twice, as wins, and White's once, with White's result:
    // a loss. So its AMAF win rate falls below one exactly when White
    // took its point first in some playout; without the knob it is one.
    let amaf_of_roots_children = |tuning: &str| {
        let params = Params::tuned(9, PlayoutKind::Heavy, &Tuning::parse(tuning).unwrap());
        let (tree, _, done) = searched_from_empty_at_komi(&params, 1, 2000, 9, -100.0);
        let children: Vec<(u32, u32)> = tree
            .children_of(tree.root())
            .filter(|(_, child)| child.as_move() != Move::Pass)
            .map(|(_, child)| child.rave())
            .collect();
        (children, done)
    };
    let (plain, plain_done) = amaf_of_roots_children("");
    assert!(plain.len() > 40, "{} children", plain.len());
    assert!(plain.iter().all(|&(n, w)| w == 2 * n), "{plain:?}");
    let (both, both_done) = amaf_of_roots_children("rave_opponent=1");
    let lower = both.iter().filter(|&&(n, w)| w < 2 * n).count();
    assert!(
        lower > 40,
        "{lower} of {} children below one: {both:?}",
        both.len()
    );
    // Wins come from Black's plays alone, two each: their visits are
    // half the wins, the rest are White's plays. Each playout has Black
    // and White take about as many points first.
    let black: u64 = both.iter().map(|&(_, w)| u64::from(w) / 2).sum();
    let white: u64 = both.iter().map(|&(n, w)| u64::from(n - w / 2)).sum();
    let plain_black: u64 = plain.iter().map(|&(n, _)| u64::from(n)).sum();
    let per_playout = |x: u64, done: u64| x as f64 / done as f64;
    assert!(
        (per_playout(black, both_done) - 2.0 * per_playout(plain_black, plain_done)).abs()
            < 0.3 * per_playout(black, both_done),
        "{black} {plain_black}"
    );
    assert!(
        per_playout(white, both_done) > 10.0,
        "{white} over {both_done} playouts"
    );
    // Near: only White's first plays in the first quarter of the playout
    // count, about a quarter of them.
    let (near, near_done) = amaf_of_roots_children("rave_opponent=1,rave_opponent_near=1");
    let near_white: u64 = near.iter().map(|&(n, w)| u64::from(n - w / 2)).sum();
    let share = per_playout(near_white, near_done) / per_playout(white, both_done);
    assert!(
        (0.1..0.45).contains(&share),
        "{near_white} of {white}: {share}"
    );
}
