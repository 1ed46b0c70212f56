//! Kernel functions and kernel matrices from dense or sparse features.

use faer::sparse::SparseRowMatRef;
use faer::{Mat, MatRef};
use mkc_core::{validate, Error, Result};
use serde::{Deserialize, Serialize};

use crate::inner::Inner;
use crate::width::DistStats;

/// A kernel function k(x, y) with its parameters.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kernel", rename_all = "snake_case", deny_unknown_fields)]
pub enum KernelFn {
    /// xᵀy.
    Linear,
    /// (a + xᵀy)^degree, a ≥ 0 (so that the kernel is PSD), degree ≥ 1.
    Polynomial { a: f64, degree: u32 },
    /// exp(−‖x − y‖² / (2σ²)).
    Gaussian { sigma: f64 },
    /// exp(−‖x − y‖² / (t · d_max²)), d_max the largest distance between two samples
    /// of the data the matrix is built from (SCMK, "Experiment Setup").
    GaussianScaled { t: f64 },
    /// xᵀy / (‖x‖ ‖y‖); every sample must be non-zero.
    Cosine,
}

/// A kernel function with every data-dependent quantity fixed.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Resolved {
    Linear,
    Polynomial {
        a: f64,
        degree: u32,
    },
    /// exp(−gamma · d²), gamma = 1/(2σ²).
    Gaussian {
        gamma: f64,
    },
    Cosine,
}

impl KernelFn {
    /// Check the parameters (σ, t > 0; a ≥ 0; degree ≥ 1; all finite).
    pub fn check(&self) -> Result<()> {
        match *self {
            KernelFn::Linear | KernelFn::Cosine => Ok(()),
            KernelFn::Polynomial { a, degree } => {
                validate::non_negative("a", a)?;
                if degree == 0 {
                    return Err(Error::param("degree", degree, "must be at least 1"));
                }
                Ok(())
            }
            KernelFn::Gaussian { sigma } => validate::positive("sigma", sigma),
            KernelFn::GaussianScaled { t } => validate::positive("t", t),
        }
    }

    pub(crate) fn needs_stats(&self) -> bool {
        matches!(self, KernelFn::GaussianScaled { .. })
    }

    pub(crate) fn resolve(&self, stats: Option<&DistStats>) -> Result<Resolved> {
        self.check()?;
        Ok(match *self {
            KernelFn::Linear => Resolved::Linear,
            KernelFn::Cosine => Resolved::Cosine,
            KernelFn::Polynomial { a, degree } => Resolved::Polynomial { a, degree },
            KernelFn::Gaussian { sigma } => Resolved::Gaussian {
                gamma: 1.0 / (2.0 * sigma * sigma),
            },
            KernelFn::GaussianScaled { t } => {
                let s = stats.ok_or_else(|| {
                    Error::input("kernel", "GaussianScaled needs distance statistics")
                })?;
                if s.max_d2 <= 0.0 {
                    return Err(Error::input(
                        "features",
                        "all samples are identical: d_max = 0",
                    ));
                }
                let gamma = 1.0 / (t * s.max_d2);
                if !gamma.is_finite() {
                    return Err(Error::input(
                        "kernel width",
                        format!("t · d_max² = {} underflows", t * s.max_d2),
                    ));
                }
                Resolved::Gaussian { gamma }
            }
        })
    }
}

impl Resolved {
    /// The kernel matrix from the shared inner products.
    pub(crate) fn matrix(&self, inner: &Inner) -> Result<Mat<f64>> {
        let k = match *self {
            Resolved::Linear => inner.map(|g, _, _, _, _| g),
            Resolved::Polynomial { a, degree } => {
                let b = degree as i32;
                inner.map(move |g, _, _, _, _| (a + g).powi(b))
            }
            Resolved::Gaussian { gamma } => inner.map(move |g, ni, nj, i, j| {
                if i == j {
                    1.0
                } else {
                    (-gamma * (ni + nj - 2.0 * g).max(0.0)).exp()
                }
            }),
            Resolved::Cosine => {
                if let Some(i) = inner.diag().iter().position(|&v| v <= 0.0) {
                    return Err(Error::input(
                        "features",
                        format!("sample {i} is the zero vector: cosine kernel undefined"),
                    ));
                }
                inner.map(|g, ni, nj, i, j| {
                    if i == j {
                        1.0
                    } else {
                        (g / (ni * nj).sqrt()).clamp(-1.0, 1.0)
                    }
                })
            }
        };
        if matches!(self, Resolved::Polynomial { .. }) {
            // (a + xᵀy)^b can overflow for large features: report it instead of returning inf.
            validate::finite("polynomial kernel", k.as_ref())?;
        }
        Ok(k)
    }
}

fn gram_from(inner: Inner, f: &KernelFn) -> Result<Mat<f64>> {
    f.check()?;
    if let KernelFn::Linear = f {
        return Ok(inner.into_full());
    }
    let stats = inner.dist_stats_if(f.needs_stats(), false)?;
    f.resolve(stats.as_ref())?.matrix(&inner)
}

/// Kernel matrix K_ij = f(x_i, x_j) of dense features (n x d, rows = samples).
///
/// One triangular matmul X·Xᵀ (parallel, faer), then a parallel elementwise map
/// evaluated on the lower triangle and mirrored: the result is exactly symmetric.
/// Gaussian diagonals are exactly 1, cosine diagonals exactly 1.
pub fn gram(x: MatRef<'_, f64>, f: &KernelFn) -> Result<Mat<f64>> {
    f.check()?;
    gram_from(Inner::dense(x)?, f)
}

/// Kernel matrix of sparse CSR features (n x d), e.g. tf-idf text data; equals
/// [`gram`] of the densified matrix (up to rounding).
pub fn gram_sparse(x: SparseRowMatRef<'_, usize, f64>, f: &KernelFn) -> Result<Mat<f64>> {
    f.check()?;
    gram_from(Inner::sparse(x)?, f)
}

/// Pairwise squared Euclidean distances ‖x_i − x_j‖² of dense features, from the Gram
/// matrix (G_ii + G_jj − 2G_ij, tiny negatives from cancellation clamped to 0, zero
/// diagonal).
pub fn sq_dists(x: MatRef<'_, f64>) -> Result<Mat<f64>> {
    Ok(Inner::dense(x)?.sq_dists())
}

/// [`sq_dists`] for sparse CSR features.
pub fn sq_dists_sparse(x: SparseRowMatRef<'_, usize, f64>) -> Result<Mat<f64>> {
    Ok(Inner::sparse(x)?.sq_dists())
}
