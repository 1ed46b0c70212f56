//! The outer loop, Algorithm 1: alternate the θ step ([`crate::theta_step`]) and the
//! y step ([`crate::label_step`]) until neither lowers J; and RMKC's
//! [`mkc_core::Clusterer`] implementation.
//!
//! Convergence (our rule): stop after an iteration in which the label step changed no
//! label and the θ step either was rejected or lowered J by at most `tol · |J|`
//! (relative, default 1e-4); or after `max_iter` iterations (default 100, reported as
//! `converged = false`). J never increases: both steps accept only strict decreases of
//! the computed J.

use crate::init::initial_labels;
use crate::label_step::label_step;
use crate::objective::{composite_into, evaluate, Evaluation};
use crate::params::{Norm, Rmkc, RmkcParams};
use crate::signs::{clusters, signs};
use crate::theta_step::theta_step;
use crate::variance::Variance;
use faer::{Mat, MatRef};
use mkc_core::{check_binary, Clustering, Error, KernelSet, KernelWeights, Result, Timings};
use mkc_svm::{CheckedKernelMat, KernelStack};
use std::time::Instant;

mkc_core::diagnostics! {
    /// Diagnostics of one RMKC run ([`Clustering::diagnostics`]). Each "solve" is one SMO
    /// solve of the SVM of eq. (10); the seconds of each part are the result's timings
    /// phases `"init"` (the formed K̃(θ⁽⁰⁾), pair draws and splits), `"theta"` (the first
    /// evaluation, gradients, Armijo trials with the columns of K̃ they form) and
    /// `"labels"` (Algorithm 2, with the columns of K̃ it forms).
    pub struct RmkcDiagnostics {
        /// J(θ, y) at the end (eq. 11; also the last entry of the objective trace).
        objective: f64,
        /// E(θ, y) at the end (eq. 7).
        variance: f64,
        /// Solves of the initialisation (one per distinct pair split); 0 for
        /// [`Rmkc::fit_from`].
        init_solves: usize,
        /// Solves of the θ steps (Armijo trials, plus the first evaluation).
        theta_solves: usize,
        /// Solves of the label steps (candidates of Algorithm 2).
        label_solves: usize,
    }
}

/// The seeded initial labels of a fit ([`Rmkc::initial_split`]): the split with least J
/// among the pair splits of Section 3 ([`crate::init`]), and the SVM solves it took.
#[derive(Clone, Debug, PartialEq)]
pub struct InitialSplit {
    /// Cluster indices 0/1 (cluster 1 is y = +1).
    pub labels: Vec<usize>,
    /// Solves of the initialisation (one per distinct pair split).
    pub solves: usize,
}

/// The state Algorithm 1 starts from: θ⁽⁰⁾ and y⁽⁰⁾ ∈ {±1}ᴺ.
struct Start {
    theta: Vec<f64>,
    y: Vec<f64>,
}

impl Rmkc {
    /// Run RMKC from given θ⁽⁰⁾ (one weight per kernel, ≥ 0, not all 0, used as given:
    /// it is not projected onto the norm's set) and labels y⁽⁰⁾ (`labels0`, cluster
    /// indices 0/1, both present, within the balance bound), instead of the uniform θ
    /// and the seeded pair splits of [`Clusterer::fit`](mkc_core::Clusterer::fit). For studying the local optimum
    /// reached from a known start (e.g. the true classes), or continuing a run.
    ///
    /// # Errors
    /// The errors of [`Clusterer::fit`](mkc_core::Clusterer::fit), and [`Error::Shape`] / [`Error::InvalidInput`] /
    /// [`Error::NonFinite`] for a `theta0` or `labels0` of the wrong length or value.
    pub fn fit_from(
        &self,
        data: &KernelSet<'_>,
        theta0: &[f64],
        labels0: &[usize],
    ) -> Result<Clustering<RmkcDiagnostics>> {
        let t0 = Instant::now();
        check_binary("rmkc", data, 2)?;
        let kernels = data.require_kernels("rmkc")?;
        let n = data.n();
        let ell = self.balance_bound(n)?;
        check_theta0(theta0, kernels.len())?;
        let y = balanced_signs("labels0", labels0, n, ell)?;
        let start = Start {
            theta: theta0.to_vec(),
            y,
        };
        self.run(data, start, ell, 0, Timings::default(), t0)
    }

    /// The initial labels that [`Clusterer::fit`](mkc_core::Clusterer::fit) starts from
    /// with `seed`: the pair splits of Section 3 ([`crate::init`]) evaluated on K̃(θ⁽⁰⁾),
    /// θ⁽⁰⁾ uniform.
    ///
    /// They depend on the parameters that [`Rmkc::start_params`] keeps, not on L, the
    /// iteration caps and tolerances of Algorithm 1, or (between the 1-norm and no norm,
    /// whose uniform θ⁽⁰⁾ are the same) the norm. Fits that differ only in those can
    /// compute the split once per seed and start from it ([`Rmkc::fit_with_split`]); the
    /// experiments runner shares it so across RMKC's norms in Table 1.
    ///
    /// Errors: those of the fit's initialisation.
    pub fn initial_split(
        &self,
        data: &KernelSet<'_>,
        n_clusters: usize,
        seed: u64,
    ) -> Result<InitialSplit> {
        check_binary("rmkc", data, n_clusters)?;
        let kernels = data.require_kernels("rmkc")?;
        let ell = self.balance_bound(data.n())?;
        let theta = self.norm.uniform(kernels.len());
        let k_tilde = self.composite(kernels, &theta)?;
        let (y, solves) = self.split_on(&k_tilde, ell, seed)?;
        Ok(InitialSplit {
            labels: clusters(&y),
            solves,
        })
    }

    /// The parameters that [`Rmkc::initial_split`] depends on: these with L, the
    /// iteration cap, the tolerance and the Armijo constants set to their defaults, and
    /// no norm written as the 1-norm (the same θ⁽⁰⁾ = 1/V). Two fits whose
    /// `start_params` are equal have the same initial split for every seed.
    pub fn start_params(&self) -> Rmkc {
        let d = RmkcParams::new();
        Rmkc {
            l: d.l,
            norm: match self.norm {
                Norm::None => Norm::L1,
                other => other,
            },
            max_iter: d.max_iter,
            tol: d.tol,
            armijo_sigma: d.armijo_sigma,
            armijo_beta: d.armijo_beta,
            armijo_max_trials: d.armijo_max_trials,
            ..self.clone()
        }
    }

    /// [`Clusterer::fit`](mkc_core::Clusterer::fit) from the split that
    /// [`Rmkc::initial_split`] gives for the same data and seed, computed by a fit with
    /// equal [`Rmkc::start_params`]: the result is the fit's bit for bit (its `"init"`
    /// phase is then empty, and `init_solves` is the split's).
    ///
    /// Errors: those of the fit, and [`Error::Shape`] / [`Error::InvalidInput`] for a
    /// split of the wrong length, with a label other than 0/1, with one cluster, or
    /// outside the balance bound.
    pub fn fit_with_split(
        &self,
        data: &KernelSet<'_>,
        n_clusters: usize,
        split: &InitialSplit,
    ) -> Result<Clustering<RmkcDiagnostics>> {
        let t0 = Instant::now();
        check_binary("rmkc", data, n_clusters)?;
        let kernels = data.require_kernels("rmkc")?;
        let n = data.n();
        let ell = self.balance_bound(n)?;
        let y = balanced_signs("split", &split.labels, n, ell)?;
        let theta = self.norm.uniform(kernels.len());
        let start = Start { theta, y };
        self.run(data, start, ell, split.solves, Timings::default(), t0)
    }

    /// K̃(θ) (eq. 3), checked.
    fn composite(&self, kernels: &[MatRef<'_, f64>], theta: &[f64]) -> Result<CheckedKernelMat> {
        let n = kernels.first().map_or(0, |k| k.nrows());
        let mut k_tilde = Mat::zeros(n, n);
        composite_into(&mut k_tilde, theta, kernels)?;
        CheckedKernelMat::new(k_tilde)
    }

    /// The seeded initial split on K̃(θ⁽⁰⁾) (signs) and its solves.
    fn split_on(
        &self,
        k_tilde: &CheckedKernelMat,
        ell: f64,
        seed: u64,
    ) -> Result<(Vec<f64>, usize)> {
        let (y, _, solves) = initial_labels(self, &k_tilde.view(), ell, seed)?;
        Ok((y, solves))
    }

    /// Algorithm 1 from `start`: evaluate J, then alternate θ steps and label steps.
    /// K̃(θ) is a [`mkc_svm::KernelSum`] of the set's kernels (checked when the set was
    /// built): its columns are formed as the solves read them, with the numbers of the
    /// formed matrix (`theta_step` module docs).
    fn run(
        &self,
        data: &KernelSet<'_>,
        start: Start,
        ell: f64,
        init_solves: usize,
        mut timings: Timings,
        t0: Instant,
    ) -> Result<Clustering<RmkcDiagnostics>> {
        let Start { mut theta, y } = start;
        let kernels = data.require_kernels("rmkc")?;
        let stack = KernelStack::from_set(data)?;
        let mut k_tilde = stack.sum(&theta)?;
        let (mut var, mut ev) = timings.time("theta", || -> Result<(Variance, Evaluation)> {
            let var = Variance::new(kernels, &y)?;
            let ev = evaluate(&self.svc, &k_tilde, &var, &theta, None)?;
            Ok((var, ev))
        })?;
        let (mut theta_solves, mut label_solves) = (1, 0);
        let mut history = vec![ev.j];
        let mut converged = false;
        let mut n_iter = 0;
        while n_iter < self.max_iter {
            n_iter += 1;
            let j_before = ev.j;
            let ts = timings.time("theta", || {
                theta_step(self, kernels, &stack, &theta, &var, ev, &mut k_tilde)
            })?;
            theta_solves += ts.solves;
            theta = ts.theta;
            ev = ts.eval;
            history.push(ev.j);
            let theta_gain = j_before - ev.j;
            let ls = timings.time("labels", || {
                label_step(self, kernels, &k_tilde, &theta, ell, var, ev)
            })?;
            label_solves += ls.n_candidates;
            var = ls.var;
            ev = ls.eval;
            history.push(ev.j);
            if ls.n_flips == 0 && (!ts.moved || theta_gain <= self.tol * j_before.abs()) {
                converged = true;
                break;
            }
        }
        timings.set_wall(t0.elapsed().as_secs_f64());
        let diag = RmkcDiagnostics {
            objective: ev.j,
            variance: ev.e,
            init_solves,
            theta_solves,
            label_solves,
        };
        Ok(Clustering::new(clusters(var.labels()), 2, diag)
            .with_weights(KernelWeights::new(theta, self.norm.constraint()))
            .with_objective(history)
            .with_iterations(n_iter, converged)
            .with_timings(timings))
    }
}

/// ±1 labels of given cluster indices (`what`: [`signs`]'s checks) within the balance
/// bound |Σy| ≤ ℓ.
fn balanced_signs(what: &str, labels: &[usize], n: usize, ell: f64) -> Result<Vec<f64>> {
    let y = signs(what, labels, n)?;
    let sum: f64 = y.iter().sum();
    if sum.abs() > ell {
        return Err(Error::input(
            what,
            format!("|Σy| = {} exceeds the balance bound ℓ = {ell}", sum.abs()),
        ));
    }
    Ok(y)
}

/// θ⁽⁰⁾ of [`Rmkc::fit_from`]: one finite weight per kernel, ≥ 0, not all 0.
fn check_theta0(theta0: &[f64], n_kernels: usize) -> Result<()> {
    mkc_core::validate::len("theta0", theta0.len(), n_kernels)?;
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
    Ok(())
}

mkc_core::clusterer! {
    Rmkc, "rmkc", RmkcDiagnostics;
    /// See [`Rmkc`]: θ⁽⁰⁾ uniform, the seeded pair splits, then Algorithm 1.
    fn fit(&self, data, n_clusters, seed) {
        let t0 = Instant::now();
        check_binary("rmkc", data, n_clusters)?;
        let kernels = data.require_kernels("rmkc")?;
        let n = data.n();
        let ell = self.balance_bound(n)?;
        let mut timings = Timings::default();
        let theta = self.norm.uniform(kernels.len());
        let (start, init_solves) = timings.time("init", || -> Result<(Start, usize)> {
            let k_tilde = self.composite(kernels, &theta)?;
            let (y, solves) = self.split_on(&k_tilde, ell, seed)?;
            Ok((Start { theta, y }, solves))
        })?;
        self.run(data, start, ell, init_solves, timings, t0)
    }
}

mkc_core::clusterer_via_check!(crate::RmkcParams, "rmkc");
