//! Hyperparameters of GMMC ([`GmmcParams`], checked once into [`Gmmc`]).

use super::barrier::BarrierSolver;
use mkc_core::{validate, Result};
pub use mkc_lgmmc::Balance;
use mkc_lgmmc::FeatureRank;

/// Which input a fit reads (as LG-MMC's `LgmmcPath`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum GmmcPath {
    /// The set's kernel ([`mkc_core::KernelSet::one_kernel`]: the kernel, or the
    /// equal-weight mean of several), through its explicit features `U_r Λ_r^½`.
    Kernel,
    /// The linear kernel of the set's feature matrix
    /// ([`mkc_core::KernelSet::require_features`]): the features themselves (no n x n
    /// matrix, no eigendecomposition).
    Linear,
    /// [`GmmcPath::Linear`] when the set has features and either no kernel or exactly
    /// one kernel whose name ends in `linear`; [`GmmcPath::Kernel`] otherwise (default).
    #[default]
    Auto,
}

mkc_lgmmc::input_path!(GmmcPath);

mkc_core::params! {
    /// Unchecked GMMC parameters (builder).
    pub struct GmmcParams {
        /// Regularisation C > 0 of the soft margin (LG-MMC's grid for GMMC:
        /// {0.1, 0.5, 1, 5, 10, 100}).
        pub(crate) c: f64 = 1.0,
        /// The balance ℓ of `−ℓ ≤ Σ_i f(x_i) ≤ ℓ` (LG-MMC, Section 4.1: 0.03 n for balanced
        /// data, 0.3 n otherwise); must leave a labelling with both signs and be > 0.
        pub(crate) balance: Balance = Balance::Fraction(0.03),
        /// The kernel path or the linear feature path (default [`GmmcPath::Auto`]).
        pub(crate) path: GmmcPath = GmmcPath::Auto,
        ;
        pub(crate) rank: FeatureRank = FeatureRank::default(),
        pub(crate) solver: BarrierSolver = BarrierSolver::default(),
    }
    /// C = 1, ℓ = 0.03 n, automatic path, kernel rank by `energy_tol = 1e-3` up to 300,
    /// the barrier solver's defaults ([`BarrierSolver`]).
    new;
    reflect also nested_params;
}

impl GmmcParams {
    mkc_core::setters! {
        reflect nested_params;
        /// Kernel path: the features are `U_r Λ_r^½` of the centred kernel, r the smallest
        /// rank carrying `1 − energy_tol` of its trace (default 1e-3; 0 = all of it) …
        energy_tol: f64 => rank,
        /// … but at most `max_rank` (default 300; the SDP's matrix is (r+1) x (r+1)).
        max_rank: usize => rank,
        /// Barrier solver: relative certified duality gap that stops it (default 1e-4).
        gap_tol: f64 => solver,
        /// Barrier solver: Newton decrement `λ²/t` that ends a round (default 1e-3).
        center_tol: f64 => solver,
        /// Barrier solver: cap on Newton steps (default 1000).
        max_newton: usize => solver,
        /// Barrier solver: factor by which t shrinks per round (default 0.3).
        shrink: f64 => solver,
    }
}

mkc_core::checked! {
    /// Checked GMMC parameters: the [`mkc_core::Clusterer`] "gmmc".
    pub struct Gmmc(GmmcParams);
    |p| {
        validate::positive("C", p.c)?;
        p.balance.check(true)?;
        p.rank.check()?;
        p.solver.check().map(|_| ())
    }
}

impl Gmmc {
    /// The parameters.
    pub fn params(&self) -> &GmmcParams {
        &self.p
    }

    /// The balance ℓ for n samples, checked: the label set `{y : |1ᵀy| ≤ ℓ}` must hold a
    /// labelling with both signs (the relaxation bounds MMC over it).
    pub(crate) fn ell(&self, n: usize) -> Result<f64> {
        let ell = self.p.balance.beta(n);
        mkc_lgmmc::plus_range(n, ell)?;
        Ok(ell)
    }
}
