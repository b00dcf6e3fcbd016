//! An opening book: for the first moves of a game, the move a search far
//! deeper than a game's allows chose in the same position.
//!
//! A 5,000-playout search of an opening position sees dozens of moves
//! within a few hundredths of each other and picks among them by the luck
//! of its playouts; against GNU Go, 50,000 playouts for ishi's first six
//! moves won more games than 5,000 (RESEARCH.md, Opening book). The book keeps
//! those deeper choices, searched once, offline, by
//! `examples/build_book.rs`.
//!
//! Each line of a book file is one position, given by the moves that led
//! to it from the empty board, then `>`, the move chosen and its win rate:
//!
//! ```text
//! E5 F6 > D4 0.512
//! ```
//!
//! A position is found under any of the board's eight symmetries, so a
//! book holds each position once. It answers only for the game it was
//! searched for: its board size, komi and area scoring, no handicap, no
//! setup stones and no passes.

use crate::board::{Board, Color, Move};
use crate::game::Game;
use crate::rules::{Rules, ScoringRule};
use crate::sgf;
use std::collections::HashMap;
use std::fmt;
use std::sync::OnceLock;

/// A point as (column, row), as [`Board::xy`] gives it.
type Xy = (u8, u8);

/// The move a book gives, with the win rate its search saw.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BookMove {
    pub mv: Move,
    pub winrate: f64,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Book {
    size: usize,
    komi: f64,
    lines: HashMap<Vec<Xy>, (Xy, f32)>,
}

/// What was wrong with a line of a book file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BookError {
    pub line: usize,
    pub message: String,
}

impl fmt::Display for BookError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "book line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for BookError {}

/// The point `p` under symmetry `k` (0..8) of a board of `size`: bit 0
/// mirrors the columns, bit 1 the rows, bit 2 swaps the two.
pub(super) fn transform(p: Xy, k: usize, size: usize) -> Xy {
    let last = (size - 1) as u8;
    let (mut x, mut y) = p;
    if k & 1 != 0 {
        x = last - x;
    }
    if k & 2 != 0 {
        y = last - y;
    }
    if k & 4 != 0 {
        (y, x)
    } else {
        (x, y)
    }
}

/// The point that [`transform`] takes to `p`.
fn untransform(p: Xy, k: usize, size: usize) -> Xy {
    let last = (size - 1) as u8;
    let (mut x, mut y) = if k & 4 != 0 { (p.1, p.0) } else { p };
    if k & 1 != 0 {
        x = last - x;
    }
    if k & 2 != 0 {
        y = last - y;
    }
    (x, y)
}

fn vertex_xy(text: &str, board: &Board) -> Result<Xy, String> {
    match crate::board::coord::parse_vertex(text, board.size()) {
        Ok(Some(p)) => {
            let (x, y) = board.xy(p);
            Ok((x as u8, y as u8))
        }
        Ok(None) => Err(format!("'{text}': a book holds no passes")),
        Err(e) => Err(format!("'{text}': {e}")),
    }
}

fn xy_vertex(p: Xy, board: &Board) -> String {
    match board.point(p.0 as usize, p.1 as usize) {
        Ok(point) => crate::board::coord::vertex_name(point, board.size()),
        Err(_) => "?".to_string(),
    }
}

impl Book {
    pub fn new(size: usize, komi: f64) -> Book {
        Book {
            size,
            komi,
            lines: HashMap::new(),
        }
    }

    /// Reads a book for games of `size` with `komi` from its text.
    pub fn parse(text: &str, size: usize, komi: f64) -> Result<Book, BookError> {
        let mut book = Book::new(size, komi);
        let board = Board::new(size).map_err(|e| BookError {
            line: 0,
            message: e.to_string(),
        })?;
        for (n, line) in text.lines().enumerate() {
            let error = |message: String| BookError {
                line: n + 1,
                message,
            };
            let line = line.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            let (moves, answer) = line
                .split_once('>')
                .ok_or_else(|| error("no '>' before the book move".into()))?;
            let moves = moves
                .split_whitespace()
                .map(|v| vertex_xy(v, &board))
                .collect::<Result<Vec<_>, _>>()
                .map_err(error)?;
            let mut answer = answer.split_whitespace();
            let mv = vertex_xy(answer.next().unwrap_or(""), &board).map_err(error)?;
            let winrate: f32 = answer
                .next()
                .and_then(|w| w.parse().ok())
                .filter(|w: &f32| (0.0..=1.0).contains(w))
                .ok_or_else(|| error("the win rate must be a number from 0 to 1".into()))?;
            book.lines.insert(moves, (mv, winrate));
        }
        Ok(book)
    }

    pub fn len(&self) -> usize {
        self.lines.len()
    }

    pub fn is_empty(&self) -> bool {
        self.lines.is_empty()
    }

    /// The placements of `game` as points, when the book can answer for
    /// it: its size and komi, area scoring, an empty start with Black to
    /// move, and no pass.
    fn placements(&self, game: &Game) -> Option<Vec<Xy>> {
        let (start, first) = game.start_position();
        let suits = game.size() == self.size
            && game.rules().komi == self.komi
            && game.rules().scoring == ScoringRule::Area
            && game.handicap() == 0
            && first == Color::Black
            && start.empties().len() == self.size * self.size;
        if !suits {
            return None;
        }
        let board = game.board();
        game.plies()
            .iter()
            .map(|ply| match ply.mv {
                Move::Place(p) => {
                    let (x, y) = board.xy(p);
                    Some((x as u8, y as u8))
                }
                Move::Pass => None,
            })
            .collect()
    }

    /// One name for the position of `game` under all eight symmetries (the
    /// least of its transformed move sequences), when the book can answer
    /// for the game: positions met in game records are counted by it.
    pub fn key(&self, game: &Game) -> Option<Vec<(u8, u8)>> {
        let moves = self.placements(game)?;
        (0..8).map(|k| self.transformed(&moves, k)).min()
    }

    /// `moves` under symmetry `k`.
    fn transformed(&self, moves: &[Xy], k: usize) -> Vec<Xy> {
        moves.iter().map(|&p| transform(p, k, self.size)).collect()
    }

    /// The positions before ply `plies` that the game `records` (SGF
    /// texts) reached and this book lacks, each with the number of records
    /// that reached it under any symmetry, most often reached first. With
    /// `player`, only the positions where the player of that name (`PB`,
    /// `PW`) was to move. A record that cannot be read is skipped.
    pub fn unanswered_positions(
        &self,
        records: &[String],
        player: Option<&str>,
        plies: usize,
        rules: &Rules,
    ) -> Vec<(usize, Game)> {
        let mut seen: HashMap<Vec<Xy>, (usize, Game)> = HashMap::new();
        for record in records {
            // The moves before `plies`, then each shorter position by undoing.
            let Ok(mut game) = sgf::read_game(record, Some(plies as i64), rules) else {
                continue;
            };
            let names = [Color::Black, Color::White].map(|c| sgf::player_name(record, c));
            loop {
                let mover = names[(game.to_move() == Color::White) as usize].as_deref();
                if player.is_none_or(|p| mover == Some(p)) && self.lookup(&game).is_none() {
                    if let Some(key) = self.key(&game) {
                        seen.entry(key).or_insert((0, game.clone())).0 += 1;
                    }
                }
                if !game.undo() {
                    break;
                }
            }
        }
        let mut often: Vec<(usize, Game)> = seen.into_values().collect();
        often.sort_by_key(|(n, _)| std::cmp::Reverse(*n));
        often
    }

    /// Every symmetry under which the book holds the position reached by
    /// `moves`, with the book's line for it (in the book's orientation).
    fn lines_for<'a>(&'a self, moves: &'a [Xy]) -> impl Iterator<Item = (usize, (Xy, f32))> + 'a {
        (0..8).filter_map(move |k| {
            self.lines
                .get(&self.transformed(moves, k))
                .map(|&line| (k, line))
        })
    }

    /// The book's move for the side to move in `game`, if the book holds
    /// the position under some symmetry and the move is legal there.
    pub fn lookup(&self, game: &Game) -> Option<BookMove> {
        let moves = self.placements(game)?;
        let found = self.lines_for(&moves).find_map(|(k, (answer, winrate))| {
            let (x, y) = untransform(answer, k, self.size);
            let point = game.board().point(x as usize, y as usize).ok()?;
            let mv = Move::Place(point);
            game.is_legal(game.to_move(), mv).then_some(BookMove {
                mv,
                winrate: winrate as f64,
            })
        });
        found
    }

    /// Adds `game`'s position with its move, unless the book holds it
    /// already (under any symmetry) or cannot answer for that game.
    /// Returns whether it was added.
    pub fn insert(&mut self, game: &Game, answer: BookMove) -> bool {
        let (Some(moves), Move::Place(p)) = (self.placements(game), answer.mv) else {
            return false;
        };
        if self.lookup(game).is_some() {
            return false;
        }
        let (x, y) = game.board().xy(p);
        self.lines
            .insert(moves, ((x as u8, y as u8), answer.winrate as f32));
        true
    }

    /// Adds the positions of `other` that this book lacks under every
    /// symmetry (books of the same size and komi).
    pub fn merge(&mut self, other: &Book) {
        for (moves, &line) in &other.lines {
            if self.lines_for(moves).next().is_none() {
                self.lines.insert(moves.clone(), line);
            }
        }
    }

    /// Every position of the book as a game played from the empty board
    /// under `rules` (given the book's komi), with the book's move there.
    /// A line whose moves are illegal under `rules` is left out.
    pub fn positions(&self, rules: Rules) -> Vec<(Game, Move)> {
        let rules = Rules {
            komi: self.komi,
            ..rules
        };
        let Ok(empty) = Game::new(self.size, rules) else {
            return Vec::new();
        };
        let point = |game: &Game, (x, y): Xy| game.board().point(x as usize, y as usize).ok();
        let mut lines: Vec<_> = self.lines.iter().collect();
        lines.sort_by(|a, b| a.0.cmp(b.0));
        let mut out = Vec::new();
        for (moves, &(answer, _)) in lines {
            let mut game = empty.clone();
            let replayed = moves.iter().all(|&xy| {
                point(&game, xy).is_some_and(|p| game.play_move(Move::Place(p)).is_ok())
            });
            if let Some(p) = point(&game, answer).filter(|_| replayed) {
                out.push((game, Move::Place(p)));
            }
        }
        out
    }

    /// The book as text, shortest lines first, for [`Book::parse`].
    pub fn to_text(&self) -> String {
        let Ok(board) = Board::new(self.size) else {
            return String::new();
        };
        let vertex = |p: Xy| xy_vertex(p, &board);
        let mut lines: Vec<(&Vec<Xy>, String)> = self
            .lines
            .iter()
            .map(|(moves, &(answer, winrate))| {
                let seq: Vec<String> = moves.iter().map(|&p| vertex(p)).collect();
                let text = format!("{} > {} {winrate:.3}", seq.join(" "), vertex(answer));
                (moves, text.trim_start().to_string())
            })
            .collect();
        lines.sort_by(|a, b| a.0.len().cmp(&b.0.len()).then_with(|| a.1.cmp(&b.1)));
        lines.into_iter().map(|(_, l)| l + "\n").collect()
    }
}

/// The positions of the shipped 9x9 book that ishi's own searches chose:
/// a tree of openings following the book's move for its side and the
/// strongest replies, by the same deep search, for the other.
const OWN_NINE: &str = include_str!("book9_own.txt");
/// The positions of the shipped 9x9 book that game records chose: those
/// ishi's matches against GNU Go, and then against Pachi, reached often
/// (RESEARCH.md, Opening book).
const RECORDS_NINE: &str = include_str!("book9_records.txt");

/// The book shipped for 9x9 with komi 7 (area scoring): see
/// `examples/build_book.rs` for how it was made. With `records`, the
/// positions chosen from game records too; without, only those ishi's own
/// tree of openings chose, which no opponent's games had a say in.
pub fn nine_by_nine(records: bool) -> &'static Book {
    static OWN: OnceLock<Book> = OnceLock::new();
    static ALL: OnceLock<Book> = OnceLock::new();
    // The shipped files are checked by a test; a broken one is no book.
    let read = |text: &str| Book::parse(text, 9, 7.0).unwrap_or_else(|_| Book::new(9, 7.0));
    if records {
        ALL.get_or_init(|| {
            let mut all = nine_by_nine(false).clone();
            all.merge(&read(RECORDS_NINE));
            all
        })
    } else {
        OWN.get_or_init(|| read(OWN_NINE))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::coord::parse_vertex;
    use crate::rules::Rules;

    fn game_after(moves: &[&str], komi: f64) -> Game {
        let mut rules = Rules::preset("chinese").unwrap();
        rules.komi = komi;
        let mut game = Game::new(9, rules).unwrap();
        for v in moves {
            let mv = match parse_vertex(v, 9).unwrap() {
                Some(p) => Move::Place(p),
                None => Move::Pass,
            };
            game.play_move(mv).unwrap();
        }
        game
    }

    fn answer(game: &Game, book: &Book) -> Option<String> {
        book.lookup(game)
            .map(|b| crate::board::coord::move_name(b.mv, 9))
    }

    #[test]
    fn every_symmetry_is_undone_by_its_inverse() {
        for k in 0..8 {
            for x in 0..9 {
                for y in 0..9 {
                    assert_eq!(untransform(transform((x, y), k, 9), k, 9), (x, y));
                }
            }
        }
    }

    #[test]
    fn a_position_is_found_under_every_symmetry() {
        // The book knows Black E5, White F6 (up and to the right of
        // tengen); the mirrored games find the mirrored answer.
        //   . . . . .        . . . . .
        //   . . . O .        . O . . .
        //   . . X . .   ->   . . X . .
        let book = Book::parse("> E5 0.5\nE5 F6 > D4 0.52\n", 9, 7.0).unwrap();
        assert_eq!(answer(&game_after(&[], 7.0), &book).as_deref(), Some("E5"));
        assert_eq!(
            answer(&game_after(&["E5", "F6"], 7.0), &book).as_deref(),
            Some("D4")
        );
        assert_eq!(
            answer(&game_after(&["E5", "D6"], 7.0), &book).as_deref(),
            Some("F4")
        );
        assert_eq!(
            answer(&game_after(&["E5", "D4"], 7.0), &book).as_deref(),
            Some("F6")
        );
        assert_eq!(
            answer(&game_after(&["E5", "F4"], 7.0), &book).as_deref(),
            Some("D6")
        );
    }

    #[test]
    fn the_book_keeps_out_of_games_it_was_not_searched_for() {
        let book = Book::parse("> E5 0.5\nE5 F6 > D4 0.52\n", 9, 7.0).unwrap();
        // Another komi, a pass, a position the book lacks.
        assert_eq!(answer(&game_after(&[], 6.5), &book), None);
        assert_eq!(answer(&game_after(&["pass", "E5"], 7.0), &book), None);
        assert_eq!(answer(&game_after(&["E5", "G6"], 7.0), &book), None);
        let mut japanese = game_after(&[], 7.0);
        let mut rules = Rules::preset("japanese").unwrap();
        rules.komi = 7.0;
        japanese.set_rules(rules);
        assert_eq!(answer(&japanese, &book), None);
    }

    #[test]
    fn a_book_reads_back_what_it_wrote() {
        let mut book = Book::new(9, 7.0);
        let first = BookMove {
            mv: game_after(&["E5"], 7.0).plies()[0].mv,
            winrate: 0.5,
        };
        assert!(book.insert(&game_after(&[], 7.0), first));
        // The same position mirrored is not added twice.
        let g = game_after(&["E5", "F6"], 7.0);
        let d4 = parse_vertex("D4", 9).unwrap().unwrap();
        let reply = BookMove {
            mv: Move::Place(d4),
            winrate: 0.52,
        };
        assert!(book.insert(&g, reply));
        assert!(!book.insert(&game_after(&["E5", "D4"], 7.0), reply));
        assert_eq!(book.len(), 2);
        assert_eq!(Book::parse(&book.to_text(), 9, 7.0).unwrap(), book);
        // Merging keeps one line per position: the mirrored E5 F4 is known.
        let other = Book::parse("E5 F4 > D6 0.52\nE5 G6 > D4 0.51\n", 9, 7.0).unwrap();
        book.merge(&other);
        assert_eq!(book.len(), 3);
    }

    #[test]
    fn the_positions_of_a_book_replay_its_lines() {
        use crate::board::coord::move_name;
        // The second line plays twice on E5: no position.
        let book = Book::parse("E5 F6 > D4 0.52\n> E5 0.5\nE5 E5 > D4 0.5\n", 9, 7.0).unwrap();
        let positions = book.positions(Rules::preset("chinese").unwrap());
        let named: Vec<(Vec<String>, String)> = positions
            .iter()
            .map(|(game, mv)| {
                let moves = game.plies().iter().map(|p| move_name(p.mv, 9)).collect();
                (moves, move_name(*mv, 9))
            })
            .collect();
        assert_eq!(
            named,
            [
                (vec![], "E5".to_string()),
                (vec!["E5".to_string(), "F6".to_string()], "D4".to_string())
            ]
        );
        assert!(positions.iter().all(|(g, _)| g.rules().komi == 7.0));
    }

    #[test]
    fn a_position_has_one_key_under_every_symmetry() {
        // . . .     The same two stones, seen from the other corner
        // . X O     and across the diagonal, are one position.
        // . . .
        let book = Book::new(9, 7.0);
        let key = book.key(&game_after(&["C3", "D3"], 7.0));
        assert!(key.is_some());
        for moves in [["G7", "F7"], ["C3", "C4"], ["G3", "G4"], ["C7", "D7"]] {
            assert_eq!(book.key(&game_after(&moves, 7.0)), key, "{moves:?}");
        }
        assert_ne!(book.key(&game_after(&["C3", "E3"], 7.0)), key);
        assert_ne!(book.key(&game_after(&["D3", "C3"], 7.0)), key);
        assert_eq!(book.key(&game_after(&["C3", "D3"], 6.5)), None);
    }

    #[test]
    fn records_are_counted_by_position_under_every_symmetry() {
        // Three records open 3-3 then 3-4 from different corners (one
        // position); a fourth answers 3-3 from elsewhere. The book holds
        // the empty board.
        let record = |black: &str, moves: &str| {
            format!("(;GM[1]SZ[9]KM[7]RU[Chinese]PB[{black}]PW[ishi]{moves})")
        };
        let records = [
            record("GNU Go", ";B[cg];W[dg];B[gg]"),
            record("GNU Go", ";B[gc];W[fc]"),
            record("GNU Go", ";B[cg];W[cf]"),
            record("GNU Go", ";B[cg];W[ee]"),
            "not a record".to_string(),
        ];
        let mut book = Book::new(9, 7.0);
        book.insert(
            &game_after(&[], 7.0),
            BookMove {
                mv: Move::Place(parse_vertex("E5", 9).unwrap().unwrap()),
                winrate: 0.5,
            },
        );
        let rules = Rules::preset("chinese").unwrap();
        let count = |player: Option<&str>| -> Vec<(usize, String)> {
            book.unanswered_positions(&records, player, 3, &rules)
                .iter()
                .map(|(n, g)| {
                    let moves: Vec<String> = g
                        .plies()
                        .iter()
                        .map(|p| crate::board::coord::move_name(p.mv, 9))
                        .collect();
                    (*n, moves.join(" "))
                })
                .collect()
        };
        let for_ishi = count(Some("ishi"));
        assert_eq!(for_ishi.len(), 1, "{for_ishi:?}");
        assert_eq!(for_ishi[0].0, 4);
        let all = count(None);
        assert_eq!(all.len(), 3, "{all:?}");
        assert_eq!(all[0], for_ishi[0]);
        assert!(all
            .iter()
            .any(|(n, moves)| *n == 3 && moves.split(' ').count() == 2));
        assert!(all.iter().any(|(n, moves)| *n == 1 && moves == "C3 E5"));
        assert!(count(Some("nobody")).is_empty());
    }

    #[test]
    fn malformed_lines_are_reported_with_their_number() {
        let bad = ["E5 F6 D4 0.5", "E5 > Z9 0.5", "E5 > D4 1.5", "> pass 0.5"];
        for line in bad {
            let text = format!("> E5 0.5\n{line}\n");
            let error = Book::parse(&text, 9, 7.0).unwrap_err();
            assert_eq!(error.line, 2, "{line}: {error}");
        }
    }

    /// The 9x9 komi-7 game after a book line's moves.
    fn game_through(moves: &[Xy]) -> Game {
        let mut game = game_after(&[], 7.0);
        for &(x, y) in moves {
            let p = game.board().point(x as usize, y as usize).unwrap();
            game.play_move(Move::Place(p)).unwrap();
        }
        game
    }

    #[test]
    fn the_shipped_books_read_and_answer_only_legal_moves() {
        for text in [OWN_NINE, RECORDS_NINE] {
            let book = Book::parse(text, 9, 7.0).unwrap_or_else(|e| panic!("{e}"));
            assert!(!book.is_empty());
            for moves in book.lines.keys() {
                assert!(book.lookup(&game_through(moves)).is_some(), "{moves:?}");
            }
        }
    }

    #[test]
    fn the_records_add_positions_the_own_book_lacks_and_change_none_of_its_moves() {
        let own = nine_by_nine(false);
        let all = nine_by_nine(true);
        let records = Book::parse(RECORDS_NINE, 9, 7.0).unwrap();
        assert_eq!((own.len(), records.len()), (453, 1625));
        assert_eq!(
            all.len(),
            own.len() + records.len(),
            "a position in both files"
        );
        for (moves, line) in &own.lines {
            assert_eq!(all.lines.get(moves), Some(line));
        }
        // The game's first position is in the own book; a position that
        // only the records hold is answered only with them.
        let empty = game_after(&[], 7.0);
        assert!(own.lookup(&empty).is_some());
        let only_records = records
            .lines
            .keys()
            .find(|moves| own.lines_for(moves).next().is_none())
            .expect("the records hold positions of their own");
        let game = game_through(only_records);
        assert!(own.lookup(&game).is_none());
        assert!(all.lookup(&game).is_some());
    }
}
