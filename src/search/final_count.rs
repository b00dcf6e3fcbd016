//! The count of a game that two passes in the tree have ended, as ishi's
//! own `final_score` would count it: dead stones judged and removed,
//! sekis kept. Where the rules remove dead stones, a line of the tree that
//! ends with two passes was scored by a playout from the final position,
//! and a playout can break a seki that neither player would touch: one
//! side connects to a chain whose two liberties it shares with the other
//! side's, the other sacrifices into a dead shape, and the group dies. The
//! playout's first mover is the one who blunders, so the search saw a
//! pass as won when the game, ended there, was lost by the count (9x9, a
//! seki of 13 stones in the corner: the pass 0.93, the count W+10, GNU
//! Go's W+9). Each such position is judged once per search, by the same
//! judgement as `final_score` with fewer playouts, and every line reaching
//! it is scored by that count.

use super::status::{self, StatusConfig};
use super::tree::PASS;
use crate::board::{Bitboard, Board, Move, Point};
use crate::game::Game;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Mutex;

/// Positions judged at most per search on 9x9 and smaller boards: each
/// judgement costs some of the referee's playouts, and a search deep in
/// the endgame can reach many positions ended by two passes. Larger
/// boards judge fewer, with fewer playouts each (see [`FinalCounts::new`]).
pub const MAX_JUDGEMENTS: u32 = 8;

/// Ownership playouts per judgement on 9x9 and smaller boards, a quarter
/// of `final_score`'s default.
pub const JUDGEMENT_PLAYOUTS: u32 = 500;

/// The fewest judgements a search may make, and the fewest playouts one
/// may take, on any board.
const LEAST_JUDGEMENTS: u32 = 2;
const LEAST_PLAYOUTS: u32 = 100;

/// A position the tree ended with two passes, counted.
#[derive(Clone, Copy, Debug)]
pub struct FinalCount {
    /// Points of each side (stones and territory, by area) once the dead
    /// stones are off the board.
    pub black: u32,
    pub white: u32,
    /// The stones judged dead.
    pub dead: Bitboard,
}

impl FinalCount {
    /// The final position as counted: the dead stones removed.
    pub fn board(&self, board: &Board) -> Board {
        board.without(&self.dead)
    }
}

/// The counts of one search, shared by its workers.
pub struct FinalCounts<'a> {
    /// The game at the root of the tree (its history bans superko repeats
    /// in the judgement's playouts).
    game: &'a Game,
    config: StatusConfig,
    counted: Mutex<HashMap<u64, FinalCount>>,
    judged: AtomicU32,
    /// Judgements this search may make.
    limit: u32,
}

impl<'a> FinalCounts<'a> {
    /// Counts for a search from `game`, judged like `referee` but on one
    /// thread (the search's workers call it) and with fewer playouts. On a
    /// board larger than 9x9 a playout is longer and a search takes more
    /// of them, so both the judgements and their playouts shrink with the
    /// area (19x19: 2 of 112 playouts, about 25 ms each, where a
    /// 10,000-playout search takes seconds).
    pub fn new(game: &'a Game, referee: &StatusConfig) -> FinalCounts<'a> {
        let area = (game.size() * game.size()).max(1) as u32;
        let by_area = |at_9x9: u32, least: u32| (at_9x9 * 81 / area).clamp(least, at_9x9);
        FinalCounts {
            game,
            config: StatusConfig {
                playouts: referee
                    .playouts
                    .min(by_area(JUDGEMENT_PLAYOUTS, LEAST_PLAYOUTS)),
                threads: 1,
                seed: referee.seed,
            },
            counted: Mutex::new(HashMap::new()),
            judged: AtomicU32::new(0),
            limit: by_area(MAX_JUDGEMENTS, LEAST_JUDGEMENTS),
        }
    }

    /// The count of `board`, the position that the tree's `moves` (encoded
    /// as in the playout record, the last two of them passes) lead to from
    /// the root. `None` when this search has judged all it may and this
    /// position is not among them, or the moves do not replay.
    pub fn count(&self, board: &Board, moves: &[u16]) -> Option<FinalCount> {
        let key = board.hash();
        if let Some(known) = self.lock().get(&key) {
            return Some(*known);
        }
        if self.judged.fetch_add(1, Ordering::Relaxed) >= self.limit {
            self.judged.fetch_sub(1, Ordering::Relaxed);
            return None;
        }
        let game = self.replayed(moves)?;
        let judgement = status::judge(&game, &self.config);
        let (black, white) = board.without(&judgement.dead).area_counts();
        let count = FinalCount {
            black,
            white,
            dead: judgement.dead,
        };
        self.lock().insert(key, count);
        Some(count)
    }

    /// Positions judged so far.
    pub fn judged(&self) -> u32 {
        self.judged.load(Ordering::Relaxed).min(self.limit)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<u64, FinalCount>> {
        // A worker that panicked left nothing half-written: the map takes
        // whole entries only.
        self.counted.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn replayed(&self, moves: &[u16]) -> Option<Game> {
        let mut game = self.game.clone();
        for &m in moves {
            let (p, color) = super::playout::decode_move(m);
            let mv = if p == usize::from(PASS) {
                Move::Pass
            } else {
                Move::Place(Point(p))
            };
            game.play(color, mv).ok()?;
        }
        Some(game)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Color;
    use crate::rules::Rules;
    use crate::search::playout::encode_move;

    /// A settled 5x5 board: Black's wall on the B line, White's on the C
    /// line, and a lone white stone dead in Black's area at A3.
    const SETTLED: &str = "\
        . X O . .
        . X O . .
        O X O . .
        . X O . .
        . X O . .";

    fn two_passes() -> [u16; 2] {
        [
            encode_move(Color::Black, Point(0)),
            encode_move(Color::White, Point(0)),
        ]
    }

    fn game_of(diagram: &str) -> Game {
        let board = Board::from_ascii(diagram).expect("diagram");
        Game::from_position(board, Color::Black, Rules::default())
    }

    #[test]
    fn the_count_takes_the_dead_stones_off() {
        let game = game_of(SETTLED);
        let counts = FinalCounts::new(&game, &StatusConfig::default());
        let count = counts.count(game.board(), &two_passes()).expect("judged");
        let a3 = game.board().point(0, 2).expect("A3");
        assert_eq!(count.dead.iter().collect::<Vec<_>>(), vec![a3.0]);
        // Black owns the A and B lines, A3 included once its stone is off;
        // White the C, D and E lines.
        assert_eq!((count.black, count.white), (10, 15));
        assert_eq!(count.board(game.board()).color_at(a3), None);
    }

    #[test]
    fn larger_boards_judge_fewer_positions_with_fewer_playouts() {
        let referee = StatusConfig::default();
        let of = |size| {
            let game = Game::new(size, Rules::default()).expect("size");
            let counts = FinalCounts::new(&game, &referee);
            (counts.limit, counts.config.playouts)
        };
        assert_eq!(of(5), (MAX_JUDGEMENTS, JUDGEMENT_PLAYOUTS));
        assert_eq!(of(9), (MAX_JUDGEMENTS, JUDGEMENT_PLAYOUTS));
        assert_eq!(of(13), (3, 239));
        assert_eq!(of(19), (LEAST_JUDGEMENTS, 112));
    }

    #[test]
    fn each_position_is_judged_once_and_the_judgements_are_bounded() {
        let game = game_of(SETTLED);
        let counts = FinalCounts::new(&game, &StatusConfig::default());
        counts.count(game.board(), &two_passes()).expect("judged");
        counts
            .count(game.board(), &two_passes())
            .expect("looked up");
        assert_eq!(counts.judged(), 1);
        // Ten other final positions: a white stone on the D or E line
        // before the passes.
        let mut board_count = 1;
        for (x, y) in (3..5).flat_map(|x| (0..5).map(move |y| (x, y))) {
            let p = game.board().point(x, y).expect("D or E line");
            let mut moves = vec![
                encode_move(Color::Black, Point(0)),
                encode_move(Color::White, p),
            ];
            moves.extend(two_passes());
            let mut board = game.board().clone();
            board.place_unchecked(Color::White, p);
            let judged = counts.count(&board, &moves);
            board_count += 1;
            assert_eq!(
                judged.is_some(),
                board_count <= MAX_JUDGEMENTS,
                "{board_count}"
            );
        }
        assert_eq!(counts.judged(), MAX_JUDGEMENTS);
        // The judged positions are still known.
        counts
            .count(game.board(), &two_passes())
            .expect("looked up");
    }
}
