//! The shared search tree: nodes in an arena of fixed-size chunks, children
//! of a node contiguous, every statistic an atomic so that all threads read
//! and update the tree without a lock.
//!
//! Memory ordering: statistics are advisory (a stale read only blurs one
//! selection), so they use `Relaxed`. Publication of children uses
//! `Release` on the node's state after the children are written, and
//! readers load the state with `Acquire` before touching the children.

use crate::board::{Move, Point};
use std::sync::atomic::{
    AtomicBool, AtomicI64, AtomicU16, AtomicU32, AtomicU64, AtomicU8, Ordering,
};
use std::sync::OnceLock;

pub type NodeId = u32;

/// Point index 0 is a border cell, never a move: it stands for pass.
pub const PASS: u16 = 0;

const LEAF: u8 = 0;
const EXPANDING: u8 = 1;
const EXPANDED: u8 = 2;

/// A node is a move and what the search learned after it, seen from the
/// player who made the move. Wins are counted in half points (a win 2, a
/// jigo 1) so that every counter stays an integer.
///
/// Only what selection reads lives here, 32 bytes so that two nodes share
/// a cache line and none straddles two: selection scans every child of
/// every node on the path, and each line another core has written since
/// must be fetched again. The counts selection does not read are in a
/// [`Tally`] beside it. Two threads over one in the light-playout search,
/// medians of per-round ratios over interleaved rounds of the two builds
/// (`tests/tools/scaling_compare.sh`), with them in the node (48 bytes)
/// and without: 19x19 1.825 and 1.94, then 1.85 and 1.915 (20 rounds
/// each); 9x9 1.80 and 1.885 (30 rounds), then 1.835 and 1.815 (20): a
/// gain on 19x19, within the noise on 9x9.
///
/// The AMAF pair stays in the node although a playout writes it for about
/// half the children of every node on its path. Moved to a dense arena of
/// its own (four to a line, every page written when its chunk is made, as
/// selection reads the pairs of new children before anyone writes them),
/// it lifted those ratios from 1.725 to 1.81 on 9x9 and from 1.78 to 1.93
/// on 19x19 (12 and 8 rounds), but selection reading a second array made
/// the one-thread search 4% and 3% slower (no slower with heavy
/// playouts), so two threads gained nothing on 9x9 and 5% on 19x19.
#[derive(Default)]
#[repr(align(32))]
pub struct Node {
    mv: AtomicU16,
    state: AtomicU8,
    /// [`PRUNED`] and [`TACTICAL`] bits.
    flags: AtomicU8,
    n_children: AtomicU16,
    prior_visits: AtomicU16,
    prior_wins: AtomicU16,
    /// The move's share of the learned strength of its node's moves, in
    /// 1/65535ths (in the two bytes the layout leaves free).
    policy: AtomicU16,
    first_child: AtomicU32,
    /// Playouts through this node and their wins, packed as
    /// `visits << 32 | wins` so that one atomic add records a result and
    /// one load reads a consistent pair. Each fits while a node has fewer
    /// than 2^31 visits, as with two 32-bit counters. A playout still
    /// below the node counts as its virtual loss: that many visits without
    /// wins, which its result then replaces by one visit with its wins
    /// (one atomic add on the way down, one on the way up).
    results: AtomicU64,
    /// AMAF playouts and their half-point wins, packed like `results`.
    rave: AtomicU64,
}

const _: () = assert!(std::mem::size_of::<Node>() == 32);

/// The move may not be played here (superko at the root).
const PRUNED: u8 = 1;
/// See [`Node::is_tactical`].
const TACTICAL: u8 = 2;

/// What the search counts at a node besides what selection reads (see
/// [`Node`]), at the same index in a parallel arena.
#[derive(Default)]
pub struct Tally {
    /// Playouts that started below no child of this node (it was a leaf,
    /// being expanded, or terminal): visits = children's visits + stops.
    stops: AtomicU32,
    /// Sum of final score margins for the mover, in half points, over the
    /// node's visits. Added with a plain load and store like the AMAF
    /// pairs: a rare lost update only blurs an estimate.
    score_sum: AtomicI64,
    /// The best real win rate among this node's children that have enough
    /// visits, in 1/65535ths plus one (0: none yet), as the last selection
    /// at this node found it: the reply that refutes the move so far.
    best_reply: AtomicU32,
}

/// With the node, 48 bytes a node (`--max-nodes` says so).
const _: () = assert!(std::mem::size_of::<Tally>() == 16);

impl Tally {
    pub fn stops(&self) -> u32 {
        self.stops.load(Ordering::Relaxed)
    }

    #[inline]
    pub fn add_stop(&self) {
        self.stops.fetch_add(1, Ordering::Relaxed);
    }

    /// Adds playouts' final margins for the mover, in half points.
    #[inline]
    pub fn add_score_lossy(&self, margin: i64) {
        let sum = self.score_sum.load(Ordering::Relaxed);
        self.score_sum
            .store(sum.wrapping_add(margin), Ordering::Relaxed);
    }

    /// See `best_reply` above: the best child's real win rate, 0 to 1.
    #[inline]
    pub fn best_reply(&self) -> Option<f64> {
        match self.best_reply.load(Ordering::Relaxed) {
            0 => None,
            b => Some(f64::from(b - 1) / f64::from(u16::MAX)),
        }
    }

    #[inline]
    pub fn set_best_reply(&self, winrate: f64) {
        let b = (winrate.clamp(0.0, 1.0) * f64::from(u16::MAX)).round() as u32 + 1;
        self.best_reply.store(b, Ordering::Relaxed);
    }

    fn reset(&self) {
        self.copy_from(&Tally::default());
    }

    fn copy_from(&self, other: &Tally) {
        let r = Ordering::Relaxed;
        self.stops.store(other.stops.load(r), r);
        self.score_sum.store(other.score_sum.load(r), r);
        self.best_reply.store(other.best_reply.load(r), r);
    }
}

/// What a new child starts with.
#[derive(Clone, Copy, Debug, Default)]
pub struct NewChild {
    pub mv: u16,
    /// AMAF results may raise the move's value but not lower it (see
    /// [`Node::is_tactical`]).
    pub tactical: bool,
    /// Prior knowledge as virtual playouts: visits and half-point wins.
    pub prior_visits: u16,
    pub prior_wins: u16,
    /// Share of the learned strength of all the node's moves, in 1/65535ths.
    pub policy: u16,
    /// AMAF results the child starts with: playouts and half-point wins.
    pub rave: (u32, u32),
}

impl Node {
    #[inline]
    pub fn mv(&self) -> u16 {
        self.mv.load(Ordering::Relaxed)
    }

    pub fn as_move(&self) -> Move {
        match self.mv() {
            PASS => Move::Pass,
            p => Move::Place(Point(p as usize)),
        }
    }

    #[inline]
    pub fn is_expanded(&self) -> bool {
        self.state.load(Ordering::Acquire) == EXPANDED
    }

    #[inline]
    pub fn is_pruned(&self) -> bool {
        self.flags.load(Ordering::Relaxed) & PRUNED != 0
    }

    /// A move whose worth depends on when it is played (it ataris or takes
    /// a big chain): played late in a playout it may lose where played now
    /// it wins, so its AMAF results are not allowed to bury it before real
    /// playouts have tried it (`Priors::tactical_chain`, `--tune
    /// tactical_amaf`).
    #[inline]
    pub fn is_tactical(&self) -> bool {
        self.flags.load(Ordering::Relaxed) & TACTICAL != 0
    }

    pub fn prune(&self) {
        self.set_pruned(true);
    }

    pub fn set_pruned(&self, pruned: bool) {
        if pruned {
            self.flags.fetch_or(PRUNED, Ordering::Relaxed);
        } else {
            self.flags.fetch_and(!PRUNED, Ordering::Relaxed);
        }
    }

    #[inline]
    pub fn prior(&self) -> (u32, u32) {
        (
            self.prior_visits.load(Ordering::Relaxed) as u32,
            self.prior_wins.load(Ordering::Relaxed) as u32,
        )
    }

    /// The move's share of its node's learned strength, 0 to 1.
    #[inline]
    pub fn policy(&self) -> f64 {
        f64::from(self.policy.load(Ordering::Relaxed)) / f64::from(u16::MAX)
    }

    #[inline]
    pub fn visits(&self) -> u32 {
        self.results().0
    }

    /// Real playouts and their half-point wins, read together.
    #[inline]
    pub fn results(&self) -> (u32, u32) {
        unpack(self.results.load(Ordering::Relaxed))
    }

    /// Counts `visits` more playouts that brought `wins` half points.
    #[inline]
    pub fn add_results(&self, visits: u32, wins: u32) {
        self.results
            .fetch_add(pack(visits, wins), Ordering::Relaxed);
    }

    /// AMAF playouts and their half-point wins, read together.
    #[inline]
    pub fn rave(&self) -> (u32, u32) {
        unpack(self.rave.load(Ordering::Relaxed))
    }

    /// Counts `visits` more AMAF playouts that brought `wins` half points.
    #[inline]
    pub fn add_rave(&self, visits: u32, wins: u32) {
        self.rave.fetch_add(pack(visits, wins), Ordering::Relaxed);
    }

    /// Counts AMAF visits with a plain load and store instead of a locked
    /// add: when two threads update the node at the same moment one update
    /// is lost, visits and wins together (the pair is one word).
    #[inline]
    pub fn add_rave_lossy(&self, visits: u32, wins: u32) {
        let r = self.rave.load(Ordering::Relaxed);
        self.rave
            .store(r.wrapping_add(pack(visits, wins)), Ordering::Relaxed);
    }

    /// A playout passes down through this node: `virtual_loss` visits
    /// without wins until [`Node::settle`] or [`Node::withdraw`].
    #[inline]
    pub fn add_virtual_loss(&self, virtual_loss: u32) {
        self.results
            .fetch_add(pack(virtual_loss, 0), Ordering::Relaxed);
    }

    /// The playout that added `virtual_loss` brought `wins` half points:
    /// its virtual visits become one real visit with those wins.
    #[inline]
    pub fn settle(&self, virtual_loss: u32, wins: u32) {
        // Wrapping: with a virtual loss above one the visit count falls.
        // The low half never carries into it (wins <= 2 * visits < 2^32).
        let delta = pack(1, wins).wrapping_sub(pack(virtual_loss, 0));
        self.results.fetch_add(delta, Ordering::Relaxed);
    }

    /// The playout that added `virtual_loss` ended without a result.
    #[inline]
    pub fn withdraw(&self, virtual_loss: u32) {
        self.results
            .fetch_sub(pack(virtual_loss, 0), Ordering::Relaxed);
    }

    /// Win rate of the mover over real playouts (0.5 before any).
    pub fn winrate(&self) -> f64 {
        match self.results() {
            (0, _) => 0.5,
            (n, w) => w as f64 / (2.0 * n as f64),
        }
    }

    /// The children block `(first, count)`, if the node is expanded.
    #[inline]
    pub fn children(&self) -> Option<(NodeId, u32)> {
        if self.is_expanded() {
            Some((
                self.first_child.load(Ordering::Relaxed),
                self.n_children.load(Ordering::Relaxed) as u32,
            ))
        } else {
            None
        }
    }

    /// Claims the right to expand this leaf; only one thread wins.
    #[inline]
    pub fn try_begin_expansion(&self) -> bool {
        self.state
            .compare_exchange(LEAF, EXPANDING, Ordering::Acquire, Ordering::Relaxed)
            .is_ok()
    }

    /// Gives up an expansion (the arena is full): the node stays a leaf.
    pub fn abandon_expansion(&self) {
        self.state.store(LEAF, Ordering::Release);
    }

    /// Makes this node the new child `c`, with no results and no children:
    /// every field is written, as the node may come from a spare chunk.
    fn init(&self, c: &NewChild) {
        self.forget_children();
        self.results.store(0, Ordering::Relaxed);
        self.mv.store(c.mv, Ordering::Relaxed);
        let tactical = if c.tactical { TACTICAL } else { 0 };
        self.flags.store(tactical, Ordering::Relaxed);
        self.prior_visits.store(c.prior_visits, Ordering::Relaxed);
        self.prior_wins.store(c.prior_wins, Ordering::Relaxed);
        self.policy.store(c.policy, Ordering::Relaxed);
        self.rave.store(pack(c.rave.0, c.rave.1), Ordering::Relaxed);
    }

    /// A leaf again (only before the node is published).
    fn forget_children(&self) {
        let r = Ordering::Relaxed;
        self.state.store(LEAF, r);
        self.first_child.store(0, r);
        self.n_children.store(0, r);
    }

    /// Takes `other`'s move and counts, as a leaf.
    fn copy_stats_from(&self, other: &Node) {
        self.forget_children();
        let r = Ordering::Relaxed;
        self.mv.store(other.mv(), r);
        self.flags.store(other.flags.load(r), r);
        self.prior_visits.store(other.prior_visits.load(r), r);
        self.prior_wins.store(other.prior_wins.load(r), r);
        self.policy.store(other.policy.load(r), r);
        self.results.store(other.results.load(r), r);
        self.rave.store(other.rave.load(r), r);
    }
}

/// `(visits, wins)` multiplied by `weight` and packed: visits rounded
/// down, wins to the nearest but at most two half points a visit.
fn pack_weighed((visits, wins): (u32, u32), weight: f64) -> u64 {
    let v = (f64::from(visits) * weight) as u32;
    let w = ((f64::from(wins) * weight).round() as u32).min(v.saturating_mul(2));
    pack(v, w)
}

/// Visits and half-point wins as one word, visits in the high half.
#[inline]
fn pack(visits: u32, wins: u32) -> u64 {
    u64::from(visits) << 32 | u64::from(wins)
}

#[inline]
fn unpack(counts: u64) -> (u32, u32) {
    ((counts >> 32) as u32, counts as u32)
}

const CHUNK_BITS: u32 = 16;
const CHUNK: u32 = 1 << CHUNK_BITS;

/// The nodes and their tallies, index for index.
struct Chunk {
    nodes: Box<[Node]>,
    tallies: Box<[Tally]>,
}

impl Chunk {
    fn new() -> Chunk {
        Chunk {
            nodes: (0..CHUNK).map(|_| Node::default()).collect(),
            tallies: (0..CHUNK).map(|_| Tally::default()).collect(),
        }
    }
}

/// Nodes in chunks allocated on first use, handed out by an atomic bump
/// index; a block of children never straddles two chunks.
///
/// Making a chunk writes 3 MB of fresh pages, about two milliseconds of
/// page faults, and a thread whose block falls in a chunk still being made
/// waits for it. Made only when the bump index reached it, every chunk
/// held the other threads back that long: two threads over one in the 9x9
/// light search were 1.825 (20 interleaved rounds,
/// `tests/tools/scaling_compare.sh`). So the first thread to take a block
/// in chunk k makes chunk k + 1 at once, while everyone still allocates
/// from chunk k: 1.88 in the same run, one thread as fast as before.
pub struct Tree {
    chunks: Box<[OnceLock<Chunk>]>,
    /// Chunk k is being or has been made ahead of need (see above).
    made_ahead: Box<[AtomicBool]>,
    next: AtomicU32,
    capacity: u32,
    root: NodeId,
}

/// The chunks of a tree the search is done with, for the next tree to
/// use instead of making new ones (see [`Tree::into_spares`]).
#[derive(Default)]
pub struct Spares(Vec<Chunk>);

/// The most chunks [`Tree::into_spares`] keeps (about 50 MB): a long
/// analysis may have grown a tree far beyond what the next search needs.
const MAX_SPARES: usize = 16;

impl Tree {
    /// A tree holding at most `max_nodes` nodes (at least one chunk's worth
    /// of room is always granted so that the root can be expanded).
    pub fn new(max_nodes: usize) -> Tree {
        Tree::reusing(max_nodes, Spares::default())
    }

    /// [`Tree::new`], its first chunks taken from `spares`.
    ///
    /// A fresh chunk writes 3 MB of default nodes; a spare one is used as
    /// it is, every node being written whole when it is handed out (see
    /// `Node::init`, `Node::copy_stats_from`) and its tallies cleared
    /// already ([`Tree::into_spares`]). At 5,000 playouts on 9x9 a
    /// search holds 25,000-90,000 nodes with the subtree it kept, so each
    /// move made two or three chunks.
    pub fn reusing(max_nodes: usize, spares: Spares) -> Tree {
        let capacity = max_nodes.clamp(1024, (u32::MAX - CHUNK) as usize) as u32;
        let n_chunks = capacity.div_ceil(CHUNK) as usize;
        let mut spares = spares.0.into_iter();
        let chunks = (0..n_chunks)
            .map(|_| spares.next().map_or_else(OnceLock::new, OnceLock::from))
            .collect();
        let mut tree = Tree {
            chunks,
            made_ahead: (0..n_chunks).map(|_| AtomicBool::new(false)).collect(),
            next: AtomicU32::new(0),
            capacity,
            root: 0,
        };
        tree.root = tree.alloc(1).unwrap_or(0);
        tree.node(tree.root).init(&NewChild::default());
        tree
    }

    /// Ends the tree, keeping up to [`MAX_SPARES`] of its chunks for
    /// [`Tree::reusing`], their tallies cleared as far as nodes were handed
    /// out. Cleared here in one sweep rather than as each node is handed
    /// out, so that an expansion writes no tally: a 19x19 node has some 300
    /// children, most never visited (the two ways ran at the same speed
    /// within 1-2%, `cpu_work.py --size 19`).
    pub fn into_spares(self) -> Spares {
        let handed_out = self.len();
        let chunks = self.chunks.into_vec().into_iter().enumerate();
        let spares = chunks.filter_map(|(k, slot)| slot.into_inner().map(|chunk| (k, chunk)));
        let cleared = spares.take(MAX_SPARES).map(|(k, chunk)| {
            let used = handed_out.saturating_sub(k * CHUNK as usize);
            for tally in chunk.tallies.iter().take(used) {
                tally.reset();
            }
            chunk
        });
        Spares(cleared.collect())
    }

    #[inline]
    pub fn root(&self) -> NodeId {
        self.root
    }

    /// The chunk holding `id`.
    #[inline]
    fn chunk(&self, id: NodeId) -> &Chunk {
        self.chunks[(id >> CHUNK_BITS) as usize]
            .get()
            .expect("node ids come from alloc, which creates the chunk")
    }

    #[inline]
    pub fn node(&self, id: NodeId) -> &Node {
        &self.chunk(id).nodes[(id & (CHUNK - 1)) as usize]
    }

    #[inline]
    pub fn tally(&self, id: NodeId) -> &Tally {
        &self.chunk(id).tallies[(id & (CHUNK - 1)) as usize]
    }

    /// Mean final score margin for the mover of `id`, in points, over its
    /// visits (0 before any).
    pub fn score_lead(&self, id: NodeId) -> f64 {
        match self.node(id).visits() {
            0 => 0.0,
            n => self.tally(id).score_sum.load(Ordering::Relaxed) as f64 / (2.0 * n as f64),
        }
    }

    /// The most nodes the tree may hold.
    pub fn capacity(&self) -> usize {
        self.capacity as usize
    }

    pub fn len(&self) -> usize {
        self.next.load(Ordering::Relaxed).min(self.capacity) as usize
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub fn is_full(&self) -> bool {
        self.next.load(Ordering::Relaxed) >= self.capacity
    }

    /// Reserves `n` consecutive nodes, or `None` when the budget is spent.
    fn alloc(&self, n: u32) -> Option<NodeId> {
        if n == 0 || n > CHUNK {
            return None;
        }
        let mut current = self.next.load(Ordering::Relaxed);
        loop {
            let offset = current & (CHUNK - 1);
            let start = if offset + n > CHUNK {
                current - offset + CHUNK
            } else {
                current
            };
            let end = start.checked_add(n)?;
            if end > self.capacity {
                // Mark the tree full for everyone.
                self.next.fetch_max(self.capacity, Ordering::Relaxed);
                return None;
            }
            match self.next.compare_exchange_weak(
                current,
                end,
                Ordering::Relaxed,
                Ordering::Relaxed,
            ) {
                Ok(_) => {
                    let k = (start >> CHUNK_BITS) as usize;
                    self.chunks[k].get_or_init(Chunk::new);
                    self.make_ahead(k + 1);
                    return Some(start);
                }
                Err(seen) => current = seen,
            }
        }
    }

    /// Makes chunk `k` unless another thread has started to or there is
    /// no such chunk.
    #[inline]
    fn make_ahead(&self, k: usize) {
        if let Some(claim) = self.made_ahead.get(k) {
            if !claim.load(Ordering::Relaxed) && !claim.swap(true, Ordering::Relaxed) {
                self.chunks[k].get_or_init(Chunk::new);
            }
        }
    }

    /// Gives `parent` (whose expansion the caller claimed) its children.
    /// Returns false, leaving the parent a leaf, when the arena is full.
    pub fn expand(&self, parent: NodeId, children: &[NewChild]) -> bool {
        let node = self.node(parent);
        let Some(first) = self.alloc(children.len() as u32) else {
            node.abandon_expansion();
            return false;
        };
        for (k, c) in children.iter().enumerate() {
            self.node(first + k as u32).init(c);
        }
        node.first_child.store(first, Ordering::Relaxed);
        node.n_children
            .store(children.len() as u16, Ordering::Relaxed);
        node.state.store(EXPANDED, Ordering::Release);
        true
    }

    /// Gives `node` (whose expansion the caller claimed) the children of
    /// the expanded node `other`: a transposition.
    pub fn share_children(&self, node: NodeId, other: NodeId) {
        let (first, n) = self.node(other).children().unwrap_or((self.root, 0));
        let node = self.node(node);
        node.first_child.store(first, Ordering::Relaxed);
        node.n_children.store(n as u16, Ordering::Relaxed);
        node.state.store(EXPANDED, Ordering::Release);
    }

    /// The block of `n` nodes from `first`, as [`Node::children`] gives it:
    /// one chunk lookup for all of them (a block never straddles chunks).
    #[inline]
    pub fn block(&self, first: NodeId, n: u32) -> &[Node] {
        let start = (first & (CHUNK - 1)) as usize;
        &self.chunk(first).nodes[start..start + n as usize]
    }

    /// The children of `parent` with their ids, none if it is not expanded.
    pub fn children_of(&self, parent: NodeId) -> impl Iterator<Item = (NodeId, &Node)> {
        let (first, n) = self.node(parent).children().unwrap_or((self.root, 0));
        (first..).zip(self.block(first, n))
    }

    /// The child of `parent` playing `mv`, if expanded and present.
    pub fn child_with_move(&self, parent: NodeId, mv: u16) -> Option<NodeId> {
        self.children_of(parent)
            .find(|(_, c)| c.mv() == mv)
            .map(|(id, _)| id)
    }

    /// A new tree, made from `spares`, holding a copy of the subtree under
    /// `id` (tree reuse between moves). Stops copying when the new budget
    /// runs out. A block of children that transposed nodes share is copied
    /// once and stays shared.
    pub fn extract(&self, id: NodeId, max_nodes: usize, spares: Spares) -> Tree {
        let fresh = Tree::reusing(max_nodes, spares);
        fresh.copy_counts(fresh.root, self, id);
        let mut copied = std::collections::HashMap::new();
        let mut queue = vec![(id, fresh.root)];
        while let Some((old, new)) = queue.pop() {
            let Some((first, n)) = self.node(old).children() else {
                continue;
            };
            let new_first = match copied.get(&first) {
                Some(&block) => block,
                None => {
                    let Some(block) = fresh.alloc(n) else {
                        continue;
                    };
                    copied.insert(first, block);
                    for (old_id, new_id) in (first..first + n).zip(block..) {
                        fresh.copy_counts(new_id, self, old_id);
                        queue.push((old_id, new_id));
                    }
                    block
                }
            };
            let parent = fresh.node(new);
            parent.first_child.store(new_first, Ordering::Relaxed);
            parent.n_children.store(n as u16, Ordering::Relaxed);
            parent.state.store(EXPANDED, Ordering::Release);
        }
        fresh
    }

    /// Multiplies every count of the tree's nodes by `weight` (0 to 1):
    /// real and AMAF results (visits rounded down, wins never above what
    /// the visits allow) and score sums; each node's stops become what its
    /// visits leave beyond its children's, so that visits = children's
    /// visits + stops still holds. Priors are knowledge, not counts, and
    /// stay. Only between searches: no playout may be below a node.
    pub fn weigh_down(&self, weight: f64) {
        let weight = weight.clamp(0.0, 1.0);
        let mut nodes = vec![self.root];
        let mut seen_blocks = std::collections::HashSet::new();
        let mut i = 0;
        while let Some(&id) = nodes.get(i) {
            i += 1;
            if let Some((first, n)) = self.node(id).children() {
                if seen_blocks.insert(first) {
                    nodes.extend(first..first + n);
                }
            }
        }
        // Breadth first, so children come after their parents (a shared
        // block's parents all lie at one depth): backwards, every node's
        // children are weighed before its stops are recomputed from them.
        for &id in nodes.iter().rev() {
            let node = self.node(id);
            let r = Ordering::Relaxed;
            node.results.store(pack_weighed(node.results(), weight), r);
            node.rave.store(pack_weighed(node.rave(), weight), r);
            let tally = self.tally(id);
            let score = &tally.score_sum;
            score.store((score.load(r) as f64 * weight).round() as i64, r);
            let below: u32 = self.children_of(id).map(|(_, c)| c.visits()).sum();
            tally.stops.store(node.visits().saturating_sub(below), r);
        }
    }

    /// Gives node `into` the move and counts of node `id` of `from`, both
    /// the node's and its tally's.
    fn copy_counts(&self, into: NodeId, from: &Tree, id: NodeId) {
        self.node(into).copy_stats_from(from.node(id));
        self.tally(into).copy_from(from.tally(id));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn child(mv: u16) -> NewChild {
        NewChild {
            mv,
            prior_visits: 0,
            prior_wins: 0,
            policy: 0,
            ..Default::default()
        }
    }

    /// Expands `node` with children playing `moves`; their ids.
    fn expanded<const N: usize>(tree: &Tree, node: NodeId, moves: [u16; N]) -> [NodeId; N] {
        assert!(tree.node(node).try_begin_expansion());
        assert!(tree.expand(node, &moves.map(child)));
        moves.map(|mv| tree.child_with_move(node, mv).unwrap())
    }

    #[test]
    fn blocks_stay_inside_a_chunk_and_respect_the_budget() {
        let tree = Tree::new(2 * CHUNK as usize);
        let a = tree.alloc(CHUNK - 10).unwrap();
        let b = tree.alloc(20).unwrap();
        assert_eq!(
            b, CHUNK,
            "a block that would straddle moves to the next chunk"
        );
        assert!(a < b);
        assert!(tree.alloc(CHUNK).is_none());
        assert!(tree.is_full());
    }

    #[test]
    fn the_next_chunk_is_made_before_a_block_needs_it() {
        let made =
            |tree: &Tree| -> Vec<bool> { tree.chunks.iter().map(|c| c.get().is_some()).collect() };
        let tree = Tree::new(3 * CHUNK as usize);
        assert_eq!(made(&tree), [true, true, false], "the root's block");
        tree.alloc(CHUNK - 10).unwrap();
        assert_eq!(made(&tree), [true, true, false]);
        tree.alloc(20).unwrap();
        assert_eq!(made(&tree), [true, true, true]);
        tree.alloc(CHUNK).unwrap();
        assert_eq!(made(&tree), [true, true, true], "no chunk past the budget");
    }

    #[test]
    fn expansion_publishes_children_and_extract_copies_them() {
        let tree = Tree::new(10_000);
        let root = tree.root();
        assert!(tree.node(root).try_begin_expansion());
        assert!(!tree.node(root).try_begin_expansion());
        assert!(tree.expand(root, &[child(PASS), child(12), child(13)]));
        let c = tree.child_with_move(root, 13).unwrap();
        tree.node(c).add_results(5, 0);
        assert!(tree.node(c).try_begin_expansion());
        assert!(tree.expand(c, &[child(20)]));
        let kept = tree.extract(c, 10_000, Spares::default());
        assert_eq!(kept.node(kept.root()).visits(), 5);
        assert_eq!(kept.node(kept.root()).mv(), 13);
        assert!(kept.child_with_move(kept.root(), 20).is_some());
        assert_eq!(kept.len(), 2);
    }

    #[test]
    fn a_shared_block_of_children_is_copied_once_and_stays_shared() {
        let tree = Tree::new(10_000);
        let root = tree.root();
        let [a, b] = expanded(&tree, root, [12, 13]);
        expanded(&tree, a, [20, 21, 22]);
        assert!(tree.node(b).try_begin_expansion());
        tree.share_children(b, a);
        assert_eq!(tree.node(b).children(), tree.node(a).children());
        let kept = tree.extract(root, 10_000, Spares::default());
        assert_eq!(
            kept.len(),
            1 + 2 + 3,
            "the root, its two children, one shared block"
        );
        let a = kept.child_with_move(kept.root(), 12).unwrap();
        let b = kept.child_with_move(kept.root(), 13).unwrap();
        assert_eq!(kept.node(a).children(), kept.node(b).children());
        assert!(kept.child_with_move(b, 22).is_some());
    }

    /// A tree whose every node has been searched: results, AMAF, stops,
    /// scores, a best reply and children wherever the nodes were handed out.
    fn well_used_tree() -> Tree {
        let tree = Tree::new(10_000);
        let root = tree.root();
        let children = expanded(&tree, root, [12, 13, 14, 15]);
        for id in std::iter::once(root).chain(children) {
            tree.node(id).add_results(40, 50);
            tree.node(id).add_rave(30, 20);
            tree.tally(id).add_stop();
            tree.tally(id).add_score_lossy(-9);
            tree.tally(id).set_best_reply(0.75);
        }
        for (k, &id) in children.iter().enumerate() {
            expanded(&tree, id, [30 + k as u16, 40 + k as u16]);
        }
        tree
    }

    /// What a node handed out anew must look like: nothing learned yet.
    fn assert_unsearched(tree: &Tree, id: NodeId) {
        assert_eq!(tree.node(id).results(), (0, 0), "node {id}");
        assert_eq!(tree.node(id).children(), None, "node {id}");
        assert_eq!(tree.tally(id).stops(), 0, "node {id}");
        assert_eq!(tree.score_lead(id), 0.0, "node {id}");
        assert_eq!(tree.tally(id).best_reply(), None, "node {id}");
    }

    #[test]
    fn a_tree_made_of_spare_chunks_starts_as_empty_as_a_fresh_one() {
        let tree = Tree::reusing(10_000, well_used_tree().into_spares());
        let root = tree.root();
        assert_unsearched(&tree, root);
        assert!(tree.node(root).try_begin_expansion(), "the root is a leaf");
        assert!(tree.expand(root, &[child(PASS), child(20)]));
        for (id, node) in tree.children_of(root) {
            assert_unsearched(&tree, id);
            assert_eq!(node.rave(), (0, 0));
            assert!(node.try_begin_expansion(), "a new child is a leaf");
        }
    }

    #[test]
    fn a_subtree_copied_into_spare_chunks_keeps_only_its_own_counts() {
        let tree = Tree::new(10_000);
        let root = tree.root();
        let [a, _] = expanded(&tree, root, [12, 13]);
        tree.node(a).add_results(7, 8);
        let [a1, _, _] = expanded(&tree, a, [20, 21, 22]);
        tree.node(a1).add_results(4, 2);
        expanded(&tree, a1, [30]);
        // The copy's nodes land where the spares' root and first children
        // lay, all of them with children and counts of their own.
        let kept = tree.extract(a, 10_000, well_used_tree().into_spares());
        assert_eq!(kept.len(), 1 + 3 + 1);
        let root = kept.root();
        assert_eq!(kept.node(root).results(), (7, 8));
        assert_eq!(kept.tally(root).stops(), 0);
        let a1 = kept.child_with_move(root, 20).unwrap();
        assert_eq!(kept.node(a1).results(), (4, 2));
        assert!(kept.child_with_move(a1, 30).is_some());
        for mv in [21, 22] {
            assert_unsearched(&kept, kept.child_with_move(root, mv).unwrap());
        }
    }

    #[test]
    fn a_weighed_down_tree_keeps_its_win_rates_and_its_visit_sums() {
        let tree = Tree::new(10_000);
        let root = tree.root();
        let [a, b] = expanded(&tree, root, [12, 13]);
        // 101 playouts: one stopped at the root as it was expanded, 61
        // went through A (3 of them ending at A), 39 through B.
        tree.node(root).add_results(101, 80);
        tree.tally(root).add_stop();
        tree.node(a).add_results(61, 90);
        tree.node(a).add_rave(200, 300);
        tree.tally(a).add_score_lossy(122);
        tree.node(b).add_results(39, 10);
        let [a1, a2] = expanded(&tree, a, [20, 21]);
        tree.node(a1).add_results(29, 40);
        tree.node(a2).add_results(29, 18);
        for _ in 0..3 {
            tree.tally(a).add_stop();
        }

        tree.weigh_down(0.5);

        assert_eq!(tree.node(root).results(), (50, 40));
        assert_eq!(tree.node(a).results(), (30, 45));
        assert_eq!(tree.node(a).rave(), (100, 150));
        assert!(
            (tree.score_lead(a) - 1.0).abs() < 0.05,
            "a lead of one point stays"
        );
        assert_eq!(tree.node(b).results(), (19, 5));
        assert_eq!(tree.node(a1).results(), (14, 20));
        assert_eq!(tree.node(a2).results(), (14, 9));
        for id in [root, a, b, a1, a2] {
            let below: u32 = tree.children_of(id).map(|(_, c)| c.visits()).sum();
            assert_eq!(tree.node(id).visits(), below + tree.tally(id).stops());
            let (n, w) = tree.node(id).results();
            assert!(w <= 2 * n);
        }
        assert_eq!(tree.tally(a).stops(), 2);
    }
}
