//! Hyperparameters of GUMKL and MVKKM: builders checked once into a valid form
//! ([`ParamGuard`]).
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

use mkc_core::{mkc_ensure, Error, ParamGuard, Result};

/// Default relative tolerance ε on the objective change (GUMKL and MVKKM).
pub const DEFAULT_TOL: f64 = 1e-4;
/// Default cap on the outer iterations (GUMKL and MVKKM).
pub const DEFAULT_MAX_ITER: usize = 100;
/// Default cap on the iterations of one inner k-medoids / kernel k-means run.
pub const DEFAULT_INNER_MAX_ITER: usize = 300;
/// MVKKM's weight floor: weights below it are set to 0 and the rest renormalised (authors' code).
pub const MVKKM_WEIGHT_FLOOR: f64 = 1e-5;

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

fn check_common(
    n_clusters: usize,
    p: f64,
    tol: f64,
    max_iter: usize,
    inner_max_iter: usize,
) -> Result<()> {
    mkc_ensure!(n_clusters >= 1, param "n_clusters", n_clusters, "must be at least 1");
    check_p(p)?;
    mkc_core::validate::non_negative("tol", tol)?;
    mkc_ensure!(max_iter >= 1, param "max_iter", max_iter, "must be at least 1");
    mkc_ensure!(inner_max_iter >= 1, param "inner_max_iter", inner_max_iter, "must be at least 1");
    Ok(())
}

/// Parameters of GUMKL (Algorithm 1). Build with [`GumklParams::new`], then [`ParamGuard::check`].
#[derive(Debug, Clone, PartialEq)]
pub struct GumklParams {
    n_clusters: usize,
    p: f64,
    tol: f64,
    max_iter: usize,
    inner_max_iter: usize,
    refine: bool,
}

impl GumklParams {
    /// `M = n_clusters` clusters, p = 3 (the middle of the range [2.5, 3.5] where the paper
    /// usually found the best NMI), ε = 1e-4 (relative), 100 iterations, refinement on.
    pub fn new(n_clusters: usize) -> Self {
        Self {
            n_clusters,
            p: 3.0,
            tol: DEFAULT_TOL,
            max_iter: DEFAULT_MAX_ITER,
            inner_max_iter: DEFAULT_INNER_MAX_ITER,
            refine: true,
        }
    }
    /// Baseline (i) of the paper: the best single view, i.e. GUMKL with p = 1 (eq. 8).
    pub fn best_single_view(n_clusters: usize) -> Self {
        Self::new(n_clusters).p(1.0)
    }
    /// Baseline (ii) of the paper: the uniform sum of the kernels (p → ∞), one iteration of
    /// Algorithm 1 without a weight update.
    pub fn uniform(n_clusters: usize) -> Self {
        Self::new(n_clusters).p(f64::INFINITY)
    }
    /// Exponent p ≥ 1 of eq. (4); `f64::INFINITY` gives the uniform-sum baseline.
    pub fn p(mut self, p: f64) -> Self {
        self.p = p;
        self
    }
    /// Relative tolerance ε on the change of the objective (Algorithm 1, line 9).
    pub fn tol(mut self, tol: f64) -> Self {
        self.tol = tol;
        self
    }
    /// Maximum number of outer iterations of Algorithm 1.
    pub fn max_iter(mut self, max_iter: usize) -> Self {
        self.max_iter = max_iter;
        self
    }
    /// Maximum number of iterations of each k-medoids run and of the refining kernel k-means.
    pub fn inner_max_iter(mut self, inner_max_iter: usize) -> Self {
        self.inner_max_iter = inner_max_iter;
        self
    }
    /// Refine the result with kernel k-means on the final composite kernel (Sect. 3.2).
    pub fn refine(mut self, refine: bool) -> Self {
        self.refine = refine;
        self
    }
}

/// Checked GUMKL parameters; run with [`GumklChecked::fit`](crate::GumklChecked::fit).
#[derive(Debug, Clone, PartialEq)]
pub struct GumklChecked {
    pub(crate) n_clusters: usize,
    pub(crate) p: f64,
    pub(crate) tol: f64,
    pub(crate) max_iter: usize,
    pub(crate) inner_max_iter: usize,
    pub(crate) refine: bool,
}

impl GumklChecked {
    /// Number of clusters M.
    pub fn n_clusters(&self) -> usize {
        self.n_clusters
    }
    /// Exponent p (possibly `+∞`).
    pub fn p(&self) -> f64 {
        self.p
    }
}

impl ParamGuard for GumklParams {
    type Checked = GumklChecked;
    fn check(&self) -> Result<GumklChecked> {
        check_common(
            self.n_clusters,
            self.p,
            self.tol,
            self.max_iter,
            self.inner_max_iter,
        )?;
        Ok(GumklChecked {
            n_clusters: self.n_clusters,
            p: self.p,
            tol: self.tol,
            max_iter: self.max_iter,
            inner_max_iter: self.inner_max_iter,
            refine: self.refine,
        })
    }
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
    /// A given partition (labels `0..M`, every cluster non-empty) — e.g. a global kernel k-means
    /// result computed once and shared by runs with different p.
    Labels(Vec<usize>),
}

/// Parameters of MVKKM (Tzortzis & Likas, ICDM 2012). Build with [`MvkkmParams::new`].
#[derive(Debug, Clone, PartialEq)]
pub struct MvkkmParams {
    n_clusters: usize,
    p: f64,
    tol: f64,
    max_iter: usize,
    inner_max_iter: usize,
    weight_floor: f64,
    init: MvkkmInit,
}

impl MvkkmParams {
    /// `M = n_clusters`, p = 3, relative tolerance 1e-4, weight floor 1e-5, global kernel k-means
    /// initialisation — the authors' code's settings except p, which has no default there.
    pub fn new(n_clusters: usize) -> Self {
        Self {
            n_clusters,
            p: 3.0,
            tol: DEFAULT_TOL,
            max_iter: DEFAULT_MAX_ITER,
            inner_max_iter: DEFAULT_INNER_MAX_ITER,
            weight_floor: MVKKM_WEIGHT_FLOOR,
            init: MvkkmInit::default(),
        }
    }
    /// Exponent p ≥ 1 of the composite kernel Σ w_v^p K_v (`+∞`: uniform sum, one run).
    pub fn p(mut self, p: f64) -> Self {
        self.p = p;
        self
    }
    /// Relative tolerance on the objective change between iterations.
    pub fn tol(mut self, tol: f64) -> Self {
        self.tol = tol;
        self
    }
    /// Maximum number of outer iterations.
    pub fn max_iter(mut self, max_iter: usize) -> Self {
        self.max_iter = max_iter;
        self
    }
    /// Maximum number of iterations of each kernel k-means run.
    pub fn inner_max_iter(mut self, inner_max_iter: usize) -> Self {
        self.inner_max_iter = inner_max_iter;
        self
    }
    /// Weights below this are set to 0 and the others renormalised (0 disables).
    pub fn weight_floor(mut self, weight_floor: f64) -> Self {
        self.weight_floor = weight_floor;
        self
    }
    /// Initial partition.
    pub fn init(mut self, init: MvkkmInit) -> Self {
        self.init = init;
        self
    }
}

/// Checked MVKKM parameters; run with [`MvkkmChecked::fit`](crate::MvkkmChecked::fit).
#[derive(Debug, Clone, PartialEq)]
pub struct MvkkmChecked {
    pub(crate) n_clusters: usize,
    pub(crate) p: f64,
    pub(crate) tol: f64,
    pub(crate) max_iter: usize,
    pub(crate) inner_max_iter: usize,
    pub(crate) weight_floor: f64,
    pub(crate) init: MvkkmInit,
}

impl MvkkmChecked {
    /// Number of clusters M.
    pub fn n_clusters(&self) -> usize {
        self.n_clusters
    }
    /// Exponent p (possibly `+∞`).
    pub fn p(&self) -> f64 {
        self.p
    }
}

impl ParamGuard for MvkkmParams {
    type Checked = MvkkmChecked;
    fn check(&self) -> Result<MvkkmChecked> {
        check_common(
            self.n_clusters,
            self.p,
            self.tol,
            self.max_iter,
            self.inner_max_iter,
        )?;
        if !(self.weight_floor.is_finite() && (0.0..1.0).contains(&self.weight_floor)) {
            return Err(Error::param(
                "weight_floor",
                self.weight_floor,
                "must be in [0, 1)",
            ));
        }
        if let MvkkmInit::Labels(l) = &self.init {
            if let Some(i) = l.iter().position(|&c| c >= self.n_clusters) {
                return Err(Error::input(
                    "MVKKM initial labels",
                    format!(
                        "label {} at index {i} is not below n_clusters = {}",
                        l[i], self.n_clusters
                    ),
                ));
            }
        }
        Ok(MvkkmChecked {
            n_clusters: self.n_clusters,
            p: self.p,
            tol: self.tol,
            max_iter: self.max_iter,
            inner_max_iter: self.inner_max_iter,
            weight_floor: self.weight_floor,
            init: self.init.clone(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_parameters_are_typed_errors() {
        for p in [0.5, 0.0, -1.0, f64::NAN, f64::NEG_INFINITY] {
            let e = GumklParams::new(2).p(p).check().unwrap_err();
            assert!(
                matches!(&e, Error::InvalidParam { name, .. } if name == "p"),
                "{p}: {e}"
            );
            let e = MvkkmParams::new(2).p(p).check().unwrap_err();
            assert!(
                matches!(&e, Error::InvalidParam { name, .. } if name == "p"),
                "{p}: {e}"
            );
        }
        assert!(GumklParams::new(0).check().is_err());
        assert!(GumklParams::new(2).tol(-1.0).check().is_err());
        assert!(GumklParams::new(2).tol(f64::NAN).check().is_err());
        assert!(GumklParams::new(2).max_iter(0).check().is_err());
        assert!(GumklParams::new(2).inner_max_iter(0).check().is_err());
        assert!(MvkkmParams::new(2).weight_floor(1.0).check().is_err());
        assert!(MvkkmParams::new(2).weight_floor(-0.1).check().is_err());
        let e = MvkkmParams::new(2)
            .init(MvkkmInit::Labels(vec![0, 1, 2]))
            .check()
            .unwrap_err();
        assert!(matches!(e, Error::InvalidInput { .. }));
    }

    #[test]
    fn baselines_and_defaults() {
        assert_eq!(GumklParams::best_single_view(3).check().unwrap().p(), 1.0);
        assert_eq!(GumklParams::uniform(3).check().unwrap().p(), f64::INFINITY);
        let c = GumklParams::new(4).check().unwrap();
        assert_eq!(
            (c.n_clusters(), c.p(), c.tol, c.refine),
            (4, 3.0, 1e-4, true)
        );
        let m = MvkkmParams::new(4).check().unwrap();
        assert_eq!(
            (m.weight_floor, m.init.clone()),
            (1e-5, MvkkmInit::GlobalKernelKMeans)
        );
    }
}
