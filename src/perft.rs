//! Perft: counting move sequences from the empty board pins the rules down
//! on tiny boards, where a naive implementation can check every count.

use crate::board::CoordError;
use crate::game::Game;
use crate::rules::Rules;

/// Counts of move sequences of length 1..=depth. A pass is a move; two
/// passes in a row end the game, and a finished game has no children.
pub fn perft(size: usize, rules: Rules, depth: u32) -> Result<Vec<u64>, CoordError> {
    let mut game = Game::new(size, rules)?;
    let mut counts = vec![0u64; depth as usize];
    walk(&mut game, 0, &mut counts);
    Ok(counts)
}

fn walk(game: &mut Game, ply: usize, counts: &mut [u64]) {
    if ply == counts.len() || game.is_over() {
        return;
    }
    let color = game.to_move();
    for mv in game.legal_moves(color) {
        counts[ply] += 1;
        if ply + 1 < counts.len() {
            game.play(color, mv)
                .expect("legal_moves only lists legal moves");
            walk(game, ply + 1, counts);
            game.undo();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn three_by_three_tromp_taylor() {
        let r = Rules::preset("tromp-taylor").unwrap();
        assert_eq!(perft(3, r, 3).unwrap(), vec![10, 91, 738]);
    }
}
