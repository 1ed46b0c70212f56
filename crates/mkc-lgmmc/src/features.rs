//! Explicit features of a kernel for the search of eq. (13) (the paper's footnote 1):
//! `F = U_r Λ_r^½` from the top eigenpairs of the *centred* kernel `HKH`
//! (`H = I − 11ᵀ/n`), i.e. kernel PCA scores, so that `FFᵀ` is the best rank-r
//! approximation of HKH. Centring is ours: the top eigenvector of an uncentred Gaussian
//! kernel (and of `K + b`) is nearly constant, and a constant feature wins the ∞-norm of
//! eq. (13) with a label vector that only reflects the sizes of the α_i (the same reason
//! the linear path leaves the bias column out). The rank r (ours): the smallest r whose eigenvalues carry a
//! fraction `1 − energy_tol` of the trace (Σ_i λ_i = tr K, known without the
//! decomposition), capped at `max_rank`. The authors' package uses the symmetric square
//! root `U Λ^½ Uᵀ` of `K + b` (n features; [`kernel_sqrt_features`], `FeatureMap::Sqrt`);
//! both factor a kernel, but the ∞-norm of eq. (13) is not rotation invariant, so the two
//! searches may return different label vectors.

use faer::{Mat, MatRef};
use mkc_core::{Error, Result};
use mkc_linalg::eigen::{self, EigenOptions};

/// How many eigenpairs of a kernel make its explicit features: the smallest rank r whose
/// eigenvalues carry a fraction `1 − energy_tol` of the trace, at most `max_rank` (ours;
/// defaults 1e-3 and 300). `energy_tol = 0` and `max_rank ≥ n` keep the whole kernel.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FeatureRank {
    /// Fraction of the trace the dropped eigenvalues may carry, in [0, 1).
    pub energy_tol: f64,
    /// Cap on the rank, ≥ 1.
    pub max_rank: usize,
}

impl Default for FeatureRank {
    fn default() -> Self {
        Self {
            energy_tol: 1e-3,
            max_rank: 300,
        }
    }
}

impl FeatureRank {
    /// Errors ([`Error::InvalidParam`]): `energy_tol` outside [0, 1), `max_rank` = 0.
    pub fn check(&self) -> Result<()> {
        mkc_core::mkc_ensure!(self.max_rank >= 1, param "max_rank", self.max_rank, "must be at least 1");
        if !(self.energy_tol.is_finite() && (0.0..1.0).contains(&self.energy_tol)) {
            return Err(Error::param(
                "energy_tol",
                self.energy_tol,
                "must lie in [0, 1)",
            ));
        }
        Ok(())
    }
}

/// Descending top eigenpairs of `k` by [`FeatureRank`] (at least one): (values, vectors
/// n x r).
fn top_pairs(k: MatRef<'_, f64>, rank: FeatureRank, seed: u64) -> Result<(Vec<f64>, Mat<f64>)> {
    let FeatureRank {
        energy_tol,
        max_rank,
    } = rank;
    let n = k.nrows();
    let trace: f64 = (0..n).map(|i| k[(i, i)]).sum();
    if trace.is_nan() || trace <= 0.0 {
        return Err(Error::input(
            "kernel",
            format!("trace {trace} is not positive"),
        ));
    }
    let cap = max_rank.min(n);
    let target = (1.0 - energy_tol) * trace;
    let (values, vectors) = if n <= 600 || 3 * cap >= n {
        let e = eigen::dense_sym(k)?;
        let idx: Vec<usize> = (0..cap).map(|t| n - 1 - t).collect();
        let v = Mat::from_fn(n, cap, |i, c| e.vectors[(i, idx[c])]);
        (idx.iter().map(|&i| e.values[i]).collect::<Vec<f64>>(), v)
    } else {
        let opts = EigenOptions::default().seed(seed).tol(1e-8);
        let first = cap.min(64);
        let e = eigen::top_k(k, first, &opts)?;
        let carried: f64 = e.values.iter().filter(|v| **v > 0.0).sum();
        if carried >= target || first == cap {
            (e.values, e.vectors)
        } else {
            let e = eigen::top_k(k, cap, &opts)?;
            (e.values, e.vectors)
        }
    };
    let mut r = 0;
    let mut acc = 0.0;
    while r < values.len() && values[r] > 0.0 {
        acc += values[r];
        r += 1;
        if acc >= target {
            break;
        }
    }
    if r == 0 {
        return Err(Error::input("kernel", "no positive eigenvalue"));
    }
    Ok((values[..r].to_vec(), vectors.subcols(0, r).to_owned()))
}

/// The authors' package's features: the symmetric square root `U_r Λ_r^½ U_rᵀ` (n x n)
/// of the kernel as given (with its bias), r by [`FeatureRank`].
pub fn kernel_sqrt_features(k: MatRef<'_, f64>, rank: FeatureRank, seed: u64) -> Result<Mat<f64>> {
    let (values, u) = top_pairs(k, rank, seed)?;
    let n = k.nrows();
    let scaled = Mat::from_fn(n, values.len(), |i, c| u[(i, c)] * values[c].sqrt());
    let mut f = Mat::<f64>::zeros(n, n);
    faer::linalg::matmul::matmul(
        f.as_mut(),
        faer::Accum::Replace,
        scaled.as_ref(),
        u.transpose(),
        1.0,
        faer::Par::Seq,
    );
    Ok(f)
}

/// Features `U_r Λ_r^½` (n x r) of the centred kernel `HkH`, r by [`FeatureRank`].
pub fn kernel_features(k: MatRef<'_, f64>, rank: FeatureRank, seed: u64) -> Result<Mat<f64>> {
    let n = k.nrows();
    let mut kc = k.to_owned();
    mkc_linalg::center_in_place(kc.as_mut())?;
    let k = kc.as_ref();
    let (values, vectors) = top_pairs(k, rank, seed)?;
    let r = values.len();
    let scale: Vec<f64> = values[..r].iter().map(|v| v.sqrt()).collect();
    Ok(Mat::from_fn(n, r, |i, c| vectors[(i, c)] * scale[c]))
}
