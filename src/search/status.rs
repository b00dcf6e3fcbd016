//! Which chains are dead, alive or in seki at the end of a game, and an
//! ownership estimate for any position.
//!
//! The judgement combines statistics with structure:
//! - ownership from many playouts that capture what is in atari, save what
//!   can be saved and avoid multi-stone self-atari (so that sekis and shared
//!   liberties survive them), half of them with each side moving first;
//! - Benson's test: pass-alive chains are never dead, and opposing stones in
//!   their small enclosures always are;
//! - seki: chains of both colours sharing liberties that neither side can
//!   fill without self-atari, and whose other liberties are eyes;
//! - sacrifices of two or three stones that the playouts never try: a
//!   chain they leave with one small eye after the capture is dead, not in
//!   seki;
//! - bent four in the corner, which counts as dead (Japanese rules settle it
//!   so; elsewhere the attacker can remove every ko threat first), also
//!   where it hides behind what looks like a seki in the corner.

use super::pool::{on_threads, worker_seed};
use crate::board::{Bitboard, Board, Color, Move, Point};
use crate::game::Game;
use crate::score::{score_game, Score};
use rand::rngs::SmallRng;
use rand::{RngCore, SeedableRng};

#[derive(Clone, Debug)]
pub struct StatusConfig {
    /// Playouts from the position used for ownership statistics.
    pub playouts: u32,
    pub threads: usize,
    pub seed: u64,
}

impl Default for StatusConfig {
    fn default() -> StatusConfig {
        StatusConfig {
            playouts: 2000,
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            seed: 0x15_41,
        }
    }
}

#[derive(Clone, Debug)]
pub struct Judgement {
    /// Stones of dead chains.
    pub dead: Bitboard,
    /// Stones of chains in seki.
    pub seki: Bitboard,
    /// Per point, row by row from the top left, -1 (White) .. 1 (Black).
    pub ownership: Vec<f64>,
    /// The score with the dead stones removed, under the game's rules.
    pub score: Score,
    /// Mean playout result, Black's points minus White's (area, komi
    /// included): the expected lead when the position is not finished.
    pub score_lead: f64,
}

impl Judgement {
    pub fn alive(&self, game: &Game) -> Bitboard {
        let b = game.board();
        b.occupied().and_not(&(self.dead | self.seki))
    }

    /// Ownership of a point, -1 (White) .. 1 (Black).
    pub fn owner_at(&self, board: &Board, p: Point) -> f64 {
        let (x, y) = board.xy(p);
        let n = board.size();
        self.ownership
            .get((n - 1 - y) * n + x)
            .copied()
            .unwrap_or(0.0)
    }
}

/// Judges the finished position of `game`: dead and seki chains, ownership,
/// and the score under the game's rules.
pub fn judge(game: &Game, config: &StatusConfig) -> Judgement {
    let board = game.board();
    let tally = sample_ownership(game, config);
    let own = tally.ownership_by_index(board);

    let alive_black = board.pass_alive(Color::Black);
    let alive_white = board.pass_alive(Color::White);
    let pass_alive = alive_black.chains | alive_white.chains;
    let surely_dead = (alive_black.territory & *board.stones(Color::White))
        | (alive_white.territory & *board.stones(Color::Black));

    let mut dead = Bitboard::EMPTY;
    for head in board.chains() {
        let Some(c) = board.color_at(head) else {
            continue;
        };
        let stones = board.chain_stones(head);
        if pass_alive.intersects(&stones) {
            continue;
        }
        let sign = if c == Color::Black { 1.0 } else { -1.0 };
        let mean = stones.iter().map(|i| sign * own[i]).sum::<f64>() / stones.count() as f64;
        if mean < 0.0 || surely_dead.intersects(&stones) {
            dead |= stones;
        }
    }
    let (settled_dead, settled_alive) = bent_fours_in_corners(board);
    let (hidden_dead, hidden_alive) = bent_fours_behind_sekis(board);
    let bent_four_dead = settled_dead | hidden_dead;
    let bent_four_alive = settled_alive | hidden_alive;
    dead = (dead | bent_four_dead).and_not(&bent_four_alive);
    // The playouts never sacrifice more than one stone, so they miss these.
    dead = with_sacrifices_given(board, dead, &pass_alive);

    let seki = seki_chains(board, &dead, &pass_alive).and_not(&(bent_four_dead | bent_four_alive));
    dead = dead.and_not(&seki);

    Judgement {
        dead,
        seki,
        ownership: tally.ownership_rows(board),
        score: score_game(game, &dead, &seki),
        score_lead: tally.mean_margin(game),
    }
}

/// `dead` (judged from playouts) corrected by what the structure shows
/// about sacrifices the playouts never try ([`killed_by_sacrifice`]),
/// given the pass-alive chains.
fn with_sacrifices_given(board: &Board, dead: Bitboard, pass_alive: &Bitboard) -> Bitboard {
    let (sacrifice_dead, sacrifice_alive) = killed_by_sacrifice(board, pass_alive, &dead);
    (dead | sacrifice_dead).and_not(&sacrifice_alive)
}

/// The same judgement for a position in mid-game: ownership and expected
/// lead are the useful parts there (analysis), the dead stones a guess.
pub fn estimate(game: &Game, config: &StatusConfig) -> Judgement {
    judge(game, config)
}

/// A move for `color` that helps remove dead opposing stones, for
/// `kgs-genmove_cleanup` and for Tromp-Taylor, where dead stones must be
/// captured before passing. `None` when no dead opposing stones remain.
///
/// Fills a liberty of a dead opposing chain, preferring captures, then
/// liberties where the new stone is not itself in atari and that are not
/// the mover's own eyes; any legal liberty will do as a last resort.
pub fn cleanup_move(game: &Game, color: Color, judgement: &Judgement) -> Option<Move> {
    let board = game.board();
    let dead_opponents = judgement.dead & *board.stones(color.opponent());
    if dead_opponents.is_empty() {
        return None;
    }
    let stride = board.stride();
    let empty = board.empty_points();
    let liberties = dead_opponents.neighbours(stride) & empty;
    let legal = |p: Point| game.is_legal(color, Move::Place(p));

    // Captures first: a dead chain in atari.
    let mut best: Option<(u32, Point)> = None;
    for p in liberties.iter().map(Point) {
        if !legal(p) {
            continue;
        }
        let rank = if board.predict(color, p).is_ok_and(|pr| pr.captures > 0) {
            0
        } else if board.is_eye_like(color, p) {
            3
        } else if self_atari_size(board, color, p).is_some() {
            2
        } else {
            1
        };
        if best.is_none_or(|(r, _)| rank < r) {
            best = Some((rank, p));
        }
    }
    if let Some((_, p)) = best {
        return Some(Move::Place(p));
    }
    // No liberty is playable (e.g. all are opposing eyes): approach from the
    // empty region around the dead stones instead.
    let region = liberties.flood_fill(&empty, stride);
    region
        .iter()
        .map(Point)
        .filter(|&p| {
            legal(p) && !board.is_eye_like(color, p) && self_atari_size(board, color, p).is_none()
        })
        .map(Move::Place)
        .next()
}

// ---- ownership playouts ------------------------------------------------------

struct Tally {
    playouts: u32,
    /// Per padded point index: playouts ending with the point Black's, White's.
    black: Vec<u32>,
    white: Vec<u32>,
    /// Sum of area margins (Black minus White, komi not included).
    margin: f64,
}

impl Tally {
    fn new(len: usize) -> Tally {
        Tally {
            playouts: 0,
            black: vec![0; len],
            white: vec![0; len],
            margin: 0.0,
        }
    }

    fn add(&mut self, other: &Tally) {
        self.playouts += other.playouts;
        for (a, b) in self.black.iter_mut().zip(&other.black) {
            *a += b;
        }
        for (a, b) in self.white.iter_mut().zip(&other.white) {
            *a += b;
        }
        self.margin += other.margin;
    }

    fn ownership_by_index(&self, board: &Board) -> Vec<f64> {
        let n = self.playouts.max(1) as f64;
        let mut own = vec![0.0; self.black.len()];
        for p in board.points() {
            own[p.0] = (self.black[p.0] as f64 - self.white[p.0] as f64) / n;
        }
        own
    }

    fn ownership_rows(&self, board: &Board) -> Vec<f64> {
        let by_index = self.ownership_by_index(board);
        let n = board.size();
        let mut rows = Vec::with_capacity(n * n);
        for y in (0..n).rev() {
            for x in 0..n {
                let v = board.point(x, y).map_or(0.0, |p| by_index[p.0]);
                rows.push(v);
            }
        }
        rows
    }

    fn mean_margin(&self, game: &Game) -> f64 {
        self.margin / self.playouts.max(1) as f64 - game.rules().komi
    }
}

/// Points where `color` may place a stone on the bare board but not in the
/// game: the ko and superko bans, which a playout respects on its first move
/// (a retake the history forbids would otherwise decide a ko at once).
fn banned_by_history(game: &Game, color: Color) -> Bitboard {
    let board = game.board();
    let mut banned = Bitboard::EMPTY;
    for &p in board.empties() {
        let p = Point(usize::from(p));
        if board.is_legal_no_suicide(color, p) && !game.is_legal(color, Move::Place(p)) {
            banned.set(p.0);
        }
    }
    banned
}

fn sample_ownership(game: &Game, config: &StatusConfig) -> Tally {
    let board = game.board();
    let to_move = game.to_move();
    let banned = [
        banned_by_history(game, Color::Black),
        banned_by_history(game, Color::White),
    ];
    let banned = &banned;
    let threads = config.threads.max(1);
    let total = config.playouts.max(1);
    let len = board.stride() * (board.size() + 2) + 1;
    let mut tally = Tally::new(len);
    let parts = on_threads(threads, |t| {
        let share = total / threads as u32 + u32::from((t as u32) < total % threads as u32);
        let mut rng = SmallRng::seed_from_u64(worker_seed(config.seed, t));
        let mut mine = Tally::new(len);
        for k in 0..share {
            // Half the playouts with each side first: a final position
            // belongs to neither player's turn.
            let first = if (k + t as u32).is_multiple_of(2) {
                to_move
            } else {
                to_move.opponent()
            };
            let mut b = board.clone();
            status_playout(&mut b, first, &banned[first.index()], &mut rng);
            let black = *b.stones(Color::Black) | b.area_territory(Color::Black);
            let white = *b.stones(Color::White) | b.area_territory(Color::White);
            for i in black.iter() {
                mine.black[i] += 1;
            }
            for i in white.iter() {
                mine.white[i] += 1;
            }
            mine.margin += black.count() as f64 - white.count() as f64;
            mine.playouts += 1;
        }
        mine
    });
    for part in &parts {
        tally.add(part);
    }
    tally
}

/// When placing `color` at `p` leaves the new chain with one liberty and
/// captures nothing: the size of that chain.
fn self_atari_size(board: &Board, color: Color, p: Point) -> Option<u32> {
    let mut empty_neighbours = 0;
    for q in board.neighbours(p) {
        if board.is_empty_at(Point(q)) {
            empty_neighbours += 1;
        }
    }
    if empty_neighbours >= 2 {
        return None;
    }
    let prediction = board.predict(color, p).ok()?;
    if prediction.captures > 0 {
        return None;
    }
    let (size, liberties) = chain_after(board, color, p);
    (liberties.count() <= 1).then_some(size)
}

/// The size and liberties of the chain `color` would form at `p`, ignoring
/// captures.
fn chain_after(board: &Board, color: Color, p: Point) -> (u32, Bitboard) {
    let stride = board.stride();
    let mut liberties = Bitboard::single(p.0).neighbours(stride) & board.empty_points();
    let mut size = 1;
    let mut counted: [usize; 4] = [usize::MAX; 4];
    for (k, q) in board.neighbours(p).into_iter().enumerate() {
        if board.color_at(Point(q)) == Some(color) {
            let id = board.chain_id(Point(q));
            if !counted.contains(&id) {
                counted[k] = id;
                size += board.chain_len(Point(q));
                liberties |= board.chain_liberties(Point(q));
            }
        }
    }
    liberties.clear(p.0);
    (size, liberties)
}

/// When `color` at `p`, a self-atari of at most three stones, is a
/// sacrifice that kills, the point where the opponent captures it: after
/// the capture the capturing chain has no liberties but the captured
/// points, one eye too small to make two (a snapback when it is a single
/// point). Without this test a chain whose two liberties it shares with a
/// small opposing group inside its eye space passes for a seki.
fn killing_sacrifice(board: &Board, color: Color, p: Point) -> Option<Point> {
    // Cheap necessary conditions before copying the board: the capture
    // point has no empty neighbour but `p`, and the opposing chains around
    // it no liberty but `p` and itself.
    let (size, liberties) = chain_after(board, color, p);
    let mut only = liberties.iter().map(Point);
    let (Some(capture_at), None) = (only.next(), only.next()) else {
        return None;
    };
    let mut allowed = Bitboard::single(p.0);
    allowed.set(capture_at.0);
    let opponent = color.opponent();
    let closed = board.neighbours(capture_at).into_iter().all(|q| {
        let q = Point(q);
        match board.color_at(q) {
            None => q == p || !board.is_empty_at(q),
            Some(c) if c == opponent => board.chain_liberties(q).and_not(&allowed).is_empty(),
            Some(_) => true,
        }
    });
    if size > 3 || !closed {
        return None;
    }
    let mut b = board.clone();
    b.place_unchecked(color, p);
    let sacrificed = b.chain_stones(p);
    if b.atari_liberty(p) != Some(capture_at) || !b.is_legal_no_suicide(opponent, capture_at) {
        return None;
    }
    if b.sacrifice_spares_the_walls(&sacrificed, opponent, capture_at) {
        return None;
    }
    b.place_unchecked(opponent, capture_at);
    let eye = b.chain_liberties(capture_at);
    // A lone capturer in a one-point eye could retake as a ko: not a kill.
    let ko = eye.count() == 1 && b.chain_len(capture_at) == 1;
    (!eye.is_empty() && eye.and_not(&sacrificed).is_empty() && !ko).then_some(capture_at)
}

/// A reply to the last move: capture an opposing chain it left in atari, or
/// save an own chain it put in atari, by taking an opposing chain in atari
/// next to it or by extending to two liberties. A capture or save that
/// leaves a chain of two or more stones in atari is no reply: the opponent
/// takes it back with more.
fn tactical_reply(board: &Board, color: Color, last: Point) -> Option<Point> {
    let sound = |p: Point| {
        board.is_legal_no_suicide(color, p) && !leaves_own_chain_in_atari(board, color, p)
    };
    let mut save = None;
    let mut escapes = Vec::new();
    for q in board.neighbours(last).into_iter().chain([last.0]) {
        let q = Point(q);
        let Some(c) = board.color_at(q) else {
            continue;
        };
        let Some(lib) = board.atari_liberty(q) else {
            continue;
        };
        if c != color {
            if sound(lib) {
                return Some(lib);
            }
            continue;
        }
        if save.is_some() {
            continue;
        }
        escapes.clear();
        board.capturing_escapes(q, &mut escapes);
        save = escapes.iter().copied().find(|&e| sound(e)).or_else(|| {
            (sound(lib) && self_atari_size(board, color, lib).is_none()).then_some(lib)
        });
    }
    save
}

/// Whether `color` at `p` leaves its own chain of two or more stones there
/// with a single liberty (a lone stone that captures may be a ko, which is
/// left to the playouts).
fn leaves_own_chain_in_atari(board: &Board, color: Color, p: Point) -> bool {
    // `move_shape` counts no liberty a capture frees away from `p`, so two
    // liberties there are at least two; only the rest needs the real move.
    let shape = board.move_shape(color, p, 2);
    if shape.chain_len < 2 || shape.liberties >= 2 {
        return false;
    }
    let mut after = board.clone();
    after.place_unchecked(color, p);
    after.atari_liberty(p).is_some()
}

/// A random legal move that fills no eye and puts no chain of two or more
/// stones in atari; a lone stone in atari (throw-in, nakade) is played only
/// half the times it comes up.
fn random_status_move(
    board: &Board,
    color: Color,
    banned: &Bitboard,
    rng: &mut SmallRng,
) -> Option<Point> {
    let draw = rng.next_u32();
    crate::search::playout::scan_empties(board, draw, |p| {
        if board.is_eye_like(color, p)
            || banned.contains(p.0)
            || !board.is_legal_no_suicide(color, p)
        {
            return false;
        }
        match self_atari_size(board, color, p) {
            None => true,
            Some(1) => rng.next_u32() & 1 == 0,
            Some(_) => false,
        }
    })
}

/// Plies at the start of a status playout in which an inescapable atari
/// ([`inescapable_atari`]) comes before any random move: each side's first.
/// A dead chain with one eye and a liberty it shares with a safe opposing
/// chain is killed by filling that liberty; at random, both sides often
/// filled the other liberties first, until the fill was a self-atari and
/// the chain passed for a seki. Taken at every ply, such ataris also
/// killed living 19x19 groups once random moves had torn the board open
/// (the self-play corpus of tests/scoring_corpus.rs fell from 99.1% to
/// 97.3% of winners), so only the finished position's own kills come first.
const KILLS_FIRST_PLIES: usize = 2;

/// A move that puts an opposing chain of two or more stones in an atari
/// it cannot escape (no capture frees it, extending leaves it in atari),
/// without leaving the attacker's own chain in atari.
fn inescapable_atari(board: &Board, color: Color, banned: &Bitboard, draw: u32) -> Option<Point> {
    let opponent = color.opponent();
    crate::search::playout::scan_empties(board, draw, |p| {
        let targets = board.neighbours(p).into_iter().map(Point).filter(|&q| {
            board.color_at(q) == Some(opponent)
                && board.chain_len(q) >= 2
                && board.two_liberties(q).is_some()
        });
        let mut targets = targets.peekable();
        if targets.peek().is_none()
            || banned.contains(p.0)
            || !board.is_legal_no_suicide(color, p)
            || self_atari_size(board, color, p).is_some()
        {
            return false;
        }
        let mut after = board.clone();
        after.place_unchecked(color, p);
        targets.any(|q| {
            let Some(last) = after.atari_liberty(q) else {
                return false;
            };
            let mut escapes = Vec::new();
            after.capturing_escapes(q, &mut escapes);
            escapes.is_empty()
                && (!after.is_legal_no_suicide(opponent, last)
                    || self_atari_size(&after, opponent, last).is_some())
        })
    })
}

/// `first_banned`: points the game's history forbids to the first mover.
fn status_playout(
    board: &mut Board,
    mut to_move: Color,
    first_banned: &Bitboard,
    rng: &mut SmallRng,
) {
    let limit = 3 * board.size() * board.size();
    let mut passes = 0;
    let mut last: Option<Point> = None;
    let mut banned = first_banned;
    for ply in 0..limit {
        let reply = last.and_then(|p| tactical_reply(board, to_move, p));
        let choice = reply
            .or_else(|| {
                (ply < KILLS_FIRST_PLIES)
                    .then(|| inescapable_atari(board, to_move, banned, rng.next_u32()))
                    .flatten()
            })
            .or_else(|| random_status_move(board, to_move, banned, rng));
        banned = &Bitboard::EMPTY;
        last = choice;
        if crate::search::playout::play_or_pass(board, to_move, choice, &mut passes) {
            break;
        }
        to_move = to_move.opponent();
    }
}

// ---- structure -------------------------------------------------------------

/// Whether `color` can play at `p` without the new chain being left in
/// atari (or without liberties) and without capturing, or as a sacrifice
/// that kills: "approaching".
fn can_approach(board: &Board, color: Color, p: Point) -> bool {
    board.is_legal_no_suicide(color, p)
        && match self_atari_size(board, color, p) {
            None => true,
            Some(n) => n <= 3 && killing_sacrifice(board, color, p).is_some(),
        }
}

/// Chains a sacrifice kills however they play: at a liberty `p` they share
/// with opposing stones inside their eye space, the opponent has a self-atari
/// of two or three stones that leaves them, once they capture, with one
/// small eye ([`killing_sacrifice`]), while they can fill neither `p` nor
/// the capture point themselves without self-atari. Returns those chains
/// and the sacrificer's stones next to `p` and the capture point, which
/// live once the chains are taken. Chains that border other opposing
/// stones judged `dead` are spared: taking those gives them room for the
/// second eye (the race is theirs to win).
fn killed_by_sacrifice(
    board: &Board,
    pass_alive: &Bitboard,
    dead: &Bitboard,
) -> (Bitboard, Bitboard) {
    let stride = board.stride();
    let shared = shared_points(board);
    let mut killed = Bitboard::EMPTY;
    let mut alive = Bitboard::EMPTY;
    for p in shared.iter().map(Point) {
        for c in [Color::Black, Color::White] {
            if !board.is_legal_no_suicide(c, p)
                || !matches!(self_atari_size(board, c, p), Some(2 | 3))
            {
                continue;
            }
            let Some(capture_at) = killing_sacrifice(board, c, p) else {
                continue;
            };
            let owner = c.opponent();
            let victims = board.chains_next_to(&Bitboard::single(capture_at.0), owner);
            let stuck = [p, capture_at]
                .iter()
                .all(|&q| !can_approach(board, owner, q));
            if victims.is_empty() || victims.intersects(pass_alive) || !stuck {
                continue;
            }
            let both = Bitboard::single(p.0) | Bitboard::single(capture_at.0);
            let sacrificers = board.chains_next_to(&both, c);
            let prey =
                (victims.neighbours(stride) & *dead & *board.stones(c)).and_not(&sacrificers);
            if !prey.is_empty() {
                continue;
            }
            killed |= victims;
            alive |= sacrificers;
        }
    }
    (killed, alive)
}

/// Chains in seki: after taking off the chains judged dead, an empty point
/// touching both colours that neither side can fill safely is a shared
/// liberty; the chains around it are in seki when each of their other
/// liberties is safe from the opponent too (an eye, or another shared
/// liberty).
fn seki_chains(board: &Board, dead: &Bitboard, pass_alive: &Bitboard) -> Bitboard {
    // Chains judged dead may only be dead because the playouts broke a seki
    // they are part of; look at the literal board first, then at the board
    // without the dead chains, and keep what the structure supports. Dead
    // chains that touch no point both colours touch are part of no seki,
    // and taking them may give a seki-looking chain the liberties to win:
    // they go even from the first look, unless they are in atari (a ko).
    let stride = board.stride();
    let shared = shared_points(board);
    let apart: Bitboard = board
        .chains()
        .into_iter()
        .filter(|&p| dead.contains(p.0) && !board.in_atari(p))
        .map(|p| board.chain_stones(p))
        .filter(|stones| !stones.neighbours(stride).intersects(&shared))
        .fold(Bitboard::EMPTY, |all, stones| all | stones);
    let mut seki = seki_on(&board.without(&apart), pass_alive);
    let live = board.without(dead);
    seki |= seki_on(&live, pass_alive);
    seki
}

/// Empty points next to stones of both colours.
fn shared_points(board: &Board) -> Bitboard {
    let stride = board.stride();
    board.empty_points()
        & board.stones(Color::Black).neighbours(stride)
        & board.stones(Color::White).neighbours(stride)
}

fn seki_on(board: &Board, pass_alive: &Bitboard) -> Bitboard {
    let shared = shared_points(board);
    let mut seki_points = Bitboard::EMPTY;
    for p in shared.iter().map(Point) {
        if stuck(board, Color::Black, p) && stuck(board, Color::White, p) {
            seki_points.set(p.0);
        }
    }
    if seki_points.is_empty() {
        return Bitboard::EMPTY;
    }
    let mut seki = Bitboard::EMPTY;
    for p in seki_points.iter().map(Point) {
        let mut around = [Bitboard::EMPTY; 2];
        for q in board.neighbours(p) {
            let q = Point(q);
            let Some(c) = board.color_at(q) else {
                continue;
            };
            let stones = board.chain_stones(q);
            if pass_alive.intersects(&stones) {
                continue;
            }
            // A chain next to an opposing chain in atari, or with a liberty
            // where it takes one, gains liberties by taking it: no seki
            // holds it (dead stones left on the board in atari, say).
            let liberties = board.chain_liberties(q);
            let holds = !touches_a_chain_in_atari(board, &(stones | liberties), c)
                && liberties
                    .iter()
                    .map(Point)
                    .all(|l| seki_points.contains(l.0) || stuck(board, c.opponent(), l));
            if holds {
                around[c.index()] |= stones;
            }
        }
        if !around[0].is_empty() && !around[1].is_empty() {
            seki |= around[0] | around[1];
        }
    }
    seki
}

/// `c` can approach `p` neither now nor after a move or two of its own.
fn stuck(board: &Board, c: Color, p: Point) -> bool {
    !can_approach(board, c, p) && !approaches_after_moves(board, c, p, 2)
}

/// Whether `c` can play `p` safely after one move of its own, or after
/// up to `moves` when the earlier ones only join its chains or take
/// stones: a chain of `c` next to `p` fills another of its liberties
/// without self-atari (an extension outwards, or a false eye that joins it
/// to more of its own stones) or takes an opposing chain in atari, and
/// then `p` is no self-atari. Such a point only looks shared.
fn approaches_after_moves(board: &Board, c: Color, p: Point, moves: u32) -> bool {
    let mut tried = Bitboard::single(p.0);
    for q in board.neighbours(p).into_iter().map(Point) {
        if board.color_at(q) != Some(c) {
            continue;
        }
        // Its liberties, and where it takes an opposing chain in atari.
        let mut takes = Vec::new();
        board.capturing_escapes(q, &mut takes);
        let captures = takes.iter().fold(Bitboard::EMPTY, |mut all, l| {
            all.set(l.0);
            all
        });
        let candidates = (board.chain_liberties(q) | captures).and_not(&tried);
        tried |= candidates;
        for l in candidates.iter().map(Point) {
            if !board.is_legal_no_suicide(c, l) || self_atari_size(board, c, l).is_some() {
                continue;
            }
            let joining = captures.contains(l.0) || board.enclosed_by(&Bitboard::single(l.0), c);
            let mut b = board.clone();
            b.place_unchecked(c, l);
            if can_approach(&b, c, p)
                || (joining && moves > 1 && approaches_after_moves(&b, c, p, moves - 1))
            {
                return true;
            }
        }
    }
    false
}

/// Some chain of `c`'s opponent next to `stones` is in atari.
fn touches_a_chain_in_atari(board: &Board, stones: &Bitboard, c: Color) -> bool {
    let next = stones.neighbours(board.stride()) & *board.stones(c.opponent());
    next.iter().any(|q| board.in_atari(Point(q)))
}

/// The four corners, each as whether x and y count from the far edge.
const CORNERS: [(bool, bool); 4] = [(false, false), (true, false), (false, true), (true, true)];

/// The point `dx` along one edge and `dy` along the other from `corner`.
fn from_corner(
    board: &Board,
    (flip_x, flip_y): (bool, bool),
    dx: usize,
    dy: usize,
) -> Option<Point> {
    let last = board.size() - 1;
    let x = if flip_x { last.checked_sub(dx)? } else { dx };
    let y = if flip_y { last.checked_sub(dy)? } else { dy };
    board.point(x, y).ok()
}

/// The four points of a bent-four eye space in a corner: three along one
/// edge from the corner and the one next to the corner on the other edge.
fn is_bent_four_in_a_corner(board: &Board, space: &Bitboard) -> bool {
    if space.count() != 4 || board.size() < 5 {
        return false;
    }
    CORNERS.into_iter().any(|corner| {
        let shape = |cells: [(usize, usize); 4]| {
            cells.iter().all(|&(dx, dy)| {
                from_corner(board, corner, dx, dy).is_some_and(|p| space.contains(p.0))
            })
        };
        shape([(0, 0), (1, 0), (2, 0), (0, 1)]) || shape([(0, 0), (0, 1), (0, 2), (1, 0)])
    })
}

/// Bent four in the corner behind what looks like a seki: an attacking
/// chain in the corner shares its two liberties with the chains around
/// it, and filling one of them puts it in atari so that the capture
/// leaves the defender a bent-four eye space in the corner and nothing
/// else. The defender cannot fill either liberty without being captured,
/// and the attacker can make the sacrifice and start the ko whenever no
/// ko threats are left, so as with the settled shape the defender is dead
/// and the attacker alive. (From a game against GNU Go, seed 22491: three
/// black stones from the corner along the top edge, their liberties the
/// fourth point of the edge and the point below the corner; ishi called it
/// a seki and passed at W+4 where GNU Go counted B+12.) Returns (dead,
/// alive).
fn bent_fours_behind_sekis(board: &Board) -> (Bitboard, Bitboard) {
    let mut dead = Bitboard::EMPTY;
    let mut alive = Bitboard::EMPTY;
    if board.size() < 5 {
        return (dead, alive);
    }
    let mut corners = Bitboard::EMPTY;
    for p in CORNERS
        .into_iter()
        .filter_map(|corner| from_corner(board, corner, 0, 0))
    {
        corners.set(p.0);
    }
    for head in board.chains() {
        let Some(attacker) = board.color_at(head) else {
            continue;
        };
        if board.chain_len(head) > 3 {
            continue;
        }
        let Some([a, b]) = board.two_liberties(head) else {
            continue;
        };
        let chain = board.chain_stones(head);
        let mut reach = chain;
        reach.set(a.0);
        reach.set(b.0);
        if !reach.intersects(&corners) {
            continue;
        }
        let defender = attacker.opponent();
        for (fill, capture) in [(a, b), (b, a)] {
            let mut after = board.clone();
            if after.place(attacker, fill, false).is_err()
                || after.chain_len(fill) != 4
                || after.atari_liberty(fill) != Some(capture)
            {
                continue;
            }
            let space = after.chain_stones(fill);
            if after.place(defender, capture, false).is_err()
                || !is_bent_four_in_a_corner(&after, &space)
            {
                continue;
            }
            let walls = after.chains_next_to(&space, defender);
            let outside = (walls.neighbours(after.stride()) & after.empty_points()).and_not(&space);
            if after.enclosed_by(&space, defender) && outside.is_empty() {
                dead |= walls & *board.stones(defender);
                alive |= chain;
            }
        }
    }
    (dead, alive)
}

/// Bent four in the corner: a chain whose only liberties are the two empty
/// points of an L-shaped eye space in the corner, the other points of which
/// hold two opposing stones. The defender cannot play inside (it would leave
/// a dead three-point shape) and the attacker can fill the outside and start
/// a ko whenever no ko threats are left, so the chain is dead and the two
/// attacking stones inside are alive. An empty bent-four eye space is not
/// this: whoever plays its vital point first decides it. Returns (dead, alive).
fn bent_fours_in_corners(board: &Board) -> (Bitboard, Bitboard) {
    let mut dead = Bitboard::EMPTY;
    let mut alive = Bitboard::EMPTY;
    if board.size() < 5 {
        return (dead, alive);
    }
    for corner in CORNERS {
        let at = |dx: usize, dy: usize| from_corner(board, corner, dx, dy);
        let Some(inner) = at(1, 1) else {
            continue;
        };
        let Some(defender) = board.color_at(inner) else {
            continue;
        };
        let attacker = defender.opponent();
        let liberties = board.chain_liberties(inner);
        let is = |p: Option<Point>, c: Option<Color>| p.is_some_and(|p| board.color_at(p) == c);
        let points = |list: &[(usize, usize)]| -> Bitboard {
            let mut b = Bitboard::EMPTY;
            for &(dx, dy) in list {
                if let Some(p) = at(dx, dy) {
                    b.set(p.0);
                }
            }
            b
        };

        // The shape is symmetric under swapping the edges, so the four
        // mirror images cover every orientation.
        let bent_four = is(at(0, 0), None)
            && is(at(2, 0), None)
            && is(at(0, 2), None)
            && is(at(1, 0), Some(attacker))
            && is(at(0, 1), Some(attacker))
            && liberties == points(&[(2, 0), (0, 2)]);
        if bent_four {
            dead |= board.chain_stones(inner);
            for (dx, dy) in [(1, 0), (0, 1)] {
                if let Some(p) = at(dx, dy) {
                    alive |= board.chain_stones(p);
                }
            }
        }
    }
    (dead, alive)
}
