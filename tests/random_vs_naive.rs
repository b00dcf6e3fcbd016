//! Random games played move by move in the engine and in the naive oracle
//! (`tests/naive/`), which compares whole boards against the whole history.
//! Every attempted move, legal or not, is offered to both: they must agree
//! on acceptance, and afterwards on the full board, the captures, whose turn
//! it is and whether the game is over. Moves by the wrong colour (GTP lets a
//! controller play one colour twice), play after two passes and undo are
//! all part of the mix: this is the superko and suicide cross-check.
//!
//! Seeds are fixed, so a failure is reproducible from the seed it prints.

mod naive;

use ishi::board::{Color, Move};
use ishi::game::{Game, IllegalMove};
use ishi::rules::{KoRule, Rules, SuicideRule};
use naive::{NaiveGame, NaiveKo};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

/// Games per ko rule and suicide setting; sized so the file runs in well
/// under 30 s in `cargo test --release` on two shared cores.
const GAMES: u64 = 400;
/// Attempted moves per game (many are refused: occupied points, suicide, ko).
const ATTEMPTS: usize = 160;

type NaiveMove = Option<(usize, usize)>;

fn naive_color(c: Color) -> u8 {
    match c {
        Color::Black => 1,
        Color::White => 2,
    }
}

fn to_engine(game: &Game, mv: NaiveMove) -> Move {
    match mv {
        None => Move::Pass,
        Some((x, y)) => Move::Place(game.board().point(x, y).expect("on the board")),
    }
}

/// The engine's board in the oracle's layout: `[y][x]`, 0 empty, 1 black, 2 white.
fn engine_board(game: &Game) -> Vec<Vec<u8>> {
    let b = game.board();
    (0..b.size())
        .map(|y| {
            (0..b.size())
                .map(|x| {
                    let p = b.point(x, y).expect("on the board");
                    b.color_at(p).map_or(0, naive_color)
                })
                .collect()
        })
        .collect()
}

/// How often each interesting case came up, so that a test run that never
/// reached superko or suicide fails instead of passing vacuously.
#[derive(Default, Debug)]
struct Tally {
    played: u64,
    ko: u64,
    superko: u64,
    suicide_refused: u64,
    suicides_played: u64,
    undos: u64,
}

impl Tally {
    fn count(&mut self, result: &Result<(), IllegalMove>) {
        match result {
            Ok(()) => self.played += 1,
            Err(IllegalMove::Ko) => self.ko += 1,
            Err(IllegalMove::Superko) => self.superko += 1,
            Err(IllegalMove::Suicide) => self.suicide_refused += 1,
            Err(_) => {}
        }
    }
}

struct Pair {
    engine: Game,
    oracle: NaiveGame,
    /// Accepted moves, to rebuild the oracle after an undo.
    moves: Vec<(u8, NaiveMove)>,
    size: usize,
    ko: NaiveKo,
    suicide: bool,
}

impl Pair {
    fn new(size: usize, ko: KoRule, suicide: SuicideRule) -> Pair {
        let rules = Rules {
            ko,
            suicide,
            ..Rules::default()
        };
        let allowed = suicide == SuicideRule::Allowed;
        let naive_ko = NaiveKo::from(ko);
        Pair {
            engine: Game::new(size, rules).expect("valid size"),
            oracle: NaiveGame::new(size, naive_ko, allowed),
            moves: Vec::new(),
            size,
            ko: naive_ko,
            suicide: allowed,
        }
    }

    fn describe(&self, seed: u64) -> String {
        format!(
            "seed {seed}, {0}x{0}, ko {1:?}, suicide allowed {2}, moves {3:?}\nengine:\n{4}oracle: {5:?}",
            self.size,
            self.ko,
            self.suicide,
            self.moves,
            self.engine.board().to_ascii(),
            self.oracle.board()
        )
    }

    fn attempt(&mut self, seed: u64, color: Color, mv: NaiveMove, tally: &mut Tally) {
        let engine_mv = to_engine(&self.engine, mv);
        let predicted = self.engine.is_legal(color, engine_mv);
        let lost_before = self.engine.board().captures(color.opponent());
        let result = self.engine.play(color, engine_mv);
        tally.count(&result);
        if result.is_ok() && self.engine.board().captures(color.opponent()) > lost_before {
            tally.suicides_played += 1;
        }
        let engine_ok = result.is_ok();
        let oracle_ok = self.oracle.play_as(naive_color(color), mv);
        assert_eq!(
            predicted,
            engine_ok,
            "is_legal disagrees with play for {color:?} {mv:?}; {}",
            self.describe(seed)
        );
        assert_eq!(
            engine_ok,
            oracle_ok,
            "acceptance of {color:?} {mv:?} differs (engine {engine_ok}, oracle {oracle_ok}); {}",
            self.describe(seed)
        );
        if engine_ok {
            self.moves.push((naive_color(color), mv));
        }
    }

    fn undo(&mut self, seed: u64) {
        assert!(self.engine.undo(), "{}", self.describe(seed));
        self.moves.pop();
        self.oracle = NaiveGame::new(self.size, self.ko, self.suicide);
        for &(c, mv) in &self.moves {
            assert!(self.oracle.play_as(c, mv), "oracle replay failed");
        }
    }

    fn compare(&self, seed: u64) {
        assert_eq!(
            engine_board(&self.engine),
            *self.oracle.board(),
            "boards differ; {}",
            self.describe(seed)
        );
        for c in [Color::Black, Color::White] {
            assert_eq!(
                self.engine.board().captures(c) as usize,
                self.oracle.captures(naive_color(c)),
                "{c:?} captures differ; {}",
                self.describe(seed)
            );
        }
        assert_eq!(
            naive_color(self.engine.to_move()),
            self.oracle.to_move(),
            "{}",
            self.describe(seed)
        );
        assert_eq!(
            self.engine.is_over(),
            self.oracle.is_over(),
            "{}",
            self.describe(seed)
        );
    }

    /// Every placement for the side to move, checked without playing it.
    /// The oracle's `is_legal` refuses everything after two passes, so then
    /// its answer comes from a trial move on a copy instead.
    fn compare_all_legality(&self, seed: u64) {
        let color = self.engine.to_move();
        for y in 0..self.size {
            for x in 0..self.size {
                let mv = Some((x, y));
                let engine = self.engine.is_legal(color, to_engine(&self.engine, mv));
                let oracle = if self.oracle.is_over() {
                    self.oracle.clone().play_as(naive_color(color), mv)
                } else {
                    self.oracle.is_legal(mv)
                };
                assert_eq!(
                    engine,
                    oracle,
                    "legality of {color:?} {mv:?} differs; {}",
                    self.describe(seed)
                );
                // The playouts' fast test (ko point, no suicide) is exact
                // under simple ko without suicide, for the side to move.
                if self.ko == NaiveKo::Simple && !self.suicide {
                    let fast = match to_engine(&self.engine, mv) {
                        Move::Place(p) => self.engine.board().is_legal_no_suicide(color, p),
                        Move::Pass => true,
                    };
                    assert_eq!(
                        fast,
                        engine,
                        "is_legal_no_suicide of {color:?} {mv:?} differs; {}",
                        self.describe(seed)
                    );
                }
            }
        }
    }
}

fn random_game(
    seed: u64,
    sizes: std::ops::RangeInclusive<usize>,
    attempts: usize,
    ko: KoRule,
    suicide: SuicideRule,
    tally: &mut Tally,
) {
    let mut rng = SmallRng::seed_from_u64(seed);
    let size = rng.gen_range(sizes);
    let mut pair = Pair::new(size, ko, suicide);
    // Small boards fill up quickly, so they see more passes and undos.
    let pass_chance = 0.04;
    let undo_chance = 0.06;
    let wrong_colour_chance = 0.08;
    for _ in 0..attempts {
        if !pair.moves.is_empty() && rng.gen_bool(undo_chance) {
            pair.undo(seed);
            tally.undos += 1;
        } else {
            let to_move = pair.engine.to_move();
            let color = if rng.gen_bool(wrong_colour_chance) {
                to_move.opponent()
            } else {
                to_move
            };
            let mv = if rng.gen_bool(pass_chance) {
                None
            } else {
                Some((rng.gen_range(0..size), rng.gen_range(0..size)))
            };
            pair.attempt(seed, color, mv, tally);
        }
        pair.compare(seed);
        if size <= 5 {
            pair.compare_all_legality(seed);
        }
    }
}

fn run(ko: KoRule, suicide: SuicideRule, seed_base: u64) {
    let tally = run_with(ko, suicide, seed_base, 2..=7, GAMES, ATTEMPTS);
    assert!(tally.played > 0 && tally.undos > 0);
    match ko {
        KoRule::Simple => assert!(tally.ko > 0, "no ko came up: {tally:?}"),
        _ => assert!(tally.superko > 0, "no superko came up: {tally:?}"),
    }
    match suicide {
        SuicideRule::Forbidden => assert!(tally.suicide_refused > 0, "{tally:?}"),
        SuicideRule::Allowed => assert!(tally.suicides_played > 0, "{tally:?}"),
    }
}

fn run_with(
    ko: KoRule,
    suicide: SuicideRule,
    seed_base: u64,
    sizes: std::ops::RangeInclusive<usize>,
    games: u64,
    attempts: usize,
) -> Tally {
    let mut tally = Tally::default();
    for i in 0..games {
        random_game(
            seed_base + i,
            sizes.clone(),
            attempts,
            ko,
            suicide,
            &mut tally,
        );
    }
    eprintln!("ko={ko} suicide={suicide} sizes={sizes:?}: {tally:?}");
    tally
}

#[test]
fn simple_ko_against_naive() {
    run(KoRule::Simple, SuicideRule::Forbidden, 1_000);
    run(KoRule::Simple, SuicideRule::Allowed, 2_000);
}

#[test]
fn positional_superko_against_naive() {
    run(KoRule::Positional, SuicideRule::Forbidden, 3_000);
    run(KoRule::Positional, SuicideRule::Allowed, 4_000);
}

#[test]
fn situational_superko_against_naive() {
    run(KoRule::Situational, SuicideRule::Forbidden, 5_000);
    run(KoRule::Situational, SuicideRule::Allowed, 6_000);
}

#[test]
fn natural_situational_superko_against_naive() {
    run(KoRule::NaturalSituational, SuicideRule::Forbidden, 7_000);
    run(KoRule::NaturalSituational, SuicideRule::Allowed, 8_000);
}

/// Longer games on larger boards (about a minute in release):
/// `cargo test --release --test random_vs_naive -- --ignored`.
#[test]
#[ignore]
fn long_games_on_larger_boards_against_naive() {
    let mut seed = 100_000;
    for ko in [
        KoRule::Simple,
        KoRule::Positional,
        KoRule::Situational,
        KoRule::NaturalSituational,
    ] {
        for suicide in [SuicideRule::Forbidden, SuicideRule::Allowed] {
            let tally = run_with(ko, suicide, seed, 8..=13, 12, 600);
            assert!(tally.played > 0 && tally.undos > 0);
            seed += 1_000;
        }
    }
}
