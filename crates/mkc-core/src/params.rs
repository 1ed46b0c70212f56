//! Hyperparameter checking in the manner of linfa's `ParamGuard`, and the macros that
//! give every parameter builder the same shape ([`setters!`](crate::setters),
//! [`clusterer_via_check!`](crate::clusterer_via_check)).

use crate::Result;

/// A set of hyperparameters that is checked once into a valid form.
///
/// Builders hold unchecked values; `check` validates every field and returns the
/// checked parameters that the algorithm actually consumes, so the algorithm never
/// re-validates and never sees an impossible value.
pub trait ParamGuard {
    /// The validated form.
    type Checked;
    /// Validate every field; the error names the offending parameter.
    fn check(&self) -> Result<Self::Checked>;
}

/// Implement [`crate::Clusterer`] for an unchecked parameter struct whose checked form
/// (its [`ParamGuard::Checked`]) implements it: `fit` checks the parameters and then runs
/// the checked method, so users fit straight from the builder (as linfa's blanket impl
/// does). `clusterer_via_check!(KernelKMeansParams, "kkm")`.
#[macro_export]
macro_rules! clusterer_via_check {
    ($params:ty, $name:expr) => {
        impl $crate::Clusterer for $params {
            type Diagnostics =
                <<$params as $crate::ParamGuard>::Checked as $crate::Clusterer>::Diagnostics;
            fn name(&self) -> &'static str {
                $name
            }
            fn validate_params(&self) -> $crate::Result<()> {
                $crate::ParamGuard::check(self).map(|_| ())
            }
            fn fit(
                &self,
                data: &$crate::KernelSet<'_>,
                n_clusters: usize,
                seed: u64,
            ) -> $crate::Result<$crate::Clustering<Self::Diagnostics>> {
                $crate::Clusterer::fit(&$crate::ParamGuard::check(self)?, data, n_clusters, seed)
            }
            fn fit_restarts(
                &self,
                data: &$crate::KernelSet<'_>,
                n_clusters: usize,
                seeds: &[u64],
            ) -> Vec<$crate::Result<$crate::Clustering<Self::Diagnostics>>> {
                match $crate::ParamGuard::check(self) {
                    Ok(c) => $crate::Clusterer::fit_restarts(&c, data, n_clusters, seeds),
                    // The check fails the same way for every seed.
                    Err(_) => seeds
                        .iter()
                        .map(|&s| $crate::Clusterer::fit(self, data, n_clusters, s))
                        .collect(),
                }
            }
        }
    };
}

/// Builder setters for a parameter struct: one `pub fn name(mut self, value: T) -> Self`
/// per listed field, with the doc comment given. A field inside a nested struct names
/// its path after `=>`. Use inside an `impl` block:
///
/// ```
/// #[derive(Default)]
/// struct Inner { tol: f64 }
/// #[derive(Default)]
/// struct Params { p: f64, inner: Inner }
/// impl Params {
///     mkc_core::setters! {
///         /// The exponent.
///         p: f64,
///         /// Relative tolerance.
///         tol: f64 => inner,
///     }
/// }
/// let q = Params::default().p(2.0).tol(1e-3);
/// assert_eq!((q.p, q.inner.tol), (2.0, 1e-3));
/// ```
#[macro_export]
macro_rules! setters {
    ($( $(#[$doc:meta])* $name:ident : $ty:ty $(=> $($path:ident).+)? ),* $(,)?) => {
        $(
            $(#[$doc])*
            pub fn $name(mut self, value: $ty) -> Self {
                self $($(.$path)+)? .$name = value;
                self
            }
        )*
    };
}

/// Declare an unchecked parameter struct (`Debug, Clone, PartialEq`) with its defaults:
/// each field is listed with its visibility, type and default after `=`; `new()` (doc
/// given after the struct) builds the defaults, `Default` calls it, and every field
/// before an optional `;` gets a builder setter documented with the field's docs (fields
/// after the `;` get none: set them through [`setters!`](crate::setters) with a path).
///
/// ```
/// mkc_core::params! {
///     /// Parameters of a method.
///     pub struct P {
///         /// The exponent.
///         pub p: f64 = 2.0,
///         /// Iteration cap.
///         max_iter: usize = 10,
///         ;
///         inner: (u8, u8) = (1, 2),
///     }
///     /// The defaults.
///     new;
/// }
/// let q = P::default().p(3.0).max_iter(4);
/// assert_eq!((q.p, q.max_iter, q.inner), (3.0, 4, (1, 2)));
/// assert_eq!(P::new(), P::default());
/// ```
#[macro_export]
macro_rules! params {
    (
        $(#[$m:meta])*
        $svis:vis struct $name:ident {
            $( $(#[$fm:meta])* $fvis:vis $field:ident : $ty:ty = $default:expr ),* $(,)?
            $(; $( $(#[$hm:meta])* $hvis:vis $hidden:ident : $hty:ty = $hdefault:expr ),* $(,)? )?
        }
        $(#[$nm:meta])*
        new;
    ) => {
        $(#[$m])*
        #[derive(Debug, Clone, PartialEq)]
        $svis struct $name {
            $( $(#[$fm])* $fvis $field: $ty, )*
            $($( $(#[$hm])* $hvis $hidden: $hty, )*)?
        }

        impl Default for $name {
            fn default() -> Self {
                Self::new()
            }
        }

        impl $name {
            $(#[$nm])*
            pub fn new() -> Self {
                Self {
                    $( $field: $default, )*
                    $($( $hidden: $hdefault, )*)?
                }
            }
            $crate::setters! { $( $(#[$fm])* $field: $ty, )* }
        }
    };
}
