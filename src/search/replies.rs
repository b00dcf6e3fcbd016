//! Last good replies with forgetting (Drake 2009, Baier and Drake 2010):
//! the playouts remember, for each move, the answer that the side that went
//! on to win gave it, and play that answer again when the move recurs. An
//! answer that the loser gave is forgotten. Over one search the tables
//! pick up the local fights the fixed policy misplays, at the cost of a
//! table lookup per move.

use super::playout::decode_move as decode;
use crate::board::{Color, Point};

/// No reply stored.
const NONE: u16 = u16::MAX;

/// One worker's reply tables: to the opponent's last move (level 1), and
/// to the last two moves (level 2), for each colour to move.
#[derive(Default)]
pub struct Replies {
    /// Cells of the board the tables were made for (points are below it).
    cells: usize,
    to_last: Vec<u16>,
    to_last_two: Vec<u16>,
}

/// Stores `answer` in `slot` when its side won; when it lost, forgets it
/// if it is what the slot holds.
#[inline]
fn remember(slot: &mut u16, answer: u16, won: bool) {
    if won {
        *slot = answer;
    } else if *slot == answer {
        *slot = NONE;
    }
}

impl Replies {
    /// Empties the tables, sized for a board of `cells` cells, when they
    /// were made for another size.
    pub fn fit(&mut self, cells: usize, two_moves: bool) {
        if self.cells != cells {
            self.cells = cells;
            self.to_last = vec![NONE; 2 * cells];
            self.to_last_two.clear();
        }
        if two_moves && self.to_last_two.is_empty() {
            self.to_last_two = vec![NONE; 2 * cells * cells];
        }
    }

    fn slot_one(&self, c: Color, last: usize) -> usize {
        c.index() * self.cells + last
    }

    fn slot_two(&self, c: Color, before: usize, last: usize) -> usize {
        (c.index() * self.cells + before) * self.cells + last
    }

    /// The stored answer for `c` to the end of `moves`: to the last two
    /// moves when that table is kept and has one, else to the last move.
    /// Only placements count, and the last one must be the opponent's.
    pub fn reply(&self, c: Color, moves: &[u16]) -> Option<Point> {
        let (&last, earlier) = moves.split_last()?;
        let (last, by) = decode(last);
        if last == 0 || by == c || last >= self.cells {
            return None;
        }
        if !self.to_last_two.is_empty() {
            if let Some(&before) = earlier.last() {
                let (before, by) = decode(before);
                if before != 0 && by == c {
                    let r = self.to_last_two[self.slot_two(c, before, last)];
                    if r != NONE {
                        return Some(Point(r as usize));
                    }
                }
            }
        }
        let r = self.to_last[self.slot_one(c, last)];
        (r != NONE).then_some(Point(r as usize))
    }

    /// Learns from one finished playout's moves (tree and playout alike):
    /// every answer `winner` gave is stored, every answer the loser gave is
    /// forgotten where it was stored. A drawn game (`None`) teaches nothing.
    pub fn learn(&mut self, moves: &[u16], winner: Option<Color>) {
        let Some(winner) = winner else {
            return;
        };
        let two = !self.to_last_two.is_empty();
        for (k, pair) in moves.windows(2).enumerate() {
            let (last, by) = decode(pair[0]);
            let (answer, c) = decode(pair[1]);
            if last == 0 || answer == 0 || by == c || last >= self.cells {
                continue;
            }
            let before = k
                .checked_sub(1)
                .map(|i| decode(moves[i]))
                .filter(|&(p, b)| p != 0 && b == c)
                .map(|(p, _)| p);
            let one = self.slot_one(c, last);
            let two_slot = before.filter(|_| two).map(|b| self.slot_two(c, b, last));
            let won = c == winner;
            remember(&mut self.to_last[one], answer as u16, won);
            if let Some(s) = two_slot {
                remember(&mut self.to_last_two[s], answer as u16, won);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::playout::encode_move;

    fn black(p: usize) -> u16 {
        encode_move(Color::Black, Point(p))
    }
    fn white(p: usize) -> u16 {
        encode_move(Color::White, Point(p))
    }

    #[test]
    fn the_winners_answer_is_remembered_and_the_losers_forgotten() {
        let mut r = Replies::default();
        r.fit(100, false);
        // Black 11, White 12, Black 13: White won, so 12 answers 11.
        r.learn(&[black(11), white(12), black(13)], Some(Color::White));
        assert_eq!(r.reply(Color::White, &[black(11)]), Some(Point(12)));
        // Black's answer 13 to 12 lost: nothing stored for Black.
        assert_eq!(r.reply(Color::Black, &[white(12)]), None);
        // The same answer in a lost game is forgotten.
        r.learn(&[black(11), white(12)], Some(Color::Black));
        assert_eq!(r.reply(Color::White, &[black(11)]), None);
        // A draw teaches nothing.
        r.learn(&[black(11), white(12)], None);
        assert_eq!(r.reply(Color::White, &[black(11)]), None);
    }

    #[test]
    fn a_reply_to_two_moves_comes_before_the_reply_to_one() {
        let mut r = Replies::default();
        r.fit(100, true);
        r.learn(&[white(20), black(11), white(12)], Some(Color::White));
        r.learn(&[white(30), black(11), white(14)], Some(Color::White));
        // To 11 alone the latest win answered 14; after 20, 11 it was 12.
        assert_eq!(r.reply(Color::White, &[black(11)]), Some(Point(14)));
        assert_eq!(
            r.reply(Color::White, &[white(20), black(11)]),
            Some(Point(12))
        );
        // Not after a pass (the tree records it as point 0), nor to one's own move.
        assert_eq!(r.reply(Color::White, &[black(11), white(0)]), None);
        assert_eq!(r.reply(Color::Black, &[black(11)]), None);
    }
}
