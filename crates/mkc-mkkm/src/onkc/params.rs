//! ONKC's hyperparameters: a builder with the defaults of the authors' code, checked once
//! into [`Onkc`](super::Onkc).

use mkc_core::{validate, ParamGuard, Result};
use mkc_linalg::eigen::EigenOptions;

use crate::labels::LabelOptions;
use crate::params::{check_common, check_stopping, default_eigen_options};
use crate::preprocess::Preprocessing;
use crate::simplex_qp::check_zero_weight;

use super::Projection;

mkc_core::param_words!(Projection { "auto" => Projection::Auto, "dense" => Projection::Dense });

mkc_core::params! {
    /// Parameters of ONKC (Liu et al., AAAI 2017), unchecked. The number of clusters and the
    /// seed are given when fitting ([`mkc_core::Clusterer::fit`]).
    ///
    /// ```
    /// use mkc_mkkm::prelude::*;
    /// assert!(OnkcParams::new().rho(0.25).lambda(8.0).validate_params().is_ok());
    /// assert!(OnkcParams::new().rho(0.0).validate_params().is_err());
    /// ```
    pub struct OnkcParams {
        /// ρ > 0, the weight of `(ρ/2) ‖G − K_γ‖²_F`: how far the optimal kernel G may leave
        /// the combined kernel. No default in the paper or code; the authors' demo searches
        /// 2^-7, …, 2^9 and their Flower17 call uses 1. Default 1.
        pub rho: f64 = 1.0,
        /// λ ≥ 0, the weight of the kernel-correlation regulariser `(λ/2) γᵀ M γ`,
        /// `M_pq = tr(K_p K_q)`. Demo grid 2^-6, …, 2^7; Flower17 call 1. Default 1.
        pub lambda: f64 = 1.0,
        /// Stop after the third iteration once `|obj_{t−1} − obj_t| / |obj_{t−1}| < tol`.
        /// Default 1e-3 (authors).
        pub tol: f64 = 1e-3,
        /// Iteration cap, each iteration one PSD projection of G (`projection`). Default 51
        /// (the authors' loop makes at most 51 passes). Reaching it is reported as
        /// `converged = false`, not as an error.
        pub max_iter: usize = 51,
        /// Weights below this are set to 0 after each QP, the rest renormalised. Default
        /// 1e-8 (authors).
        pub zero_weight: f64 = 1e-8,
        /// How the G-step's PSD projection is computed ([`Projection`]): `auto` (default)
        /// block Lanczos while rank(G) ≤ n/6 (the first rank counted from one LBLᵀ
        /// factorisation's inertia), else the full eigendecomposition (the same G to the
        /// eigensolver tolerance, 1e-8); `dense` always the full decomposition (the
        /// authors').
        pub projection: Projection = Projection::Auto,
        /// Kernel preprocessing. Default centre, then unit diagonal (authors' `kcenter`,
        /// `knorm`).
        pub preprocessing: Preprocessing = Preprocessing::default(),
        /// Eigensolver options of the first H (top-k eigenvectors of the average kernel) and
        /// of the low-rank projections.
        pub eigen: EigenOptions = default_eigen_options(),
        /// Final k-means on the row-normalised H.
        pub labels: LabelOptions = LabelOptions::default(),
    }
    /// Defaults of the authors' code (ρ = λ = 1 as their Flower17 call).
    new;
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
