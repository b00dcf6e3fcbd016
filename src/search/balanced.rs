//! Shape weights for the heavy playouts' shape stage, trained by
//! simulation balancing (`--tune playout_shapes_balanced=1`).
//!
//! In this mode the shape stage weighs every sensible point next to the
//! last move by its 3×3 shape (with atari marks, seen from the mover) and
//! also weighs "no local answer" (a random move elsewhere), then picks one
//! in proportion. Since every weight is positive, the set of candidates
//! does not depend on the weights and the chance of a whole playout is a
//! product of softmax choices: the gradient of a position's expected
//! result with respect to the log weights can be estimated from playouts
//! alone, which is what simulation balancing (Silver & Tesauro 2009;
//! Huang, Coulom & Lin 2010) follows to make the playouts' mean result
//! match the true value, rather than to imitate strong players' moves.
//!
//! A shape the table does not name starts from MoGo's choice: weight 1
//! for a hand-written MoGo shape, [`OTHER_SHAPE`] otherwise. The training
//! example `examples/balance_shapes.rs` writes the table.

use super::patterns::is_good_shape;
use super::shapes::{symmetries, KEY_BITS};
use std::sync::OnceLock;

/// Starting weight of a point whose shape is not one of MoGo's.
pub const OTHER_SHAPE: f32 = 0.01;
/// Starting weight of a random move elsewhere: with one MoGo shape next
/// to the last move, it is played 90% of the time, as in the default
/// policy.
pub const RANDOM_START: f32 = 0.111;

/// The weight of every raw 3×3 key, and of a move elsewhere.
#[derive(Clone)]
pub struct ShapeWeights {
    by_key: Vec<f32>,
    random: f32,
}

/// The starting weight of a shape: MoGo's choice.
pub fn start_weight(key: u32) -> f32 {
    // The low 16 bits are the 3×3 code with own stones coded as Black;
    // MoGo's shapes match either colour.
    if is_good_shape((key & 0xffff) as u16) {
        1.0
    } else {
        OTHER_SHAPE
    }
}

impl ShapeWeights {
    /// MoGo's choice, before any training (built once: training makes a
    /// table from it for every batch).
    pub fn start() -> ShapeWeights {
        static START: OnceLock<ShapeWeights> = OnceLock::new();
        START
            .get_or_init(|| ShapeWeights {
                by_key: (0..1u32 << KEY_BITS).map(start_weight).collect(),
                random: RANDOM_START,
            })
            .clone()
    }

    /// The start, with these log weights (by any of a shape's symmetric
    /// keys) in place and `random` the log weight of a move elsewhere.
    pub fn with_log_weights(
        log_weights: impl IntoIterator<Item = (u32, f64)>,
        random: f64,
    ) -> Self {
        let mut w = ShapeWeights::start();
        for (key, theta) in log_weights {
            let weight = theta.exp() as f32;
            for k in symmetries(key) {
                if let Some(slot) = w.by_key.get_mut(k as usize) {
                    *slot = weight;
                }
            }
        }
        w.random = random.exp() as f32;
        w
    }

    /// Reads a table (see [`parse_log_weights`]).
    pub fn parse(text: &str) -> Result<ShapeWeights, String> {
        let (shapes, random) = parse_log_weights(text)?;
        Ok(ShapeWeights::with_log_weights(shapes, random))
    }

    #[inline]
    pub fn weight(&self, key: u32) -> f32 {
        self.by_key[key as usize & ((1 << KEY_BITS) - 1)]
    }

    /// The weight of playing elsewhere (a random sensible move).
    #[inline]
    pub fn random(&self) -> f32 {
        self.random
    }
}

/// The log weights of a table, as written: `random <log weight>` and
/// `<hex key> <log weight>` lines (`#` starts a comment). Returns the
/// shapes' and the random move's (the start's when the table has none).
pub fn parse_log_weights(text: &str) -> Result<(Vec<(u32, f64)>, f64), String> {
    let mut random = (RANDOM_START as f64).ln();
    let mut shapes = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let mut fields = line.split_whitespace();
        let (Some(name), Some(value), None) = (fields.next(), fields.next(), fields.next()) else {
            return Err(format!("line {}: expected a key and a log weight", n + 1));
        };
        let theta: f64 = value
            .parse()
            .map_err(|_| format!("line {}: bad log weight {value:?}", n + 1))?;
        if !theta.is_finite() || theta.abs() > 30.0 {
            return Err(format!("line {}: log weight out of range", n + 1));
        }
        if name == "random" {
            random = theta;
        } else {
            let key = u32::from_str_radix(name, 16)
                .ok()
                .filter(|&k| k < 1 << KEY_BITS)
                .ok_or_else(|| format!("line {}: bad shape key {name:?}", n + 1))?;
            shapes.push((key, theta));
        }
    }
    Ok((shapes, random))
}

/// The shipped table, trained as RESEARCH.md says (Shapes balanced by simulation).
pub fn table() -> &'static ShapeWeights {
    static TABLE: OnceLock<ShapeWeights> = OnceLock::new();
    TABLE.get_or_init(|| {
        ShapeWeights::parse(include_str!("shapes_balanced.txt"))
            .expect("the shipped balanced shape table parses")
    })
}

/// What a playout's balanced shape stage chose, for training: every
/// choice's candidate keys and weights and which one was played.
#[derive(Default, Debug)]
pub struct ShapeTrace {
    pub keys: Vec<u32>,
    pub weights: Vec<f32>,
    /// Start in `keys`, number of candidates, and the one chosen (the
    /// number of candidates when the random move was chosen).
    pub choices: Vec<(u32, u16, u16)>,
    /// The weight of the random move (the table's, the same at every
    /// choice).
    pub random: f32,
}

impl ShapeTrace {
    pub fn clear(&mut self) {
        self.keys.clear();
        self.weights.clear();
        self.choices.clear();
    }

    /// Adds one playout's score function (the gradient of the log chance
    /// of its shape choices) to `grad`: `add(key, amount)` for each shape
    /// key (`None` for the random move).
    pub fn score_function(&self, add: &mut dyn FnMut(Option<u32>, f64)) {
        let random = self.random as f64;
        for &(start, count, chosen) in &self.choices {
            let range = start as usize..start as usize + count as usize;
            let total: f64 = self.weights[range.clone()]
                .iter()
                .map(|&w| w as f64)
                .sum::<f64>()
                + random;
            for (j, i) in range.enumerate() {
                let chosen_here = (j == chosen as usize) as u8 as f64;
                add(
                    Some(self.keys[i]),
                    chosen_here - self.weights[i] as f64 / total,
                );
            }
            let chose_random = (chosen == count) as u8 as f64;
            add(None, chose_random - random / total);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::coord::parse_vertex;
    use crate::board::{Board, Color};
    use crate::search::shapes::shape_key;

    #[test]
    fn a_table_names_a_shape_by_any_of_its_symmetric_keys() {
        // A hane (own stone, then the opponent's, on the line beside the
        // move) and the same shape turned a quarter round.
        let board = Board::from_ascii(
            "
            . . . . .
            . X O . .
            . . . . .
            . . . . .
            . . . . .",
        )
        .unwrap();
        let p = |v| parse_vertex(v, 5).unwrap().unwrap();
        let key = shape_key(&board, Color::Black, p("B3"));
        let turned = Board::from_ascii(
            "
            . . . . .
            . . X . .
            . . O . .
            . . . . .
            . . . . .",
        )
        .unwrap();
        let turned_key = shape_key(&turned, Color::Black, p("B4"));
        assert_ne!(key, turned_key);
        let table = ShapeWeights::parse(&format!("random -1.5\n{turned_key:05x} 2.0\n")).unwrap();
        assert!((table.weight(key) - 2f32.exp()).abs() < 1e-4);
        assert!((table.random() - (-1.5f32).exp()).abs() < 1e-6);
        // Unnamed shapes keep MoGo's choice.
        let empty = shape_key(&board, Color::Black, p("E1"));
        assert_eq!(table.weight(empty), start_weight(empty));
    }

    #[test]
    fn bad_tables_are_refused() {
        assert!(ShapeWeights::parse("random x").is_err());
        assert!(ShapeWeights::parse("fffffff 1.0").is_err());
        assert!(ShapeWeights::parse("00001 1.0 2.0").is_err());
        assert!(ShapeWeights::parse("00001 1e9").is_err());
        assert!(ShapeWeights::parse("# only a comment\n").is_ok());
    }

    #[test]
    fn the_score_function_of_a_choice_sums_to_zero() {
        // d/dθ log π(a) summed over every option's θ is 1 - Σπ = 0.
        let trace = ShapeTrace {
            keys: vec![1, 2, 3],
            weights: vec![1.0, 0.5, 0.25],
            choices: vec![(0, 3, 1), (0, 3, 3)],
            random: 0.25,
        };
        let mut total = 0.0;
        let mut on_two = 0.0;
        trace.score_function(&mut |key, amount| {
            total += amount;
            if key == Some(2) {
                on_two += amount;
            }
        });
        assert!(total.abs() < 1e-9);
        // Chosen once (1 - 0.25) and not chosen once (-0.25).
        assert!((on_two - 0.5).abs() < 1e-9);
    }
}
