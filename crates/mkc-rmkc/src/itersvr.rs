//! iterSVR (Zhang, Tsang & Kwok, "Maximum margin clustering made practical", ICML 2007),
//! the single-kernel margin-based baseline of the RMKC paper (Section 3).
//!
//! Alternate, on one precomputed kernel K, from initial labels y ∈ {±1}ᴺ:
//!
//! 1. fit an ε-SVR with targets y: f(x_i) = Σ_j β_j K_ij + b ([`mkc_svm::EpsSvr`]);
//! 2. relabel y_i = sign(f(x_i) − t), with the threshold t = 0 when those labels meet
//!    the balance bound −ℓ ≤ Σy ≤ ℓ of MMC (eq. 1 of the RMKC paper), otherwise the
//!    least shift of the threshold that meets it;
//!
//! until the labels stop changing.
//!
//! # Choices (ours; Zhang et al. leave them open or the RMKC paper does not restate them)
//! - **Loss**: Zhang et al. use the Laplacian loss |y_i − f(x_i)|, i.e. ε-SVR with ε = 0
//!   (the default here; ε is a parameter). C is the SVR's box constraint.
//! - **Initial labels**: kernel k-means (k = 2, k-means++ seeding, one initialisation,
//!   `mkc_kmeans`) from the run's seed, as the RMKC paper does ("the initial cluster
//!   labels are obtained from the kernel k-means solution", 30 runs). Cluster 1 → +1,
//!   and the result's cluster 1 is y = +1. [`IterSvr::fit_from`] takes any start.
//! - **Kernel**: iterSVR is a single-kernel method; given several kernels it runs on
//!   their equal-weight mean ([`mkc_core::KernelSet::one_kernel`]). The RMKC paper's
//!   tables run it on each basis kernel separately.
//! - **C**: the RMKC paper grid-searches C over {10⁻², …, 10²}; the default is 1, the
//!   middle of that grid.
//! - **Bias under the balance constraint**: Zhang et al. choose the bias so that the
//!   balance constraint holds. We keep the SVR's own bias whenever sign(f) already meets
//!   the bound (t = 0) and otherwise set the number of positives n₊ to the nearest
//!   admissible value, n₊ ∈ [⌈(N − ℓ)/2⌉, ⌊(N + ℓ)/2⌋], giving +1 to the n₊ largest f
//!   (ties to the lower index). f_i = 0 exactly is labelled +1.
//! - **ℓ**: the RMKC paper's protocol, ℓ = 0.03N for balanced and 0.3N for unbalanced
//!   datasets ([`IterSvrParams::balance`], a fraction of N; default 0.03). For an odd N
//!   ℓ is raised to 1 if smaller (an odd N cannot split evenly; 0.03N < 1 for N < 34).
//! - **Stopping**: the labels of an iteration equal those of the previous one, or of the
//!   one before (a 2-cycle, then the later labels are kept), or `max_iter` (default 50)
//!   iterations. Every SVR after the first is warm-started from the previous β.
//! - **SVR solver**: ε = 0 is solved in its n-variable form with the SMO solver's
//!   active-set polish ([`mkc_svm::polish`]; [`IterSvrParams::polish`]). At C = 100 on
//!   Letter A-B most of the n coefficients are free and plain SMO needs 10⁵–10⁶ pair
//!   updates per SVR; the result meets the same KKT tolerance (1e-3). Where the polish
//!   never settles, each attempt is a wasted m³/3 factorisation (Sick and Spambase's
//!   Gaussian kernels at C = 100: 1800–2700 free coefficients, the primal-dual iteration
//!   cycles with ~1000 set changes a round): once one SVR of a run made three or more
//!   attempts and none settled, the run's later SVRs are solved without the polish
//!   (ours). Spambase, σ = rms, C = 100, seed 1 (six SVRs, four failed attempts each;
//!   the same iterates as without the polish since no attempt settles), idle machine:
//!   26.5 s with the polish in every SVR, 13.1 s without it. A single failed attempt is
//!   no such evidence: on Letter A-B (σ = 0.6·range, C = 100, RMKC's recipe) most SVRs
//!   have failed attempts before one settles, and the run takes 4.8 user-s with the
//!   polish against 15.3 without it.
//! - **Degenerate relabelling**: if the relabelled y has one class only (possible only
//!   with ℓ ≥ N − 1), the iteration stops with the previous labels.
//!
//! # The linear feature-space path (MNIST, and every linear kernel of its features)
//!
//! [`IterSvrPath`] ([`IterSvrParams::path`]) chooses the input by LG-MMC's rule
//! (`mkc_lgmmc::InputPath::is_linear`): with `Auto` (default) a set that holds features
//! and either **no kernel** or one kernel that is their linear kernel `K = XXᵀ`
//! ([`mkc_core::KernelSet::is_features_linear`]: an MNIST pair with no kernel, whose
//! 1.8 GB XXᵀ is never formed; LG-MMC's linear kernel; a per-view linear kernel of
//! Multiple Features with its view as the features) runs iterSVR in feature space; any
//! other kernel runs the kernel path. Such a kernel used to stay on the kernel path
//! (the rule kept as [`IterSvrPath::KernelFirst`]), where SMO needs up to 0.4 s per SVR
//! at n = 349 (Spectf, C = 100: the dual of a rank-44 kernel is as degenerate as
//! MNIST's below) against about 2 ms in feature space. Both paths solve the same SVR to
//! the same tolerance, but its optimum is not unique and the alternation amplifies the
//! difference: cells move (RMKC Table 4's IterSVR columns; the note of the table lists
//! them). On the linear path:
//! - **SVR**: [`mkc_svm::LinearSvr`] with a free bias: the same ε-SVR problem as the
//!   kernel path's (`Σβ = 0`, b unregularised), solved to the same tolerance (`svm_tol`,
//!   here the largest projected gradient of the box constraints; the kernel path's SMO
//!   tests the gap of the KKT bias interval) by its default solver, semismooth Newton on
//!   the Huber-smoothed primal (d + 1 variables), warm-started from the previous β. On the
//!   MNIST pairs the Laplacian-loss dual is a degenerate, LP-like problem (≤ d + 1 of
//!   15170 β off their bounds at a non-degenerate optimum) on which dual coordinate
//!   descent stalled at a violation of about 0.05 and SMO on the formed 1.8 GB kernel did
//!   not finish one SVR in 390 s; the Newton solver meets 10⁻³ (one fit of MNIST 1 vs 7,
//!   C = 1, seed 0: five SVRs, 339 Newton steps, 37 s). If it fails, the descent continues (its epochs
//!   permuted from the run's seed; `max_epochs`, default 300, caps it): a capped SVR is
//!   recorded in the diagnostics (`svr_converged = false`), not an error.
//!   Outputs f = Xw + b cost O(nd) per iteration.
//! - **Initial labels**: given the kernel, kernel k-means on it, as the kernel path (the
//!   same labels for the same seed). Without it, k-means on the features
//!   (`mkc_kmeans::KMeans`, k = 2, one k-means++ seeding from the run's seed, stopping
//!   when the labels stop changing, at most 100 Lloyd steps): kernel k-means on the
//!   linear kernel is k-means on the features, and these settings are the kernel path's.
//!   The two can still part where a distance is tied up to rounding (`‖x_i − x_j‖²`
//!   against `K_ii − 2K_ij + K_jj`).
//! - **Relabelling, balance bound, stopping**: the kernel path's code.

mod linear;
mod starts;

use crate::signs::{clusters, signs};
use faer::MatRef;
pub use linear::IterSvrPath;
use linear::Start;
use mkc_core::{
    check_binary, Clustering, Diagnostics, Error, KernelSet, ParamGuard, Result, Timings,
};
use mkc_svm::{CheckedKernel, EpsSvr, EpsSvrParams, LinearBias, LinearSvrParams};
use std::time::Instant;

mkc_core::params! {
    /// Unchecked iterSVR hyperparameters (builder): `IterSvrParams::new().c(10.0)`.
    ///
    /// Fits through [`mkc_core::Clusterer`] directly (the parameters are checked first), or
    /// `check()` gives [`IterSvr`]. The number of clusters (always 2) and the seed are
    /// given when fitting.
    pub struct IterSvrParams {
        /// The SVR's box constraint C > 0.
        c: f64 = 1.0,
        /// Width ε ≥ 0 of the SVR's insensitive tube (0 = Laplacian loss).
        epsilon: f64 = 0.0,
        /// The balance bound ℓ as a fraction of N (≥ 0).
        balance: f64 = 0.03,
        /// Cap on the SVR / relabelling iterations (≥ 1).
        max_iter: usize = 50,
        /// KKT tolerance of every SVR solve.
        svm_tol: f64 = 1e-3,
        /// The SVR solver's [active-set polish](mkc_svm::polish) (default on).
        polish: bool = true,
        /// The kernel path or the linear feature-space path ([`IterSvrPath`], default
        /// [`IterSvrPath::Auto`]).
        path: IterSvrPath = IterSvrPath::Auto,
        /// Linear path: cap on the coordinate-descent epochs of one SVR when the Newton
        /// solver hands over to the descent (≥ 1; module docs).
        max_epochs: usize = 300,
    }
    /// Defaults: C = 1, ε = 0 (Laplacian loss), ℓ = 0.03N, at most 50 iterations, SVR
    /// tolerance 1e-3 (libsvm's), active-set polish on, the path chosen by the input, at
    /// most 300 epochs per linear SVR.
    new;
}

/// Checked iterSVR hyperparameters: fit through [`mkc_core::Clusterer`], or from given
/// labels with [`IterSvr::fit_from`].
///
/// [`mkc_core::Clusterer::fit`] runs iterSVR on the set's kernel (or the equal-weight
/// mean of its kernels), two clusters, from kernel k-means labels (k-means++ seeding
/// with the seed). The result: labels 0/1 (cluster 1 is y = +1), no kernel weights, the
/// objective trace of the SVR's dual objective value (maximisation form, one per
/// iteration; a record of the alternation, which Zhang et al. do not prove monotone),
/// the iterations (SVR fits), whether the labels settled before `max_iter`, timings by
/// phase and [`IterSvrDiagnostics`].
///
/// With features and no kernel (or [`IterSvrPath::Linear`]) it runs on the linear kernel
/// of the features in feature space (module docs, "The linear feature-space path").
///
/// Errors: `n_clusters ≠ 2` ([`Error::InvalidParam`] `n_clusters`), a set without
/// kernels on the kernel path or without features on the linear path
/// ([`Error::InvalidInput`]), a balance bound that forces an empty cluster
/// ([`Error::InvalidParam`] `balance`), a one-cluster k-means start.
#[derive(Clone, Debug, PartialEq)]
pub struct IterSvr {
    balance: f64,
    max_iter: usize,
    svr: EpsSvr,
    /// The same SVR without the polish, for the rest of a run once it failed in one SVR.
    svr_plain: EpsSvr,
    path: IterSvrPath,
    linear: LinearSvrParams,
}

impl ParamGuard for IterSvrParams {
    type Checked = IterSvr;
    fn check(&self) -> Result<IterSvr> {
        mkc_core::validate::positive("C", self.c)?;
        mkc_core::mkc_ensure!(self.balance.is_finite() && self.balance >= 0.0, param "balance", self.balance, "the fraction of N must be finite and >= 0");
        mkc_core::mkc_ensure!(self.max_iter >= 1, param "max_iter", self.max_iter, "must be at least 1");
        let svr = EpsSvrParams::new(self.c, self.epsilon)
            .tol(self.svm_tol)
            .polish(self.polish)
            .check()?;
        let svr_plain = EpsSvrParams::new(self.c, self.epsilon)
            .tol(self.svm_tol)
            .polish(false)
            .check()?;
        let linear = LinearSvrParams::new()
            .c(self.c)
            .epsilon(self.epsilon)
            .bias(LinearBias::Free)
            .tol(self.svm_tol)
            .max_epochs(self.max_epochs);
        linear.check()?;
        Ok(IterSvr {
            balance: self.balance,
            max_iter: self.max_iter,
            svr,
            svr_plain,
            path: self.path,
            linear,
        })
    }
}

/// Diagnostics of one iterSVR run ([`Clustering::diagnostics`]). The seconds are the
/// result's timings phases `"kmeans"` (the kernel k-means start) and `"svm"` (the SVR
/// solves and relabellings).
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct IterSvrDiagnostics {
    /// The initial labels (cluster indices 0/1).
    pub initial_labels: Vec<usize>,
    /// Labels changed by each relabelling.
    pub changes: Vec<usize>,
    /// Regression outputs f(x_i) of the last SVR.
    pub outputs: Vec<f64>,
    /// Whether the linear feature-space path ran ([`IterSvrPath`]).
    pub linear_path: bool,
    /// Whether every SVR met its tolerance.
    pub svr_converged: bool,
    /// Newton steps (or, where the descent took over, its epochs) of all SVRs (linear
    /// path; 0 on the kernel path).
    pub svr_epochs: usize,
}

impl IterSvrDiagnostics {
    /// Labels changed over the run (Σ of [`IterSvrDiagnostics::changes`]).
    pub fn relabelled(&self) -> usize {
        self.changes.iter().sum()
    }
}

impl Diagnostics for IterSvrDiagnostics {
    /// `relabelled`; on the linear path also `linear_path` (1), `svr_converged` (0/1) and
    /// `svr_epochs` (the kernel path's entries are unchanged).
    fn entries(&self) -> Vec<(String, f64)> {
        let mut e = vec![("relabelled".into(), self.relabelled() as f64)];
        if self.linear_path {
            e.push(("linear_path".into(), 1.0));
            e.push((
                "svr_converged".into(),
                f64::from(u8::from(self.svr_converged)),
            ));
            e.push(("svr_epochs".into(), self.svr_epochs as f64));
        }
        e
    }
}

/// The admissible range of n₊ under |Σy| ≤ ℓ (Σy = 2n₊ − N), ℓ raised to 1 for an odd
/// N (which cannot split evenly), or an error if it forces one cluster to be empty.
fn positives_range(n: usize, ell: f64) -> Result<(usize, usize)> {
    let nf = n as f64;
    let ell = ell.max((n % 2) as f64);
    let lo = ((nf - ell) / 2.0 - 1e-9).ceil().max(0.0) as usize;
    let hi = (((nf + ell) / 2.0 + 1e-9).floor() as usize).min(n);
    let (lo, hi) = (lo.max(1), hi.min(n.saturating_sub(1)));
    if lo > hi {
        return Err(Error::param(
            "balance",
            ell,
            format!("no labelling of N = {n} points with both clusters non-empty has |Σy| <= ℓ"),
        ));
    }
    Ok((lo, hi))
}

/// Relabel by the sign of `f` under the balance bound (see the module docs): sign(f)
/// if its number of positives lies in `[lo, hi]`, otherwise the `lo` (or `hi`) largest
/// values of f are +1 (ties to the lower index).
///
/// # Errors
/// Non-finite `f`, or a range with `lo > hi` or `hi > f.len()`.
pub fn relabel(f: &[f64], lo: usize, hi: usize) -> Result<Vec<f64>> {
    mkc_core::validate::finite_slice("regression outputs f", f)?;
    if lo > hi || hi > f.len() {
        return Err(Error::input(
            "balance range",
            format!(
                "[{lo}, {hi}] is not a range of positive counts for {} points",
                f.len()
            ),
        ));
    }
    let mut y: Vec<f64> = f
        .iter()
        .map(|&v| if v >= 0.0 { 1.0 } else { -1.0 })
        .collect();
    let n_plus = y.iter().filter(|&&t| t > 0.0).count();
    let target = n_plus.clamp(lo, hi);
    if target != n_plus {
        let mut order: Vec<usize> = (0..f.len()).collect();
        order.sort_by(|&a, &b| f[b].total_cmp(&f[a]).then(a.cmp(&b)));
        y.iter_mut().for_each(|t| *t = -1.0);
        for &i in &order[..target] {
            y[i] = 1.0;
        }
    }
    Ok(y)
}

impl IterSvr {
    /// Run from given labels (`labels0`, cluster indices 0/1, both present; cluster 1
    /// is the SVR target +1) instead of the kernel k-means start of [`Clusterer::fit`](mkc_core::Clusterer::fit):
    /// for studying the fixed point reached from a known start. The targets are used as
    /// given; the balance bound applies from the first relabelling on.
    ///
    /// # Errors
    /// The errors of [`Clusterer::fit`](mkc_core::Clusterer::fit), and [`Error::Shape`] / [`Error::InvalidInput`]
    /// for `labels0` of the wrong length, with a value other than 0/1, or with one
    /// cluster only.
    pub fn fit_from(
        &self,
        data: &KernelSet<'_>,
        labels0: &[usize],
    ) -> Result<Clustering<IterSvrDiagnostics>> {
        let t0 = Instant::now();
        check_binary("itersvr", data, 2)?;
        if self.linear_path(data) {
            let x = data.require_features("itersvr")?;
            let y0 = signs("labels0", labels0, data.n())?;
            return self.fit_linear(x, Start::Labels(y0), 0, Timings::default(), t0);
        }
        let k = data.one_kernel("itersvr")?;
        let ck = CheckedKernel::new(k.as_mat())?;
        let y0 = signs("labels0", labels0, data.n())?;
        self.run(&mut KernelStep::new(self, &ck), y0, Timings::default(), t0)
    }

    /// The alternation on the (single) kernel `k` from the targets `y0`; on the linear
    /// path (the kernel is the features' `XXᵀ`, [`IterSvrPath::Auto`]) the SVRs run in
    /// feature space from the same start. `timings` may hold the start's phase.
    #[allow(clippy::too_many_arguments)]
    fn fit_on(
        &self,
        data: &KernelSet<'_>,
        k: MatRef<'_, f64>,
        linear: bool,
        y0: Vec<f64>,
        seed: u64,
        timings: Timings,
        t0: Instant,
    ) -> Result<Clustering<IterSvrDiagnostics>> {
        if linear {
            let x = data.require_features("itersvr")?;
            return self.fit_linear(x, Start::Labels(y0), seed, timings, t0);
        }
        let ck = CheckedKernel::new(k)?;
        self.run(&mut KernelStep::new(self, &ck), y0, timings, t0)
    }

    /// The alternation from `y0` with the SVR `step` (kernel or linear), shared by both
    /// paths.
    fn run(
        &self,
        step: &mut impl SvrStep,
        y0: Vec<f64>,
        mut timings: Timings,
        t0: Instant,
    ) -> Result<Clustering<IterSvrDiagnostics>> {
        let n = y0.len();
        let ell = self.balance * n as f64;
        let (lo, hi) = positives_range(n, ell)?;
        if y0.iter().all(|&t| t == y0[0]) {
            return Err(Error::input(
                "initial labels",
                "only one cluster; iterSVR needs both",
            ));
        }
        let mut it = Alternation::new(y0);
        while it.n_iter < self.max_iter && !it.converged {
            timings.time("svm", || it.step(step, lo, hi))?;
        }
        timings.set_wall(t0.elapsed().as_secs_f64());
        let diag = IterSvrDiagnostics {
            initial_labels: clusters(&it.y0),
            changes: it.changes,
            outputs: it.f,
            linear_path: step.is_linear(),
            svr_converged: it.svr_converged,
            svr_epochs: step.epochs(),
        };
        Ok(Clustering::new(clusters(&it.y), 2, diag)
            .with_objective(it.objective)
            .with_iterations(it.n_iter, it.converged)
            .with_timings(timings))
    }
}

/// The start of a run on a kernel: kernel k-means (k = 2, one k-means++ seeding from
/// `seed`, the crate's defaults otherwise).
fn kernel_start(k: MatRef<'_, f64>, seed: u64) -> Result<Vec<usize>> {
    Ok(mkc_kmeans::KernelKMeansParams::new()
        .check()?
        .fit_kernel(k, 2, seed)?
        .labels)
}

impl IterSvr {
    /// The start (labels 0/1, cluster 1 the SVR target +1) of a fit on `data` with `seed`:
    /// kernel k-means on the set's kernel (or the mean of its kernels), or, on the linear
    /// path of a set without kernels, k-means on the features.
    ///
    /// It depends on the data, the path and the seed only, not on C, ε, the balance or
    /// the SVR settings. A grid over those can compute it once per seed and give it to
    /// every fit ([`IterSvr::fit_with_start`]): the fits are bit for bit those of
    /// [`Clusterer::fit`](mkc_core::Clusterer::fit) (the experiments runner shares the
    /// starts so across a C grid). Errors: those of the fit's start.
    pub fn start(&self, data: &KernelSet<'_>, n_clusters: usize, seed: u64) -> Result<Vec<usize>> {
        check_binary("itersvr", data, n_clusters)?;
        if self.linear_path(data) && data.is_empty() {
            return linear::feature_start(data.require_features("itersvr")?, seed);
        }
        kernel_start(data.one_kernel("itersvr")?.as_mat(), seed)
    }

    /// [`Clusterer::fit`](mkc_core::Clusterer::fit) from the start that
    /// [`IterSvr::start`] gives for the same data and seed (no "kmeans" phase). Unlike
    /// [`IterSvr::fit_from`], the seed still drives the linear path's epochs, so the
    /// result is the fit's.
    ///
    /// Errors: those of the fit, and [`Error::Shape`] / [`Error::InvalidInput`] for a
    /// start of the wrong length or with a label other than 0/1.
    pub fn fit_with_start(
        &self,
        data: &KernelSet<'_>,
        n_clusters: usize,
        seed: u64,
        start: &[usize],
    ) -> Result<Clustering<IterSvrDiagnostics>> {
        let t0 = Instant::now();
        check_binary("itersvr", data, n_clusters)?;
        // Checked as the fit's own start is (a one-cluster start fails in `run`, with the
        // fit's error), so that the outcome is the fit's in every case.
        mkc_core::validate::len("start", start.len(), data.n())?;
        if let Some(i) = start.iter().position(|&l| l > 1) {
            return Err(Error::input(
                "start",
                format!("label {} at index {i} is not 0 or 1", start[i]),
            ));
        }
        let y0 = targets(start);
        let linear = self.linear_path(data);
        if linear && data.is_empty() {
            let x = data.require_features("itersvr")?;
            return self.fit_linear(x, Start::Labels(y0), seed, Timings::default(), t0);
        }
        let k = data.one_kernel("itersvr")?;
        self.fit_on(data, k.as_mat(), linear, y0, seed, Timings::default(), t0)
    }
}

/// The SVR targets of a k-means start: cluster 1 → +1, every other → −1.
fn targets(labels: &[usize]) -> Vec<f64> {
    labels
        .iter()
        .map(|&c| if c == 1 { 1.0 } else { -1.0 })
        .collect()
}

/// The state of the SVR / relabelling alternation.
struct Alternation {
    y0: Vec<f64>,
    y: Vec<f64>,
    before: Option<Vec<f64>>,
    warm: Option<Vec<f64>>,
    changes: Vec<usize>,
    objective: Vec<f64>,
    f: Vec<f64>,
    n_iter: usize,
    converged: bool,
    svr_converged: bool,
}

/// One SVR fit of the alternation: its dual objective (maximisation form), outputs f and
/// coefficients β (the next warm start).
pub(crate) struct SvrFit {
    objective: f64,
    prediction: Vec<f64>,
    coef: Vec<f64>,
    converged: bool,
}

/// The SVR of the alternation on targets y, warm-started from β.
pub(crate) trait SvrStep {
    fn fit(&mut self, y: &[f64], warm: Option<&[f64]>) -> Result<SvrFit>;
    /// Whether this is the linear feature-space path.
    fn is_linear(&self) -> bool;
    /// Coordinate-descent epochs so far (0 for SMO).
    fn epochs(&self) -> usize;
}

/// After an SVR with at least this many polish attempts, none settled, the run's later
/// SVRs are solved without the polish (module docs, "SVR solver").
const POLISH_GIVE_UP: usize = 3;

/// The kernel path's SVR: [`EpsSvr`] on a checked kernel, with the active-set polish
/// until an SVR in which [`POLISH_GIVE_UP`] or more attempts failed and none settled,
/// without it from then on (module docs, "SVR solver").
struct KernelStep<'a> {
    svr: &'a EpsSvr,
    plain: &'a EpsSvr,
    k: &'a CheckedKernel<'a>,
    polish: bool,
}

impl<'a> KernelStep<'a> {
    fn new(it: &'a IterSvr, k: &'a CheckedKernel<'a>) -> Self {
        Self {
            svr: &it.svr,
            plain: &it.svr_plain,
            k,
            polish: true,
        }
    }
}

impl SvrStep for KernelStep<'_> {
    fn fit(&mut self, y: &[f64], warm: Option<&[f64]>) -> Result<SvrFit> {
        let svr = if self.polish { self.svr } else { self.plain };
        let m = svr.solve(self.k, y, warm)?;
        if m.polish.attempts >= POLISH_GIVE_UP && m.polish.settled == 0 {
            self.polish = false;
        }
        Ok(SvrFit {
            objective: m.objective,
            prediction: m.prediction,
            coef: m.coef,
            converged: m.status.converged,
        })
    }
    fn is_linear(&self) -> bool {
        false
    }
    fn epochs(&self) -> usize {
        0
    }
}

impl Alternation {
    fn new(y0: Vec<f64>) -> Self {
        Self {
            y: y0.clone(),
            y0,
            before: None,
            warm: None,
            changes: Vec::new(),
            objective: Vec::new(),
            f: Vec::new(),
            n_iter: 0,
            converged: false,
            svr_converged: true,
        }
    }

    /// One SVR on the current labels (warm-started from the previous β) and one
    /// relabelling; sets `converged` at a fixed point, a 2-cycle (the later labels are
    /// kept) or a one-class relabelling (the previous labels are kept).
    fn step(&mut self, svr: &mut impl SvrStep, lo: usize, hi: usize) -> Result<()> {
        self.n_iter += 1;
        let model = svr.fit(&self.y, self.warm.as_deref())?;
        self.svr_converged &= model.converged;
        self.objective.push(model.objective);
        let next = relabel(&model.prediction, lo, hi)?;
        self.f = model.prediction;
        self.warm = Some(model.coef);
        if next.iter().all(|&t| t == next[0]) {
            self.converged = true;
            return Ok(());
        }
        let changed = next.iter().zip(&self.y).filter(|(a, b)| a != b).count();
        self.changes.push(changed);
        if changed == 0 {
            self.converged = true;
            return Ok(());
        }
        let cycle = self.before.as_ref().is_some_and(|b| *b == next);
        self.before = Some(std::mem::replace(&mut self.y, next));
        self.converged = cycle;
        Ok(())
    }
}

mkc_core::clusterer! {
    IterSvr, "itersvr", IterSvrDiagnostics;
    /// See [`IterSvr`]: the kernel k-means start (k-means on the features on the linear
    /// path), then the alternation.
    fn fit(&self, data, n_clusters, seed) {
        let t0 = Instant::now();
        check_binary("itersvr", data, n_clusters)?;
        let linear = self.linear_path(data);
        if linear && data.is_empty() {
            let x = data.require_features("itersvr")?;
            return self.fit_linear(x, Start::KMeans, seed, Timings::default(), t0);
        }
        let k = data.one_kernel("itersvr")?;
        let mut timings = Timings::default();
        let km = timings.time("kmeans", || kernel_start(k.as_mat(), seed))?;
        self.fit_on(data, k.as_mat(), linear, targets(&km), seed, timings, t0)
    }
    /// The kernel (or the mean of the kernels) is formed once and shared by the
    /// restarts; each run's wall time includes an equal share of forming it. On the
    /// linear path every run prepares the features itself (O(nd)).
    fn fit_restarts(&self, data, n_clusters, seeds) {
        mkc_core::one_kernel_restarts(self, data, n_clusters, seeds)
    }
}

mkc_core::clusterer_via_check!(IterSvrParams, "itersvr");
