//! Hyperparameters: builders with the defaults of the authors' code, checked once into
//! a valid form through [`ParamGuard`].

use mkc_core::{validate, Result};

use crate::line_search::{Armijo, GoldenSection};
use crate::oracle::Solver;
use mkc_mkkm::params::check_stopping;

use crate::{AvgKkm, SimpleMkkm};

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

mkc_mkkm::family_params! {
    /// Parameters of SimpleMKKM (Algorithm 1), unchecked. The number of clusters and the
    /// seed are given when fitting ([`mkc_core::Clusterer::fit`]).
    ///
    /// ```
    /// use mkc_simplemkkm::prelude::*;
    /// use mkc_simplemkkm::{Armijo, LineSearch};
    /// let p = SimpleMkkmParams::new().tol(1e-6).line_search(LineSearch::Armijo(Armijo::default()));
    /// assert!(p.validate_params().is_ok());
    /// assert!(SimpleMkkmParams::new().tol(0.0).validate_params().is_err());
    /// ```
    pub struct SimpleMkkmParams => SimpleMkkm, "simplemkkm" {
        /// Stop when `max_p |γ_p(t) − γ_p(t−1)| < tol` (Algorithm 1, line 7). Default
        /// 1e-5 as the authors' code; the paper's Algorithm 1 says 1e-4.
        tol: f64 = 1e-5,
        /// Cap on the number of γ updates (the authors have none). Default 200. Reaching
        /// it is not an error: the fit reports `converged = false`.
        max_iter: usize = 200,
        /// Cap on the step to the simplex boundary (`Some(0.1)` in the authors' code;
        /// `None` for SimpleMKL's uncapped step).
        step_cap: Option<f64> = Some(0.1),
        /// Line search. Default golden section (authors).
        line_search: LineSearch = LineSearch::default(),
        /// When a golden-section search finds no decrease although the optimality
        /// residual (`reduced_gradient::kkt_residual`) exceeds `kkt_tol`, retry with
        /// `delta_max / 10` (down to 1e-8), as SimpleMKL's "enhance accuracy of line
        /// search" intends; the authors' SimpleMKKM code stops instead. Default true.
        refine_on_stall: bool = true,
        /// Optimality residual below which a stalled line search is accepted. Default 1e-6.
        kkt_tol: f64 = 1e-6,
        /// Warm-start every eigensolve from the nearest H already computed (default true;
        /// used by [`Solver::Eigensolver`] and the first solve).
        warm_start: bool = true,
        /// How J is evaluated: shared-subspace Rayleigh–Ritz (default) or an eigensolve
        /// per evaluation ([`Solver`]).
        solver: Solver = Solver::default(),
    }
    check(&self) {
        check_stopping(self.tol, self.max_iter)?;
        validate::positive("kkt_tol", self.kkt_tol)?;
        if let Some(c) = self.step_cap {
            validate::positive("step_cap", c)?;
        }
        self.line_search.check()?;
        self.solver.check()
    }
}

mkc_mkkm::family_params! {
    /// Parameters of Avg-KKM in the authors' spectral form (top-k eigenvectors of the
    /// average kernel, then k-means on the row-normalised H), unchecked.
    pub struct AvgParams => AvgKkm, "avg-kkm-spectral" {}
    check(&self) { Result::Ok(()) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use mkc_core::Clusterer;
    use mkc_core::ParamGuard;
    use mkc_mkkm::labels::LabelOptions;
    use mkc_mkkm::params::{rejected_param, EigenOptions};

    #[test]
    fn every_bad_parameter_is_named() {
        let s = SimpleMkkmParams::new;
        let bad_labels = LabelOptions {
            n_init: 0,
            max_iter: 1,
        };
        let cases: Vec<(Result<()>, &str)> = vec![
            (s().tol(0.0).validate_params(), "tol"),
            (s().tol(f64::NAN).validate_params(), "tol"),
            (s().max_iter(0).validate_params(), "max_iter"),
            (s().step_cap(Some(-1.0)).validate_params(), "step_cap"),
            (s().kkt_tol(0.0).validate_params(), "kkt_tol"),
            (
                s().line_search(LineSearch::GoldenSection(GoldenSection::new(0.0)))
                    .validate_params(),
                "golden_section.delta_max",
            ),
            (
                s().line_search(LineSearch::Armijo(Armijo {
                    c1: 2.0,
                    ..Armijo::default()
                }))
                .validate_params(),
                "armijo.c1",
            ),
            (
                s().solver(Solver::Subspace { trial_tol: 0.9 })
                    .validate_params(),
                "solver.trial_tol",
            ),
            (
                s().eigen(EigenOptions::default().tol(0.0))
                    .validate_params(),
                "tol",
            ),
            (s().labels(bad_labels).validate_params(), "labels.n_init"),
            (
                s().labels(LabelOptions {
                    n_init: 1,
                    max_iter: 0,
                })
                .validate_params(),
                "labels.max_iter",
            ),
            (
                AvgParams::new().labels(bad_labels).validate_params(),
                "labels.n_init",
            ),
        ];
        for (i, (r, name)) in cases.into_iter().enumerate() {
            assert_eq!(rejected_param(&r), Some(name), "case {i}: {r:?}");
        }
        assert!(s().step_cap(None).validate_params().is_ok());
        assert!(s().validate_params().is_ok());
        assert!(AvgParams::default().validate_params().is_ok());
    }

    #[test]
    fn registry_names() {
        assert_eq!(SimpleMkkmParams::new().name(), "simplemkkm");
        assert_eq!(AvgParams::new().name(), "avg-kkm-spectral");
        let checked = SimpleMkkmParams::new().check().unwrap();
        assert_eq!(Clusterer::name(&checked), "simplemkkm");
    }
}
