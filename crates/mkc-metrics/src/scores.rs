//! Accuracy (Hungarian), NMI, purity and ARI computed from a [`Contingency`] table.

use crate::{hungarian_max, Contingency};
use faer::Mat;
use mkc_core::Result;

/// Normalisation of the mutual information in [`nmi`], named as scikit-learn's
/// `average_method` of `normalized_mutual_info_score`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum NmiNorm {
    /// `"max"`: MI / max(H(U), H(V)) — what the SimpleMKKM authors' MATLAB code uses.
    Max,
    /// `"arithmetic"`: MI / ((H(U) + H(V)) / 2) — scikit-learn's default.
    Arithmetic,
    /// `"geometric"`: MI / sqrt(H(U) H(V)).
    Geometric,
    /// `"min"`: MI / min(H(U), H(V)).
    Min,
}

impl NmiNorm {
    /// scikit-learn's name for this normalisation.
    pub fn name(self) -> &'static str {
        match self {
            NmiNorm::Max => "max",
            NmiNorm::Arithmetic => "arithmetic",
            NmiNorm::Geometric => "geometric",
            NmiNorm::Min => "min",
        }
    }
}

/// Clustering accuracy: the best one-to-one matching of clusters to classes (the
/// Hungarian algorithm on the contingency table), matched samples divided by n.
///
/// When there are more clusters than classes the surplus clusters match nothing and
/// all their samples count as errors (and vice versa), so ACC ≤ 1 with equality only
/// for a perfect relabelling.
///
/// # Errors
/// Empty labelings or different lengths (see [`Contingency::new`]).
pub fn accuracy(truth: &[usize], pred: &[usize]) -> Result<f64> {
    accuracy_of(&Contingency::new(truth, pred)?)
}

/// [`accuracy`] from a contingency table.
///
/// # Errors
/// Never for a table built by [`Contingency::new`].
pub fn accuracy_of(c: &Contingency) -> Result<f64> {
    let w = Mat::from_fn(c.n_classes(), c.n_clusters(), |i, j| c.get(i, j) as f64);
    let a = hungarian_max(w.as_ref())?;
    Ok(a.cost / c.n as f64)
}

/// Purity: Σ over clusters of the size of their largest class, divided by n.
///
/// # Errors
/// Empty labelings or different lengths.
pub fn purity(truth: &[usize], pred: &[usize]) -> Result<f64> {
    Ok(purity_of(&Contingency::new(truth, pred)?))
}

/// [`purity`] from a contingency table.
pub fn purity_of(c: &Contingency) -> f64 {
    let best: u64 = (0..c.n_clusters())
        .map(|j| (0..c.n_classes()).map(|i| c.get(i, j)).max().unwrap_or(0))
        .sum();
    best as f64 / c.n as f64
}

/// Normalised mutual information (natural logarithms; the value does not depend on
/// the base).
///
/// Edge cases follow scikit-learn: if both labelings have a single value (both
/// entropies zero) the partitions are identical and NMI = 1; otherwise if MI = 0 the
/// result is 0 (this covers one trivial labeling against a non-trivial one); the
/// normaliser is floored at machine epsilon. The result is clamped to [0, 1] against
/// rounding.
///
/// # Errors
/// Empty labelings or different lengths.
pub fn nmi(truth: &[usize], pred: &[usize], norm: NmiNorm) -> Result<f64> {
    Ok(nmi_of(&Contingency::new(truth, pred)?, norm))
}

/// [`nmi`] from a contingency table.
pub fn nmi_of(c: &Contingency, norm: NmiNorm) -> f64 {
    if c.n_classes() == 1 && c.n_clusters() == 1 {
        return 1.0;
    }
    let mi = mutual_info(c);
    if mi == 0.0 {
        return 0.0;
    }
    let hu = entropy(&c.class_sizes(), c.n);
    let hv = entropy(&c.cluster_sizes(), c.n);
    let den = match norm {
        NmiNorm::Max => hu.max(hv),
        NmiNorm::Arithmetic => 0.5 * (hu + hv),
        NmiNorm::Geometric => (hu * hv).sqrt(),
        NmiNorm::Min => hu.min(hv),
    };
    (mi / den.max(f64::EPSILON)).clamp(0.0, 1.0)
}

/// Mutual information I(U; V) in nats, clipped at 0.
pub fn mutual_info(c: &Contingency) -> f64 {
    let (a, b) = (c.class_sizes(), c.cluster_sizes());
    let n = c.n as f64;
    let mut mi = 0.0;
    for (i, &ai) in a.iter().enumerate() {
        for (j, &bj) in b.iter().enumerate() {
            let nij = c.get(i, j);
            if nij > 0 {
                // The ratio of exact integers is exactly 1 for independent cells, so
                // independent labelings give MI = 0 exactly.
                let ratio = (nij as f64 * n) / (ai as f64 * bj as f64);
                mi += nij as f64 / n * ratio.ln();
            }
        }
    }
    mi.max(0.0)
}

fn entropy(sizes: &[u64], n: usize) -> f64 {
    let n = n as f64;
    -sizes
        .iter()
        .filter(|&&s| s > 0)
        .map(|&s| s as f64 / n * (s as f64 / n).ln())
        .sum::<f64>()
}

/// Adjusted Rand index (Hubert & Arabie), through the pair confusion matrix as
/// scikit-learn computes it (exact integer arithmetic). Equals 1 when the two
/// partitions agree on every pair (including both trivial, or both all singletons);
/// 0 in expectation for random labelings; can be negative.
///
/// # Errors
/// Empty labelings or different lengths.
pub fn ari(truth: &[usize], pred: &[usize]) -> Result<f64> {
    Ok(ari_of(&Contingency::new(truth, pred)?))
}

/// [`ari`] from a contingency table.
pub fn ari_of(c: &Contingency) -> f64 {
    let n = c.n as i128;
    let sq = |v: &[u64]| v.iter().map(|&x| (x as i128) * (x as i128)).sum::<i128>();
    let sum_sq = sq(c.counts());
    let sum_a = sq(&c.class_sizes());
    let sum_b = sq(&c.cluster_sizes());
    // Ordered pairs (x2): same/same, different-class same-cluster, ...
    let tp = sum_sq - n;
    let fp = sum_b - sum_sq;
    let fn_ = sum_a - sum_sq;
    let tn = n * n - fp - fn_ - sum_sq;
    if fn_ == 0 && fp == 0 {
        return 1.0;
    }
    let num = 2.0 * ((tp as f64) * (tn as f64) - (fn_ as f64) * (fp as f64));
    let den = ((tp + fn_) as f64) * ((fn_ + tn) as f64) + ((tp + fp) as f64) * ((fp + tn) as f64);
    num / den
}

/// Every score of a clustering at once (one contingency table).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Scores {
    /// Clustering accuracy (Hungarian matching).
    pub acc: f64,
    /// NMI normalised by max(H(U), H(V)) (`"max"`).
    pub nmi_max: f64,
    /// NMI normalised by the arithmetic mean of the entropies (`"arithmetic"`).
    pub nmi_arith: f64,
    /// Purity.
    pub purity: f64,
    /// Adjusted Rand index.
    pub ari: f64,
}

/// [`accuracy`], [`nmi`] (max and arithmetic), [`purity`] and [`ari`] from one table.
///
/// # Errors
/// Empty labelings or different lengths.
pub fn score_all(truth: &[usize], pred: &[usize]) -> Result<Scores> {
    let c = Contingency::new(truth, pred)?;
    Ok(Scores {
        acc: accuracy_of(&c)?,
        nmi_max: nmi_of(&c, NmiNorm::Max),
        nmi_arith: nmi_of(&c, NmiNorm::Arithmetic),
        purity: purity_of(&c),
        ari: ari_of(&c),
    })
}
