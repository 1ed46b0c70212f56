//! Hyperparameters of RMKC ([`RmkcParams`], unchecked) and their checked form
//! ([`Rmkc`]). Every default is the paper's (Section 3) where it gives one; the rest are
//! our choices, listed in the crate docs.

use mkc_core::{Error, ParamGuard, Result, WeightConstraint};

/// The p-norm constraint on θ in eq. (4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Norm {
    /// No norm constraint, θ ≥ 0 only ("No-norm" of Table 1; J is scale invariant,
    /// Proposition 1).
    None,
    /// ‖θ‖₁ = 1, θ ≥ 0: projection onto the simplex.
    L1,
    /// ‖θ‖₂ = 1, θ ≥ 0: projection onto the nonnegative part of the unit sphere.
    L2,
}

impl Norm {
    /// The uniform start θ_v = V^(−1/p) (Section 3; `None` uses θ_v = 1/V).
    pub fn uniform(self, v: usize) -> Vec<f64> {
        let x = match self {
            Norm::None | Norm::L1 => 1.0 / v as f64,
            Norm::L2 => 1.0 / (v as f64).sqrt(),
        };
        vec![x; v]
    }

    /// The set θ lives on, as the method API reports it: `PNorm(1.0)` (the simplex) and
    /// `PNorm(2.0)` (the non-negative part of the unit sphere) for the 1- and 2-norm;
    /// `NonNegative` with no norm, where θ keeps the scale of its start (J is scale
    /// invariant, Proposition 1, so only the direction of θ matters).
    pub fn constraint(self) -> WeightConstraint {
        match self {
            Norm::None => WeightConstraint::NonNegative,
            Norm::L1 => WeightConstraint::PNorm(1.0),
            Norm::L2 => WeightConstraint::PNorm(2.0),
        }
    }
}

/// The cluster balance bound ℓ of eq. (4), `−ℓ ≤ Σ y_i ≤ ℓ`: LG-MMC's balance type
/// (`Balance::Fraction(f)`: ℓ = f · N, the paper's f = 0.5, Corel 0.2;
/// `Balance::Absolute(ℓ)`), checked here as RMKC's (finite and ≥ 0, any fraction).
pub use mkc_lgmmc::Balance;

mkc_core::param_words!(Norm { "none" => Norm::None, "1" => Norm::L1, "2" => Norm::L2 });

mkc_core::params! {
    /// Unchecked RMKC hyperparameters (builder): `RmkcParams::new().c(10.0).norm(Norm::L2)`.
    ///
    /// Fits through [`mkc_core::Clusterer`] directly (the parameters are checked first), or
    /// `check()` gives [`Rmkc`]. The number of clusters (always 2) and the seed are given
    /// when fitting.
    pub struct RmkcParams {
        /// The regulariser C > 0 of eq. (4) (the box constraint of the SVM of eq. 10); the
        /// paper reports the best of 1e-2, 1e-1, 1, 10, 100 per dataset.
        pub(crate) c: f64 = 1.0,
        /// Candidate label vectors per phase of Algorithm 2 (L ≥ 1; the paper: 30).
        pub(crate) l: usize = 30,
        /// The balance bound ℓ of |Σy| ≤ ℓ, as a fraction of N by default (the paper: 0.5;
        /// Corel 0.2).
        pub(crate) balance: Balance = Balance::Fraction(0.5),
        /// The norm constraint on θ, ‖θ‖_p^p = 1 with p = 1 or 2, or none (the paper: the
        /// 1-norm in Tables 2–4).
        pub(crate) norm: Norm = Norm::L1,
        /// Number of initial pairs as a fraction of N (≥ 1 pair; the paper: "usually
        /// 0.25N").
        pub(crate) init_pairs: f64 = 0.25,
        /// KKT tolerance of every SVM solve (eq. 10; LIBSVM's default 1e-3).
        pub(crate) svm_tol: f64 = 1e-3,
        /// Cap on outer iterations of Algorithm 1.
        pub(crate) max_iter: usize = 100,
        /// Relative decrease of J below which a θ step counts as "no decrease".
        pub(crate) tol: f64 = 1e-4,
        ;
        pub(crate) armijo_sigma: f64 = 1e-4,
        pub(crate) armijo_beta: f64 = 0.5,
        pub(crate) armijo_max_trials: usize = 20,
    }
    /// The paper's settings (Section 3): L = 30, ℓ = 0.5N, 1-norm on θ (Tables 2–4),
    /// 0.25N initial pairs; C = 1, the middle of the paper's grid {10⁻², …, 10²} (the
    /// paper reports the best C per dataset and fixes no default). Ours: SVM tolerance
    /// 1e-3 (libsvm's), at most 100 outer iterations, relative tolerance 1e-4 on the
    /// decrease of J, Armijo σ = 1e-4, β = 0.5, 20 trials.
    new;
}

impl RmkcParams {
    /// Armijo constants: sufficient-decrease σ ∈ (0, 1), backtracking factor β ∈ (0, 1),
    /// and the number of trial steps (≥ 1).
    pub fn armijo(mut self, sigma: f64, beta: f64, max_trials: usize) -> Self {
        self.armijo_sigma = sigma;
        self.armijo_beta = beta;
        self.armijo_max_trials = max_trials;
        self
    }
}

/// Checked RMKC hyperparameters: fit through [`mkc_core::Clusterer`], or from a given
/// start with [`Rmkc::fit_from`].
///
/// [`mkc_core::Clusterer::fit`] runs RMKC on every kernel of the set (a multiple kernel
/// method; features are not used), two clusters: from θ⁽⁰⁾ uniform (θ_v = V^(−1/p)) and
/// the initial labels of [`crate::init`] drawn with the seed, Algorithm 1 until the
/// stopping rule ([`mod@crate::rmkc`]). The result: labels 0/1 (cluster 1 is y = +1), θ on
/// [`Norm::constraint`], the objective trace J(θ, y) of eq. (11) — minimised,
/// non-increasing — after the initialisation and after every θ step and every y step,
/// the outer iterations, timings by phase and [`crate::RmkcDiagnostics`].
///
/// Errors: `n_clusters ≠ 2` ([`Error::InvalidParam`] `n_clusters`), a set without
/// kernels ([`Error::InvalidInput`]), a balance bound that no labelling of N points meets
/// ([`Error::InvalidParam`] `balance`), a zero variance E(θ, y) ([`Error::Numerical`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Rmkc {
    pub(crate) c: f64,
    pub(crate) l: usize,
    pub(crate) balance: Balance,
    pub(crate) norm: Norm,
    pub(crate) init_pairs: f64,
    pub(crate) max_iter: usize,
    pub(crate) tol: f64,
    pub(crate) armijo_sigma: f64,
    pub(crate) armijo_beta: f64,
    pub(crate) armijo_max_trials: usize,
    pub(crate) svc: mkc_svm::CSvc,
}

impl Rmkc {
    /// The regulariser C.
    pub fn c(&self) -> f64 {
        self.c
    }
    /// The p-norm constraint.
    pub fn norm(&self) -> Norm {
        self.norm
    }
    /// The checked inner C-SVC.
    pub fn svc(&self) -> &mkc_svm::CSvc {
        &self.svc
    }
    /// ℓ for N points, checked: finite, ≥ 0, and admitting a labelling with both
    /// clusters non-empty (|Σy| ≡ N mod 2, so an odd N needs ℓ ≥ 1).
    pub fn balance_bound(&self, n: usize) -> Result<f64> {
        let l = self.balance.beta(n);
        if !(l.is_finite() && l >= 0.0) {
            return Err(Error::param(
                "balance",
                l,
                "the bound ℓ must be finite and >= 0",
            ));
        }
        if n % 2 == 1 && l < 1.0 {
            return Err(Error::param(
                "balance",
                l,
                format!("no labelling of N = {n} (odd) points has |Σy| <= ℓ < 1"),
            ));
        }
        Ok(l)
    }
}

impl ParamGuard for RmkcParams {
    type Checked = Rmkc;
    fn check(&self) -> Result<Rmkc> {
        mkc_core::validate::positive("C", self.c)?;
        mkc_core::mkc_ensure!(self.l >= 1, param "L", self.l, "must be at least 1");
        match self.balance {
            Balance::Fraction(f) if !(f.is_finite() && f >= 0.0) => {
                return Err(Error::param(
                    "balance",
                    f,
                    "the fraction must be finite and >= 0",
                ))
            }
            Balance::Absolute(l) if !(l.is_finite() && l >= 0.0) => {
                return Err(Error::param("balance", l, "ℓ must be finite and >= 0"))
            }
            _ => {}
        }
        mkc_core::mkc_ensure!(self.init_pairs.is_finite() && self.init_pairs > 0.0, param "init_pairs", self.init_pairs, "must be finite and > 0");
        mkc_core::validate::positive("svm_tol", self.svm_tol)?;
        mkc_core::mkc_ensure!(self.max_iter >= 1, param "max_iter", self.max_iter, "must be at least 1");
        mkc_core::validate::non_negative("tol", self.tol)?;
        let in_unit = |v: f64| v > 0.0 && v < 1.0;
        mkc_core::mkc_ensure!(in_unit(self.armijo_sigma), param "armijo sigma", self.armijo_sigma, "must lie in (0, 1)");
        mkc_core::mkc_ensure!(in_unit(self.armijo_beta), param "armijo beta", self.armijo_beta, "must lie in (0, 1)");
        mkc_core::mkc_ensure!(self.armijo_max_trials >= 1, param "armijo trials", self.armijo_max_trials, "must be at least 1");
        let svc = mkc_core::ParamGuard::check(&mkc_svm::CSvcParams::new(self.c).tol(self.svm_tol))?;
        Ok(Rmkc {
            c: self.c,
            l: self.l,
            balance: self.balance,
            norm: self.norm,
            init_pairs: self.init_pairs,
            max_iter: self.max_iter,
            tol: self.tol,
            armijo_sigma: self.armijo_sigma,
            armijo_beta: self.armijo_beta,
            armijo_max_trials: self.armijo_max_trials,
            svc,
        })
    }
}
