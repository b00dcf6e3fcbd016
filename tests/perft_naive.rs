//! Perft of the engine against the deliberately naive oracle in
//! `tests/naive/`: every ko/suicide combination that some preset uses, on
//! 2×2, 3×3 and 4×4. The counts over all move sequences pin down legality
//! far more tightly than hand-picked positions can.
//!
//! Depths: 2×2 is taken to depth 12, where every ko rule gives a different
//! count (asserted below, so the comparison really does separate them); 3×3
//! to 6 and 4×4 to 5 keep the whole file near 20 s in `cargo test --release`
//! on two cores.

mod naive;

use ishi::perft::perft;
use ishi::rules::{KoRule, Rules, SuicideRule, PRESETS};
use naive::{naive_perft, NaiveKo};
use std::collections::BTreeSet;
use std::process::Command;

const DEPTHS: &[(usize, u32)] = &[(2, 12), (3, 6), (4, 5)];

/// The preset that brings a given ko/suicide combination.
fn rules_for(ko: KoRule, suicide: SuicideRule) -> Rules {
    PRESETS
        .iter()
        .map(|(_, r)| *r)
        .find(|r| r.ko == ko && r.suicide == suicide)
        .unwrap_or_else(|| panic!("no preset uses ko={ko} suicide={suicide}"))
}

fn check_combination(ko: KoRule, suicide: SuicideRule) {
    let rules = rules_for(ko, suicide);
    for &(size, depth) in DEPTHS {
        let engine = perft(size, rules, depth).unwrap();
        let oracle = naive_perft(
            size,
            NaiveKo::from(ko),
            suicide == SuicideRule::Allowed,
            depth,
        );
        assert_eq!(
            engine, oracle,
            "perft {size}x{size} ko={ko} suicide={suicide}: engine (left) vs naive (right)"
        );
    }
}

#[test]
fn positional_suicide_allowed_tromp_taylor() {
    check_combination(KoRule::Positional, SuicideRule::Allowed);
}

#[test]
fn natural_situational_suicide_allowed_simple_area() {
    check_combination(KoRule::NaturalSituational, SuicideRule::Allowed);
}

#[test]
fn positional_suicide_forbidden_chinese() {
    check_combination(KoRule::Positional, SuicideRule::Forbidden);
}

#[test]
fn simple_ko_suicide_forbidden_japanese() {
    check_combination(KoRule::Simple, SuicideRule::Forbidden);
}

#[test]
fn situational_suicide_forbidden_aga() {
    check_combination(KoRule::Situational, SuicideRule::Forbidden);
}

#[test]
fn situational_suicide_allowed_new_zealand() {
    check_combination(KoRule::Situational, SuicideRule::Allowed);
}

/// The six tests above must cover every combination some preset uses.
#[test]
fn every_preset_combination_is_covered() {
    let tested: BTreeSet<String> = [
        (KoRule::Positional, SuicideRule::Allowed),
        (KoRule::NaturalSituational, SuicideRule::Allowed),
        (KoRule::Positional, SuicideRule::Forbidden),
        (KoRule::Simple, SuicideRule::Forbidden),
        (KoRule::Situational, SuicideRule::Forbidden),
        (KoRule::Situational, SuicideRule::Allowed),
    ]
    .iter()
    .map(|(k, s)| format!("{k}/{s}"))
    .collect();
    for (name, r) in PRESETS {
        let combination = format!("{}/{}", r.ko, r.suicide);
        assert!(
            tested.contains(&combination),
            "preset {name} uses untested {combination}"
        );
    }
}

/// On 2×2 the ko rules part ways within a few moves; if they did not at the
/// depth used above, the comparison would not be testing them.
#[test]
fn two_by_two_depth_separates_the_ko_rules() {
    let (size, depth) = DEPTHS[0];
    let mut seen = BTreeSet::new();
    for ko in [
        NaiveKo::Simple,
        NaiveKo::Positional,
        NaiveKo::Situational,
        NaiveKo::NaturalSituational,
    ] {
        let counts = naive_perft(size, ko, false, depth);
        assert!(
            seen.insert(counts),
            "{ko:?} gives the same counts as another rule"
        );
    }
    // Suicide matters only from a depth where a two-stone chain can fill its
    // last liberty; on 2×2 that is already within reach.
    assert_ne!(
        naive_perft(size, NaiveKo::Situational, true, depth),
        naive_perft(size, NaiveKo::Situational, false, depth)
    );
}

#[test]
fn three_by_three_tromp_taylor_sanity_figures() {
    let rules = Rules::preset("tromp-taylor").unwrap();
    assert_eq!(perft(3, rules, 3).unwrap(), vec![10, 91, 738]);
}

fn run_perft_command(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_ishi"))
        .arg("perft")
        .args(args)
        .output()
        .expect("the ishi binary runs");
    assert!(
        out.status.success(),
        "ishi perft {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("perft prints UTF-8")
}

fn as_lines(counts: &[u64]) -> String {
    counts
        .iter()
        .enumerate()
        .map(|(d, n)| format!("{} {n}\n", d + 1))
        .collect()
}

#[test]
fn perft_subcommand_prints_depth_and_count() {
    let out = run_perft_command(&["--size", "3", "--depth", "3", "--rules", "tromp-taylor"]);
    assert_eq!(out, "1 10\n2 91\n3 738\n");
}

#[test]
fn perft_subcommand_honours_ko_and_suicide_overrides() {
    let out = run_perft_command(&[
        "--size",
        "2",
        "--depth",
        "10",
        "--rules",
        "chinese",
        "--ko",
        "natural-situational",
        "--suicide",
        "allowed",
    ]);
    assert_eq!(
        out,
        as_lines(&naive_perft(2, NaiveKo::NaturalSituational, true, 10))
    );
}
