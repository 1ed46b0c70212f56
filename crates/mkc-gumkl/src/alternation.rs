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
use mkc_core::{mkc_ensure, Error, Result, Timings};

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

impl Settings {
    /// Check the settings: `p ≥ 1` (or `+∞`), `tol ≥ 0`, `max_iter ≥ 1`, `weight_floor` in
    /// `[0, 1)`; the error names the setting.
    pub fn check(&self) -> Result<()> {
        crate::params::check_p(self.p)?;
        mkc_core::validate::non_negative("tol", self.tol)?;
        mkc_ensure!(self.max_iter >= 1, param "max_iter", self.max_iter, "must be at least 1");
        mkc_ensure!(
            self.weight_floor.is_finite() && (0.0..1.0).contains(&self.weight_floor),
            param "weight_floor", self.weight_floor, "must be in [0, 1)"
        );
        Ok(())
    }
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
/// Settings out of range ([`Settings::check`]), no kernels, or `w` not one weight per
/// kernel; then those of the partition step, of the composite kernel and of the weight
/// update (a negative `D_v`).
pub fn alternate(
    kernels: &[MatRef<'_, f64>],
    comp: &mut Composite,
    s: &Settings,
    t: &mut Timings,
    mut w: Vec<f64>,
    mut partition: impl FnMut(MatRef<'_, f64>, &mut Timings) -> Result<Vec<f64>>,
) -> Result<Alternation> {
    s.check()?;
    mkc_ensure!(!kernels.is_empty(), input "kernels", "the alternation needs at least one kernel");
    mkc_core::validate::len("weights", w.len(), kernels.len())?;
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

    /// Settings out of range, no kernels or a weight vector of the wrong length: a typed
    /// error naming what is wrong, before any partition step runs.
    #[test]
    fn bad_input_is_a_typed_error() {
        let k = faer::Mat::<f64>::identity(3, 3);
        let good = Settings {
            p: 2.0,
            tol: 1e-4,
            max_iter: 5,
            weight_floor: 0.0,
        };
        let run = |kernels: &[MatRef<'_, f64>], s: &Settings, w: Vec<f64>| {
            let mut comp = Composite::new(3, kernels.len().max(1));
            let mut t = Timings::default();
            alternate(kernels, &mut comp, s, &mut t, w, |_, _| {
                panic!("the partition step must not run on bad input")
            })
            .unwrap_err()
        };
        let two = [k.as_ref(), k.as_ref()];
        let cases = [
            (Settings { p: 0.5, ..good }, "p"),
            (
                Settings {
                    p: f64::NAN,
                    ..good
                },
                "p",
            ),
            (Settings { tol: -1.0, ..good }, "tol"),
            (
                Settings {
                    max_iter: 0,
                    ..good
                },
                "max_iter",
            ),
            (
                Settings {
                    weight_floor: 1.0,
                    ..good
                },
                "weight_floor",
            ),
        ];
        for (s, name) in cases {
            let e = run(&two, &s, vec![0.5; 2]);
            assert!(
                matches!(&e, Error::InvalidParam { name: n, .. } if n == name),
                "{name}: {e:?}"
            );
            assert!(e.to_string().contains(name), "{name}: {e}");
        }
        assert!(run(&two, &good, vec![1.0; 3])
            .to_string()
            .contains("weights"));
        assert!(run(&[], &good, vec![]).to_string().contains("kernels"));
    }
}
