//! The constants of the tree search and their defaults for each board
//! size, with `--tune name=value` to set any of them by hand for a tuning
//! match. Each knob's doc comment says what it does and, where it is off,
//! the match that kept it off.

use super::bench::PlayoutKind;
use super::gammas::Source;
use super::playout::{PlayoutStyle, ShapeChoice, ATARI_RATE, SHAPE_RATE};
use super::policy::Priors;
use super::spatial::{MAX_DISTANCE, MIN_DISTANCE};
use crate::board::{Board, Color};

/// What ends a search, for the constants that depend on it: a playout
/// count alone, or time (a clock, a time per move, analysis, pondering).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Bound {
    Playouts,
    Time,
}

/// Tuning of the tree policy.
#[derive(Clone, Debug)]
pub struct Params {
    pub kind: PlayoutKind,
    /// A leaf is expanded once it has this many visits. On 9x9, in
    /// self-play against the default 4 (5,000 playouts, komi 7.5, book
    /// off), 2 won 725 of 1,337 games (54.2%) and 1 won 416 of 774
    /// (53.7%): both are short of the screen's 55%. Against GNU Go, 2 won
    /// 683 of 740 (92.3%; 5,000 playouts, komi 7, book off), then only 592
    /// of 653 (90.66%, 88.18-92.66%) in the confirmation run on fresh
    /// seeds, whose lower bound had to clear the shipped 89.67%. On the
    /// search of d54c47a it won 1,086 of 1,200 (90.5%), short of beating
    /// that search's 89.48% (z = 1.05), and 1,145 of 1,263 more (90.66%):
    /// together z = 1.44, short of the second look's 1.96. It searches at
    /// 0.89-0.94 of the default's rate, 0.944 with the cheaper priors of
    /// a279d19 (RESEARCH.md, Self-play as a screen). At equal CPU work (2
    /// at 5,000 playouts against 4 at 5,440) it won 484 of 1,000 self-play
    /// games (48.4%): no better at equal time (RESEARCH.md, Expanding
    /// sooner, at equal work). So this is the threshold of a search a
    /// clock or a time limit bounds; a search bounded only by its playout
    /// count uses [`Params::expand_at_playouts`].
    pub expand_at: u32,
    /// `expand_at` for a search whose only bound is its number of playouts
    /// (`--playouts` with no clock and no `--time`): there a
    /// playout's cost is not counted, and what expanding sooner wins at
    /// equal playouts is a gain. 2 on 9x9 and below, where it won those
    /// games (see `expand_at`), and where, paired with 4 on 400 fresh
    /// seeds against GNU Go (komi 7, 5,000 playouts, book off), it won 367
    /// to 366, then as the default 2,509 of 2,784 more (90.1%; RESEARCH.md,
    /// Expanding sooner when only playouts count);
    /// elsewhere the same as `expand_at`. On 13x13, two against eight won
    /// 257 of 487 self-play games at 5,000 playouts (52.8%, 48.3-57.2%),
    /// not shown better; 19x19 was not measured (RESEARCH.md, Expanding
    /// sooner when only playouts count).
    /// `--tune expand_at=N` sets both.
    pub expand_at_playouts: u32,
    /// `expand_at` for a leaf whose last move left a chain in atari, its
    /// own or one beside it (0, the default: `expand_at` everywhere): where
    /// the priors' captures and escapes know what a random playout move
    /// does not. Off: at 2, in self-play against the shipped search (9x9,
    /// komi 7.5, book off) it won 629 of 1,200 games at equal playouts and
    /// 593 of 1,200 at equal CPU work (5,000 playouts against 5,285), at
    /// 0.93-0.95 of the default's speed (RESEARCH.md, Expanding sooner
    /// where it looks tactical).
    pub expand_tactical: u32,
    /// RAVE weight falls to one half after about this many visits. 3,000:
    /// in self-play against it at 5,000 playouts (9x9, komi 7.5, book off)
    /// 1,500 won 273 of 526 games and 6,000 won 260 of 521 (RESEARCH.md,
    /// Self-play as a screen); with both sides expanding at two, 1,500
    /// won 612 of 1,161 (52.7%, 49.8-55.6%; RESEARCH.md, Expanding sooner
    /// when only playouts count).
    pub rave_equiv: f64,
    /// `rave_equiv` for the root's children alone; 0, the default, uses
    /// `rave_equiv` there too. With 3,000, a root move searched 3,000
    /// times still takes half its value from AMAF, which credits a move
    /// for being played at any time in a playout: a move that must be
    /// played now, or one that only works later, is misjudged exactly
    /// where the move to play is chosen. A smaller value lets the root's
    /// real results decide while AMAF still guides the search below it.
    /// Off: in self-play against the shipped search at 5,000 playouts
    /// (9x9, komi 7.5, book off) 300 won 447 of 858 games and 1,000 won
    /// 446 of 859 (RESEARCH.md, Self-play as a screen).
    pub root_rave_equiv: f64,
    /// UCB exploration constant at every node (small: RAVE and priors do
    /// most exploring).
    pub explore: f64,
    /// The least UCB exploration constant while at least
    /// [`OPENING_EMPTY`] of the board is empty (0, the default: `explore`
    /// throughout). In the opening dozens of moves are within a few
    /// hundredths of each other, and a greedy search settles on one by the
    /// luck of its first playouts; exploring spreads the playouts over them.
    /// Off: in self-play against the shipped search at 5,000 playouts
    /// (9x9, komi 7.5, book off) 0.15 won 88 of 254 games and 0.4 48 of
    /// 252 (RESEARCH.md, Self-play as a screen).
    pub explore_opening: f64,
    /// UCB exploration constant at the nodes where the root's opponent
    /// chooses, where it is larger than `explore`. With none, a reply whose
    /// prior and AMAF estimate fall below the best reply's value is never
    /// tried, however many playouts pass by: a refutation that takes a
    /// precise sequence (a throw-in in a capture race, say), which the
    /// playouts misplay, stays unseen under the move it refutes, and that
    /// move looks best. Exploring the opponent's replies alone finds such
    /// refutations without spreading the searcher's own playouts. Off by
    /// default: against GNU Go (9x9, komi 7, 5000 playouts) 0.05 won more
    /// games on two sets of 200 seeds and fewer on the next two, no better
    /// in all (RESEARCH.md, Benchmarks and long runs).
    pub explore_reply: f64,
    /// Weight of the learned strengths as a policy in selection, as in
    /// AlphaGo's PUCT: a child's value gains
    /// `puct * policy * sqrt(parent visits) / (1 + visits)`, where policy
    /// is its share of the node's learned strength. Unlike the UCB term it
    /// explores likely moves (a tactical reply a strong player would see)
    /// and leaves unlikely ones alone. Off (0) by default: against GNU Go
    /// (9x9, komi 7, 5000 playouts, seeds from 15290, book off) 0.3 won
    /// 177 of 192 games where the default won 178, and 1 won 170 of 191
    /// (RESEARCH.md, Sudden falls).
    pub puct: f64,
    /// Value of a child nothing is known about (first-play urgency).
    pub fpu: f64,
    /// Losses a thread pretends while it is below a node. Larger, it
    /// sends the threads down different paths, so they share fewer cache
    /// lines: light search on two threads over one, 9x9 1.73 at 3, 1.77 at
    /// 5, 1.78 at 10, 1.81 at 20 (19x19 1.78, 1.81, 1.82, 1.86; medians of
    /// 8 and 6 interleaved rounds; heavy 9x9 1.91 and 1.945, 19x19 1.94
    /// and 1.96). It also makes each thread's playouts follow the search's
    /// best line less closely, which cost nothing measurable in play:
    /// against GNU Go with two threads (9x9, komi 7, 5000 playouts, seeds
    /// from 6501) 87 of 100 at 3 and 88 of 100 at 20. One thread never
    /// sees its own virtual loss, so it plays the same at any value.
    /// Larger values (50, 100, 200) part the threads sooner without a
    /// gain beyond the noise (1.825-1.84 against 1.815 on 9x9 light, 20
    /// rounds; RESEARCH.md, Benchmarks and long runs).
    pub virtual_loss: u32,
    /// Weight of the mean score margin beside the win rate: a child's
    /// value gains `score_weight * tanh((margin - centre) / score_scale)`,
    /// the centre being its parent's mean margin for the same side (see
    /// `uct::score_centre`). Off (0): measured from zero, as until session
    /// 86, 0.05 had won 80 of 100 games against GNU Go where the default
    /// won 88 (RESEARCH.md, Benchmarks and long runs); measured from the centre
    /// and kept to the opening it lost in self-play (`score_opening`).
    pub score_weight: f64,
    /// Points of margin at which the score term is about three quarters full.
    pub score_scale: f64,
    /// The score term counts only while at least this share of the board
    /// is empty (0, the default: always). In the opening every move's win
    /// rate is near one half and 5,000 playouts pick among dozens of moves
    /// within a few hundredths, while the same playouts' mean margin tells
    /// them apart with less noise; later, chasing points risks won games.
    /// Off: in self-play against the shipped search at 5,000 playouts
    /// (9x9, komi 7.5, book off), with `score_opening=0.7`,
    /// `score_weight=0.05` won 291 of 660 games and 0.1 229 of 683 (RESEARCH.md,
    /// Self-play as a screen).
    pub score_opening: f64,
    /// Between root moves the search cannot tell apart, play the one that
    /// leads by the most points: those with at least half the most visited
    /// move's visits and a win rate at most this far below its. The mean
    /// margin of the same playouts separates moves sooner than their win
    /// rate does. 0, the default, plays the most visited move: against GNU
    /// Go (9x9, komi 7, 5000 playouts, book off, seeds from 20290 and
    /// 20090) 0.02 won 359 of 399 games where the default won 356 (30 won
    /// only with it, 27 only without; RESEARCH.md, Ties broken by the score).
    pub score_tiebreak: f64,
    /// What a jigo (a drawn count, possible with integer komi) is worth to
    /// the side searching: 0.25 by default, a quarter of a win, so that
    /// ishi plays to win rather than settle for a safe draw but still
    /// prefers a draw to a loss; 0.5 is half a win, 0 a loss. Values
    /// between halves are drawn at random per playout (see
    /// [`Scorer::judge_playout`](super::uct::Scorer::judge_playout)).
    /// Against GNU Go (9x9 komi 7, 5000 playouts, seeds 7001-7200) 0.25
    /// won 180 games with no draw where 0.5 won 166 with 9 draws: 33
    /// games won only with it, 19 only without.
    pub jigo: f64,
    /// Stop a search with playouts left once they cannot change the most
    /// visited root move. Spending them anyway (0) won no more: against
    /// GNU Go (9x9, komi 7, 5000 playouts, book off, seeds 17090 and
    /// 17290) 326 of 360 games where the default won 327.
    pub early_stop: bool,
    /// Tries of the heavy playouts' fill-the-board stage.
    pub fill_tries: u32,
    /// How the heavy playouts choose a shape next to the last move.
    pub shapes: ShapeChoice,
    /// Percent chance of the heavy playouts' two-liberty stage.
    pub two_liberty_rate: u8,
    /// Percent chance of the heavy playouts retaking a ko at the first
    /// turn the ban allows (see `PlayoutStyle::ko_rate`). Off (0) by
    /// default: in self-play against the shipped search at 5,000 playouts
    /// (9x9, komi 7.5, book off) 40 won 123 of 232 games (RESEARCH.md,
    /// Self-play as a screen).
    pub ko_rate: u8,
    /// With `ko_rate`, the capturer may also end the ko by filling it
    /// (see `PlayoutStyle::ko_connect`). Off: with `ko_rate=40` it won 128
    /// of 233 in the same screen and 381 of 739 on fresh seeds.
    pub ko_connect: bool,
    /// Heavy playouts play the vital point after any move that closes a
    /// dead eye shape (see [`PlayoutStyle::nakade_closed`]), as the
    /// priors already do; by default only after a capture of three or
    /// more stones. Off: in self-play against the shipped search at
    /// 5,000 playouts (9x9, komi 7.5, book off) it won 233 of 444 games
    /// (52.5%, 47.8-57.1%; RESEARCH.md, Self-play as a screen). Looking
    /// beside every move for a closed space also halves the 9x9 heavy
    /// search's rate (0.52-0.57 of the default's in interleaved rounds).
    pub nakade_closed: bool,
    /// Fuego's self-atari correction in the heavy playouts' random stage
    /// (see [`PlayoutStyle::self_atari_fix`]): 0 off, 1 for chains of two
    /// or more stones, 2 for lone stones too. Off by default: in
    /// self-play against the shipped search at 5,000 playouts (9x9, komi
    /// 7.5, book off) 1 won 300 of 576 games (52.1%, 48.0-56.1%) and 2
    /// won 263 of 548 (48.0%; RESEARCH.md, Self-play as a screen).
    pub self_atari_fix: u8,
    /// The heavy playouts' shape stage also looks next to the mover's own
    /// previous move when nothing next to the last move is a good shape
    /// (see [`PlayoutStyle::shapes_own`]). Off by default: in self-play
    /// against the shipped search (same setup as `self_atari_fix`) it won
    /// 361 of 706 games (51.1%, 47.4-54.8%; RESEARCH.md, Self-play as a
    /// screen).
    pub shapes_own: bool,
    /// Last good replies in the heavy playouts: 0 off, 1 or 2 moves back.
    pub replies: u8,
    /// Candidates the heavy playouts' random stage weighs by their move
    /// averages (see `mast`): 0 or 1 off.
    pub mast: u8,
    /// Learning rate of the balanced shape stage's adaptive offsets (see
    /// `adaptive`; only with `playout_shapes_balanced=1`): 0 off. Off: in
    /// self-play against the shipped search (9x9, komi 7.5, 5,000
    /// playouts, book off) 0.03 won 339 of 729 games and 0.1 365 of 731;
    /// with `playout_adapt_leaf=16`, 0.1 won 367 of 767 and 0.3 315 of
    /// 767 (RESEARCH.md, Self-play as a screen).
    pub playout_adapt: f32,
    /// With `playout_adapt`, a playout's result is measured against
    /// Black's mean result at the deepest node on its path with at least
    /// this many playouts (the search's mean when none has); 0: always the
    /// search's mean.
    pub playout_adapt_leaf: u32,
    /// Percent chances of the heavy playouts' atari and shape stages (see
    /// `PlayoutStyle`). Raising both to 100 with the shapes weighted by
    /// their learned rates judged positions of finished games better
    /// (`examples/playout_accuracy.rs`) but won no more games: against GNU
    /// Go (9x9, komi 7, 5000 playouts, seeds from 15290, book off) 175 of
    /// 192 where the default won 178 (RESEARCH.md, Learned shapes).
    pub atari_rate: u8,
    pub shape_rate: u8,
    /// Poolrave (see `rave_pool`): percent chance that a heavy playout's
    /// random move is drawn from the `pool_size` moves of best AMAF win
    /// rate at the deepest node on its path where the same colour chose
    /// with at least `pool_visits` visits. 0, the default, turns it off:
    /// against the shipped search at 5,000 playouts (9x9, komi 7.5, book
    /// off) 50 with pools of 10 won 119 of 231 games and 100 with pools
    /// of 5 won 98 of 193, where 7,500 playouts won 99 of 167 (RESEARCH.md,
    /// Self-play as a screen).
    pub pool_rate: u8,
    pub pool_size: u8,
    pub pool_visits: u32,
    /// Weight of the criticality of a move's point (see `criticality`) in
    /// its value during selection; 0, the default, turns it off.
    pub crit_weight: f64,
    /// Visits at which a child's criticality bonus has fallen to half.
    pub crit_visits: f64,
    /// How fast `rave_equiv` falls as the board fills: it is multiplied by
    /// the empty share of the board to this power (0, the default, keeps
    /// it). AMAF credits a move for being played at any time, which near
    /// the end of a game is what misleads: a move that must be played now
    /// looks bad when played later. Off: over three runs against GNU Go
    /// (9x9, komi 7, 5000 playouts) 2 won 333 of 388 games where the
    /// default won 342 (RESEARCH.md, Benchmarks and long runs).
    pub rave_phase: f64,
    /// Weight AMAF results by how soon after a node its child's move was
    /// played (Fuego's weighted RAVE updates): twice in the first quarter
    /// of the moves that follow the node, once in the middle half, not at
    /// all in the last quarter, a step form of Fuego's weight falling from
    /// 2 to 0 that keeps the AMAF counts at about their scale. A move
    /// played late in a playout says little about playing it now. Off by
    /// default: against the shipped search at 5,000 playouts (9x9, komi
    /// 7.5, book off) it won 395 of 771 games (RESEARCH.md, Self-play as a
    /// screen).
    pub rave_distance: bool,
    /// Weight of the opponent's first plays in a child's AMAF: at a node
    /// where one colour chooses, a child also gets the playouts where the
    /// opponent played its point first after the node, counted this many
    /// times with the result seen from the opponent, while the chooser's
    /// own first plays count twice. A point the opponent wins by taking
    /// is one to take first (the proverb: play where the opponent wants
    /// to play). Off (0) by default: in self-play against the shipped
    /// search at 5,000 playouts (9x9, komi 7.5, book off) 1 won 1 of 12
    /// games before the screen was stopped (RESEARCH.md, Self-play as a screen).
    pub rave_opponent: u32,
    /// Count only the opponent's first plays (see `rave_opponent`) in the
    /// first quarter of the moves after the node: the points it took while
    /// the fight was still on, not the ones it filled inside its own
    /// territory at the end, which count as wins wherever it won. It did
    /// not help either: with `rave_opponent=1` it won 2 of 14 in the same
    /// screen.
    pub rave_opponent_near: bool,
    /// A playout move counts in AMAF only if its stone is still on the
    /// board when the playout ends: a stone that was captured did not
    /// make the result, and throw-ins and lost fights at a point should
    /// not lend it their wins. Moves in the tree count as always. Off:
    /// in self-play against the shipped search at 5,000 playouts (9x9,
    /// komi 7.5, book off) it won 1 of 71 games before the futility stop.
    /// Survival is decided with the result: a point in the opponent's
    /// area survives only in the playouts its mover won, so every such
    /// point looked like a winning move (RESEARCH.md, Self-play as a screen).
    pub rave_survivors: bool,
    /// The prior also counts as this many times as much AMAF experience
    /// (heuristic MC-RAVE, Gelly and Silver 2007: the heuristic starts
    /// both the real and the AMAF value). With the prior in the real
    /// results alone, a child's first hundred AMAF playouts outweigh it
    /// nine to one; here it keeps its say until the AMAF counts grow past
    /// it. 0, the default, leaves the AMAF to the playouts: in self-play
    /// against the shipped search (9x9, komi 7.5, 5,000 playouts, book
    /// off) `prior_amaf=1` won 221 of 432 (RESEARCH.md, Self-play as a screen).
    pub prior_amaf: f64,
    /// A share of the gap between a move's value and what its opponent's
    /// best reply leaves it (one minus that reply's real win rate, among
    /// replies with at least `minimax_visits` playouts) comes off the
    /// move's value: a mix of the mean and the minimax backup, after
    /// Coulom (2006). The mean of a move counts the opponent's weaker
    /// replies tried before the refutation, so it stays high for a while
    /// after the refutation is found; this brings it down at once. 0, the
    /// default, backs up the mean alone: `minimax=0.5` won 8 of 80 in the
    /// same screen, as the correction lands only on moves whose replies
    /// were searched and the best of a few noisy replies is too high.
    pub minimax: f64,
    pub minimax_visits: u32,
    /// Every other playout, at random, picks its shape moves among the
    /// learned shapes of at least this strength instead of the configured
    /// shapes (0, the default: never). Two playout policies that win as
    /// many games alone (the MoGo shapes and the learned ones from 160)
    /// misjudge different positions; averaged, each one's errors would
    /// count half. They did not: in self-play against the shipped search
    /// `playout_mix_learned=160` won 235 of 463 (RESEARCH.md, Self-play as a
    /// screen).
    pub mix_learned: u8,
    /// Points beyond komi the searching side asks of a playout before it
    /// counts it as won (0, the default, asks for none): a margin of
    /// safety against playouts that judge a close game too kindly, as they
    /// do for White against GNU Go (RESEARCH.md, Win rates by colour). It did
    /// not win more: in the 100 games as White of seeds 9490-9689 (9x9,
    /// komi 7, 5000 playouts) 2 points won 84 and 1 point (a jigo worth
    /// nothing) 80, where the default won 87.
    pub ask_margin: f64,
    /// Dynamic komi when ahead (Pachi's situational komi): on top of
    /// `ask_margin`, a side asks for a margin that grows by two points
    /// after each of its searches that was sure of the game
    /// (`dyn_komi_high`) and shrinks by two after one that was not
    /// (`dyn_komi_low`), never beyond this share of the lead that search
    /// expected, and only while at least `dyn_komi_empty` of the board is
    /// empty. Near 1, every move
    /// wins for a side well ahead, and the search no longer tells a safe
    /// move from one that loses a group; asking for part of the lead keeps
    /// it choosing among moves that keep the lead. 0, the default, is off:
    /// in self-play against the shipped search (9x9, komi 7.5, 5,000
    /// playouts, book off) 0.5 won 447 of 930 games and 1 (with the win
    /// rates 0.7 and 0.55) 443 of 922 (RESEARCH.md, Self-play as a screen).
    pub dyn_komi: f64,
    /// The empty share of the board below which `dyn_komi` asks nothing:
    /// in the endgame a lead asked for is a won game risked.
    pub dyn_komi_empty: f64,
    /// Win rates above which `dyn_komi` asks for more, and below which
    /// for less.
    pub dyn_komi_high: f64,
    pub dyn_komi_low: f64,
    /// Points per handicap stone that a game with handicap adds to komi
    /// for the search at its start (linear dynamic komi, as Pachi plays
    /// handicap games), fading to nothing by ply `handicap_fade` times the
    /// board's points: meant to keep a search giving stones from seeing
    /// every move lose on the count, and one taking them playing for a
    /// margin. It did not help where measured. 0, the default, is
    /// off: giving two stones on 9x9 (komi 0.5, 5,000 playouts) against
    /// GNU Go, 7 won 135 of 266 games where off won 158 (RESEARCH.md,
    /// Giving handicap). When on, every search counts it, analysis too: the
    /// win rates shown are against it, the score lead stays the true one.
    pub handicap_komi: f64,
    /// The ply, as a share of the board's points, from which
    /// `handicap_komi` adds nothing (0.5: ply 40 on 9x9, 180 on 19x19).
    pub handicap_fade: f64,
    /// Progressive widening (Coulom 2007): a node's children are kept in
    /// the order of their priors, and selection looks only at the first
    /// `3 + log1.4(1 + visits / widening)`; 0, the default, looks at all.
    /// It did not win more: against GNU Go (9x9, komi 7, 5000 playouts,
    /// seeds from 9490) 10 won 110 of 131 games where the default won
    /// 112, and 3 won 130 of 150 where the default won 130 (RESEARCH.md, Win
    /// rates by colour).
    pub widening: f64,
    /// A new node's children start with the AMAF results of the same moves
    /// at the node two plies up (the grandparent, where the same side
    /// chose; MoGo's "grandfather" heuristic), scaled down to at most this
    /// many samples at the same win rate: a child then starts from what
    /// its move did in the playouts just above, not from its prior alone.
    /// 0, the default, turns it off: against GNU Go (9x9, komi 7, 5000
    /// playouts, book off, seeds from 21690) 20 won 175 of 200 games where
    /// the default won 185 (RESEARCH.md, Results from two plies up).
    pub rave_grandparent: u32,
    /// A new node's children add to their priors the real results of the
    /// same moves two plies up (the killer-move idea: a move that was good
    /// for the same side just before often still is), scaled down to at
    /// most this many playouts at the same win rate. 0, the default, turns
    /// it off: against GNU Go (9x9, komi 7, 5000 playouts, book off, seeds
    /// from 21890) 10 won 167 of 199 games where the default won 174
    /// (RESEARCH.md, Results from two plies up).
    pub prior_grandparent: u32,
    /// The UCB exploration constant at a node whose mover is losing
    /// (see `lost_below`); 0, the default, leaves `explore` there. Where
    /// every reply loses, the replies' values are all near 0 and the
    /// search without exploration keeps to the few the priors like: the
    /// one move that resists, unseen, then refutes a position the search
    /// believed won (a capture race the playouts misread, say). It won no
    /// more against GNU Go (9x9, komi 7, 5000 playouts): 343 of 393 games
    /// from seeds 10490, 10290 and 10090 where the default won 341 of
    /// the same games (RESEARCH.md, Sudden falls).
    pub explore_lost: f64,
    /// The mover's win rate below which a node counts as lost for
    /// `explore_lost`.
    pub lost_below: f64,
    /// Keep the subtree of the move played between searches (tree reuse,
    /// the default). Without it ishi won 256 of 303 games against GNU Go
    /// (9x9, komi 7, 5000 playouts, seeds 10490 and 10290) where the
    /// default won 265.
    pub reuse: bool,
    /// The share of its counts a kept subtree brings into the next search
    /// (real and AMAF results and score sums, all multiplied by it); 0,
    /// the default, keeps them whole. The kept counts were gathered where
    /// the search before sent its playouts, and a refutation it left
    /// untried stays buried under them (RESEARCH.md, Sudden falls); without
    /// reuse at all ishi won fewer games. Weighed down, the kept tree
    /// still guides the new search, whose own playouts decide sooner, and
    /// the early stop waits for them. Off: in self-play against the
    /// shipped search at 5,000 playouts (9x9, komi 7.5, book off) 0.5 won
    /// 413 of 795 games and 0.2 374 of 795 (RESEARCH.md, Self-play as a screen).
    pub reuse_weight: f64,
    /// Play the opening book's move where it has one (see `book`: 9x9,
    /// komi 7, area scoring) instead of searching. On by default: against
    /// GNU Go (9x9, komi 7, 5000 playouts) on three blocks of seeds the
    /// default had played, it won more games than the search alone, by
    /// the sign test p < 0.05 (RESEARCH.md, Opening book). `--tune book=0`
    /// searches every move.
    pub book: bool,
    /// With the book on, also its positions chosen from game records of
    /// ishi against GNU Go and Pachi (on by default); `--tune
    /// book_records=0` keeps only those ishi's own tree of openings chose
    /// (RESEARCH.md, Opening book).
    pub book_records: bool,
    /// Sequential halving at the root (see `halving`): after
    /// `halving_warmup` of a fixed budget, the best `root_halving` root
    /// children share the rest in phases that each drop the worse half;
    /// 0, the default, searches the root like any node. It won no more:
    /// against GNU Go (9x9, komi 7, 5000 playouts, seeds from 17690, book
    /// off) 8 with a warm-up of half the budget won 177 of 199 games where
    /// the default won 179 (RESEARCH.md, Sequential halving at the root).
    pub root_halving: u32,
    /// Share of the budget searched as usual before the halving starts.
    pub halving_warmup: f64,
    /// Rank the halving's candidates by their own playouts' win rate
    /// rather than by the value selection uses (AMAF and priors blended).
    pub halving_by_real: bool,
    /// Nodes at the same depth standing for the same position share their
    /// children (see `transpose`). Off: at 5,000 playouts a 9x9 search
    /// meets a transposition at 1-5% of its expansions (3.5% at 200,000),
    /// a 19x19 one at 10,000 playouts at 1-3%, and the mean regret of
    /// `search_regret` moved by +0.0007 (0.0010) (RESEARCH.md, Transpositions).
    pub transpose: bool,
    /// Of the moves a symmetry of the position maps onto each other, the
    /// tree keeps one (see `symmetry`). Off: against GNU Go (9x9, komi 7,
    /// 5000 playouts, book off) it won 175 of 200 from seed 19490 where
    /// the default won 183 (13 won only with it, 21 only without; RESEARCH.md,
    /// Symmetric positions).
    pub symmetry: bool,
    /// Read capture races (`priors.critical`) and mark tactical moves
    /// (`priors.tactical_chain`, `tactical_amaf`) only at the nodes where
    /// the root's opponent moves: there they find the refutation a
    /// playout-judged move hides, while the searcher's own moves keep the
    /// priors and AMAF without them. Off: against GNU Go (9x9, komi 7, 5000
    /// playouts, book off, seeds 26099 and 26299) `prior_critical=100`
    /// with it won 357 of 399 games, as many as the default won of the
    /// same games (39 won only with it, 39 only without), and with
    /// `tactical_amaf=4` too 88 of the 101 games from seed 27473 where the
    /// default won 95 (RESEARCH.md, Sudden falls).
    pub critical_replies: bool,
    pub priors: Priors,
}

impl Params {
    pub fn new(size: usize, kind: PlayoutKind) -> Params {
        Params {
            kind,
            expand_at: if size <= 9 { 4 } else { 8 },
            expand_at_playouts: if size <= 9 { 2 } else { 8 },
            expand_tactical: 0,
            rave_equiv: 3000.0,
            root_rave_equiv: 0.0,
            explore: 0.0,
            explore_opening: 0.0,
            explore_reply: 0.0,
            puct: 0.0,
            fpu: 1.1,
            virtual_loss: 20,
            score_weight: 0.0,
            score_scale: size as f64,
            score_opening: 0.0,
            score_tiebreak: 0.0,
            jigo: 0.25,
            early_stop: true,
            fill_tries: 0,
            shapes: ShapeChoice::Mogo,
            two_liberty_rate: 0,
            ko_rate: 0,
            ko_connect: false,
            nakade_closed: false,
            self_atari_fix: 0,
            shapes_own: false,
            replies: 0,
            mast: 0,
            playout_adapt: 0.0,
            playout_adapt_leaf: 0,
            atari_rate: ATARI_RATE,
            shape_rate: SHAPE_RATE,
            pool_rate: 0,
            pool_size: 10,
            pool_visits: 50,
            crit_weight: 0.0,
            crit_visits: 100.0,
            rave_phase: 0.0,
            rave_distance: false,
            rave_opponent: 0,
            rave_opponent_near: false,
            rave_survivors: false,
            prior_amaf: 0.0,
            minimax: 0.0,
            minimax_visits: 40,
            mix_learned: 0,
            ask_margin: 0.0,
            dyn_komi: 0.0,
            dyn_komi_empty: 0.4,
            dyn_komi_high: 0.8,
            dyn_komi_low: 0.65,
            handicap_komi: 0.0,
            handicap_fade: 0.5,
            widening: 0.0,
            rave_grandparent: 0,
            prior_grandparent: 0,
            explore_lost: 0.0,
            lost_below: 0.15,
            reuse: true,
            reuse_weight: 0.0,
            book: true,
            book_records: true,
            root_halving: 0,
            halving_warmup: 0.25,
            halving_by_real: false,
            transpose: false,
            symmetry: false,
            critical_replies: false,
            priors: Priors::for_size(size),
        }
    }

    /// The RAVE equivalence for the children of a root (`at_root`) or
    /// of any other node.
    pub fn rave_equiv_for(&self, at_root: bool) -> f64 {
        if at_root && self.root_rave_equiv > 0.0 {
            self.root_rave_equiv
        } else {
            self.rave_equiv
        }
    }

    /// Real visits after which a leaf is expanded, where `atari_beside_last`
    /// says whether the move into it left a chain in atari.
    pub fn expansion_visits(&self, atari_beside_last: impl FnOnce() -> bool) -> u32 {
        if self.expand_tactical > 0 && atari_beside_last() {
            self.expand_tactical
        } else {
            self.expand_at
        }
    }

    /// The UCB exploration constant where `mover` chooses, in a search for
    /// `searcher`: `explore` everywhere, raised to `explore_reply` at the
    /// opponent's nodes.
    pub fn exploration_for(&self, mover: Color, searcher: Color) -> f64 {
        if mover == searcher {
            self.explore
        } else {
            self.explore.max(self.explore_reply)
        }
    }

    /// The priors of a node where `mover` chooses, in a search for
    /// `searcher`: the reading of capture races and the tactical marks left
    /// out at the searcher's own nodes when `critical_replies` asks for it.
    pub fn priors_for(&self, mover: Color, searcher: Color) -> Priors {
        let mut priors = self.priors;
        if self.critical_replies && mover == searcher {
            priors.critical = 0;
            priors.tactical_chain = 0;
        }
        priors
    }
}

/// Constants of the tree policy set by hand for a tuning match
/// (`--tune explore=0.2,rave_equiv=1000`), over the defaults for the
/// board size: indices into [`KNOBS`] with their values.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Tuning(Vec<(usize, f64)>);

/// A prior, in virtual playouts.
fn visits(v: f64) -> u16 {
    v.round().min(u16::MAX as f64) as u16
}

/// A number of real visits.
fn real_visits(v: f64) -> u32 {
    v.round().min(u32::MAX as f64) as u32
}

/// A percent chance.
fn percent(v: f64) -> u8 {
    v.round().clamp(0.0, 100.0) as u8
}

/// Sets one constant of the tree policy.
type Setter = fn(&mut Params, f64);

/// Every constant `--tune` can set: its name and how it is set.
const KNOBS: [(&str, Setter); 93] = [
    ("expand_at", |p, v| {
        p.expand_at = real_visits(v);
        p.expand_at_playouts = p.expand_at;
    }),
    ("expand_at_playouts", |p, v| {
        p.expand_at_playouts = real_visits(v)
    }),
    ("expand_tactical", |p, v| p.expand_tactical = real_visits(v)),
    ("rave_equiv", |p, v| p.rave_equiv = v.max(1.0)),
    ("root_rave_equiv", |p, v| p.root_rave_equiv = v.max(0.0)),
    ("explore", |p, v| p.explore = v),
    ("fpu", |p, v| p.fpu = v),
    ("virtual_loss", |p, v| {
        p.virtual_loss = v.round().min(1000.0) as u32
    }),
    ("score_weight", |p, v| p.score_weight = v),
    ("score_scale", |p, v| p.score_scale = v.max(0.1)),
    ("score_tiebreak", |p, v| {
        p.score_tiebreak = v.clamp(0.0, 1.0)
    }),
    ("jigo", |p, v| p.jigo = v.min(1.0)),
    ("early_stop", |p, v| p.early_stop = v >= 0.5),
    ("root_halving", |p, v| {
        p.root_halving = v.round().clamp(0.0, 64.0) as u32
    }),
    ("halving_warmup", |p, v| {
        p.halving_warmup = v.clamp(0.0, 1.0)
    }),
    ("halving_by_real", |p, v| p.halving_by_real = v >= 0.5),
    ("transpose", |p, v| p.transpose = v >= 0.5),
    ("symmetry", |p, v| p.symmetry = v >= 0.5),
    ("fill_tries", |p, v| {
        p.fill_tries = v.round().min(100.0) as u32
    }),
    ("playout_shapes_weighted", |p, v| {
        if v >= 0.5 {
            p.shapes = ShapeChoice::MogoWeighted
        }
    }),
    ("playout_shapes_learned", |p, v| {
        if v >= 0.5 {
            p.shapes = ShapeChoice::Learned(v.round().min(255.0) as u8)
        }
    }),
    ("playout_shapes_balanced", |p, v| {
        p.shapes = if v >= 0.5 {
            ShapeChoice::Balanced
        } else {
            ShapeChoice::Mogo
        }
    }),
    ("playout_softmax", |p, v| {
        if v >= 1.5 {
            p.shapes = ShapeChoice::MogoThenSoftmax
        } else if v >= 0.5 {
            p.shapes = ShapeChoice::Softmax
        }
    }),
    ("playout_two_liberties", |p, v| {
        p.two_liberty_rate = percent(v)
    }),
    ("playout_ko_rate", |p, v| p.ko_rate = percent(v)),
    ("playout_ko_connect", |p, v| p.ko_connect = v >= 0.5),
    ("playout_shapes_own", |p, v| p.shapes_own = v >= 0.5),
    ("playout_self_atari_fix", |p, v| {
        p.self_atari_fix = v.round().clamp(0.0, 2.0) as u8
    }),
    ("playout_nakade_closed", |p, v| {
        p.nakade_closed = v >= 0.5;
        p.priors.nakade_beside = p.nakade_closed;
    }),
    ("playout_replies", |p, v| {
        p.replies = v.round().clamp(0.0, 2.0) as u8
    }),
    ("pool_rate", |p, v| p.pool_rate = percent(v)),
    ("pool_size", |p, v| {
        p.pool_size = v.round().clamp(1.0, 255.0) as u8
    }),
    ("pool_visits", |p, v| {
        p.pool_visits = v.round().clamp(1.0, u32::MAX as f64) as u32
    }),
    ("playout_adapt", |p, v| {
        p.playout_adapt = v.clamp(0.0, 10.0) as f32
    }),
    ("playout_adapt_leaf", |p, v| {
        p.playout_adapt_leaf = v.round().clamp(0.0, 1e6) as u32
    }),
    ("playout_mast", |p, v| {
        p.mast = v.round().clamp(0.0, 16.0) as u8
    }),
    ("playout_atari_rate", |p, v| p.atari_rate = percent(v)),
    ("playout_shape_rate", |p, v| p.shape_rate = percent(v)),
    ("prior_even", |p, v| p.priors.even = visits(v)),
    ("prior_capture", |p, v| p.priors.capture = visits(v)),
    ("prior_escape", |p, v| p.priors.escape = visits(v)),
    ("prior_self_atari", |p, v| p.priors.self_atari = visits(v)),
    ("prior_nakade", |p, v| p.priors.nakade = visits(v)),
    ("prior_shape", |p, v| p.priors.shape = visits(v)),
    ("prior_near_last", |p, v| p.priors.near_last = visits(v)),
    ("prior_empty_edge", |p, v| p.priors.empty_edge = visits(v)),
    ("prior_third_line", |p, v| p.priors.third_line = visits(v)),
    ("prior_critical", |p, v| p.priors.critical = visits(v)),
    ("critical_replies", |p, v| p.critical_replies = v >= 0.5),
    ("prior_pattern", |p, v| p.priors.pattern = visits(v)),
    ("large_shapes", |p, v| p.priors.large_shapes = v >= 0.5),
    ("prior_gamma", |p, v| p.priors.gamma = visits(v)),
    ("prior_gamma_wins", |p, v| p.priors.gamma_wins = visits(v)),
    ("prior_gamma_slope", |p, v| {
        p.priors.gamma_slope = v.clamp(0.0, 4.0) as f32
    }),
    ("prior_gamma_own", |p, v| p.priors.gamma_own = v >= 0.5),
    ("prior_gamma_distilled", |p, v| {
        if v >= 0.5 {
            p.priors.gamma_source = Source::OwnGames9
        }
    }),
    ("prior_gamma_spatial", |p, v| {
        p.priors.gamma_source = if v >= 0.5 {
            Source::Spatial
        } else {
            Source::Records
        }
    }),
    ("tactical_amaf", |p, v| {
        p.priors.tactical_chain = v.max(0.0) as u32
    }),
    ("opening_lines", |p, v| p.priors.opening_lines = v >= 0.5),
    ("prior_opening_gamma", |p, v| {
        p.priors.opening_gamma = visits(v)
    }),
    ("prior_opening_stones", |p, v| {
        p.priors.opening_stones = visits(v).max(1)
    }),
    ("spatial_reach", |p, v| {
        // Below the smallest large pattern none is matched.
        let reach = v.clamp(MIN_DISTANCE as f64 - 1.0, MAX_DISTANCE as f64);
        p.priors.spatial_reach = reach as u8
    }),
    ("crit_weight", |p, v| p.crit_weight = v),
    ("crit_visits", |p, v| p.crit_visits = v.max(1.0)),
    ("rave_phase", |p, v| p.rave_phase = v),
    ("rave_distance", |p, v| p.rave_distance = v >= 0.5),
    ("rave_opponent", |p, v| {
        p.rave_opponent = v.clamp(0.0, 8.0) as u32
    }),
    ("rave_opponent_near", |p, v| p.rave_opponent_near = v >= 0.5),
    ("rave_survivors", |p, v| p.rave_survivors = v >= 0.5),
    ("explore_reply", |p, v| p.explore_reply = v),
    ("puct", |p, v| p.puct = v),
    ("ask_margin", |p, v| p.ask_margin = v),
    ("dyn_komi", |p, v| p.dyn_komi = v.clamp(0.0, 1.0)),
    ("dyn_komi_empty", |p, v| {
        p.dyn_komi_empty = v.clamp(0.0, 1.0)
    }),
    ("dyn_komi_high", |p, v| p.dyn_komi_high = v.clamp(0.0, 1.0)),
    ("dyn_komi_low", |p, v| p.dyn_komi_low = v.clamp(0.0, 1.0)),
    ("handicap_komi", |p, v| p.handicap_komi = v.clamp(0.0, 50.0)),
    ("handicap_fade", |p, v| p.handicap_fade = v.clamp(0.0, 2.0)),
    ("widening", |p, v| p.widening = v),
    ("prior_amaf", |p, v| p.prior_amaf = v.max(0.0)),
    ("minimax", |p, v| p.minimax = v.clamp(0.0, 1.0)),
    ("minimax_visits", |p, v| p.minimax_visits = visits(v).into()),
    ("playout_mix_learned", |p, v| {
        p.mix_learned = v.round().clamp(0.0, 255.0) as u8
    }),
    ("rave_grandparent", |p, v| {
        p.rave_grandparent = v.min(f64::from(u16::MAX)) as u32
    }),
    ("prior_grandparent", |p, v| {
        p.prior_grandparent = v.min(f64::from(u16::MAX)) as u32
    }),
    ("explore_lost", |p, v| p.explore_lost = v),
    ("lost_below", |p, v| p.lost_below = v.min(1.0)),
    ("reuse", |p, v| p.reuse = v >= 0.5),
    ("reuse_weight", |p, v| p.reuse_weight = v.clamp(0.0, 1.0)),
    ("score_opening", |p, v| p.score_opening = v.clamp(0.0, 1.0)),
    ("explore_opening", |p, v| p.explore_opening = v),
    ("book", |p, v| p.book = v >= 0.5),
    ("book_records", |p, v| p.book_records = v >= 0.5),
];

impl Tuning {
    /// Parses `name=value` pairs separated by commas.
    pub fn parse(text: &str) -> Result<Tuning, String> {
        let mut knobs = Vec::new();
        for pair in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let (name, value) = pair
                .split_once('=')
                .ok_or_else(|| format!("'{pair}' is not name=value"))?;
            let knob = KNOBS
                .iter()
                .position(|(n, _)| *n == name.trim())
                .ok_or_else(|| {
                    let names: Vec<&str> = KNOBS.iter().map(|(n, _)| *n).collect();
                    format!("unknown constant '{name}' (known: {})", names.join(", "))
                })?;
            let value: f64 = value
                .trim()
                .parse()
                .ok()
                .filter(|v: &f64| v.is_finite() && *v >= 0.0)
                .ok_or_else(|| format!("'{pair}': the value must be a number >= 0"))?;
            knobs.push((knob, value));
        }
        Ok(Tuning(knobs))
    }
}

impl Params {
    /// The defaults for the board size with `tuning` applied.
    pub fn tuned(size: usize, kind: PlayoutKind, tuning: &Tuning) -> Params {
        let mut p = Params::new(size, kind);
        for &(knob, v) in &tuning.0 {
            (KNOBS[knob].1)(&mut p, v);
        }
        p
    }

    /// These constants for a search that `bound` limits: a search bounded
    /// only by its playout count expands at `expand_at_playouts`.
    pub fn bounded_by(mut self, bound: Bound) -> Params {
        if bound == Bound::Playouts {
            self.expand_at = self.expand_at_playouts;
        }
        self
    }

    /// The playout policy these constants ask for; with `mercy` a playout
    /// stops once one side leads by a third of the board.
    pub fn playout_style(&self, mercy: bool) -> PlayoutStyle {
        PlayoutStyle {
            kind: self.kind,
            mercy,
            fill_tries: self.fill_tries,
            shapes: self.shapes,
            two_liberty_rate: self.two_liberty_rate,
            ko_rate: self.ko_rate,
            ko_connect: self.ko_connect,
            nakade_closed: self.nakade_closed,
            self_atari_fix: self.self_atari_fix,
            shapes_own: self.shapes_own,
            replies: self.replies,
            mast: self.mast,
            pool_rate: self.pool_rate,
            atari_rate: self.atari_rate,
            shape_rate: self.shape_rate,
        }
    }

    /// The style of one playout: [`Params::playout_style`], with the
    /// learned shapes instead of the configured ones every other time at
    /// random when `mix_learned` asks for them.
    pub fn playout_style_drawn(&self, mercy: bool, rng: &mut impl rand::Rng) -> PlayoutStyle {
        let mut style = self.playout_style(mercy);
        if self.mix_learned > 0 && rng.gen::<bool>() {
            style.shapes = ShapeChoice::Learned(self.mix_learned);
        }
        style
    }

    /// These constants for a search from `board`: `rave_equiv` scaled down
    /// by how full the board is (see [`Params::rave_phase`]), no score
    /// term past the opening (see [`Params::score_opening`]), and more
    /// exploration in it (see [`Params::explore_opening`]).
    pub fn at(mut self, board: &Board) -> Params {
        let empty = empty_share(board);
        if empty >= OPENING_EMPTY {
            self.explore = self.explore.max(self.explore_opening);
        }
        if self.score_opening > 0.0 && empty < self.score_opening {
            self.score_weight = 0.0;
        }
        if self.rave_phase > 0.0 {
            let scale = empty.powf(self.rave_phase);
            self.rave_equiv = (self.rave_equiv * scale).max(1.0);
            if self.root_rave_equiv > 0.0 {
                self.root_rave_equiv = (self.root_rave_equiv * scale).max(1.0);
            }
        }
        self
    }
}

/// The empty share of the board down to which a game is in its opening
/// for [`Params::explore_opening`]: about the first 24 plies on 9x9.
pub const OPENING_EMPTY: f64 = 0.7;

/// The share of `board`'s points that are empty, 1 on an empty board.
pub(super) fn empty_share(board: &Board) -> f64 {
    board.empties().len() as f64 / (board.size() * board.size()) as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tuning_sets_only_the_named_constants() {
        let tuning =
            Tuning::parse("explore=0.2, rave_equiv=1000,prior_even=12,prior_gamma_distilled=1")
                .unwrap();
        let default = Params::new(9, PlayoutKind::Heavy);
        let tuned = Params::tuned(9, PlayoutKind::Heavy, &tuning);
        assert_eq!(tuned.explore, 0.2);
        assert_eq!(tuned.rave_equiv, 1000.0);
        assert_eq!(tuned.priors.even, 12);
        assert_eq!(tuned.priors.gamma_source, Source::OwnGames9);
        assert_eq!(default.priors.gamma_source, Source::Spatial);
        let records = Tuning::parse("prior_gamma_spatial=0,spatial_reach=5").unwrap();
        let records = Params::tuned(9, PlayoutKind::Heavy, &records);
        assert_eq!(records.priors.gamma_source, Source::Records);
        assert_eq!(records.priors.spatial_reach, 5);
        assert_eq!(tuned.expand_at, default.expand_at);
        assert_eq!(tuned.priors.capture, default.priors.capture);
        assert_eq!(Tuning::parse("").unwrap(), Tuning::default());
        let rates = Tuning::parse("playout_atari_rate=100,playout_shape_rate=140").unwrap();
        let style = Params::tuned(9, PlayoutKind::Heavy, &rates).playout_style(true);
        assert_eq!((style.atari_rate, style.shape_rate), (100, 100));
        let style = default.playout_style(false);
        assert_eq!(
            (style.atari_rate, style.shape_rate),
            (ATARI_RATE, SHAPE_RATE)
        );
    }

    #[test]
    fn a_playout_mix_draws_the_learned_shapes_for_about_half_the_playouts() {
        use rand::SeedableRng;
        let mut rng = rand::rngs::SmallRng::seed_from_u64(7);
        let learned = |knobs: &str, rng: &mut rand::rngs::SmallRng| {
            let params = Params::tuned(9, PlayoutKind::Heavy, &Tuning::parse(knobs).unwrap());
            (0..1000)
                .filter(|_| {
                    let style = params.playout_style_drawn(true, rng);
                    assert!(matches!(
                        style.shapes,
                        ShapeChoice::Mogo | ShapeChoice::Learned(160)
                    ));
                    style.shapes == ShapeChoice::Learned(160)
                })
                .count()
        };
        assert_eq!(learned("", &mut rng), 0);
        let mixed = learned("playout_mix_learned=160", &mut rng);
        assert!((440..=560).contains(&mixed), "{mixed} of 1000");
    }

    #[test]
    fn learned_strengths_replace_the_shapes_on_every_size() {
        for size in [7, 9, 13, 19] {
            let priors = Params::new(size, PlayoutKind::Heavy).priors;
            assert_eq!(priors.gamma, 2 * priors.even, "{size}x{size}");
            assert_eq!(priors.pattern, 0, "{size}x{size}");
        }
        let shapes = Tuning::parse("prior_gamma=0,prior_pattern=40").unwrap();
        let old = Params::tuned(19, PlayoutKind::Heavy, &shapes).priors;
        assert_eq!((old.gamma, old.pattern, old.large_shapes), (0, 40, true));
        let old = Params::tuned(13, PlayoutKind::Heavy, &shapes).priors;
        assert_eq!((old.gamma, old.pattern, old.large_shapes), (0, 40, false));
    }

    #[test]
    fn races_and_tactical_marks_stay_at_the_opponents_nodes_when_asked() {
        let both = Tuning::parse("prior_critical=100,tactical_amaf=4").unwrap();
        let replies =
            Tuning::parse("prior_critical=100,tactical_amaf=4,critical_replies=1").unwrap();
        let both = Params::tuned(9, PlayoutKind::Heavy, &both);
        let replies = Params::tuned(9, PlayoutKind::Heavy, &replies);
        let (me, them) = (Color::White, Color::Black);
        let knowledge = |p: Priors| (p.critical, p.tactical_chain);
        assert_eq!(knowledge(both.priors_for(me, me)), (100, 4));
        assert_eq!(knowledge(both.priors_for(them, me)), (100, 4));
        assert_eq!(knowledge(replies.priors_for(me, me)), (0, 0));
        assert_eq!(knowledge(replies.priors_for(them, me)), (100, 4));
    }

    #[test]
    fn the_score_term_and_more_exploration_can_be_kept_to_the_opening() {
        let opening_only = Tuning::parse("score_weight=0.1,score_opening=0.7").unwrap();
        let everywhere = Tuning::parse("score_weight=0.1").unwrap();
        let weight = |board: &Board, tuning: &Tuning| {
            Params::tuned(9, PlayoutKind::Heavy, tuning)
                .at(board)
                .score_weight
        };
        // 63 of 81 points empty: still the opening.
        let early = Board::from_ascii(
            "X X X X X X X X X
             O O O O O O O O O
             . . . . . . . . .
             . . . . . . . . .
             . . . . . . . . .
             . . . . . . . . .
             . . . . . . . . .
             . . . . . . . . .
             . . . . . . . . .",
        )
        .unwrap();
        // 54 of 81 empty: two thirds, past it.
        let later = Board::from_ascii(
            "X X X X X X X X X
             O O O O O O O O O
             X X X X X X X X X
             . . . . . . . . .
             . . . . . . . . .
             . . . . . . . . .
             . . . . . . . . .
             . . . . . . . . .
             . . . . . . . . .",
        )
        .unwrap();
        assert_eq!(weight(&early, &opening_only), 0.1);
        assert_eq!(weight(&later, &opening_only), 0.0);
        assert_eq!(weight(&later, &everywhere), 0.1);
        assert_eq!(weight(&early, &Tuning::default()), 0.0, "off by default");
        let explore = |board: &Board| {
            let tuning = Tuning::parse("explore_opening=0.3").unwrap();
            Params::tuned(9, PlayoutKind::Heavy, &tuning)
                .at(board)
                .explore
        };
        assert_eq!(explore(&early), 0.3);
        assert_eq!(explore(&later), 0.0);
    }

    #[test]
    fn tuning_rejects_what_it_cannot_use() {
        for bad in [
            "explore",
            "explore=",
            "explore=-1",
            "explore=nan",
            "wobble=1",
        ] {
            assert!(Tuning::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn only_a_leaf_left_with_a_chain_in_atari_expands_at_expand_tactical() {
        let mut p = Params::new(9, PlayoutKind::Heavy);
        assert_eq!(p.expansion_visits(|| panic!("not asked when off")), 4);
        p.expand_tactical = 2;
        assert_eq!(p.expansion_visits(|| true), 2);
        assert_eq!(p.expansion_visits(|| false), 4);
        let tuning = Tuning::parse("expand_tactical=3").unwrap();
        let q = Params::tuned(9, PlayoutKind::Heavy, &tuning);
        assert_eq!(q.expansion_visits(|| true), 3);
        assert_eq!(q.expansion_visits(|| false), 4);
    }
}
