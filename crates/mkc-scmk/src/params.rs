//! Hyperparameters of SCSK (Algorithm 1) and SCMK (Algorithm 2), checked once through
//! [`ParamGuard`] into [`Scsk`](crate::Scsk) / [`Scmk`](crate::Scmk).
//!
//! α and β have no defaults (the paper searches α ∈ {1e-5, …, 100}, β ∈ {1e-6, 1e-5});
//! every other default is the authors' code: Z starts at the identity, stop after at
//! least `min_iter` iterations when ‖Z − Z_old‖_F / ‖Z_old‖_F < `tol`, at most
//! `max_iter` iterations (SCMK 10 / 1e-3 / 500, SCSK 5 / 1e-3 / 200), final labels by
//! k-means on P with 100 replicates (MATLAB `kmeans`: 100 iterations each).

use mkc_core::{mkc_ensure, validate, ParamGuard, Result};
use mkc_linalg::EigenOptions;

use crate::ZSolver;

/// APG iterations per Z step when `qp_max_iter` is `None`.
pub(crate) const APG_MAX_ITER: usize = 2000;

/// The checked settings shared by SCSK and SCMK.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Settings {
    pub n_clusters: usize,
    pub alpha: f64,
    pub beta: f64,
    pub min_iter: usize,
    pub max_iter: usize,
    pub tol: f64,
    pub qp_tol: f64,
    pub qp_max_iter: Option<usize>,
    pub z_solver: ZSolver,
    pub n_init: usize,
    pub kmeans_max_iter: usize,
    pub seed: u64,
    pub eigen: EigenOptions,
}

impl Settings {
    fn new(n_clusters: usize, alpha: f64, beta: f64, min_iter: usize, max_iter: usize) -> Self {
        Self {
            n_clusters,
            alpha,
            beta,
            min_iter,
            max_iter,
            tol: 1e-3,
            qp_tol: 1e-6,
            qp_max_iter: None,
            z_solver: ZSolver::Auto,
            n_init: 100,
            kmeans_max_iter: 100,
            seed: 0,
            eigen: EigenOptions::default(),
        }
    }

    fn check(&self) -> Result<Self> {
        mkc_ensure!(self.n_clusters >= 1, param "n_clusters", self.n_clusters, "must be at least 1");
        validate::positive("alpha", self.alpha)?;
        validate::non_negative("beta", self.beta)?;
        mkc_ensure!(self.max_iter >= 1, param "max_iter", self.max_iter, "must be at least 1");
        mkc_ensure!(
            self.min_iter <= self.max_iter,
            param "min_iter", self.min_iter, "must not exceed max_iter ({})", self.max_iter
        );
        validate::non_negative("tol", self.tol)?;
        validate::positive("qp_tol", self.qp_tol)?;
        mkc_ensure!(self.qp_max_iter != Some(0), param "qp_max_iter", 0, "must be at least 1");
        mkc_ensure!(self.n_init >= 1, param "n_init", self.n_init, "must be at least 1");
        mkc_ensure!(self.kmeans_max_iter >= 1, param "kmeans_max_iter", self.kmeans_max_iter, "must be at least 1");
        self.eigen.check()?;
        Ok(self.clone())
    }
}

macro_rules! params_type {
    ($(#[$doc:meta])* $name:ident, $checked:ident, $min:expr, $max:expr) => {
        $(#[$doc])*
        #[derive(Debug, Clone, PartialEq)]
        pub struct $name {
            s: Settings,
        }

        impl $name {
            #[doc = concat!("`n_clusters` = c, trade-off α > 0 (‖Z‖²_F) and β ≥ 0 (rank term); ",
                "stopping defaults min_iter = ", stringify!($min), ", tol = 1e-3, max_iter = ",
                stringify!($max), " (the authors' code).")]
            pub fn new(n_clusters: usize, alpha: f64, beta: f64) -> Self {
                Self { s: Settings::new(n_clusters, alpha, beta, $min, $max) }
            }
            /// Iterations always performed before the stopping test.
            #[must_use]
            pub fn min_iter(mut self, v: usize) -> Self { self.s.min_iter = v; self }
            /// Cap on iterations (reaching it is reported as `converged = false`).
            #[must_use]
            pub fn max_iter(mut self, v: usize) -> Self { self.s.max_iter = v; self }
            /// Stop when ‖Z − Z_old‖_F / ‖Z_old‖_F < tol (after `min_iter` iterations).
            #[must_use]
            pub fn tol(mut self, v: f64) -> Self { self.s.tol = v; self }
            /// KKT tolerance of every column QP (11): max_{z_j>0} g_j − min_{z_j<1} g_j,
            /// g the gradient of (11) (absolute). Default 1e-6 (see the crate docs for
            /// why this suffices and what it costs).
            #[must_use]
            pub fn qp_tol(mut self, v: f64) -> Self { self.s.qp_tol = v; self }
            /// Cap per Z step: APG iterations (`None`: 2000) or SMO pair updates per
            /// column QP (`None`: mkc-qp's max(100 000, 100 n)).
            #[must_use]
            pub fn qp_max_iter(mut self, v: Option<usize>) -> Self { self.s.qp_max_iter = v; self }
            /// Solver of the column QPs (11) (default [`ZSolver::Auto`]).
            #[must_use]
            pub fn z_solver(mut self, v: ZSolver) -> Self { self.s.z_solver = v; self }
            /// k-means replicates on P (default 100, the authors').
            #[must_use]
            pub fn n_init(mut self, v: usize) -> Self { self.s.n_init = v; self }
            /// Lloyd iterations per k-means replicate (default 100, MATLAB's).
            #[must_use]
            pub fn kmeans_max_iter(mut self, v: usize) -> Self { self.s.kmeans_max_iter = v; self }
            /// Seed of the k-means replicates and of the eigensolver.
            #[must_use]
            pub fn seed(mut self, v: u64) -> Self { self.s.seed = v; self }
            /// Options of the bottom-c eigensolver (its own seed is replaced by `seed`).
            #[must_use]
            pub fn eigen(mut self, v: EigenOptions) -> Self { self.s.eigen = v; self }
        }

        impl ParamGuard for $name {
            type Checked = crate::$checked;
            fn check(&self) -> Result<crate::$checked> {
                let mut s = self.s.check()?;
                s.eigen = s.eigen.clone().seed(s.seed);
                Ok(crate::$checked { s })
            }
        }
    };
}

params_type!(
    /// Hyperparameters of SCSK (single kernel, Algorithm 1); check into [`crate::Scsk`].
    ScskParams, Scsk, 5, 200
);
params_type!(
    /// Hyperparameters of SCMK (multiple kernels, Algorithm 2); check into [`crate::Scmk`].
    ScmkParams, Scmk, 10, 500
);
