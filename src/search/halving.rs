//! Sequential halving at the root (Karnin, Koren & Somekh 2013; the
//! hybrid search of Pepels, Cazenave, Winands & Lanctot 2014). A search
//! with a fixed budget is judged only by the one move it plays (its
//! simple regret), while selection below the root minimises the regret
//! of every playout. So, after a warm-up of ordinary search, the root's
//! best few children by value get the rest of the budget in equal
//! shares, phase by phase, and each phase drops the worse half of them;
//! the last one standing is the move. Below the root nothing changes.
//!
//! Off by default (`Params::root_halving`).

use super::params::Params;
use super::tree::{NodeId, Tree};
use super::uct::child_value;
use std::sync::atomic::{AtomicU32, AtomicU64, AtomicUsize, Ordering};

/// The schedule of one search and the root children still in it. Shared
/// by the workers without a lock: a worker that reads the survivors while
/// another replaces them gets a root child of the old set or the new one,
/// either of which is a sound move to search.
pub struct RootHalving {
    /// Playouts of ordinary search before the candidates are chosen.
    warmup: u64,
    /// Playouts of each halving phase.
    phase_len: u64,
    /// Halving phases: enough to bring `width` candidates down to one.
    phases: u32,
    width: usize,
    /// Judge the candidates by their own playouts only, not by the
    /// blend with AMAF and priors.
    by_real: bool,
    ticks: AtomicU64,
    /// 0 during the warm-up; phase `k` has `width / 2^(k-1)` survivors.
    phase: AtomicU32,
    survivors: Vec<AtomicU32>,
    count: AtomicUsize,
}

impl RootHalving {
    /// The schedule for a search of `budget` playouts, or none when the
    /// halving is off or the budget unknown (a search on the clock).
    pub fn new(budget: u64, params: &Params) -> Option<RootHalving> {
        let width = params.root_halving as usize;
        if width < 2 || budget == u64::MAX {
            return None;
        }
        let warmup = (budget as f64 * params.halving_warmup.clamp(0.0, 1.0)) as u64;
        let phases = usize::BITS - (width - 1).leading_zeros();
        let phase_len = (budget - warmup) / u64::from(phases);
        if phase_len < width as u64 {
            return None;
        }
        Some(RootHalving {
            warmup,
            phase_len,
            phases,
            width,
            by_real: params.halving_by_real,
            ticks: AtomicU64::new(0),
            phase: AtomicU32::new(0),
            survivors: (0..width).map(|_| AtomicU32::new(0)).collect(),
            count: AtomicUsize::new(0),
        })
    }

    /// The root child the next playout must descend to, or none during
    /// the warm-up (ordinary selection then).
    pub fn pick(&self, tree: &Tree, params: &Params) -> Option<NodeId> {
        let tick = self.ticks.fetch_add(1, Ordering::Relaxed);
        let since = tick.checked_sub(self.warmup)?;
        let due = (1 + since / self.phase_len).min(u64::from(self.phases)) as u32;
        let mut phase = self.phase.load(Ordering::Acquire);
        while phase < due {
            // The worker that moves the phase on chooses the survivors.
            match self
                .phase
                .compare_exchange(phase, phase + 1, Ordering::AcqRel, Ordering::Acquire)
            {
                Ok(_) => {
                    self.narrow(tree, params, phase + 1);
                    phase += 1;
                }
                Err(now) => phase = now,
            }
        }
        let n = self.count.load(Ordering::Acquire);
        (n > 0).then(|| self.survivors[(tick % n as u64) as usize].load(Ordering::Relaxed))
    }

    /// The best survivor so far, once the halving has begun: the search's
    /// move whatever the visit counts (the warm-up and a kept tree can
    /// leave a dropped child with more).
    pub fn choice(&self, tree: &Tree, params: &Params) -> Option<NodeId> {
        self.best_first(tree, params, self.survivors())
            .first()
            .copied()
    }

    /// The root children still in the halving (none during the warm-up).
    fn survivors(&self) -> impl Iterator<Item = NodeId> + '_ {
        let n = self.count.load(Ordering::Acquire);
        self.survivors[..n]
            .iter()
            .map(|s| s.load(Ordering::Relaxed))
    }

    /// Phase 1 takes the `width` best root children; each later phase
    /// keeps the better half of the survivors.
    fn narrow(&self, tree: &Tree, params: &Params, phase: u32) {
        let ranked = if phase == 1 {
            let children = tree
                .children_of(tree.root())
                .filter(|(_, c)| !c.is_pruned())
                .map(|(id, _)| id);
            self.best_first(tree, params, children)
        } else {
            self.best_first(tree, params, self.survivors())
        };
        let keep = self.width.div_ceil(1 << (phase - 1)).min(ranked.len());
        for (slot, &id) in self.survivors.iter().zip(&ranked[..keep]) {
            slot.store(id, Ordering::Relaxed);
        }
        self.count.store(keep, Ordering::Release);
    }

    fn best_first(
        &self,
        tree: &Tree,
        params: &Params,
        ids: impl Iterator<Item = NodeId>,
    ) -> Vec<NodeId> {
        let mut valued: Vec<(NodeId, f64)> =
            ids.map(|id| (id, self.value(tree, id, params))).collect();
        valued.sort_by(|a, b| b.1.total_cmp(&a.1));
        valued.into_iter().map(|(id, _)| id).collect()
    }

    fn value(&self, tree: &Tree, id: NodeId, params: &Params) -> f64 {
        if !self.by_real {
            return child_value(tree, id, params).0;
        }
        let (visits, wins) = tree.node(id).results();
        if visits == 0 {
            child_value(tree, id, params).0 - 1.0
        } else {
            f64::from(wins) / (2.0 * f64::from(visits))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::bench::PlayoutKind;
    use crate::search::params::Tuning;
    use crate::search::tree::NewChild;

    /// Ten root children; child `k` has prior win rate `k / 10`, and its
    /// playouts win at rate `true_rate[k]`.
    fn ten_children() -> Tree {
        let tree = Tree::new(1024);
        assert!(tree.node(tree.root()).try_begin_expansion());
        let children: Vec<NewChild> = (0..10)
            .map(|k| NewChild {
                mv: 20 + k,
                prior_visits: 10,
                prior_wins: 2 * k,
                policy: 0,
                ..Default::default()
            })
            .collect();
        assert!(tree.expand(tree.root(), &children));
        tree
    }

    #[test]
    fn the_best_candidates_share_the_budget_and_the_worse_half_drops_each_phase() {
        let params = Params::tuned(
            9,
            PlayoutKind::Heavy,
            &Tuning::parse("root_halving=8,halving_warmup=0.2,halving_by_real=1").unwrap(),
        );
        let tree = ten_children();
        let halving = RootHalving::new(1000, &params).unwrap();
        // Playouts win by the child's move: 27 (prior 0.7) is the best,
        // 29 (prior 0.9) the worst of the eight the priors pick.
        let rate = |mv: u16| match mv {
            27 => 0.8,
            29 => 0.1,
            mv => 0.3 + f64::from(mv - 20) * 0.02,
        };
        let mut picks = std::collections::HashMap::<u16, Vec<u32>>::new();
        for tick in 0..1000u32 {
            let Some(id) = halving.pick(&tree, &params) else {
                assert!(tick < 200, "no pick at {tick}");
                continue;
            };
            let node = tree.node(id);
            let counts = picks.entry(node.mv()).or_default();
            counts.push(tick);
            let won = (counts.len() as f64 * rate(node.mv())).floor()
                > ((counts.len() - 1) as f64 * rate(node.mv())).floor();
            node.add_results(1, if won { 2 } else { 0 });
        }
        // The two weakest priors (20, 21) never came into it.
        assert!(!picks.contains_key(&20) && !picks.contains_key(&21));
        // Phases of 266 playouts: 8 candidates, then 4, then 2.
        let in_phase = |mv: u16, phase: u32| {
            let (from, to) = (200 + 266 * (phase - 1), 200 + 266 * phase);
            let counts = picks.get(&mv).map_or(&[][..], |c| &c[..]);
            counts.iter().filter(|&&t| t >= from && t < to).count()
        };
        for mv in 22..30 {
            assert!((33..=34).contains(&in_phase(mv, 1)), "{mv}");
        }
        let second: Vec<u16> = (22..30).filter(|&mv| in_phase(mv, 2) > 0).collect();
        assert_eq!(second.len(), 4);
        assert!(!second.contains(&29), "the worst playouts drop first");
        assert!(second
            .iter()
            .all(|&mv| (66..=67).contains(&in_phase(mv, 2))));
        let choice = halving.choice(&tree, &params).unwrap();
        assert_eq!(tree.node(choice).mv(), 27);
    }

    #[test]
    fn no_halving_when_off_or_on_the_clock() {
        let off = Params::tuned(9, PlayoutKind::Heavy, &Tuning::default());
        assert!(RootHalving::new(5000, &off).is_none());
        let on = Params::tuned(
            9,
            PlayoutKind::Heavy,
            &Tuning::parse("root_halving=8").unwrap(),
        );
        assert!(RootHalving::new(u64::MAX, &on).is_none());
        assert!(RootHalving::new(5000, &on).is_some());
    }
}
