//! Kernel normalisations, in place. Each validates its input (non-empty, square,
//! finite, symmetric) and fails with a typed error rather than producing NaN.

use faer::reborrow::*;
use faer::MatMut;
use mkc_core::{validate, Error, Result};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

/// A kernel normalisation; serialised as a snake_case string (`"unit_diagonal"`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Normalization {
    /// Leave the kernel as it is.
    #[default]
    None,
    /// Centring in feature space, K − 1K/n − K1/n + 1K1/n² ([`center`]).
    Center,
    /// K_ij / sqrt(K_ii K_jj) ([`unit_diagonal`]).
    UnitDiagonal,
    /// K / max_ij K_ij ([`divide_by_max`]).
    DivideByMax,
    /// K · n / tr K, so that tr K = n ([`trace`]).
    Trace,
    /// Kloft et al.'s multiplicative normalisation ([`multiplicative`]).
    Multiplicative,
}

/// Apply one normalisation in place.
pub fn apply(k: MatMut<'_, f64>, norm: &Normalization) -> Result<()> {
    match norm {
        Normalization::None => validate::kernel("kernel", k.rb()).map(|_| ()),
        Normalization::Center => center(k),
        Normalization::UnitDiagonal => unit_diagonal(k),
        Normalization::DivideByMax => divide_by_max(k),
        Normalization::Trace => trace(k),
        Normalization::Multiplicative => multiplicative(k),
    }
}

/// Multiply every entry by `s` (parallel over columns).
fn scale(mut k: MatMut<'_, f64>, s: f64) {
    k.rb_mut().par_col_iter_mut().for_each(|col| {
        for v in col.iter_mut() {
            *v *= s;
        }
    });
}

fn trace_of(k: faer::MatRef<'_, f64>) -> f64 {
    (0..k.nrows()).map(|i| k[(i, i)]).sum()
}

/// Centring in feature space: K ← K − 1K/n − K1/n + 1K1/n² (then symmetrised), the
/// SimpleMKKM preprocessing; afterwards every row and column sums to 0.
/// Delegates to [`mkc_linalg::center_in_place`].
pub fn center(k: MatMut<'_, f64>) -> Result<()> {
    mkc_linalg::center_in_place(k)
}

/// Unit diagonal: K_ij ← K_ij / sqrt(K_ii K_jj) (cosine normalisation in feature
/// space; SimpleMKKM, and the SCMK data pipeline). The diagonal is set to exactly 1.
/// Errors when some K_ii ≤ 0, naming i.
pub fn unit_diagonal(mut k: MatMut<'_, f64>) -> Result<()> {
    let n = validate::kernel("kernel", k.rb())?;
    let mut inv = Vec::with_capacity(n);
    for i in 0..n {
        let d = k[(i, i)];
        if d <= 0.0 {
            return Err(Error::input(
                "kernel",
                format!("diagonal entry K[{i}, {i}] = {d} is not positive: cannot normalise to unit diagonal"),
            ));
        }
        inv.push(1.0 / d.sqrt());
    }
    k.rb_mut()
        .par_col_iter_mut()
        .enumerate()
        .for_each(|(j, col)| {
            for (i, v) in col.iter_mut().enumerate() {
                *v = if i == j { 1.0 } else { *v * inv[i] * inv[j] };
            }
        });
    Ok(())
}

/// Divide by the largest entry (the SCMK authors' kernel script), so that max K = 1.
/// Errors when the largest entry is not positive.
pub fn divide_by_max(k: MatMut<'_, f64>) -> Result<()> {
    validate::kernel("kernel", k.rb())?;
    let mut m = f64::NEG_INFINITY;
    for j in 0..k.ncols() {
        for i in 0..k.nrows() {
            m = m.max(k[(i, j)]);
        }
    }
    if m <= 0.0 {
        return Err(Error::input(
            "kernel",
            format!("largest entry {m} is not positive: cannot divide by it"),
        ));
    }
    scale(k, 1.0 / m);
    Ok(())
}

/// Trace normalisation with the convention tr K = n (the mean diagonal entry becomes
/// 1, as for a unit-diagonal kernel): K ← K · n / tr K. Errors when tr K ≤ 0.
pub fn trace(k: MatMut<'_, f64>) -> Result<()> {
    let n = validate::kernel("kernel", k.rb())?;
    let t = trace_of(k.rb());
    if t <= 0.0 {
        return Err(Error::input(
            "kernel",
            format!("trace {t} is not positive: cannot trace-normalise"),
        ));
    }
    scale(k, n as f64 / t);
    Ok(())
}

/// Multiplicative normalisation of Kloft et al. (JMLR 2011, used by RMKC §4):
/// K ← K / ((1/n) tr K − (1/n²) 1ᵀK1), i.e. divide by the variance of the samples in
/// feature space, which becomes 1. Errors when the divisor is ≤ 1e-14 · |tr K|/n
/// (a constant kernel: all samples at the same point of feature space).
pub fn multiplicative(k: MatMut<'_, f64>) -> Result<()> {
    let n = validate::kernel("kernel", k.rb())?;
    let nf = n as f64;
    let t = trace_of(k.rb()) / nf;
    let total: f64 = (0..n).map(|j| (0..n).map(|i| k[(i, j)]).sum::<f64>()).sum();
    let denom = t - total / (nf * nf);
    if denom <= 1e-14 * t.abs() {
        return Err(Error::input(
            "kernel",
            format!("multiplicative normalisation divisor tr(K)/n − 1ᵀK1/n² = {denom:e} is not positive"),
        ));
    }
    scale(k, 1.0 / denom);
    Ok(())
}
