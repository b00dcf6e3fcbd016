//! Monte Carlo search: playouts, the tree, time control, dead-stone
//! judgement. Threads live here and above (the workers in one rayon pool,
//! `pool`); nothing below this module does I/O or spawns threads.

pub mod adaptive;
pub mod balanced;
pub mod bench;
pub mod book;
pub mod criticality;
pub mod final_count;
pub mod gammas;
pub mod halving;
pub mod mast;
pub mod params;
pub mod patterns;
pub mod playout;
pub mod policy;
pub mod pool;
pub mod rave_pool;
pub mod reading;
pub mod replies;
pub mod rng;
pub mod shapes;
pub mod softmax;
pub mod spatial;
pub mod status;
pub mod symmetry;
pub mod transpose;
pub mod tree;
pub mod uct;

use crate::board::{Color, Move, Point};
use crate::game::Game;
use crate::rules::ScoringRule;
use crate::score::{score, GameFacts};
pub use params::Tuning;
use params::{Bound, Params};
use policy::Recent;
use status::StatusConfig;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};
use tree::{NodeId, Spares, Tree, PASS};
use uct::{Root, Scorer, Shared};

pub use bench::PlayoutKind;

/// How the engine searches; set from the command line, some fields also by GTP.
#[derive(Clone, Debug)]
pub struct SearchConfig {
    pub threads: usize,
    /// Playouts per move when no clock is running (`--playouts`).
    pub playouts: Option<u64>,
    /// Thinking time per move when no clock is running (`--time`).
    pub time_per_move: Option<Duration>,
    pub playout: PlayoutKind,
    /// Resign when the win rate stays below this; 0 disables resigning.
    pub resign_threshold: f64,
    pub seed: u64,
    /// Upper bound on tree nodes, so a long think never exhausts memory.
    pub max_nodes: usize,
    pub ponder: bool,
    /// Tree-policy constants set by hand (`--tune`).
    pub tuning: Tuning,
}

impl Default for SearchConfig {
    fn default() -> SearchConfig {
        SearchConfig {
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            playouts: None,
            time_per_move: None,
            playout: PlayoutKind::Heavy,
            resign_threshold: 0.1,
            seed: 0x15_41,
            max_nodes: 4_000_000,
            ponder: false,
            tuning: Tuning::default(),
        }
    }
}

/// What one `genmove` may spend; the GTP layer fills it from the config and the clock.
#[derive(Clone, Copy, Debug, Default)]
pub struct Limits {
    pub playouts: Option<u64>,
    pub time: Option<Duration>,
    /// How long the move may take in all when its search has not settled
    /// by `time`: the most visited move is not the one whose playouts won
    /// most, and more time may change the choice. A clock with time to
    /// spare allows it; `None` stops at `time`.
    pub unsettled_time: Option<Duration>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    Play(Move),
    Resign,
}

/// One candidate move as the analysis commands report it.
#[derive(Clone, Debug)]
pub struct Candidate {
    pub mv: Move,
    pub visits: u64,
    /// Win rate for the side to move, 0..1.
    pub winrate: f64,
    /// Prior probability 0..1.
    pub prior: f64,
    pub lcb: f64,
    /// Expected score lead for the side to move.
    pub score_lead: f64,
    pub pv: Vec<Move>,
}

/// The state of a search at one moment (analysis intervals and the final answer).
#[derive(Clone, Debug, Default)]
pub struct Snapshot {
    pub candidates: Vec<Candidate>,
    /// Per point, row by row from the top left, -1 (White) .. 1 (Black).
    pub ownership: Vec<f64>,
    pub playouts: u64,
}

#[derive(Clone, Debug)]
pub struct SearchOutcome {
    pub decision: Decision,
    pub snapshot: Snapshot,
}

/// Playouts per move when neither the limits nor the config say.
const DEFAULT_PLAYOUTS: u64 = 10_000;

/// A genmove stopped by the next line of input (a client that does not
/// wait, GoGui's interrupt, the end of a piped script) still searches this
/// many playouts, or this long, rather than answer with no search at all.
const STOP_GRACE_PLAYOUTS: u64 = 1000;
const STOP_GRACE_TIME: Duration = Duration::from_millis(250);

/// Points by which `Params::dyn_komi` changes what a side asks for: on a
/// full board of odd area the margin moves in steps of two.
const DYN_KOMI_STEP: f64 = 2.0;

/// A win rate is trusted for resigning only after this many root visits.
const MIN_VISITS_TO_RESIGN: u64 = 300;

/// Ownership beyond which a point counts as settled.
const SETTLED: f64 = 0.8;

/// The kept tree and the position its root stands for.
struct Kept {
    tree: Tree,
    key: u64,
    plies: usize,
    color: Color,
}

/// The searcher keeps its tree between moves (tree reuse) and its settings.
pub struct Searcher {
    pub config: SearchConfig,
    kept: Option<Kept>,
    /// Chunks of the tree before the kept one, for the next tree.
    spares: Spares,
    /// Own moves in a row whose win rate fell below the resign threshold.
    hopeless_moves: u32,
    /// The points beyond komi each colour asks for under
    /// `Params::dyn_komi`, by colour index.
    asked: [f64; 2],
    /// How dead stones are judged when ishi considers ending the game by
    /// a pass: the same judgement `final_score` gives, so that ishi passes
    /// only when its own count of the position says it does not lose.
    referee: StatusConfig,
}

/// A key for "this position with `color` to move" (GTP may ask either colour).
fn root_key(game: &Game, color: Color) -> u64 {
    game.position_key() ^ crate::board::zobrist::TO_MOVE[color.index()].rotate_left(23)
}

/// Builds the 3×3 shape tables now rather than inside the first timed
/// search (the learned one is a megabyte).
pub fn warm_up() {
    patterns::warm_up();
    shapes::table();
}

impl Searcher {
    pub fn new(config: SearchConfig) -> Searcher {
        warm_up();
        let referee = StatusConfig {
            threads: config.threads,
            seed: config.seed,
            ..StatusConfig::default()
        };
        Searcher {
            config,
            kept: None,
            spares: Spares::default(),
            hopeless_moves: 0,
            asked: [0.0; 2],
            referee,
        }
    }

    /// Judges dead stones before a pass exactly as `final_score` does with
    /// `referee` (the engine's `--score-playouts`, threads and seed).
    pub fn with_referee(mut self, referee: StatusConfig) -> Searcher {
        self.referee = referee;
        self
    }

    /// Chooses a move for `color`. Returns early when `stop` becomes true,
    /// with the best move found so far.
    pub fn genmove(
        &mut self,
        game: &Game,
        color: Color,
        limits: &Limits,
        stop: &AtomicBool,
    ) -> SearchOutcome {
        self.genmove_reporting(game, color, limits, stop, None, &mut |_| {})
    }

    /// [`Searcher::genmove`], calling `report` with the state of the search
    /// about every `interval` while it runs (`kata-genmove_analyze` and the
    /// other streamed genmoves): the same search, stopped by the same
    /// limits, so that a streamed genmove plays as `genmove` would.
    pub fn genmove_reporting(
        &mut self,
        game: &Game,
        color: Color,
        limits: &Limits,
        stop: &AtomicBool,
        interval: Option<Duration>,
        report: &mut dyn FnMut(&Snapshot),
    ) -> SearchOutcome {
        let budget = limits.playouts.or(self.config.playouts).unwrap_or(
            if limits.time.or(self.config.time_per_move).is_some() {
                u64::MAX
            } else {
                DEFAULT_PLAYOUTS
            },
        );
        if let Some(answer) = self.book_move(game, color) {
            return answer;
        }
        let time = limits.time.or(self.config.time_per_move);
        let start = Instant::now();
        // Leave a little for spawning, joining and answering.
        let ending =
            |t: Duration| start + t.saturating_sub((t / 20).min(Duration::from_millis(20)));
        let deadline = time.map(ending);
        let unsettled_deadline = limits.unsettled_time.filter(|_| time.is_some()).map(ending);
        let bound = if time.is_some() {
            Bound::Time
        } else {
            Bound::Playouts
        };
        let (tree, root, params, scorer) = self.prepare(game, color, bound);
        let shared = Shared::new(&tree, &root, &params, scorer, stop, budget.max(1), deadline)
            .with_unsettled_deadline(unsettled_deadline)
            .with_grace(STOP_GRACE_PLAYOUTS, STOP_GRACE_TIME)
            .with_final_counts(game, &self.referee);
        let seed = self.seed_for(game, color);
        match interval {
            None => uct::search(&shared, self.config.threads, seed),
            Some(every) => search_reporting(
                &tree,
                &root,
                &shared,
                self.config.threads,
                seed,
                every,
                report,
            ),
        }
        let playouts = shared.done.load(Ordering::Relaxed);
        let snapshot = snapshot(&tree, &root, &shared, playouts);
        if let Some(counts) = shared.final_counts.as_ref().filter(|c| c.judged() > 0) {
            log::debug!("{} positions ended by two passes counted", counts.judged());
        }
        let decision = self.decide(game, &tree, &root, &params, &snapshot);
        if params.dyn_komi > 0.0 {
            let asked_now = self.dynamic_komi(game, color, &params);
            self.adapt_komi(color, &params, &snapshot, asked_now);
        }
        log::info!(
            "{} playouts in {:.2}s, {} nodes, best {:?}",
            playouts,
            start.elapsed().as_secs_f64(),
            tree.len(),
            snapshot
                .candidates
                .first()
                .map(|c| (c.mv, c.visits, c.winrate))
        );
        self.kept = Some(Kept {
            tree,
            key: root_key(game, color),
            plies: game.plies().len(),
            color,
        });
        SearchOutcome { decision, snapshot }
    }

    /// Searches until `stop`, or until `budget` playouts when given,
    /// calling `report` about every `interval` (live analysis for
    /// `lz-analyze`, `kata-analyze`, ...). Returns the state at the end.
    pub fn analyze(
        &mut self,
        game: &Game,
        color: Color,
        interval: Duration,
        budget: Option<u64>,
        stop: &AtomicBool,
        report: &mut dyn FnMut(&Snapshot),
    ) -> Snapshot {
        self.search_until_stopped(game, color, interval, budget, stop, report)
    }

    /// The search behind [`Searcher::analyze`] and [`Searcher::ponder`]:
    /// returns the state when stopped and keeps the tree.
    fn search_until_stopped(
        &mut self,
        game: &Game,
        color: Color,
        interval: Duration,
        budget: Option<u64>,
        stop: &AtomicBool,
        report: &mut dyn FnMut(&Snapshot),
    ) -> Snapshot {
        // Analysis and pondering run until told to stop: time bounds them.
        let (tree, root, params, scorer) = self.prepare(game, color, Bound::Time);
        // The workers count the budget themselves: a watcher checking it
        // between reports would let fast playouts run far past it.
        let budget = budget.unwrap_or(u64::MAX).max(1);
        let shared = Shared::new(&tree, &root, &params, scorer, stop, budget, None)
            .with_final_counts(game, &self.referee);
        let seed = self.seed_for(game, color);
        search_reporting(
            &tree,
            &root,
            &shared,
            self.config.threads,
            seed,
            interval,
            report,
        );
        let last = snapshot(&tree, &root, &shared, shared.done.load(Ordering::Relaxed));
        self.kept = Some(Kept {
            tree,
            key: root_key(game, color),
            plies: game.plies().len(),
            color,
        });
        last
    }

    /// Thinks on the opponent's time: searches the position with `color`
    /// (the opponent) to move until `stop`, keeping the tree so that the
    /// next `genmove` starts from the subtree of the move actually played.
    /// The controller raises `stop` as soon as its next command arrives.
    /// Returns what the search saw when stopped.
    pub fn ponder(&mut self, game: &Game, color: Color, stop: &AtomicBool) -> Snapshot {
        self.search_until_stopped(
            game,
            color,
            Duration::from_secs(3600),
            None,
            stop,
            &mut |_| {},
        )
    }

    /// Forgets the kept tree (new game, rules change).
    pub fn clear(&mut self) {
        self.kept = None;
        self.hopeless_moves = 0;
        self.asked = [0.0; 2];
    }

    /// With one thread, the same seed and position always give the same search.
    fn seed_for(&self, game: &Game, color: Color) -> u64 {
        self.config.seed ^ root_key(game, color)
    }

    /// The opening book's move, when the book is on and holds the position.
    fn book_move(&mut self, game: &Game, color: Color) -> Option<SearchOutcome> {
        let params = Params::tuned(game.size(), self.config.playout, &self.config.tuning);
        if !params.book || color != game.to_move() {
            return None;
        }
        let found = book::nine_by_nine(params.book_records).lookup(game)?;
        log::info!("book move {:?} (win rate {:.3})", found.mv, found.winrate);
        // The kept tree belongs to a search the game has left behind.
        self.kept = None;
        let candidate = Candidate {
            mv: found.mv,
            visits: 0,
            winrate: found.winrate,
            prior: 1.0,
            lcb: found.winrate,
            score_lead: 0.0,
            pv: vec![found.mv],
        };
        Some(SearchOutcome {
            decision: Decision::Play(found.mv),
            snapshot: Snapshot {
                candidates: vec![candidate],
                ownership: Vec::new(),
                playouts: 0,
            },
        })
    }

    /// The tree for this search: the kept subtree when the game went on
    /// from the kept root, else a fresh one; the root expanded with the
    /// moves the rules allow now; the tree constants for this board and
    /// this `bound`; and the scorer of playout results.
    fn prepare(&mut self, game: &Game, color: Color, bound: Bound) -> (Tree, Root, Params, Scorer) {
        let max_nodes = self.config.max_nodes;
        let params = Params::tuned(game.size(), self.config.playout, &self.config.tuning)
            .at(game.board())
            .bounded_by(bound);
        let spares = std::mem::take(&mut self.spares);
        let tree = match self.kept.take() {
            Some(kept) => {
                let tree = match params.reuse.then(|| follow(&kept, game, color)).flatten() {
                    Some(id) => {
                        let tree = kept.tree.extract(id, max_nodes, spares);
                        if params.reuse_weight > 0.0 {
                            tree.weigh_down(params.reuse_weight);
                        }
                        tree
                    }
                    None => Tree::reusing(max_nodes, spares),
                };
                self.spares = kept.tree.into_spares();
                tree
            }
            None => Tree::reusing(max_nodes, spares),
        };
        let recent = Recent::before(game, color);
        let passes = if game.plies().last().is_some_and(|ply| ply.color != color) {
            game.consecutive_passes().min(1)
        } else {
            0
        };
        let root = Root {
            board: game.board().clone(),
            color,
            passes,
            recent,
        };
        uct::prepare_root(&tree, &root, game, &params);
        // One scorer for genmove, analysis and pondering alike: they share
        // the kept tree, so its statistics must mean the same thing.
        let scorer = Scorer::of(game)
            .with_jigo(color, params.jigo)
            .with_margin(
                color,
                params.ask_margin + self.dynamic_komi(game, color, &params),
            )
            .with_extra_komi(handicap_komi(game, &params));
        (tree, root, params, scorer)
    }

    /// The points beyond komi `color` asks for under `Params::dyn_komi`,
    /// while enough of the board is empty.
    fn dynamic_komi(&self, game: &Game, color: Color, params: &Params) -> f64 {
        if params.dyn_komi <= 0.0 || params::empty_share(game.board()) < params.dyn_komi_empty {
            return 0.0;
        }
        self.asked[color.index()]
    }

    /// After a genmove by `color`: sure of a win with what it asked, it
    /// asks `DYN_KOMI_STEP` points more next time, up to `dyn_komi` of the
    /// lead it expects; no longer sure, it asks a step less.
    fn adapt_komi(&mut self, color: Color, params: &Params, snap: &Snapshot, asked_now: f64) {
        let Some(best) = snap.candidates.first() else {
            return;
        };
        let ceiling = (params.dyn_komi * best.score_lead).floor().max(0.0);
        let next = if best.winrate > params.dyn_komi_high {
            (asked_now + DYN_KOMI_STEP).min(ceiling)
        } else if best.winrate < params.dyn_komi_low {
            asked_now - DYN_KOMI_STEP
        } else {
            asked_now
        };
        self.asked[color.index()] = next.max(0.0);
        log::info!(
            "dynamic komi: {color:?} asked {asked_now}, next {} (win rate {:.2}, lead {:.1})",
            self.asked[color.index()],
            best.winrate,
            best.score_lead
        );
    }

    /// The move to play from the finished search, with game sense on top
    /// of "most visited": resign when hopeless, pass only when passing does
    /// not lose and no move still gains, and under territory rules do not
    /// fill own territory at the end.
    fn decide(
        &mut self,
        game: &Game,
        tree: &Tree,
        root: &Root,
        params: &Params,
        snap: &Snapshot,
    ) -> Decision {
        let Some(most_visited) = snap.candidates.first() else {
            // Stopped before any playout: trust the priors.
            return Decision::Play(best_by_value(tree, params).unwrap_or(Move::Pass));
        };
        let best = if params.root_halving == 0 {
            tie_broken_by_score(most_visited, &snap.candidates, params.score_tiebreak)
        } else {
            most_visited
        };
        let board = &root.board;
        let color = root.color;
        let size = game.size();

        let enough = snap.candidates.iter().map(|c| c.visits).sum::<u64>() >= MIN_VISITS_TO_RESIGN;
        let late_enough = game.plies().len() >= size * size / 2;
        // A search that counts a jigo as a loss (`Params::jigo`) sees a
        // drawn position as hopeless, and between moves that all lose the
        // most visited need not be the one that draws: resign only when
        // every move the search looked at much ends behind on the count.
        let behind = snap
            .candidates
            .iter()
            .filter(|c| c.visits * 20 >= best.visits)
            .all(|c| c.score_lead < -0.5);
        if self.config.resign_threshold > 0.0
            && enough
            && late_enough
            && behind
            && best.winrate < self.config.resign_threshold
        {
            self.hopeless_moves += 1;
            if self.hopeless_moves >= 3 {
                return Decision::Resign;
            }
        } else {
            self.hopeless_moves = 0;
        }

        let own = |p: Point| -> f64 {
            let o = ownership_at(snap, board, p);
            if color == Color::Black {
                o
            } else {
                -o
            }
        };
        let literal = !game.rules().remove_dead;
        // A move still gains when its point is unsettled, or (when dead
        // stones are not removed) when it takes a liberty of a dead chain.
        // A point is settled when it and its surroundings end up one side's
        // in nearly every playout, with no stone of the other side next to
        // it: playing there changes nothing (or costs a point).
        let settled = |p: Point| -> bool {
            let o = own(p);
            if o.abs() < SETTLED {
                return false;
            }
            let side = if o > 0.0 { color } else { color.opponent() };
            board.neighbours(p).into_iter().all(|q| {
                let q = Point(q);
                match board.color_at(q) {
                    Some(c) => c == side,
                    None => !board.is_empty_at(q) || own(q) * o >= SETTLED * SETTLED,
                }
            })
        };
        // Saving an own chain in atari that the playouts call alive gains,
        // settled or not: they mostly connect it in time, but a referee
        // counts it dead when the opponent could take it. (One they call
        // dead is left alone: under territory rules every stone added to it
        // would be a prisoner more.)
        let saves_a_chain = |p: Point| -> bool {
            board.neighbours(p).into_iter().any(|q| {
                let q = Point(q);
                board.color_at(q) == Some(color)
                    && board.atari_liberty(q) == Some(p)
                    && own(q) > 0.0
            })
        };
        // A move still gains when its point is not settled (or it saves a
        // chain), or (when dead stones are not removed) when it takes a
        // liberty of a dead chain. Not a self-atari on an unsettled point,
        // though, unless passing loses anyway: that is a shared liberty of
        // a seki, or a sacrifice only the search may choose, and the moves
        // found here stand in for the search's choice on the strength of
        // priors and AMAF alone.
        let gains_at_any_risk = |p: Point, self_atari_too: bool| -> bool {
            let self_atari = || board.move_shape(color, p, 2).is_self_atari();
            if !settled(p) || saves_a_chain(p) {
                return self_atari_too || !self_atari();
            }
            literal
                && board.neighbours(p).into_iter().any(|q| {
                    let q = Point(q);
                    board.color_at(q) == Some(color.opponent()) && own(q) > 0.5
                })
        };
        let gains = |p: Point| gains_at_any_risk(p, false);
        // Only near the end is "settled" trustworthy: in the middle game a
        // point is often settled only because the move there is good.
        let empties: Vec<Point> = board.points().filter(|&p| board.is_empty_at(p)).collect();
        let settled_share =
            empties.iter().filter(|&&p| settled(p)).count() as f64 / empties.len().max(1) as f64;
        // The root children that still gain with the best value (visited or
        // not: at the end every move may look equally won or lost): the
        // best that is no self-atari on an unsettled point, and the best
        // at any risk, found in one scan.
        let (best_gaining, best_gaining_at_any_risk) = {
            let mut safe: Option<(Move, f64)> = None;
            let mut risky = safe;
            for (id, child) in tree.children_of(tree.root()) {
                let Move::Place(p) = child.as_move() else {
                    continue;
                };
                if child.is_pruned() || !gains_at_any_risk(p, true) {
                    continue;
                }
                let (value, _) = uct::child_value(tree, id, params);
                let beats = |found: Option<(Move, f64)>| found.is_none_or(|(_, v)| value > v);
                if beats(risky) {
                    risky = Some((child.as_move(), value));
                }
                if beats(safe) && gains_at_any_risk(p, false) {
                    safe = Some((child.as_move(), value));
                }
            }
            (safe, risky)
        };
        // Good enough to prefer over a move that changes nothing: about as
        // good, or clearly winning anyway.
        let acceptable = (best.winrate - 0.05).min(0.75);
        let any_gain_left = empties.iter().any(|&p| {
            !board.is_eye_like(color, p) && gains(p) && game.is_legal(color, Move::Place(p))
        });
        let opponent_passed = root.passes >= 1;
        let territory = game.rules().scoring == ScoringRule::Territory;
        let endgame = opponent_passed || settled_share >= 0.85;
        // Scores the position with its dead stones; asked up to three times.
        let passing_verdict = std::cell::OnceCell::new();
        let pass_holds =
            || *passing_verdict.get_or_init(|| passing_does_not_lose(game, &self.referee, color));
        let best_placement = snap.candidates.iter().find(|c| c.mv != Move::Pass);

        match best.mv {
            Move::Pass => {
                if let Some((mv, value)) = best_gaining {
                    if value >= acceptable || (opponent_passed && !pass_holds()) {
                        return Decision::Play(mv);
                    }
                }
                if opponent_passed && !pass_holds() {
                    // Passing loses: any move that might still change the
                    // count, even one that needs the opponent to err.
                    if let Some((mv, _)) = best_gaining_at_any_risk {
                        return Decision::Play(mv);
                    }
                    if let Some(c) = best_placement {
                        return Decision::Play(c.mv);
                    }
                }
                Decision::Play(Move::Pass)
            }
            Move::Place(p) => {
                // Ownership is measured after good play, so a point looks
                // settled exactly when the move there matters: a move
                // filling our own settled territory at the end may be
                // overridden, one in the opponent's area only when the
                // count already wins (below).
                let fills_own = endgame && !gains(p) && own(p) > 0.0;
                // After the opponent's pass a self-atari only throws stones
                // away when passing wins the count as it stands. (The search
                // can settle on one when its priors keep it off the quiet
                // moves for a while: in a won position every move wins most
                // playouts.)
                let needless_sacrifice = opponent_passed
                    && board.move_shape(color, p, 2).is_self_atari()
                    && pass_holds();
                // A move into the opponent's settled area can matter even so
                // (a throw-in that spoils an eye leaves the point theirs
                // after good play). Not when the count as it stands wins,
                // though: after the opponent's pass, passing ends the game
                // won, and under territory rules the stone would only be a
                // prisoner more. In a won position every move wins most
                // playouts, and the search may settle on such a move by
                // chance (one seed in four on a 5x5 board).
                let needless_invasion = endgame
                    && !gains(p)
                    && own(p) < 0.0
                    && (opponent_passed || territory)
                    && pass_holds();
                if !fills_own && !needless_sacrifice && !needless_invasion {
                    return Decision::Play(best.mv);
                }
                if opponent_passed {
                    // A move that gains without a self-atari is worth more
                    // than filling our own area or passing; when passing wins
                    // anyway, a lower win rate for it is the playouts' noise
                    // (they invade our area after any move but a fill).
                    if let Some((mv, value)) = best_gaining {
                        if value >= acceptable || pass_holds() {
                            return Decision::Play(mv);
                        }
                    }
                } else if let Some(c) = snap.candidates.iter().find(|c| {
                    matches!(c.mv, Move::Place(q) if gains(q)) && c.winrate >= best.winrate - 0.02
                }) {
                    return Decision::Play(c.mv);
                }
                let nothing_left = !any_gain_left || needless_sacrifice;
                if nothing_left
                    && (territory || opponent_passed)
                    && (!opponent_passed || pass_holds())
                {
                    return Decision::Play(Move::Pass);
                }
                Decision::Play(best.mv)
            }
        }
    }
}

/// Whether the game, ended now by a pass, is won or drawn by `color`, as
/// ishi's own count (`final_score`) would score it. Not the search's
/// ownership: that tells what happens after more good play, and a seki the
/// search expects to break with a sacrifice stays a seki once both sides
/// pass. A draw counts: playing on from a drawn position when the search
/// finds nothing better only risks the draw (a seki group filling its own
/// liberties, say).
fn passing_does_not_lose(game: &Game, referee: &StatusConfig, color: Color) -> bool {
    let judgement = status::judge(game, referee);
    let mut facts = GameFacts::of(game);
    facts.passes[color.index()] += 1;
    if facts.first_passer_of_ending.is_none() {
        facts.first_passer_of_ending = Some(color);
    }
    let result = score(
        game.board(),
        game.rules(),
        &facts,
        &judgement.dead,
        &judgement.seki,
    );
    result.winner() != Some(color.opponent())
}

/// The snapshot's ownership at a point (Black positive), 0 when unknown.
fn ownership_at(snap: &Snapshot, board: &crate::board::Board, p: Point) -> f64 {
    let (x, y) = board.xy(p);
    let size = board.size();
    let row_from_top = size - 1 - y;
    snap.ownership
        .get(row_from_top * size + x)
        .copied()
        .unwrap_or(0.0)
}

/// The komi a game with handicap adds for the search under
/// `Params::handicap_komi`: so many points a stone at the start, less in
/// proportion to the plies played, none from `handicap_fade` times the
/// board's points on.
fn handicap_komi(game: &Game, params: &Params) -> f64 {
    let stones = game.handicap();
    if stones == 0 || params.handicap_komi <= 0.0 {
        return 0.0;
    }
    let size = game.size() as f64;
    let horizon = params.handicap_fade * size * size;
    let left = 1.0 - game.plies().len() as f64 / horizon.max(1.0);
    params.handicap_komi * f64::from(stones) * left.max(0.0)
}

/// Follows the moves played since the kept search to the node that stands
/// for the new position, if the game really continued from the kept root.
fn follow(kept: &Kept, game: &Game, color: Color) -> Option<NodeId> {
    let now = game.plies().len();
    let extra = now.checked_sub(kept.plies)?;
    if extra > 8 {
        return None;
    }
    let mut earlier = game.clone();
    for _ in 0..extra {
        earlier.undo();
    }
    if root_key(&earlier, kept.color) != kept.key {
        return None;
    }
    let tree = &kept.tree;
    let mut node = tree.root();
    let mut to_move = kept.color;
    for ply in &game.plies()[kept.plies..] {
        if ply.color != to_move {
            return None;
        }
        let code = match ply.mv {
            Move::Pass => PASS,
            Move::Place(p) => p.0 as u16,
        };
        node = tree.child_with_move(node, code)?;
        to_move = to_move.opponent();
    }
    (to_move == color).then_some(node)
}

/// Runs the search on `threads` workers until it ends, calling `report`
/// with a snapshot about every `interval` meanwhile. A search whose
/// `stop` is its caller's next command (analysis, pondering) ends as soon
/// as that comes; a genmove's `stop` keeps its grace, inside the search.
fn search_reporting(
    tree: &Tree,
    root: &Root,
    shared: &Shared,
    threads: usize,
    seed: u64,
    interval: Duration,
    report: &mut dyn FnMut(&Snapshot),
) {
    let interval = interval.max(Duration::from_millis(10));
    let searching = AtomicBool::new(true);
    std::thread::scope(|s| {
        let searching = &searching;
        s.spawn(move || {
            uct::search(shared, threads.max(1), seed);
            // Spent its budget, or decided: the reports end too.
            searching.store(false, Ordering::Release);
        });
        let mut next_report = Instant::now() + interval;
        while searching.load(Ordering::Acquire) {
            std::thread::sleep(Duration::from_millis(5).min(interval));
            if Instant::now() >= next_report && searching.load(Ordering::Acquire) {
                let playouts = shared.done.load(Ordering::Relaxed);
                report(&snapshot(tree, root, shared, playouts));
                next_report += interval;
            }
        }
    });
}

/// What the tree says now, for analysis output and the final answer.
fn snapshot(tree: &Tree, root: &Root, shared: &uct::Shared, playouts: u64) -> Snapshot {
    let board = &root.board;
    let size = board.size();
    let mut candidates = Vec::new();
    let children = || tree.children_of(tree.root());
    let prior_total: f64 = children()
        .filter(|(_, c)| !c.is_pruned())
        .map(|(_, c)| c.prior().1 as f64)
        .sum::<f64>()
        .max(1.0);
    for (id, child) in children() {
        let visits = child.visits() as u64;
        if child.is_pruned() || visits == 0 {
            continue;
        }
        let winrate = child.winrate();
        let spread = (winrate * (1.0 - winrate) / visits as f64).sqrt();
        let mut pv = vec![child.as_move()];
        let mut node = id;
        while pv.len() < 24 {
            match most_visited_child(tree, node) {
                Some(next) => {
                    pv.push(tree.node(next).as_move());
                    node = next;
                }
                None => break,
            }
        }
        candidates.push(Candidate {
            mv: child.as_move(),
            visits,
            winrate,
            prior: child.prior().1 as f64 / prior_total,
            lcb: (winrate - 1.96 * spread).max(0.0),
            score_lead: tree.score_lead(id),
            pv,
        });
    }
    // A halving search plays its last survivor: that goes first.
    let chosen = shared
        .halving
        .as_ref()
        .and_then(|h| h.choice(tree, shared.params))
        .map(|id| tree.node(id).as_move());
    candidates.sort_by(|a, b| {
        (Some(b.mv) == chosen)
            .cmp(&(Some(a.mv) == chosen))
            .then(b.visits.cmp(&a.visits))
            .then(b.winrate.total_cmp(&a.winrate))
    });
    // Workers add owners in batches: scale by what has been added so far.
    let scale = shared.ownership_samples.load(Ordering::Acquire).max(1) as f64;
    let ownership = &shared.ownership;
    let mut owned = Vec::with_capacity(size * size);
    for y in (0..size).rev() {
        for x in 0..size {
            let v = board
                .point(x, y)
                .ok()
                .and_then(|p| ownership.get(p.0))
                .map_or(0, |a| a.load(Ordering::Relaxed));
            owned.push((v as f64 / scale).clamp(-1.0, 1.0));
        }
    }
    Snapshot {
        candidates,
        ownership: owned,
        playouts,
    }
}

/// The root placement with the best value (priors and RAVE included).
fn best_by_value(tree: &Tree, params: &Params) -> Option<Move> {
    tree.children_of(tree.root())
        .filter(|(_, c)| !c.is_pruned() && c.mv() != PASS)
        .map(|(id, c)| (c.as_move(), uct::child_value(tree, id, params).0))
        .max_by(|a, b| a.1.total_cmp(&b.1))
        .map(|(mv, _)| mv)
}

/// The most visited move `first`, or among the `candidates` the search
/// could not tell apart from it (half its visits or more, a win rate at
/// most `window` below its), the one leading by the most points. A pass
/// is never chosen this way, nor overridden.
fn tie_broken_by_score<'a>(
    first: &'a Candidate,
    candidates: &'a [Candidate],
    window: f64,
) -> &'a Candidate {
    if window <= 0.0 || first.mv == Move::Pass {
        return first;
    }
    candidates
        .iter()
        .filter(|c| {
            c.mv != Move::Pass
                && 2 * c.visits >= first.visits
                && c.winrate >= first.winrate - window
        })
        .max_by(|a, b| a.score_lead.total_cmp(&b.score_lead))
        .unwrap_or(first)
}

fn most_visited_child(tree: &Tree, node: NodeId) -> Option<NodeId> {
    tree.children_of(node)
        .filter(|(_, c)| !c.is_pruned() && c.visits() > 0)
        .max_by_key(|(_, c)| c.visits())
        .map(|(id, _)| id)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::coord::parse_vertex;
    use crate::board::Board;

    fn candidate(v: &str, visits: u64, winrate: f64, score_lead: f64) -> Candidate {
        let mv = match parse_vertex(v, 9).ok().flatten() {
            Some(p) => Move::Place(p),
            None => Move::Pass,
        };
        Candidate {
            mv,
            visits,
            winrate,
            prior: 0.0,
            lcb: 0.0,
            score_lead,
            pv: vec![mv],
        }
    }

    fn chosen(candidates: &[Candidate], window: f64) -> Move {
        tie_broken_by_score(&candidates[0], candidates, window).mv
    }

    fn after_search(winrate: f64, score_lead: f64) -> Snapshot {
        Snapshot {
            candidates: vec![candidate("E5", 3000, winrate, score_lead)],
            ..Snapshot::default()
        }
    }

    fn searcher_with(knobs: &str) -> (Params, Searcher) {
        let tuning = Tuning::parse(knobs).unwrap();
        let params = Params::tuned(9, PlayoutKind::Heavy, &tuning);
        let searcher = Searcher::new(SearchConfig {
            threads: 1,
            tuning,
            ..SearchConfig::default()
        });
        (params, searcher)
    }

    #[test]
    fn dynamic_komi_asks_for_part_of_the_lead_while_sure_of_the_game() {
        let (params, mut searcher) = searcher_with("dyn_komi=0.5");
        let opening = Game::new(9, crate::rules::Rules::default()).unwrap();
        let asked = |s: &Searcher| s.dynamic_komi(&opening, Color::White, &params);
        let adapt = |s: &mut Searcher, winrate, lead| {
            let now = s.dynamic_komi(&opening, Color::White, &params);
            s.adapt_komi(Color::White, &params, &after_search(winrate, lead), now);
        };
        // Sure and 11 points ahead: two points more per move, up to half the lead.
        adapt(&mut searcher, 0.9, 11.0);
        assert_eq!(asked(&searcher), 2.0);
        adapt(&mut searcher, 0.9, 11.0);
        adapt(&mut searcher, 0.9, 11.0);
        assert_eq!(asked(&searcher), 5.0);
        // Between the two win rates it holds; less sure, it asks less.
        adapt(&mut searcher, 0.7, 11.0);
        assert_eq!(asked(&searcher), 5.0);
        adapt(&mut searcher, 0.6, 11.0);
        assert_eq!(asked(&searcher), 3.0);
        // A lead that shrank lowers the cap at once.
        adapt(&mut searcher, 0.9, 4.0);
        assert_eq!(asked(&searcher), 2.0);
        // The other colour asks nothing, and a new game starts from nothing.
        assert_eq!(searcher.dynamic_komi(&opening, Color::Black, &params), 0.0);
        searcher.clear();
        assert_eq!(asked(&searcher), 0.0);
    }

    #[test]
    fn handicap_komi_fades_from_the_stones_worth_to_nothing_over_the_horizon() {
        let (params, _) = searcher_with("handicap_komi=7");
        let mut game = Game::new(9, crate::rules::Rules::default()).unwrap();
        // An even game adds nothing, on or off.
        assert_eq!(handicap_komi(&game, &params), 0.0);
        game.fixed_handicap(2).unwrap();
        assert_eq!(handicap_komi(&game, &params), 14.0);
        let off = Params::tuned(9, PlayoutKind::Heavy, &Tuning::default());
        assert_eq!(handicap_komi(&game, &off), 0.0);
        // Half of the 40.5 plies of the horizon (half the board's points)
        // leave about half; past it, nothing.
        let mut color = Color::White;
        for ply in 0..41 {
            if ply == 20 {
                let left = handicap_komi(&game, &params);
                assert!((left - 14.0 * (1.0 - 20.0 / 40.5)).abs() < 1e-9, "{left}");
            }
            game.play(color, Move::Pass).unwrap();
            color = color.opponent();
        }
        assert_eq!(handicap_komi(&game, &params), 0.0);
    }

    #[test]
    fn a_search_giving_stones_counts_a_playout_won_within_the_handicap_komi() {
        let (_, mut searcher) = searcher_with("handicap_komi=7");
        let mut game = Game::new(9, crate::rules::Rules::default()).unwrap();
        game.fixed_handicap(2).unwrap();
        // Black (with two stones of compensation for White under Chinese
        // rules, and komi 7.5) ahead on the board by 20 points: a loss for
        // White by 10.5, but within the 14 points White is given.
        let (black, white) = (50, 30);
        for color in [Color::White, Color::Black] {
            let (_, _, _, scorer) = searcher.prepare(&game, color, Bound::Playouts);
            let (black_half_points, margin) = scorer.judge(black, white);
            assert_eq!(black_half_points, 0, "{color:?}");
            // The margin reported stays the true one: Black's 10.5.
            assert_eq!(margin, 2 * 10 + 1);
        }
        let even = Game::new(9, crate::rules::Rules::default()).unwrap();
        let (_, _, _, scorer) = searcher.prepare(&even, Color::White, Bound::Playouts);
        assert_eq!(scorer.judge(black, white).0, 2);
    }

    #[test]
    fn a_search_bounded_by_playouts_alone_expands_its_leaves_sooner_on_small_boards() {
        let nine = Game::new(9, crate::rules::Rules::default()).unwrap();
        let nineteen = Game::new(19, crate::rules::Rules::default()).unwrap();
        let expand_at = |knobs: &str, game: &Game, bound: Bound| {
            let (_, mut searcher) = searcher_with(knobs);
            searcher.prepare(game, Color::Black, bound).2.expand_at
        };
        assert_eq!(expand_at("", &nine, Bound::Playouts), 2);
        assert_eq!(expand_at("", &nine, Bound::Time), 4);
        assert_eq!(expand_at("", &nineteen, Bound::Playouts), 8);
        assert_eq!(expand_at("", &nineteen, Bound::Time), 8);
        // `expand_at` names the threshold of every search; the other knob
        // only that of a playout-bound one.
        assert_eq!(expand_at("expand_at=3", &nine, Bound::Playouts), 3);
        assert_eq!(expand_at("expand_at=3", &nine, Bound::Time), 3);
        assert_eq!(expand_at("expand_at_playouts=5", &nine, Bound::Playouts), 5);
        assert_eq!(expand_at("expand_at_playouts=5", &nine, Bound::Time), 4);
    }

    #[test]
    fn a_genmove_on_a_playout_count_searches_as_the_playout_bound_threshold_asks() {
        // One thread and one seed replay a search exactly, so the same
        // threshold gives the same visits and another one different ones.
        let game = Game::new(9, crate::rules::Rules::default()).unwrap();
        let visits = |knobs: &str| {
            let (_, mut searcher) = searcher_with(&format!("book=0,{knobs}"));
            let limits = Limits {
                playouts: Some(1500),
                ..Limits::default()
            };
            let outcome = searcher.genmove(&game, Color::Black, &limits, &AtomicBool::new(false));
            let mut seen: Vec<(Move, u64)> = outcome
                .snapshot
                .candidates
                .iter()
                .map(|c| (c.mv, c.visits))
                .collect();
            seen.sort_by_key(|&(mv, _)| format!("{mv:?}"));
            seen
        };
        let default = visits("");
        assert_eq!(default, visits("expand_at_playouts=2"));
        assert_ne!(default, visits("expand_at_playouts=4"));
    }

    #[test]
    fn dynamic_komi_asks_nothing_in_the_endgame_or_when_off() {
        let (params, mut searcher) = searcher_with("dyn_komi=0.5");
        searcher.asked = [0.0, 4.0];
        let board = Board::from_ascii(
            "XXXXXOOOO
             XXXXXOOOO
             XXXXXOOOO
             XXXXXOOOO
             XXXXXOOOO
             XXXXXOOOO
             .........
             .........
             .........",
        )
        .unwrap();
        // 27 of 81 points empty: below the 0.4 of the board it needs.
        let endgame = Game::from_position(board, Color::White, crate::rules::Rules::default());
        assert_eq!(searcher.dynamic_komi(&endgame, Color::White, &params), 0.0);
        let opening = Game::new(9, crate::rules::Rules::default()).unwrap();
        assert_eq!(searcher.dynamic_komi(&opening, Color::White, &params), 4.0);
        let off = Params::tuned(9, PlayoutKind::Heavy, &Tuning::default());
        assert_eq!(searcher.dynamic_komi(&opening, Color::White, &off), 0.0);
    }

    #[test]
    fn the_score_breaks_only_ties_the_search_could_not_break() {
        let e5 = candidate("E5", 2000, 0.56, 1.0);
        let d4 = candidate("D4", 1500, 0.55, 3.0);
        let c3 = candidate("C3", 900, 0.555, 6.0);
        let f5 = candidate("F5", 1800, 0.50, 9.0);
        let pass = candidate("pass", 1900, 0.56, 12.0);
        let list = [e5.clone(), d4.clone(), c3, f5, pass.clone()];
        // Off: the most visited.
        assert_eq!(chosen(&list, 0.0), e5.mv);
        // D4 is as good by win rate and leads by more; C3 has too few
        // visits, F5 too low a win rate, and a pass is never chosen so.
        assert_eq!(chosen(&list, 0.02), d4.mv);
        // A window too narrow for D4 keeps E5.
        assert_eq!(chosen(&list, 0.005), e5.mv);
        // A most visited pass stays.
        assert_eq!(chosen(&[pass.clone(), e5.clone(), d4], 0.02), pass.mv);
    }
}
