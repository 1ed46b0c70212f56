//! Hyperparameter checking in the manner of linfa's `ParamGuard`, the macros that
//! give every parameter builder the same shape ([`params!`](macro@crate::params),
//! [`setters!`](crate::setters), [`checked!`](crate::checked),
//! [`clusterer_via_check!`](crate::clusterer_via_check)),
//! and the builders' reflection ([`Reflect`], module [`reflect`]).

use crate::Result;

pub mod reflect;
pub use reflect::{float_text, ParamInfo, ParamType, Reflect, ValueKind, Words};

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

/// Declare the checked form of a parameter builder that holds the builder itself: the
/// struct `NAME { p: PARAMS }` (`Debug, Clone, PartialEq`, doc given) and
/// `impl ParamGuard for PARAMS`, whose `check` runs the given block on the builder (bound
/// to the name before it) and then wraps a clone. The block validates and returns
/// `Result<()>`; the algorithm reads the fields through `self.p`.
///
/// ```
/// use mkc_core::{validate, ParamGuard};
/// mkc_core::params! {
///     /// Parameters.
///     pub struct FooParams {
///         /// Tolerance (> 0).
///         tol: f64 = 1e-4,
///     }
///     /// Defaults.
///     new;
/// }
/// mkc_core::checked! {
///     /// Checked parameters.
///     pub struct Foo(FooParams);
///     |p| validate::positive("tol", p.tol)
/// }
/// assert!(FooParams::new().check().is_ok());
/// let err = FooParams::new().tol(-1.0).check().unwrap_err();
/// assert!(err.to_string().contains("tol"));
/// ```
#[macro_export]
macro_rules! checked {
    ($(#[$m:meta])* $vis:vis struct $checked:ident($params:ty); |$p:ident| $body:expr) => {
        $(#[$m])*
        #[derive(Debug, Clone, PartialEq)]
        $vis struct $checked {
            p: $params,
        }

        impl $crate::ParamGuard for $params {
            type Checked = $checked;
            fn check(&self) -> $crate::Result<$checked> {
                let $p = self;
                let checked: $crate::Result<()> = $body;
                checked?;
                Ok($checked { p: self.clone() })
            }
        }
    };
}

/// Builder setters for a parameter struct: one `pub fn name(mut self, value: T) -> Self`
/// per listed field, with the doc comment given. A field inside a nested struct names
/// its path after `=>`; a setter named differently from its field names the field in
/// parentheses (`kmeans_max_iter(max_iter): usize => kmeans` sets `self.kmeans.max_iter`).
/// Use inside an `impl` block. A first line `reflect NAME;` also generates a hidden
/// `fn NAME(&self) -> Vec<ParamInfo>` listing the setters' [`ParamInfo`] with the
/// values of `self` as defaults (for [`params!`](macro@crate::params)'s `reflect also`).
///
/// ```
/// #[derive(Default)]
/// struct Inner { tol: f64, max_iter: usize }
/// #[derive(Default)]
/// struct Params { p: f64, inner: Inner }
/// impl Params {
///     mkc_core::setters! {
///         reflect inner_params;
///         /// The exponent.
///         p: f64,
///         /// Relative tolerance.
///         tol: f64 => inner,
///         /// Inner iteration cap.
///         inner_max_iter(max_iter): usize => inner,
///     }
/// }
/// let q = Params::default().p(2.0).tol(1e-3).inner_max_iter(7);
/// assert_eq!((q.p, q.inner.tol, q.inner.max_iter), (2.0, 1e-3, 7));
/// let info = q.inner_params();
/// assert_eq!((info[2].name, info[2].default.as_str()), ("inner_max_iter", "7"));
/// ```
#[macro_export]
macro_rules! setters {
    (reflect $rf:ident; $($body:tt)*) => {
        $crate::setters! { $($body)* }
        $crate::__reflect_setters! { $rf; $($body)* }
    };
    ($( $(#[$($attr:tt)*])* $name:ident $(($field:ident))? : $ty:ty $(=> $($path:ident).+)? ),* $(,)?) => {
        $(
            $(#[$($attr)*])*
            pub fn $name(mut self, value: $ty) -> Self {
                $crate::__field!(self $($(.$path)+)?, $name $(, $field)?) = value;
                self
            }
        )*
    };
}

/// The field a setter sets (its own name, or the one given in parentheses).
#[doc(hidden)]
#[macro_export]
macro_rules! __field {
    ($s:ident $(.$p:ident)*, $name:ident) => { $s $(.$p)* .$name };
    ($s:ident $(.$p:ident)*, $name:ident, $field:ident) => { $s $(.$p)* .$field };
}

/// The reflection function of a [`setters!`](crate::setters) block.
#[doc(hidden)]
#[macro_export]
macro_rules! __reflect_setters {
    ($rf:ident; $( $(#[$($attr:tt)*])* $name:ident $(($field:ident))? : $ty:ty $(=> $($path:ident).+)? ),* $(,)?) => {
        #[doc(hidden)]
        pub fn $rf(&self) -> ::std::vec::Vec<$crate::params::ParamInfo> {
            ::std::vec![$(
                $crate::__param_info!(
                    $crate::__field!(self $($(.$path)+)?, $name $(, $field)?),
                    $name,
                    $crate::__doc_text!($([$($attr)*])*)
                )
            ),*]
        }
    };
}

/// Declare an unchecked parameter struct (`Debug, Clone, PartialEq`) with its defaults:
/// each field is listed with its visibility, type and default after `=`; `new()` (doc
/// given after the struct) builds the defaults, `Default` calls it, and every field
/// before an optional `;` gets a builder setter documented with the field's docs (fields
/// after the `;` get none: set them through [`setters!`](crate::setters) with a path).
///
/// The struct implements [`Reflect`]: the fields before the `;` (name, kind of value,
/// default, doc), then those of the reflected `setters!` blocks named in an optional last
/// line `reflect also NAME, …;`.
///
/// ```
/// use mkc_core::params::Reflect;
/// #[derive(Debug, Clone, PartialEq)]
/// pub struct Inner { a: u32, b: u32 }
/// mkc_core::params! {
///     /// Parameters of a method.
///     pub struct P {
///         /// The exponent.
///         pub p: f64 = 2.0,
///         /// Iteration cap.
///         max_iter: usize = 10,
///         ;
///         inner: Inner = Inner { a: 1, b: 2 },
///     }
///     /// The defaults.
///     new;
///     reflect also inner_params;
/// }
/// impl P {
///     mkc_core::setters! {
///         reflect inner_params;
///         /// The first inner entry.
///         first(a): u32 => inner,
///     }
/// }
/// let q = P::default().p(3.0).max_iter(4).first(5);
/// assert_eq!((q.p, q.max_iter, q.inner.a, q.inner.b), (3.0, 4, 5, 2));
/// assert_eq!(P::new(), P::default());
/// let info = P::param_info();
/// let names: Vec<_> = info.iter().map(|i| i.name).collect();
/// assert_eq!(names, ["p", "max_iter", "first"]);
/// assert_eq!(info[2].default, "1");
/// assert_eq!(info[2].help(), "The first inner entry.");
/// ```
#[macro_export]
macro_rules! params {
    (
        $(#[$m:meta])*
        $svis:vis struct $name:ident {
            $( $(#[$($fa:tt)*])* $fvis:vis $field:ident : $ty:ty = $default:expr ),* $(,)?
            $(; $( $(#[$hm:meta])* $hvis:vis $hidden:ident : $hty:ty = $hdefault:expr ),* $(,)? )?
        }
        $(#[$nm:meta])*
        new;
        $(reflect also $($also:ident),+ ;)?
    ) => {
        $(#[$m])*
        #[derive(Debug, Clone, PartialEq)]
        $svis struct $name {
            $( $(#[$($fa)*])* $fvis $field: $ty, )*
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
            $crate::setters! { reflect __reflect_fields; $( $(#[$($fa)*])* $field: $ty, )* }
        }

        impl $crate::params::Reflect for $name {
            fn param_info() -> ::std::vec::Vec<$crate::params::ParamInfo> {
                let defaults = Self::new();
                #[allow(unused_mut)]
                let mut info = defaults.__reflect_fields();
                $($( info.extend(defaults.$also()); )+)?
                info
            }
        }
    };
}
