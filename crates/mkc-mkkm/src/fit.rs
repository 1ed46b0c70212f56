//! The one result type of the family ([`KernelFit`]) and its diagnostics
//! ([`FamilyDiagnostics`]): what every method (and SimpleMKKM, Avg-KKM and KAMM in
//! `mkc-simplemkkm`) computes before the seeded k-means — kernel weights, the relaxed
//! partition matrix H, the objective trace, the iterations, the shared counts and
//! times — with the method's own quantities in two typed places (`extra` on the fit,
//! `method` in the diagnostics). Each method names its instance (`MkkmFit`,
//! `OnkcFit`, …), so the docs of those aliases say what the weights and the objective
//! are for that method.

use std::time::{Duration, Instant};

use faer::Mat;
use mkc_core::{Clustering, Diagnostics, KernelWeights, WeightConstraint};

use crate::objective::EvalStats;
use crate::preprocess::Prepared;
use crate::restarts::{shared_timings, Relaxed};

/// The deterministic part of a family method's fit (`fit_kernels`), before the seeded
/// k-means. `X` is the method's own part of the diagnostics, `E` whatever else the
/// method computed (its regulariser, the optimal kernel G, the gating weights, …).
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct KernelFit<X = (), E = ()> {
    /// The kernel weights (γ, θ or β of the method's docs), on the method's constraint.
    pub gamma: Vec<f64>,
    /// The relaxed partition matrix H (n x k, orthonormal columns) the labels come from.
    pub h: Mat<f64>,
    /// The method's objective at every iteration (at least one value).
    pub objective_trace: Vec<f64>,
    /// Iterations made.
    pub iterations: usize,
    /// Counts, times and traces of the run.
    pub diagnostics: FamilyDiagnostics<X>,
    /// What else the method computed (see the method's `…Fit` alias).
    pub extra: E,
}

/// Diagnostics of a family method (`Clustering::diagnostics`): the counts and times
/// every method reports, the weights after every update, and the method's own part.
/// [`Diagnostics::entries`] is [`MethodDiagnostics::entries`] (default: `converged`
/// as 0 or 1, as the experiments' run records hold it).
#[derive(Clone, Debug, Default, PartialEq)]
#[non_exhaustive]
pub struct FamilyDiagnostics<X = ()> {
    /// Whether the method's stopping rule held before its iteration cap (also
    /// `Clustering::converged`).
    pub converged: bool,
    /// Number of top-k eigensolves.
    pub eigensolves: usize,
    /// Total time of the eigensolves.
    pub eigen_time: Duration,
    /// Wall time of the optimisation (preprocessing excluded).
    pub optimisation_time: Duration,
    /// Wall time of preprocessing.
    pub preprocessing_time: Duration,
    /// The weights at the start and after every update.
    pub weight_trace: Vec<Vec<f64>>,
    /// The method's own counts and traces.
    pub method: X,
}

/// The method's own part of [`FamilyDiagnostics`]: what it lists as run-record
/// entries and the name of its optimisation phase in the timings.
pub trait MethodDiagnostics:
    std::fmt::Debug + Clone + Default + PartialEq + Send + Sync + 'static
{
    /// The name of the optimisation phase in `Clustering::timings`.
    const PHASE: &'static str = "weights";

    /// The entries of the whole diagnostics. Default: `converged` alone.
    fn entries(all: &FamilyDiagnostics<Self>) -> Vec<(String, f64)> {
        vec![converged_entry(all.converged)]
    }
}

impl MethodDiagnostics for () {}

/// The `("converged", 0 or 1)` entry.
pub fn converged_entry(converged: bool) -> (String, f64) {
    ("converged".into(), f64::from(u8::from(converged)))
}

impl<X: MethodDiagnostics> Diagnostics for FamilyDiagnostics<X> {
    fn entries(&self) -> Vec<(String, f64)> {
        X::entries(self)
    }
}

impl<X: MethodDiagnostics> FamilyDiagnostics<X> {
    /// Record the eigensolves of an [`Objective`](crate::Objective) and their time.
    pub fn count(&mut self, stats: &EvalStats) {
        self.eigensolves = stats.eigensolves;
        self.eigen_time = stats.eigen_time;
    }

    /// Stamp the optimisation time (since `t0`) and the preprocessing time.
    pub fn timed(&mut self, t0: Instant, prepared: &Prepared<'_>) {
        self.optimisation_time = t0.elapsed();
        self.preprocessing_time = prepared.time;
    }
}

impl<X: MethodDiagnostics, E> KernelFit<X, E> {
    /// A fit from its parts (for methods outside this crate).
    pub fn new(
        gamma: Vec<f64>,
        h: Mat<f64>,
        objective_trace: Vec<f64>,
        iterations: usize,
        diagnostics: FamilyDiagnostics<X>,
        extra: E,
    ) -> Self {
        Self {
            gamma,
            h,
            objective_trace,
            iterations,
            diagnostics,
            extra,
        }
    }

    /// A fit with one iteration per value of `objective_trace`.
    pub fn per_value(
        gamma: Vec<f64>,
        h: Mat<f64>,
        objective_trace: Vec<f64>,
        diagnostics: FamilyDiagnostics<X>,
        extra: E,
    ) -> Self {
        let iterations = objective_trace.len();
        Self::new(gamma, h, objective_trace, iterations, diagnostics, extra)
    }

    /// The largest rise of the objective between two consecutive iterations, relative to
    /// the earlier value: `max_t (obj_t − obj_{t−1}) / |obj_{t−1}|`; at most 0 when the
    /// trace never increases (−∞ for a single value): how far from monotone the trace of
    /// a method that minimises is.
    pub fn largest_rise(&self) -> f64 {
        self.objective_trace
            .windows(2)
            .map(|w| (w[1] - w[0]) / w[0].abs())
            .fold(f64::NEG_INFINITY, f64::max)
    }

    /// The last value of the objective trace.
    pub fn objective(&self) -> f64 {
        self.objective_trace.last().copied().unwrap_or(f64::NAN)
    }

    /// The same fit with the method's own diagnostics and extra results.
    pub fn with<Y, F>(self, method: Y, extra: F) -> KernelFit<Y, F> {
        let d = self.diagnostics;
        KernelFit {
            gamma: self.gamma,
            h: self.h,
            objective_trace: self.objective_trace,
            iterations: self.iterations,
            diagnostics: FamilyDiagnostics {
                converged: d.converged,
                eigensolves: d.eigensolves,
                eigen_time: d.eigen_time,
                optimisation_time: d.optimisation_time,
                preprocessing_time: d.preprocessing_time,
                weight_trace: d.weight_trace,
                method,
            },
            extra,
        }
    }

    /// The result without labels (for [`crate::restarts::seeded`]): the weights on
    /// `constraint`, timings `"preprocess"` and the method's phase.
    pub fn relaxed(self, constraint: WeightConstraint) -> Relaxed<FamilyDiagnostics<X>> {
        let d = self.diagnostics;
        let timings = shared_timings(d.preprocessing_time, X::PHASE, d.optimisation_time);
        let converged = d.converged;
        Relaxed {
            h: self.h,
            fit: Clustering::new(Vec::new(), 0, d)
                .with_weights(KernelWeights::new(self.gamma, constraint))
                .with_objective(self.objective_trace)
                .with_iterations(self.iterations, converged)
                .with_timings(timings),
        }
    }
}

/// Where the relative change of a stopping rule is measured from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RelativeTo {
    /// `|obj_{t−1} − obj_t| / |obj_{t−1}|` (the authors of MKKM-MiR, LKAM, ONKC, LF-MVC).
    Previous,
    /// `|obj_{t−1} − obj_t| / |obj_t|` (MKKM's baseline code, KAMM-A).
    Current,
}

/// The stopping rule of the family: the relative change of the objective below `tol`,
/// asked once the trace holds at least `from` values (2: from the second iteration on;
/// 3: "after the third iteration", as the authors of MKKM-MiR, LKAM, ONKC and LF-MVC).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StopRule {
    /// The tolerance on the relative change.
    pub tol: f64,
    /// The fewest values of the trace before the rule is asked.
    pub from: usize,
    /// What the change is relative to.
    pub relative_to: RelativeTo,
}

impl StopRule {
    /// Relative to `obj_t`, from the second iteration on (MKKM's baseline code, KAMM-A).
    pub fn current(tol: f64) -> Self {
        Self {
            tol,
            from: 2,
            relative_to: RelativeTo::Current,
        }
    }

    /// Relative to `obj_{t−1}`, from the third iteration on (the authors of MKKM-MiR,
    /// LKAM, ONKC and LF-MVC).
    pub fn previous(tol: f64) -> Self {
        Self {
            tol,
            from: 3,
            relative_to: RelativeTo::Previous,
        }
    }

    /// Whether the rule holds on `trace`.
    pub fn holds(&self, trace: &[f64]) -> bool {
        let [.., prev, value] = trace else {
            return false;
        };
        let scale = match self.relative_to {
            RelativeTo::Previous => prev,
            RelativeTo::Current => value,
        };
        trace.len() >= self.from.max(2) && ((prev - value) / scale).abs() < self.tol
    }
}

/// The unit tests' check of a minimising method's fit.
#[cfg(test)]
impl<X: MethodDiagnostics, E> KernelFit<X, E> {
    /// The trace never rises (relative 1e-9), at least three iterations ran, and γ sums
    /// to 1; `what` names the case in the messages.
    pub(crate) fn assert_descends_on_simplex(&self, what: &str) {
        let tr = &self.objective_trace;
        assert!(self.largest_rise() <= 1e-9, "{what}: {tr:?}");
        assert!(self.iterations >= 3, "{what}: {tr:?}");
        assert!(
            (self.gamma.iter().sum::<f64>() - 1.0).abs() < 1e-12,
            "{what}"
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stop_rule_measures_the_relative_change() {
        let prev = StopRule::previous(0.1);
        // |10 − 9.5| / 10 = 0.05 < 0.1, but only two values yet.
        assert!(!prev.holds(&[10.0, 9.5]));
        assert!(prev.holds(&[11.0, 10.0, 9.5]));
        assert!(!prev.holds(&[11.0, 10.0, 8.0]));
        let cur = StopRule::current(0.1);
        // |1 − 0.95| / 0.95 ≈ 0.0526; |2 − 1.85| / 1.85 ≈ 0.081; |1 − 0.9| / 0.9 ≈ 0.111.
        assert!(cur.holds(&[1.0, 0.95]) && cur.holds(&[2.0, 1.85]));
        assert!(!cur.holds(&[1.0, 0.9]) && !cur.holds(&[1.0]));
        // A negative previous value: the magnitude of the ratio counts.
        assert!(prev.holds(&[0.0, -10.0, -9.5]));
        assert!(!prev.holds(&[f64::INFINITY, 1.0, f64::NAN]));
    }

    #[test]
    fn largest_rise_is_relative_to_the_earlier_value() {
        let fit = |trace: Vec<f64>| {
            KernelFit::<(), ()>::per_value(
                vec![1.0],
                Mat::zeros(1, 1),
                trace,
                Default::default(),
                (),
            )
        };
        assert_eq!(fit(vec![4.0, 2.0, 1.0]).largest_rise(), -0.5);
        // 2 → 2.5 rises by a quarter; −4 → −3 by a quarter of |−4|.
        assert_eq!(fit(vec![2.0, 2.5, 1.0]).largest_rise(), 0.25);
        assert_eq!(fit(vec![-4.0, -3.0]).largest_rise(), 0.25);
        assert_eq!(fit(vec![1.0]).largest_rise(), f64::NEG_INFINITY);
    }

    #[test]
    fn entries_default_to_converged() {
        let d = FamilyDiagnostics::<()> {
            converged: true,
            ..Default::default()
        };
        assert_eq!(d.entries(), vec![("converged".to_string(), 1.0)]);
    }
}
