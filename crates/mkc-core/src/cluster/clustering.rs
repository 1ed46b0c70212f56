//! [`Clustering`]: the one result shape every method returns.

use super::timings::Timings;
use super::weights::KernelWeights;

/// Method-specific diagnostics: a typed struct per method (documented in its crate), which
/// can also list itself as `(name, value)` pairs for run records, tables and Python.
pub trait Diagnostics: std::fmt::Debug + Clone + Send + Sync + 'static {
    /// The diagnostics as named numbers, in a fixed order (counts as `f64`).
    fn entries(&self) -> Vec<(String, f64)>;
}

/// A diagnostics field that lists as a number: floats as they are, counts as `f64`,
/// flags as 0/1. Used by [`impl_diagnostics!`](crate::impl_diagnostics).
pub trait DiagnosticValue {
    /// The value as a number.
    fn value(&self) -> f64;
}

impl DiagnosticValue for f64 {
    fn value(&self) -> f64 {
        *self
    }
}

impl DiagnosticValue for usize {
    fn value(&self) -> f64 {
        *self as f64
    }
}

impl DiagnosticValue for u32 {
    fn value(&self) -> f64 {
        f64::from(*self)
    }
}

impl DiagnosticValue for bool {
    fn value(&self) -> f64 {
        f64::from(u8::from(*self))
    }
}

/// Implement [`Diagnostics`] for a struct by listing the fields to record, in order, each
/// under its own name or under the name given after `as`:
///
/// ```
/// #[derive(Debug, Clone)]
/// struct D { objective: f64, best_restart: usize, kkt: f64 }
/// mkc_core::impl_diagnostics!(D { objective, best_restart, kkt as "kkt_residual" });
/// use mkc_core::Diagnostics;
/// let d = D { objective: 1.5, best_restart: 2, kkt: 0.0 };
/// assert_eq!(d.entries()[1], ("best_restart".to_string(), 2.0));
/// assert_eq!(d.entries()[2].0, "kkt_residual");
/// ```
#[macro_export]
macro_rules! impl_diagnostics {
    ($ty:ty { $($field:ident $(as $label:literal)?),* $(,)? }) => {
        impl $crate::Diagnostics for $ty {
            fn entries(&self) -> Vec<(String, f64)> {
                vec![$((
                    $crate::impl_diagnostics!(@label $field $($label)?).to_string(),
                    $crate::DiagnosticValue::value(&self.$field),
                )),*]
            }
        }
    };
    (@label $field:ident) => { stringify!($field) };
    (@label $field:ident $label:literal) => { $label };
}

/// Declare a method's diagnostics struct — `#[derive(Debug, Clone, PartialEq)]`,
/// `#[non_exhaustive]`, every field public — and implement [`Diagnostics`] listing every
/// field under its own name (fields must be [`DiagnosticValue`]s; for other fields write
/// the struct by hand and use [`impl_diagnostics!`](crate::impl_diagnostics)):
///
/// ```
/// mkc_core::diagnostics! {
///     /// Diagnostics of a method.
///     pub struct D {
///         /// Final objective.
///         objective: f64,
///         /// Restarts run.
///         restarts: usize,
///     }
/// }
/// use mkc_core::Diagnostics;
/// assert_eq!(D { objective: 1.0, restarts: 3 }.entries()[1], ("restarts".to_string(), 3.0));
/// ```
#[macro_export]
macro_rules! diagnostics {
    (
        $(#[$m:meta])*
        pub struct $name:ident { $( $(#[$fm:meta])* $field:ident : $ty:ty ),* $(,)? }
    ) => {
        $(#[$m])*
        #[derive(Debug, Clone, PartialEq)]
        #[non_exhaustive]
        pub struct $name {
            $( $(#[$fm])* pub $field: $ty, )*
        }
        $crate::impl_diagnostics!($name { $($field),* });
    };
}

/// No diagnostics.
impl Diagnostics for () {
    fn entries(&self) -> Vec<(String, f64)> {
        Vec::new()
    }
}

/// Diagnostics already listed as `(name, value)` pairs: what [`crate::DynClusterer`]
/// returns, whatever the method.
impl Diagnostics for Vec<(String, f64)> {
    fn entries(&self) -> Vec<(String, f64)> {
        self.clone()
    }
}

/// The result of one fit, with the same names for every method of the workspace.
///
/// Built by the methods with [`Clustering::new`] and the setters; read through the public
/// fields. `#[non_exhaustive]`: fields may be added without breaking users.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Clustering<D = ()> {
    /// Cluster of each sample, `0..n_clusters`.
    pub labels: Vec<usize>,
    /// The number of clusters asked for (some may be empty; see [`Clustering::n_nonempty`]).
    pub n_clusters: usize,
    /// Learned kernel weights and the set they live on; `None` for methods that learn none.
    pub kernel_weights: Option<KernelWeights>,
    /// The objective the method optimises, one value per outer iteration (its sense,
    /// minimised or maximised, is in the method's docs). Empty for methods without one.
    pub objective: Vec<f64>,
    /// Outer iterations performed.
    pub iterations: usize,
    /// Whether the method's stopping rule was met (`true` for non-iterative methods);
    /// `false` means it stopped at its iteration cap.
    pub converged: bool,
    /// Wall-clock seconds by phase.
    pub timings: Timings,
    /// Method-specific diagnostics (a typed struct, see the method's crate).
    pub diagnostics: D,
}

impl<D> Clustering<D> {
    /// A result with `labels` and `diagnostics`, converged, with no weights, an empty
    /// objective trace, zero iterations and no timings.
    pub fn new(labels: Vec<usize>, n_clusters: usize, diagnostics: D) -> Self {
        Self {
            labels,
            n_clusters,
            kernel_weights: None,
            objective: Vec::new(),
            iterations: 0,
            converged: true,
            timings: Timings::default(),
            diagnostics,
        }
    }

    /// Set the learned kernel weights.
    pub fn with_weights(mut self, weights: KernelWeights) -> Self {
        self.kernel_weights = Some(weights);
        self
    }

    /// Set the objective trace.
    pub fn with_objective(mut self, trace: Vec<f64>) -> Self {
        self.objective = trace;
        self
    }

    /// Set the iteration count and whether the stopping rule was met.
    pub fn with_iterations(mut self, iterations: usize, converged: bool) -> Self {
        self.iterations = iterations;
        self.converged = converged;
        self
    }

    /// Set the timings.
    pub fn with_timings(mut self, timings: Timings) -> Self {
        self.timings = timings;
        self
    }

    /// This result with `labels` for `n_clusters` clusters in place of its own: for methods
    /// that compute everything but the labels once (weights, objective, …; a result
    /// with no labels yet) and then label it once per seed.
    pub fn relabelled(&self, labels: Vec<usize>, n_clusters: usize) -> Self
    where
        D: Clone,
    {
        Self {
            labels,
            n_clusters,
            ..self.clone()
        }
    }

    /// The kernel weights as a slice, if learned.
    pub fn weights(&self) -> Option<&[f64]> {
        self.kernel_weights.as_ref().map(|w| w.values.as_slice())
    }

    /// The last objective value, if any.
    pub fn final_objective(&self) -> Option<f64> {
        self.objective.last().copied()
    }

    /// The number of clusters that received at least one sample.
    pub fn n_nonempty(&self) -> usize {
        let mut seen = vec![false; self.n_clusters.max(1)];
        for &l in &self.labels {
            if l < seen.len() {
                seen[l] = true;
            }
        }
        seen.iter().filter(|&&s| s).count()
    }

    /// Replace the diagnostics (e.g. to erase their type).
    pub fn map_diagnostics<E>(self, f: impl FnOnce(D) -> E) -> Clustering<E> {
        Clustering {
            labels: self.labels,
            n_clusters: self.n_clusters,
            kernel_weights: self.kernel_weights,
            objective: self.objective,
            iterations: self.iterations,
            converged: self.converged,
            timings: self.timings,
            diagnostics: f(self.diagnostics),
        }
    }
}

impl<D: Diagnostics> Clustering<D> {
    /// The same result with its diagnostics listed as `(name, value)` pairs.
    pub fn erase(self) -> Clustering<Vec<(String, f64)>> {
        self.map_diagnostics(|d| d.entries())
    }
}
