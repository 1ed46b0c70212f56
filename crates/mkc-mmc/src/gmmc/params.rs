//! Hyperparameters of GMMC ([`GmmcParams`], checked once into [`Gmmc`]).

use super::barrier::BarrierSolver;
use mkc_core::{validate, Error, ParamGuard, Result};
pub use mkc_lgmmc::Balance;

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

/// Unchecked GMMC parameters (builder).
#[derive(Clone, Debug, PartialEq)]
pub struct GmmcParams {
    pub(crate) c: f64,
    pub(crate) balance: Balance,
    pub(crate) path: GmmcPath,
    pub(crate) energy_tol: f64,
    pub(crate) max_rank: usize,
    pub(crate) solver: BarrierSolver,
}

impl Default for GmmcParams {
    fn default() -> Self {
        Self::new()
    }
}

impl GmmcParams {
    /// C = 1, ℓ = 0.03 n, automatic path, kernel rank by `energy_tol = 1e-3` up to 300,
    /// the barrier solver's defaults ([`BarrierSolver`]).
    pub fn new() -> Self {
        Self {
            c: 1.0,
            balance: Balance::Fraction(0.03),
            path: GmmcPath::Auto,
            energy_tol: 1e-3,
            max_rank: 300,
            solver: BarrierSolver::default(),
        }
    }

    mkc_core::setters! {
        /// Regularisation C > 0 of the soft margin (LG-MMC's grid for GMMC:
        /// {0.1, 0.5, 1, 5, 10, 100}).
        c: f64,
        /// The balance ℓ of `−ℓ ≤ Σ_i f(x_i) ≤ ℓ` (LG-MMC, Section 4.1: 0.03 n for balanced
        /// data, 0.3 n otherwise); must leave a labelling with both signs and be > 0.
        balance: Balance,
        /// The kernel path or the linear feature path (default [`GmmcPath::Auto`]).
        path: GmmcPath,
        /// Kernel path: the features are `U_r Λ_r^½` of the centred kernel, r the smallest
        /// rank carrying `1 − energy_tol` of its trace (default 1e-3; 0 = all of it) …
        energy_tol: f64,
        /// … but at most `max_rank` (default 300; the SDP's matrix is (r+1) x (r+1)).
        max_rank: usize,
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

/// Checked GMMC parameters: the [`mkc_core::Clusterer`] "gmmc".
#[derive(Clone, Debug, PartialEq)]
pub struct Gmmc {
    pub(crate) p: GmmcParams,
}

impl ParamGuard for GmmcParams {
    type Checked = Gmmc;
    fn check(&self) -> Result<Gmmc> {
        validate::positive("C", self.c)?;
        match self.balance {
            Balance::Absolute(b) => validate::positive("balance", b)?,
            Balance::Fraction(f) => {
                validate::positive("balance", f)?;
                if f >= 1.0 {
                    return Err(Error::param(
                        "balance",
                        f,
                        "a fraction of n must be < 1 (ℓ ≥ n admits the one-cluster labelling)",
                    ));
                }
            }
        }
        if !(self.energy_tol.is_finite() && (0.0..1.0).contains(&self.energy_tol)) {
            return Err(Error::param(
                "energy_tol",
                self.energy_tol,
                "must lie in [0, 1)",
            ));
        }
        mkc_core::mkc_ensure!(self.max_rank >= 1, param "max_rank", self.max_rank, "must be at least 1");
        self.solver.check()?;
        Ok(Gmmc { p: self.clone() })
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
