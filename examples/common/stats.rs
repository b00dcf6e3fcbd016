//! Small statistics shared by the measuring examples.

/// The mean of paired differences and its standard error, as
/// `+0.0012 (0.0005)`.
pub fn paired_difference(d: &[f64]) -> String {
    let n = d.len() as f64;
    let mean = d.iter().sum::<f64>() / n.max(1.0);
    let var = d.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0).max(1.0);
    format!("{mean:+.4} ({:.4})", (var / n.max(1.0)).sqrt())
}
