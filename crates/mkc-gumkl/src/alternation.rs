//! The alternation MVKKM and MVSpec share (Tzortzis & Likas, "Kernel-based weighted
//! multi-view clustering", ICDM 2012: the kernel k-means and the spectral form of one
//! method; MVSpec is in `mkc-spectral`).
//!
//! From the given (uniform) weights, every iteration
//! 1. forms the composite kernel `Σ_v w_v^p K_v` (phase "composite");
//! 2. updates the partition on it — kernel k-means for MVKKM, the top eigenvectors for
//!    MVSpec — and takes the per-view objectives `D_v` of the new partition (the caller's
//!    step, which times its own phases);
//! 3. records the objective `J = Σ_v w_v^p D_v` and stops when `|J − J_old| ≤ tol · |J_old|`
//!    ([`settled`], the authors' `|1 − J/J_old| < tol`), or at once for p = ∞ (the uniform
//!    sum has no weights to learn);
//! 4. otherwise updates the weights in closed form for the fixed partition
//!    ([`weights::optimal_weights`], GUMKL's eqs. (7)/(8)) and sets those below
//!    `weight_floor` to 0 ([`weights::prune_small`]) (phase "weights").
//!
//! When the iteration cap stops the loop right after a weight update, that update is
//! unused: the weights returned are those behind the last partition
//! ([`weights::weights_in_use`]).

use faer::MatRef;
use mkc_core::{Error, Result, Timings};

use crate::composite::Composite;
use crate::weights;

/// The settings of the alternation.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Settings {
    /// The exponent p ≥ 1 of `Σ_v w_v^p K_v` (`+∞`: the uniform sum, one iteration).
    pub p: f64,
    /// Relative objective change that stops the loop (≥ 0).
    pub tol: f64,
    /// Cap on the iterations (≥ 1).
    pub max_iter: usize,
    /// Weights below this are set to 0 and the rest renormalised (0 disables).
    pub weight_floor: f64,
}

/// What the alternation ends with.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Alternation {
    /// The weights of the composite kernel behind the last partition (on the simplex).
    pub weights: Vec<f64>,
    /// The starting weights followed by the weights after every update that was used.
    pub weights_trace: Vec<Vec<f64>>,
    /// `J` after every partition step (one entry per iteration).
    pub objective: Vec<f64>,
    /// `D_v` of the last partition.
    pub view_objectives: Vec<f64>,
    /// Whether the relative change of `J` fell below the tolerance (always for p = ∞).
    pub converged: bool,
}

/// Whether the loop stops at `obj` after `prev`: `|obj − prev| ≤ tol · |prev|` (never at
/// the first objective).
pub fn settled(tol: f64, prev: Option<f64>, obj: f64) -> bool {
    prev.is_some_and(|prev| (obj - prev).abs() <= tol * prev.abs())
}

/// Run the alternation (module docs) on `kernels` from the weights `w`, with `comp` as the
/// composite kernel's buffer. `partition(kernel, timings)` updates the caller's partition
/// on the composite kernel and returns its `D_v`, one per kernel.
///
/// # Errors
/// Those of the partition step, of the composite kernel and of the weight update (a
/// negative `D_v`).
pub fn alternate(
    kernels: &[MatRef<'_, f64>],
    comp: &mut Composite,
    s: &Settings,
    t: &mut Timings,
    mut w: Vec<f64>,
    mut partition: impl FnMut(MatRef<'_, f64>, &mut Timings) -> Result<Vec<f64>>,
) -> Result<Alternation> {
    let mut weights_trace = vec![w.clone()];
    let mut objective: Vec<f64> = Vec::new();
    let mut view_objectives = Vec::new();
    let mut converged = false;
    for _ in 0..s.max_iter {
        t.time("composite", || comp.update(kernels, &w, s.p))?;
        view_objectives = partition(comp.kernel(), t)?;
        let obj = weights::weighted_objective(&w, &view_objectives, s.p);
        let prev = objective.last().copied();
        objective.push(obj);
        if s.p == f64::INFINITY || settled(s.tol, prev, obj) {
            converged = true;
            break;
        }
        t.time("weights", || {
            weights::optimal_weights(&view_objectives, s.p, &mut w)?;
            weights::prune_small(&mut w, s.weight_floor);
            Ok::<(), Error>(())
        })?;
        weights_trace.push(w.clone());
    }
    let weights = weights::weights_in_use(&mut weights_trace, objective.len(), w);
    Ok(Alternation {
        weights,
        weights_trace,
        objective,
        view_objectives,
        converged,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A partition step whose `D_v` do not depend on the kernel: the weights reach their
    /// closed form after one update and the objective then repeats, so the loop settles at
    /// the third objective; with a cap of 2 the unused second update is dropped.
    #[test]
    fn settles_and_drops_an_unused_update() {
        let k = faer::Mat::<f64>::identity(3, 3);
        let kernels = [k.as_ref(), k.as_ref()];
        let d = vec![1.0, 4.0];
        let s = Settings {
            p: 2.0,
            tol: 1e-12,
            max_iter: 10,
            weight_floor: 0.0,
        };
        let run = |s: &Settings| {
            let mut comp = Composite::new(3, 2);
            let mut t = Timings::default();
            alternate(&kernels, &mut comp, s, &mut t, vec![0.5; 2], |_, _| {
                Ok(d.clone())
            })
            .unwrap()
        };
        let a = run(&s);
        let mut best = vec![0.0; 2];
        weights::optimal_weights(&d, 2.0, &mut best).unwrap();
        assert!(a.converged);
        assert_eq!(a.objective.len(), 3);
        assert_eq!(a.weights, best);
        assert_eq!(a.weights_trace, [vec![0.5; 2], best.clone(), best.clone()]);
        let capped = run(&Settings { max_iter: 1, ..s });
        assert!(!capped.converged);
        assert_eq!(capped.weights, [0.5; 2]);
        assert_eq!(capped.weights_trace, [vec![0.5; 2]]);
        let uniform = run(&Settings {
            p: f64::INFINITY,
            ..s
        });
        assert!(uniform.converged && uniform.objective.len() == 1);
    }
}
