//! Search control: the stop flag, time limits, analysis reports, tree
//! reuse, and legality under superko.

use ishi::board::coord::parse_vertex;
use ishi::board::{Board, Color, Move};
use ishi::game::Game;
use ishi::rules::Rules;
use ishi::search::{
    Decision, Limits, PlayoutKind, SearchConfig, SearchOutcome, Searcher, Snapshot, Tuning,
};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

fn config(threads: usize) -> SearchConfig {
    SearchConfig {
        threads,
        playouts: None,
        playout: PlayoutKind::Heavy,
        seed: 11,
        resign_threshold: 0.0,
        ..SearchConfig::default()
    }
}

fn at(v: &str, size: usize) -> Move {
    Move::Place(parse_vertex(v, size).unwrap().unwrap())
}

/// A client that writes its next command without waiting (or a piped
/// script that ends) raises the flag before the search starts: the move
/// still comes from a short search, not from none.
#[test]
fn a_raised_stop_flag_ends_the_search_after_a_short_look() {
    let game = Game::new(9, Rules::default()).unwrap();
    let stop = AtomicBool::new(true);
    let started = Instant::now();
    let outcome = Searcher::new(config(2)).genmove(
        &game,
        Color::Black,
        &Limits {
            playouts: Some(1_000_000),
            time: None,
            unsettled_time: None,
        },
        &stop,
    );
    let took = started.elapsed();
    assert!(took < Duration::from_secs(2), "{took:?}");
    let playouts = outcome.snapshot.playouts;
    // Each thread may finish its batch of 16 after the grace is over.
    assert!(playouts < 1000 + 2 * 16, "{playouts}");
    assert!(
        playouts >= 1000 || took >= Duration::from_millis(250),
        "{playouts} playouts in {took:?}"
    );
    match outcome.decision {
        Decision::Play(mv) => {
            assert!(game.is_legal(Color::Black, mv));
            assert_ne!(mv, Move::Pass, "the priors still know a move");
        }
        Decision::Resign => panic!("resigned on an empty board"),
    }
}

#[test]
fn a_time_limit_ends_the_search() {
    let game = Game::new(9, Rules::default()).unwrap();
    let started = Instant::now();
    let outcome = Searcher::new(config(2)).genmove(
        &game,
        Color::Black,
        &Limits {
            playouts: None,
            time: Some(Duration::from_millis(300)),
            unsettled_time: None,
        },
        &AtomicBool::new(false),
    );
    // Generous: the machine may be busy; the point is that it ends.
    assert!(started.elapsed() < Duration::from_secs(3));
    assert!(outcome.snapshot.playouts > 0);
}

#[test]
fn analysis_reports_at_intervals_until_stopped() {
    let game = Game::new(9, Rules::default()).unwrap();
    let stop = AtomicBool::new(false);
    let mut reports: Vec<Snapshot> = Vec::new();
    std::thread::scope(|s| {
        s.spawn(|| {
            std::thread::sleep(Duration::from_millis(400));
            stop.store(true, Ordering::Relaxed);
        });
        Searcher::new(config(2)).analyze(
            &game,
            Color::Black,
            Duration::from_millis(50),
            None,
            &stop,
            &mut |snap| reports.push(snap.clone()),
        );
    });
    assert!(reports.len() >= 2, "{} reports", reports.len());
    let last = reports.last().unwrap();
    assert!(last.playouts > reports[0].playouts);
    assert!(!last.candidates.is_empty());
    assert!(last
        .candidates
        .windows(2)
        .all(|w| w[0].visits >= w[1].visits));
    assert_eq!(last.ownership.len(), 81);
    let best = &last.candidates[0];
    assert!(best.lcb <= best.winrate && !best.pv.is_empty() && best.pv[0] == best.mv);
}

/// Black plays the search's best move and White the reply it expected,
/// so that the next search can start from the kept subtree.
fn play_best_and_its_reply(game: &mut Game, snapshot: &Snapshot) {
    let best = &snapshot.candidates[0];
    let reply = best.pv.get(1).copied().unwrap_or(Move::Pass);
    game.play(Color::Black, best.mv).unwrap();
    game.play(Color::White, reply).unwrap();
}

/// A search of 3,000 playouts from the empty board, its best move and
/// the reply it expected played, then a search of 200 playouts: the
/// searcher (for more searches), the root visits of the second and how
/// many of them its own playouts made.
fn search_on_after_the_expected_reply(tuning: &str) -> (Searcher, u64, u64) {
    let mut game = Game::new(9, Rules::default()).unwrap();
    let mut searcher = Searcher::new(SearchConfig {
        playouts: Some(3000),
        tuning: Tuning::parse(tuning).unwrap(),
        ..config(1)
    });
    let stop = AtomicBool::new(false);
    let first = searcher.genmove(&game, Color::Black, &Limits::default(), &stop);
    play_best_and_its_reply(&mut game, &first.snapshot);
    let second = searcher.genmove(&game, Color::Black, &SHORT, &stop);
    assert!(second.snapshot.playouts <= 200);
    let visits = second.snapshot.candidates.iter().map(|c| c.visits).sum();
    (searcher, visits, second.snapshot.playouts)
}

const SHORT: Limits = Limits {
    playouts: Some(200),
    time: None,
    unsettled_time: None,
};

#[test]
fn the_tree_is_kept_when_the_game_goes_on() {
    let (mut searcher, visits, _) = search_on_after_the_expected_reply("");
    assert!(visits > 200, "the kept subtree adds its visits: {visits}");

    // A position that did not follow from the kept root starts afresh.
    let other = Game::new(9, Rules::default()).unwrap();
    let third = searcher.genmove(&other, Color::White, &SHORT, &AtomicBool::new(false));
    let visits: u64 = third.snapshot.candidates.iter().map(|c| c.visits).sum();
    assert!(visits <= 200);
}

/// `--tune reuse=0` starts every search afresh, even where the game went
/// on from the kept root.
#[test]
fn without_reuse_every_search_starts_afresh() {
    let (_, visits, _) = search_on_after_the_expected_reply("reuse=0");
    assert!(visits <= 200, "nothing kept: {visits}");
}

/// `--tune reuse_weight=0.5` keeps the subtree with half its counts: the
/// next search starts from the same tree, but its own playouts weigh twice
/// as much against the kept ones.
#[test]
fn a_weighed_down_kept_tree_brings_half_its_visits() {
    let (_, visits, playouts) = search_on_after_the_expected_reply("");
    let whole = visits - playouts;
    let (_, visits, playouts) = search_on_after_the_expected_reply("reuse_weight=0.5");
    let half = visits - playouts;
    assert!(whole > 20, "the kept subtree adds its visits: {whole}");
    // Each root child's visits are halved and rounded down on their own.
    assert!(
        half <= whole / 2 && half + 10 >= whole / 2,
        "{half} kept visits with half the counts, {whole} with all"
    );
}

/// The kept subtree keeps the score statistics of its nodes too: after a
/// move and a reply, the expected score of the new root's moves is not
/// diluted by visits that brought no score. Komi 40 on an empty board
/// puts Black about 40 points behind, whatever Black plays.
#[test]
fn the_kept_tree_still_knows_the_score() {
    let rules = Rules {
        komi: 40.0,
        ..Rules::default()
    };
    let mut game = Game::new(9, rules).unwrap();
    let mut searcher = Searcher::new(SearchConfig {
        playouts: Some(4000),
        ..config(1)
    });
    let stop = AtomicBool::new(false);
    let first = searcher.genmove(&game, Color::Black, &Limits::default(), &stop);
    let lead = first.snapshot.candidates[0].score_lead;
    assert!(lead < -20.0, "fresh tree: {lead}");
    play_best_and_its_reply(&mut game, &first.snapshot);
    let limits = Limits {
        playouts: Some(1),
        time: None,
        unsettled_time: None,
    };
    let second = searcher.genmove(&game, Color::Black, &limits, &stop);
    let kept = &second.snapshot.candidates[0];
    // One new playout: the rest of the visits come from the kept subtree.
    assert!(kept.visits > 10, "reused: {} visits", kept.visits);
    assert!(kept.score_lead < -20.0, "kept tree: {}", kept.score_lead);
}

/// Black has just taken a ko, then both passed: the simple-ko ban is gone,
/// but retaking would repeat the position after White's last placement.
fn ko_after_two_passes(rules: Rules) -> Game {
    let board = Board::from_ascii(
        "
        . X O . .
        X O . O .
        . X O . .
        . . . . .
        . . . . .",
    )
    .unwrap();
    let mut game = Game::from_position(board, Color::Black, rules);
    game.play(Color::Black, at("C4", 5)).unwrap();
    game.play(Color::White, Move::Pass).unwrap();
    game.play(Color::Black, Move::Pass).unwrap();
    game
}

#[test]
fn superko_moves_are_never_chosen() {
    let retake = at("B4", 5);
    let positional = ko_after_two_passes(Rules::default());
    assert!(!positional.is_legal(Color::White, retake));
    let simple = ko_after_two_passes(Rules::preset("japanese").unwrap());
    assert!(simple.is_legal(Color::White, retake));
    // Where retaking is allowed the search does consider it ...
    let mut searcher = Searcher::new(SearchConfig {
        playouts: Some(800),
        ..config(1)
    });
    let stop = AtomicBool::new(false);
    let outcome = searcher.genmove(&simple, Color::White, &Limits::default(), &stop);
    assert!(outcome.snapshot.candidates.iter().any(|c| c.mv == retake));
    // ... and where it is not, never.
    for seed in 0..4 {
        let mut searcher = Searcher::new(SearchConfig {
            playouts: Some(800),
            seed,
            ..config(1)
        });
        let stop = AtomicBool::new(false);
        let outcome = searcher.genmove(&positional, Color::White, &Limits::default(), &stop);
        if let Decision::Play(mv) = outcome.decision {
            assert!(positional.is_legal(Color::White, mv));
        }
        assert!(outcome.snapshot.candidates.iter().all(|c| c.mv != retake));
    }
}

#[test]
fn every_board_size_gets_a_legal_move() {
    for size in [2, 3, 4, 5, 7, 13, 19, 25] {
        let mut game = Game::new(size, Rules::default()).unwrap();
        let mut searcher = Searcher::new(SearchConfig {
            playouts: Some(200),
            max_nodes: 0,
            ..config(2)
        });
        let stop = AtomicBool::new(false);
        for _ in 0..4 {
            let color = game.to_move();
            match searcher
                .genmove(&game, color, &Limits::default(), &stop)
                .decision
            {
                Decision::Play(mv) => game.play(color, mv).unwrap(),
                Decision::Resign => break,
            }
        }
    }
}

#[test]
fn pondering_on_the_opponents_time_feeds_the_next_search() {
    let mut game = Game::new(9, Rules::default()).unwrap();
    game.play(Color::Black, at("E5", 9)).unwrap();
    let mut searcher = Searcher::new(config(2));
    let stop = AtomicBool::new(false);
    let pondered = std::thread::scope(|s| {
        s.spawn(|| {
            std::thread::sleep(Duration::from_millis(500));
            stop.store(true, Ordering::Relaxed);
        });
        searcher.ponder(&game, Color::White, &stop)
    });
    // White answers where the ponder search looked most.
    let reply = pondered.candidates[0].mv;
    game.play(Color::White, reply).unwrap();
    let outcome = searcher.genmove(
        &game,
        Color::Black,
        &Limits {
            playouts: Some(100),
            time: None,
            unsettled_time: None,
        },
        &AtomicBool::new(false),
    );
    let visits: u64 = outcome.snapshot.candidates.iter().map(|c| c.visits).sum();
    assert!(outcome.snapshot.playouts <= 100);
    assert!(visits > 100, "the pondered subtree was kept: {visits}");
}

/// Black's move in `game` from a fresh one-thread searcher with `tuning`
/// and at most `playouts`.
fn genmove_tuned(game: &Game, tuning: &str, playouts: u64) -> SearchOutcome {
    let mut searcher = Searcher::new(SearchConfig {
        tuning: Tuning::parse(tuning).unwrap(),
        ..config(1)
    });
    let limits = Limits {
        playouts: Some(playouts),
        time: None,
        unsettled_time: None,
    };
    searcher.genmove(game, Color::Black, &limits, &AtomicBool::new(false))
}

/// Once the most visited move is out of reach for the playouts left, a
/// search stops; `--tune early_stop=0` spends the whole budget anyway.
#[test]
fn a_decided_search_stops_early_unless_told_to_spend_its_budget() {
    // Black takes the white eight at F3, their one liberty.
    let board = Board::from_ascii(
        "
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . X X X X . . .
        . X O O O O X . .
        . X O O O O X . .
        . . X X X . . . .
        . . . . . . O . .
        . . . . . . . . .",
    )
    .unwrap();
    let game = Game::from_position(board, Color::Black, Rules::default());
    let playouts_spent = |tuning: &str| {
        let outcome = genmove_tuned(&game, tuning, 4000);
        assert_eq!(outcome.decision, Decision::Play(at("F3", 9)));
        outcome.snapshot.playouts
    };
    let stopped_early = playouts_spent("");
    assert!(stopped_early < 4000, "{stopped_early}");
    assert_eq!(playouts_spent("early_stop=0"), 4000);
}

/// The opening book answers 9x9 games with komi 7 without a playout, and
/// only those: another komi, or the book switched off, is searched.
#[test]
fn the_opening_book_answers_only_the_games_it_was_searched_for() {
    let with_komi = |komi: f64| {
        let mut rules = Rules::preset("chinese").unwrap();
        rules.komi = komi;
        Game::new(9, rules).unwrap()
    };
    let genmove = |game: &Game, tuning: &str| genmove_tuned(game, tuning, 300);
    let booked = genmove(&with_komi(7.0), "book=1");
    assert_eq!(booked.snapshot.playouts, 0);
    let Decision::Play(mv) = booked.decision else {
        panic!("resigned on an empty board")
    };
    assert!(with_komi(7.0).is_legal(Color::Black, mv));
    assert_eq!(booked.snapshot.candidates[0].mv, mv);
    assert!(genmove(&with_komi(7.5), "book=1").snapshot.playouts > 0);
    assert!(genmove(&with_komi(7.0), "book=0").snapshot.playouts > 0);
}

/// The positions the match records added answer only with them: after
/// B3 E5 (a first move ishi's own tree of openings never followed), the
/// book plays F6 by default and searches with `book_records=0`.
#[test]
fn the_book_without_its_record_positions_searches_where_only_those_answer() {
    let mut rules = Rules::preset("chinese").unwrap();
    rules.komi = 7.0;
    let mut game = Game::new(9, rules).unwrap();
    game.play(Color::Black, at("B3", 9)).unwrap();
    game.play(Color::White, at("E5", 9)).unwrap();
    let booked = genmove_tuned(&game, "", 300);
    assert_eq!(booked.snapshot.playouts, 0);
    assert_eq!(booked.decision, Decision::Play(at("F6", 9)));
    assert!(
        genmove_tuned(&game, "book_records=0", 300)
            .snapshot
            .playouts
            > 0
    );
    let empty = Game::new(9, *game.rules()).unwrap();
    assert_eq!(
        genmove_tuned(&empty, "book_records=0", 300)
            .snapshot
            .playouts,
        0
    );
}
