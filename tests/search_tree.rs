//! Tree statistics stay consistent when several threads search one tree.

use ishi::board::{Board, Color};
use ishi::game::Game;
use ishi::rules::Rules;
use ishi::search::params::Params;
use ishi::search::policy::Recent;
use ishi::search::tree::{NodeId, Tree};
use ishi::search::uct::{prepare_root, search, Root, Scorer, Shared};
use ishi::search::{PlayoutKind, Tuning};
use std::sync::atomic::{AtomicBool, Ordering};

struct Totals {
    nodes: usize,
}

/// Checks every node: its visits are the sum of its children's visits
/// plus the playouts that stopped at it (while it was a leaf or being
/// expanded by another thread). Virtual loss is counted in a node's
/// visits while a playout is below it, so virtual loss left behind breaks
/// this sum at the deepest node that kept it.
fn check(tree: &Tree, id: NodeId, totals: &mut Totals) {
    let node = tree.node(id);
    totals.nodes += 1;
    let stops = tree.tally(id).stops();
    let Some((first, n)) = node.children() else {
        assert_eq!(node.visits(), stops, "leaf {id}");
        return;
    };
    let children: u32 = (first..first + n).map(|c| tree.node(c).visits()).sum();
    assert_eq!(node.visits(), children + stops, "node {id}");
    for c in first..first + n {
        check(tree, c, totals);
    }
}

fn run(kind: PlayoutKind, threads: usize, playouts: u64, size: usize) {
    run_with(Params::new(size, kind), threads, playouts, size);
}

fn run_with(params: Params, threads: usize, playouts: u64, size: usize) {
    let game = Game::new(size, Rules::default()).unwrap();
    let tree = Tree::new(200_000);
    let root = Root {
        board: Board::new(size).unwrap(),
        color: Color::Black,
        passes: 0,
        recent: Recent::default(),
    };
    prepare_root(&tree, &root, &game, &params);
    let stop = AtomicBool::new(false);
    let shared = Shared::new(
        &tree,
        &root,
        &params,
        Scorer::of(&game),
        &stop,
        playouts,
        None,
    );
    search(&shared, threads, 42);
    let done = shared.done.load(Ordering::Relaxed);
    assert!(done > 0 && done <= playouts);
    assert_eq!(tree.node(tree.root()).visits() as u64, done);
    let mut totals = Totals { nodes: 0 };
    // The root is expanded before the search, so nothing stops there.
    let root_children: u32 = {
        let (first, n) = tree.node(tree.root()).children().unwrap();
        (first..first + n).map(|c| tree.node(c).visits()).sum()
    };
    assert_eq!(root_children as u64, done);
    check(&tree, tree.root(), &mut totals);
    assert!(totals.nodes > 100, "the tree grew: {} nodes", totals.nodes);
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
