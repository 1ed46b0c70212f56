//! Gaussian width conventions of the papers, all resolved to the σ of
//! exp(−‖x − y‖² / (2σ²)).
//!
//! | rule | paper | σ |
//! | --- | --- | --- |
//! | [`Width::Sigma`] | — | given |
//! | [`Width::RangeFraction`] | RMKC (§4: "σ varies from 10% to 100% of the range of distance between any two instances") | f · (d_max − d_min) |
//! | [`Width::MeanRatio`] | LG-MMC (§5, the authors' package) | r · sqrt(mean d²) (RMS distance) |
//! | [`Width::MeanDistanceRatio`] | — | r · mean d |
//! | [`Width::MedianRatio`] | the median heuristic (SimpleMKKM's Digit recipe here) | r · median d |
//! | [`Width::DmaxScaled`] | SCMK ("Experiment Setup") exp(−d²/(t d_max²)) | d_max · sqrt(t / 2) |
//! | [`Width::MaxFraction`] | RMKKM data pipeline, exp(−D/(2σ²)) | t · d_max |
//!
//! Choices the papers leave open, made here:
//! - RMKC speaks of the range of *distances* (not squared distances), so d_max and
//!   d_min are Euclidean distances, taken over the pairs i ≠ j (the diagonal zeros
//!   would make d_min trivially 0). The Gaussian form is the usual exp(−d²/(2σ²)).
//! - LG-MMC's paper says "γ is the average distance from all pairs"; its code (README
//!   of `papers/`) uses the mean *squared* distance, which we follow; the mean is over
//!   the n(n−1)/2 distinct pairs i < j.
//! - d_max is the largest Euclidean distance between two samples.
//! - The median distance is the element of rank ⌊m/2⌋ (from 0) of the m = n(n−1)/2
//!   sorted pair distances: the upper median when m is even, no averaging.
//!
//! [`DistStats`] are computed in one place ([`dist_stats`] from a squared-distance
//! matrix, and the same pass over the shared inner products inside [`crate::build`]):
//! one sequential pass in a fixed order, so the result does not depend on the number of
//! threads.

use faer::MatRef;
use mkc_core::{validate, Error, Result};
use serde::{Deserialize, Serialize};

/// How the width of a Gaussian kernel is chosen. Serialised with a `rule` tag, e.g.
/// `{"rule": "range_fraction", "fraction": 0.1}`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(tag = "rule", rename_all = "snake_case", deny_unknown_fields)]
pub enum Width {
    /// A fixed σ.
    Sigma { sigma: f64 },
    /// RMKC: σ = fraction · (d_max − d_min) over pairs i ≠ j.
    RangeFraction { fraction: f64 },
    /// LG-MMC: σ = ratio · sqrt(mean over pairs i < j of ‖x_i − x_j‖²), i.e. the RMS
    /// pairwise distance.
    MeanRatio { ratio: f64 },
    /// σ = ratio · mean over pairs i < j of ‖x_i − x_j‖.
    MeanDistanceRatio { ratio: f64 },
    /// σ = ratio · median over pairs i < j of ‖x_i − x_j‖ (see the module docs).
    MedianRatio { ratio: f64 },
    /// SCMK: exp(−d² / (t · d_max²)), i.e. σ = d_max · sqrt(t/2).
    DmaxScaled { t: f64 },
    /// RMKKM: exp(−D / (2σ²)) with σ = t · sqrt(max D) = t · d_max.
    MaxFraction { t: f64 },
}

impl Width {
    /// Whether σ depends on the data (needs [`DistStats`]).
    pub fn needs_stats(&self) -> bool {
        !matches!(self, Width::Sigma { .. })
    }

    /// Whether σ needs the median distance ([`DistStats::median_d`]), which holds every
    /// pair distance in memory while it is found.
    pub fn needs_median(&self) -> bool {
        matches!(self, Width::MedianRatio { .. })
    }

    /// Check the rule's own parameter (finite, > 0).
    pub fn check(&self) -> Result<()> {
        match *self {
            Width::Sigma { sigma } => validate::positive("sigma", sigma),
            Width::RangeFraction { fraction } => validate::positive("fraction", fraction),
            Width::MeanRatio { ratio }
            | Width::MeanDistanceRatio { ratio }
            | Width::MedianRatio { ratio } => validate::positive("ratio", ratio),
            Width::DmaxScaled { t } | Width::MaxFraction { t } => validate::positive("t", t),
        }
    }

    /// σ for data with the given statistics (`None` allowed only for [`Width::Sigma`]).
    pub fn sigma(&self, stats: Option<&DistStats>) -> Result<f64> {
        self.check()?;
        let need = || {
            stats.ok_or_else(|| {
                Error::input("kernel width", "this width rule needs distance statistics")
            })
        };
        let sigma = match *self {
            Width::Sigma { sigma } => sigma,
            Width::RangeFraction { fraction } => {
                let s = need()?;
                fraction * (s.max_d2.sqrt() - s.min_d2.sqrt())
            }
            Width::MeanRatio { ratio } => ratio * need()?.mean_d2.sqrt(),
            Width::MeanDistanceRatio { ratio } => ratio * need()?.mean_d,
            Width::MedianRatio { ratio } => {
                let median = need()?.median_d.ok_or_else(|| {
                    Error::input(
                        "kernel width",
                        "the median rule needs statistics computed with the median",
                    )
                })?;
                ratio * median
            }
            Width::DmaxScaled { t } => need()?.max_d2.sqrt() * (t / 2.0).sqrt(),
            Width::MaxFraction { t } => t * need()?.max_d2.sqrt(),
        };
        if !(sigma.is_finite() && sigma > 0.0) {
            return Err(Error::input(
                "kernel width",
                format!("{self:?} gives sigma = {sigma} (all samples identical or equidistant?)"),
            ));
        }
        Ok(sigma)
    }
}

/// Squared-distance statistics over the distinct pairs i < j of a dataset.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DistStats {
    /// min over i ≠ j of ‖x_i − x_j‖².
    pub min_d2: f64,
    /// max over i ≠ j of ‖x_i − x_j‖² (= d_max²).
    pub max_d2: f64,
    /// mean over the n(n−1)/2 pairs i < j of ‖x_i − x_j‖².
    pub mean_d2: f64,
    /// mean over the n(n−1)/2 pairs i < j of ‖x_i − x_j‖.
    pub mean_d: f64,
    /// The median pair distance (see the module docs); `None` unless it was asked for.
    pub median_d: Option<f64>,
}

/// The statistics of the squared distances `d2(i, j)` (read for i > j only) of `n ≥ 2`
/// samples, with the median when `median` is set. The one implementation behind
/// [`dist_stats`] and the inner-product path of [`crate::build`].
///
/// One sequential pass, column after column (j), rows i > j within a column, with
/// running sums: the result does not depend on the number of threads, and it is the
/// summation order every recorded experiment's σ was computed with (an O(n²) pass,
/// small beside building even one n x n kernel).
pub(crate) fn pair_stats<F>(n: usize, d2: F, median: bool) -> DistStats
where
    F: Fn(usize, usize) -> f64,
{
    let (mut min_d2, mut max_d2) = (f64::INFINITY, 0.0f64);
    let (mut sum, mut sum_d) = (0.0, 0.0);
    for j in 0..n {
        for i in (j + 1)..n {
            let v = d2(i, j);
            min_d2 = min_d2.min(v);
            max_d2 = max_d2.max(v);
            sum += v;
            sum_d += v.sqrt();
        }
    }
    let pairs = (n * (n - 1) / 2) as f64;
    DistStats {
        min_d2,
        max_d2,
        mean_d2: sum / pairs,
        mean_d: sum_d / pairs,
        median_d: median.then(|| median_distance(n, &d2)),
    }
}

/// The pair distance of rank ⌊m/2⌋ among the m = n(n−1)/2 pairs.
fn median_distance<F>(n: usize, d2: &F) -> f64
where
    F: Fn(usize, usize) -> f64,
{
    let mut all: Vec<f64> = (0..n)
        .flat_map(|j| ((j + 1)..n).map(move |i| d2(i, j)))
        .collect();
    let mid = all.len() / 2;
    let (_, m, _) = all.select_nth_unstable_by(mid, f64::total_cmp);
    // sqrt is monotone: the median of the distances is the root of the median d²
    m.sqrt()
}

/// Statistics of a pairwise squared-distance matrix (pairs i < j), without the median.
pub fn dist_stats(d2: MatRef<'_, f64>) -> Result<DistStats> {
    dist_stats_with(d2, false)
}

/// Statistics of a pairwise squared-distance matrix with everything the `widths` need
/// (the median only when one of them is [`Width::MedianRatio`]).
pub fn dist_stats_for(d2: MatRef<'_, f64>, widths: &[Width]) -> Result<DistStats> {
    dist_stats_with(d2, widths.iter().any(Width::needs_median))
}

fn dist_stats_with(d2: MatRef<'_, f64>, median: bool) -> Result<DistStats> {
    let n = validate::kernel("squared distances", d2)?;
    if n < 2 {
        return Err(Error::input("squared distances", "need at least 2 samples"));
    }
    for j in 0..n {
        for i in (j + 1)..n {
            let v = d2[(i, j)];
            if v < 0.0 {
                return Err(Error::input(
                    "squared distances",
                    format!("negative entry {v} at ({i}, {j})"),
                ));
            }
        }
    }
    Ok(pair_stats(n, |i, j| d2[(i, j)], median))
}

/// RMKC: σ = frac · (max d − min d), distances over pairs i ≠ j, from squared distances.
pub fn sigma_range_fraction(d2: MatRef<'_, f64>, frac: f64) -> Result<f64> {
    Width::RangeFraction { fraction: frac }.sigma(Some(&dist_stats(d2)?))
}

/// LG-MMC: σ = ratio · sqrt(mean d²) over pairs i < j.
pub fn sigma_mean_ratio(d2: MatRef<'_, f64>, ratio: f64) -> Result<f64> {
    Width::MeanRatio { ratio }.sigma(Some(&dist_stats(d2)?))
}

/// σ = ratio · the median pair distance (pairs i < j), from squared distances.
pub fn sigma_median_ratio(d2: MatRef<'_, f64>, ratio: f64) -> Result<f64> {
    let w = Width::MedianRatio { ratio };
    w.sigma(Some(&dist_stats_for(d2, &[w])?))
}

/// d_max² = the largest squared distance between two samples.
pub fn d_max_sq(d2: MatRef<'_, f64>) -> Result<f64> {
    Ok(dist_stats(d2)?.max_d2)
}
