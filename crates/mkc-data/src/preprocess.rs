//! Feature preprocessing used by the papers' pipelines (applied per view for
//! multi-view data). This module is the one place features are scaled: the registry's
//! `preprocess` steps ([`apply`]) and the experiments' recipes (`scale = "minmax" |
//! "symmetric" | "zscore"`) both call [`min_max`] and [`z_score`].
//!
//! Choices the papers leave open, fixed here:
//! - min-max scaling maps a *constant* column to 0 (MATLAB's `(x-min)/(max-min)` would
//!   give NaN; the LAMDA files hold 0 there);
//! - z-score centres each column on its mean and divides by its standard deviation,
//!   with the divisor stated by [`StdDev`]: the registry step `z_score` uses the
//!   sample standard deviation (n − 1), as MATLAB's `zscore` and the RMKKM
//!   `_zscore_uni` files; the experiments' recipes (`scale = "zscore"`) use the
//!   population standard deviation (n), as they always have. The two differ by the
//!   factor sqrt(n / (n − 1)), the same for every column. A constant column (standard
//!   deviation 0, or a single sample with [`StdDev::Sample`]) becomes 0;
//! - both scalings expect finite input (a column holding NaN becomes 0 under
//!   z-score and stays NaN where it was NaN under min-max; the registry imputes or
//!   rejects missing values before any step);
//! - unit-length rows leave an all-zero row at zero;
//! - one-hot replaces each listed column, in place, by one indicator column per
//!   distinct value (ascending), so the other columns keep their relative order;
//! - mean imputation replaces NaN by the mean of the column's finite values.

use faer::Mat;
use mkc_core::{Error, Result};
use serde::Deserialize;

/// One preprocessing step, as named in the registry (`preprocess = ["one_hot", …]`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Preprocess {
    /// One-hot encode the columns given by the registry's `one_hot_columns`.
    OneHot,
    /// Each column min-max scaled to [0, 1].
    #[serde(rename = "min_max_01")]
    MinMax01,
    /// Each column min-max scaled to [−1, 1] (LG-MMC's `normalization.m`).
    #[serde(rename = "min_max_pm1")]
    MinMaxPm1,
    /// Each column centred and divided by its sample standard deviation
    /// ([`StdDev::Sample`], MATLAB's `zscore`).
    ZScore,
    /// Each row divided by its Euclidean norm.
    UnitRows,
}

/// Apply `step` to `m` (`one_hot_columns` is used by [`Preprocess::OneHot`] only).
pub fn apply(m: &Mat<f64>, step: Preprocess, one_hot_columns: &[usize]) -> Result<Mat<f64>> {
    let mut out = m.clone();
    match step {
        Preprocess::OneHot => return one_hot(m, one_hot_columns),
        Preprocess::MinMax01 => min_max(&mut out, 0.0, 1.0),
        Preprocess::MinMaxPm1 => min_max(&mut out, -1.0, 1.0),
        Preprocess::ZScore => z_score(&mut out, StdDev::Sample),
        Preprocess::UnitRows => unit_rows(&mut out),
    }
    Ok(out)
}

/// Scale every column linearly onto [lo, hi] (a constant column becomes 0).
pub fn min_max(m: &mut Mat<f64>, lo: f64, hi: f64) {
    for j in 0..m.ncols() {
        let col = m.col(j);
        let (mn, mx) = col
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &v| {
                (a.min(v), b.max(v))
            });
        let range = mx - mn;
        for v in m.col_mut(j).iter_mut() {
            *v = if range > 0.0 {
                lo + (hi - lo) * (*v - mn) / range
            } else {
                0.0
            };
        }
    }
}

/// The standard deviation [`z_score`] divides by.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StdDev {
    /// sqrt(Σ (x − x̄)² / n): the experiments' recipes (`scale = "zscore"`).
    Population,
    /// sqrt(Σ (x − x̄)² / (n − 1)): MATLAB's `zscore`, the registry step `z_score`.
    Sample,
}

/// Centre every column on its mean and divide by its standard deviation (`sd` says
/// which); a constant column, or one whose deviation is undefined (one sample with
/// [`StdDev::Sample`]), becomes 0.
pub fn z_score(m: &mut Mat<f64>, sd: StdDev) {
    let n = m.nrows();
    if n == 0 {
        return;
    }
    let divisor = match sd {
        StdDev::Population => n,
        StdDev::Sample => n - 1,
    };
    for j in 0..m.ncols() {
        let mean = m.col(j).iter().sum::<f64>() / n as f64;
        let var = if divisor > 0 {
            m.col(j)
                .iter()
                .map(|v| (v - mean) * (v - mean))
                .sum::<f64>()
                / divisor as f64
        } else {
            0.0
        };
        let sd = var.sqrt();
        for v in m.col_mut(j).iter_mut() {
            *v = if sd > 0.0 { (*v - mean) / sd } else { 0.0 };
        }
    }
}

/// Divide every row by its Euclidean norm (zero rows stay zero; [`mkc_linalg::unit_rows`]).
pub fn unit_rows(m: &mut Mat<f64>) {
    mkc_linalg::unit_rows(m.as_mut());
}

/// Replace NaN entries by the mean of their column's other values.
pub fn impute_mean(m: &mut Mat<f64>) -> Result<()> {
    for j in 0..m.ncols() {
        let (s, c) = m
            .col(j)
            .iter()
            .filter(|v| !v.is_nan())
            .fold((0.0, 0usize), |(s, c), v| (s + v, c + 1));
        if c == 0 {
            return Err(Error::input(
                "mean imputation",
                format!("column {j} has no value at all"),
            ));
        }
        let mean = s / c as f64;
        for v in m.col_mut(j).iter_mut() {
            if v.is_nan() {
                *v = mean;
            }
        }
    }
    Ok(())
}

/// One-hot encode `columns` (0-based), each replaced in place by indicator columns for
/// its distinct values in ascending order.
pub fn one_hot(m: &Mat<f64>, columns: &[usize]) -> Result<Mat<f64>> {
    if let Some(&c) = columns.iter().find(|&&c| c >= m.ncols()) {
        return Err(Error::param(
            "one_hot_columns",
            c,
            format!("out of range ({} columns)", m.ncols()),
        ));
    }
    // per output column: (source column, Some(value) for an indicator)
    let mut plan: Vec<(usize, Option<f64>)> = Vec::new();
    for j in 0..m.ncols() {
        if columns.contains(&j) {
            let mut vals: Vec<f64> = m.col(j).iter().copied().collect();
            if let Some(v) = vals.iter().find(|v| !v.is_finite()) {
                return Err(Error::input(
                    "one-hot encoding",
                    format!("column {j} holds {v}"),
                ));
            }
            vals.sort_by(f64::total_cmp);
            vals.dedup();
            plan.extend(vals.into_iter().map(|v| (j, Some(v))));
        } else {
            plan.push((j, None));
        }
    }
    Ok(Mat::from_fn(m.nrows(), plan.len(), |i, k| match plan[k] {
        (j, None) => m[(i, j)],
        (j, Some(v)) => f64::from(m[(i, j)] == v),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_on_a_small_matrix() {
        let m = Mat::from_fn(3, 2, |i, j| [[1.0, 5.0], [3.0, 5.0], [2.0, 5.0]][i][j]);
        let a = apply(&m, Preprocess::MinMax01, &[]).unwrap();
        assert_eq!(
            (a[(0, 0)], a[(1, 0)], a[(2, 0)], a[(0, 1)]),
            (0.0, 1.0, 0.5, 0.0)
        );
        let b = apply(&m, Preprocess::MinMaxPm1, &[]).unwrap();
        assert_eq!((b[(0, 0)], b[(1, 0)], b[(2, 0)]), (-1.0, 1.0, 0.0));
        let z = apply(&m, Preprocess::ZScore, &[]).unwrap();
        assert!(
            (z[(0, 0)] + 1.0).abs() < 1e-12 && (z[(1, 0)] - 1.0).abs() < 1e-12 && z[(0, 1)] == 0.0
        );
        // population vs sample deviation: the same column, scaled by sqrt(n / (n − 1))
        let mut zp = m.clone();
        z_score(&mut zp, StdDev::Population);
        let f = (3.0f64 / 2.0).sqrt();
        assert!((zp[(0, 0)] + f).abs() < 1e-12 && (zp[(1, 0)] - f).abs() < 1e-12);
        assert_eq!((zp[(2, 0)], zp[(0, 1)]), (0.0, 0.0));
        let mut one = Mat::from_fn(1, 1, |_, _| 4.0);
        z_score(&mut one, StdDev::Sample);
        assert_eq!(one[(0, 0)], 0.0);
        let u = apply(&m, Preprocess::UnitRows, &[]).unwrap();
        assert!(((u[(0, 0)].powi(2) + u[(0, 1)].powi(2)) - 1.0).abs() < 1e-12);
        let h = one_hot(&m, &[0]).unwrap();
        assert_eq!(h.ncols(), 4);
        assert_eq!(
            (h[(0, 0)], h[(0, 1)], h[(0, 2)], h[(0, 3)]),
            (1.0, 0.0, 0.0, 5.0)
        );
        assert_eq!((h[(1, 0)], h[(1, 1)], h[(1, 2)]), (0.0, 0.0, 1.0));
        assert!(one_hot(&m, &[2]).is_err());
        let mut nan = m.clone();
        nan[(1, 0)] = f64::NAN;
        impute_mean(&mut nan).unwrap();
        assert_eq!(nan[(1, 0)], 1.5);
    }
}
