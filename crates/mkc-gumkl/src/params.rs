//! Hyperparameters of GUMKL and MVKKM: unchecked builders ([`GumklParams`], [`MvkkmParams`])
//! checked once into the method types [`Gumkl`] and [`Mvkkm`]
//! ([`ParamGuard`]). Neither holds a number of clusters or a seed: the number of clusters is
//! given to [`Clusterer::fit`](mkc_core::Clusterer::fit), and both methods are deterministic
//! (the seed is ignored).
//!
//! Choices the papers leave open are fixed here and documented on each field:
//!
//! * **ε (GUMKL, Algorithm 1 line 9).** The paper stops when `|Ẽ(t) − Ẽ(t−1)| < ε` and gives no
//!   value. An absolute ε depends on the scale of the kernels (and `Ẽ` shrinks like `w^p`), so we
//!   use the *relative* change `|Ẽ(t) − Ẽ(t−1)| ≤ ε·|Ẽ(t−1)|` with ε = 1e-4, the tolerance of the
//!   same authors' multi-view kernel k-means code (MVKKM), and cap the loop at 100 iterations.
//! * **Refinement.** The paper reports results "always refined by a run of kernel k-means" on the
//!   composite kernel produced by GUMKL; we do the same by default (`refine = true`), starting
//!   kernel k-means from GUMKL's own partition (the paper does not say how it was started; a
//!   deterministic start keeps GUMKL seed-free).
//! * **p = ∞** is accepted and means the paper's uniform-sum baseline: uniform weights, a single
//!   iteration of Algorithm 1 without a weight update.

use mkc_core::{mkc_ensure, Result};

#[cfg(doc)]
use {
    crate::{gumkl::Gumkl, mvkkm::Mvkkm},
    mkc_core::ParamGuard,
};

/// Default relative tolerance ε on the objective change (GUMKL and MVKKM).
pub const DEFAULT_TOL: f64 = 1e-4;
/// Default cap on the outer iterations (GUMKL and MVKKM).
pub const DEFAULT_MAX_ITER: usize = 100;
/// Default cap on the iterations of one inner k-medoids / kernel k-means run.
pub const DEFAULT_INNER_MAX_ITER: usize = 300;
/// MVKKM's weight floor: weights below it are set to 0 and the rest renormalised (authors' code).
pub const MVKKM_WEIGHT_FLOOR: f64 = 1e-5;
/// Default exponent p of both methods: the middle of the range [2.5, 3.5] where the GUMKL
/// paper usually found the best NMI (the MVKKM code has no default).
pub const DEFAULT_P: f64 = 3.0;

/// Check the exponent `p` of eq. (4): `p ≥ 1`, finite or `+∞` (uniform sum).
pub(crate) fn check_p(p: f64) -> Result<()> {
    mkc_ensure!(!p.is_nan(), param "p", p, "must be a number >= 1 (or +inf for the uniform sum)");
    mkc_ensure!(
        p >= 1.0,
        param "p", p,
        "must be >= 1: for p < 1 eq. (6) is concave in w and the update (7) would increase it"
    );
    Ok(())
}

/// The settings of the alternation GUMKL and MVKKM share: the exponent p of the composite
/// kernel `Σ_v w_v^p K_v`, the stopping rule of the outer loop and the cap of each inner
/// clustering run.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Outer {
    pub(crate) p: f64,
    pub(crate) tol: f64,
    pub(crate) max_iter: usize,
    pub(crate) inner_max_iter: usize,
}

impl Default for Outer {
    fn default() -> Self {
        Self {
            p: DEFAULT_P,
            tol: DEFAULT_TOL,
            max_iter: DEFAULT_MAX_ITER,
            inner_max_iter: DEFAULT_INNER_MAX_ITER,
        }
    }
}

impl Outer {
    pub(crate) fn check(&self) -> Result<()> {
        check_p(self.p)?;
        mkc_core::validate::non_negative("tol", self.tol)?;
        mkc_ensure!(self.max_iter >= 1, param "max_iter", self.max_iter, "must be at least 1");
        mkc_ensure!(self.inner_max_iter >= 1, param "inner_max_iter", self.inner_max_iter, "must be at least 1");
        Ok(())
    }

    /// Whether the outer loop stops at `obj` after `prev`: relative change at most `tol`.
    pub(crate) fn settled(&self, prev: Option<f64>, obj: f64) -> bool {
        crate::alternation::settled(self.tol, prev, obj)
    }
}

/// The setters of [`Outer`] on a builder holding it as `outer` (one copy for both methods).
macro_rules! outer_setters {
    () => {
        mkc_core::setters! {
            reflect reflect_outer;
            /// Exponent p ≥ 1 of the composite kernel `Σ_v w_v^p K_v` (eq. 4): p = 1 is the
            /// best single view, `f64::INFINITY` (`inf`) the uniform-sum baseline (one
            /// iteration, no weight update). Default 3, the middle of the range 2.5–3.5
            /// where the GUMKL paper usually found the best NMI.
            p: f64 => outer,
            /// Relative tolerance ε on the change of the objective between outer iterations
            /// (GUMKL's Algorithm 1, line 9), ≥ 0. Default 1e-4, the authors' MVKKM code
            /// (the GUMKL paper states no ε).
            tol: f64 => outer,
            /// Maximum number of outer iterations (≥ 1).
            max_iter: usize => outer,
            /// Maximum number of iterations of each inner run (k-medoids, kernel k-means, and the
            /// kernel k-means runs of MVKKM's global kernel k-means start), ≥ 1.
            inner_max_iter: usize => outer,
        }
    };
}

mkc_core::params! {
    /// Parameters of GUMKL (Algorithm 1); [`ParamGuard::check`] gives the method, [`Gumkl`].
    pub struct GumklParams {
        /// Refine the result with kernel k-means on the final composite kernel (Sect. 3.2;
        /// on by default, the paper's reported setting).
        pub(crate) refine: bool = true,
        ;
        pub(crate) outer: Outer = Outer::default(),
    }
    /// p = 3 (the middle of the range [2.5, 3.5] where the paper usually found the best NMI),
    /// ε = 1e-4 (relative), 100 iterations, refinement on.
    new;
    reflect also reflect_outer;
}

impl GumklParams {
    /// Baseline (i) of the paper: the best single view, i.e. GUMKL with p = 1 (eq. 8).
    pub fn best_single_view() -> Self {
        Self::new().p(1.0)
    }
    /// Baseline (ii) of the paper: the uniform sum of the kernels (p → ∞), one iteration of
    /// Algorithm 1 without a weight update.
    pub fn uniform() -> Self {
        Self::new().p(f64::INFINITY)
    }
    outer_setters!();
}

/// How MVKKM obtains its initial partition (on the uniform combination of the kernels).
#[derive(Debug, Clone, PartialEq, Default)]
pub enum MvkkmInit {
    /// Global kernel k-means (Tzortzis & Likas 2009), as in the authors' code: for m = 2..M every
    /// point is tried as the seed of the m-th cluster. Exact but costs n kernel k-means runs per
    /// cluster added (run in parallel).
    #[default]
    GlobalKernelKMeans,
    /// The fast variant: only the point with the largest bound (eq. 3 with cluster means instead
    /// of medoids) is tried as the seed of each new cluster.
    FastGlobalKernelKMeans,
    /// A given partition (length n, labels `0..M`; checked when fitting) — e.g. a global kernel
    /// k-means result computed once and shared by runs with different p.
    Labels(Vec<usize>),
}

mkc_core::param_words!(MvkkmInit {
    "global" => MvkkmInit::GlobalKernelKMeans,
    "fast-global" => MvkkmInit::FastGlobalKernelKMeans;
    _ => "labels"
});

mkc_core::params! {
    /// Parameters of MVKKM (Tzortzis & Likas, ICDM 2012); [`ParamGuard::check`] gives the
    /// method, [`Mvkkm`].
    pub struct MvkkmParams {
        /// Weights below this are set to 0 and the others renormalised (0 disables), in
        /// `[0, 1)` (the authors' code: 1e-5).
        pub(crate) weight_floor: f64 = MVKKM_WEIGHT_FLOOR,
        /// Initial partition: global kernel k-means (`global`, the authors' code) or its
        /// fast variant (`fast-global`); [`MvkkmInit`].
        pub(crate) init: MvkkmInit = MvkkmInit::default(),
        ;
        pub(crate) outer: Outer = Outer::default(),
    }
    /// p = 3, relative tolerance 1e-4, weight floor 1e-5, global kernel k-means
    /// initialisation — the authors' code's settings except p, which has no default there.
    new;
    reflect also reflect_outer;
}

impl MvkkmParams {
    outer_setters!();
}

impl MvkkmParams {
    /// The checks of [`MvkkmParams::check`](ParamGuard::check): the alternation's settings
    /// and the weight floor.
    pub(crate) fn validate(&self) -> Result<()> {
        self.outer.check()?;
        mkc_ensure!(
            self.weight_floor.is_finite() && (0.0..1.0).contains(&self.weight_floor),
            param "weight_floor", self.weight_floor, "must be in [0, 1)"
        );
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use mkc_core::{Clusterer, Error, ParamGuard};

    /// The same bad setting on both builders, and the parameter it must be named by.
    type Bad = (
        fn(GumklParams) -> GumklParams,
        fn(MvkkmParams) -> MvkkmParams,
        &'static str,
    );

    fn rejects(c: &dyn Fn() -> Result<()>, name: &str) {
        let e = c().unwrap_err();
        assert!(
            matches!(&e, Error::InvalidParam { name: n, .. } if n == name),
            "{name}: {e}"
        );
    }

    #[test]
    fn every_bad_value_is_an_invalid_param_naming_it() {
        let bad_outer: [Bad; 5] = [
            (|g| g.p(0.5), |m| m.p(0.5), "p"),
            (|g| g.p(f64::NAN), |m| m.p(f64::NAN), "p"),
            (|g| g.tol(-1.0), |m| m.tol(-1.0), "tol"),
            (|g| g.max_iter(0), |m| m.max_iter(0), "max_iter"),
            (
                |g| g.inner_max_iter(0),
                |m| m.inner_max_iter(0),
                "inner_max_iter",
            ),
        ];
        for (g, m, name) in bad_outer {
            rejects(&|| g(GumklParams::new()).validate_params(), name);
            rejects(&|| m(MvkkmParams::new()).validate_params(), name);
        }
        for p in [0.0, -1.0, f64::NEG_INFINITY] {
            rejects(&|| GumklParams::new().p(p).check().map(|_| ()), "p");
        }
        rejects(
            &|| GumklParams::new().tol(f64::NAN).validate_params(),
            "tol",
        );
        for floor in [1.0, -0.1, f64::NAN] {
            rejects(
                &|| MvkkmParams::new().weight_floor(floor).validate_params(),
                "weight_floor",
            );
        }
    }

    #[test]
    fn baselines_and_defaults() {
        assert_eq!(GumklParams::best_single_view().check().unwrap().p(), 1.0);
        assert_eq!(GumklParams::uniform().check().unwrap().p(), f64::INFINITY);
        let g = GumklParams::default();
        assert_eq!(g.check().unwrap().p(), 3.0);
        assert_eq!((g.outer.p, g.outer.tol, g.refine), (3.0, 1e-4, true));
        let m = MvkkmParams::default();
        assert_eq!(m.check().unwrap().p(), 3.0);
        assert_eq!(
            (m.outer.p, m.weight_floor, m.init.clone()),
            (3.0, 1e-5, MvkkmInit::GlobalKernelKMeans)
        );
        assert_eq!(Clusterer::name(&GumklParams::new()), "gumkl");
        assert_eq!(Clusterer::name(&MvkkmParams::new()), "mvkkm");
    }
}
