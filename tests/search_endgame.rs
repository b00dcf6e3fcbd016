//! Game sense at the end: pass only when passing does not lose and no move
//! still gains; never fill own territory under territory rules.

use ishi::board::coord::move_name;
use ishi::board::{Board, Color, Move};
use ishi::game::Game;
use ishi::rules::Rules;
use ishi::search::{Decision, Limits, PlayoutKind, SearchConfig, Searcher};
use std::sync::atomic::AtomicBool;

/// Black's choice after White's pass (or not), under the named rules.
fn black_answers(diagram: &str, rules: &str, white_passed: bool) -> String {
    black_answers_with_komi(diagram, rules, 0.5, white_passed)
}

fn black_answers_with_komi(diagram: &str, rules: &str, komi: f64, white_passed: bool) -> String {
    let board = Board::from_ascii(diagram).unwrap();
    let size = board.size();
    let rules = Rules {
        komi,
        ..Rules::preset(rules).unwrap()
    };
    let mut game = Game::from_position(board, Color::White, rules);
    if white_passed {
        game.play(Color::White, Move::Pass).unwrap();
    } else {
        game = Game::from_position(game.board().clone(), Color::Black, rules);
    }
    let mut searcher = Searcher::new(SearchConfig {
        threads: 1,
        playouts: Some(2000),
        playout: PlayoutKind::Heavy,
        seed: 3,
        resign_threshold: 0.0,
        ..SearchConfig::default()
    });
    let outcome = searcher.genmove(
        &game,
        Color::Black,
        &Limits::default(),
        &AtomicBool::new(false),
    );
    match outcome.decision {
        Decision::Play(mv) => move_name(mv, size),
        Decision::Resign => "resign".into(),
    }
}

const SETTLED: &str = "
    . . X O .
    . . X O .
    . . X O .
    . . X O .
    . . X O .";

/// White has two real eyes (E5, E3); D1 touches both colours.
const DAME: &str = "
    . . X O .
    . . X O O
    . . X O .
    . . X O O
    . . X . O";

#[test]
fn passes_back_when_the_board_is_settled_and_black_wins() {
    assert_eq!(black_answers(SETTLED, "chinese", true), "pass");
}

#[test]
fn fills_the_last_dame_before_passing_under_area_rules() {
    assert_eq!(black_answers(DAME, "chinese", true), "D1");
}

#[test]
fn does_not_fill_own_territory_under_territory_rules() {
    assert_eq!(black_answers(SETTLED, "japanese", false), "pass");
}

/// From a game against GNU Go (colours swapped): Black's corner group at
/// the top right lives in seki with White J7 (J8 and J6 are shared
/// liberties), and passing now draws: with Black's four stones at the
/// bottom right dead, Black's area is 36 + 7 komi and White's 43. Black
/// used to play on because a draw is not a win, and filled its own seki
/// liberty at J8, letting White capture the group.
const SEKI_DRAW: &str = "
    O O O O X X X X X
    O X O O O O O X .
    X X X O . O X X O
    X . X O O O O X .
    X X X X X O X X X
    . X . X O O X O O
    X X X X X O O O O
    O O X X O O X O .
    . O O O . O X X X";

#[test]
fn passes_into_a_draw_rather_than_fill_a_seki_liberty() {
    assert_eq!(
        black_answers_with_komi(SEKI_DRAW, "chinese", -7.0, true),
        "pass"
    );
}
