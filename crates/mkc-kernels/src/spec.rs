//! Serde-friendly kernel descriptions and [`build`], which makes a whole family of
//! kernels from one set of inner products, and the kernel families of the papers.

use faer::sparse::SparseRowMatRef;
use faer::{Mat, MatRef};
use mkc_core::{Error, Result};
use serde::{Deserialize, Serialize};

use crate::function::KernelFn;
use crate::inner::Inner;
use crate::normalize::{apply, Normalization};
use crate::width::{DistStats, Width};

/// One kernel: its function and, for a Gaussian, the rule choosing its width.
/// Serialised with a `kernel` tag, e.g. in TOML
/// `{ kernel = "gaussian", width = { rule = "range_fraction", fraction = 0.1 } }`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kernel", rename_all = "snake_case", deny_unknown_fields)]
pub enum KernelSpec {
    /// xᵀy.
    Linear,
    /// (a + xᵀy)^degree.
    Polynomial { a: f64, degree: u32 },
    /// exp(−‖x − y‖²/(2σ²)) with σ from `width`.
    Gaussian { width: Width },
    /// xᵀy / (‖x‖ ‖y‖).
    Cosine,
}

impl KernelSpec {
    fn needs_stats(&self) -> bool {
        matches!(self, KernelSpec::Gaussian { width } if width.needs_stats())
    }

    /// RMKC (§4): 10 Gaussians with σ = 10%, 20%, …, 100% of the range of pairwise
    /// distances. The paper then normalises them multiplicatively (Kloft et al.).
    pub fn rmkc_gaussians() -> Vec<KernelSpec> {
        (1..=10)
            .map(|k| KernelSpec::Gaussian {
                width: Width::RangeFraction {
                    fraction: k as f64 / 10.0,
                },
            })
            .collect()
    }

    /// LG-MMC (§5): Gaussians with σ ∈ {0.25, 0.5, 1, 2, 4} · sqrt(mean squared distance).
    pub fn lgmmc_gaussians() -> Vec<KernelSpec> {
        [0.25, 0.5, 1.0, 2.0, 4.0]
            .into_iter()
            .map(|ratio| KernelSpec::Gaussian {
                width: Width::MeanRatio { ratio },
            })
            .collect()
    }

    /// SCMK ("Experiment Setup"): 12 kernels, in this order: 7 Gaussians
    /// exp(−d²/(t d_max²)) for t ∈ {0.01, 0.05, 0.1, 1, 10, 50, 100}; linear;
    /// (a + xᵀy)^b for (a, b) ∈ {(0, 2), (0, 4), (1, 2), (1, 4)}. The authors' script
    /// then divides each by its largest entry ([`Normalization::DivideByMax`]).
    pub fn scmk_twelve() -> Vec<KernelSpec> {
        let mut v: Vec<KernelSpec> = [0.01, 0.05, 0.1, 1.0, 10.0, 50.0, 100.0]
            .into_iter()
            .map(|t| KernelSpec::Gaussian {
                width: Width::DmaxScaled { t },
            })
            .collect();
        v.push(KernelSpec::Linear);
        for a in [0.0, 1.0] {
            for degree in [2, 4] {
                v.push(KernelSpec::Polynomial { a, degree });
            }
        }
        v
    }

    /// The kernel function for data with the given inner products.
    fn to_fn(self, stats: Option<&DistStats>) -> Result<KernelFn> {
        Ok(match self {
            KernelSpec::Linear => KernelFn::Linear,
            KernelSpec::Cosine => KernelFn::Cosine,
            KernelSpec::Polynomial { a, degree } => KernelFn::Polynomial { a, degree },
            KernelSpec::Gaussian { width } => KernelFn::Gaussian {
                sigma: width.sigma(stats)?,
            },
        })
    }
}

/// Every kernel of `specs` on dense features x (n x d, rows = samples), each then
/// normalised by the pipeline `norms` applied in order (e.g. `[Center, UnitDiagonal]`
/// for SimpleMKKM; empty for none). The Gram matrix X·Xᵀ and the distance
/// statistics are computed once and shared by all specs.
pub fn build(
    x: MatRef<'_, f64>,
    specs: &[KernelSpec],
    norms: &[Normalization],
) -> Result<Vec<Mat<f64>>> {
    check_specs(specs)?;
    build_from(&Inner::dense(x)?, specs, norms)
}

/// [`build`] for sparse CSR features.
pub fn build_sparse(
    x: SparseRowMatRef<'_, usize, f64>,
    specs: &[KernelSpec],
    norms: &[Normalization],
) -> Result<Vec<Mat<f64>>> {
    check_specs(specs)?;
    build_from(&Inner::sparse(x)?, specs, norms)
}

fn check_specs(specs: &[KernelSpec]) -> Result<()> {
    if specs.is_empty() {
        return Err(Error::input("kernel specs", "no kernels requested"));
    }
    for (p, s) in specs.iter().enumerate() {
        let checked = match s {
            KernelSpec::Gaussian { width } => width.check(),
            other => other.to_fn(None).and_then(|f| f.check()),
        };
        checked.map_err(|e| Error::input(format!("kernel spec {p} ({s:?})"), e.to_string()))?;
    }
    Ok(())
}

fn build_from(
    inner: &Inner,
    specs: &[KernelSpec],
    norms: &[Normalization],
) -> Result<Vec<Mat<f64>>> {
    let median = specs
        .iter()
        .any(|s| matches!(s, KernelSpec::Gaussian { width } if width.needs_median()));
    let stats = inner.dist_stats_if(specs.iter().any(KernelSpec::needs_stats), median)?;
    specs
        .iter()
        .map(|s| {
            let f = s.to_fn(stats.as_ref())?;
            let mut k = f.resolve(stats.as_ref())?.matrix(inner)?;
            for nm in norms {
                apply(k.as_mut(), nm)?;
            }
            Ok(k)
        })
        .collect()
}
