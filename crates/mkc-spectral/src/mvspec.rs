//! MVSpec, multi-view spectral clustering (G. Tzortzis and A. Likas, "Kernel-based Weighted
//! Multi-view Clustering", ICDM 2012), the spectral sibling of MVKKM (`mkc_gumkl::Mvkkm`).
//!
//! It minimises, over a relaxed indicator `Y` (n x k, `YᵀY = I`) and view weights `w` on the
//! simplex,
//!
//! ```text
//! J(Y, w) = Σ_v w_v^p D_v(Y),   D_v(Y) = tr(K_v) − tr(Yᵀ K_v Y),   p ≥ 1,
//! ```
//!
//! alternating, from uniform weights (deterministic: no restarts, as the RMKC paper says):
//! 1. `Y` = the top-k eigenvectors of `K_w = Σ_v w_v^p K_v` (the global minimiser of J for
//!    fixed w, by Ky Fan's theorem), warm-started from the previous `Y`;
//! 2. `D_v` and `J`; stop when `|J_old − J| ≤ tol · |J_old|` (the authors' `|1 − J/J_old| < tol`,
//!    also met by `J = J_old = 0`), before the weight update;
//! 3. the weights in closed form for fixed `Y` — MVKKM's and GUMKL's rule
//!    `w_v ∝ D_v^{−1/(p−1)}` (p > 1), the view of smallest `D_v` (p = 1)
//!    ([`mkc_gumkl::optimal_weights`]) — then weights below `weight_floor` set to 0 and the
//!    rest renormalised ([`mkc_gumkl::weights::prune_small`]).
//!
//! Both steps minimise J exactly, so the objective trace never increases (up to the weight
//! floor). The loop is MVKKM's ([`mkc_gumkl::alternation`]) with the eigenvectors as the
//! partition step. The labels are k-means on the row-normalised `Y` of the last composite kernel
//! (the authors' `Spectral_clustering`: eigenvectors of the kernel itself, not of a
//! Laplacian); only this step uses the seed, so restarts share the alternation.
//!
//! Choices not in the paper: an iteration cap (the authors' loop has none); `D_v` that
//! rounding makes slightly negative (a view whose rank is at most k has `D_v = 0` exactly)
//! is clamped to 0 when it is within `1e-10 · tr(K_v)` of it, and is an error below that (a
//! kernel that is not positive semidefinite); the authors' MATLAB k-means ('sample' start,
//! 30 replicates, `rand('state', 0)`) is replaced by seeded k-means++ with 30 replicates.

use faer::{Mat, MatRef};
use mkc_core::{Error, KernelSet, KernelWeights, Result, Timings, WeightConstraint};
use mkc_gumkl::alternation::{alternate, Settings};

use crate::embedding::{uniform_start, Embedded, WithInertia};
use crate::params::MvspecParams;

/// Relative size, against `tr(K_v)`, below which a negative `D_v` is rounding.
pub const VIEW_OBJECTIVE_RTOL: f64 = 1e-10;

mkc_core::checked! {
    /// MVSpec with checked parameters (from [`MvspecParams`] through
    /// [`mkc_core::ParamGuard::check`]); fits through [`mkc_core::Clusterer`].
    pub struct Mvspec(MvspecParams);
    |p| p.validate()
}

impl Mvspec {
    /// The exponent p.
    pub fn p(&self) -> f64 {
        self.p.p
    }
}

/// Diagnostics of MVSpec ([`mkc_core::Clustering::diagnostics`]); the run record lists `converged` and
/// `inertia`.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct MvspecDiagnostics {
    /// `D_v` of the returned embedding, per view.
    pub view_objectives: Vec<f64>,
    /// `w` at the start (uniform) and after every weight update that was used.
    pub weights_trace: Vec<Vec<f64>>,
    /// Whether the relative objective change fell below the tolerance.
    pub converged: bool,
    /// k-means inertia of the winning replicate on the embedding.
    pub inertia: f64,
}

mkc_core::impl_diagnostics!(MvspecDiagnostics { converged, inertia });

impl WithInertia for MvspecDiagnostics {
    fn set_inertia(&mut self, inertia: f64) {
        self.inertia = inertia;
    }
}

/// `D_v = tr(K_v) − tr(Yᵀ K_v Y)` for every view, clamped at 0 within rounding (module docs).
///
/// # Errors
/// `D_v < −1e-10 · tr(K_v)` ([`Error::Numerical`]: the kernel is not positive semidefinite).
pub fn view_objectives(kernels: &[MatRef<'_, f64>], y: MatRef<'_, f64>) -> Result<Vec<f64>> {
    let between = mkc_linalg::trace_quadratic_many(kernels, y)?;
    kernels
        .iter()
        .zip(between)
        .enumerate()
        .map(|(v, (k, b))| {
            let tr: f64 = (0..k.nrows()).map(|i| k[(i, i)]).sum();
            let d = tr - b;
            if d >= 0.0 {
                Ok(d)
            } else if d >= -VIEW_OBJECTIVE_RTOL * tr.abs() {
                Ok(0.0)
            } else {
                Err(Error::numerical(
                    "MVSpec",
                    format!("view {v}: tr(K) − tr(YᵀKY) = {d:e} < 0; is its kernel positive semidefinite?"),
                ))
            }
        })
        .collect()
}

impl Mvspec {
    /// Everything but the final k-means (module docs, steps 1–3).
    pub(crate) fn embed(
        &self,
        data: &KernelSet<'_>,
        k: usize,
    ) -> Result<Embedded<MvspecDiagnostics>> {
        let (kernels, mut comp, w) = uniform_start(data, "MVSpec", k, 1)?;
        let mut t = Timings::default();
        let settings = Settings {
            p: self.p.p,
            tol: self.p.tol,
            max_iter: self.p.max_iter,
            weight_floor: self.p.weight_floor,
        };
        let mut y: Option<Mat<f64>> = None;
        let a = alternate(kernels, &mut comp, &settings, &mut t, w, |kernel, t| {
            let pairs = t.time("eigensolve", || match &y {
                Some(y) => mkc_linalg::eigen::top_k_warm(kernel, y.as_ref(), &self.p.eigen),
                None => mkc_linalg::eigen::top_k(kernel, k, &self.p.eigen),
            })?;
            let d = t.time("weights", || {
                view_objectives(kernels, pairs.vectors.as_ref())
            })?;
            y = Some(pairs.vectors);
            Ok(d)
        })?;
        let (iterations, converged) = (a.objective.len(), a.converged);
        Ok(Embedded {
            vectors: y.unwrap_or_else(|| Mat::zeros(data.n(), k)),
            weights: KernelWeights::new(a.weights, WeightConstraint::Simplex),
            objective: a.objective,
            iterations,
            converged,
            timings: t,
            diagnostics: MvspecDiagnostics {
                view_objectives: a.view_objectives,
                weights_trace: a.weights_trace,
                converged,
                inertia: f64::NAN,
            },
        })
    }
}

crate::embedding::clusterer_by_embedding! {
    Mvspec, MvspecParams => "mvspec", MvspecDiagnostics;
    /// MVSpec on every kernel of the set (each a view; a multiple kernel method, features
    /// unused). The objective trace is `J` after each eigensolve (minimised, non-increasing
    /// with `weight_floor = 0`). Phases: "composite", "eigensolve", "weights", "kmeans".
}
