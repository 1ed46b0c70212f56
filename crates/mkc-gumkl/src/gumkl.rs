//! GUMKL, Algorithm 1 of the paper: alternate (a) greedy medoids (eq. 3) + kernel k-medoids on
//! the composite kernel `Σ_v w_v^p K_v` (eq. 4) and (b) the closed-form weights (7)/(8), until
//! the objective (5)/(6) changes by less than ε; then optionally refine with kernel k-means on
//! the final composite kernel (Sect. 3.2).
//!
//! The algorithm is deterministic (greedy initialisation, no restarts): the seed of
//! [`Clusterer::fit`](mkc_core::Clusterer::fit) is ignored and [`Clusterer::fit_restarts`](mkc_core::Clusterer::fit_restarts) fits once for all seeds.
//!
//! Choices made here (the paper is silent):
//! * the objective compared in line 9 is `Ẽ(t)`, eq. (6) with the weights `w(t−1)` used to build
//!   `K̃(t)` and the partition returned by k-medoids in line 7; the test is relative (see
//!   [`GumklParams`]);
//! * when the loop stops, the returned weights are `w(t)` from line 8 (Algorithm 1's output);
//!   when it hits `max_iter` the last iterate is returned with `converged = false`;
//! * the refinement runs kernel k-means on `Σ_v w_v(t)^p K_v` started from GUMKL's partition,
//!   until the labels stop changing (or `inner_max_iter`).

use faer::MatRef;
use mkc_core::{Clustering, Diagnostics, KernelWeights, Result, Timings, WeightConstraint};

use crate::composite::{self, Composite};
use crate::inner::{self, MedoidStep};
use crate::params::GumklParams;
use crate::weights;

mkc_core::checked! {
    /// GUMKL with checked parameters (from [`GumklParams`] through
    /// [`ParamGuard::check`](mkc_core::ParamGuard::check)); fits through
    /// [`Clusterer`](mkc_core::Clusterer).
    pub struct Gumkl(GumklParams);
    |p| p.outer.check()
}

impl Gumkl {
    /// The exponent p (possibly `+∞`).
    pub fn p(&self) -> f64 {
        self.p.outer.p
    }
}

/// The kernel k-means refinement of a GUMKL run.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Refinement {
    /// Kernel k-means objective `Σ_v w_v^p D_v` of the refined partition (sum of squared
    /// distances to the cluster means in the composite feature space).
    pub objective: f64,
    /// Kernel k-means iterations.
    pub iterations: usize,
}

/// Diagnostics of GUMKL ([`Clustering::diagnostics`]); the run record lists `converged`,
/// and with refinement `refine_iterations` and `refined_objective`.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct GumklDiagnostics {
    /// GUMKL's own partition (k-medoids at the last iteration); the result's labels are the
    /// refined ones when refinement is on.
    pub medoid_labels: Vec<usize>,
    /// Medoid indices `l_k` of GUMKL's partition.
    pub medoids: Vec<usize>,
    /// Per-view within-cluster variances `E_v` of GUMKL's final partition (eq. 6).
    pub view_objectives: Vec<f64>,
    /// eq. (6) after the weight update of each iteration (≤ the entry of the objective
    /// trace; empty for p = ∞).
    pub updated_objective: Vec<f64>,
    /// `w(0)` (uniform) followed by the weights after each update.
    pub weights_trace: Vec<Vec<f64>>,
    /// Whether the relative objective change fell below ε (always true for p = ∞); the same
    /// as [`Clustering::converged`], kept here for the run records.
    pub converged: bool,
    /// The kernel k-means refinement, when requested.
    pub refinement: Option<Refinement>,
}

impl Diagnostics for GumklDiagnostics {
    fn entries(&self) -> Vec<(String, f64)> {
        let mut e = vec![("converged".to_string(), f64::from(u8::from(self.converged)))];
        if let Some(r) = &self.refinement {
            e.push(("refine_iterations".into(), r.iterations as f64));
            e.push(("refined_objective".into(), r.objective));
        }
        e
    }
}

/// What the alternation of Algorithm 1 ends with.
struct Alternation {
    step: MedoidStep,
    weights: Vec<f64>,
    diag: GumklDiagnostics,
    trace: Vec<f64>,
}

impl Gumkl {
    /// Algorithm 1, lines 2–10, on validated kernels.
    fn alternate(
        &self,
        kernels: &[MatRef<'_, f64>],
        comp: &mut Composite,
        m: usize,
        t: &mut Timings,
    ) -> Result<Alternation> {
        let outer = &self.p.outer;
        let p = outer.p;
        let mut w = vec![1.0 / kernels.len() as f64; kernels.len()]; // line 2
        let mut diag = GumklDiagnostics {
            medoid_labels: Vec::new(),
            medoids: Vec::new(),
            view_objectives: Vec::new(),
            updated_objective: Vec::new(),
            weights_trace: vec![w.clone()],
            converged: false,
            refinement: None,
        };
        let mut trace: Vec<f64> = Vec::new();
        let mut step = None;
        for _ in 0..outer.max_iter {
            t.time("composite", || comp.update(kernels, &w, p))?; // line 5
            let s = t.time("kmedoids", || {
                inner::greedy_then_kmedoids(comp.kernel(), m, outer.inner_max_iter)
                // lines 6–7
            })?;
            let e_v = t.time("weights", || {
                composite::medoid_view_objectives(kernels, &s.labels, &s.medoids)
            })?;
            let obj = weights::weighted_objective(&w, &e_v, p);
            diag.view_objectives = e_v;
            step = Some(s);
            if p == f64::INFINITY {
                // Baseline (ii): one iteration, no weight update.
                trace.push(obj);
                diag.converged = true;
                break;
            }
            t.time("weights", || {
                weights::optimal_weights(&diag.view_objectives, p, &mut w) // line 8
            })?;
            diag.updated_objective
                .push(weights::weighted_objective(&w, &diag.view_objectives, p));
            diag.weights_trace.push(w.clone());
            let prev = trace.last().copied();
            trace.push(obj);
            if outer.settled(prev, obj) {
                diag.converged = true; // line 9
                break;
            }
        }
        // max_iter ≥ 1 is checked with the parameters, so the loop ran at least once.
        let step =
            step.ok_or_else(|| mkc_core::Error::param("max_iter", 0, "must be at least 1"))?;
        Ok(Alternation {
            step,
            weights: w,
            diag,
            trace,
        })
    }

    /// Sect. 3.2: kernel k-means on the final composite kernel from GUMKL's partition.
    fn refine(
        &self,
        kernels: &[MatRef<'_, f64>],
        comp: &mut Composite,
        a: &Alternation,
        m: usize,
        t: &mut Timings,
    ) -> Result<(Vec<usize>, Refinement)> {
        let p = self.p.outer.p;
        t.time("composite", || comp.update(kernels, &a.weights, p))?;
        t.time("kmeans", || {
            let r = inner::kernel_kmeans_from(
                comp.kernel(),
                &a.step.labels,
                m,
                self.p.outer.inner_max_iter,
                0.0,
            )?;
            let d_v = composite::mean_view_objectives(kernels, &r.labels, m)?;
            let refinement = Refinement {
                objective: weights::weighted_objective(&a.weights, &d_v, p),
                iterations: r.n_iter,
            };
            Ok((r.labels, refinement))
        })
    }
}

deterministic_clusterer! {
    Gumkl, GumklParams => "gumkl", GumklDiagnostics;
    /// Algorithm 1 on every kernel of the set (a multiple kernel method: kernels required,
    /// features unused), then the refinement when requested; the seed is ignored.
    ///
    /// Result: the refined labels (else GUMKL's), the weights `w(t)` on the simplex
    /// (uniform for p = ∞), the objective trace `Ẽ(t)` (eq. 6, minimised) after the cluster
    /// update of each iteration — the quantity of line 9 — the number of iterations and
    /// whether line 9's test was met. Phases: "composite" (eq. 4), "kmedoids" (eqs. 3, 2),
    /// "weights" (eqs. 6–8), "kmeans" (the refinement).
    fn fit(&self, data, n_clusters, _seed) {
        let (kernels, mut comp) = Composite::for_set(data, "GUMKL", n_clusters)?;
        let mut t = Timings::default();
        let mut a = self.alternate(kernels, &mut comp, n_clusters, &mut t)?;
        let labels = if self.p.refine {
            let (labels, r) = self.refine(kernels, &mut comp, &a, n_clusters, &mut t)?;
            a.diag.refinement = Some(r);
            labels
        } else {
            a.step.labels.clone()
        };
        a.diag.medoid_labels = a.step.labels;
        a.diag.medoids = a.step.medoids;
        let (iterations, converged) = (a.trace.len(), a.diag.converged);
        Ok(Clustering::new(labels, n_clusters, a.diag)
            .with_weights(KernelWeights::new(a.weights, WeightConstraint::Simplex))
            .with_objective(a.trace)
            .with_iterations(iterations, converged)
            .with_timings(t))
    }
}
