//! Properties over random move sequences (proptest): the incremental state
//! always equals a recomputation, and copies and undo give back exactly the
//! position they started from, including everything that decides which
//! moves are legal later (the superko history).

use ishi::board::{Color, Move};
use ishi::game::Game;
use ishi::rules::{KoRule, Rules, SuicideRule};
use proptest::prelude::*;

#[derive(Clone, Copy, Debug)]
enum Action {
    /// A placement by either colour, on the point `index % (size * size)`.
    Place {
        white: bool,
        index: usize,
    },
    Pass {
        white: bool,
    },
    Undo,
}

fn action() -> impl Strategy<Value = Action> {
    prop_oneof![
        12 => (any::<bool>(), 0..81usize).prop_map(|(white, index)| Action::Place { white, index }),
        1 => any::<bool>().prop_map(|white| Action::Pass { white }),
        1 => Just(Action::Undo),
    ]
}

fn rules() -> impl Strategy<Value = Rules> {
    let ko = prop_oneof![
        Just(KoRule::Simple),
        Just(KoRule::Positional),
        Just(KoRule::Situational),
        Just(KoRule::NaturalSituational),
    ];
    let suicide = prop_oneof![Just(SuicideRule::Allowed), Just(SuicideRule::Forbidden)];
    (ko, suicide).prop_map(|(ko, suicide)| Rules {
        ko,
        suicide,
        ..Rules::default()
    })
}

fn color(white: bool) -> Color {
    if white {
        Color::White
    } else {
        Color::Black
    }
}

/// Applies one action; true when it changed the game.
fn apply(game: &mut Game, a: Action) -> bool {
    match a {
        Action::Place { white, index } => {
            let n = game.size();
            let p = game.board().point(index % n, (index / n) % n).unwrap();
            game.play(color(white), Move::Place(p)).is_ok()
        }
        Action::Pass { white } => game.play(color(white), Move::Pass).is_ok(),
        Action::Undo => game.undo(),
    }
}

/// Every move either colour could try next: each point and the pass.
fn all_moves(game: &Game) -> Vec<(Color, Move)> {
    let mut moves = Vec::new();
    for c in [Color::Black, Color::White] {
        moves.extend(game.board().points().map(|p| (c, Move::Place(p))));
        moves.push((c, Move::Pass));
    }
    moves
}

/// The two games are in the same position in every respect that matters
/// to play: stones, hash, side to move, prisoners, passes, history length
/// and the legality of every move for both colours.
fn assert_same(a: &Game, b: &Game, context: &str) {
    assert_eq!(a.board().to_ascii(), b.board().to_ascii(), "{context}");
    assert_eq!(a.board().hash(), b.board().hash(), "{context}");
    assert_eq!(a.to_move(), b.to_move(), "{context}");
    assert_eq!(a.position_key(), b.position_key(), "{context}");
    assert_eq!(a.simple_ko_point(), b.simple_ko_point(), "{context}");
    assert_eq!(a.consecutive_passes(), b.consecutive_passes(), "{context}");
    assert_eq!(a.plies().len(), b.plies().len(), "{context}");
    for c in [Color::Black, Color::White] {
        assert_eq!(a.board().captures(c), b.board().captures(c), "{context}");
    }
    for (c, m) in all_moves(a) {
        assert_eq!(
            a.check(c, m),
            b.check(c, m),
            "{context}: legality of {c:?} {m:?} differs"
        );
    }
}

fn assert_consistent(game: &Game) {
    let board = game.board();
    assert_eq!(board.hash(), board.recompute_hash());
    if let Err(e) = board.check_consistency() {
        panic!("{e}\n{}", board.to_ascii());
    }
    // The O(1) atari test against the real liberty set.
    for p in board.points().filter(|&p| !board.is_empty_at(p)) {
        let liberties = board.chain_liberties(p);
        assert_eq!(board.liberty_count(p), liberties.count());
        assert_eq!(board.in_atari(p), liberties.count() == 1);
        let only = (liberties.count() == 1)
            .then(|| liberties.first())
            .flatten();
        assert_eq!(board.atari_liberty(p).map(|q| q.0), only);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    #[test]
    fn incremental_hash_and_chains_match_a_recomputation(
        size in 2..=9usize,
        rules in rules(),
        actions in prop::collection::vec(action(), 0..150),
    ) {
        let mut game = Game::new(size, rules).unwrap();
        for a in actions {
            apply(&mut game, a);
            assert_consistent(&game);
        }
    }

    #[test]
    fn undo_restores_the_position_before_each_move(
        size in 2..=9usize,
        rules in rules(),
        actions in prop::collection::vec(action(), 0..100),
    ) {
        let mut game = Game::new(size, rules).unwrap();
        for (i, a) in actions.into_iter().enumerate() {
            let before = game.clone();
            if apply(&mut game, a) && !matches!(a, Action::Undo) {
                let mut back = game.clone();
                prop_assert!(back.undo());
                assert_consistent(&back);
                assert_same(&back, &before, &format!("undo of action {i} {a:?}"));
            }
        }
    }

    /// Changing the ko or suicide rule mid-game rebuilds the superko
    /// history: the game then judges every move as if it had been played
    /// under the new rules from the start.
    #[test]
    fn changing_rules_mid_game_equals_playing_under_them(
        size in 2..=6usize,
        first in rules(),
        second in rules(),
        actions in prop::collection::vec(action(), 0..120),
    ) {
        let mut game = Game::new(size, first).unwrap();
        for &a in &actions {
            apply(&mut game, a);
        }
        let mut replay = Game::new(size, second).unwrap();
        for ply in game.plies() {
            // A move legal under the first rules may not be under the second.
            prop_assume!(replay.play(ply.color, ply.mv).is_ok());
        }
        game.set_rules(second);
        assert_same(&game, &replay, "after set_rules");
    }

    /// A copy taken mid-game is untouched by play on the original; undoing
    /// everything played since brings the original back to the copy; and
    /// from there both go on to accept and refuse exactly the same moves,
    /// so undo also restored the superko history.
    #[test]
    fn clone_and_undo_restore_the_exact_position(
        size in 2..=7usize,
        rules in rules(),
        prefix in prop::collection::vec(action(), 0..80),
        middle in prop::collection::vec(action(), 0..60),
        continuation in prop::collection::vec(action(), 0..60),
    ) {
        let mut game = Game::new(size, rules).unwrap();
        for &a in &prefix {
            apply(&mut game, a);
        }
        let snapshot = game.clone();
        // A fresh replay of the prefix, to show the copy stayed as it was.
        let mut replay = Game::new(size, rules).unwrap();
        for &a in &prefix {
            apply(&mut replay, a);
        }

        let mut played = 0;
        for &a in &middle {
            // Undo inside the middle would reach back past the snapshot.
            if !matches!(a, Action::Undo) && apply(&mut game, a) {
                played += 1;
            }
        }
        assert_same(&snapshot, &replay, "copy after play on the original");
        for _ in 0..played {
            prop_assert!(game.undo());
        }
        assert_consistent(&game);
        assert_same(&game, &snapshot, "after undoing the middle");

        let mut copy = snapshot.clone();
        for (i, &a) in continuation.iter().enumerate() {
            let by_original = apply(&mut game, a);
            let by_copy = apply(&mut copy, a);
            prop_assert_eq!(by_original, by_copy, "continuation {} {:?}", i, a);
            assert_same(&game, &copy, &format!("continuation {i} {a:?}"));
        }
    }
}
