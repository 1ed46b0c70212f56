//! Hyperparameters of SCSK (Algorithm 1) and SCMK (Algorithm 2), checked once through
//! [`ParamGuard`] into [`Scsk`](crate::Scsk) / [`Scmk`](crate::Scmk). Neither holds the
//! number of clusters or a seed: both come with each fit.
//!
//! The paper gives no default for α and β: it searches α ∈ {1e-5, 1e-4, 1e-3, 0.01, 0.1,
//! 1, 10, 100} and β ∈ {1e-6, 1e-5} ("Parameter Selection") and reports that SCMK is
//! stable over a large range of α and more sensitive to β. The defaults are points of
//! that grid: α = 1 (inside the stable range of the paper's Figure 1) and β = 1e-5 (the
//! larger of the two β). Every other default is the authors' code: Z starts at the
//! identity, stop after at least `min_iter` iterations when ‖Z − Z_old‖_F / ‖Z_old‖_F <
//! `tol`, at most `max_iter` iterations (SCMK 10 / 1e-3 / 500, SCSK 5 / 1e-3 / 200),
//! final labels by k-means on P with 100 replicates (MATLAB `kmeans`: 100 iterations
//! each).

use mkc_core::{mkc_ensure, validate, ParamGuard, Result};
use mkc_linalg::EigenOptions;

use crate::ZSolver;

mkc_core::param_words!(ZSolver { "auto" => ZSolver::Auto, "apg" => ZSolver::Apg, "smo" => ZSolver::Smo });

/// APG iterations per Z step when `qp_max_iter` is `None`.
pub(crate) const APG_MAX_ITER: usize = 2000;

/// Default α (a point of the paper's grid, module docs).
pub const DEFAULT_ALPHA: f64 = 1.0;
/// Default β (the larger of the paper's two values, module docs).
pub const DEFAULT_BETA: f64 = 1e-5;

/// The checked settings shared by SCSK and SCMK.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Settings {
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
    pub eigen: EigenOptions,
}

impl Settings {
    fn new(min_iter: usize, max_iter: usize) -> Self {
        Self {
            alpha: DEFAULT_ALPHA,
            beta: DEFAULT_BETA,
            min_iter,
            max_iter,
            tol: 1e-3,
            qp_tol: 1e-6,
            qp_max_iter: None,
            z_solver: ZSolver::Auto,
            n_init: 100,
            kmeans_max_iter: 100,
            // Hand the P step's bottom-c solve over to the dense solver after n products
            // with L: some warm-started solves on BA's Laplacians need 7000-8500 (3-4 s
            // against about 0.3 s dense; `EigenOptions::dense_switch`).
            eigen: EigenOptions::default().dense_switch(1.0),
        }
    }

    fn check(&self) -> Result<Self> {
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
            #[doc = concat!("α = 1, β = 1e-5 (points of the paper's grid, module docs); ",
                "stopping defaults min_iter = ", stringify!($min), ", tol = 1e-3, max_iter = ",
                stringify!($max), " (the authors' code).")]
            pub fn new() -> Self {
                Self { s: Settings::new($min, $max) }
            }
            mkc_core::setters! {
                reflect reflect_settings;
                /// Trade-off α > 0 of ‖Z‖²_F (default 1; the paper's grid 1e-5 … 100).
                #[must_use]
                alpha: f64 => s,
                /// Trade-off β ≥ 0 of the rank term tr(PᵀLP) (default 1e-5; the paper's grid
                /// 1e-6, 1e-5).
                #[must_use]
                beta: f64 => s,
                /// Iterations always performed before the stopping test (the authors' code:
                /// SCMK 10, SCSK 5).
                #[must_use]
                min_iter: usize => s,
                /// Cap on iterations (the authors' code: SCMK 500, SCSK 200; reaching it is
                /// reported as `converged = false`).
                #[must_use]
                max_iter: usize => s,
                /// Stop when ‖Z − Z_old‖_F / ‖Z_old‖_F < tol (after `min_iter` iterations;
                /// default 1e-3, the authors' code).
                #[must_use]
                tol: f64 => s,
                /// KKT tolerance of every column QP (11): max_{z_j>0} g_j − min_{z_j<1} g_j,
                /// g the gradient of (11) (absolute). Default 1e-6 (see the crate docs for
                /// why this suffices and what it costs).
                #[must_use]
                qp_tol: f64 => s,
                /// Cap per Z step: APG iterations (`None`: 2000) or SMO pair updates per
                /// column QP (`None`: mkc-qp's max(100 000, 100 n)).
                #[must_use]
                qp_max_iter: Option<usize> => s,
                /// Solver of the column QPs (11): accelerated projected gradient with SMO for
                /// the columns whose start is sparse (`auto`, default), APG alone (`apg`) or
                /// SMO alone (`smo`); [`ZSolver`].
                #[must_use]
                z_solver: ZSolver => s,
                /// k-means replicates on P (default 100, the authors').
                #[must_use]
                n_init: usize => s,
                /// Lloyd iterations per k-means replicate (default 100, MATLAB's).
                #[must_use]
                kmeans_max_iter: usize => s,
                /// Options of the bottom-c eigensolver of the P step and of the λ_max
                /// estimate of the APG step size, seed included (default: seed 0 and the
                /// switch to the dense solver after n products, `dense_switch = 1`): the
                /// alternating loop does not depend on the fit's seed, which drives only the
                /// final k-means, so restarts share the loop.
                #[must_use]
                eigen: EigenOptions => s,
            }
        }

        impl Default for $name {
            fn default() -> Self {
                Self::new()
            }
        }

        impl mkc_core::params::Reflect for $name {
            fn param_info() -> Vec<mkc_core::params::ParamInfo> {
                Self::new().reflect_settings()
            }
        }

        impl ParamGuard for $name {
            type Checked = crate::$checked;
            fn check(&self) -> Result<crate::$checked> {
                Ok(crate::$checked { s: self.s.check()? })
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
