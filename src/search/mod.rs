//! Monte Carlo search: playouts, the tree, time control, dead-stone
//! judgement. Threads live here and above; nothing below this module does
//! I/O or spawns threads.

pub mod bench;
pub mod playout;
pub mod rng;
pub mod status;

use crate::board::{Color, Move};
use crate::game::Game;
use playout::random_light_move;
use rand::SeedableRng;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

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
        }
    }
}

/// What one `genmove` may spend; the GTP layer fills it from the config and the clock.
#[derive(Clone, Copy, Debug, Default)]
pub struct Limits {
    pub playouts: Option<u64>,
    pub time: Option<Duration>,
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

/// The searcher keeps its tree between moves (tree reuse) and its settings.
pub struct Searcher {
    pub config: SearchConfig,
    rng: rand::rngs::SmallRng,
}

impl Searcher {
    pub fn new(config: SearchConfig) -> Searcher {
        let rng = rand::rngs::SmallRng::seed_from_u64(config.seed);
        Searcher { config, rng }
    }

    /// Chooses a move for `color`. Returns early when `stop` becomes true,
    /// with the best move found so far.
    ///
    /// Placeholder until the tree search lands: a random legal move that
    /// does not fill an own eye, passing when none is left.
    pub fn genmove(
        &mut self,
        game: &Game,
        color: Color,
        _limits: &Limits,
        _stop: &AtomicBool,
    ) -> SearchOutcome {
        let mut board = game.board().clone();
        for _ in 0..board.size() * board.size() {
            match random_light_move(&board, color, &mut self.rng) {
                Some(p) if game.is_legal(color, Move::Place(p)) => {
                    return SearchOutcome {
                        decision: Decision::Play(Move::Place(p)),
                        snapshot: Snapshot::default(),
                    };
                }
                // Legal for the playout but not under superko: try elsewhere.
                Some(p) => board.put_setup_stone(color.opponent(), p),
                None => break,
            }
        }
        SearchOutcome {
            decision: Decision::Play(Move::Pass),
            snapshot: Snapshot::default(),
        }
    }

    /// Searches until `stop`, calling `report` about every `interval`
    /// (live analysis for `lz-analyze`, `kata-analyze`, ...).
    pub fn analyze(
        &mut self,
        _game: &Game,
        _color: Color,
        _interval: Duration,
        _stop: &AtomicBool,
        _report: &mut dyn FnMut(&Snapshot),
    ) {
    }

    /// Forgets the kept tree (new game, rules change).
    pub fn clear(&mut self) {}
}
