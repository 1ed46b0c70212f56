//! Hyperparameters: builders with the defaults of the authors' code, checked once into
//! a valid form through [`ParamGuard`].

use mkc_core::{validate, Error, ParamGuard, Result};
use mkc_linalg::eigen::EigenOptions;

use crate::labels::LabelOptions;
use crate::line_search::{Armijo, GoldenSection};
use crate::oracle::Solver;
use crate::preprocess::Preprocessing;

/// Line search on the step along the descent direction of eq. (9).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum LineSearch {
    /// The authors' code (SimpleMKL): walk to the simplex boundary while J decreases,
    /// then golden section on the last segment. Default, with `delta_max = 1e-3`.
    GoldenSection(GoldenSection),
    /// Backtracking with Armijo's rule from the (capped) boundary step — the paper's
    /// suggestion after eq. (9).
    Armijo(Armijo),
}

impl Default for LineSearch {
    fn default() -> Self {
        LineSearch::GoldenSection(GoldenSection::default())
    }
}

impl LineSearch {
    fn check(&self) -> Result<()> {
        match self {
            LineSearch::GoldenSection(g) => g.check(),
            LineSearch::Armijo(a) => a.check(),
        }
    }
}

/// Eigensolver options used by the methods of this crate: `mkc_linalg`'s defaults with
/// relative residual tolerance 1e-8. Eigenvalue errors are quadratic in the residual
/// (≈ 1e-16 ‖K‖² / gap), so J is accurate far below the differences the golden-section
/// comparisons resolve; the gradient (Theorem 1) is accurate to ~1e-8 relative.
pub fn default_eigen_options() -> EigenOptions {
    EigenOptions::default().tol(1e-8)
}

/// Parameters of SimpleMKKM (Algorithm 1).
///
/// ```
/// use mkc_simplemkkm::{SimpleMkkmParams, LineSearch, Armijo};
/// use mkc_core::ParamGuard;
/// let p = SimpleMkkmParams::new(10).tol(1e-6).line_search(LineSearch::Armijo(Armijo::default()));
/// assert!(p.check().is_ok());
/// assert!(SimpleMkkmParams::new(0).check().is_err());
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct SimpleMkkmParams {
    /// Number of clusters k (≥ 1; ≤ n is checked at fit time).
    pub n_clusters: usize,
    /// Stop when `max_p |γ_p(t) − γ_p(t−1)| < tol` (Algorithm 1, line 7). Default 1e-5
    /// as the authors' code; the paper's Algorithm 1 says 1e-4.
    pub tol: f64,
    /// Cap on the number of γ updates (the authors have none). Default 200. Reaching it
    /// is not an error: the fit reports `converged = false`.
    pub max_iter: usize,
    /// Cap on the step to the simplex boundary (`Some(0.1)` in the authors' code;
    /// `None` for SimpleMKL's uncapped step).
    pub step_cap: Option<f64>,
    /// Line search. Default golden section (authors).
    pub line_search: LineSearch,
    /// When a golden-section search finds no decrease although the optimality residual
    /// (`reduced_gradient::kkt_residual`) exceeds `kkt_tol`, retry with `delta_max / 10`
    /// (down to 1e-8), as SimpleMKL's "enhance accuracy of line search" intends; the
    /// authors' SimpleMKKM code stops instead. Default true.
    pub refine_on_stall: bool,
    /// Optimality residual below which a stalled line search is accepted. Default 1e-6.
    pub kkt_tol: f64,
    /// Kernel preprocessing. Default centre then unit diagonal (authors).
    pub preprocessing: Preprocessing,
    /// Eigensolver options ([`default_eigen_options`]).
    pub eigen: EigenOptions,
    /// Warm-start every eigensolve from the nearest H already computed (default true;
    /// used by [`Solver::Eigensolver`] and the first solve).
    pub warm_start: bool,
    /// How J is evaluated: shared-subspace Rayleigh–Ritz (default) or an eigensolve
    /// per evaluation ([`Solver`]).
    pub solver: Solver,
    /// Final k-means on the row-normalised H.
    pub labels: LabelOptions,
}

impl SimpleMkkmParams {
    /// Defaults of the authors' code for `n_clusters` clusters.
    pub fn new(n_clusters: usize) -> Self {
        Self {
            n_clusters,
            tol: 1e-5,
            max_iter: 200,
            step_cap: Some(0.1),
            line_search: LineSearch::default(),
            refine_on_stall: true,
            kkt_tol: 1e-6,
            preprocessing: Preprocessing::default(),
            eigen: default_eigen_options(),
            warm_start: true,
            solver: Solver::default(),
            labels: LabelOptions::default(),
        }
    }
}

macro_rules! builders {
    ($ty:ty { $($name:ident : $t:ty),* $(,)? }) => {
        impl $ty {
            $(
                #[doc = concat!("Sets `", stringify!($name), "`.")]
                #[must_use]
                pub fn $name(mut self, v: $t) -> Self {
                    self.$name = v;
                    self
                }
            )*
        }
    };
}
builders!(SimpleMkkmParams {
    tol: f64, max_iter: usize, step_cap: Option<f64>, line_search: LineSearch, refine_on_stall: bool,
    kkt_tol: f64, preprocessing: Preprocessing, eigen: EigenOptions, warm_start: bool, solver: Solver,
    labels: LabelOptions,
});

fn check_common(
    n_clusters: usize,
    eigen: &EigenOptions,
    labels: &LabelOptions,
) -> Result<EigenOptions> {
    if n_clusters == 0 {
        return Err(Error::param("n_clusters", 0, "must be at least 1"));
    }
    if labels.n_init == 0 {
        return Err(Error::param("labels.n_init", 0, "must be at least 1"));
    }
    if labels.max_iter == 0 {
        return Err(Error::param("labels.max_iter", 0, "must be at least 1"));
    }
    eigen.check()
}

impl ParamGuard for SimpleMkkmParams {
    type Checked = crate::SimpleMkkm;
    fn check(&self) -> Result<crate::SimpleMkkm> {
        let eigen = check_common(self.n_clusters, &self.eigen, &self.labels)?;
        validate::positive("tol", self.tol)?;
        validate::positive("kkt_tol", self.kkt_tol)?;
        if self.max_iter == 0 {
            return Err(Error::param("max_iter", 0, "must be at least 1"));
        }
        if let Some(c) = self.step_cap {
            validate::positive("step_cap", c)?;
        }
        self.line_search.check()?;
        self.solver.check()?;
        Ok(crate::SimpleMkkm {
            params: SimpleMkkmParams {
                eigen,
                ..self.clone()
            },
        })
    }
}

/// Parameters of MKKM (Huang et al., 2012) as in the authors' baseline code.
#[derive(Clone, Debug, PartialEq)]
pub struct MkkmParams {
    /// Number of clusters k.
    pub n_clusters: usize,
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

impl MkkmParams {
    /// Defaults of the authors' baseline for `n_clusters` clusters.
    pub fn new(n_clusters: usize) -> Self {
        Self {
            n_clusters,
            tol: 1e-4,
            max_iter: 50,
            preprocessing: Preprocessing::default(),
            eigen: default_eigen_options(),
            labels: LabelOptions::default(),
        }
    }
}
builders!(MkkmParams {
    tol: f64,
    max_iter: usize,
    preprocessing: Preprocessing,
    eigen: EigenOptions,
    labels: LabelOptions
});

impl ParamGuard for MkkmParams {
    type Checked = crate::Mkkm;
    fn check(&self) -> Result<crate::Mkkm> {
        let eigen = check_common(self.n_clusters, &self.eigen, &self.labels)?;
        validate::positive("tol", self.tol)?;
        if self.max_iter == 0 {
            return Err(Error::param("max_iter", 0, "must be at least 1"));
        }
        Ok(crate::Mkkm {
            params: MkkmParams {
                eigen,
                ..self.clone()
            },
        })
    }
}

/// Parameters of Avg-KKM and single-kernel kernel k-means (spectral relaxation: top-k
/// eigenvectors of the kernel, then k-means on the row-normalised H).
#[derive(Clone, Debug, PartialEq)]
pub struct AvgParams {
    /// Number of clusters k.
    pub n_clusters: usize,
    /// Kernel preprocessing (default centre then unit diagonal).
    pub preprocessing: Preprocessing,
    /// Eigensolver options.
    pub eigen: EigenOptions,
    /// Final k-means on the row-normalised H.
    pub labels: LabelOptions,
}

impl AvgParams {
    /// Defaults for `n_clusters` clusters.
    pub fn new(n_clusters: usize) -> Self {
        Self {
            n_clusters,
            preprocessing: Preprocessing::default(),
            eigen: default_eigen_options(),
            labels: LabelOptions::default(),
        }
    }
}
builders!(AvgParams {
    preprocessing: Preprocessing,
    eigen: EigenOptions,
    labels: LabelOptions
});

impl ParamGuard for AvgParams {
    type Checked = crate::AvgKkm;
    fn check(&self) -> Result<crate::AvgKkm> {
        let eigen = check_common(self.n_clusters, &self.eigen, &self.labels)?;
        Ok(crate::AvgKkm {
            params: AvgParams {
                eigen,
                ..self.clone()
            },
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_bad_parameter_is_named() {
        let name = |r: Result<crate::SimpleMkkm>| match r {
            Err(Error::InvalidParam { name, .. }) => name,
            Err(e) => panic!("{e}"),
            Ok(_) => panic!("accepted"),
        };
        assert_eq!(name(SimpleMkkmParams::new(0).check()), "n_clusters");
        assert_eq!(name(SimpleMkkmParams::new(3).tol(0.0).check()), "tol");
        assert_eq!(name(SimpleMkkmParams::new(3).tol(f64::NAN).check()), "tol");
        assert_eq!(
            name(SimpleMkkmParams::new(3).max_iter(0).check()),
            "max_iter"
        );
        assert_eq!(
            name(SimpleMkkmParams::new(3).step_cap(Some(-1.0)).check()),
            "step_cap"
        );
        assert_eq!(
            name(SimpleMkkmParams::new(3).kkt_tol(0.0).check()),
            "kkt_tol"
        );
        assert_eq!(
            name(
                SimpleMkkmParams::new(3)
                    .line_search(LineSearch::GoldenSection(GoldenSection::new(0.0)))
                    .check()
            ),
            "golden_section.delta_max"
        );
        assert_eq!(
            name(
                SimpleMkkmParams::new(3)
                    .eigen(EigenOptions::default().tol(0.0))
                    .check()
            ),
            "tol"
        );
        assert_eq!(
            name(
                SimpleMkkmParams::new(3)
                    .labels(LabelOptions {
                        n_init: 0,
                        max_iter: 1
                    })
                    .check()
            ),
            "labels.n_init"
        );
        assert!(SimpleMkkmParams::new(3).step_cap(None).check().is_ok());
        assert!(MkkmParams::new(0).check().is_err());
        assert!(MkkmParams::new(2).tol(-1.0).check().is_err());
        assert!(MkkmParams::new(2).max_iter(0).check().is_err());
        assert!(AvgParams::new(0).check().is_err());
        assert!(AvgParams::new(2).check().is_ok());
    }
}
