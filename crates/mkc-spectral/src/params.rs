//! Hyperparameters of AASC and MVSpec: unchecked builders ([`AascParams`], [`MvspecParams`])
//! checked once into the method types [`Aasc`] and [`Mvspec`] ([`ParamGuard`]). Neither holds
//! a number of clusters or a seed; both are given to [`mkc_core::Clusterer::fit`] (the seed
//! drives only the final k-means).

use mkc_core::{mkc_ensure, ParamGuard, Result};
use mkc_linalg::eigen::EigenOptions;

use crate::aasc_weights::LambdaRule;
use crate::embedding::FinalKMeans;
use crate::root::Brent;
#[cfg(doc)]
use crate::{aasc::Aasc, mvspec::Mvspec};

mkc_core::param_words!(LambdaRule {
    "root-or-least-squares" => LambdaRule::RootOrLeastSquares,
    "root-or-start" => LambdaRule::RootOrStart,
    "start" => LambdaRule::Start,
});

/// AASC's eigensolves are dense up to this n (the authors' code uses a dense `eig`): the
/// bottom of the spectrum of a dense affinity's Laplacian is clustered, and block Lanczos
/// needed 128 s for four bottom-36 solves at n = 1404 (Binary Alphadigits) where the dense
/// solver takes a few seconds.
pub const AASC_DENSE_BELOW: usize = 2048;

/// The stopping rule both methods share: `max_iter ≥ 1`, `tol` finite and ≥ 0.
fn check_loop(max_iter: usize, tol: f64) -> Result<()> {
    mkc_ensure!(max_iter >= 1, param "max_iter", max_iter, "must be at least 1");
    mkc_ensure!(tol.is_finite() && tol >= 0.0, param "tol", tol, "must be finite and >= 0");
    Ok(())
}

/// The eigensolver options and the final k-means, checked alike by both methods.
fn check_solvers(eigen: &EigenOptions, kmeans: &FinalKMeans) -> Result<()> {
    eigen.check()?;
    kmeans.check().map(|_| ())
}

/// The setters of the final k-means on the embedding ([`FinalKMeans`]), the same for
/// AASC and MVSpec (their defaults are in `new`).
macro_rules! final_kmeans_setters {
    ($($ty:ty),+) => {$(
        impl $ty {
            mkc_core::setters! {
                reflect reflect_kmeans;
                /// k-means replicates on the embedding (authors: AASC 10, MVSpec 30).
                n_init: usize => kmeans,
                /// Lloyd iterations per k-means replicate (authors: 1000).
                kmeans_max_iter(max_iter): usize => kmeans,
                /// Scale the rows of the embedding to unit length before k-means (authors:
                /// true, the "uni_km" setting, their reported results).
                normalize_rows: bool => kmeans,
            }
        }
    )+};
}

final_kmeans_setters!(AascParams, MvspecParams);

mkc_core::params! {
    /// Parameters of AASC (unchecked). Defaults are the authors' code's (module
    /// [`crate::aasc`]).
    pub struct AascParams {
        /// Cap on the alternations (authors: 20; reaching it is not an error).
        pub(crate) max_iter: usize = 20,
        /// Stop when `Σ_ij (|F_ij| − |F^old_ij|)²` falls below this (authors: 1e-5).
        pub(crate) tol: f64 = 1e-5,
        /// How `λ₁` of the weight step is chosen ([`LambdaRule`]): `root-or-least-squares`
        /// (default) is what the authors' `fsolve` from `lambda_start` finds (the nearest
        /// root, else least squares), `root-or-start` the nearest root else the start,
        /// `start` the start itself (the authors' code without `fsolve`).
        pub(crate) lambda: LambdaRule = LambdaRule::RootOrLeastSquares,
        /// The start of the `λ₁` search, and `λ₁` itself when there is no root (authors: −1).
        pub(crate) lambda_start: f64 = -1.0,
        /// The bracketed root finder of the weight step.
        pub(crate) brent: Brent = Brent::new(),
        /// Options of the bottom-c eigensolves of the Laplacian (default: dense up to
        /// n = [`AASC_DENSE_BELOW`]).
        pub(crate) eigen: EigenOptions = EigenOptions::default().dense_below(AASC_DENSE_BELOW),
        ;
        pub(crate) kmeans: FinalKMeans = FinalKMeans::authors(10),
    }
    /// The authors' settings: at most 20 iterations, stop when
    /// `Σ_ij (|F_ij| − |F^old_ij|)² < 1e-5`, `λ₁` as `fsolve` from −1 finds it, and k-means with
    /// 10 replicates of at most 1000 iterations on the row-normalised embedding (their
    /// evaluation script's `litekmeans(NormalizeFea(F), c, 'maxIter', 1000, 'Replicates', 10)`).
    new;
    reflect also reflect_kmeans;
}

impl AascParams {
    /// The checks of [`AascParams::check`](ParamGuard::check), which gives [`Aasc`].
    pub(crate) fn validate(&self) -> Result<()> {
        check_loop(self.max_iter, self.tol)?;
        mkc_ensure!(self.lambda_start.is_finite(), param "lambda_start", self.lambda_start, "must be finite");
        mkc_ensure!(self.brent.xtol.is_finite() && self.brent.xtol > 0.0, param "brent.xtol", self.brent.xtol, "must be finite and > 0");
        mkc_ensure!(self.brent.max_iter >= 1, param "brent.max_iter", self.brent.max_iter, "must be at least 1");
        check_solvers(&self.eigen, &self.kmeans)
    }
}

mkc_core::params! {
    /// Parameters of MVSpec (unchecked). Defaults are the authors' code's (module
    /// [`crate::mvspec`]); p has no default there, ours is 2.
    pub struct MvspecParams {
        /// The exponent p ≥ 1 of `Σ_v w_v^p K_v` (RMKC's grid: {1, 1.5, …, 5}); p = 1 selects
        /// one view, p = +∞ is the uniform sum.
        pub(crate) p: f64 = 2.0,
        /// Relative objective change that stops the iterations (authors: 1e-4).
        pub(crate) tol: f64 = 1e-4,
        /// Cap on the iterations (ours, the authors have none; reaching it is not an
        /// error).
        pub(crate) max_iter: usize = 100,
        /// Weights below this are set to 0 and the rest renormalised (authors: 1e-5).
        pub(crate) weight_floor: f64 = 1e-5,
        /// Options of the top-k eigensolves of the composite kernel.
        pub(crate) eigen: EigenOptions = EigenOptions::default(),
        ;
        pub(crate) kmeans: FinalKMeans = FinalKMeans::authors(30),
    }
    /// p = 2; the authors' stopping rule `|1 − obj/obj_old| < 1e-4`, weights below 1e-5 set
    /// to 0, and the final k-means with 30 replicates of at most 1000 iterations on the
    /// row-normalised embedding; at most 100 iterations (the authors have no cap).
    new;
    reflect also reflect_kmeans;
}

impl MvspecParams {
    /// The checks of [`MvspecParams::check`](ParamGuard::check), which gives [`Mvspec`].
    pub(crate) fn validate(&self) -> Result<()> {
        mkc_ensure!(self.p >= 1.0, param "p", self.p, "must be a number >= 1 (or +inf for the uniform sum)");
        check_loop(self.max_iter, self.tol)?;
        mkc_ensure!((0.0..1.0).contains(&self.weight_floor), param "weight_floor", self.weight_floor, "must lie in [0, 1)");
        check_solvers(&self.eigen, &self.kmeans)
    }
}
