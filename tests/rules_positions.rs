//! The rules of RULES.md as positions: a diagram, the moves, the expected
//! result. `X` is Black, `O` White, rows from the top, `A1` bottom left.

use ishi::board::coord::{parse_vertex, vertex_name};
use ishi::board::{Bitboard, Board, Color, Move};
use ishi::game::{handicap_points, Game, HandicapError, IllegalMove};
use ishi::rules::{KoRule, Rules, SuicideRule, PRESETS};
use ishi::score::{score, GameFacts};
use std::collections::BTreeSet;

const B: Color = Color::Black;
const W: Color = Color::White;

fn preset(name: &str) -> Rules {
    Rules::preset(name).unwrap()
}

fn setup(diagram: &str, to_move: Color, rules: Rules) -> Game {
    Game::from_position(Board::from_ascii(diagram).unwrap(), to_move, rules)
}

fn mv(game: &Game, vertex: &str) -> Move {
    match parse_vertex(vertex, game.size()).unwrap() {
        Some(p) => Move::Place(p),
        None => Move::Pass,
    }
}

fn play(game: &mut Game, color: Color, vertex: &str) -> Result<(), IllegalMove> {
    let m = mv(game, vertex);
    let legal = game.is_legal(color, m);
    let result = game.play(color, m);
    assert_eq!(
        legal,
        result.is_ok(),
        "is_legal and play disagree on {vertex}"
    );
    game.board().check_consistency().unwrap();
    result
}

/// Plays a sequence that must be legal, `"B C3"` style.
fn play_all(game: &mut Game, moves: &[&str]) {
    for m in moves {
        let (c, v) = m.split_once(' ').unwrap();
        let color = Color::parse(c).unwrap();
        if let Err(e) = play(game, color, v) {
            panic!("{m} refused ({e}) under {}", game.rules());
        }
    }
}

fn assert_position(game: &Game, diagram: &str) {
    let expected = Board::from_ascii(diagram).unwrap();
    assert_eq!(
        game.board().to_ascii(),
        expected.to_ascii(),
        "under {}",
        game.rules()
    );
}

/// The error a superko-or-simple-ko refusal carries under these rules.
fn ko_refusal(rules: &Rules) -> IllegalMove {
    match rules.ko {
        KoRule::Simple => IllegalMove::Ko,
        _ => IllegalMove::Superko,
    }
}

// ---- captures ------------------------------------------------------------

#[test]
fn a_chain_without_liberties_is_captured() {
    let mut g = setup(
        "
        . . . . .
        . . X . .
        . X O . .
        . . X . .
        . . . . .",
        B,
        preset("japanese"),
    );
    play(&mut g, B, "D3").unwrap();
    assert_position(
        &g,
        "
        . . . . .
        . . X . .
        . X . X .
        . . X . .
        . . . . .",
    );
    assert_eq!(g.board().captures(B), 1);
    assert_eq!(g.to_move(), W);
}

#[test]
fn one_placement_can_capture_two_chains() {
    let mut g = setup(
        "
        . . . . .
        . . . . .
        . . . . .
        . X . X .
        X O . O X",
        B,
        preset("chinese"),
    );
    play(&mut g, B, "C1").unwrap();
    assert_position(
        &g,
        "
        . . . . .
        . . . . .
        . . . . .
        . X . X .
        X . X . X",
    );
    assert_eq!(g.board().captures(B), 2);
}

#[test]
fn capturing_comes_before_suicide() {
    // White's A1 has no empty neighbour, but it takes the last liberty of
    // the two black stones first, so it is a capture under every rule set.
    for (name, rules) in PRESETS {
        let mut g = setup(
            "
            . . . .
            O O . .
            X X O .
            . X O .",
            W,
            *rules,
        );
        assert_eq!(play(&mut g, W, "A1"), Ok(()), "{name}");
        assert_position(
            &g,
            "
            . . . .
            O O . .
            . . O .
            O . O .",
        );
        assert_eq!(g.board().captures(W), 3, "{name}");
    }
}

// ---- suicide ---------------------------------------------------------------

#[test]
fn multi_stone_suicide_only_where_allowed() {
    let diagram = "
        . . . . .
        . O O . .
        O X . O .
        . O O . .
        . . . . .";
    for (name, rules) in PRESETS {
        let mut g = setup(diagram, B, *rules);
        let result = play(&mut g, B, "C3");
        match rules.suicide {
            SuicideRule::Allowed => {
                assert_eq!(result, Ok(()), "{name}");
                // Both black stones leave the board and count as White's prisoners.
                assert_position(
                    &g,
                    "
                    . . . . .
                    . O O . .
                    O . . O .
                    . O O . .
                    . . . . .",
                );
                assert_eq!(g.board().captures(W), 2, "{name}");
                assert_eq!(g.to_move(), W);
            }
            SuicideRule::Forbidden => {
                assert_eq!(result, Err(IllegalMove::Suicide), "{name}");
                assert_position(&g, diagram);
                assert_eq!(g.to_move(), B);
            }
        }
    }
}

#[test]
fn single_stone_suicide_is_never_legal() {
    let centre = "
        . X .
        X . X
        . X .";
    let corner = "
        . . .
        X . .
        . X .";
    for (name, rules) in PRESETS {
        for (diagram, point) in [(centre, "B2"), (corner, "A1")] {
            let mut g = setup(diagram, W, *rules);
            assert_eq!(
                play(&mut g, W, point),
                Err(IllegalMove::SingleStoneSuicide),
                "{name} {point}"
            );
            assert!(!g.legal_moves(W).contains(&mv(&g, point)), "{name}");
            assert_position(&g, diagram);
            // Filling one's own eye is legal, if rarely wise.
            assert_eq!(play(&mut g, B, point), Ok(()), "{name}");
        }
    }
}

// ---- snapback and ko ---------------------------------------------------------

#[test]
fn snapback_recaptures_more_than_one_stone() {
    for (name, rules) in PRESETS {
        let mut g = setup(
            "
            . . . . .
            . . . . .
            X X X X .
            O O O X .
            . . O X .",
            B,
            *rules,
        );
        // Black throws in at B1; White takes the single stone at A1 ...
        play_all(&mut g, &["B B1", "W A1"]);
        assert_eq!(g.board().captures(W), 1, "{name}");
        // ... and is left with one liberty, where Black plays again: not a
        // ko, because five stones come off.
        assert_eq!(play(&mut g, B, "B1"), Ok(()), "{name}");
        assert_position(
            &g,
            "
            . . . . .
            . . . . .
            X X X X .
            . . . X .
            . X . X .",
        );
        assert_eq!(g.board().captures(B), 5, "{name}");
    }
}

#[test]
fn simple_ko_may_not_be_retaken_at_once() {
    for (name, rules) in PRESETS {
        let mut g = setup(
            "
            . . . . .
            . . . . .
            . X O . .
            X . . O .
            . X O . .",
            W,
            *rules,
        );
        // White makes the ko shape, Black takes the ko.
        play_all(&mut g, &["W B2", "B C2"]);
        assert_position(
            &g,
            "
            . . . . .
            . . . . .
            . X O . .
            X . X O .
            . X O . .",
        );
        let refusal = ko_refusal(rules);
        assert_eq!(play(&mut g, W, "B2"), Err(refusal), "{name}");
        assert!(!g.legal_moves(W).contains(&mv(&g, "B2")), "{name}");
        // After an exchange elsewhere the position is new and White may retake;
        // then it is Black who must wait.
        play_all(&mut g, &["W E5", "B E1", "W B2"]);
        assert_eq!(play(&mut g, B, "C2"), Err(refusal), "{name}");
    }
}

/// Three kos at once: each side captures in turn and after six moves the
/// whole board is back where it started.
const TRIPLE_KO: &str = "
    . . . . . . . . .
    . . . . . . . . .
    . X O . . . . . .
    X O . O . . . . .
    . X O . . . . . .
    . . . . . . . . .
    . X O . . . X O .
    X O . O . X . X O
    . X O . . . X O .";

const TRIPLE_KO_CYCLE: [&str; 6] = ["B C2", "W G2", "B C6", "W B2", "B H2", "W B6"];

#[test]
fn triple_ko_cycles_forever_under_simple_ko() {
    let mut g = setup(TRIPLE_KO, B, preset("japanese"));
    for lap in 0..2 {
        for (i, m) in TRIPLE_KO_CYCLE.iter().enumerate() {
            play_all(&mut g, &[m]);
            // The ko just taken may not be retaken at once (the retake is
            // the cycle's move three plies later).
            let retake = TRIPLE_KO_CYCLE[(i + 3) % 6].split_once(' ').unwrap().1;
            let next = g.to_move();
            assert_eq!(
                play(&mut g, next, retake),
                Err(IllegalMove::Ko),
                "lap {lap} after {m}"
            );
        }
        assert_position(&g, TRIPLE_KO);
        assert_eq!(g.board().captures(B), 3 * (lap + 1));
        assert_eq!(g.board().captures(W), 3 * (lap + 1));
    }
}

#[test]
fn triple_ko_cycle_is_broken_by_superko() {
    for name in ["chinese", "tromp-taylor", "aga", "new-zealand"] {
        let mut g = setup(TRIPLE_KO, B, preset(name));
        play_all(&mut g, &TRIPLE_KO_CYCLE[..5]);
        // The sixth capture would recreate the start position, Black to move.
        assert_eq!(play(&mut g, W, "B6"), Err(IllegalMove::Superko), "{name}");
    }
    // Natural-situational superko only looks at positions that followed a
    // placement by the same player: the start followed none, so the cycle
    // closes once, and the next lap's first capture is refused.
    let mut g = setup(TRIPLE_KO, B, preset("simple-area"));
    play_all(&mut g, &TRIPLE_KO_CYCLE);
    assert_position(&g, TRIPLE_KO);
    assert_eq!(play(&mut g, B, "C2"), Err(IllegalMove::Superko));
}

// ---- superko variants ----------------------------------------------------------

/// Black throws a second stone into atari (C1), White takes the two (A1),
/// Black takes back one (B1): the stones are as at the start, but now White
/// is to move.
const SEND_TWO_RETURN_ONE: &str = "
    . . . . .
    . . . . .
    . . . . .
    X O O . .
    . X . O .";

#[test]
fn sending_two_returning_one() {
    for (name, rules) in PRESETS {
        let mut g = setup(SEND_TWO_RETURN_ONE, B, *rules);
        play_all(&mut g, &["B C1", "W A1"]);
        assert_eq!(g.board().captures(W), 2);
        let return_one = play(&mut g, B, "B1");
        if rules.ko == KoRule::Positional {
            assert_eq!(return_one, Err(IllegalMove::Superko), "{name}");
            continue;
        }
        // Every other rule allows the return: the position repeats, but
        // never after a placement by Black with White to move.
        assert_eq!(return_one, Ok(()), "{name}");
        assert_position(&g, SEND_TWO_RETURN_ONE);
        assert_eq!(g.to_move(), W);
        // White passes and Black sends two again: that recreates the
        // position after Black's first C1, White to move, which only simple
        // ko lets through.
        play_all(&mut g, &["W pass"]);
        let send_again = play(&mut g, B, "C1");
        match rules.ko {
            KoRule::Simple => assert_eq!(send_again, Ok(()), "{name}"),
            _ => assert_eq!(send_again, Err(IllegalMove::Superko), "{name}"),
        }
    }
}

#[test]
fn positional_and_situational_superko_disagree() {
    // New Zealand and Tromp-Taylor differ only in the ko rule.
    let mut situational = setup(SEND_TWO_RETURN_ONE, B, preset("new-zealand"));
    let mut positional = setup(SEND_TWO_RETURN_ONE, B, preset("tromp-taylor"));
    for g in [&mut situational, &mut positional] {
        play_all(g, &["B C1", "W A1"]);
    }
    // Same stones as the start, but the start had Black to move and this
    // would have White to move.
    assert_eq!(play(&mut situational, B, "B1"), Ok(()));
    assert_eq!(play(&mut positional, B, "B1"), Err(IllegalMove::Superko));
}

/// A ko where White's stone at B2 can be taken by Black at C2.
const KO: &str = "
    . . . . .
    . . . . .
    . X O . .
    X O . O .
    . X O . .";

#[test]
fn natural_situational_superko_ignores_positions_after_a_pass() {
    let outcome = |name: &str| {
        let mut g = setup(KO, W, preset(name));
        // The ko position (White's stone in it) arises after White's pass.
        play_all(&mut g, &["W pass", "B C2", "W pass", "B pass"]);
        let retake = play(&mut g, W, "B2");
        (g, retake)
    };
    // Retaking recreates the position after White's pass, Black to move.
    let (mut g, retake) = outcome("simple-area");
    assert_eq!(retake, Ok(()));
    assert_position(&g, KO);
    assert_eq!(outcome("chinese").1, Err(IllegalMove::Superko));
    assert_eq!(outcome("aga").1, Err(IllegalMove::Superko));
    // Simple ko looks only at the position before Black's pass.
    assert_eq!(outcome("japanese").1, Ok(()));
    // But the position after Black's capture did follow a Black placement,
    // so Black may not take the ko back again, passes or not.
    play_all(&mut g, &["B pass", "W pass"]);
    assert_eq!(play(&mut g, B, "C2"), Err(IllegalMove::Superko));
}

// ---- handicap ----------------------------------------------------------------

fn names(points: &[ishi::board::Point], size: usize) -> BTreeSet<String> {
    points.iter().map(|&p| vertex_name(p, size)).collect()
}

fn set(vertices: &str) -> BTreeSet<String> {
    vertices.split_whitespace().map(str::to_string).collect()
}

/// Places `n` fixed handicap stones on an empty board and checks the game
/// around them: exactly those black stones, White to move.
fn fixed_handicap(size: usize, n: u32) -> BTreeSet<String> {
    let mut g = Game::new(size, preset("chinese")).unwrap();
    let points = g.fixed_handicap(n).unwrap();
    assert_eq!(points.len(), n as usize);
    assert_eq!(g.board().stones(B).count(), n);
    assert_eq!(g.board().stones(W).count(), 0);
    for &p in &points {
        assert_eq!(g.board().color_at(p), Some(B));
    }
    assert_eq!(g.to_move(), W);
    assert_eq!(g.handicap(), n);
    names(&points, size)
}

#[test]
fn handicap_on_19x19() {
    let four = "D4 Q16 D16 Q4";
    let six = "D4 Q16 D16 Q4 D10 Q10";
    let expected = [
        (2, "D4 Q16".to_string()),
        (3, "D4 Q16 D16".to_string()),
        (4, four.to_string()),
        (5, format!("{four} K10")),
        (6, six.to_string()),
        (7, format!("{six} K10")),
        (8, format!("{six} K4 K16")),
        (9, format!("{six} K4 K16 K10")),
    ];
    for (n, vertices) in expected {
        assert_eq!(fixed_handicap(19, n), set(&vertices), "{n} stones");
    }
}

#[test]
fn handicap_on_13x13_uses_the_fourth_line() {
    let four = "D4 K10 D10 K4";
    let six = "D4 K10 D10 K4 D7 K7";
    let expected = [
        (2, "D4 K10".to_string()),
        (3, "D4 K10 D10".to_string()),
        (4, four.to_string()),
        (5, format!("{four} G7")),
        (6, six.to_string()),
        (7, format!("{six} G7")),
        (8, format!("{six} G4 G10")),
        (9, format!("{six} G4 G10 G7")),
    ];
    for (n, vertices) in expected {
        assert_eq!(fixed_handicap(13, n), set(&vertices), "{n} stones");
    }
}

#[test]
fn handicap_on_9x9_uses_the_third_line() {
    let four = "C3 G7 C7 G3";
    let six = "C3 G7 C7 G3 C5 G5";
    let expected = [
        (2, "C3 G7".to_string()),
        (3, "C3 G7 C7".to_string()),
        (4, four.to_string()),
        (5, format!("{four} E5")),
        (6, six.to_string()),
        (7, format!("{six} E5")),
        (8, format!("{six} E3 E7")),
        (9, format!("{six} E3 E7 E5")),
    ];
    for (n, vertices) in expected {
        assert_eq!(fixed_handicap(9, n), set(&vertices), "{n} stones");
    }
}

#[test]
fn how_many_fixed_handicap_stones_each_size_has() {
    for size in 2..=25 {
        let max = match size {
            s if s % 2 == 1 && s >= 9 => 9,
            s if (s % 2 == 0 && s >= 8) || s == 7 => 4,
            _ => 0,
        };
        for n in 0..=12 {
            let exists = (2..=max).contains(&n);
            assert_eq!(
                handicap_points(size, n).is_some(),
                exists,
                "{size}x{size} with {n} stones"
            );
            let mut g = Game::new(size, preset("japanese")).unwrap();
            match g.fixed_handicap(n) {
                Ok(points) => {
                    assert!(exists);
                    assert_eq!(g.board().stones(B).count(), n, "{size}x{size} {n}");
                    assert_eq!(names(&points, size).len(), n as usize);
                }
                Err(e) => {
                    assert!(!exists, "{size}x{size} {n}: {e}");
                    assert_eq!(e, HandicapError::InvalidNumber);
                    assert_eq!(g.board().stone_count(), 0);
                    assert_eq!(g.to_move(), B);
                }
            }
        }
    }
    assert_eq!(fixed_handicap(7, 4), set("C3 E5 C5 E3"));
}

#[test]
fn fixed_handicap_needs_an_empty_board() {
    let mut g = Game::new(19, preset("chinese")).unwrap();
    play_all(&mut g, &["B Q16"]);
    assert_eq!(g.fixed_handicap(2), Err(HandicapError::BoardNotEmpty));
    assert_eq!(g.board().stone_count(), 1);
}

// ---- scoring a seki -------------------------------------------------------------

/// White lives on the left, Black on the right; along the bottom a black
/// chain (eye A1) and a white chain (eye G1) share the liberty C1. Whoever
/// fills C1 is captured, and neither eye can be filled: seki.
const SEKI: &str = "
    . . O X . . .
    . . O X . . .
    . . O X . . .
    . . O X . . .
    O O O X X X X
    X X X O O O O
    . X . O O O .";

#[test]
fn seki_under_area_and_territory_scoring() {
    let board = Board::from_ascii(SEKI).unwrap();
    let at = |v: &str| parse_vertex(v, 7).unwrap().unwrap();
    let black_seki = board.chain_stones(at("B1"));
    let white_seki = board.chain_stones(at("D1"));
    assert_eq!((black_seki.count(), white_seki.count()), (4, 7));
    // Each chain has its own eye and the shared liberty, nothing else.
    let shared = board.chain_liberties(at("B1")) & board.chain_liberties(at("D1"));
    assert_eq!(board.liberty_count(at("B1")), 2);
    assert_eq!(board.liberty_count(at("D1")), 2);
    assert_eq!(shared, Bitboard::single(at("C1").0));

    let seki = black_seki | white_seki;
    let facts = GameFacts::default();
    let nothing_dead = Bitboard::EMPTY;

    // Area: stones plus the empty points reaching only one colour, the seki
    // eyes included. Black 12 stones + 12 + A1, White 14 stones + 8 + G1;
    // C1 is neutral. Komi 7.5.
    let area = score(&board, &preset("chinese"), &facts, &nothing_dead, &seki);
    assert_eq!((area.black, area.white), (25.0, 23.0 + 7.5));
    assert_eq!(area.to_string(), "W+5.5");

    // Territory, Japanese style: the eyes of chains in seki count for nobody.
    let japanese = score(&board, &preset("japanese"), &facts, &nothing_dead, &seki);
    assert_eq!((japanese.black, japanese.white), (12.0, 8.0 + 6.5));
    assert_eq!(japanese.to_string(), "W+2.5");
    // It is the seki marking that makes the eyes neutral.
    let unmarked = score(
        &board,
        &preset("japanese"),
        &facts,
        &nothing_dead,
        &nothing_dead,
    );
    assert_eq!((unmarked.black, unmarked.white), (13.0, 9.0 + 6.5));
}
