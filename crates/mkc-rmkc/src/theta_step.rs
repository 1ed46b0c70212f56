//! The θ update of Algorithm 1 (lines 5–10): one projected gradient step on eq. (12)
//! with the step size chosen by the Armijo rule along the projection arc (Bertsekas):
//!
//! ```text
//! θ(η) = P(θ − η ∇J),   accept the first η = η₀ βᵐ (m = 0, 1, …) with
//! J(θ(η), y) ≤ J(θ, y) + σ ∇Jᵀ(θ(η) − θ)   and   J(θ(η), y) < J(θ, y),
//! ```
//!
//! η₀ = ‖θ‖₂/‖∇J‖₂ (the first trial moves θ by its own length before projection),
//! σ = 1e-4, β = 0.5, at most 20 trials (all configurable); if none is accepted θ is
//! kept. P is the projection of the chosen norm: p = 1 the Euclidean projection onto
//! the simplex, p = 2 onto the nonnegative part of the unit sphere (max(v, 0)
//! normalised), no norm: max(v, 0) (a trial with θ = 0 is rejected as infeasible).
//! Every trial costs one SVM solve (eq. 10) warm-started from the current α, on K̃ of
//! the trial θ as a [`KernelSum`]: its columns are formed as the solver reads them
//! (a few hundred of N on Satellite; forming and checking all of K̃ per trial was about
//! half of an RMKC run), with the numbers of the formed K̃, so the iterates are the
//! same (`mkc_svm::KernelSum`).

use crate::objective::{evaluate, Evaluation};
use crate::params::{Norm, Rmkc};
use crate::variance::Variance;
use faer::MatRef;
use mkc_core::Result;
use mkc_svm::{KernelStack, KernelSum};

/// Project `v` onto the feasible set of θ for `norm`; false if the result is infeasible
/// (all zero with no norm constraint).
pub fn project(norm: Norm, v: &mut [f64]) -> Result<bool> {
    match norm {
        Norm::L1 => mkc_qp::project_simplex(v, 1.0)?,
        Norm::L2 => mkc_qp::project_nonneg_unit_sphere(v)?,
        Norm::None => {
            v.iter_mut().for_each(|x| *x = x.max(0.0));
            if v.iter().all(|&x| x == 0.0) {
                return Ok(false);
            }
        }
    }
    Ok(true)
}

/// Outcome of one θ step.
#[derive(Clone, Debug)]
pub struct ThetaStep {
    /// The new θ (equal to the old one if no trial was accepted).
    pub theta: Vec<f64>,
    /// The evaluation of J at the new θ.
    pub eval: Evaluation,
    /// Whether a step was accepted.
    pub moved: bool,
    /// Number of trial steps (including those skipped as infeasible).
    pub trials: usize,
    /// SVM solves made (one per feasible trial).
    pub solves: usize,
}

/// One projected-gradient Armijo step from (θ, y). `k_tilde` holds K̃(θ) on entry and
/// K̃ of the returned θ on exit (the accepted trial's sum, with the columns its solve
/// formed, goes on to the label step); `stack` holds the basis kernels `kernels`.
pub fn theta_step<'a>(
    rmkc: &Rmkc,
    kernels: &[MatRef<'a, f64>],
    stack: &KernelStack<'a>,
    theta: &[f64],
    var: &Variance,
    ev: Evaluation,
    k_tilde: &mut KernelSum<'a>,
) -> Result<ThetaStep> {
    let g = crate::gradient::gradient(kernels, theta, var, &ev);
    let gnorm = g.iter().map(|x| x * x).sum::<f64>().sqrt();
    let tnorm = theta.iter().map(|x| x * x).sum::<f64>().sqrt();
    if !(gnorm > 0.0 && gnorm.is_finite()) {
        return Ok(ThetaStep {
            theta: theta.to_vec(),
            eval: ev,
            moved: false,
            trials: 0,
            solves: 0,
        });
    }
    let mut eta = tnorm / gnorm;
    let mut trial = vec![0.0; theta.len()];
    let mut solves = 0;
    for m in 0..rmkc.armijo_max_trials {
        for ((t, &th), &gv) in trial.iter_mut().zip(theta).zip(&g) {
            *t = th - eta * gv;
        }
        eta *= rmkc.armijo_beta;
        if !project(rmkc.norm, &mut trial)? {
            continue;
        }
        let dir: f64 = trial
            .iter()
            .zip(theta)
            .zip(&g)
            .map(|((t, th), gv)| gv * (t - th))
            .sum();
        if dir >= 0.0 {
            // Projection cancelled the step (a vertex of the feasible set).
            continue;
        }
        let ks = stack.sum(&trial)?;
        let cand = evaluate(&rmkc.svc, &ks, var, &trial, Some(&ev.model.alpha))?;
        solves += 1;
        if cand.j < ev.j && cand.j <= ev.j + rmkc.armijo_sigma * dir {
            *k_tilde = ks;
            return Ok(ThetaStep {
                theta: trial,
                eval: cand,
                moved: true,
                trials: m + 1,
                solves,
            });
        }
    }
    Ok(ThetaStep {
        theta: theta.to_vec(),
        eval: ev,
        moved: false,
        trials: rmkc.armijo_max_trials,
        solves,
    })
}
