//! A short 9×9 game against GNU Go (level 1, quick) finishes with legal
//! moves only: every ishi move is accepted by ishi's own rules and by GNU
//! Go, and the game ends by passes or a resignation. Skipped, with a note,
//! where GNU Go is not installed.

mod common;

use common::{play_game, MatchConfig, GNUGO};
use ishi::board::Color;
use ishi::search::PlayoutKind;

#[test]
fn a_short_game_against_gnugo_is_legal_to_the_end() {
    if !std::path::Path::new(GNUGO).exists() {
        eprintln!("skipped: {GNUGO} is not installed");
        return;
    }
    let cfg = MatchConfig {
        size: 9,
        komi: 7.0,
        playouts: 300,
        threads: 1,
        level: 1,
        playout: PlayoutKind::Heavy,
        seed: 1,
        tuning: Default::default(),
        resign: None,
        opening: None,
        opponent: None,
    };
    for ishi in [Color::Black, Color::White] {
        let record = play_game(&cfg, ishi).unwrap_or_else(|e| panic!("{e}"));
        assert!(record.moves > 0);
        assert!(
            record.result.contains('+') || record.result == "0",
            "{record:?}"
        );
    }
}
