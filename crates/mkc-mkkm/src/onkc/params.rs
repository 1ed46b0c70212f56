//! ONKC's hyperparameters: a builder with the defaults of the authors' code, checked once
//! into [`Onkc`](super::Onkc).

use mkc_core::{validate, ParamGuard, Result};
use mkc_linalg::eigen::EigenOptions;

use crate::labels::LabelOptions;
use crate::params::{check_common, check_stopping, default_eigen_options};
use crate::preprocess::Preprocessing;
use crate::simplex_qp::check_zero_weight;

use super::Projection;

/// Parameters of ONKC (Liu et al., AAAI 2017), unchecked. The number of clusters and the
/// seed are given when fitting ([`mkc_core::Clusterer::fit`]).
///
/// ```
/// use mkc_mkkm::prelude::*;
/// assert!(OnkcParams::new().rho(0.25).lambda(8.0).validate_params().is_ok());
/// assert!(OnkcParams::new().rho(0.0).validate_params().is_err());
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct OnkcParams {
    /// ρ > 0, the weight of `(ρ/2) ‖G − K_γ‖²_F`: how far the optimal kernel G may leave
    /// the combined kernel. No default in the paper or code; the authors' demo searches
    /// 2^-7, …, 2^9 and their Flower17 call uses 1. Default 1.
    pub rho: f64,
    /// λ ≥ 0, the weight of the kernel-correlation regulariser `(λ/2) γᵀ M γ`. Demo grid
    /// 2^-6, …, 2^7; Flower17 call 1. Default 1.
    pub lambda: f64,
    /// Stop after the third iteration once `|obj_{t−1} − obj_t| / |obj_{t−1}| < tol`.
    /// Default 1e-3 (authors).
    pub tol: f64,
    /// Iteration cap. Default 51 (the authors' loop makes at most 51 passes). Reaching it
    /// is reported as `converged = false`, not as an error.
    pub max_iter: usize,
    /// Weights below this are set to 0 after each QP, the rest renormalised. Default
    /// 1e-8 (authors).
    pub zero_weight: f64,
    /// How the G-step's PSD projection is computed ([`Projection`]): default
    /// [`Projection::Auto`] (block Lanczos while G has low rank, same G to the
    /// eigensolver tolerance); [`Projection::Dense`] is the authors' full decomposition.
    pub projection: Projection,
    /// Kernel preprocessing. Default centre, then unit diagonal (authors' `kcenter`,
    /// `knorm`).
    pub preprocessing: Preprocessing,
    /// Eigensolver options of the first H (top-k eigenvectors of the average kernel) and
    /// of the low-rank projections.
    pub eigen: EigenOptions,
    /// Final k-means on the row-normalised H.
    pub labels: LabelOptions,
}

impl Default for OnkcParams {
    fn default() -> Self {
        Self::new()
    }
}

impl OnkcParams {
    /// Defaults of the authors' code (ρ = λ = 1 as their Flower17 call).
    pub fn new() -> Self {
        Self {
            rho: 1.0,
            lambda: 1.0,
            tol: 1e-3,
            max_iter: 51,
            zero_weight: 1e-8,
            projection: Projection::Auto,
            preprocessing: Preprocessing::default(),
            eigen: default_eigen_options(),
            labels: LabelOptions::default(),
        }
    }

    mkc_core::setters! {
        /// Sets `rho` (ρ).
        rho: f64,
        /// Sets `lambda` (λ).
        lambda: f64,
        /// Sets `tol`.
        tol: f64,
        /// Sets `max_iter`.
        max_iter: usize,
        /// Sets `zero_weight`.
        zero_weight: f64,
        /// Sets `projection`.
        projection: Projection,
        /// Sets `preprocessing`.
        preprocessing: Preprocessing,
        /// Sets `eigen`.
        eigen: EigenOptions,
        /// Sets `labels`.
        labels: LabelOptions,
    }
}

impl ParamGuard for OnkcParams {
    type Checked = super::Onkc;
    fn check(&self) -> Result<super::Onkc> {
        let eigen = check_common(&self.eigen, &self.labels)?;
        validate::positive("rho", self.rho)?;
        validate::non_negative("lambda", self.lambda)?;
        check_stopping(self.tol, self.max_iter)?;
        check_zero_weight(self.zero_weight)?;
        Ok(super::Onkc {
            params: OnkcParams {
                eigen,
                ..self.clone()
            },
        })
    }
}

mkc_core::clusterer_via_check!(OnkcParams, "onkc");
