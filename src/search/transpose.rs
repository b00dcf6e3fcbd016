//! Transpositions in the tree: two nodes at the same depth that stand for
//! the same position (the same stones, side to move, ko point and passes)
//! share one block of children, so the playouts of both lines inform one
//! subtree. Each node keeps its own results: the parent still judges the
//! move that led there by the playouts through it.
//!
//! Keyed by depth as well, so that a node can only share with a node at its
//! own depth: a node's descendants are all deeper, so sharing never makes a
//! cycle (a position can recur in Go after captures).
//!
//! Lock-free: an open-addressing table of keys and node ids. A thread that
//! finds a key whose node id is not yet written expands on its own, which
//! only costs the sharing.

use super::tree::NodeId;
use crate::board::{zobrist, Board, Color};
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};

/// Slots probed after the home slot before giving up.
const PROBES: usize = 16;
/// Node id not yet written.
const UNSET: u32 = u32::MAX;

pub struct Transpositions {
    keys: Box<[AtomicU64]>,
    nodes: Box<[AtomicU32]>,
    mask: usize,
}

/// The key of the node where `to_move` moves on `board`, `depth` moves
/// below the root after `passes` passes in a row.
pub fn key(board: &Board, to_move: Color, depth: usize, passes: u32) -> u64 {
    let ko = board.ko_point().map_or(0, |p| p.0 as u64 + 1);
    let extra =
        (ko | (depth as u64) << 16 | u64::from(passes) << 48).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    // Zero marks an empty slot.
    (board.hash() ^ zobrist::TO_MOVE[to_move.index()] ^ extra).max(1)
}

impl Transpositions {
    /// Room for about `expansions` nodes at half load.
    pub fn new(expansions: usize) -> Transpositions {
        let slots = (2 * expansions).next_power_of_two().clamp(1 << 10, 1 << 24);
        Transpositions {
            keys: (0..slots).map(|_| AtomicU64::new(0)).collect(),
            nodes: (0..slots).map(|_| AtomicU32::new(UNSET)).collect(),
            mask: slots - 1,
        }
    }

    /// The node already filed under `key`, or files `node` under it and
    /// returns `None` (also when the table has no room near the key).
    pub fn find_or_insert(&self, key: u64, node: NodeId) -> Option<NodeId> {
        let home = (key as usize) & self.mask;
        for k in 0..PROBES {
            let slot = (home + k) & self.mask;
            match self.keys[slot].compare_exchange(0, key, Ordering::AcqRel, Ordering::Acquire) {
                Ok(_) => {
                    self.nodes[slot].store(node, Ordering::Release);
                    return None;
                }
                Err(seen) if seen == key => {
                    let found = self.nodes[slot].load(Ordering::Acquire);
                    return (found != UNSET && found != node).then_some(found);
                }
                Err(_) => {}
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_node_filed_under_a_key_is_found_again() {
        let table = Transpositions::new(100);
        assert_eq!(table.find_or_insert(42, 7), None);
        assert_eq!(table.find_or_insert(42, 9), Some(7));
        assert_eq!(table.find_or_insert(43, 9), None);
        assert_eq!(
            table.find_or_insert(42, 7),
            None,
            "a node is not its own transposition"
        );
    }

    #[test]
    fn keys_that_collide_in_the_home_slot_are_kept_apart() {
        let table = Transpositions::new(10);
        let slots = table.mask as u64 + 1;
        for k in 0..PROBES as u64 {
            assert_eq!(table.find_or_insert(5 + k * slots, k as u32), None);
        }
        for k in 0..PROBES as u64 {
            assert_eq!(table.find_or_insert(5 + k * slots, 99), Some(k as u32));
        }
        assert_eq!(
            table.find_or_insert(5 + PROBES as u64 * slots, 99),
            None,
            "full near the key"
        );
    }
}
