//! A fixed-seed, single-thread search finds the obvious move in small
//! tactical positions, and the same seed gives the same move.

use ishi::board::coord::{move_name, parse_vertex};
use ishi::board::{Board, Color, Move};
use ishi::game::Game;
use ishi::rules::Rules;
use ishi::search::{Decision, Limits, PlayoutKind, SearchConfig, Searcher, Tuning};
use std::sync::atomic::AtomicBool;

fn searcher(playouts: u64, seed: u64, kind: PlayoutKind) -> Searcher {
    tuned_searcher(playouts, seed, kind, "")
}

fn tuned_searcher(playouts: u64, seed: u64, kind: PlayoutKind, tuning: &str) -> Searcher {
    Searcher::new(SearchConfig {
        threads: 1,
        playouts: Some(playouts),
        playout: kind,
        seed,
        resign_threshold: 0.0,
        tuning: Tuning::parse(tuning).unwrap(),
        ..SearchConfig::default()
    })
}

fn best_move(diagram: &str, to_move: Color, playouts: u64, kind: PlayoutKind) -> String {
    best_move_with_komi(diagram, to_move, playouts, kind, 7.5)
}

fn best_move_with_komi(
    diagram: &str,
    to_move: Color,
    playouts: u64,
    kind: PlayoutKind,
    komi: f64,
) -> String {
    best_move_tuned(diagram, to_move, playouts, kind, komi, "")
}

fn best_move_tuned(
    diagram: &str,
    to_move: Color,
    playouts: u64,
    kind: PlayoutKind,
    komi: f64,
    tuning: &str,
) -> String {
    let board = Board::from_ascii(diagram).unwrap();
    let rules = Rules {
        komi,
        ..Rules::default()
    };
    let game = Game::from_position(board, to_move, rules);
    searched_move(&game, to_move, tuned_searcher(playouts, 5, kind, tuning))
}

/// The move `searcher` chooses for `to_move` in `game`, by name.
fn searched_move(game: &Game, to_move: Color, mut searcher: Searcher) -> String {
    let outcome = searcher.genmove(game, to_move, &Limits::default(), &AtomicBool::new(false));
    match outcome.decision {
        Decision::Play(mv) => move_name(mv, game.size()),
        Decision::Resign => "resign".into(),
    }
}

/// The white eight have one liberty, F3; if Black waits, F3 connects them
/// to G2 and out.
const CAPTURE: &str = "
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . X X X X . . .
    . X O O O O X . .
    . X O O O O X . .
    . . X X X . . . .
    . . . . . . O . .
    . . . . . . . . .";

#[test]
fn captures_the_big_group() {
    for kind in [PlayoutKind::Heavy, PlayoutKind::Light] {
        assert_eq!(
            best_move(CAPTURE, Color::Black, 3000, kind),
            "F3",
            "{kind:?}"
        );
    }
}

#[test]
fn saves_the_group_in_atari() {
    // The black six are in atari at F3, which connects them to G3.
    let diagram = "
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . O O O . . . .
        . O X X X O . . .
        . O X X X . X . .
        . . O O O . . . .
        . . . . . . . . .";
    assert_eq!(
        best_move(diagram, Color::Black, 3000, PlayoutKind::Heavy),
        "F3"
    );
}

/// Straight three in the corner: B1 makes two eyes and wins by 6.5;
/// anywhere else White kills at B1 and wins.
const ONLY_MOVE_THAT_LIVES: &str = "
    . X X . X O .
    X X X X X O .
    X X X X X O .
    X X X X X O .
    O O O O O O .
    X X X X O . .
    . . . X O . .";

#[test]
fn plays_the_only_move_that_lives() {
    for kind in [PlayoutKind::Heavy, PlayoutKind::Light] {
        let mv = best_move_with_komi(ONLY_MOVE_THAT_LIVES, Color::Black, 3000, kind, 0.5);
        assert_eq!(mv, "B1", "{kind:?}");
    }
}

#[test]
fn criticality_in_the_search_still_finds_the_tactical_moves() {
    let tuning = "crit_weight=0.5";
    let heavy = PlayoutKind::Heavy;
    let mv = best_move_tuned(ONLY_MOVE_THAT_LIVES, Color::Black, 3000, heavy, 0.5, tuning);
    assert_eq!(mv, "B1");
    let mv = best_move_tuned(CAPTURE, Color::Black, 3000, heavy, 7.5, tuning);
    assert_eq!(mv, "F3");
}

#[test]
fn playout_and_root_knobs_still_find_the_tactical_moves() {
    let heavy = PlayoutKind::Heavy;
    for tuning in [
        "playout_replies=2",
        "playout_two_liberties=100",
        "root_halving=8",
        "root_rave_equiv=300",
        "root_halving=4,halving_by_real=1",
        "transpose=1",
        "symmetry=1",
        "rave_distance=1",
        "rave_opponent=1",
        "prior_amaf=1",
        "playout_mix_learned=160",
        "playout_ko_rate=40,playout_ko_connect=1",
    ] {
        let mv = best_move_tuned(ONLY_MOVE_THAT_LIVES, Color::Black, 3000, heavy, 0.5, tuning);
        assert_eq!(mv, "B1", "{tuning}");
        let mv = best_move_tuned(CAPTURE, Color::Black, 3000, heavy, 7.5, tuning);
        assert_eq!(mv, "F3", "{tuning}");
    }
}

/// From a game GNU Go won (seed 5754), before White's D7: once it is
/// played, Black's big group (C4-C9, A9-D9 and the corner) has two
/// liberties, C1 and D5; so have the six white stones on the left, A6 and
/// A7. Black to move wins the race with a snapback on either point: White
/// taking the stone is left in atari and loses all seven, and White
/// filling a black liberty instead lets Black take the six. Every other
/// move loses the race and the game. The playouts misplay the race, so
/// every move looks lost, A6 and A7 too in their AMAF results (played
/// late, after the race is over). While their priors counted them as
/// self-ataris the search never tried them and played J7, F1 or D5 with
/// every seed tried; a snapback now counts as an atari that catches.
const SNAPBACK_RACE: &str = "
    X X X X O . . . .
    O O X O . O X X .
    . O X . O X O O .
    . O X O O X . X .
    O O X . O X . X .
    X X X O O O O X X
    X X O O X X X . .
    X O O O X O O X X
    X X . O X . . X .";

/// Black's move after White plays `white` in `diagram`, by a search with
/// `seed`.
fn answer_to(diagram: &str, white: &str, seed: u64) -> String {
    let board = Board::from_ascii(diagram).unwrap();
    let rules = Rules {
        komi: 7.0,
        ..Rules::default()
    };
    let mut game = Game::from_position(board, Color::White, rules);
    let p = parse_vertex(white, 9).unwrap().unwrap();
    game.play_move(Move::Place(p)).unwrap();
    searched_move(
        &game,
        Color::Black,
        searcher(5000, seed, PlayoutKind::Heavy),
    )
}

#[test]
fn wins_the_race_that_the_playouts_call_lost() {
    for seed in 1..=3 {
        let mv = answer_to(SNAPBACK_RACE, "D7", seed);
        assert!(mv == "A6" || mv == "A7", "seed {seed}: {mv}");
    }
}

#[test]
fn the_same_seed_gives_the_same_search() {
    let board = Board::new(9).unwrap();
    let mut game = Game::from_position(board, Color::Black, Rules::default());
    for v in ["E5", "C4", "G6"] {
        let p = parse_vertex(v, 9).unwrap().unwrap();
        game.play_move(Move::Place(p)).unwrap();
    }
    let run = |seed| {
        let outcome = searcher(1500, seed, PlayoutKind::Heavy).genmove(
            &game,
            Color::White,
            &Limits::default(),
            &AtomicBool::new(false),
        );
        let top: Vec<(Move, u64)> = outcome
            .snapshot
            .candidates
            .iter()
            .map(|c| (c.mv, c.visits))
            .collect();
        (outcome.decision, top)
    };
    let first = run(9);
    assert_eq!(first, run(9));
    assert!(first.1.len() > 3);
}
