//! Hyperparameters of CPMMC ([`CpmmcParams`], checked once into [`Cpmmc`]).

use mkc_core::validate;

/// Which input a CPMMC fit reads (see [`CpmmcParams::path`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum CpmmcPath {
    /// The set's precomputed kernel ([`mkc_core::KernelSet::one_kernel`]: the kernel, or
    /// the equal-weight mean of several), through the centred kernel `HKH`.
    Kernel,
    /// The linear kernel of the set's feature matrix
    /// ([`mkc_core::KernelSet::require_features`]), in feature space: no n × n matrix.
    Linear,
    /// [`CpmmcPath::Linear`] when the set has features and either no kernel or exactly
    /// one kernel whose name ends in `linear` (the workspace's name of `XXᵀ`);
    /// [`CpmmcPath::Kernel`] otherwise (default).
    #[default]
    Auto,
}

/// How the starting hyperplane `w₀` is chosen (the first most violated constraint and
/// the first CCCP signs come from its decision values; `b₀ = 0`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum CpmmcInit {
    /// A seeded random direction `w₀ = Φ̃ᵀr`, r uniform in [−1, 1]ⁿ (the Octave copy of
    /// the authors' code draws w₀ uniform in [−1, 1]ᵈ; ours is the same idea written for
    /// kernels too). Default.
    #[default]
    Random,
    /// The top principal direction of the centred data (top eigenvector of `G = Φ̃Φ̃ᵀ`,
    /// by power iteration from a seeded start): ours, nearly seed-free.
    Pca,
}

mkc_lgmmc::input_path!(CpmmcPath);
mkc_core::param_words!(CpmmcInit { "random" => CpmmcInit::Random, "pca" => CpmmcInit::Pca });

mkc_core::params! {
    /// Unchecked CPMMC parameters (builder). Defaults: C = 1 and ε = 0.01, β = 0.03 n,
    /// CCCP stopping at a relative decrease of 0.01 (`per_quit` of the authors' code), at
    /// most 20 CCCP steps per round and 200 cutting-plane rounds.
    pub struct CpmmcParams {
        /// C > 0 of eq. (9): it multiplies the *average* slack ξ, so CPMMC's C = 1 is an
        /// SVM's C = 1/n (LG-MMC's grid: 0.1, 0.5, 1, 5, 10, 100; default 1).
        pub(crate) c: f64 = 1.0,
        /// Class balance ℓ of `−ℓ ≤ Σᵢ (wᵀxᵢ + b) ≤ ℓ` as a fraction of n, > 0 (LG-MMC's
        /// protocol: 0.03 for balanced data, 0.3 otherwise; default 0.03).
        pub(crate) balance: f64 = 0.03,
        /// Precision ε > 0: stop when the most violated constraint exceeds the slack ξ by
        /// at most ε (the paper's stopping rule; default 0.01).
        pub(crate) epsilon: f64 = 0.01,
        /// CCCP stops when its objective decreases by less than this fraction (the
        /// authors' `per_quit`, 0.01); ≥ 0.
        pub(crate) cccp_tol: f64 = 0.01,
        /// Cap on CCCP steps per cutting-plane round (≥ 1; default 20).
        pub(crate) cccp_max_iter: usize = 20,
        /// Cap on cutting-plane rounds (≥ 1; default 200).
        pub(crate) max_iter: usize = 200,
        /// Starting hyperplane ([`CpmmcInit`]).
        pub(crate) init: CpmmcInit = CpmmcInit::Random,
        /// Which input the fit reads ([`CpmmcPath`]).
        pub(crate) path: CpmmcPath = CpmmcPath::Auto,
    }
    /// The defaults listed on the type.
    new;
}

mkc_core::checked! {
    /// Checked CPMMC parameters: the [`mkc_core::Clusterer`] "cpmmc".
    pub struct Cpmmc(CpmmcParams);
    |p| {
        validate::positive("C", p.c)?;
        mkc_lgmmc::Balance::Fraction(p.balance).check(true)?;
        validate::positive("epsilon", p.epsilon)?;
        validate::non_negative("cccp_tol", p.cccp_tol)?;
        mkc_core::mkc_ensure!(p.cccp_max_iter >= 1, param "cccp_max_iter", p.cccp_max_iter, "must be at least 1");
        mkc_core::mkc_ensure!(p.max_iter >= 1, param "max_iter", p.max_iter, "must be at least 1");
        Ok(())
    }
}

impl Cpmmc {
    /// The parameters.
    pub fn params(&self) -> &CpmmcParams {
        &self.p
    }
}
