//! Hyperparameter checking in the manner of linfa's `ParamGuard`, and a `Fit` trait.

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

/// Fit a model (usually checked parameters) to a dataset `D`.
pub trait Fit<D: ?Sized> {
    /// What fitting produces (labels, weights, diagnostics).
    type Output;
    /// Run the algorithm.
    fn fit(&self, data: &D) -> Result<Self::Output>;
}
