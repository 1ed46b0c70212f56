//! Hyperparameters of LG-MMC ([`LgmmcParams`], checked once into [`Lgmmc`]).

use crate::features::FeatureRank;
use mkc_core::{validate, Error, Result};

/// How the class balance β of the label set `B = {ŷ ∈ {±1}ⁿ : −β ≤ 1ᵀŷ ≤ β}` is given;
/// also the balance ℓ of GMMC and CPMMC (`mkc-mmc`) and of RMKC and iterSVR (`mkc-rmkc`,
/// `−ℓ ≤ Σ y_i ≤ ℓ`, eq. 4 of Tzortzis & Likas), which check it their own way.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Balance {
    /// β as an absolute number of samples.
    Absolute(f64),
    /// β = fraction · n (LG-MMC, Section 4.1: 0.03 n for balanced data, 0.3 n otherwise;
    /// RMKC: 0.5 N, Corel 0.2 N).
    Fraction(f64),
}

impl Balance {
    /// β (or ℓ) for n samples.
    pub fn beta(self, n: usize) -> f64 {
        match self {
            Balance::Absolute(b) => b,
            Balance::Fraction(f) => f * n as f64,
        }
    }

    /// Errors ([`Error::InvalidParam`] "balance"): a value that is not finite, negative,
    /// or zero when `positive` is asked; a fraction ≥ 1 (a bound ≥ n admits the
    /// one-cluster labelling). GMMC and CPMMC check their balance ℓ here too.
    pub fn check(self, positive: bool) -> Result<()> {
        let sign = if positive {
            validate::positive
        } else {
            validate::non_negative
        };
        match self {
            Balance::Absolute(b) => sign("balance", b),
            Balance::Fraction(f) => {
                sign("balance", f)?;
                mkc_core::mkc_ensure!(f < 1.0, param "balance", f, "a fraction of n must be < 1 (a bound ≥ n admits the one-cluster labelling)");
                Ok(())
            }
        }
    }
}

/// A configuration gives β as the fraction of n ([`Balance::Fraction`]); an absolute β
/// shows as its number.
impl mkc_core::params::ParamType for Balance {
    const KIND: mkc_core::params::ValueKind = mkc_core::params::ValueKind::Float;
    fn to_text(&self) -> String {
        match *self {
            Balance::Fraction(x) | Balance::Absolute(x) => mkc_core::params::float_text(x),
        }
    }
}

/// How the clustering is read off `M = Σ_t μ_t ŷ_t ŷ_tᵀ`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LabelRule {
    /// Signs of the top eigenvector v of M (the paper, Sections 3.1 and 3.6).
    Eigenvector,
    /// Signs of the SVM decision values `f = K(α∘v)` with v the top eigenvector of M
    /// as soft labels (what the LG-MMC code vendored in felixyu/pSVM does,
    /// `sign((α∘v)ᵀK)`).
    Decision,
}

/// Explicit features of a precomputed kernel for the search of eq. (13) (footnote 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FeatureMap {
    /// `U_r Λ_r^½` of the centred kernel (kernel PCA scores; ours, the default).
    Pca,
    /// The symmetric square root `U_r Λ_r^½ U_rᵀ` of the kernel with its bias (n
    /// features; the authors' package).
    Sqrt,
}

/// Which α-solver and which features of eq. (13) a fit uses (see [`LgmmcParams::path`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum LgmmcPath {
    /// The precomputed kernel of the set ([`mkc_core::KernelSet::one_kernel`]: the
    /// kernel, or the equal-weight mean of several), SMO on `K + b`, eq. (13) on the
    /// eigen-features of the centred kernel ([`FeatureMap`]).
    Kernel,
    /// The linear kernel `XXᵀ + b` of the set's feature matrix
    /// ([`mkc_core::KernelSet::require_features`]), in feature space: no n x n matrix,
    /// eq. (13) on the (centred) feature columns. The set's kernels are not read.
    Linear,
    /// [`LgmmcPath::Linear`] when the set has features and either no kernel or exactly
    /// one kernel whose name ends in `linear` (the workspace's name of `XXᵀ`, so the
    /// feature path computes the same kernel without forming it); [`LgmmcPath::Kernel`]
    /// otherwise (default).
    #[default]
    Auto,
}

crate::input_path!(LgmmcPath);
mkc_core::param_words!(LabelRule { "eigenvector" => LabelRule::Eigenvector, "decision" => LabelRule::Decision });
mkc_core::param_words!(FeatureMap { "pca" => FeatureMap::Pca, "sqrt" => FeatureMap::Sqrt });

mkc_core::params! {
    /// Unchecked LG-MMC parameters (builder). Defaults: the authors' released package v0.1
    /// (and its copy in felixyu/pSVM) where it has one, else ours, stated on each method.
    pub struct LgmmcParams {
        /// Regularisation C > 0 of eq. (1) (package default 1; the paper's grid
        /// {0.1, 0.5, 1, 5, 10, 100}).
        pub(crate) c: f64 = 1.0,
        /// Class balance β of the label set B (Section 2).
        pub(crate) balance: Balance = Balance::Fraction(0.03),
        /// Constant b ≥ 0 added to the kernel, `K + b·11ᵀ` (the package's `bias = 1`); the
        /// linear path appends the feature √b to every sample, which is the same kernel.
        pub(crate) bias: f64 = 1.0,
        /// Cap on cutting-plane rounds of Algorithm 1 (package default 20; the paper's
        /// Figure 1: never more than 20 needed).
        pub(crate) max_iter: usize = 20,
        /// Algorithm 1 stops when the objective of eq. (7) decreases by less than
        /// `tol · |J|` in a round (package: 0.01; the paper says "until convergence").
        pub(crate) tol: f64 = 1e-2,
        /// Cap on reduced-gradient steps of the multiple label-kernel problem per round
        /// (package: 3; the paper, Section 3.6: "a maximum of five iterations is good enough").
        pub(crate) mkl_max_iter: usize = 3,
        /// The MKL step stops when the label terms `½αᵀ(K∘y_t y_tᵀ)α` of the kernels in use
        /// agree to `mkl_tol` relative to the largest (the KKT condition of eq. 7 in μ).
        pub(crate) mkl_tol: f64 = 1e-2,
        /// Relative KKT tolerance of the α-solvers: violation ≤ `solver_tol · ρ` with ρ the
        /// margin of eq. (1) (SMO on the kernel path, dual coordinate descent on the linear path).
        pub(crate) solver_tol: f64 = 1e-2,
        /// Linear path: centre the feature columns before `K = XXᵀ + b` (default true,
        /// ours; see the `linear_path` module docs). The kernel path takes K as given.
        pub(crate) center: bool = true,
        /// Kernel path: the explicit features of eq. (13) (default [`FeatureMap::Pca`]).
        pub(crate) feature_map: FeatureMap = FeatureMap::Pca,
        /// How labels are read off M (default [`LabelRule::Decision`], as the authors' code;
        /// the paper's text describes [`LabelRule::Eigenvector`]. On MNIST 1 vs 7, linear,
        /// C = 1: 3.4% error against 6.9%).
        pub(crate) label_rule: LabelRule = LabelRule::Decision,
        /// Start Algorithm 1 from this label vector (±1 entries, in the balance set B)
        /// instead of the paper's Step 1, the most violated ŷ at α = 1/n (default). Eq. (7)
        /// is convex in M, so the start changes only where the stopping rules cut the
        /// iteration short and which label vectors enter M; used to ask whether a start at
        /// the true classes ends at a better objective (`lgmmc_margin_check` example).
        /// The length and the balance are checked when fitting.
        pub(crate) initial_labels: Option<Vec<f64>> = None,
        /// Ascent steps that refine the most violated label vector of eq. (13) on the
        /// ℓ2 objective of eq. (11) (ours; default 0 = the paper; see the `ascent` module
        /// docs in the crate source). Each step costs one kernel product over the support of α.
        pub(crate) refine_steps: usize = 0,
        /// The kernel path or the linear feature-space path ([`LgmmcPath`], default
        /// [`LgmmcPath::Auto`]).
        pub(crate) path: LgmmcPath = LgmmcPath::Auto,
        ;
        pub(crate) rank: FeatureRank = FeatureRank::default(),
    }
    /// C = 1, β = 0.03 n, bias 1, 20 cutting-plane rounds, relative tolerance 0.01,
    /// 3 μ-steps per round (the package's values).
    new;
    reflect also rank_params;
}

impl LgmmcParams {
    mkc_core::setters! {
        reflect rank_params;
        /// Kernel path: explicit features for eq. (13) are `U_r Λ_r^½` of the kernel
        /// (footnote 1), with r the smallest rank whose eigenvalues carry a fraction
        /// `1 − energy_tol` of the trace (ours; default 1e-3)…
        energy_tol: f64 => rank,
        /// … but at most `max_rank` (default 300).
        max_rank: usize => rank,
    }
}

mkc_core::checked! {
    /// Checked LG-MMC parameters: the [`mkc_core::Clusterer`] "lgmmc" (Algorithm 1).
    pub struct Lgmmc(LgmmcParams);
    |p| {
        validate::positive("C", p.c)?;
        p.balance.check(false)?;
        validate::non_negative("bias", p.bias)?;
        mkc_core::mkc_ensure!(p.max_iter >= 1, param "max_iter", p.max_iter, "must be at least 1");
        mkc_core::mkc_ensure!(p.mkl_max_iter >= 1, param "mkl_max_iter", p.mkl_max_iter, "must be at least 1");
        validate::non_negative("tol", p.tol)?;
        validate::non_negative("mkl_tol", p.mkl_tol)?;
        validate::positive("solver_tol", p.solver_tol)?;
        p.rank.check()?;
        if let Some(y) = &p.initial_labels {
            validate::binary_labels("initial_labels", y).map_err(|e| {
                Error::param(
                    "initial_labels",
                    format!("{} labels", y.len()),
                    e.to_string(),
                )
            })?;
        }
        Ok(())
    }
}

impl Lgmmc {
    /// The parameters.
    pub fn params(&self) -> &LgmmcParams {
        &self.p
    }

    /// β for n samples, checked: B must hold a labelling with both signs, i.e.
    /// `⌈(n−β)/2⌉ ≤ ⌊(n+β)/2⌋` and β < n.
    pub(crate) fn beta(&self, n: usize) -> Result<f64> {
        let beta = self.p.balance.beta(n);
        crate::violated::plus_range(n, beta)?;
        Ok(beta)
    }

    /// The first working-set vector: [`LgmmcParams::initial_labels`] checked against n
    /// and β, if given.
    pub(crate) fn initial_labels(&self, n: usize, beta: f64) -> Result<Option<Vec<f64>>> {
        let Some(y) = &self.p.initial_labels else {
            return Ok(None);
        };
        if y.len() != n {
            return Err(Error::param(
                "initial_labels",
                format!("{} labels", y.len()),
                format!("one label per sample: the data has n = {n}"),
            ));
        }
        let sum: f64 = y.iter().sum();
        if sum.abs() > beta + 1e-9 {
            return Err(Error::param(
                "initial_labels",
                sum,
                format!("1ᵀy = {sum} lies outside the balance set |1ᵀy| ≤ β = {beta}"),
            ));
        }
        Ok(Some(y.clone()))
    }
}
