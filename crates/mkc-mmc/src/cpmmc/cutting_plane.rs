//! The cutting-plane loop of CPMMC (Zhao, Wang & Zhang 2008, Algorithm 1) with the
//! constrained concave–convex procedure (CCCP) solving each working-set problem.
//!
//! The working-set problem (eq. 9 restricted to Ω) is
//! `min ½‖w‖² + Cξ  s.t. (1/n) Σᵢ c_ij |wᵀxᵢ + b| ≥ c̄_j − ξ  (c_j ∈ Ω), ξ ≥ 0, balance`.
//! CCCP replaces `|fᵢ|` by `sᵢfᵢ` with `sᵢ = sign` of the current decision value (a
//! lower bound, tight at the current point), solves that convex step (`dual` module)
//! and repeats: the objective `P = ½‖w‖² + C ξ(w, b)` of the working-set problem, ξ
//! computed with `|f|`, never increases (the current point is feasible for the next
//! step, and the step's solution is feasible for the working-set problem). CCCP stops when
//! P decreases by less than `cccp_tol · P`. Then the most violated constraint of the full
//! problem is `cᵢ = 1 ⇔ |fᵢ| < 1` (eq. 14), violated by
//! `v = (1/n) Σᵢ cᵢ (1 − |fᵢ|)`; the loop stops when `v ≤ ξ + ε` (the paper's rule) or
//! the cut is already in Ω, and otherwise adds it.

use super::cuts::CutSet;
use super::dual::{solve_step, StepData};
use super::fit::CpmmcDiagnostics;
use super::gram::Gram;
use super::params::{Cpmmc, CpmmcInit};
use super::qp::dot;
use mkc_core::{Error, Result, Timings};
use rand::Rng;

/// Why the cutting-plane loop stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CpmmcStop {
    /// The most violated constraint exceeds ξ by at most ε (the paper's rule).
    Converged,
    /// The most violated constraint is already in the working set (CCCP's local
    /// solution cannot improve on it).
    RepeatedConstraint,
    /// The round cap `max_iter` was reached.
    MaxIter,
}

/// The `stop_reason` diagnostic: [`CpmmcStop::code`].
impl mkc_core::DiagnosticValue for CpmmcStop {
    fn value(&self) -> f64 {
        f64::from(self.code())
    }
}

impl CpmmcStop {
    /// Numeric code for run records: 0 converged, 1 repeated constraint, 2 round cap.
    pub fn code(self) -> u8 {
        match self {
            CpmmcStop::Converged => 0,
            CpmmcStop::RepeatedConstraint => 1,
            CpmmcStop::MaxIter => 2,
        }
    }
}

/// The end state of the loop: P after every round (the working-set objective) and the
/// diagnostics (`linear_path` is set by the caller).
pub(crate) struct LoopResult {
    pub round_objective: Vec<f64>,
    pub diag: CpmmcDiagnostics,
}

/// The loop's counts and traces while it runs.
#[derive(Default)]
struct Progress {
    cccp_objective: Vec<f64>,
    round_starts: Vec<usize>,
    qp_iterations: usize,
}

/// `ξ = max(0, max_j (c̄_j − (1/n) Σᵢ c_ij |fᵢ|))` of the working-set problem.
pub(crate) fn working_set_slack(cuts: &[Vec<bool>], f: &[f64]) -> f64 {
    let n = f.len() as f64;
    cuts.iter()
        .map(|c| {
            c.iter()
                .zip(f)
                .filter(|(on, _)| **on)
                .map(|(_, fi)| 1.0 - fi.abs())
                .sum::<f64>()
                / n
        })
        .fold(0.0, f64::max)
}

/// The most violated constraint of eq. (14), `cᵢ = 1 ⇔ |fᵢ| < 1`, and its violation
/// `(1/n) Σᵢ cᵢ (1 − |fᵢ|)`.
pub(crate) fn most_violated(f: &[f64]) -> (Vec<bool>, f64) {
    let c: Vec<bool> = f.iter().map(|v| v.abs() < 1.0).collect();
    let v = f
        .iter()
        .filter(|v| v.abs() < 1.0)
        .map(|v| 1.0 - v.abs())
        .sum::<f64>()
        / f.len() as f64;
    (c, v)
}

/// The current hyperplane: its decision values, centred bias and `‖w‖²`.
struct Point {
    bias: f64,
    f: Vec<f64>,
    w_norm2: f64,
}

impl Cpmmc {
    /// The starting hyperplane ([`CpmmcInit`]), scaled so that `max |fᵢ| = ½` (every
    /// point inside the margin, so the first cut is all of them, as with the authors'
    /// small `w₀`).
    fn start(&self, gram: &dyn Gram, seed: u64) -> Result<Point> {
        let n = gram.n();
        let mut rng = mkc_core::seed::rng(seed);
        let mut beta: Vec<f64> = (0..n).map(|_| rng.random_range(-1.0..=1.0)).collect();
        let mut f = gram.apply(&beta);
        if self.params().init == CpmmcInit::Pca {
            // Power iteration on G: converges to the top principal direction.
            for _ in 0..200 {
                let norm = dot(&f, &f).sqrt();
                if norm == 0.0 {
                    break;
                }
                let next: Vec<f64> = f.iter().map(|v| v / norm).collect();
                let fn_ = gram.apply(&next);
                let change = fn_
                    .iter()
                    .zip(&f)
                    .map(|(a, b)| (a - b).abs())
                    .fold(0.0, f64::max);
                beta = next;
                f = fn_;
                if change <= 1e-9 * norm {
                    break;
                }
            }
        }
        let top = f.iter().fold(0.0, |m: f64, v| m.max(v.abs()));
        if top.is_nan() || top == 0.0 {
            return Err(Error::input(
                "CPMMC",
                "the centred samples are all zero (every sample is the same point)",
            ));
        }
        let t = 0.5 / top;
        beta.iter_mut().for_each(|b| *b *= t);
        f.iter_mut().for_each(|v| *v *= t);
        let w_norm2 = dot(&beta, &f).max(0.0);
        Ok(Point {
            bias: 0.0,
            f,
            w_norm2,
        })
    }

    /// Algorithm 1 on the Gram operator `gram`.
    pub(crate) fn cutting_plane(
        &self,
        gram: &dyn Gram,
        seed: u64,
        timings: &mut Timings,
    ) -> Result<LoopResult> {
        let p = self.params();
        let mut pt = timings.time("init", || self.start(gram, seed))?;
        let (first, mut violation) = most_violated(&pt.f);
        let mut cuts = CutSet::new(gram, first, signs(&pt.f));
        let mut progress = Progress::default();
        let mut round_objective = Vec::new();
        let mut stop = CpmmcStop::MaxIter;
        for _ in 0..p.max_iter {
            progress.round_starts.push(progress.cccp_objective.len());
            let obj = self.cccp(gram, &mut cuts, &mut pt, &mut progress, timings)?;
            round_objective.push(obj);
            let (c, v) = timings.time("violated", || most_violated(&pt.f));
            violation = v;
            let xi = working_set_slack(&cuts.cuts, &pt.f);
            if v <= xi + p.epsilon {
                stop = CpmmcStop::Converged;
                break;
            }
            if cuts.cuts.contains(&c) {
                stop = CpmmcStop::RepeatedConstraint;
                break;
            }
            timings.time("gram", || cuts.push(gram, c));
        }
        let diag = CpmmcDiagnostics {
            cuts: cuts.cuts.len(),
            cccp_steps: progress.cccp_objective.len() - round_objective.len(),
            qp_iterations: progress.qp_iterations,
            cccp_objective: progress.cccp_objective,
            round_starts: progress.round_starts,
            xi: working_set_slack(&cuts.cuts, &pt.f),
            violation,
            w_norm: pt.w_norm2.sqrt(),
            centred_bias: pt.bias,
            stop,
            linear_path: false,
            decision: pt.f,
        };
        Ok(LoopResult {
            round_objective,
            diag,
        })
    }

    /// CCCP on the working set from `pt` (updated in place); pushes P of the start and
    /// of every step to `out.cccp_objective` and returns the final P.
    fn cccp(
        &self,
        gram: &dyn Gram,
        cuts: &mut CutSet,
        pt: &mut Point,
        out: &mut Progress,
        timings: &mut Timings,
    ) -> Result<f64> {
        let p = self.params();
        let objective = |pt: &Point, cuts: &CutSet| {
            0.5 * pt.w_norm2 + p.c * working_set_slack(&cuts.cuts, &pt.f)
        };
        let mut prev = objective(pt, cuts);
        out.cccp_objective.push(prev);
        for _ in 0..p.cccp_max_iter {
            let data = timings.time("gram", || {
                cuts.set_signs(gram, &signs(&pt.f));
                StepData::new(gram, cuts)
            });
            let step = timings.time("qp", || solve_step(&data, p.c, p.balance))?;
            out.qp_iterations += step.qp.iterations;
            let e_lambda = cuts.combine(&step.lambda);
            let f = timings.time("gram", || gram.decision(&e_lambda));
            *pt = Point {
                f: f.iter().map(|v| v + step.bias).collect(),
                bias: step.bias,
                w_norm2: step.w_norm2,
            };
            let now = objective(pt, cuts);
            out.cccp_objective.push(now);
            let (decrease, now_prev) = (prev - now, prev);
            prev = now;
            if decrease <= p.cccp_tol * now_prev {
                break;
            }
        }
        Ok(prev)
    }
}

/// CCCP's signs of the decision values (0 counts as +1).
pub(crate) fn signs(f: &[f64]) -> Vec<f64> {
    f.iter()
        .map(|v| if *v >= 0.0 { 1.0 } else { -1.0 })
        .collect()
}
