//! One update of γ (Algorithm 1, lines 5–6): descent direction of eq. (9) from the
//! unit-normalised gradient, step to the simplex boundary (capped), line search.
//!
//! With [`LineSearch::GoldenSection`] this is SimpleMKL's `mklsvmupdate` as the authors
//! use it: while `J` at the (capped) boundary point is lower than at the current base
//! point, move the base there, set weights below machine precision to 0, renormalise,
//! restrict the direction (coordinates at 0 that would decrease are frozen, `d_u`
//! re-balanced) and recompute the boundary step; then golden section on `[0, step]`.
//! The new γ is accepted only when J decreased. (SimpleMKL's code, when no trial
//! decreases J, returns the last boundary trial point; here γ stays unchanged.) The cap
//! (0.1 in the authors' code) is applied to every boundary step, also inside the walk.
//!
//! Every trial eigensolve is warm-started from the H of the nearest step already
//! evaluated (step 0 is the current γ). With the subspace solver
//! ([`Solver::Subspace`](crate::Solver)) trial values are Rayleigh–Ritz values (lower
//! bounds of J) and only the accepted point is solved exactly; its exact J decides
//! whether the step is taken ([`Update::retry`] tells the caller when it was not
//! although the trials promised a decrease).

use faer::MatRef;
use mkc_core::Result;

use crate::gradient;
use crate::line_search::{LineSearchResult, Termination};
use crate::objective::Evaluation;
use crate::oracle::Oracle;
use crate::params::LineSearch;
use crate::reduced_gradient::{
    descent_direction, max_step, restrict_direction, step_on_simplex, unit_normalised, Direction,
};

/// Whether Algorithm 1 descends on J (SimpleMKKM, eq. (5)) or ascends on it (KAMM-R,
/// the paper's max-max ablation of Table 3): the update minimises `sign · J`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Sense {
    /// Minimise J (SimpleMKKM).
    #[default]
    Minimise,
    /// Maximise J (KAMM-R).
    Maximise,
}

impl Sense {
    /// +1 when minimising, −1 when maximising.
    pub fn sign(self) -> f64 {
        match self {
            Sense::Minimise => 1.0,
            Sense::Maximise => -1.0,
        }
    }

    /// The gradient of the minimised function `sign · J` from the gradient of J.
    pub fn oriented(self, g: &[f64]) -> Vec<f64> {
        g.iter().map(|v| self.sign() * v).collect()
    }
}

/// The current iterate: weights, J with its maximiser, gradient (Theorem 1).
pub(crate) struct Iterate {
    pub gamma: Vec<f64>,
    pub eval: Evaluation,
    pub grad: Vec<f64>,
}

/// What one update did.
pub(crate) struct Update {
    /// The new weights and their evaluation, or `None` when J could not be decreased.
    pub next: Option<(Vec<f64>, Evaluation)>,
    /// J evaluations (eigensolves) spent.
    pub evaluations: usize,
    /// How the line search stopped.
    pub termination: Termination,
    /// The trials (approximate values) promised a decrease that the exact J at the
    /// chosen step did not confirm: γ unchanged, try again.
    pub retry: bool,
}

/// Trial points of one line search along `base + s·d`, with their evaluations.
struct Trials<'o, 'a> {
    obj: &'o mut Oracle<'a>,
    base: Vec<f64>,
    d: Vec<f64>,
    /// Exact evaluations by step.
    done: Vec<(f64, Evaluation)>,
    evaluations: usize,
    /// [`Sense::sign`]: trial values are `sign · J`.
    sign: f64,
}

impl Trials<'_, '_> {
    fn nearest(&self, s: f64) -> Option<MatRef<'_, f64>> {
        self.done
            .iter()
            .min_by(|a, b| (a.0 - s).abs().total_cmp(&(b.0 - s).abs()))
            .map(|(_, e)| e.h.as_ref())
    }

    fn eval(&mut self, s: f64) -> Result<f64> {
        let g = step_on_simplex(&self.base, &self.d, s);
        // Borrow split: compute the warm start before the mutable call.
        let start = self.nearest(s).map(|h| h.to_owned());
        let (v, e) = self.obj.trial(&g, start.as_ref().map(|h| h.as_ref()))?;
        self.evaluations += 1;
        if let Some(e) = e {
            self.done.push((s, e));
        }
        Ok(self.sign * v)
    }

    /// The exact evaluation at step `s` (made now when the trial was approximate).
    fn exact(&mut self, s: f64) -> Result<Evaluation> {
        if let Some(i) = self.done.iter().position(|(t, _)| *t == s) {
            return Ok(self.done.swap_remove(i).1);
        }
        let g = step_on_simplex(&self.base, &self.d, s);
        let start = self.nearest(s).map(|h| h.to_owned());
        self.obj.accept(&g, start.as_ref().map(|h| h.as_ref()))
    }
}

/// One γ update from `it` (see the module docs), decreasing `sense.sign() · J`.
pub(crate) fn update(
    obj: &mut Oracle<'_>,
    it: &Iterate,
    ls: &LineSearch,
    cap: Option<f64>,
    sense: Sense,
) -> Result<Update> {
    let no_move = |evaluations, termination| Update {
        next: None,
        evaluations,
        termination,
        retry: false,
    };
    let cap_of = |s: f64| cap.map_or(s, |c| s.min(c));
    let grad = sense.oriented(&it.grad);
    let gh = unit_normalised(&grad);
    let mut dir: Direction = descent_direction(&it.gamma, &gh);
    let Some(scale) = max_step(&it.gamma, &dir.d).filter(|&s| s > 0.0) else {
        return Ok(no_move(0, Termination::NoDescent));
    };
    let mut trials = Trials {
        obj,
        base: it.gamma.clone(),
        d: dir.d.clone(),
        done: vec![(0.0, it.eval.clone())],
        evaluations: 0,
        sign: sense.sign(),
    };
    let value0 = sense.sign() * it.eval.value;
    let approximate = trials.obj.approximate_trials();

    let result: LineSearchResult = match ls {
        LineSearch::Armijo(a) => {
            let slope = gradient::slope(&grad, &dir.d);
            a.search(|s| trials.eval(s), value0, slope, cap_of(scale))?
        }
        LineSearch::GoldenSection(gs) => {
            let (mut scale, mut smax) = (scale, cap_of(scale));
            let mut base_value = value0;
            let hi_value;
            loop {
                let v = trials.eval(smax)?;
                if v < base_value {
                    // Move the base point to the boundary trial and continue from there
                    // (with its exact evaluation: the warm start of the next trials).
                    // Approximate trials need no evaluation there (no warm start).
                    let new_base = step_on_simplex(&trials.base, &trials.d, smax);
                    let done = if approximate {
                        Vec::new()
                    } else {
                        vec![(0.0, trials.exact(smax)?)]
                    };
                    base_value = v;
                    restrict_direction(&new_base, &mut dir);
                    trials.base = new_base;
                    trials.d = dir.d.clone();
                    trials.done = done;
                    match max_step(&trials.base, &trials.d).filter(|&s| s > 0.0) {
                        Some(s) => {
                            scale = s;
                            smax = cap_of(s);
                        }
                        None => {
                            smax = 0.0;
                            hi_value = base_value;
                            break;
                        }
                    }
                } else {
                    hi_value = v;
                    break;
                }
            }
            gs.minimise(
                |s| trials.eval(s),
                (0.0, base_value),
                (smax, hi_value),
                scale,
            )?
        }
    };

    let evaluations = trials.evaluations;
    if result.value < value0 {
        let gamma = step_on_simplex(&trials.base, &trials.d, result.step);
        let eval = trials.exact(result.step)?;
        if sense.sign() * eval.value < value0 {
            return Ok(Update {
                next: Some((gamma, eval)),
                evaluations,
                termination: result.termination,
                retry: false,
            });
        }
        // Only approximate trial values can promise a decrease that is not there.
        Ok(Update {
            retry: approximate,
            ..no_move(evaluations, result.termination)
        })
    } else {
        Ok(no_move(evaluations, result.termination))
    }
}
