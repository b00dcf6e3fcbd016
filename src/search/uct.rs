//! The parallel tree search: every worker thread descends the one shared
//! tree by UCT with RAVE, marks its path with virtual loss (removed by a
//! drop guard whatever happens), expands leaves, runs a playout and backs
//! the result up, including the AMAF statistics of every sibling.

use super::criticality::{final_owner, LocalCounts, SharedCounts};
use super::final_count::FinalCounts;
use super::halving::RootHalving;
use super::params::Params;
use super::playout::{decode_move, play_out, PlayoutScratch, WHITE_MOVE};
use super::policy::{children_with_priors, LadderScratch, Recent};
use super::pool::{on_threads, worker_seed};
use super::status::StatusConfig;
use super::symmetry;
use super::transpose::{self, Transpositions};
use super::tree::{NewChild, Node, NodeId, Tree, PASS};
use crate::board::{Board, Color, Point};
use crate::game::Game;
use crate::rules::{HandicapCompensation, ScoringRule};
use rand::{Rng, SeedableRng};
use std::sync::atomic::{AtomicBool, AtomicI64, AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// Turns a playout's final area counts into a result under the game's
/// rules: komi, handicap compensation, who wins ties.
#[derive(Clone, Copy, Debug)]
pub struct Scorer {
    white_bonus: f64,
    /// Black's result in half points when the count is exactly even.
    black_tie_half: u32,
    /// Chance that an even count gives Black a half point more than
    /// `black_tie_half`: a jigo valued between the halves (a quarter of a
    /// win, say) is counted as the half below or the half above at random,
    /// so that the tree's counters stay in half points.
    black_tie_up: f64,
    /// Points Black must count beyond komi for a playout to be Black's
    /// win (negative: White must): the margin a search asks for its own
    /// side (see [`Params::ask_margin`]). Reported margins stay true.
    black_needs: f64,
    /// Two passes end the game on the literal position (no dead stones removed).
    pub literal: bool,
}

impl Scorer {
    pub fn of(game: &Game) -> Scorer {
        let rules = game.rules();
        let h = game.handicap();
        let compensation = match (rules.scoring, rules.handicap_compensation) {
            (ScoringRule::Area, HandicapCompensation::N) => h,
            (ScoringRule::Area, HandicapCompensation::NMinusOne) => h.saturating_sub(1),
            _ => 0,
        };
        Scorer {
            white_bonus: rules.komi + compensation as f64,
            black_tie_half: if rules.black_wins_ties { 2 } else { 1 },
            black_tie_up: 0.0,
            black_needs: 0.0,
            literal: !rules.remove_dead,
        }
    }

    /// The same scorer for a search by `color` that values a jigo at
    /// `value` (0 a loss, 0.5 half a win, 1 a win).
    /// Rules where Black wins ties have no jigo to value.
    pub fn with_jigo(self, color: Color, value: f64) -> Scorer {
        if self.black_tie_half == 2 {
            return self;
        }
        let own = value.clamp(0.0, 1.0) * 2.0;
        let black = if color == Color::Black {
            own
        } else {
            2.0 - own
        };
        let below = black.floor();
        Scorer {
            black_tie_half: below as u32,
            black_tie_up: black - below,
            ..self
        }
    }

    /// The same scorer for a search by `color` that counts a playout as won
    /// only with `points` more than komi asks.
    pub fn with_margin(self, color: Color, points: f64) -> Scorer {
        let black_needs = if color == Color::Black {
            points
        } else {
            -points
        };
        Scorer {
            black_needs,
            ..self
        }
    }

    /// The same scorer for a search that counts komi `points` higher than
    /// the game does, whichever side it searches for: a playout is Black's
    /// only by that much more. Reported margins stay true.
    pub fn with_extra_komi(self, points: f64) -> Scorer {
        Scorer {
            black_needs: self.black_needs + points,
            ..self
        }
    }

    /// [`Scorer::judge`] with a jigo valued between the halves drawn at
    /// random, as one playout's result.
    #[inline]
    pub fn judge_playout(&self, black: u32, white: u32, rng: &mut impl Rng) -> (u32, i32) {
        self.judge_with(black, white, || {
            let up = self.black_tie_up > 0.0 && rng.gen::<f64>() < self.black_tie_up;
            self.black_tie_half + up as u32
        })
    }

    /// Black's result in half points (2 win, 1 jigo, 0 loss) and Black's
    /// margin in half points.
    #[inline]
    pub fn judge(&self, black: u32, white: u32) -> (u32, i32) {
        self.judge_with(black, white, || self.black_tie_half)
    }

    /// The result with `tie` giving Black's half points for an exactly
    /// even count. (A rounded margin of 0 is no test for one: with komi
    /// 6.8 a count short by 0.2 rounds to 0 too.)
    #[inline]
    fn judge_with(&self, black: u32, white: u32, tie: impl FnOnce() -> u32) -> (u32, i32) {
        let margin = black as f64 - white as f64 - self.white_bonus;
        let lead = margin - self.black_needs;
        let half = if lead > 0.0 {
            2
        } else if lead < 0.0 {
            0
        } else {
            tie()
        };
        (half, (2.0 * margin).round() as i32)
    }
}

/// The position the tree's root stands for.
pub struct Root {
    pub board: Board,
    pub color: Color,
    /// Passes just before the root (1 when the opponent passed).
    pub passes: u32,
    /// The opponent's last placement (for the playout policy and priors)
    /// and the root side's own before it (for the priors).
    pub recent: Recent,
}

/// Everything the workers share for one search.
pub struct Shared<'a> {
    pub tree: &'a Tree,
    pub root: &'a Root,
    pub params: &'a Params,
    pub scorer: Scorer,
    pub stop: &'a AtomicBool,
    /// Set by a worker when the search is finished (budget, time, decided).
    pub halt: AtomicBool,
    pub started: AtomicU64,
    pub done: AtomicU64,
    /// New playouts this search may run.
    pub budget: u64,
    pub deadline: Option<Instant>,
    /// Past `deadline`, the search goes on until this while the root has
    /// not settled (see [`root_unsettled`]).
    pub unsettled_deadline: Option<Instant>,
    pub start: Instant,
    /// Per point index: playouts won by Black minus playouts won by White
    /// of that point's final owner.
    pub ownership: Vec<AtomicI64>,
    /// Playouts whose owners have been added to `ownership`.
    pub ownership_samples: AtomicU64,
    pub criticality: SharedCounts,
    /// `stop` counts only after this many playouts or this long: a move
    /// asked for and stopped at once still gets a short look.
    grace: (u64, Duration),
    /// Sequential halving among the root's children, when on.
    pub halving: Option<RootHalving>,
    /// Shared children of transposed nodes, when on.
    pub transpositions: Option<Transpositions>,
    /// Where the rules remove dead stones: the counts of the positions
    /// the tree ends with two passes (see `final_count`). Without them
    /// such a line is scored by a playout from its final position.
    pub final_counts: Option<FinalCounts<'a>>,
}

impl<'a> Shared<'a> {
    pub fn new(
        tree: &'a Tree,
        root: &'a Root,
        params: &'a Params,
        scorer: Scorer,
        stop: &'a AtomicBool,
        budget: u64,
        deadline: Option<Instant>,
    ) -> Shared<'a> {
        let len = root.board.stride() * (root.board.size() + 2) + 1;
        Shared {
            tree,
            root,
            params,
            scorer,
            stop,
            halt: AtomicBool::new(false),
            started: AtomicU64::new(0),
            done: AtomicU64::new(0),
            budget,
            deadline,
            unsettled_deadline: None,
            start: Instant::now(),
            ownership: (0..len).map(|_| AtomicI64::new(0)).collect(),
            ownership_samples: AtomicU64::new(0),
            criticality: SharedCounts::new(len),
            grace: (0, Duration::ZERO),
            halving: RootHalving::new(budget, params),
            transpositions: params.transpose.then(|| {
                // A search on the clock has no budget: the arena bounds it,
                // an expansion taking a block of at least a few children.
                let fewest_visits = params.expansion_visits(|| true).min(params.expand_at);
                let by_budget = budget / u64::from(fewest_visits.max(1)) + 1;
                let by_arena = (tree.capacity() / 16) as u64;
                Transpositions::new(by_budget.min(by_arena) as usize)
            }),
            final_counts: None,
        }
    }

    /// Lets a search that has not settled by its deadline go on until
    /// `deadline` (see [`root_unsettled`]).
    pub fn with_unsettled_deadline(mut self, deadline: Option<Instant>) -> Shared<'a> {
        self.unsettled_deadline = deadline;
        self
    }

    /// Lets `stop` end the search only after `playouts` or `time`,
    /// whichever comes first.
    pub fn with_grace(mut self, playouts: u64, time: Duration) -> Shared<'a> {
        self.grace = (playouts, time);
        self
    }

    /// Scores the lines of the tree that end with two passes by the count
    /// of their final position, judged from `game` (the root's) as
    /// `referee` judges a finished game.
    pub fn with_final_counts(mut self, game: &'a Game, referee: &StatusConfig) -> Shared<'a> {
        self.final_counts = Some(FinalCounts::new(game, referee));
        self
    }

    fn finished(&self) -> bool {
        self.halt.load(Ordering::Relaxed)
            || (self.stop.load(Ordering::Relaxed)
                && (self.done.load(Ordering::Relaxed) >= self.grace.0
                    || self.start.elapsed() >= self.grace.1))
    }

    /// True once more playouts cannot change the most visited root move, or
    /// time is up.
    fn should_halt(&self, done: u64) -> bool {
        let now = Instant::now();
        // Past the deadline the time limit is the later one, while the
        // root is still unsettled.
        let deadline = match self.deadline {
            Some(d) if now >= d => match self.unsettled_deadline {
                Some(later) if now < later && root_unsettled(self.tree) => Some(later),
                _ => return true,
            },
            d => d,
        };
        // Halving spends the budget on a schedule and plays its last
        // survivor, not the most visited move.
        if !self.params.early_stop || self.halving.is_some() {
            return false;
        }
        let mut remaining = self.budget.saturating_sub(done);
        if let Some(d) = deadline {
            let elapsed = now.duration_since(self.start).as_secs_f64().max(1e-3);
            let rate = done as f64 / elapsed;
            remaining = remaining.min((rate * (d - now).as_secs_f64()) as u64 + 1);
        }
        if remaining == u64::MAX {
            return false;
        }
        let (best, second) = top_two_visits(self.tree);
        best.saturating_sub(second) as u64 > remaining
    }
}

/// The most visited child of the root is not the one whose own playouts
/// won most, among the children with at least a tenth of its visits: the
/// choice may still change, and a clock with time to spare lets the search
/// go on (the "unstable" rule of Huang, Coulom and Lin, 2010).
pub(super) fn root_unsettled(tree: &Tree) -> bool {
    let children = || tree.children_of(tree.root()).map(|(_, c)| c.results());
    let Some((most, most_wins)) = children().max_by_key(|&(visits, _)| visits) else {
        return false;
    };
    // Win rates compared as fractions: a * d > c * b for a / b > c / d.
    let beats_most = |(visits, wins): (u32, u32)| {
        u64::from(visits) * 10 >= u64::from(most)
            && u64::from(wins) * u64::from(most) > u64::from(most_wins) * u64::from(visits)
    };
    most > 0 && children().any(beats_most)
}

fn top_two_visits(tree: &Tree) -> (u32, u32) {
    let (mut best, mut second) = (0, 0);
    for (_, node) in tree.children_of(tree.root()) {
        if node.is_pruned() {
            continue;
        }
        let v = node.visits();
        if v > best {
            second = best;
            best = v;
        } else if v > second {
            second = v;
        }
    }
    (best, second)
}

/// Virtual loss on every node of the current path. Backing up a result
/// settles it; a guard dropped before that (an early return, a panic)
/// withdraws it, so it can never be left behind.
struct VirtualLoss<'t, 'p> {
    tree: &'t Tree,
    path: &'p mut Vec<NodeId>,
    amount: u32,
    settled: bool,
}

impl<'t, 'p> VirtualLoss<'t, 'p> {
    fn new(tree: &'t Tree, path: &'p mut Vec<NodeId>, amount: u32) -> VirtualLoss<'t, 'p> {
        path.clear();
        VirtualLoss {
            tree,
            path,
            amount,
            settled: false,
        }
    }

    #[inline]
    fn push(&mut self, id: NodeId) {
        self.tree.node(id).add_virtual_loss(self.amount);
        self.path.push(id);
    }

    /// Replaces the virtual loss on the path by one playout's result;
    /// `result_at(d)` gives the half-point wins and score margin of the
    /// node at depth `d`.
    #[inline]
    fn settle(&mut self, result_at: impl Fn(usize) -> (u32, i32)) {
        for (d, &id) in (1..).zip(self.path.iter()) {
            let (wins, margin) = result_at(d);
            self.tree.node(id).settle(self.amount, wins);
            // Not what two threads lose either: with no score sums
            // written at all, two threads over one on 9x9 light were
            // 1.80 against the head's 1.83 (16 interleaved rounds).
            self.tree.tally(id).add_score_lossy(i64::from(margin));
        }
        self.settled = true;
    }
}

impl Drop for VirtualLoss<'_, '_> {
    fn drop(&mut self) {
        if !self.settled {
            for &id in self.path.iter() {
                self.tree.node(id).withdraw(self.amount);
            }
        }
        self.path.clear();
    }
}

/// A root child's MC-RAVE value for its mover: real results blended with the
/// AMAF results (Gelly & Silver's blend with a hand-set equivalence
/// parameter), priors counted as real playouts, virtual loss as losses
/// (it is in the node's visits).
pub fn child_value(tree: &Tree, id: NodeId, params: &Params) -> (f64, u32) {
    let per_equiv = params.rave_equiv_for(true).recip();
    let centre = score_centre(tree, tree.root(), params);
    blended_value(tree, id, tree.node(id), params, per_equiv, centre)
}

/// The margin the score term measures `parent`'s children against: the
/// mean margin of the parent's playouts, for the side moving from it.
/// Measured from zero instead, every child of a side behind by komi would
/// lose a share of its value, and an unvisited one (no margin yet) would
/// look better than every visited one.
fn score_centre(tree: &Tree, parent: NodeId, params: &Params) -> f64 {
    if params.score_weight > 0.0 {
        -tree.score_lead(parent)
    } else {
        0.0
    }
}

/// A child's MC-RAVE blend for its mover as a fraction `num / den` (so
/// that a caller which only compares children needs no division), with
/// its visits and half-point wins, priors counted as real playouts.
struct Blend {
    num: f64,
    den: f64,
    visits: u32,
    wins: u32,
    /// Visits by playouts alone, without the priors.
    real_visits: u32,
}

impl Blend {
    #[inline]
    fn of(child: &super::tree::Node, params: &Params, per_equiv: f64) -> Blend {
        let (prior_n, prior_w) = child.prior();
        let (real_visits, real_wins) = child.results();
        let visits = real_visits + prior_n;
        let wins = real_wins + prior_w;
        let (mut rave_n, mut rave_wins) = child.rave();
        if params.prior_amaf > 0.0 {
            rave_n += (f64::from(prior_n) * params.prior_amaf) as u32;
            rave_wins += (f64::from(prior_w) * params.prior_amaf) as u32;
        }
        // (1 - beta) * wins / (2 visits) + beta * rave_wins / (2 rave_n) with
        // beta = rave_n / (rave_n + visits + rave_n * visits / rave_equiv),
        // brought over one denominator.
        let (n, r) = (visits as f64, rave_n as f64);
        let (num, den) = if visits == 0 && rave_n == 0 {
            (params.fpu, 1.0)
        } else {
            let r_share = r * per_equiv;
            (
                wins as f64 * (1.0 + r_share) + rave_wins as f64,
                2.0 * (r + n + n * r_share),
            )
        };
        Blend {
            num,
            den,
            visits,
            wins,
            real_visits,
        }
    }

    /// A tactical child's own results floor its value: AMAF may raise it,
    /// never lower it.
    fn floor(&self, child: &super::tree::Node) -> Option<(f64, f64)> {
        (child.is_tactical() && self.visits > 0)
            .then(|| (self.wins as f64, (2 * self.visits) as f64))
    }
}

/// [`child_value`] with `1 / rave_equiv` and the score term's centre
/// worked out once per loop.
#[inline]
fn blended_value(
    tree: &Tree,
    id: NodeId,
    child: &super::tree::Node,
    params: &Params,
    per_equiv: f64,
    score_centre: f64,
) -> (f64, u32) {
    let blend = Blend::of(child, params, per_equiv);
    let mut value = blend.num / blend.den;
    if let Some((wins, twice_visits)) = blend.floor(child) {
        value = value.max(wins / twice_visits);
    }
    if params.score_weight > 0.0 && blend.real_visits > 0 {
        let gain = tree.score_lead(id) - score_centre;
        value += params.score_weight * (gain / params.score_scale).tanh();
    }
    (value, blend.visits)
}

/// The child maximising [`child_value`], plus an optional UCB term and
/// an optional bonus for the criticality of its point (`crit`, by point
/// index; empty for none).
fn select(
    tree: &Tree,
    parent: NodeId,
    params: &Params,
    explore: f64,
    crit: &[f32],
) -> Option<NodeId> {
    let p = tree.node(parent);
    let (first, n) = p.children()?;
    // The node's own results are for the side that moved into it.
    let explore = if params.explore_lost > 0.0 && 1.0 - p.winrate() < params.lost_below {
        explore.max(params.explore_lost)
    } else {
        explore
    };
    let parent_visits = p.visits();
    let log_n = if explore > 0.0 {
        ((parent_visits + 1) as f64).ln()
    } else {
        0.0
    };
    let puct = if params.puct > 0.0 {
        params.puct * f64::from(parent_visits).sqrt()
    } else {
        0.0
    };
    let per_equiv = params.rave_equiv_for(parent == tree.root()).recip();
    if explore == 0.0
        && puct == 0.0
        && crit.is_empty()
        && params.minimax == 0.0
        && params.score_weight == 0.0
        && params.prior_amaf == 0.0
    {
        return select_by_ratio(tree, first, n, parent_visits, params, per_equiv);
    }
    let centre = score_centre(tree, parent, params);
    let mut best = None;
    let mut best_value = f64::NEG_INFINITY;
    let mut best_reply = None::<f64>;
    let considered = widened(params.widening, parent_visits);
    for (id, child) in (first..).zip(tree.block(first, n)).take(considered) {
        if child.is_pruned() {
            continue;
        }
        let (mut value, visits) = blended_value(tree, id, child, params, per_equiv, centre);
        if params.minimax > 0.0 {
            let (real, wins) = child.results();
            if real >= params.minimax_visits.max(1) {
                let rate = f64::from(wins) / f64::from(2 * real);
                best_reply = Some(best_reply.map_or(rate, |b| b.max(rate)));
            }
            value = toward_minimax(value, tree.tally(id).best_reply(), params.minimax);
        }
        if explore > 0.0 {
            value += explore * (log_n / (visits + 1) as f64).sqrt();
        }
        if puct > 0.0 {
            value += puct * child.policy() / f64::from(1 + child.visits());
        }
        if let Some(&c) = crit.get(child.mv() as usize) {
            let fading = params.crit_visits / (params.crit_visits + visits as f64);
            value += params.crit_weight * c as f64 * fading;
        }
        if value > best_value {
            best_value = value;
            best = Some(id);
        }
    }
    if let Some(b) = best_reply {
        tree.tally(parent).set_best_reply(b);
    }
    best
}

/// [`select`] when the value is the blend alone (every additive term off,
/// as by default): each child's [`Blend`] compared as a fraction, by
/// cross-multiplying with the best so far. A division per child
/// at every node of every descent was the largest single cost of choosing
/// children; this made a 9x9 light search about 7% faster.
fn select_by_ratio(
    tree: &Tree,
    first: NodeId,
    n: u32,
    parent_visits: u32,
    params: &Params,
    per_equiv: f64,
) -> Option<NodeId> {
    let mut best = None;
    let (mut best_num, mut best_den) = (f64::NEG_INFINITY, 1.0);
    let considered = widened(params.widening, parent_visits);
    for (id, child) in (first..).zip(tree.block(first, n)).take(considered) {
        if child.is_pruned() {
            continue;
        }
        let blend = Blend::of(child, params, per_equiv);
        let (mut num, mut den) = (blend.num, blend.den);
        if let Some((tn, td)) = blend.floor(child) {
            if tn * den > num * td {
                (num, den) = (tn, td);
            }
        }
        if num * best_den > best_num * den {
            (best_num, best_den) = (num, den);
            best = Some(id);
        }
    }
    best
}

/// `value` moved `share` of the way down to what the opponent's best
/// reply (its win rate `reply`) leaves the move, never up: the mean
/// counts the weaker replies tried on the way to the refutation, and so
/// errs only on the high side.
fn toward_minimax(value: f64, reply: Option<f64>, share: f64) -> f64 {
    match reply {
        Some(r) if 1.0 - r < value => value - share * (value - (1.0 - r)),
        _ => value,
    }
}

/// A leaf about to be expanded: `color` moves there, `depth` moves below
/// the root, after `passes` passes in a row.
struct Leaf {
    node: NodeId,
    /// The node two plies up, where the same side chose, if any.
    grandparent: Option<NodeId>,
    color: Color,
    recent: Recent,
    depth: usize,
    passes: u32,
}

/// Gives `leaf` (its expansion claimed by the caller; `board` is its
/// position) its children: those of a node that stands for the same
/// position, when transpositions are on and one is expanded, else new ones
/// with their priors, one move of each set a symmetry of the position maps
/// onto itself when that is on. False when the arena is full.
fn expand(
    sh: &Shared,
    leaf: &Leaf,
    board: &Board,
    children: &mut Vec<NewChild>,
    ladder: &mut LadderScratch,
    inherited: &mut [Inherited],
) -> bool {
    let tree = sh.tree;
    let params = sh.params;
    let transposed = sh.transpositions.as_ref().and_then(|t| {
        let key = transpose::key(board, leaf.color, leaf.depth, leaf.passes);
        t.find_or_insert(key, leaf.node)
            .filter(|&other| tree.node(other).is_expanded())
    });
    if let Some(other) = transposed {
        tree.share_children(leaf.node, other);
        return true;
    }
    let symmetries = if params.symmetry {
        symmetry::of(board)
    } else {
        Vec::new()
    };
    children_with_priors(
        board,
        leaf.color,
        leaf.recent,
        &params.priors_for(leaf.color, sh.root.color),
        // Simple ko and eyes look the same from every side of a symmetric
        // position: each image is a child too.
        |p| symmetries.is_empty() || symmetry::is_kept(board, &symmetries, p, |_| true),
        children,
        ladder,
    );
    let inherits = params.rave_grandparent > 0 || params.prior_grandparent > 0;
    if let Some(g) = leaf.grandparent.filter(|_| inherits) {
        inherit_from_grandparent(tree, g, params, children, inherited);
    }
    order_for_widening(children, params);
    tree.expand(leaf.node, children)
}

/// What a new child may start with from the child playing the same move
/// two plies up (see [`Params::rave_grandparent`] and
/// [`Params::prior_grandparent`]): that child's AMAF results and real
/// results, as visits and half-point wins.
#[derive(Clone, Copy, Default, PartialEq, Eq, Debug)]
struct Inherited {
    rave: (u32, u32),
    results: (u32, u32),
}

/// `(visits, wins)` scaled down to at most `cap` visits at the same rate.
fn capped((n, w): (u32, u32), cap: u32) -> (u32, u32) {
    let kept = n.min(cap);
    if kept == 0 {
        return (0, 0);
    }
    (kept, (u64::from(w) * u64::from(kept) / u64::from(n)) as u32)
}

/// Gives each new child what the child playing the same move at
/// `grandparent` has seen: its AMAF results as the child's own, at most
/// `params.rave_grandparent` of them, and its real results added to the
/// prior, at most `params.prior_grandparent`. `by_move`, indexed by move,
/// is all empty before and after.
fn inherit_from_grandparent(
    tree: &Tree,
    grandparent: NodeId,
    params: &Params,
    children: &mut [NewChild],
    by_move: &mut [Inherited],
) {
    for (_, g) in tree.children_of(grandparent) {
        if let Some(slot) = by_move.get_mut(g.mv() as usize) {
            *slot = Inherited {
                rave: g.rave(),
                results: g.results(),
            };
        }
    }
    for child in children.iter_mut().filter(|c| c.mv != PASS) {
        let Some(&seen) = by_move.get(child.mv as usize) else {
            continue;
        };
        child.rave = capped(seen.rave, params.rave_grandparent);
        let (n, w) = capped(seen.results, params.prior_grandparent);
        let add = |prior: u16, x: u32| (u32::from(prior) + x).min(u32::from(u16::MAX)) as u16;
        child.prior_visits = add(child.prior_visits, n);
        child.prior_wins = add(child.prior_wins, w);
    }
    for (_, g) in tree.children_of(grandparent) {
        if let Some(slot) = by_move.get_mut(g.mv() as usize) {
            *slot = Inherited::default();
        }
    }
}

/// How many children, best prior first, selection looks at in a node with
/// `visits` (see [`Params::widening`]).
fn widened(widening: f64, visits: u32) -> usize {
    if widening <= 0.0 {
        return usize::MAX;
    }
    3 + ((1.0 + visits as f64 / widening).ln() / 1.4f64.ln()) as usize
}

/// New children in the order progressive widening opens them: the best
/// prior win rate first.
fn order_for_widening(children: &mut [NewChild], params: &Params) {
    if params.widening > 0.0 {
        let rate = |c: &NewChild| c.prior_wins as f64 / c.prior_visits.max(1) as f64;
        children.sort_by(|a, b| rate(b).total_cmp(&rate(a)));
    }
}

/// Decisive playouts before criticality is used: fewer give figures that
/// are mostly noise.
const CRIT_MIN_SAMPLES: u64 = 256;
/// Playouts a worker sums up locally before adding to the shared ownership.
const OWNERSHIP_FLUSH: u32 = 128;
/// Playouts a worker runs before adding them to the shared count (and the
/// root's AMAF statistics) and checking whether to stop.
const DONE_FLUSH: u64 = 16;

/// One worker's scratch space and generator.
pub struct Worker {
    rng: rand::rngs::SmallRng,
    board: Board,
    path: Vec<NodeId>,
    moves: Vec<u16>,
    /// AMAF marks: `stamp * 2 + colour` for the earliest play at a point.
    mark: Vec<u32>,
    /// Where in `moves` that earliest play is.
    first_at: Vec<u16>,
    stamp: u32,
    children: Vec<NewChild>,
    /// Scratch for [`inherit_from_grandparent`], by move; all empty
    /// between uses.
    inherited: Vec<Inherited>,
    ownership: Vec<i64>,
    crit: LocalCounts,
    pending: u32,
    scratch: PlayoutScratch,
    /// AMAF visits and half-point wins for the root's children, not yet
    /// added to the tree.
    root_rave: Vec<[u32; 2]>,
    /// Indices of the children an AMAF update reaches, for one node.
    hits: Vec<u16>,
    /// Visits and half-point wins of the root itself, not yet added.
    root_visits: u32,
    root_wins: u32,
    /// The root's margins since the last flush, in half points, for its
    /// mover: the centre of the score term at the root's children.
    root_score: i64,
    /// Playouts claimed from the budget and not yet run.
    allowance: u64,
}

impl Worker {
    pub fn new(root: &Root, seed: u64) -> Worker {
        let len = root.board.stride() * (root.board.size() + 2) + 1;
        Worker {
            rng: rand::rngs::SmallRng::seed_from_u64(seed),
            board: root.board.clone(),
            path: Vec::with_capacity(64),
            moves: Vec::with_capacity(1024),
            mark: vec![0; len],
            first_at: vec![0; len],
            stamp: 0,
            children: Vec::with_capacity(len),
            inherited: vec![Inherited::default(); len],
            ownership: vec![0; len],
            crit: LocalCounts::default(),
            pending: 0,
            scratch: PlayoutScratch::default(),
            root_rave: Vec::new(),
            hits: Vec::new(),
            root_visits: 0,
            root_wins: 0,
            root_score: 0,
            allowance: 0,
        }
    }

    /// Runs playouts until the budget, the deadline, the decision or `stop`.
    ///
    /// Counters every thread writes (playouts done, ownership, the AMAF
    /// statistics of the root's children) are summed locally and added in
    /// batches: written after every playout, their cache lines would keep
    /// moving between cores, which is most of what two threads lose on a
    /// small board.
    pub fn run(&mut self, sh: &Shared) {
        if sh.params.replies > 0 {
            let cells = self.mark.len();
            self.scratch.replies.fit(cells, sh.params.replies >= 2);
        }
        if sh.params.mast > 1 {
            self.scratch.averages.fit(self.mark.len());
        }
        self.scratch
            .adaptive
            .fit(self.mark.len(), sh.params.playout_adapt);
        let mut unreported = 0u64;
        while !sh.finished() {
            if self.allowance == 0 {
                // Claimed in batches too; a worker that finds the budget
                // spent just stops, so the others still run what they hold.
                let claimed = sh.started.fetch_add(DONE_FLUSH, Ordering::Relaxed);
                self.allowance = sh.budget.saturating_sub(claimed).min(DONE_FLUSH);
                if self.allowance == 0 {
                    break;
                }
            }
            self.allowance -= 1;
            self.playout(sh);
            unreported += 1;
            self.pending += 1;
            if self.pending >= OWNERSHIP_FLUSH {
                self.flush_ownership(sh);
                if sh.params.crit_weight > 0.0 {
                    self.crit.flush(&sh.criticality, CRIT_MIN_SAMPLES);
                }
            }
            if unreported == DONE_FLUSH {
                self.flush_root(sh);
                let done = sh.done.fetch_add(unreported, Ordering::Relaxed) + unreported;
                unreported = 0;
                if sh.should_halt(done) {
                    sh.halt.store(true, Ordering::Relaxed);
                }
            }
        }
        self.flush_root(sh);
        sh.done.fetch_add(unreported, Ordering::Relaxed);
        self.flush_ownership(sh);
    }

    /// Adds the root's own counts and its children's AMAF counts, summed
    /// since the last flush, to the tree.
    fn flush_root(&mut self, sh: &Shared) {
        let root = sh.tree.node(sh.tree.root());
        if self.root_visits != 0 {
            root.add_results(self.root_visits, self.root_wins);
            let tally = sh.tree.tally(sh.tree.root());
            tally.add_score_lossy(self.root_score);
            (self.root_visits, self.root_wins, self.root_score) = (0, 0, 0);
        }
        for ((_, child), counts) in sh.tree.children_of(sh.tree.root()).zip(&mut self.root_rave) {
            if counts[0] != 0 {
                child.add_rave(counts[0], counts[1]);
                *counts = [0, 0];
            }
        }
    }

    fn flush_ownership(&mut self, sh: &Shared) {
        if self.pending == 0 {
            return;
        }
        for (shared, local) in sh.ownership.iter().zip(self.ownership.iter_mut()) {
            if *local != 0 {
                shared.fetch_add(*local, Ordering::Relaxed);
                *local = 0;
            }
        }
        sh.ownership_samples
            .fetch_add(u64::from(self.pending), Ordering::Release);
        self.pending = 0;
    }

    /// Descends, expands, plays out and backs up once.
    pub fn playout(&mut self, sh: &Shared) {
        let tree = sh.tree;
        let params = sh.params;
        let root = sh.root;
        self.board.clone_from(&root.board);
        self.moves.clear();
        let mut path = VirtualLoss::new(tree, &mut self.path, params.virtual_loss);
        // The root carries no virtual loss (every playout passes through
        // it) and its counts are summed locally: path[d] is at depth d + 1.
        let mut node = tree.root();
        let mut color = root.color;
        let mut passes = root.passes;
        let mut recent = root.recent;
        while passes < 2 {
            let n = tree.node(node);
            if !n.is_expanded() {
                // A node on the path carries this playout's virtual loss,
                // and any other thread's below it: with two threads there
                // at once (2 x 20 > expand_at + 20) it expands before its
                // real visits reach expand_at, as the two-thread matches
                // at virtual loss 20 were played.
                let board = &self.board;
                let ripe = node == tree.root()
                    || n.visits()
                        >= params
                            .expansion_visits(|| {
                                recent.last.is_some_and(|p| board.atari_at_or_beside(p))
                            })
                            .saturating_add(params.virtual_loss);
                if !ripe || tree.is_full() || !n.try_begin_expansion() {
                    break;
                }
                let depth = path.path.len();
                let leaf = Leaf {
                    node,
                    grandparent: match depth {
                        0 | 1 => None,
                        2 => Some(tree.root()),
                        d => Some(path.path[d - 3]),
                    },
                    color,
                    recent,
                    depth,
                    passes,
                };
                let ladder = self.scratch.ladder();
                let inherited = &mut self.inherited;
                if !expand(
                    sh,
                    &leaf,
                    &self.board,
                    &mut self.children,
                    ladder,
                    inherited,
                ) {
                    break;
                }
            }
            let explore = params.exploration_for(color, root.color);
            let scheduled = match &sh.halving {
                Some(h) if node == tree.root() => h.pick(tree, params),
                _ => None,
            };
            let Some(child) =
                scheduled.or_else(|| select(tree, node, params, explore, self.crit.values()))
            else {
                break;
            };
            let mv = tree.node(child).mv();
            if mv == PASS {
                self.board.clear_ko();
                passes += 1;
                recent = recent.after(None);
            } else {
                let p = Point(mv as usize);
                if !self.board.is_legal_no_suicide(color, p) {
                    // Cannot happen for a tree built from this root; never
                    // let it corrupt the board if it does.
                    tree.node(child).prune();
                    break;
                }
                self.board.place_unchecked(color, p);
                passes = 0;
                recent = recent.after(Some(p));
            }
            path.push(child);
            self.moves.push(if color == Color::White {
                mv | WHITE_MOVE
            } else {
                mv
            });
            color = color.opponent();
            node = child;
        }
        let tree_moves = self.moves.len();
        if params.pool_rate > 0 {
            self.scratch.rave_pool.fill(
                tree,
                path.path,
                root.color,
                params.pool_size as usize,
                params.pool_visits,
            );
        }
        let final_count = (passes >= 2 && !sh.scorer.literal)
            .then_some(sh.final_counts.as_ref())
            .flatten()
            .and_then(|counts| counts.count(&self.board, &self.moves));
        let (black, white) = if passes >= 2 && sh.scorer.literal {
            self.board.area_counts()
        } else if let Some(count) = &final_count {
            if !count.dead.is_empty() {
                self.board = count.board(&self.board);
            }
            (count.black, count.white)
        } else {
            let style = params.playout_style_drawn(true, &mut self.rng);
            let r = play_out(
                &mut self.board,
                color,
                recent.last,
                style,
                &mut self.rng,
                &mut self.moves,
                &mut self.scratch,
            );
            (r.black, r.white)
        };
        let (black_half, margin) = sh.scorer.judge_playout(black, white, &mut self.rng);
        if params.replies > 0 {
            let winner = match black_half {
                2 => Some(Color::Black),
                0 => Some(Color::White),
                _ => None,
            };
            self.scratch.replies.learn(&self.moves, winner);
        }
        if params.mast > 1 {
            self.scratch.averages.learn(&self.moves, black_half);
        }
        if final_count.is_some() {
            // Not a playout's filled board: territories are whole regions.
            record_area_ownership(&self.board, &mut self.ownership);
        } else {
            record_ownership(&self.board, &mut self.ownership);
        }
        if params.crit_weight > 0.0 {
            let decisive = (black_half != 1).then_some(black_half == 2);
            self.crit.record(&self.board, decisive);
        }

        // Back up: depth 0 is the root (moved into by the opponent of the root colour).
        let for_color = |c: Color| {
            if c == Color::Black {
                (black_half, margin)
            } else {
                (2 - black_half, -margin)
            }
        };
        let color_at_depth = |d: usize| color_at_depth(root.color, d);
        let leaf = path.path.last().copied().unwrap_or(tree.root());
        tree.tally(leaf).add_stop();
        self.root_visits += 1;
        let (root_wins, root_margin) = for_color(root.color.opponent());
        self.root_wins += root_wins;
        self.root_score += i64::from(root_margin);
        path.settle(|d| for_color(color_at_depth(d).opponent()));
        if self.scratch.adaptive.active() {
            // The deepest node on the path with enough playouts to say
            // what a playout from there is expected to bring.
            let least = params.playout_adapt_leaf;
            let baseline = path.path.iter().enumerate().rev().find_map(|(k, &id)| {
                black_halves_through(tree.node(id), color_at_depth(k + 1).opponent(), least)
            });
            self.scratch.adaptive.learn(black_half, baseline);
        }

        // AMAF: a child of the node at depth d gets the result if its move
        // was played first by the same colour anywhere after depth d.
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 || self.stamp > u32::MAX / 2 - 1 {
            self.mark.iter_mut().for_each(|m| *m = 0);
            self.stamp = 1;
        }
        let stamp2 = self.stamp * 2;
        let played = self.moves.len();
        note_playout_first_plays(
            &mut self.mark,
            &mut self.first_at,
            stamp2,
            &self.moves,
            tree_moves,
            params.rave_survivors.then_some(&self.board),
        );
        for d in (0..=path.path.len()).rev() {
            if d < tree_moves {
                note_first_play(&mut self.mark, &mut self.first_at, stamp2, self.moves[d], d);
            }
            let id = if d == 0 {
                tree.root()
            } else {
                path.path[d - 1]
            };
            let Some((first, n)) = tree.node(id).children() else {
                continue;
            };
            let c = color_at_depth(d);
            let want = stamp2 + (c == Color::White) as u32;
            let (result, _) = for_color(c);
            // The children whose move `c` played first, after this node,
            // gathered without a branch: whether a child was played is a
            // coin toss the branch predictor loses half the time (one
            // thread's search on 9x9 light ran 1.15 times as fast without
            // it, 1.135 on 19x19, 1.07 and 1.05 with heavy playouts). A
            // pass child never matches: passes leave no mark.
            let block = tree.block(first, n);
            let hits = &mut self.hits;
            if hits.len() < block.len() {
                hits.resize(block.len(), 0);
            }
            let mut found = 0;
            for (k, child) in block.iter().enumerate() {
                hits[found] = k as u16;
                found += (self.mark[child.mv() as usize] == want) as usize;
            }
            let own_weight = if params.rave_opponent > 0 { 2 } else { 1 };
            let weight = |k: u16| {
                if params.rave_distance {
                    let first = self.first_at[block[k as usize].mv() as usize];
                    own_weight * amaf_weight(usize::from(first) - d, played - d)
                } else {
                    own_weight
                }
            };
            // The opponent's first plays, behind the chooser's own (found
            // from the end of `hits` down), with the opponent's result.
            let mut taken = hits.len();
            if params.rave_opponent > 0 {
                let theirs = want ^ 1;
                let last = if params.rave_opponent_near {
                    d + (played - d).div_ceil(4)
                } else {
                    played
                };
                for (k, child) in block.iter().enumerate().rev() {
                    let p = child.mv() as usize;
                    if self.mark[p] == theirs && usize::from(self.first_at[p]) < last {
                        taken -= 1;
                        hits[taken] = k as u16;
                    }
                }
            }
            let (taken_weight, taken_result) = (params.rave_opponent, 2 - result);
            if d == 0 {
                // The root's children: summed here, added in batches.
                self.root_rave
                    .resize(self.root_rave.len().max(n as usize), [0, 0]);
                for &k in &hits[..found] {
                    let w = weight(k);
                    self.root_rave[k as usize][0] += w;
                    self.root_rave[k as usize][1] += w * result;
                }
                for &k in &hits[taken..] {
                    self.root_rave[k as usize][0] += taken_weight;
                    self.root_rave[k as usize][1] += taken_weight * taken_result;
                }
            } else {
                // A plain load and store, not an atomic add: two workers
                // updating the same child at once lose one update, which
                // an estimate from thousands of AMAF samples does not
                // notice, while the locked adds held two threads back on
                // short playouts (9x9 light in search, two threads over
                // one: 1.67 with them, 1.82 without, medians of
                // interleaved runs). Fuego's lock-free search makes the
                // same trade. Two ways to write fewer shared lines here did
                // not pay (9x9 light, the same measure, 10-15 rounds
                // against 1.82-1.83): summing the AMAF counts of busy
                // nodes' children (256 or 2,000 visits and up) per worker
                // in a direct-mapped buffer, added every 16, 64 or 128
                // playouts, 1.76-1.81; prefetching the next node's
                // children for writing before this loop, 1.74. Nor did
                // writing half as often (12 rounds against the head in
                // the same run): busy nodes' AMAF counts every other
                // playout, counted twice, 1.82 against 1.82 from 1,000
                // visits and 1.81 against 1.81 from 30. Separate trees,
                // one per thread, reach 2.00 where the shared one has
                // 1.83: the loss is in sharing, not in this machine. Where
                // the threads meet in the tree, and what that costs, is in
                // RESEARCH.md (Benchmarks and long runs).
                for &k in &hits[..found] {
                    let w = weight(k);
                    if w != 0 {
                        block[k as usize].add_rave_lossy(w, w * result);
                    }
                }
                for &k in &hits[taken..] {
                    block[k as usize].add_rave_lossy(taken_weight, taken_weight * taken_result);
                }
            }
        }
        drop(path);
    }
}

/// Black's mean result in half points over the playouts through `node`,
/// whose move `mover` played, once it has at least `least` of them (0:
/// never).
fn black_halves_through(node: &Node, mover: Color, least: u32) -> Option<f32> {
    let (visits, wins) = node.results();
    if least == 0 || visits < least {
        return None;
    }
    let mover_halves = wins as f32 / visits as f32;
    Some(if mover == Color::Black {
        mover_halves
    } else {
        2.0 - mover_halves
    })
}

/// The colour that chooses at depth `d` of a search whose root `root_color` moves at.
pub(super) fn color_at_depth(root_color: Color, d: usize) -> Color {
    if d.is_multiple_of(2) {
        root_color
    } else {
        root_color.opponent()
    }
}

/// Marks the point of the move recorded at `index` as first played by its
/// colour there (moves are noted from the last to the first, so the
/// earliest play wins).
#[inline]
fn note_first_play(mark: &mut [u32], first_at: &mut [u16], stamp2: u32, m: u16, index: usize) {
    let p = (m & !WHITE_MOVE) as usize;
    if p != PASS as usize {
        mark[p] = stamp2 + (m & WHITE_MOVE != 0) as u32;
        first_at[p] = index as u16;
    }
}

/// Marks the first plays of the playout moves, `moves[tree_moves..]`.
/// With the final board in `survivors`, only moves whose stone is still
/// there count (see [`Params::rave_survivors`]).
fn note_playout_first_plays(
    mark: &mut [u32],
    first_at: &mut [u16],
    stamp2: u32,
    moves: &[u16],
    tree_moves: usize,
    survivors: Option<&Board>,
) {
    for (i, &m) in moves.iter().enumerate().skip(tree_moves).rev() {
        if survivors.is_none_or(|end| stone_survived(end, m)) {
            note_first_play(mark, first_at, stamp2, m, i);
        }
    }
}

/// The stone of move `m` (a colour-tagged point) is on the final board `end`.
fn stone_survived(end: &Board, m: u16) -> bool {
    let (p, color) = decode_move(m);
    p != PASS as usize && end.color_at(Point(p)) == Some(color)
}

/// The weight of an AMAF result for a move first played `after` moves past
/// the node, of the `span` moves that follow it (see
/// [`Params::rave_distance`]).
fn amaf_weight(after: usize, span: usize) -> u32 {
    if 4 * after < span {
        2
    } else if 4 * after < 3 * span {
        1
    } else {
        0
    }
}

/// Adds the final position's owners: stones, and empty points by the
/// colour of a neighbouring stone (playouts end with only eyes empty).
fn record_ownership(b: &Board, ownership: &mut [i64]) {
    for p in b.points() {
        match final_owner(b, p) {
            Some(Color::Black) => ownership[p.0] += 1,
            Some(Color::White) => ownership[p.0] -= 1,
            None => {}
        }
    }
}

/// [`record_ownership`] for a position that is not played out: each side
/// owns its stones and the empty regions that reach only its stones.
fn record_area_ownership(b: &Board, ownership: &mut [i64]) {
    for (c, sign) in [(Color::Black, 1), (Color::White, -1)] {
        for p in (*b.stones(c) | b.area_territory(c)).iter() {
            ownership[p] += sign;
        }
    }
}

/// Expands the root with the moves `game` allows `color` (superko
/// included), or re-checks the children of a kept root.
pub fn prepare_root(tree: &Tree, root: &Root, game: &Game, params: &Params) {
    let node = tree.node(tree.root());
    let legal = |p: Point| game.is_legal(root.color, crate::board::Move::Place(p));
    let symmetries = if params.symmetry {
        symmetry::of(&root.board)
    } else {
        Vec::new()
    };
    // Superko may forbid a move but not its image: the images are asked.
    let legal = |p: Point| legal(p) && symmetry::is_kept(&root.board, &symmetries, p, legal);
    if node.children().is_some() {
        for (_, child) in tree.children_of(tree.root()) {
            let ok = child.mv() == PASS || legal(Point(child.mv() as usize));
            child.set_pruned(!ok);
        }
        return;
    }
    if node.try_begin_expansion() {
        let mut children = Vec::new();
        children_with_priors(
            &root.board,
            root.color,
            root.recent,
            &params.priors,
            legal,
            &mut children,
            &mut LadderScratch::default(),
        );
        order_for_widening(&mut children, params);
        tree.expand(tree.root(), &children);
    }
}

/// Runs `threads` workers on the shared search until it finishes.
pub fn search(sh: &Shared, threads: usize, seed: u64) {
    if threads <= 1 {
        // On the caller's thread: nothing to share, nothing to hand over.
        Worker::new(sh.root, worker_seed(seed, 0)).run(sh);
        return;
    }
    on_threads(threads, |t| {
        Worker::new(sh.root, worker_seed(seed, t)).run(sh);
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::bench::PlayoutKind;
    use crate::search::params::Tuning;

    /// 9x9 heavy-playout constants with `knobs` set, as `--tune` sets them.
    fn tuned(knobs: &str) -> Params {
        Params::tuned(9, PlayoutKind::Heavy, &Tuning::parse(knobs).unwrap())
    }

    #[test]
    fn a_counted_position_owns_whole_regions_and_no_dame() {
        // Not a playout's filled board: A5-A1 is a region of five points
        // that only Black reaches, E5-E1 one that only White reaches, and
        // C1 touches both.
        let b = Board::from_ascii(
            ". X O O .
             . X X O .
             . . X O .
             . X X O .
             . X . O .",
        )
        .unwrap();
        let len = b.stride() * (b.size() + 2) + 1;
        let mut by_area = vec![0i64; len];
        record_area_ownership(&b, &mut by_area);
        let at = |name: &str| {
            crate::board::coord::parse_vertex(name, b.size())
                .unwrap()
                .unwrap()
                .0
        };
        for black in ["A5", "A3", "B3", "B5", "C2"] {
            assert_eq!(by_area[at(black)], 1, "{black}");
        }
        for white in ["E5", "E3", "D1", "C5"] {
            assert_eq!(by_area[at(white)], -1, "{white}");
        }
        assert_eq!(by_area[at("C1")], 0);
        // A playout's ownership reads an empty point by its neighbours:
        // A3, with none, would count for nobody.
        let mut by_neighbours = vec![0i64; len];
        record_ownership(&b, &mut by_neighbours);
        assert_eq!(by_neighbours[at("A3")], 0);
    }

    #[test]
    fn with_survivors_only_a_captured_playout_stone_gives_no_amaf() {
        // The playout after the tree: Black A2, White C1, Black B2, White
        // A1, Black B1 (taking A1), White D1. At the end White A1 is gone,
        // so with survivors only A1 is no one's first play.
        let diagram = "
            . . . .
            . . . .
            X X . .
            . X O O";
        let end = Board::from_ascii(diagram).unwrap();
        let at = |v| crate::board::test_point(&end, v).0 as u16;
        let white = |v| at(v) | WHITE_MOVE;
        let tree_move = at("D4");
        let moves = [
            tree_move,
            at("A2"),
            white("C1"),
            at("B2"),
            white("A1"),
            at("B1"),
            white("D1"),
        ];
        let marks = |survivors: Option<&Board>| {
            let mut mark = vec![0; end.points().count() + 64];
            let mut first_at = vec![0; mark.len()];
            note_playout_first_plays(&mut mark, &mut first_at, 2, &moves, 1, survivors);
            let first = |v| match mark[at(v) as usize] {
                2 => Some(Color::Black),
                3 => Some(Color::White),
                _ => None,
            };
            ["D4", "A2", "C1", "B2", "A1", "B1", "D1"].map(first)
        };
        let (b, w) = (Some(Color::Black), Some(Color::White));
        assert_eq!(marks(None), [None, b, w, b, w, b, w]);
        assert_eq!(marks(Some(&end)), [None, b, w, b, None, b, w]);
    }

    /// A tree whose root has two children without priors.
    fn root_with_two_children() -> (Tree, NodeId, NodeId) {
        let tree = Tree::new(1024);
        let root = tree.root();
        assert!(tree.node(root).try_begin_expansion());
        let child = |mv| NewChild {
            mv,
            prior_visits: 0,
            prior_wins: 0,
            policy: 0,
            ..Default::default()
        };
        assert!(tree.expand(root, &[child(10), child(11)]));
        let a = tree.child_with_move(root, 10).unwrap();
        let b = tree.child_with_move(root, 11).unwrap();
        (tree, a, b)
    }

    #[test]
    fn the_root_is_unsettled_while_a_well_tried_move_wins_more_than_the_most_visited() {
        let (tree, a, b) = root_with_two_children();
        assert!(!root_unsettled(&tree), "no playouts yet");
        // Half-point wins: a wins 40% of 100 playouts, b 60% of 60.
        tree.node(a).add_results(100, 80);
        tree.node(b).add_results(60, 72);
        assert!(root_unsettled(&tree));
        // a now wins 80% of 300.
        tree.node(a).add_results(200, 400);
        assert!(!root_unsettled(&tree));
        let (tree, a, b) = root_with_two_children();
        // b wins all of its 9 playouts, under a tenth of a's 100.
        tree.node(a).add_results(100, 80);
        tree.node(b).add_results(9, 18);
        assert!(!root_unsettled(&tree));
        tree.node(b).add_results(1, 2);
        assert!(root_unsettled(&tree), "a tenth of a's visits");
    }

    #[test]
    fn past_its_deadline_a_search_goes_on_only_while_unsettled_and_time_is_left() {
        let (tree, a, b) = root_with_two_children();
        let game = Game::new(9, crate::rules::Rules::default()).unwrap();
        let root = Root {
            board: game.board().clone(),
            color: Color::Black,
            passes: 0,
            recent: Recent::default(),
        };
        let params = Params::new(9, PlayoutKind::Heavy);
        let stop = AtomicBool::new(false);
        let now = Instant::now();
        let past = now.checked_sub(Duration::from_millis(10));
        let later = Some(now + Duration::from_secs(60));
        let shared = |unsettled_deadline| {
            Shared::new(
                &tree,
                &root,
                &params,
                Scorer::of(&game),
                &stop,
                u64::MAX,
                past,
            )
            .with_unsettled_deadline(unsettled_deadline)
        };
        tree.node(a).add_results(100, 80);
        tree.node(b).add_results(60, 72);
        assert!(!shared(later).should_halt(160), "unsettled: it goes on");
        assert!(shared(past).should_halt(160), "past the later deadline too");
        assert!(shared(None).should_halt(160), "no time to spare");
        tree.node(a).add_results(200, 400);
        assert!(shared(later).should_halt(360), "settled: it stops");
    }

    #[test]
    fn new_children_inherit_the_grandparents_results_scaled_to_the_caps() {
        let (tree, a, b) = root_with_two_children();
        tree.node(a).add_rave(400, 600); // 75% over 400 AMAF samples
        tree.node(a).add_results(100, 50); // 25% over 100 real playouts
        tree.node(b).add_rave(10, 4); // 20% over 10
        let child = |mv| NewChild {
            mv,
            prior_visits: 10,
            prior_wins: 10,
            ..Default::default()
        };
        let new_children = || vec![child(10), child(11), child(12), child(PASS)];
        let mut by_move = vec![Inherited::default(); 20];
        let inherit = |rave, prior, children: &mut Vec<NewChild>, by_move: &mut Vec<_>| {
            let params = Params {
                rave_grandparent: rave,
                prior_grandparent: prior,
                ..Params::new(9, PlayoutKind::Heavy)
            };
            inherit_from_grandparent(&tree, tree.root(), &params, children, by_move);
        };
        // At most 20 AMAF samples at the same rate; fewer kept as they
        // are; a move the grandparent does not have, and a pass, start
        // empty; the priors stay as they were.
        let mut children = new_children();
        inherit(20, 0, &mut children, &mut by_move);
        let rave: Vec<_> = children.iter().map(|c| c.rave).collect();
        assert_eq!(rave, [(20, 30), (10, 4), (0, 0), (0, 0)]);
        assert!(children
            .iter()
            .all(|c| (c.prior_visits, c.prior_wins) == (10, 10)));
        assert!(
            by_move.iter().all(|x| *x == Inherited::default()),
            "scratch left clean"
        );
        // The real results go to the prior, at most 8 of them.
        let mut with_prior = new_children();
        inherit(0, 8, &mut with_prior, &mut by_move);
        let priors: Vec<_> = with_prior
            .iter()
            .map(|c| (c.prior_visits, c.prior_wins))
            .collect();
        assert_eq!(priors, [(18, 14), (10, 10), (10, 10), (10, 10)]);
        assert!(with_prior.iter().all(|c| c.rave == (0, 0)));
        // Expanded, the children read back what they inherited.
        assert!(tree.node(a).try_begin_expansion());
        assert!(tree.expand(a, &children));
        assert_eq!(
            tree.node(tree.child_with_move(a, 10).unwrap()).rave(),
            (20, 30)
        );
        assert_eq!(
            tree.node(tree.child_with_move(a, 12).unwrap()).rave(),
            (0, 0)
        );
    }

    #[test]
    fn amaf_results_weigh_less_the_later_the_move_was_played() {
        // Of the 40 moves after a node: the first ten count twice, the
        // middle twenty once, the last ten not at all.
        let weights: Vec<u32> = (0..40).map(|after| amaf_weight(after, 40)).collect();
        assert!(weights[..10].iter().all(|&w| w == 2), "{weights:?}");
        assert!(weights[10..30].iter().all(|&w| w == 1), "{weights:?}");
        assert!(weights[30..].iter().all(|&w| w == 0), "{weights:?}");
        // The child's own move (0 after) always counts, and the weights
        // keep the counts at their scale on any span.
        for span in 1..200 {
            assert!(amaf_weight(0, span) > 0, "{span}");
            let total: u32 = (0..span).map(|after| amaf_weight(after, span)).sum();
            assert!(total.abs_diff(span as u32) <= 2, "{span}: {total}");
        }
    }

    #[test]
    fn amaf_counts_for_less_as_the_board_fills() {
        let phased = Tuning::parse("rave_phase=2").unwrap();
        let empty = Board::new(9).unwrap();
        let at = |board: &Board, tuning: &Tuning| {
            Params::tuned(9, PlayoutKind::Heavy, tuning)
                .at(board)
                .rave_equiv
        };
        assert_eq!(at(&empty, &phased), 3000.0);
        // 27 of 81 points empty: a third, so a ninth of the equivalence.
        let two_thirds_full = Board::from_ascii(
            "X X X X X X X X X
             O O O O O O O O O
             X X X X X X X X X
             O O O O O O O O O
             X X X X X X X X X
             O O O O O O O O O
             . . . . . . . . .
             . . . . . . . . .
             . . . . . . . . .",
        )
        .unwrap();
        let v = at(&two_thirds_full, &phased);
        assert!((v - 3000.0 / 9.0).abs() < 1e-9, "{v}");
        // Off by default.
        assert_eq!(at(&two_thirds_full, &Tuning::default()), 3000.0);
    }

    #[test]
    fn virtual_loss_is_settled_by_a_result_or_withdrawn_when_dropped() {
        let (tree, a, b) = root_with_two_children();
        tree.node(a).add_results(2, 4);
        let mut path = Vec::new();
        {
            let mut guard = VirtualLoss::new(&tree, &mut path, 3);
            guard.push(a);
            guard.push(b);
            // While the playout is below them, each counts 3 lost visits.
            assert_eq!(tree.node(a).results(), (5, 4));
            assert_eq!(
                child_value(&tree, a, &Params::new(9, PlayoutKind::Light)).1,
                5
            );
            // Abandoned without a result (an early return or a panic).
        }
        assert_eq!(tree.node(a).results(), (2, 4));
        assert_eq!(tree.node(b).results(), (0, 0));
        assert!(path.is_empty());
        {
            let mut guard = VirtualLoss::new(&tree, &mut path, 3);
            guard.push(a);
            guard.push(b);
            // A win for the mover at depth 1, a loss at depth 2.
            guard.settle(|d| if d == 1 { (2, 10) } else { (0, -10) });
        }
        assert_eq!(tree.node(a).results(), (3, 6));
        assert_eq!(tree.node(b).results(), (1, 0));
        assert_eq!(tree.score_lead(b), -5.0);
    }

    #[test]
    fn a_reply_the_playouts_misjudge_is_tried_only_where_the_opponent_chooses() {
        // `a` has won a quarter of its 1,000 playouts; `b` was never tried
        // and its AMAF results say 15%: a refutation the playouts misplay.
        let (tree, a, b) = root_with_two_children();
        tree.node(tree.root()).add_results(1000, 500);
        tree.node(a).add_results(1000, 500);
        tree.node(b).add_rave(400, 120);
        let params = tuned("explore_reply=0.05");
        let searcher = Color::Black;
        let at = |mover: Color| {
            let explore = params.exploration_for(mover, searcher);
            select(&tree, tree.root(), &params, explore, &[])
        };
        assert_eq!(
            at(Color::Black),
            Some(a),
            "greedy on the searcher's own moves"
        );
        assert_eq!(at(Color::White), Some(b), "the opponent's untried reply");
        // Off by default: greedy everywhere.
        let default = Params::new(9, PlayoutKind::Heavy);
        assert_eq!(default.exploration_for(Color::White, searcher), 0.0);
        // `explore` alone still explores at every node.
        let everywhere = tuned("explore=0.05");
        assert_eq!(everywhere.exploration_for(Color::Black, searcher), 0.05);
        assert_eq!(everywhere.exploration_for(Color::White, searcher), 0.05);
    }

    #[test]
    fn choosing_by_fractions_picks_a_child_of_the_best_blended_value() {
        // With every additive term off (the defaults), `select` compares
        // the blend as fractions, without a division per child. Whatever
        // it picks must be worth what the written-out blend says is best.
        let params = tuned("");
        let mut rng = rand::rngs::StdRng::seed_from_u64(11);
        for round in 0..300 {
            let tree = Tree::new(1024);
            let root = tree.root();
            assert!(tree.node(root).try_begin_expansion());
            let count = rng.gen_range(1..40u16);
            let children: Vec<NewChild> = (0..count)
                .map(|mv| {
                    let prior_visits = rng.gen_range(0..40u16);
                    NewChild {
                        mv,
                        tactical: rng.gen_bool(0.2),
                        prior_visits,
                        prior_wins: rng.gen_range(0..=2 * prior_visits),
                        ..Default::default()
                    }
                })
                .collect();
            assert!(tree.expand(root, &children));
            let mut total = 0;
            for (id, _) in tree.children_of(root) {
                // Some children stay untouched: first-play urgency.
                if rng.gen_bool(0.8) {
                    let visits = rng.gen_range(0..3000u32);
                    tree.node(id)
                        .add_results(visits, rng.gen_range(0..=2 * visits));
                    total += visits;
                }
                if rng.gen_bool(0.8) {
                    let visits = rng.gen_range(0..20000u32);
                    tree.node(id)
                        .add_rave(visits, rng.gen_range(0..=2 * visits));
                }
            }
            tree.node(root).add_results(total, total);
            let value = |id| child_value(&tree, id, &params).0;
            let best = tree
                .children_of(root)
                .map(|(id, _)| value(id))
                .fold(f64::NEG_INFINITY, f64::max);
            let picked = select(&tree, root, &params, 0.0, &[]).expect("a child");
            assert!(
                value(picked) >= best * (1.0 - 1e-12),
                "round {round}: picked {} where the best is {best}",
                value(picked)
            );
        }
    }

    #[test]
    fn a_likely_reply_is_tried_for_its_policy_an_unlikely_one_is_not() {
        // `a` has won half its 1,000 playouts; `b` and `c`, never tried,
        // say 15% by AMAF. The learned strengths make `b` a likely move
        // (a strong player's tactical reply) and `c` an unlikely one.
        let position = |c_share: f64| {
            let tree = Tree::new(1024);
            let root = tree.root();
            assert!(tree.node(root).try_begin_expansion());
            let child = |mv, share: f64| NewChild {
                mv,
                prior_visits: 0,
                prior_wins: 0,
                policy: (share * f64::from(u16::MAX)) as u16,
                ..Default::default()
            };
            let children = [child(10, 0.4), child(11, 0.6 - c_share), child(12, c_share)];
            assert!(tree.expand(root, &children));
            let [a, b, c] = [10, 11, 12].map(|mv| tree.child_with_move(root, mv).unwrap());
            tree.node(root).add_results(1000, 1000);
            tree.node(a).add_results(1000, 1000);
            tree.node(b).add_rave(400, 120);
            tree.node(c).add_rave(400, 120);
            (tree, [a, b, c])
        };
        let pick = |tree: &Tree, knobs: &str| select(tree, tree.root(), &tuned(knobs), 0.0, &[]);
        let (tree, [a, b, _]) = position(0.001);
        assert_eq!(pick(&tree, ""), Some(a), "greedy by default");
        assert_eq!(pick(&tree, "puct=0.1"), Some(b));
        // Once tried, a reply that loses gives way to the tried move, not
        // to the unlikely one.
        tree.node(b).add_results(100, 0);
        assert_eq!(pick(&tree, "puct=0.1"), Some(a));
        // Where `c` is likely too, it is tried next.
        let (tree, [_, b, c]) = position(0.2);
        tree.node(b).add_results(100, 0);
        assert_eq!(pick(&tree, "puct=0.1"), Some(c));
    }

    #[test]
    fn the_root_can_trust_real_results_more_than_amaf_while_deeper_nodes_do_not() {
        // Two moves tried 1,000 times each: `a` wins 60% of its own
        // playouts but 40% of its 3,000 AMAF samples (a move that must be
        // played now); `b` wins 50% and 60%. With the default blend
        // (beta 0.6) `b` looks better (0.56 against 0.48); with an
        // equivalence of 100 for the root's children alone (beta 0.09)
        // `a` does (0.58 against 0.51), and a node below the root keeps
        // the default blend.
        let (tree, a, b) = root_with_two_children();
        let same_stats = |a, b| {
            tree.node(a).add_results(1000, 2 * 600);
            tree.node(a).add_rave(3000, 2 * 1200);
            tree.node(b).add_results(1000, 2 * 500);
            tree.node(b).add_rave(3000, 2 * 1800);
        };
        same_stats(a, b);
        tree.node(tree.root()).add_results(2000, 2 * 900);
        assert!(tree.node(a).try_begin_expansion());
        assert!(tree.expand(
            a,
            &[20, 21].map(|mv| NewChild {
                mv,
                ..Default::default()
            })
        ));
        let (x, y) = (
            tree.child_with_move(a, 20).unwrap(),
            tree.child_with_move(a, 21).unwrap(),
        );
        same_stats(x, y);
        let pick = |node, knobs: &str| select(&tree, node, &tuned(knobs), 0.0, &[]);
        assert_eq!(pick(tree.root(), ""), Some(b), "AMAF decides by default");
        assert_eq!(pick(tree.root(), "root_rave_equiv=100"), Some(a));
        assert_eq!(
            pick(a, "root_rave_equiv=100"),
            Some(y),
            "not below the root"
        );
        let value = |knobs: &str| child_value(&tree, a, &tuned(knobs)).0;
        assert!((value("") - 0.48).abs() < 1e-9);
        assert!((value("root_rave_equiv=100") - 0.5823).abs() < 1e-3);
    }

    #[test]
    fn a_side_that_is_losing_everywhere_tries_its_untried_moves() {
        // The side to move at the root has won 3% of its 2,000 playouts:
        // `a`, tried 2,000 times, wins 3%; `b`, never tried, 2% by AMAF:
        // the one move that resists, unseen.
        let (tree, a, b) = root_with_two_children();
        tree.node(tree.root()).add_results(2000, 2 * 1940);
        tree.node(a).add_results(2000, 2 * 60);
        tree.node(b).add_rave(2000, 2 * 40);
        let pick = |knobs: &str| select(&tree, tree.root(), &tuned(knobs), 0.0, &[]);
        assert_eq!(pick(""), Some(a), "greedy by default");
        assert_eq!(pick("explore_lost=0.3"), Some(b));
        // Not lost by the threshold: greedy again.
        assert_eq!(pick("explore_lost=0.3,lost_below=0.02"), Some(a));
        // A side that is not losing stays greedy.
        tree.node(tree.root()).add_results(8000, 2 * 4000);
        assert_eq!(pick("explore_lost=0.3"), Some(a));
    }

    #[test]
    fn a_move_whose_refutation_is_found_drops_by_its_minimax_share() {
        // `a` has won 70% of 100 playouts and `b` 65%. Below `a` the
        // opponent's first 50 tries went to a weak reply; the next 50 found
        // `x`, which wins 60% for it: `a` is worth 40% against `x`.
        let (tree, a, b) = root_with_two_children();
        tree.node(tree.root()).add_results(200, 2 * 65);
        tree.node(a).add_results(100, 2 * 70);
        tree.node(b).add_results(100, 2 * 65);
        assert!(tree.node(a).try_begin_expansion());
        let reply = |mv| NewChild {
            mv,
            ..Default::default()
        };
        assert!(tree.expand(a, &[reply(20), reply(21)]));
        let x = tree.child_with_move(a, 20).unwrap();
        let weak = tree.child_with_move(a, 21).unwrap();
        tree.node(weak).add_results(50, 0);
        tree.node(x).add_results(50, 2 * 30);
        let pick = |knobs: &str| select(&tree, tree.root(), &tuned(knobs), 0.0, &[]);
        assert_eq!(pick("minimax=0.5"), Some(a), "no descent below a yet");
        // A descent through `a` notes its best reply, the opponent's `x`.
        assert_eq!(select(&tree, a, &tuned("minimax=0.5"), 0.0, &[]), Some(x));
        assert_eq!(pick(""), Some(a), "the mean alone keeps a");
        // 0.70 - 0.5 * (0.70 - 0.40) = 0.55 < 0.65.
        assert_eq!(pick("minimax=0.5"), Some(b));
        // 0.70 - 0.1 * 0.30 = 0.67 > 0.65.
        assert_eq!(pick("minimax=0.1"), Some(a));
        // Fewer playouts than asked for: no reply counts yet.
        tree.tally(a).set_best_reply(0.0);
        assert_eq!(
            select(&tree, a, &tuned("minimax=0.5,minimax_visits=51"), 0.0, &[]),
            Some(x)
        );
        assert_eq!(
            pick("minimax=0.5"),
            Some(a),
            "a reply worth nothing leaves the mean"
        );
        // A reply that is worse for the opponent than the mean says never
        // raises the move.
        assert!((toward_minimax(0.3, Some(0.2), 1.0) - 0.3).abs() < 1e-12);
    }

    #[test]
    fn the_value_is_the_mc_rave_blend_of_real_and_amaf_results() {
        for prior_amaf in [0.0, 1.0, 2.5] {
            let mut params = Params::new(9, PlayoutKind::Light);
            params.prior_amaf = prior_amaf;
            check_mc_rave_blend(&params);
        }
    }

    /// Gelly and Silver's blend, written out the long way, with the prior
    /// counted `prior_amaf` times into the AMAF experience too.
    fn check_mc_rave_blend(params: &Params) {
        // (prior visits, prior half-point wins, visits, wins, AMAF visits, AMAF wins)
        let cases = [
            (0, 0, 0, 0, 0, 0),
            (0, 0, 0, 0, 7, 9),
            (10, 12, 0, 0, 0, 0),
            (10, 12, 3, 1, 40, 50),
            (0, 0, 5000, 6100, 20000, 21000),
            (40, 60, 123, 200, 977, 1500),
        ];
        for (pn, pw, n, w, rn, rw) in cases {
            let tree = Tree::new(16);
            let root = tree.root();
            assert!(tree.node(root).try_begin_expansion());
            let new = NewChild {
                mv: 10,
                prior_visits: pn,
                prior_wins: pw,
                policy: 0,
                ..Default::default()
            };
            assert!(tree.expand(root, &[new]));
            let id = tree.child_with_move(root, 10).unwrap();
            let child = tree.node(id);
            child.add_results(n, w);
            child.add_rave(rn, rw);
            let visits = (pn as u32 + n) as f64;
            let mut expected = if visits > 0.0 {
                (pw as u32 + w) as f64 / (2.0 * visits)
            } else {
                params.fpu
            };
            let r = (rn as f64 + pn as f64 * params.prior_amaf).floor();
            let r_wins = (rw as f64 + pw as f64 * params.prior_amaf).floor();
            if r > 0.0 {
                let beta = r / (r + visits + r * visits / params.rave_equiv);
                expected = (1.0 - beta) * expected + beta * r_wins / (2.0 * r);
            }
            let (value, counted) = child_value(&tree, id, params);
            assert!((value - expected).abs() < 1e-12, "{value} {expected}");
            assert_eq!(counted, pn as u32 + n);
        }
    }

    #[test]
    fn amaf_may_raise_a_tactical_move_but_not_bury_it() {
        let params = Params::new(9, PlayoutKind::Light);
        let tree = Tree::new(16);
        let root = tree.root();
        assert!(tree.node(root).try_begin_expansion());
        // Two moves with the same even prior (10 visits at 50%); 11 ataris
        // a big chain.
        let child = |mv, tactical| NewChild {
            mv,
            prior_visits: 10,
            prior_wins: 10,
            tactical,
            ..Default::default()
        };
        assert!(tree.expand(root, &[child(10, false), child(11, true)]));
        let quiet = tree.child_with_move(root, 10).unwrap();
        let atari = tree.child_with_move(root, 11).unwrap();
        assert!(tree.node(atari).is_tactical() && !tree.node(quiet).is_tactical());
        // Played late in 1,700 playouts each, both nearly always lost.
        for id in [quiet, atari] {
            tree.node(id).add_rave(1700, 2 * 15);
        }
        let value = |id| child_value(&tree, id, &params).0;
        assert!(value(quiet) < 0.05, "{}", value(quiet));
        assert_eq!(value(atari), 0.5);
        // Real playouts still decide: after 30 lost ones it is at 1/8.
        tree.node(atari).add_results(30, 0);
        assert_eq!(value(atari), 0.125);
        // Good AMAF results raise it like any move's.
        tree.node(quiet).add_rave(10_000, 2 * 9_000);
        let blended = value(quiet);
        assert!(blended > 0.7, "{blended}");
        // Pruning leaves the mark alone, and the mark does not prune.
        tree.node(atari).prune();
        assert!(tree.node(atari).is_tactical() && tree.node(atari).is_pruned());
        tree.node(atari).set_pruned(false);
        assert!(tree.node(atari).is_tactical() && !tree.node(atari).is_pruned());
    }

    #[test]
    fn a_score_weight_prefers_the_larger_margin_at_equal_wins() {
        let (tree, a, b) = root_with_two_children();
        // Two wins in four playouts each; A by 20 points, B by 2 (half points).
        for (id, margin) in [(a, 40), (b, 4)] {
            tree.node(id).add_results(4, 4);
            (0..4).for_each(|_| tree.tally(id).add_score_lossy(margin));
        }
        let plain = Params::new(9, PlayoutKind::Light);
        assert_eq!(child_value(&tree, a, &plain), child_value(&tree, b, &plain));
        let scored = Params::tuned(
            9,
            PlayoutKind::Light,
            &Tuning::parse("score_weight=0.05").unwrap(),
        );
        let (va, _) = child_value(&tree, a, &scored);
        let (vb, _) = child_value(&tree, b, &scored);
        assert!(va > vb && va - 0.5 <= 0.05, "{va} {vb}");
    }

    #[test]
    fn the_score_term_measures_a_move_against_the_margin_its_side_already_has() {
        let (tree, a, b) = root_with_two_children();
        // Black to move, 8 points behind by komi whatever it plays: the
        // root's playouts have White ahead by 8, and so has A's.
        tree.node(tree.root()).add_results(5, 5);
        (0..5).for_each(|_| tree.tally(tree.root()).add_score_lossy(16));
        tree.node(a).add_results(4, 4);
        (0..4).for_each(|_| tree.tally(a).add_score_lossy(-16));
        let plain = Params::new(9, PlayoutKind::Light);
        let scored = tuned("score_weight=0.3");
        assert_eq!(
            child_value(&tree, a, &scored),
            child_value(&tree, a, &plain)
        );
        // B, as many wins but 4 points less behind, gains.
        tree.node(b).add_results(4, 4);
        (0..4).for_each(|_| tree.tally(b).add_score_lossy(-8));
        assert!(child_value(&tree, b, &scored).0 > child_value(&tree, b, &plain).0);
    }

    #[test]
    fn the_root_knows_the_mean_margin_its_children_are_measured_against() {
        // Komi 40 on an empty 9x9 board: White, who moved into the root,
        // leads by about 40 points whatever Black plays.
        let mut rules = crate::rules::Rules::preset("chinese").unwrap();
        rules.komi = 40.0;
        let game = Game::new(9, rules).unwrap();
        let root = Root {
            board: game.board().clone(),
            color: Color::Black,
            passes: 0,
            recent: Recent::default(),
        };
        let tree = Tree::new(200_000);
        let params = Params::new(9, PlayoutKind::Heavy);
        prepare_root(&tree, &root, &game, &params);
        let stop = AtomicBool::new(false);
        let scorer = Scorer::of(&game);
        let shared = Shared::new(&tree, &root, &params, scorer, &stop, 2000, None);
        search(&shared, 1, 7);

        let lead = tree.score_lead(tree.root());
        assert!(lead > 25.0, "White's lead at the root: {lead}");
        let (visits, summed) = tree
            .children_of(tree.root())
            .fold((0.0, 0.0), |(n, s), (id, c)| {
                let v = f64::from(c.visits());
                (n + v, s + v * tree.score_lead(id))
            });
        let children = summed / visits;
        assert!(
            (lead + children).abs() < 1.0,
            "root {lead}, children {children}"
        );
    }

    #[test]
    fn a_jigo_counts_what_the_searcher_says_it_is_worth() {
        let mut rules = crate::rules::Rules::preset("chinese").unwrap();
        rules.komi = 7.0;
        let game = Game::new(9, rules).unwrap();
        // 44 to 37 with komi 7: an even count.
        let even = Scorer::of(&game);
        assert_eq!(even.judge(44, 37), (1, 0));
        assert_eq!(even.with_jigo(Color::Black, 0.5).judge(44, 37), (1, 0));
        assert_eq!(even.with_jigo(Color::Black, 0.0).judge(44, 37), (0, 0));
        assert_eq!(even.with_jigo(Color::White, 0.0).judge(44, 37), (2, 0));
        // Wins and losses stay what they are.
        assert_eq!(even.with_jigo(Color::White, 0.0).judge(45, 36), (2, 4));
        assert_eq!(even.with_jigo(Color::Black, 0.0).judge(43, 38), (0, -4));
        // A quarter of a win: the half below or above, as often each.
        let mut rng = rand::rngs::SmallRng::seed_from_u64(1);
        for color in [Color::Black, Color::White] {
            let quarter = even.with_jigo(color, 0.25);
            let own_halves: u32 = (0..4000)
                .map(|_| {
                    let (black_half, _) = quarter.judge_playout(44, 37, &mut rng);
                    if color == Color::Black {
                        black_half
                    } else {
                        2 - black_half
                    }
                })
                .inspect(|&h| assert!(h <= 1, "{color:?} got {h} half points for a jigo"))
                .sum();
            assert!(
                (1800..2200).contains(&own_halves),
                "{color:?}: {own_halves}"
            );
            // Decided counts are never drawn at random, not even those
            // whose margin rounds to no half point.
            assert_eq!(quarter.judge_playout(45, 36, &mut rng), (2, 4));
            let mut odd = rules;
            odd.komi = 7.2;
            let odd = Scorer::of(&Game::new(9, odd).unwrap()).with_jigo(color, 0.25);
            for _ in 0..100 {
                assert_eq!(odd.judge_playout(44, 37, &mut rng), (0, 0));
            }
        }
        // Where Black wins ties there is no jigo.
        rules.black_wins_ties = true;
        let ing = Scorer::of(&Game::new(9, rules).unwrap());
        assert_eq!(ing.with_jigo(Color::White, 0.0).judge(44, 37), (2, 0));
    }

    #[test]
    fn a_search_that_asks_for_a_margin_counts_narrow_wins_as_draws_or_losses() {
        let mut rules = crate::rules::Rules::preset("chinese").unwrap();
        rules.komi = 7.0;
        let game = Game::new(9, rules).unwrap();
        let plain = Scorer::of(&game).with_jigo(Color::White, 0.0);
        // 43 to 38 with komi 7: White by 2, the narrowest win on a full board.
        assert_eq!(plain.judge(43, 38), (0, -4));
        // White asking for 2 points more counts it as a draw, worth a loss
        // here; 4 points more, as a loss. The margin reported stays true.
        assert_eq!(plain.with_margin(Color::White, 2.0).judge(43, 38), (2, -4));
        assert_eq!(plain.with_margin(Color::White, 4.0).judge(43, 38), (2, -4));
        assert_eq!(plain.with_margin(Color::White, 2.0).judge(42, 39), (0, -8));
        // Black asking for 2 more: 45 to 36 (Black by 2) becomes a draw
        // worth what Black's jigo is worth; 47 to 34 (Black by 6) stays a win.
        let black = Scorer::of(&game).with_jigo(Color::Black, 0.0);
        assert_eq!(black.judge(45, 36), (2, 4));
        assert_eq!(black.with_margin(Color::Black, 2.0).judge(45, 36), (0, 4));
        assert_eq!(black.with_margin(Color::Black, 2.0).judge(47, 34), (2, 12));
    }

    #[test]
    fn progressive_widening_opens_more_children_as_visits_grow() {
        assert_eq!(widened(0.0, 1000), usize::MAX);
        assert_eq!(widened(10.0, 0), 3);
        assert_eq!(widened(10.0, 4), 4);
        assert_eq!(widened(10.0, 100), 10);
        assert_eq!(widened(10.0, 5000), 21);
        let child = |mv, prior_visits, prior_wins| NewChild {
            mv,
            prior_visits,
            prior_wins,
            policy: 0,
            ..Default::default()
        };
        let mut children = vec![child(1, 30, 20), child(2, 30, 50), child(3, 10, 15)];
        let mut wide = Params::new(9, PlayoutKind::Heavy);
        order_for_widening(&mut children, &wide);
        assert_eq!(children.iter().map(|c| c.mv).collect::<Vec<_>>(), [1, 2, 3]);
        wide.widening = 10.0;
        order_for_widening(&mut children, &wide);
        assert_eq!(children.iter().map(|c| c.mv).collect::<Vec<_>>(), [2, 3, 1]);
    }

    #[test]
    fn a_symmetric_root_keeps_one_move_of_each_symmetric_set() {
        use crate::rules::Rules;
        let game = Game::new(9, Rules::default()).unwrap();
        let root = Root {
            board: game.board().clone(),
            color: Color::Black,
            passes: 0,
            recent: Recent::default(),
        };
        let root_children = |tuning: &str| {
            let params = tuned(tuning);
            let tree = Tree::new(1024);
            prepare_root(&tree, &root, &game, &params);
            let unpruned = tree
                .children_of(tree.root())
                .filter(|(_, c)| !c.is_pruned())
                .count();
            // A kept tree searched again: the same moves stay open.
            prepare_root(&tree, &root, &game, &params);
            let again = tree
                .children_of(tree.root())
                .filter(|(_, c)| !c.is_pruned())
                .count();
            assert_eq!(unpruned, again);
            unpruned
        };
        assert_eq!(root_children(""), 81 + 1);
        assert_eq!(
            root_children("symmetry=1"),
            15 + 1,
            "an eighth of the board and pass"
        );
    }
}
