//! The outer loop, Algorithm 1: alternate the θ step ([`crate::theta_step`]) and the
//! y step ([`crate::label_step`]) until neither lowers J.
//!
//! Convergence (our rule): stop after an iteration in which the label step changed no
//! label and the θ step either was rejected or lowered J by at most `tol · |J|`
//! (relative, default 1e-4); or after `max_iter` iterations (default 100, reported as
//! `converged = false`). J never increases: both steps accept only strict decreases of
//! the computed J.

use crate::init::initial_labels;
use crate::label_step::label_step;
use crate::objective::{composite_into, evaluate, Evaluation};
use crate::params::Rmkc;
use crate::theta_step::theta_step;
use crate::variance::Variance;
use faer::{Mat, MatRef};
use mkc_core::{Error, Result};
use mkc_svm::{CheckedKernel, SvcModel};
use std::time::Instant;

/// The result of an RMKC run.
#[derive(Clone, Debug)]
pub struct RmkcFit {
    /// Cluster labels y ∈ {−1, +1}ᴺ.
    pub y: Vec<f64>,
    /// Kernel weights θ.
    pub theta: Vec<f64>,
    /// J(θ, y) at the end (eq. 11).
    pub objective: f64,
    /// E(θ, y) at the end (eq. 7).
    pub variance: f64,
    /// The SVM of eq. (10) at the end.
    pub model: SvcModel,
    /// J after the initialisation and after every θ step and every y step, in order.
    pub history: Vec<f64>,
    /// Outer iterations run.
    pub n_iter: usize,
    /// Whether the stopping rule was met before `max_iter`.
    pub converged: bool,
    /// Where the work went: SVM solves and wall-clock seconds per part.
    pub stats: RmkcStats,
}

/// Work counters of one RMKC run (each "solve" is one SMO solve of eq. 10).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RmkcStats {
    /// Solves of the initialisation (one per evaluated pair split).
    pub init_solves: usize,
    /// Solves of the θ steps (Armijo trials, plus the first evaluation).
    pub theta_solves: usize,
    /// Solves of the label steps (candidates of Algorithm 2).
    pub label_solves: usize,
    /// Seconds in the initialisation (pair draws, splits, solves).
    pub init_seconds: f64,
    /// Seconds in the θ steps (gradients, K̃ rebuilds, solves).
    pub theta_seconds: f64,
    /// Seconds in the label steps.
    pub label_seconds: f64,
}

impl RmkcFit {
    /// Labels as cluster indices: −1 → 0, +1 → 1.
    pub fn clusters(&self) -> Vec<usize> {
        self.y.iter().map(|&t| usize::from(t > 0.0)).collect()
    }
}

/// Validate the basis kernels: at least one, square, finite, symmetric, all of the same
/// size N ≥ 2. Returns N.
pub fn check_kernels(kernels: &[MatRef<'_, f64>]) -> Result<usize> {
    let n = mkc_core::validate::kernels("kernels", kernels)?;
    if n < 2 {
        return Err(Error::input(
            "kernels",
            format!("RMKC needs at least 2 points, got {n}"),
        ));
    }
    Ok(n)
}

impl Rmkc {
    /// Run RMKC from θ⁽⁰⁾ uniform (θ_v = V^(−1/p)) and the initial labels of
    /// [`crate::init`] drawn with `seed`.
    pub fn fit(&self, kernels: &[MatRef<'_, f64>], seed: u64) -> Result<RmkcFit> {
        let n = check_kernels(kernels)?;
        let ell = self.balance_bound(n)?;
        let theta = self.norm.uniform(kernels.len());
        let t0 = Instant::now();
        let mut k_tilde = Mat::zeros(n, n);
        composite_into(&mut k_tilde, &theta, kernels)?;
        let (y, _, init_solves) =
            initial_labels(self, &CheckedKernel::new(k_tilde.as_ref())?, ell, seed)?;
        let stats = RmkcStats {
            init_solves,
            init_seconds: t0.elapsed().as_secs_f64(),
            ..RmkcStats::default()
        };
        self.run(kernels, theta, &y, ell, k_tilde, stats)
    }

    /// Run RMKC from given θ⁽⁰⁾ (≥ 0, not all 0, used as given) and labels y⁽⁰⁾
    /// (±1, both present, |Σy| ≤ ℓ).
    pub fn fit_from(
        &self,
        kernels: &[MatRef<'_, f64>],
        theta0: &[f64],
        y0: &[f64],
    ) -> Result<RmkcFit> {
        let n = check_kernels(kernels)?;
        let ell = self.balance_bound(n)?;
        mkc_core::validate::len("theta0", theta0.len(), kernels.len())?;
        mkc_core::validate::finite_slice("theta0", theta0)?;
        if let Some(v) = theta0.iter().position(|&t| t < 0.0) {
            return Err(Error::input(
                "theta0",
                format!("negative weight {} at index {v}", theta0[v]),
            ));
        }
        if theta0.iter().all(|&t| t == 0.0) {
            return Err(Error::input("theta0", "all weights are 0"));
        }
        mkc_core::validate::len("y0", y0.len(), n)?;
        mkc_core::validate::binary_labels("y0", y0)?;
        let sum: f64 = y0.iter().sum();
        if sum.abs() > ell {
            return Err(Error::input(
                "y0",
                format!("|Σy| = {} exceeds the balance bound ℓ = {ell}", sum.abs()),
            ));
        }
        let mut k_tilde = Mat::zeros(n, n);
        composite_into(&mut k_tilde, theta0, kernels)?;
        self.run(
            kernels,
            theta0.to_vec(),
            y0,
            ell,
            k_tilde,
            RmkcStats::default(),
        )
    }

    fn run(
        &self,
        kernels: &[MatRef<'_, f64>],
        mut theta: Vec<f64>,
        y0: &[f64],
        ell: f64,
        mut k_tilde: Mat<f64>,
        mut stats: RmkcStats,
    ) -> Result<RmkcFit> {
        let n = y0.len();
        let t0 = Instant::now();
        let mut scratch = Mat::zeros(n, n);
        let mut var = Variance::new(kernels, y0)?;
        let mut ev: Evaluation = {
            let ck = CheckedKernel::new(k_tilde.as_ref())?;
            evaluate(&self.svc, &ck, &var, &theta, None)?
        };
        stats.theta_solves += 1;
        stats.theta_seconds += t0.elapsed().as_secs_f64();
        let mut history = vec![ev.j];
        let mut converged = false;
        let mut n_iter = 0;
        while n_iter < self.max_iter {
            n_iter += 1;
            let j_before = ev.j;
            let t = Instant::now();
            let ts = theta_step(self, kernels, &theta, &var, ev, &mut k_tilde, &mut scratch)?;
            stats.theta_solves += ts.solves;
            stats.theta_seconds += t.elapsed().as_secs_f64();
            theta = ts.theta;
            ev = ts.eval;
            history.push(ev.j);
            let theta_gain = j_before - ev.j;
            let t = Instant::now();
            let ck = CheckedKernel::new(k_tilde.as_ref())?;
            let ls = label_step(self, kernels, &ck, &theta, ell, var, ev)?;
            stats.label_solves += ls.n_candidates;
            stats.label_seconds += t.elapsed().as_secs_f64();
            var = ls.var;
            ev = ls.eval;
            history.push(ev.j);
            if ls.n_flips == 0 && (!ts.moved || theta_gain <= self.tol * j_before.abs()) {
                converged = true;
                break;
            }
        }
        Ok(RmkcFit {
            y: var.labels().to_vec(),
            theta,
            objective: ev.j,
            variance: ev.e,
            model: ev.model,
            history,
            n_iter,
            converged,
            stats,
        })
    }
}
