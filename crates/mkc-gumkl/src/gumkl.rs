//! GUMKL, Algorithm 1 of the paper: alternate (a) greedy medoids (eq. 3) + kernel k-medoids on
//! the composite kernel `Σ_v w_v^p K_v` (eq. 4) and (b) the closed-form weights (7)/(8), until
//! the objective (5)/(6) changes by less than ε; then optionally refine with kernel k-means on
//! the final composite kernel (Sect. 3.2).
//!
//! The algorithm is deterministic (greedy initialisation, no restarts), so it takes no seed.
//!
//! Choices made here (the paper is silent):
//! * the objective compared in line 9 is `Ẽ(t)`, eq. (6) with the weights `w(t−1)` used to build
//!   `K̃(t)` and the partition returned by k-medoids in line 7; the test is relative (see
//!   [`GumklParams`](crate::GumklParams));
//! * when the loop stops, the returned weights are `w(t)` from line 8 (Algorithm 1's output);
//!   when it hits `max_iter` the last iterate is returned with `converged = false`;
//! * the refinement runs kernel k-means on `Σ_v w_v(t)^p K_v` started from GUMKL's partition,
//!   until the labels stop changing (or `inner_max_iter`).

use faer::MatRef;
use mkc_core::{validate, Error, Fit, Result};

use crate::composite::{self, Composite};
use crate::inner;
use crate::params::GumklChecked;
use crate::weights;

/// The kernel k-means refinement of a GUMKL run.
#[derive(Debug, Clone, PartialEq)]
pub struct Refinement {
    /// Labels after kernel k-means (equal to [`GumklFit::labels`]).
    pub labels: Vec<usize>,
    /// Kernel k-means objective `Σ_v w_v^p D_v` of the refined partition (sum of squared
    /// distances to the cluster means in the composite feature space).
    pub objective: f64,
    /// Kernel k-means iterations.
    pub n_iter: usize,
}

/// Result of [`GumklChecked::fit`].
#[derive(Debug, Clone, PartialEq)]
pub struct GumklFit {
    /// Final cluster labels `0..M`: the refined ones when refinement is on, else GUMKL's.
    pub labels: Vec<usize>,
    /// GUMKL's own partition (k-medoids at the last iteration).
    pub medoid_labels: Vec<usize>,
    /// Medoid indices `l_k` of GUMKL's partition.
    pub medoids: Vec<usize>,
    /// Final weights `w_v` (on the simplex; uniform for p = ∞).
    pub weights: Vec<f64>,
    /// Per-view within-cluster variances `E_v` of GUMKL's final partition (eq. 6).
    pub view_objectives: Vec<f64>,
    /// `Ẽ(t)`, eq. (6) after the cluster update of each iteration (the quantity of line 9).
    pub objective_trace: Vec<f64>,
    /// eq. (6) after the weight update of each iteration (≤ the entry of `objective_trace`).
    pub updated_objective_trace: Vec<f64>,
    /// `w(0)` (uniform) followed by the weights after each update.
    pub weights_trace: Vec<Vec<f64>>,
    /// Outer iterations run.
    pub n_iter: usize,
    /// Whether the relative objective change fell below ε (always true for p = ∞).
    pub converged: bool,
    /// The kernel k-means refinement, when requested.
    pub refinement: Option<Refinement>,
}

impl GumklFit {
    /// The final objective `Ẽ(t)` (eq. 6, last iteration).
    pub fn objective(&self) -> f64 {
        self.objective_trace.last().copied().unwrap_or(f64::NAN)
    }
}

impl GumklChecked {
    /// Run Algorithm 1 on the base kernels `K_v` (each n x n, symmetric, finite).
    pub fn fit(&self, kernels: &[MatRef<'_, f64>]) -> Result<GumklFit> {
        let n = validate::kernels("GUMKL kernels", kernels)?;
        validate::n_clusters(self.n_clusters, n, 1)?;
        let (m, p) = (self.n_clusters, self.p);
        let n_views = kernels.len();

        let mut w = vec![1.0 / n_views as f64; n_views]; // line 2
        let mut comp = Composite::new(n, n_views);
        let mut weights_trace = vec![w.clone()];
        let mut objective_trace = Vec::new();
        let mut updated_objective_trace = Vec::new();
        let mut converged = false;
        let mut step = None;
        let mut e_v = Vec::new();

        for _ in 0..self.max_iter {
            comp.update(kernels, &w, p)?; // line 5
            let s = inner::greedy_then_kmedoids(comp.kernel(), m, self.inner_max_iter)?; // lines 6–7
            e_v = composite::medoid_view_objectives(kernels, &s.labels, &s.medoids)?;
            let obj = weights::weighted_objective(&w, &e_v, p);
            step = Some(s);
            if p == f64::INFINITY {
                // Baseline (ii): one iteration, no weight update.
                objective_trace.push(obj);
                converged = true;
                break;
            }
            weights::optimal_weights(&e_v, p, &mut w)?; // line 8
            updated_objective_trace.push(weights::weighted_objective(&w, &e_v, p));
            weights_trace.push(w.clone());
            let prev = objective_trace.last().copied();
            objective_trace.push(obj);
            if let Some(prev) = prev {
                if (obj - prev).abs() <= self.tol * prev.abs() {
                    converged = true; // line 9
                    break;
                }
            }
        }
        let step = step.ok_or_else(|| Error::param("max_iter", 0, "must be at least 1"))?;

        let refinement = if self.refine {
            comp.update(kernels, &w, p)?;
            let r = inner::kernel_kmeans_from(
                comp.kernel(),
                &step.labels,
                m,
                self.inner_max_iter,
                0.0,
            )?;
            let d_v = composite::mean_view_objectives(kernels, &r.labels, m)?;
            Some(Refinement {
                objective: weights::weighted_objective(&w, &d_v, p),
                labels: r.labels,
                n_iter: r.n_iter,
            })
        } else {
            None
        };

        Ok(GumklFit {
            labels: refinement
                .as_ref()
                .map_or_else(|| step.labels.clone(), |r| r.labels.clone()),
            medoid_labels: step.labels,
            medoids: step.medoids,
            weights: w,
            view_objectives: e_v,
            n_iter: objective_trace.len(),
            objective_trace,
            updated_objective_trace,
            weights_trace,
            converged,
            refinement,
        })
    }
}

impl<'a> Fit<[MatRef<'a, f64>]> for GumklChecked {
    type Output = GumklFit;
    fn fit(&self, kernels: &[MatRef<'a, f64>]) -> Result<GumklFit> {
        GumklChecked::fit(self, kernels)
    }
}
