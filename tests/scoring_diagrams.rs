//! Finished positions drawn as diagrams, with the verdict a strong player
//! (and the rules) would give.

mod common;

use ishi::board::coord::parse_vertex;
use ishi::board::{Bitboard, Board, Color, Move, Point};
use ishi::game::Game;
use ishi::rules::Rules;
use ishi::score::score_game;
use ishi::search::status::{cleanup_move, judge, Judgement, StatusConfig};

fn game(diagram: &str, rules: &str) -> Game {
    let board = Board::from_ascii(diagram).expect("valid diagram");
    Game::from_position(board, Color::Black, Rules::preset(rules).expect("preset"))
}

fn config() -> StatusConfig {
    StatusConfig {
        playouts: 1000,
        threads: 2,
        seed: 7,
    }
}

fn at(g: &Game, v: &str) -> Point {
    parse_vertex(v, g.size()).unwrap().unwrap()
}

fn dead_at(j: &Judgement, g: &Game, v: &str) -> bool {
    j.dead.contains(at(g, v).0)
}

/// Every stone at `vertices` is judged dead.
fn assert_dead(j: &Judgement, g: &Game, vertices: &[&str]) {
    for v in vertices {
        assert!(dead_at(j, g, v), "{v} should be dead");
    }
}

/// No stone at `vertices` is judged dead.
fn assert_not_dead(j: &Judgement, g: &Game, vertices: &[&str]) {
    for v in vertices {
        assert!(!dead_at(j, g, v), "{v} should not be dead");
    }
}

fn score_under(g: &Game, j: &Judgement, rules: &str) -> String {
    let mut g = g.clone();
    g.set_rules(Rules::preset(rules).unwrap());
    score_game(&g, &j.dead, &j.seki).to_string()
}

/// Black holds the four left columns, White the rest; a lone black stone
/// stands inside White's area at G7.
const WHITE_AREA_WITH_A_DEAD_STONE: &str = "
    . . . X O . . . .
    . . . X O . . . .
    . . . X O . X . .
    . . . X O . . . .
    . . . X O . . . .
    . . . X O . . . .
    . . . X O . . . .
    . . . X O . . . .
    . . . X O . . . .";

#[test]
fn dead_stone_inside_territory_is_removed() {
    let g = game(WHITE_AREA_WITH_A_DEAD_STONE, "chinese");
    let j = judge(&g, &config());
    assert!(dead_at(&j, &g, "G7"));
    assert_eq!(j.dead.count(), 1);
    // Area: Black 36, White 45 + 7.5.
    assert_eq!(j.score.to_string(), "W+16.5");
    // Territory: Black 27, White 36 + 1 prisoner + 6.5.
    assert_eq!(score_under(&g, &j, "japanese"), "W+16.5");
    // Tromp-Taylor counts the literal position: G7 stays on the board and
    // makes White's whole region neutral.
    assert_eq!(score_under(&g, &j, "tromp-taylor"), "B+20.5");
    // Ownership reads row by row from the top left.
    assert!(j.ownership[0] > 0.5, "A9 is Black's");
    assert!(j.ownership[8] < 0.0, "J9 is mostly White's");
    assert!(j.ownership[2 * 9 + 6] < 0.0, "G7 belongs to White");
}

#[test]
fn seki_counts_under_area_but_not_under_japanese() {
    // The white C column and the black D-E chain share D9 and D1: whoever
    // fills one is captured, so both live without eyes.
    let g = game(common::SEKI_WITHOUT_EYES, "chinese");
    let j = judge(&g, &config());
    assert!(j.dead.is_empty(), "nothing is dead: {:?}", j.dead);
    assert!(j.seki.contains(at(&g, "C5").0));
    assert!(j.seki.contains(at(&g, "E5").0));
    assert!(!j.seki.contains(at(&g, "B5").0));
    // Area: Black 18 + 16 seki stones, White 36 + 9 seki stones + 7.5.
    assert_eq!(j.score.to_string(), "W+18.5");
    // Territory: two eyes each, the seki counts for nobody.
    assert_eq!(score_under(&g, &j, "japanese"), "W+6.5");
}

#[test]
fn bent_four_in_the_corner_is_dead() {
    let g = game(
        "
        . X . O X . . . .
        X O O O X . . . .
        . O O O X . . . .
        O O O O X . . . .
        X X X X X . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .",
        "japanese",
    );
    let j = judge(&g, &config());
    assert!(dead_at(&j, &g, "B8") && dead_at(&j, &g, "D9") && dead_at(&j, &g, "A6"));
    assert_not_dead(&j, &g, &["B9", "A8"]);
    assert!(j.seki.is_empty());
    // 70 points of territory and 11 prisoners against komi.
    assert_eq!(j.score.to_string(), "B+74.5");
    assert_eq!(score_under(&g, &j, "chinese"), "B+73.5");
}

#[test]
fn bent_four_is_found_in_any_corner_and_for_either_colour() {
    // The diagram above turned upside down, mirrored and recoloured.
    let g = game(
        "
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . O O O O O
        . . . . O X X X X
        . . . . O X X X .
        . . . . O X X X O
        . . . . O X . O .",
        "japanese",
    );
    let j = judge(&g, &config());
    assert!(dead_at(&j, &g, "H2") && dead_at(&j, &g, "F1") && dead_at(&j, &g, "J4"));
    assert_not_dead(&j, &g, &["H1", "J2"]);
    assert_eq!(j.score.to_string(), "W+87.5");
    assert_eq!(score_under(&g, &j, "chinese"), "W+88.5");
}

/// From a game against GNU Go (seed 22491): Black G9 H9 J9 and the white
/// chain around them share F9 and J8, which looks like a seki. But Black J8
/// gives up four stones, and White's capture at F9 leaves a bent four in
/// the corner, whose ko Black starts when no threats are left: White is
/// dead, as GNU Go counts it (B+12 at komi 7). ishi passed here calling it
/// a seki, at W+4.
#[test]
fn a_corner_seki_that_a_sacrifice_turns_into_bent_four_is_dead() {
    let g = game(
        "
        X X X X O . X X X
        X O O X O O O O .
        X X O X X X X O O
        X X O X O X X X X
        X O O O O O X X .
        X O O . O O O X X
        X X O O . O O X O
        X O O O O O X X O
        O O . O O X X X .",
        "chinese",
    );
    let j = judge(&g, &config());
    assert_dead(&j, &g, &["E9", "E8", "H8", "J7"]);
    for v in ["G9", "H9", "J9"] {
        assert!(
            !dead_at(&j, &g, v) && !j.seki.contains(at(&g, v).0),
            "{v} is alive"
        );
    }
    assert!(j.seki.is_empty(), "no seki: {:?}", j.seki);
    assert_eq!(j.score.to_string(), "B+11.5");
}

/// From a game against GNU Go (seed 22889), at the end. White's left
/// group (A1-B6) and Black's big group share B1 and A5, and neither can
/// fill one without self-atari, which looks like a seki. But the white
/// stones at the top left are in atari at B9: Black takes them, gains
/// liberties, and then kills the left group. GNU Go counts W+2 at komi 7;
/// ishi said W+24, calling it a seki.
#[test]
fn no_seki_holds_a_chain_that_can_take_stones_in_atari() {
    let g = game(
        "
        O . O O X X O . .
        O O O X X O O . .
        X X X X O O . O .
        X O X X X X O . .
        . O O O X X O . .
        O O X X X O O . .
        O O X O O O . . .
        O X X X X O . . .
        O . X O O O . . .",
        "chinese",
    );
    let j = judge(&g, &config());
    assert!(j.seki.is_empty(), "no seki: {:?}", j.seki);
    assert_dead(&j, &g, &["A1", "B6", "D5", "A9", "D9"]);
    assert_not_dead(&j, &g, &["C1", "E9"]);
    assert_eq!(j.score.to_string(), "W+2.5");
}

/// From a game against GNU Go (seed 22541). Black H1 and the white group
/// on the right share J1, and neither side can fill it now: Black J1 puts
/// two stones in atari, White J1 the whole group. But G1 is no eye of H1's
/// own: Black fills it, joining H1 to the living group, and then J1 is
/// safe and White, with one eye at H9, is captured. GNU Go counts W+2 at
/// komi 7; ishi said W+37, calling it a seki.
#[test]
fn a_chain_that_joins_a_living_group_through_its_eye_is_in_no_seki() {
    let g = game(
        "
        . . . O O X O . O
        . . O O X X O O O
        . . O X X X O O O
        . . O X . X X O O
        . O . O X X X X O
        . . O . O O X O O
        . O . O O X X X O
        . . . O X . X O O
        . . . O X X . X .",
        "chinese",
    );
    let j = judge(&g, &config());
    assert!(j.seki.is_empty(), "no seki: {:?}", j.seki);
    assert_dead(&j, &g, &["H2", "J9", "G7", "H4"]);
    assert_not_dead(&j, &g, &["H1", "E5"]);
    assert_eq!(j.score.to_string(), "W+2.5");
}

/// From a game against GNU Go (seed 23301). White A6-B8 and Black's chain
/// below share A5; White's other liberty, A9, touches Black B9, and Black
/// A9 now would put two stones in atari. But B9 can first extend to C9,
/// and then A9 takes White's last liberty but A5: White is dead, not in
/// seki. GNU Go counts W+2 at komi 7; ishi said W+14.
#[test]
fn a_liberty_the_opponent_reaches_after_one_extension_is_no_seki() {
    let g = game(
        "
        . X . . . . . . .
        O O X . . . . . .
        O O X X X X X . .
        O X O O O O X X .
        . X O O . O O X X
        X X O . O . . O O
        X O O . O . O . .
        X X O . . . . . .
        . X O . . . . . .",
        "chinese",
    );
    let j = judge(&g, &config());
    assert!(j.seki.is_empty(), "no seki: {:?}", j.seki);
    assert!(dead_at(&j, &g, "A8") && dead_at(&j, &g, "B7"));
    assert_not_dead(&j, &g, &["B1", "B9"]);
    assert_eq!(j.score.to_string(), "W+2.5");
}

/// From a game against GNU Go (seed 22761). White E8-H9 and Black's
/// chains share F9 and J9, and for now neither side can fill either. But
/// Black's chain E7-J8 joins J6 at J7 (a point only Black touches), then
/// the lower right group at J5, and then J9 is safe: White, with F9 left,
/// is dead. GNU Go counts W+2 at komi 7; ishi said W+14 (a seki).
#[test]
fn shared_liberties_that_joining_moves_reach_are_no_seki() {
    let g = game(
        "
        . O O . X . O O .
        X X X X O O O X X
        O O X O X X X X .
        O . O O O O O O X
        . O O . O X X X .
        . . O . O O X . .
        . O . O O X X . .
        . . O . O O X . .
        . . . . O X X . .",
        "chinese",
    );
    let j = judge(&g, &config());
    assert!(j.seki.is_empty(), "no seki: {:?}", j.seki);
    assert!(dead_at(&j, &g, "G9") && dead_at(&j, &g, "E8") && dead_at(&j, &g, "B9"));
    assert_not_dead(&j, &g, &["E9", "H8"]);
    assert_eq!(j.score.to_string(), "W+2.5");
}

/// From a game against GNU Go (seed 23549). White H1-J2 and Black's two
/// chains around it share G1 and F2 (and White has J1), and for now none
/// of them can fill a shared point. But White's group on the right (J4-H9)
/// is dead with a two-point eye; once Black takes it, the chain G2-H6 has
/// liberties to spare and fills F2 and G1. So White H1-J2 is dead too.
/// GNU Go counts W+2 at komi 7; ishi said W+11 (a seki).
#[test]
fn a_seki_that_taking_a_dead_group_elsewhere_breaks_is_no_seki() {
    let g = game(
        "
        X X X X . X X O .
        X X O X X . X O .
        O O O O O X X O O
        . . . . . O O X O
        . O . . . . O X O
        . . O O O O O X O
        . . O X O X X X X
        . . O X X . X O O
        . . O O X X . O .",
        "chinese",
    );
    let j = judge(&g, &config());
    assert!(j.seki.is_empty(), "no seki: {:?}", j.seki);
    assert_dead(&j, &g, &["H1", "H2", "J5", "H8"]);
    assert_not_dead(&j, &g, &["E1", "G3"]);
    assert_eq!(j.score.to_string(), "W+2.5");
}

/// From a game against GNU Go (seed 23718). Black's chain A6-C7 has the
/// eye A7 and shares A9 with White B9, whose other liberty C9 it shares
/// with White's big group; for now White A9 is a self-atari. But White
/// joins at C9, takes the dead black stones J7-J9 at H9, and then A9 is
/// safe: the black chain is dead, not in seki. GNU Go counts B+2 at komi
/// 7; ishi said B+17.
#[test]
fn a_shared_point_reached_after_joining_and_taking_stones_is_no_seki() {
    let g = game(
        "
        . O . O . X X . X
        X X O O O O O X X
        . X X O X X O O X
        X X O O O X X O O
        O O O X X X . X X
        O X X X . . X . .
        X X . . . . . X .
        . . X . . . X . .
        . . . . . . . . .",
        "chinese",
    );
    let j = judge(&g, &config());
    assert!(j.seki.is_empty(), "no seki: {:?}", j.seki);
    assert_dead(&j, &g, &["A8", "B7", "J8", "F9"]);
    assert_not_dead(&j, &g, &["B9", "D4"]);
    assert_eq!(j.score.to_string(), "B+1.5");
}

/// The other shape of it: three white stones in the corner share C1 and
/// A3 with the black group. White C1 is captured at A3 and leaves Black a
/// bent four in the corner.
#[test]
fn three_stones_in_the_corner_sharing_two_liberties_kill_by_bent_four() {
    let g = game(
        "
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        O O O O O . . . .
        X X X X O . . . .
        X X X X O . . . .
        . X X X O . . . .
        O X X X O . . . .
        O O . X O . . . .",
        "chinese",
    );
    let j = judge(&g, &config());
    assert!(dead_at(&j, &g, "A5") && dead_at(&j, &g, "D1"));
    assert_not_dead(&j, &g, &["A1", "A2"]);
    assert!(j.seki.is_empty(), "no seki: {:?}", j.seki);
    assert_eq!(j.score.to_string(), "W+88.5");
}

/// Three white stones on the edge next to the corner share A1 and E1 with
/// the black group: filling either leaves Black a straight four, which
/// lives, so this one is a seki.
#[test]
fn a_seki_whose_sacrifice_leaves_a_straight_four_stays_a_seki() {
    let g = game(
        "
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        O O O O O O O . .
        X X X X X X O . .
        X X X X X X O . .
        . O O O . X O . .",
        "chinese",
    );
    let j = judge(&g, &config());
    assert!(j.dead.is_empty(), "nothing is dead: {:?}", j.dead);
    assert!(j.seki.contains(at(&g, "B1").0) && j.seki.contains(at(&g, "A2").0));
}

#[test]
fn false_eyes_do_not_make_a_group_alive() {
    // C1 and E1 look like eyes, but Black's D2 makes both false.
    let g = game(
        "
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        X X X X X X X . .
        X O O X O O X . .
        X O . O . O X . .",
        "japanese",
    );
    let j = judge(&g, &config());
    assert_dead(&j, &g, &["B1", "B2", "C2", "D1", "E2", "F2", "F1"]);
    assert_eq!(j.dead.count(), 7);
    // Territory: 69 points and 7 prisoners.
    assert_eq!(j.score.to_string(), "B+69.5");
    assert_eq!(score_under(&g, &j, "chinese"), "B+73.5");
}

#[test]
fn dame_count_for_nobody() {
    let g = game(
        "
        . . X . O . . . .
        . . X . O . . . .
        . . X . O . . . .
        . . X . O . . . .
        . . X . O . . . .
        . . X . O . . . .
        . . X . O . . . .
        . . X . O . . . .
        . . X . O . . . .",
        "chinese",
    );
    let j = judge(&g, &config());
    assert!(j.dead.is_empty() && j.seki.is_empty());
    assert_eq!(j.score.to_string(), "W+25.5");
    assert_eq!(score_under(&g, &j, "japanese"), "W+24.5");
    assert!(j.ownership[3].abs() < 0.6, "D9 is dame: {}", j.ownership[3]);
}

#[test]
fn one_eye_and_a_stone_in_atari_is_alive() {
    // White's corner group has one clean eye (A9) and a black stone inside
    // the other eye space; it looks short of eyes, but C9 is in atari and
    // Black can never play D9 (suicide), so the group lives and C9 is dead.
    let g = game(
        "
        . O X . O X . . .
        O O O O O X . . .
        X X X X X X . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .",
        "japanese",
    );
    let j = judge(&g, &config());
    assert!(!dead_at(&j, &g, "B8"), "the corner group lives");
    assert!(dead_at(&j, &g, "C9"));
    assert!(!dead_at(&j, &g, "F9"));
}

#[test]
fn handicap_compensation_under_chinese_and_aga() {
    for (rules, expected) in [
        ("chinese", "B+71.5"),
        ("aga", "B+72.5"),
        ("japanese", "B+72.5"),
    ] {
        let mut g = Game::new(9, Rules::preset(rules).unwrap()).unwrap();
        g.fixed_handicap(2).unwrap();
        g.play(Color::White, Move::Pass).unwrap();
        g.play(Color::Black, Move::Pass).unwrap();
        let none = Bitboard::EMPTY;
        assert_eq!(
            score_game(&g, &none, &none).to_string(),
            expected,
            "{rules}"
        );
    }
    // Handicap given as moves counts the same once declared.
    let mut g = Game::new(9, Rules::preset("chinese").unwrap()).unwrap();
    for v in ["C3", "G7"] {
        let p = at(&g, v);
        g.play(Color::Black, Move::Place(p)).unwrap();
    }
    g.set_handicap_count(2);
    let none = Bitboard::EMPTY;
    assert_eq!(score_game(&g, &none, &none).to_string(), "B+71.5");
}

#[test]
fn cleanup_fills_liberties_of_dead_stones_until_none_remain() {
    let mut g = game(WHITE_AREA_WITH_A_DEAD_STONE, "tromp-taylor");
    let j = judge(&g, &config());
    assert_eq!(cleanup_move(&g, Color::Black, &j), None);
    for _ in 0..4 {
        let mv = cleanup_move(&g, Color::White, &j).expect("G7 is still on the board");
        assert!(g.is_legal(Color::White, mv));
        g.play(Color::White, mv).unwrap();
        g.play(Color::Black, Move::Pass).unwrap();
    }
    assert!(g.board().is_empty_at(at(&g, "G7")));
    let j = judge(&g, &config());
    assert_eq!(cleanup_move(&g, Color::White, &j), None);
    assert_eq!(j.score.to_string(), "W+16.5");
}

#[test]
fn seki_between_a_long_chain_and_a_corner_pair_is_nobodys_death() {
    // From a GNU Go game (levels 0-2 corpus): the black chain K13..N7 has
    // two liberties, L12 and N11; the white pair M13-M12 has L12 and N13;
    // the black stone N12 has N13 and N11. Any move on L12, N13 or N11 is a
    // self-atari that loses the fight, so all three live in seki. GNU Go's
    // Chinese counting calls both sides dead at once.
    let g = game(
        "
        . . . . X O O O O X X O .
        . . . . X X O O X X . O X
        . . X . . . X O X X X X .
        . . . X X X X O O X O X X
        . . X O O O X X O O O O X
        X X X O . O O X X O X X X
        O X O . O . O X O O X O X
        O O O O O O X . X O O O O
        . . O X X O X . X X O . .
        . O X X X X . X O O . O .
        . . O X O X . X X O O . .
        . . O O O X . . X O . . .
        . . . O X X . . X X O . .",
        "chinese",
    );
    let j = judge(&g, &config());
    assert!(j.dead.is_empty(), "nothing is dead: {:?}", j.dead);
    for v in ["K13", "N7", "M13", "M12", "N12"] {
        assert!(j.seki.contains(at(&g, v).0), "{v} is in seki");
    }
    assert_eq!(j.seki.count(), 20);
    // Area: N11 touches only black stones and counts for Black; L12 and
    // N13 are shared and count for nobody. Black 86, White 81 + 7.5.
    assert_eq!(j.score.to_string(), "W+2.5");
}

#[test]
fn a_seki_whose_sacrifice_joins_a_living_group_is_no_kill() {
    // From a game against GNU Go. The black six G4 F3 G3 H3 H2 H1 and the
    // white pair F1 F2 share G1 and G2 and have no other liberty. White G2
    // (or G1) puts the pair in atari in a bent three, as if to kill by
    // nakade; but once Black captures, the space joins the living black
    // group around E2, which has its own eye at D2. Neither side can move
    // there: a seki. The black stones G9..J6 in atari at J8 are dead.
    let g = game(
        "
        X O . O . O X X X
        X O O O O O O X .
        X X X X X O X X X
        X X . X X O O X X
        X X X . X O O O O
        . X X X O O X O O
        X . X X O X X X O
        . X X . X O . X O
        X X . X X O . X O",
        "chinese",
    );
    let j = judge(&g, &config());
    for v in ["G4", "H1", "F1", "F2"] {
        assert!(j.seki.contains(at(&g, v).0), "{v} is in seki");
        assert!(!dead_at(&j, &g, v), "{v} is not dead");
    }
    assert_dead(&j, &g, &["G9", "J9", "G7", "J6"]);
    // Area: Black 41 with the seki six, White 38 with the pair and the
    // dead stones' space, G1 and G2 for nobody; komi 7.5 (GNU Go counts
    // W+4 at komi 7).
    assert_eq!(j.score.to_string(), "W+4.5");
}

#[test]
fn a_seki_whose_sacrifice_would_join_two_chains_is_no_kill() {
    // The same game forty moves earlier, where GNU Go passed: D2 is no
    // eye yet (the dead B3 and C3 touch it), but the space White G2
    // would leave behind joins Black's six to D1 E1 E2, which reach out
    // to C1 and D2. Still a seki; B3 and C3 are dead.
    let g = game(
        "
        X O . . . . . . .
        X O O O O . . . .
        X X X X X O . . .
        . . . X X O . . .
        . X . . X O O O O
        . . . X O O X O O
        . O O X O X X X O
        . X X . X O . X O
        . . . X X O . X O",
        "chinese",
    );
    let j = judge(&g, &config());
    for v in ["G4", "H1", "F1", "F2"] {
        assert!(j.seki.contains(at(&g, v).0), "{v} is in seki");
    }
    assert_dead(&j, &g, &["B3", "C3"]);
    assert_eq!(j.dead.count(), 2);
    // GNU Go counts W+4 at komi 7.
    assert_eq!(j.score.to_string(), "W+4.5");
}

#[test]
fn a_stone_inside_its_own_closed_area_is_alive() {
    // From a GNU Go game: J6 touches the black J5, but it stands inside
    // White's closed H6-J9 area; Black J7 is answered by H6. GNU Go's
    // Chinese counting took J6 off (and gave the area away).
    let g = game(
        "
        . . . . X O O . .
        . X . . . X O . .
        X . X X X X O . .
        X X O O O X O . O
        X O O O X X O O X
        O . . O X X X X X
        . O O O O O X . .
        . . O X X X X . .
        . . O O O X . . .",
        "chinese",
    );
    let j = judge(&g, &config());
    assert!(j.dead.is_empty(), "nothing is dead: {:?}", j.dead);
    // Area: Black 42, White 39 + 7.5.
    assert_eq!(j.score.to_string(), "W+4.5");
}

/// The position after White took the ko at D7 and both sides passed.
fn white_has_taken_the_ko(rules: &str, passes: bool) -> Game {
    // Before the capture: the black D8 stone makes C9 a false eye, and
    // White's D7 capture is a ko (D7 is then in atari at D8).
    let mut g = game(
        "
        . O . O O X . . .
        O O O X O X . . .
        X X X . X X X X X
        . . . X . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .",
        rules,
    );
    g.play(Color::White, Move::Place(at(&g, "D7"))).unwrap();
    assert!(g.board().is_empty_at(at(&g, "D8")));
    if passes {
        g.play(Color::Black, Move::Pass).unwrap();
        g.play(Color::White, Move::Pass).unwrap();
    }
    g
}

#[test]
fn a_group_that_looks_dead_but_is_alive_in_ko() {
    // White's corner has one sure eye (A9); the second (C9) holds only
    // while White owns the ko at D8. Black's only way in is to retake at
    // D8, which recreates the position before White's capture: superko
    // forbids it even after the passes, so White connects at D8 and lives
    // with two eyes. Counted as it stands: White 8 stones + A9, C9, D8.
    let g = white_has_taken_the_ko("chinese", true);
    let j = judge(&g, &config());
    assert!(j.dead.is_empty(), "nothing is dead: {:?}", j.dead);
    assert!(j.seki.is_empty());
    // Area: Black 70, White 11 + 7.5.
    assert_eq!(j.score.to_string(), "B+51.5");

    // Under simple ko the retake is forbidden only as the very next move:
    // straight after the capture, Black cannot take back and White lives.
    let g = white_has_taken_the_ko("japanese", false);
    let j = judge(&g, &config());
    assert!(j.dead.is_empty(), "nothing is dead: {:?}", j.dead);
    assert!(!dead_at(&j, &g, "B9") && !dead_at(&j, &g, "D9") && !dead_at(&j, &g, "D7"));
    // Territory: Black 81 - 19 stones - 3 white points = 59; White A9, C9,
    // D8 and one prisoner, + 6.5.
    assert_eq!(j.score.to_string(), "B+48.5");
}

/// From a 19×19 game lost at the count (seed 4056): the black chain E1-G3
/// and the white stone G1 share F1 and G2. It looks like a seki, but White
/// can sacrifice two stones at G2: Black must capture at F1 and is left
/// with one two-point eye (G1 G2, the captured points), which White fills
/// again. The black chain is dead and G1 alive; the count must not call it
/// a seki.
#[test]
fn a_two_stone_sacrifice_that_kills_breaks_a_false_seki() {
    let g = game(
        "
        . . . . . . .
        . . . . . . .
        . . . . . . .
        . . . O O O O
        . . . O O X X
        . . . O X X .
        . . . O X . O",
        "chinese",
    );
    let j = judge(&g, &config());
    assert!(j.seki.is_empty(), "no seki: {:?}", j.seki);
    assert_dead(&j, &g, &["E1", "E2", "F2", "F3", "G3"]);
    assert!(!dead_at(&j, &g, "G1"), "G1 lives");
    assert_eq!(j.score.to_string(), "W+56.5");
}

/// From a 9×9 game lost at the count (seed 5038): White's corner group
/// has two empty points, H9 and J8, with a black stone on J9 between them.
/// Black J8 (or H9) is a two-stone sacrifice: after White captures, White
/// has one two-point eye. The white group is dead.
#[test]
fn two_points_around_a_sacrifice_are_one_eye() {
    let g = game(
        "
        . . . . . X O . X
        . . . . . X O O .
        . . . . . X X O O
        . . . . . . X O O
        . . . . . . X X O
        . . . . . . . X X
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .",
        "chinese",
    );
    let j = judge(&g, &config());
    assert!(j.seki.is_empty(), "no seki: {:?}", j.seki);
    assert_dead(&j, &g, &["G9", "G8", "H8", "H7", "J7", "H6", "J6", "J5"]);
    assert!(!dead_at(&j, &g, "J9"), "J9 lives");
}

/// White H9 gives up three stones: Black captures at J7 and is left with
/// a bent three in the corner (H9 J9 J8), one eye, which White kills at
/// J9. The black chain and the white pair share H9 and J7, and neither
/// side can fill them, but it is no seki: the black chain is dead.
#[test]
fn a_three_stone_sacrifice_leaves_a_bent_three() {
    let g = game(
        "
        . . . . O O X . O
        . . . . O O X X O
        . . . . O O O X .
        . . . . O X X X X
        . . . . O O O O O
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .",
        "chinese",
    );
    let j = judge(&g, &config());
    assert!(j.seki.is_empty(), "no seki: {:?}", j.seki);
    assert_dead(&j, &g, &["G9", "H7", "F6", "J6"]);
    assert_not_dead(&j, &g, &["J8", "J9"]);
}

/// The same corner in a 9×9 game (seed 5006), but the black chain G9-J5
/// also touches J4, a white chain with two liberties (G2, H1) that Black
/// takes in two moves (G2 is safe for Black, H1 and G2 are self-ataris for
/// White). After White's sacrifice at H9 and the kill at J9 Black still
/// has time: the capture gives J4, and the corner chain lives. GNU Go 3.8
/// says the same: the black chain alive, J8-J9 and the white stones at the
/// bottom dead.
#[test]
fn a_sacrifice_does_not_kill_a_chain_that_takes_other_dead_stones() {
    let g = game(
        "
        O . O . O O X . O
        . O . O . O X X O
        O . O . O O O X .
        . O O O O X X X X
        O O O . O O O O X
        . O O O X X X X O
        O O X X X . X X O
        X X . X O X . O O
        . . X O O O O . O",
        "chinese",
    );
    let j = judge(&g, &config());
    assert!(j.seki.is_empty(), "no seki: {:?}", j.seki);
    assert_not_dead(&j, &g, &["G9", "H7", "F6", "J5", "H4"]);
    assert_dead(&j, &g, &["J8", "J9", "J4", "E2"]);
}

/// From a game against GNU Go (seed 22567). White A1 would give up three
/// stones and leave the big black group a straight three at A1-C1, one
/// eye; but the white group inside at F1-J4 has only H1 and J1, a
/// two-point eye, and Black takes it first (H1, and H1 again after White
/// takes at J1). Black lives; GNU Go counts W+2 at komi 7. ishi said W+88,
/// every black stone dead.
#[test]
fn a_chain_that_can_take_a_dead_group_survives_the_sacrifice() {
    let g = game(
        "
        . . . . . . . O .
        . . . . . . . . .
        O O O O O O O O O
        O O X O X X X O X
        O X X X X O X X X
        O O O X X O O X O
        O X O O X X O X O
        X X X X X X O O O
        . O O . X O O . .",
        "chinese",
    );
    let j = judge(&g, &config());
    assert_not_dead(&j, &g, &["E1", "B5", "J6", "H3"]);
    assert_dead(&j, &g, &["F5", "G1", "J2", "B1"]);
    assert_eq!(j.score.to_string(), "W+2.5");
}

/// From a game against GNU Go (seed 23372). White's bottom group has only
/// D1 and E1, but the black pair B1-B2 next to it is in atari: White takes
/// it at A1 when Black fills a liberty, and lives. The status playouts took
/// B1-B2 only by answering the last move, and saw White capture a lone
/// stone into a self-atari of its whole group; ishi said B+29. GNU Go
/// counts B+2 at komi 7.
#[test]
fn a_group_short_of_liberties_lives_by_taking_the_chain_in_atari() {
    let g = game(
        "
        . X . O X X . X .
        O X O O O X X . X
        . O O X X X X X X
        O O O X X . . . X
        O X X X X X X . X
        . O O X O X . X X
        . O X X O X . X .
        O X O O O O X X .
        . X O . . O O X .",
        "chinese",
    );
    let j = judge(&g, &config());
    assert_not_dead(&j, &g, &["C1", "E4", "F1", "A2"]);
    assert_dead(&j, &g, &["B1", "B8", "B9"]);
    assert_eq!(j.score.to_string(), "B+1.5");
}

/// From a 9×9 game against GNU Go (seed 30762; GNU Go counted W+10, with
/// the black chain B5..C1 dead). The chain has A3 and D1 and can fill
/// neither. White can connect A4-A5 at A6 and then atari at A3, but
/// Black answers A6 with a throw-in at A8 (or B8): White must take it
/// and is left with one eye, A8, beside A3, so A3 is a self-atari again;
/// D1 and E2 are self-ataris for White's bottom chains, which share
/// them. No one can approach: the chain lives, in seki. (A brute-force
/// search over A3, D1, E2, A6, A8, B8 and passes, twelve plies deep,
/// finds no kill for White with either side first, and finds one as soon
/// as Black may not throw in.)
#[test]
fn a_throw_in_keeps_the_race_a_seki() {
    let g = game(
        "
        O O O O X . X . X
        . . O X . X . X .
        O O O X X . . X X
        . O X X . X X . X
        O X O O X . X X .
        O X X O X . X . X
        . X X O O X X X X
        X X O O . O X O O
        X X X . O O O O O",
        "chinese",
    );
    let j = judge(&g, &config());
    assert_not_dead(&j, &g, &["B5", "C1", "A4", "C2", "E1"]);
    assert!(j.dead.is_empty(), "nothing is dead: {:?}", j.dead);
    // Area: Black 49 (A3 and D1 are shared), White 30 with E2, which only
    // white stones touch; komi 7.5.
    assert_eq!(j.score.to_string(), "B+11.5");
}

/// From a 9×9 game against GNU Go (seed 71835; both passed here, GNU Go
/// counted W+2 with komi 7). White's G9-H9 and the lone J8 share their
/// two liberties, H8 and J9. Black H8 joins the big chain on the right,
/// which keeps plenty of liberties, and leaves G9-H9 in an atari no
/// capture frees: White J9 would join it to J8 with no liberty left, a
/// suicide. All three white stones are dead, as are the black stones in
/// White's lower right.
/// The playouts called them alive until they looked for such an atari
/// first: at random, both sides filled the liberties around them.
#[test]
fn two_stones_with_an_inescapable_atari_are_dead() {
    let g = game(
        "
        X X X X X X O O .
        O O O O O X X . O
        . . . . O O X X X
        . . . O O X . . X
        . . . O X X X X X
        . O . O O X X O O
        . . . O X X O O .
        . . O O O X O O X
        . . . O X X X O .",
        "chinese",
    );
    let j = judge(&g, &config());
    assert_dead(&j, &g, &["G9", "H9", "J8", "H4", "J4", "G3", "H1"]);
    assert_not_dead(&j, &g, &["F9", "G7", "J7", "E5", "D4"]);
    assert_eq!(j.score.to_string(), "W+2.5");
}
