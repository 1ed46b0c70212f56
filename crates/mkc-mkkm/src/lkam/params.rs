//! LKAM's hyperparameters: a builder with the defaults of the authors' code, checked once
//! into [`Lkam`](super::Lkam).

use mkc_core::{validate, Error, ParamGuard, Result};
use mkc_linalg::eigen::EigenOptions;

use crate::labels::LabelOptions;
use crate::params::{check_common, check_stopping, default_eigen_options};
use crate::preprocess::Preprocessing;
use crate::simplex_qp::check_zero_weight;

/// Parameters of LKAM (Li et al., IJCAI 2016), unchecked. The number of clusters and the
/// seed are given when fitting ([`mkc_core::Clusterer::fit`]).
///
/// ```
/// use mkc_mkkm::prelude::*;
/// assert!(LkamParams::new().lambda(0.125).tau(0.1).validate_params().is_ok());
/// assert!(LkamParams::new().tau(1.5).validate_params().is_err());
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct LkamParams {
    /// λ ≥ 0, the weight of the local regulariser `(λ/2) γᵀ HE γ`. No default in the
    /// paper; searched over 2^-15, …, 2^15 by the authors' group; the SimpleMKKM
    /// authors' Flower17 call uses 1. Default 1.
    pub lambda: f64,
    /// τ ∈ (0, 1), the neighbourhood size as a fraction of n: `s = round(τ n)` nearest
    /// samples (checked against n at fit time: `1 ≤ s ≤ n − 1`). Searched over
    /// {0.05, 0.15, …, 0.95}; Flower17 call 0.5. Default 0.5.
    pub tau: f64,
    /// Stop after the third iteration once the relative objective change is below this.
    /// Default 1e-6 (authors).
    pub tol: f64,
    /// Iteration cap. Default 11 (the authors' loop stops when t > 10). Reaching it is
    /// reported as `converged = false`, not as an error.
    pub max_iter: usize,
    /// Weights below this are set to 0 after each QP, the rest renormalised. Default
    /// 1e-6 (authors).
    pub zero_weight: f64,
    /// Kernel preprocessing. Default centre, then unit diagonal (authors).
    pub preprocessing: Preprocessing,
    /// Eigensolver options of the H-step.
    pub eigen: EigenOptions,
    /// Final k-means on the row-normalised H.
    pub labels: LabelOptions,
}

impl Default for LkamParams {
    fn default() -> Self {
        Self::new()
    }
}

impl LkamParams {
    /// Defaults of the authors' code (λ = 1, τ = 0.5 as the SimpleMKKM Flower17 call).
    pub fn new() -> Self {
        Self {
            lambda: 1.0,
            tau: 0.5,
            tol: 1e-6,
            max_iter: 11,
            zero_weight: 1e-6,
            preprocessing: Preprocessing::default(),
            eigen: default_eigen_options(),
            labels: LabelOptions::default(),
        }
    }

    mkc_core::setters! {
        /// Sets `lambda` (λ).
        lambda: f64,
        /// Sets `tau` (τ).
        tau: f64,
        /// Sets `tol`.
        tol: f64,
        /// Sets `max_iter`.
        max_iter: usize,
        /// Sets `zero_weight`.
        zero_weight: f64,
        /// Sets `preprocessing`.
        preprocessing: Preprocessing,
        /// Sets `eigen`.
        eigen: EigenOptions,
        /// Sets `labels`.
        labels: LabelOptions,
    }
}

impl ParamGuard for LkamParams {
    type Checked = super::Lkam;
    fn check(&self) -> Result<super::Lkam> {
        let eigen = check_common(&self.eigen, &self.labels)?;
        validate::non_negative("lambda", self.lambda)?;
        if !(self.tau > 0.0 && self.tau < 1.0) {
            return Err(Error::param("tau", self.tau, "must lie in (0, 1)"));
        }
        check_stopping(self.tol, self.max_iter)?;
        check_zero_weight(self.zero_weight)?;
        Ok(super::Lkam {
            params: LkamParams {
                eigen,
                ..self.clone()
            },
        })
    }
}

mkc_core::clusterer_via_check!(LkamParams, "lkam");
