//! Which chains are dead, alive or in seki at the end of a game, and an
//! ownership estimate for any position.

use crate::board::{Bitboard, Color};
use crate::game::Game;
use crate::score::{score_game, Score};

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
}

impl Judgement {
    pub fn alive(&self, game: &Game) -> Bitboard {
        let b = game.board();
        (*b.stones(Color::Black) | *b.stones(Color::White)).and_not(&(self.dead | self.seki))
    }
}

/// Judges the position of `game`.
///
/// Placeholder until the dead-stone judgement lands: every chain alive.
pub fn judge(game: &Game, _config: &StatusConfig) -> Judgement {
    let none = Bitboard::EMPTY;
    Judgement {
        dead: none,
        seki: none,
        ownership: Vec::new(),
        score: score_game(game, &none, &none),
    }
}

/// A move for `color` that helps remove dead opposing stones, for
/// `kgs-genmove_cleanup` and for Tromp-Taylor, where dead stones must be
/// captured before passing. `None` when no dead opposing stones remain.
///
/// Placeholder until the dead-stone judgement lands.
pub fn cleanup_move(
    _game: &Game,
    _color: Color,
    _judgement: &Judgement,
) -> Option<crate::board::Move> {
    None
}
