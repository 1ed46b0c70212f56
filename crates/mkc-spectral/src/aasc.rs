//! AASC, affinity aggregation for spectral clustering (H.-C. Huang, Y.-Y. Chuang and
//! C.-S. Chen, "Affinity Aggregation for Spectral Clustering", CVPR 2012), as the authors'
//! MATLAB code runs it.
//!
//! Every kernel of the set is an affinity `W_k`. Starting from `v = 1/m`, each iteration
//! 1. aggregates `W_v = Σ_k v_k² W_k` and takes the unnormalised Laplacian
//!    `L_v = D_v − W_v` (`mkc_linalg::laplacian`, self-loops included in the degrees);
//! 2. computes `F`, the eigenvectors of the c smallest eigenvalues of `L_v` (the trivial
//!    constant one included), by a bottom-c eigensolve warm-started from the previous `F`;
//! 3. stops when `Σ_ij (|F_ij| − |F^old_ij|)² < tol` (from the second iteration on, before
//!    the weight update);
//! 4. updates v by the 1-D Rayleigh-ratio step on the second column of F
//!    ([`crate::aasc_weights`]).
//!
//! The labels are k-means on the row-normalised `F` (the authors' evaluation script; the
//! seed drives only this step, so restarts share the embedding).
//!
//! Choices not in the paper, as in the authors' code: the plain eigenproblem of `L_v` (their
//! generalised one, `L_v f = λ D_v f`, is commented out), 20 iterations, the 1e-5 threshold,
//! the weight step on the second eigenvector only. Affinities with negative entries (e.g.
//! linear kernels) are accepted, as the authors' code does.
//!
//! Result: the labels; as kernel weights, the coefficients of the aggregate normalised to the
//! simplex, `v_k² / Σ_j v_j²` (a scale of `W_v` does not change its eigenvectors); the
//! objective trace `R(v) = f₂ᵀL_v f₂ / f₂ᵀD_v f₂` of the second eigenvector after every
//! eigensolve — the quantity the weight step minimises, not proved to decrease over the
//! alternation (the step ignores that `f₂` changes with v).

use faer::{Mat, MatRef};
use mkc_core::{KernelSet, KernelWeights, Result, Timings, WeightConstraint};
use mkc_gumkl::Composite;

use crate::aasc_weights::{column, degrees, WeightProblem};
use crate::embedding::{uniform_start, Embedded, WithInertia};
use crate::params::AascParams;

mkc_core::checked! {
    /// AASC with checked parameters (from [`AascParams`] through
    /// [`mkc_core::ParamGuard::check`]); fits through [`mkc_core::Clusterer`].
    pub struct Aasc(AascParams);
    |p| p.validate()
}

/// Diagnostics of AASC ([`mkc_core::Clustering::diagnostics`]); the run record lists `converged`,
/// `rootless_steps`, `change` and `inertia`.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct AascDiagnostics {
    /// The affinity weights v that produced the returned embedding (`Σ v_k = 1`, signs kept).
    pub affinity_weights: Vec<f64>,
    /// v at the start (uniform) and after every weight step that was used.
    pub weights_trace: Vec<Vec<f64>>,
    /// `λ₁` of every weight step.
    pub lambdas: Vec<f64>,
    /// Weight steps whose secular equation had no root (`λ₁` by the rule's fallback).
    pub rootless_steps: usize,
    /// The last `Σ_ij (|F_ij| − |F^old_ij|)²` (∞ after a single iteration).
    pub change: f64,
    /// Whether the change fell below the tolerance.
    pub converged: bool,
    /// k-means inertia of the winning replicate on the embedding.
    pub inertia: f64,
}

mkc_core::impl_diagnostics!(AascDiagnostics {
    converged,
    rootless_steps,
    change,
    inertia
});

impl WithInertia for AascDiagnostics {
    fn set_inertia(&mut self, inertia: f64) {
        self.inertia = inertia;
    }
}

/// `Σ_ij (|a_ij| − |b_ij|)²`.
fn abs_change(a: &Mat<f64>, b: &Mat<f64>) -> f64 {
    let mut s = 0.0;
    for j in 0..a.ncols() {
        for i in 0..a.nrows() {
            let d = a[(i, j)].abs() - b[(i, j)].abs();
            s += d * d;
        }
    }
    s
}

impl Aasc {
    /// The bottom-c eigenvectors of the Laplacian of `Σ_k v_k² W_k`.
    fn embed_once(
        &self,
        kernels: &[MatRef<'_, f64>],
        comp: &mut Composite,
        v: &[f64],
        warm: Option<&Mat<f64>>,
        c: usize,
        t: &mut Timings,
    ) -> Result<Mat<f64>> {
        let abs: Vec<f64> = v.iter().map(|x| x.abs()).collect();
        // Composite holds Σ (|v_k| / max|v|)² W_k: W_v up to a positive scale.
        let lap = t.time("affinity", || {
            comp.update(kernels, &abs, 2.0)?;
            mkc_linalg::laplacian(comp.kernel())
        })?;
        let pairs = t.time("eigensolve", || match warm {
            Some(f) => mkc_linalg::eigen::bottom_k_warm(lap.as_ref(), f.as_ref(), &self.p.eigen),
            None => mkc_linalg::eigen::bottom_k(lap.as_ref(), c, &self.p.eigen),
        })?;
        Ok(pairs.vectors)
    }

    /// Everything but the final k-means (module docs, steps 1–4).
    pub(crate) fn embed(
        &self,
        data: &KernelSet<'_>,
        c: usize,
    ) -> Result<Embedded<AascDiagnostics>> {
        let (kernels, mut comp, mut v) = uniform_start(data, "AASC", c, 2)?;
        let mut t = Timings::default();
        let deg = t.time("affinity", || degrees(kernels));
        let mut weights_trace = vec![v.clone()];
        let (mut lambdas, mut trace) = (Vec::new(), Vec::new());
        let (mut fallbacks, mut change, mut converged) = (0, f64::INFINITY, false);
        let mut f: Option<Mat<f64>> = None;
        for _ in 0..self.p.max_iter {
            let f_new = self.embed_once(kernels, &mut comp, &v, f.as_ref(), c, &mut t)?;
            let problem = t.time("weights", || {
                WeightProblem::for_vector(kernels, &deg, column(&f_new, 1).as_ref())
            })?;
            trace.push(problem.ratio(&v));
            let done = f.as_ref().is_some_and(|old| {
                change = abs_change(&f_new, old);
                change < self.p.tol
            });
            f = Some(f_new);
            if done {
                converged = true;
                break;
            }
            let step = t.time("weights", || {
                problem.solve(self.p.lambda, self.p.lambda_start, &self.p.brent)
            })?;
            fallbacks += usize::from(!step.root_found);
            lambdas.push(step.lambda);
            weights_trace.push(step.weights.clone());
            v = step.weights;
        }
        // The last update is unused when the cap is hit: report the weights behind F.
        let v = mkc_gumkl::weights::weights_in_use(&mut weights_trace, trace.len(), v);
        let sq: f64 = v.iter().map(|x| x * x).sum();
        let weights = KernelWeights::new(
            v.iter().map(|x| x * x / sq).collect(),
            WeightConstraint::Simplex,
        );
        let iterations = trace.len();
        let diagnostics = AascDiagnostics {
            affinity_weights: v,
            weights_trace,
            lambdas,
            rootless_steps: fallbacks,
            change,
            converged,
            inertia: f64::NAN,
        };
        Ok(Embedded {
            vectors: f.unwrap_or_else(|| Mat::zeros(data.n(), c)),
            weights,
            objective: trace,
            iterations,
            converged,
            timings: t,
            diagnostics,
        })
    }
}

crate::embedding::clusterer_by_embedding! {
    Aasc, AascParams => "aasc", AascDiagnostics;
    /// AASC on every kernel of the set (each an affinity; a multiple kernel method, features
    /// unused), c ≥ 2 clusters. Phases: "affinity", "eigensolve", "weights", "kmeans".
}
