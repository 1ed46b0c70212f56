//! Hyperparameters of MKKM and MKKM-MiR (builders with the defaults of the authors'
//! code, checked once through [`ParamGuard`]), and the defaults and checks every
//! method of the family shares.

use mkc_core::{validate, Error, ParamGuard, Result};
use mkc_linalg::eigen::EigenOptions;

use crate::labels::LabelOptions;
use crate::preprocess::Preprocessing;

/// Eigensolver options used by the methods of this crate (and of `mkc-simplemkkm`): `mkc_linalg`'s defaults with
/// relative residual tolerance 1e-8. Eigenvalue errors are quadratic in the residual
/// (≈ 1e-16 ‖K‖² / gap), so J is accurate far below the differences the golden-section
/// comparisons resolve; the gradient (Theorem 1) is accurate to ~1e-8 relative.
pub fn default_eigen_options() -> EigenOptions {
    EigenOptions::default().tol(1e-8)
}

/// The checks every method of the family shares: the eigensolver options (returned
/// checked) and the final k-means.
pub fn check_common(eigen: &EigenOptions, labels: &LabelOptions) -> Result<EigenOptions> {
    if labels.n_init == 0 {
        return Err(Error::param("labels.n_init", 0, "must be at least 1"));
    }
    if labels.max_iter == 0 {
        return Err(Error::param("labels.max_iter", 0, "must be at least 1"));
    }
    eigen.check()
}

/// `tol > 0` (finite) and `max_iter ≥ 1`, the stopping rule of the iterative methods.
pub fn check_stopping(tol: f64, max_iter: usize) -> Result<()> {
    validate::positive("tol", tol)?;
    if max_iter == 0 {
        return Err(Error::param("max_iter", 0, "must be at least 1"));
    }
    Ok(())
}

/// Parameters of MKKM (Huang et al., 2012) as in the SimpleMKKM authors' baseline code,
/// unchecked.
#[derive(Clone, Debug, PartialEq)]
pub struct MkkmParams {
    /// Stop when the relative objective change is below this. Default 1e-4.
    pub tol: f64,
    /// Iteration cap. Default 50.
    pub max_iter: usize,
    /// Kernel preprocessing (default centre then unit diagonal).
    pub preprocessing: Preprocessing,
    /// Eigensolver options.
    pub eigen: EigenOptions,
    /// Final k-means on the row-normalised H.
    pub labels: LabelOptions,
}

impl Default for MkkmParams {
    fn default() -> Self {
        Self::new()
    }
}

impl MkkmParams {
    /// Defaults of the authors' baseline.
    pub fn new() -> Self {
        Self {
            tol: 1e-4,
            max_iter: 50,
            preprocessing: Preprocessing::default(),
            eigen: default_eigen_options(),
            labels: LabelOptions::default(),
        }
    }
}
impl MkkmParams {
    mkc_core::setters! {
        /// Sets `tol`.
        tol: f64,
        /// Sets `max_iter`.
        max_iter: usize,
        /// Sets `preprocessing`.
        preprocessing: Preprocessing,
        /// Sets `eigen`.
        eigen: EigenOptions,
        /// Sets `labels`.
        labels: LabelOptions,
    }
}

impl ParamGuard for MkkmParams {
    type Checked = crate::Mkkm;
    fn check(&self) -> Result<crate::Mkkm> {
        let eigen = check_common(&self.eigen, &self.labels)?;
        check_stopping(self.tol, self.max_iter)?;
        Ok(crate::Mkkm {
            params: MkkmParams {
                eigen,
                ..self.clone()
            },
        })
    }
}

/// Parameters of MKKM-MiR (Liu et al., AAAI 2016; [`crate::mkkm_mir`]), unchecked.
///
/// ```
/// use mkc_mkkm::prelude::*;
/// assert!(MkkmMirParams::new().lambda(0.5).validate_params().is_ok());
/// assert!(MkkmMirParams::new().lambda(-1.0).validate_params().is_err());
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct MkkmMirParams {
    /// Regularisation weight λ ≥ 0 (0 gives MKKM with the QP weight update). Default 1.
    pub lambda: f64,
    /// Stop when the relative objective change is below this (after ≥ 3 iterations).
    /// Default 1e-6 (authors).
    pub tol: f64,
    /// Iteration cap (ours; the authors have none). Default 100.
    pub max_iter: usize,
    /// Weights below this are set to 0 after each QP (authors: 1e-6).
    pub zero_weight: f64,
    /// Kernel preprocessing (default centre then unit diagonal, as the authors).
    pub preprocessing: Preprocessing,
    /// Eigensolver options.
    pub eigen: EigenOptions,
    /// Final k-means on the row-normalised H.
    pub labels: LabelOptions,
}

impl Default for MkkmMirParams {
    fn default() -> Self {
        Self::new()
    }
}

impl MkkmMirParams {
    /// Defaults of the authors' code (λ, which they search over 2^-15 … 2^10: 1).
    pub fn new() -> Self {
        Self {
            lambda: 1.0,
            tol: 1e-6,
            max_iter: 100,
            zero_weight: 1e-6,
            preprocessing: Preprocessing::default(),
            eigen: default_eigen_options(),
            labels: LabelOptions::default(),
        }
    }
}
impl MkkmMirParams {
    mkc_core::setters! {
        /// Sets `lambda`.
        lambda: f64,
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

impl ParamGuard for MkkmMirParams {
    type Checked = crate::MkkmMir;
    fn check(&self) -> Result<crate::MkkmMir> {
        let eigen = check_common(&self.eigen, &self.labels)?;
        validate::non_negative("lambda", self.lambda)?;
        check_stopping(self.tol, self.max_iter)?;
        if !(self.zero_weight.is_finite() && (0.0..0.5).contains(&self.zero_weight)) {
            return Err(Error::param(
                "zero_weight",
                self.zero_weight,
                "must lie in [0, 0.5)",
            ));
        }
        Ok(crate::MkkmMir {
            params: MkkmMirParams {
                eigen,
                ..self.clone()
            },
        })
    }
}

mkc_core::clusterer_via_check!(MkkmParams, "mkkm");
mkc_core::clusterer_via_check!(MkkmMirParams, "mkkm-mir");

#[cfg(test)]
mod tests {
    use super::*;
    use mkc_core::Clusterer;

    /// The parameter an `InvalidParam` error names.
    fn named(r: Result<()>) -> String {
        match r {
            Err(Error::InvalidParam { name, .. }) => name,
            Err(e) => panic!("not InvalidParam: {e}"),
            Ok(()) => panic!("accepted"),
        }
    }

    #[test]
    fn every_bad_parameter_is_named() {
        let bad_labels = LabelOptions {
            n_init: 0,
            max_iter: 1,
        };
        let cases: Vec<(Result<()>, &str)> = vec![
            (MkkmParams::new().tol(-1.0).validate_params(), "tol"),
            (MkkmParams::new().max_iter(0).validate_params(), "max_iter"),
            (
                MkkmParams::new().labels(bad_labels).validate_params(),
                "labels.n_init",
            ),
            (
                MkkmMirParams::new().lambda(f64::NAN).validate_params(),
                "lambda",
            ),
            (
                MkkmMirParams::new().lambda(-1.0).validate_params(),
                "lambda",
            ),
            (MkkmMirParams::new().tol(0.0).validate_params(), "tol"),
            (
                MkkmMirParams::new().max_iter(0).validate_params(),
                "max_iter",
            ),
            (
                MkkmMirParams::new().zero_weight(0.5).validate_params(),
                "zero_weight",
            ),
            (
                MkkmMirParams::new().labels(bad_labels).validate_params(),
                "labels.n_init",
            ),
        ];
        for (i, (r, name)) in cases.into_iter().enumerate() {
            assert_eq!(named(r), name, "case {i}");
        }
        assert!(MkkmParams::default().validate_params().is_ok());
        assert!(MkkmMirParams::default()
            .lambda(0.0)
            .validate_params()
            .is_ok());
    }

    #[test]
    fn registry_names() {
        assert_eq!(MkkmParams::new().name(), "mkkm");
        assert_eq!(MkkmMirParams::new().name(), "mkkm-mir");
    }
}
