//! Learns the line factors of `ishi::search::policy::OPENING_LINES`: how
//! much the learned strengths of the tree priors should be scaled, on
//! 9x9, by the line a move is on, in the first twelve moves.
//!
//!     cargo run --release --example learn_opening_lines -- [--rounds 200] \
//!         src/search/book9_own.txt [--test src/search/book9_records.txt]
//!
//! Each position of the book files (see `ishi::search::book`) is a
//! comparison the deep search decided: its move against every other move
//! the tree would consider. The factors, one per line (the first and
//! second together, the third, the fourth, the fifth) and per four stones
//! on the board, are found by minorization-maximization (Hunter 2004, as
//! in Coulom's "Computing Elo ratings of move patterns") with every other
//! feature's strength held fixed; the third line is the unit. The table
//! is printed with the mean log-likelihood of the book's moves and how
//! often the strongest move is the book's, without and with the factors,
//! on the training positions and on the `--test` positions.

use ishi::board::Move;
use ishi::rules::Rules;
use ishi::search::book::Book;
use ishi::search::policy::{
    children_with_priors, opening_line_column, LadderScratch, Priors, Recent, OPENING_LINES,
};
use ishi::search::tree::PASS;

const PHASES: usize = OPENING_LINES.len();
const COLUMNS: usize = 4;
type Table = [[f64; COLUMNS]; PHASES];

/// One decided comparison: each candidate's column and strength (its
/// share of the node's strength), and which candidate the book chose.
struct Choice {
    phase: usize,
    candidates: Vec<(usize, f64)>,
    chosen: usize,
}

fn choices(path: &str) -> Result<Vec<Choice>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    let book = Book::parse(&text, 9, 7.0).map_err(|e| format!("{path}: {e}"))?;
    let rules = Rules::preset("chinese").map_err(|e| e.to_string())?;
    let priors = Priors::for_size(9);
    let mut ladder = LadderScratch::default();
    let mut children = Vec::new();
    let mut out = Vec::new();
    for (game, chosen) in book.positions(rules) {
        let board = game.board();
        let phase = board.stone_count() as usize / 4;
        let Move::Place(chosen) = chosen else {
            continue;
        };
        if phase >= PHASES {
            continue;
        }
        let c = game.to_move();
        let recent = Recent::before(&game, c);
        children_with_priors(
            board,
            c,
            recent,
            &priors,
            |_| true,
            &mut children,
            &mut ladder,
        );
        let mut choice = Choice {
            phase,
            candidates: Vec::new(),
            chosen: usize::MAX,
        };
        for child in children.iter().filter(|ch| ch.mv != PASS) {
            let p = ishi::board::Point(child.mv as usize);
            if p == chosen {
                choice.chosen = choice.candidates.len();
            }
            // A share too small for the policy's resolution is not zero.
            let strength = (child.policy as f64 + 0.5) / f64::from(u16::MAX);
            choice
                .candidates
                .push((opening_line_column(board, p), strength));
        }
        if choice.chosen != usize::MAX {
            out.push(choice);
        }
    }
    Ok(out)
}

/// Mean log-likelihood of the chosen moves and the share of positions
/// where the chosen move is the strongest.
fn judge(choices: &[Choice], table: &Table) -> (f64, f64) {
    let (mut log_likelihood, mut strongest) = (0.0, 0usize);
    for ch in choices {
        let scaled = |&(column, s): &(usize, f64)| s * table[ch.phase][column];
        let total: f64 = ch.candidates.iter().map(scaled).sum();
        let chosen = scaled(&ch.candidates[ch.chosen]);
        log_likelihood += (chosen / total).ln();
        if ch.candidates.iter().all(|c| scaled(c) <= chosen) {
            strongest += 1;
        }
    }
    let n = choices.len().max(1) as f64;
    (log_likelihood / n, strongest as f64 / n)
}

fn learn(choices: &[Choice], rounds: usize) -> Table {
    let mut table = [[1.0; COLUMNS]; PHASES];
    for _ in 0..rounds {
        // One virtual win and one virtual comparison at strength 1 keep a
        // column the book never chose finite.
        let mut wins = [[1.0; COLUMNS]; PHASES];
        let mut seen = [[1.0; COLUMNS]; PHASES];
        for ch in choices {
            let row = &table[ch.phase];
            wins[ch.phase][ch.candidates[ch.chosen].0] += 1.0;
            let total: f64 = ch.candidates.iter().map(|&(c, s)| s * row[c]).sum();
            for &(column, s) in &ch.candidates {
                seen[ch.phase][column] += s / total;
            }
        }
        for (phase, row) in table.iter_mut().enumerate() {
            for (column, factor) in row.iter_mut().enumerate() {
                *factor = wins[phase][column] / seen[phase][column];
            }
            let third = row[1];
            row.iter_mut().for_each(|f| *f /= third);
        }
    }
    table
}

fn main() {
    let mut train = None;
    let mut test = None;
    let mut rounds = 200;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--test" => test = args.next(),
            "--rounds" => rounds = args.next().and_then(|v| v.parse().ok()).unwrap_or(rounds),
            _ => train = Some(a),
        }
    }
    let Some(train) = train else {
        eprintln!("usage: learn_opening_lines [--rounds N] BOOK [--test BOOK]");
        std::process::exit(2);
    };
    let report = |name: &str, path: &str, table: &Table| match choices(path) {
        Ok(ch) => {
            let unit = [[1.0; COLUMNS]; PHASES];
            let (l0, s0) = judge(&ch, &unit);
            let (l1, s1) = judge(&ch, table);
            println!(
                "// {name} ({} positions): log-likelihood {l0:.3} -> {l1:.3}, strongest {:.1}% -> {:.1}%",
                ch.len(),
                100.0 * s0,
                100.0 * s1
            );
        }
        Err(e) => eprintln!("{e}"),
    };
    let table = match choices(&train) {
        Ok(ch) => learn(&ch, rounds),
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(1);
        }
    };
    println!("pub const OPENING_LINES: [[f32; 4]; {PHASES}] = [");
    for row in &table {
        let cells: Vec<String> = row.iter().map(|f| format!("{f:.2}")).collect();
        println!("    [{}],", cells.join(", "));
    }
    println!("];");
    report("training", &train, &table);
    if let Some(test) = test {
        report("held out", &test, &table);
    }
}
