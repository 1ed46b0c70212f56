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
//!   labels are obtained from the kernel k-means solution", 30 runs). Cluster 1 → +1.
//!   [`IterSvr::fit_from`] takes any start.
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
//!   updates per SVR; the result meets the same KKT tolerance (1e-3).
//! - **Degenerate relabelling**: if the relabelled y has one class only (possible only
//!   with ℓ ≥ N − 1), the iteration stops with the previous labels.

use faer::MatRef;
use mkc_core::{Error, ParamGuard, Result};
use mkc_svm::{CheckedKernel, EpsSvr, EpsSvrParams};

/// Unchecked iterSVR hyperparameters (builder); `check()` gives [`IterSvr`].
#[derive(Clone, Debug, PartialEq)]
pub struct IterSvrParams {
    c: f64,
    epsilon: f64,
    balance: f64,
    max_iter: usize,
    svm_tol: f64,
    polish: bool,
}

impl IterSvrParams {
    /// SVR box constraint C (> 0). Defaults: ε = 0 (Laplacian loss), ℓ = 0.03N, at most
    /// 50 iterations, SVR tolerance 1e-3 (libsvm's).
    pub fn new(c: f64) -> Self {
        Self {
            c,
            epsilon: 0.0,
            balance: 0.03,
            max_iter: 50,
            svm_tol: 1e-3,
            polish: true,
        }
    }
    /// Width ε ≥ 0 of the SVR's insensitive tube (0 = Laplacian loss).
    pub fn epsilon(mut self, e: f64) -> Self {
        self.epsilon = e;
        self
    }
    /// The balance bound ℓ as a fraction of N (≥ 0).
    pub fn balance(mut self, f: f64) -> Self {
        self.balance = f;
        self
    }
    /// Cap on the SVR / relabelling iterations (≥ 1).
    pub fn max_iter(mut self, m: usize) -> Self {
        self.max_iter = m;
        self
    }
    /// KKT tolerance of every SVR solve.
    pub fn svm_tol(mut self, t: f64) -> Self {
        self.svm_tol = t;
        self
    }
    /// The SVR solver's [active-set polish](mkc_svm::polish) (default on).
    pub fn polish(mut self, on: bool) -> Self {
        self.polish = on;
        self
    }
}

/// Checked iterSVR hyperparameters.
#[derive(Clone, Debug, PartialEq)]
pub struct IterSvr {
    balance: f64,
    max_iter: usize,
    svr: EpsSvr,
}

impl ParamGuard for IterSvrParams {
    type Checked = IterSvr;
    fn check(&self) -> Result<IterSvr> {
        mkc_core::validate::positive("C", self.c)?;
        if !(self.balance.is_finite() && self.balance >= 0.0) {
            return Err(Error::param(
                "balance",
                self.balance,
                "the fraction of N must be finite and >= 0",
            ));
        }
        if self.max_iter == 0 {
            return Err(Error::param("max_iter", 0, "must be at least 1"));
        }
        let svr = EpsSvrParams::new(self.c, self.epsilon)
            .tol(self.svm_tol)
            .polish(self.polish)
            .check()?;
        Ok(IterSvr {
            balance: self.balance,
            max_iter: self.max_iter,
            svr,
        })
    }
}

/// The result of an iterSVR run.
#[derive(Clone, Debug)]
pub struct IterSvrFit {
    /// Labels y ∈ {−1, +1}ᴺ.
    pub y: Vec<f64>,
    /// The initial labels.
    pub y0: Vec<f64>,
    /// Regression outputs f(x_i) of the last SVR.
    pub f: Vec<f64>,
    /// Labels changed by each relabelling.
    pub changes: Vec<usize>,
    /// SVR dual objective of each iteration.
    pub objective: Vec<f64>,
    /// SVR fits made.
    pub n_iter: usize,
    /// Whether the labels settled (fixed point or 2-cycle) before `max_iter`.
    pub converged: bool,
}

impl IterSvrFit {
    /// Labels as cluster indices: −1 → 0, +1 → 1.
    pub fn clusters(&self) -> Vec<usize> {
        self.y.iter().map(|&t| usize::from(t > 0.0)).collect()
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
    /// Run from kernel k-means labels (k = 2, k-means++ seeding with `seed`).
    pub fn fit(&self, k: MatRef<'_, f64>, seed: u64) -> Result<IterSvrFit> {
        let ck = CheckedKernel::new(k)?;
        let n = ck.size();
        if n < 2 {
            return Err(Error::input(
                "kernel",
                format!("iterSVR needs at least 2 points, got {n}"),
            ));
        }
        let km = mkc_kmeans::KernelKMeansParams::new()
            .check()?
            .fit_kernel(k, 2, seed)?;
        let y0: Vec<f64> = km
            .labels
            .iter()
            .map(|&c| if c == 1 { 1.0 } else { -1.0 })
            .collect();
        self.run(&ck, y0)
    }

    /// Run from given labels y⁽⁰⁾ ∈ {±1}ᴺ (both present; used as SVR targets as given,
    /// the balance bound applies from the first relabelling on).
    pub fn fit_from(&self, k: MatRef<'_, f64>, y0: &[f64]) -> Result<IterSvrFit> {
        let ck = CheckedKernel::new(k)?;
        mkc_core::validate::len("y0", y0.len(), ck.size())?;
        mkc_core::validate::binary_labels("y0", y0)?;
        self.run(&ck, y0.to_vec())
    }

    fn run(&self, k: &CheckedKernel<'_>, y0: Vec<f64>) -> Result<IterSvrFit> {
        let n = k.size();
        let ell = self.balance * n as f64;
        let (lo, hi) = positives_range(n, ell)?;
        if y0.iter().all(|&t| t == y0[0]) {
            return Err(Error::input(
                "initial labels",
                "only one cluster; iterSVR needs both",
            ));
        }
        let mut y = y0.clone();
        let mut before: Option<Vec<f64>> = None;
        let mut warm: Option<Vec<f64>> = None;
        let mut changes = Vec::new();
        let mut objective = Vec::new();
        let mut f = Vec::new();
        let mut converged = false;
        let mut n_iter = 0;
        while n_iter < self.max_iter {
            n_iter += 1;
            let model = self.svr.solve(k, &y, warm.as_deref())?;
            objective.push(model.objective);
            let next = relabel(&model.prediction, lo, hi)?;
            f = model.prediction;
            warm = Some(model.coef);
            if next.iter().all(|&t| t == next[0]) {
                converged = true;
                break;
            }
            let changed = next.iter().zip(&y).filter(|(a, b)| a != b).count();
            changes.push(changed);
            if changed == 0 {
                converged = true;
                break;
            }
            let cycle = before.as_ref().is_some_and(|b| *b == next);
            before = Some(std::mem::replace(&mut y, next));
            if cycle {
                converged = true;
                break;
            }
        }
        Ok(IterSvrFit {
            y,
            y0,
            f,
            changes,
            objective,
            n_iter,
            converged,
        })
    }
}
