//! Hyperparameters of MKKM and MKKM-MiR (builders with the defaults of the authors'
//! code, checked once through [`ParamGuard`]), and the defaults and checks every
//! method of the family shares.

use mkc_core::{validate, Error, ParamGuard, Result};
pub use mkc_linalg::eigen::EigenOptions;

use crate::labels::LabelOptions;
use crate::simplex_qp::check_zero_weight;

/// Eigensolver options used by the methods of this crate (and of `mkc-simplemkkm`): `mkc_linalg`'s defaults with
/// relative residual tolerance 1e-8. Eigenvalue errors are quadratic in the residual
/// (≈ 1e-16 ‖K‖² / gap), so J is accurate far below the differences the golden-section
/// comparisons resolve; the gradient (Theorem 1) is accurate to ~1e-8 relative.
pub fn default_eigen_options() -> EigenOptions {
    EigenOptions::default().tol(1e-8)
}

/// A count (an iteration cap, a number of restarts) that must be at least 1, named `name`
/// in the error.
pub fn at_least_one(name: &str, v: usize) -> Result<()> {
    if v == 0 {
        return Err(Error::param(name, 0, "must be at least 1"));
    }
    Ok(())
}

/// The checks every method of the family shares: the eigensolver options (returned
/// checked) and the final k-means.
pub fn check_common(eigen: &EigenOptions, labels: &LabelOptions) -> Result<EigenOptions> {
    at_least_one("labels.n_init", labels.n_init)?;
    at_least_one("labels.max_iter", labels.max_iter)?;
    eigen.check()
}

/// The name of the parameter an [`Error::InvalidParam`] rejects; `None` for success or
/// any other error. How the family's tests check that every bad setting is named.
///
/// ```
/// use mkc_mkkm::params::rejected_param;
/// use mkc_mkkm::prelude::*;
/// assert_eq!(rejected_param(&MkkmParams::new().tol(-1.0).validate_params()), Some("tol"));
/// assert_eq!(rejected_param(&MkkmParams::new().validate_params()), None);
/// ```
pub fn rejected_param<T>(r: &Result<T>) -> Option<&str> {
    match r {
        Err(Error::InvalidParam { name, .. }) => Some(name),
        _ => None,
    }
}

/// `tol > 0` (finite) and `max_iter ≥ 1`, the stopping rule of the iterative methods.
pub fn check_stopping(tol: f64, max_iter: usize) -> Result<()> {
    validate::positive("tol", tol)?;
    at_least_one("max_iter", max_iter)
}

/// The checks of the methods whose weight step is the regularised simplex QP (MKKM-MiR,
/// LKAM): `lambda ≥ 0`, the stopping rule ([`check_stopping`]) and `zero_weight`.
pub fn check_regularised(lambda: f64, tol: f64, max_iter: usize, zero_weight: f64) -> Result<()> {
    validate::non_negative("lambda", lambda)?;
    check_stopping(tol, max_iter)?;
    check_zero_weight(zero_weight)
}

/// Declare a parameter builder of the family: the struct (`Clone, Debug, PartialEq`) with
/// the fields listed, each with its default after `=`, followed by the three every method
/// shares — `preprocessing` (default centre, then unit diagonal), `eigen`
/// ([`default_eigen_options`]) and `labels` (the final k-means) —, `new()` with the
/// defaults (and `Default`), a setter per field (documented with the field's docs),
/// [`Reflect`](mkc_core::params::Reflect) (the fields' names, kinds, defaults and docs,
/// the three shared ones last), and [`ParamGuard`] whose `check` runs
/// [`check_common`], then the block given, then returns `Checked { params }` with the
/// checked eigensolver options; and the contract through `clusterer_via_check!`.
///
/// ```
/// // The checked type: holds the checked parameters and fits.
/// pub struct Demo {
///     params: DemoParams,
/// }
/// mkc_core::clusterer! {
///     Demo, "demo", ();
///     fn fit(&self, data, n_clusters, _seed) {
///         Ok(mkc_core::Clustering::new(vec![0; data.n()], n_clusters, ()))
///     }
/// }
/// mkc_mkkm::family_params! {
///     /// A demo method's parameters.
///     pub struct DemoParams => Demo, "demo" {
///         /// Iteration cap.
///         max_iter: usize = 5,
///     }
///     check(&self) { mkc_mkkm::params::check_stopping(1.0, self.max_iter) }
/// }
/// use mkc_core::ParamGuard;
/// assert_eq!(DemoParams::new().max_iter(7).check().unwrap().params.max_iter, 7);
/// assert!(DemoParams::new().max_iter(0).check().is_err());
/// ```
#[macro_export]
macro_rules! family_params {
    (
        $(#[$m:meta])*
        pub struct $name:ident => $checked:ident, $registry:literal {
            $( $(#[$($fa:tt)*])* $field:ident : $ty:ty = $default:expr ),* $(,)?
        }
        check(&$s:ident) $check:block
    ) => {
        $(#[$m])*
        #[derive(Clone, Debug, PartialEq)]
        pub struct $name {
            $( $(#[$($fa)*])* pub $field: $ty, )*
            /// Kernel preprocessing. Default centre, then unit diagonal (the authors' code).
            pub preprocessing: $crate::preprocess::Preprocessing,
            /// Eigensolver options of the H step ([`default_eigen_options`]($crate::params::default_eigen_options)).
            pub eigen: $crate::params::EigenOptions,
            /// Final k-means on the row-normalised H.
            pub labels: $crate::labels::LabelOptions,
        }

        impl Default for $name {
            fn default() -> Self {
                Self::new()
            }
        }

        impl $name {
            /// The defaults (the fields' docs).
            pub fn new() -> Self {
                Self {
                    $( $field: $default, )*
                    preprocessing: $crate::preprocess::Preprocessing::default(),
                    eigen: $crate::params::default_eigen_options(),
                    labels: $crate::labels::LabelOptions::default(),
                }
            }
            mkc_core::setters! {
                reflect reflect_fields;
                $( $(#[$($fa)*])* $field: $ty, )*
                /// Sets `preprocessing`.
                preprocessing: $crate::preprocess::Preprocessing,
                /// Sets `eigen`.
                eigen: $crate::params::EigenOptions,
                /// Sets `labels`.
                labels: $crate::labels::LabelOptions,
            }
        }

        impl mkc_core::params::Reflect for $name {
            fn param_info() -> Vec<mkc_core::params::ParamInfo> {
                Self::new().reflect_fields()
            }
        }

        impl mkc_core::ParamGuard for $name {
            type Checked = $checked;
            fn check(&$s) -> mkc_core::Result<$checked> {
                let eigen = $crate::params::check_common(&$s.eigen, &$s.labels)?;
                $check?;
                Ok($checked {
                    params: $name {
                        eigen,
                        ..$s.clone()
                    },
                })
            }
        }

        mkc_core::clusterer_via_check!($name, $registry);
    };
}

use crate::{Mkkm, MkkmMir};

family_params! {
    /// Parameters of MKKM (Huang et al., 2012) as in the SimpleMKKM authors' baseline
    /// code, unchecked.
    pub struct MkkmParams => Mkkm, "mkkm" {
        /// Stop when the relative objective change is below this. Default 1e-4 (the
        /// authors' baseline).
        tol: f64 = 1e-4,
        /// Iteration cap. Default 50 (the authors' baseline).
        max_iter: usize = 50,
    }
    check(&self) { check_stopping(self.tol, self.max_iter) }
}

family_params! {
    /// Parameters of MKKM-MiR (Liu et al., AAAI 2016; [`crate::mkkm_mir`]), unchecked;
    /// the defaults are the authors' code's (λ, which they search over 2^-15 … 2^10: 1).
    ///
    /// ```
    /// use mkc_mkkm::prelude::*;
    /// assert!(MkkmMirParams::new().lambda(0.5).validate_params().is_ok());
    /// assert!(MkkmMirParams::new().lambda(-1.0).validate_params().is_err());
    /// ```
    pub struct MkkmMirParams => MkkmMir, "mkkm-mir" {
        /// Regularisation weight λ ≥ 0 of `(λ/2) γᵀMγ`, `M_pq = tr(K_p K_q)` (0 gives MKKM
        /// with the QP weight update); the authors search 2^-15 … 2^10. Default 1.
        lambda: f64 = 1.0,
        /// Stop when the relative objective change is below this (after ≥ 3 iterations).
        /// Default 1e-6 (authors).
        tol: f64 = 1e-6,
        /// Iteration cap (ours; the authors have none). Default 100.
        max_iter: usize = 100,
        /// Weights below this are set to 0 after each QP (authors: 1e-6).
        zero_weight: f64 = 1e-6,
    }
    check(&self) { check_regularised(self.lambda, self.tol, self.max_iter, self.zero_weight) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use mkc_core::Clusterer;

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
            assert_eq!(rejected_param(&r), Some(name), "case {i}: {r:?}");
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
