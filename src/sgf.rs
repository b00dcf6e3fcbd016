//! SGF (FF[4]) game records: reading the main line of a real record into a
//! [`Game`] for `loadsgf`, and writing a game for `printsgf` so that it
//! reads back to the same game. Parsing is done by the `sgf-parse` crate;
//! this module only maps its properties onto the game.

use crate::board::{Board, Color, Move, Point};
use crate::game::Game;
use crate::rules::{format_komi, Rules};
use sgf_parse::go::{self, Prop};
use sgf_parse::SgfNode;
use std::fmt;

/// Records with more nodes than this are refused: the parser and the tree
/// it builds recurse once per node, and no real game comes near it.
const MAX_NODES: usize = 20_000;

#[derive(Clone, Debug, PartialEq)]
pub enum SgfError {
    Parse(String),
    TooLarge,
    NoGame,
    /// Rectangular or out of GTP's 2..=25.
    BadSize,
    BadPoint(String),
    IllegalMove {
        number: usize,
        why: String,
    },
}

impl fmt::Display for SgfError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SgfError::Parse(e) => write!(f, "not a valid SGF file: {e}"),
            SgfError::TooLarge => write!(f, "more than {MAX_NODES} nodes"),
            SgfError::NoGame => f.write_str("no game in the file"),
            SgfError::BadSize => f.write_str("board size not square between 2 and 25"),
            SgfError::BadPoint(p) => write!(f, "point {p} is off the board"),
            SgfError::IllegalMove { number, why } => write!(f, "move {number} is illegal: {why}"),
        }
    }
}

impl std::error::Error for SgfError {}

/// `RU` values seen in real records, mapped to presets. Other values are
/// tried as preset names, then as ishi's own knob list.
const SGF_RULE_NAMES: &[(&str, &str)] = &[
    ("Chinese", "chinese"),
    ("Japanese", "japanese"),
    ("AGA", "aga"),
    ("NZ", "new-zealand"),
    ("New Zealand", "new-zealand"),
    ("Korean", "korean"),
    ("Ing", "ing"),
    ("GOE", "ing"),
    ("Tromp-Taylor", "tromp-taylor"),
];

/// Prefix of an `RU` value listing every knob, for rules that are no preset.
const KNOB_LIST_PREFIX: &str = "ishi:";

/// The rules an `RU` value names, komi left at the preset's.
pub fn rules_from_ru(ru: &str) -> Option<Rules> {
    let ru = ru.trim();
    if let Some(knobs) = ru.strip_prefix(KNOB_LIST_PREFIX) {
        let mut rules = Rules::default();
        for pair in knobs.split(',') {
            let (knob, value) = pair.split_once('=')?;
            rules.set_knob(knob, value).ok()?;
        }
        return Some(rules);
    }
    let preset = SGF_RULE_NAMES
        .iter()
        .find(|(name, _)| name.eq_ignore_ascii_case(ru))
        .map_or(ru, |(_, preset)| preset);
    Rules::preset(preset).ok()
}

/// The `RU` value for these rules: the usual SGF name where there is one.
pub fn ru_value(rules: &Rules) -> String {
    match rules.preset_name() {
        Some(preset) => SGF_RULE_NAMES
            .iter()
            .find(|(_, p)| *p == preset)
            .map_or(preset, |(name, _)| name)
            .to_string(),
        None => {
            let knobs: Vec<String> = rules
                .knobs()
                .into_iter()
                .filter(|(k, _)| *k != "komi")
                .map(|(k, v)| format!("{k}={v}"))
                .collect();
            format!("{KNOB_LIST_PREFIX}{}", knobs.join(","))
        }
    }
}

/// A point of an SGF record on a board of `size`; `None` for a pass
/// (`tt` means pass only on boards up to 19, where it is off the board).
fn point(p: &go::Point, size: usize) -> Result<Option<Point>, SgfError> {
    let (x, y) = (p.x as usize, p.y as usize);
    if size <= 19 && (x, y) == (19, 19) {
        return Ok(None);
    }
    if x >= size || y >= size {
        return Err(SgfError::BadPoint(format!("{}{}", p.x, p.y)));
    }
    Ok(Some(Point((size - y) * (size + 1) + x + 1)))
}

fn sgf_point(p: Point, size: usize) -> String {
    let stride = size + 1;
    let (x, row) = (p.0 % stride - 1, p.0 / stride);
    let y = size - row;
    let letter = |i: usize| (b"abcdefghijklmnopqrstuvwxyz"[i]) as char;
    format!("{}{}", letter(x), letter(y))
}

fn stone_move(prop: &Prop) -> Option<(Color, go::Move)> {
    match prop {
        Prop::B(m) => Some((Color::Black, *m)),
        Prop::W(m) => Some((Color::White, *m)),
        _ => None,
    }
}

fn the_move(m: &go::Move, size: usize) -> Result<Move, SgfError> {
    Ok(match m {
        go::Move::Pass => Move::Pass,
        go::Move::Move(p) => point(p, size)?.map_or(Move::Pass, Move::Place),
    })
}

/// Applies `AB`, `AW` and `AE` of one node to `board`.
fn apply_setup(node: &SgfNode<Prop>, board: &mut Board) -> Result<bool, SgfError> {
    let size = board.size();
    let mut any = false;
    for prop in node.properties() {
        let (color, points) = match prop {
            Prop::AB(ps) => (Some(Color::Black), ps),
            Prop::AW(ps) => (Some(Color::White), ps),
            Prop::AE(ps) => (None, ps),
            _ => continue,
        };
        any = true;
        let mut sorted: Vec<_> = points.iter().collect();
        sorted.sort_by_key(|p| (p.y, p.x));
        for p in sorted {
            let q = point(p, size)?.ok_or_else(|| SgfError::BadPoint("tt".into()))?;
            board.remove_stone(q);
            if let Some(c) = color {
                board.put_setup_stone(c, q);
            }
        }
    }
    Ok(any)
}

/// The name a record gives the player of `color` (`PB` or `PW`).
pub fn player_name(text: &str, color: Color) -> Option<String> {
    let id = if color == Color::Black { "PB" } else { "PW" };
    match parse(text).ok()?.first()?.get_property(id)? {
        Prop::PB(name) | Prop::PW(name) => Some(name.text.clone()),
        _ => None,
    }
}

fn parse(text: &str) -> Result<Vec<SgfNode<Prop>>, SgfError> {
    if text.matches(';').count() > MAX_NODES || text.matches('(').count() > MAX_NODES {
        return Err(SgfError::TooLarge);
    }
    go::parse(text).map_err(|e| SgfError::Parse(e.to_string()))
}

/// Reads the main line of the first game in `text`. With `move_number`,
/// only the moves numbered below it are played (GTP `loadsgf`). Rules come
/// from `RU` where it names known rules, else `current` stays; komi from
/// `KM` where present.
pub fn read_game(text: &str, move_number: Option<i64>, current: &Rules) -> Result<Game, SgfError> {
    let trees = parse(text)?;
    let root = trees.first().ok_or(SgfError::NoGame)?;
    let size = match root.get_property("SZ") {
        Some(Prop::SZ((w, h))) if w == h => *w as usize,
        Some(_) => return Err(SgfError::BadSize),
        None => 19,
    };
    let mut board = Board::new(size).map_err(|_| SgfError::BadSize)?;
    let mut rules = *current;
    if let Some(Prop::RU(ru)) = root.get_property("RU") {
        match rules_from_ru(&ru.text) {
            Some(r) => rules = r,
            None => log::warn!("unknown rules '{}' in SGF; keeping {rules}", ru.text),
        }
    }
    if let Some(Prop::KM(km)) = root.get_property("KM") {
        if km.is_finite() && km.abs() <= 1000.0 {
            rules.komi = *km;
        }
    }
    let handicap = match root.get_property("HA") {
        Some(Prop::HA(n)) => u32::try_from(*n).unwrap_or(0),
        _ => 0,
    };
    let max_moves = move_number.map(|n| usize::try_from(n.saturating_sub(1)).unwrap_or(0));
    let main_line: Vec<&SgfNode<Prop>> = root.main_variation().collect();
    let first_mover = main_line
        .iter()
        .flat_map(|n| n.properties())
        .find_map(stone_move)
        .map(|(c, _)| c);

    let mut player: Option<Color> = None;
    let mut game: Option<Game> = None;
    let mut played = 0usize;
    'nodes: for node in &main_line {
        match &mut game {
            None => {
                apply_setup(node, &mut board)?;
            }
            Some(g) => {
                let mut b = g.board().clone();
                if apply_setup(node, &mut b)? {
                    // Setup in the middle of a game starts a new history.
                    let mut fresh = Game::from_position(b, g.to_move(), rules);
                    fresh.set_handicap_count(handicap);
                    *g = fresh;
                }
            }
        }
        if let Some(Prop::PL(c)) = node.get_property("PL") {
            player = Some(match c {
                sgf_parse::Color::Black => Color::Black,
                sgf_parse::Color::White => Color::White,
            });
        }
        for (color, m) in node.properties().filter_map(stone_move) {
            if max_moves.is_some_and(|max| played >= max) {
                break 'nodes;
            }
            let mv = the_move(&m, size)?;
            let g = game.get_or_insert_with(|| {
                let to_move = player.or(first_mover).unwrap_or(Color::Black);
                Game::from_position(board.clone(), to_move, rules)
            });
            played += 1;
            g.play(color, mv).map_err(|e| SgfError::IllegalMove {
                number: played,
                why: e.to_string(),
            })?;
        }
    }
    let mut game = match game {
        Some(g) => g,
        None => {
            let handicap_setup = board.stone_count() > 0 && board.stones(Color::White).is_empty();
            let default = if handicap_setup && handicap >= 2 {
                Color::White
            } else {
                Color::Black
            };
            let to_move = player.or(first_mover).unwrap_or(default);
            Game::from_position(board, to_move, rules)
        }
    };
    game.set_handicap_count(handicap);
    Ok(game)
}

/// The game so far as an SGF record: size, rules, komi, handicap, the
/// starting position and every move. Holds no empty line, so it can be a
/// GTP response as it is.
pub fn write_game(game: &Game) -> String {
    let size = game.size();
    let rules = game.rules();
    let mut out = format!(
        "(;FF[4]GM[1]CA[UTF-8]AP[ishi:{}]SZ[{size}]RU[{}]KM[{}]",
        env!("CARGO_PKG_VERSION"),
        ru_value(rules),
        format_komi(rules.komi)
    );
    if game.handicap() >= 2 {
        out.push_str(&format!("HA[{}]", game.handicap()));
    }
    let (start, start_to_move) = game.start_position();
    for (prop, color) in [("AB", Color::Black), ("AW", Color::White)] {
        let stones: Vec<String> = start
            .stones(color)
            .iter()
            .map(|i| format!("[{}]", sgf_point(Point(i), size)))
            .collect();
        if !stones.is_empty() {
            out.push('\n');
            out.push_str(prop);
            out.push_str(&stones.concat());
        }
    }
    if start_to_move == Color::White {
        out.push_str("PL[W]");
    }
    for (i, ply) in game.plies().iter().enumerate() {
        out.push(if i % 10 == 0 { '\n' } else { ' ' });
        let at = match ply.mv {
            Move::Pass => String::new(),
            Move::Place(p) => sgf_point(p, size),
        };
        out.push_str(&format!(";{}[{at}]", ply.color.letter()));
    }
    out.push_str(")\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::coord::parse_vertex;

    fn at(game: &Game, v: &str) -> Move {
        parse_vertex(v, game.size())
            .unwrap()
            .map_or(Move::Pass, Move::Place)
    }

    fn same_game(a: &Game, b: &Game) {
        assert_eq!(a.size(), b.size());
        assert_eq!(a.rules(), b.rules());
        assert_eq!(a.handicap(), b.handicap());
        assert_eq!(a.start_position().0, b.start_position().0);
        assert_eq!(a.start_position().1, b.start_position().1);
        let moves = |g: &Game| {
            g.plies()
                .iter()
                .map(|p| (p.color, p.mv))
                .collect::<Vec<_>>()
        };
        assert_eq!(moves(a), moves(b));
        assert_eq!(a.board(), b.board());
        assert_eq!(a.to_move(), b.to_move());
    }

    #[test]
    fn players_are_named_by_pb_and_pw() {
        let record = "(;GM[1]SZ[9]PB[GNU Go]PW[ishi];B[ee];W[cc])";
        assert_eq!(player_name(record, Color::Black).as_deref(), Some("GNU Go"));
        assert_eq!(player_name(record, Color::White).as_deref(), Some("ishi"));
        assert_eq!(player_name("(;GM[1]SZ[9];B[ee])", Color::Black), None);
        assert_eq!(player_name("not a record", Color::White), None);
    }

    #[test]
    fn points_are_sgf_letters_from_the_top_left() {
        let g = Game::new(19, Rules::default()).unwrap();
        let Move::Place(d4) = at(&g, "D4") else {
            panic!()
        };
        assert_eq!(sgf_point(d4, 19), "dp");
        let Move::Place(a19) = at(&g, "A19") else {
            panic!()
        };
        assert_eq!(sgf_point(a19, 19), "aa");
        assert_eq!(point(&go::Point { x: 3, y: 15 }, 19), Ok(Some(d4)));
        assert_eq!(point(&go::Point { x: 19, y: 19 }, 19), Ok(None));
        // On 20x20 and larger, tt is a real point.
        assert!(point(&go::Point { x: 19, y: 19 }, 21).unwrap().is_some());
        assert!(point(&go::Point { x: 9, y: 0 }, 9).is_err());
    }

    #[test]
    fn reads_setup_moves_and_passes() {
        let text = "(;GM[1]FF[4]SZ[9]KM[5.5]RU[Japanese]HA[2]AB[cc][gg]PL[W]\
                    ;W[ee];B[];W[tt];B[dc](;W[ce])(;W[ff]))";
        let g = read_game(text, None, &Rules::default()).unwrap();
        assert_eq!(g.size(), 9);
        assert_eq!(g.rules().komi, 5.5);
        assert_eq!(g.rules().preset_name(), Some("japanese"));
        assert_eq!(g.handicap(), 2);
        assert_eq!(g.plies().len(), 5, "main line only");
        assert_eq!(g.plies()[1].mv, Move::Pass);
        assert_eq!(g.plies()[2].mv, Move::Pass);
        let expected = Board::from_ascii(
            "
            . . . . . . . . .
            . . . . . . . . .
            . . X X . . . . .
            . . . . . . . . .
            . . O . O . . . .
            . . . . . . . . .
            . . . . . . X . .
            . . . . . . . . .
            . . . . . . . . .",
        )
        .unwrap();
        assert_eq!(g.board(), &expected);
    }

    #[test]
    fn move_number_stops_before_that_move() {
        let text = "(;SZ[9];B[ee];W[ce];B[gc];W[cg])";
        let g = read_game(text, Some(3), &Rules::default()).unwrap();
        assert_eq!(g.plies().len(), 2);
        assert_eq!(g.to_move(), Color::Black);
        let g = read_game(text, Some(1), &Rules::default()).unwrap();
        assert!(g.plies().is_empty());
    }

    #[test]
    fn illegal_and_broken_records_are_refused() {
        let r = Rules::default();
        assert!(read_game("(;SZ[9];B[ee];W[ee])", None, &r).is_err());
        assert!(read_game("(;SZ[9:7])", None, &r).is_err());
        assert!(read_game("(;SZ[30])", None, &r).is_err());
        assert!(read_game("(;SZ[9];B[zz])", None, &r).is_err());
        assert!(read_game("not sgf at all", None, &r).is_err());
        assert!(read_game("(;SZ[9]", None, &r).is_err());
        assert!(read_game("", None, &r).is_err());
        let deep = format!("(;SZ[9]{})", ";C[x]".repeat(MAX_NODES + 1));
        assert_eq!(read_game(&deep, None, &r).err(), Some(SgfError::TooLarge));
    }

    #[test]
    fn long_records_within_the_limit_load() {
        // Passes back and forth: the longest record the limit admits.
        let moves = ";B[];W[]".repeat(MAX_NODES / 2 - 10);
        let g = read_game(&format!("(;SZ[9]{moves})"), None, &Rules::default()).unwrap();
        assert_eq!(g.plies().len(), MAX_NODES - 20);
    }

    #[test]
    fn rules_names_of_real_records() {
        for (ru, preset) in [
            ("Chinese", "chinese"),
            ("japanese", "japanese"),
            ("AGA", "aga"),
            ("NZ", "new-zealand"),
            ("New Zealand", "new-zealand"),
            ("GOE", "ing"),
            ("Tromp-Taylor", "tromp-taylor"),
        ] {
            let r = rules_from_ru(ru).unwrap();
            assert_eq!(r, Rules::preset(preset).unwrap(), "{ru}");
        }
        assert_eq!(rules_from_ru("Martian"), None);
    }

    #[test]
    fn written_games_read_back_identically() {
        let mut custom = Rules::preset("japanese").unwrap();
        custom.set_knob("suicide", "allowed").unwrap();
        custom.komi = -2.5;
        for rules in [
            Rules::default(),
            Rules::preset("tromp-taylor").unwrap(),
            custom,
        ] {
            let mut g = Game::new(9, rules).unwrap();
            g.set_free_handicap(&[at_point(&g, "C3"), at_point(&g, "G7")])
                .unwrap();
            for v in ["E5", "D4", "pass", "F4", "E4"] {
                let c = g.to_move();
                g.play(c, at(&g, v)).unwrap();
            }
            g.play(Color::White, at(&g, "J9")).unwrap();
            let text = write_game(&g);
            assert!(!text.contains("\n\n"));
            let back = read_game(&text, None, &Rules::preset("aga").unwrap()).unwrap();
            same_game(&g, &back);
        }
    }

    fn at_point(g: &Game, v: &str) -> Point {
        match at(g, v) {
            Move::Place(p) => p,
            Move::Pass => panic!("{v} is a pass"),
        }
    }
}
