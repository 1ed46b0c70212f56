//! C-SVC on a precomputed kernel:
//!
//! ```text
//! max_α  Σ_i α_i − ½ Σ_ij α_i α_j y_i y_j s K_ij   s.t.  0 ≤ α_i ≤ C,  yᵀα = 0
//! ```
//!
//! (RMKC eq. 10 with `s = 1/E(θ, y)`; `s = 1` is the plain C-SVC). Solved by [`Smo`]
//! with `Q = s (yyᵀ) ∘ K`, `p = −1`. Decision values on the training points
//! `f_i = Σ_j α_j y_j s K_ij + b` come for free from the gradient:
//! `f_i = y_i (G_i + 1) + b`, with `b = −ρ` (libsvm's bias).

use crate::free_system::FreeFactor;
use crate::kernel::{AsSvcKernel, CheckedKernel, SvcKernel};
use crate::solver::{Problem, SolveStatus};
use faer::MatRef;
use mkc_core::Result;

crate::solver::smo_front_end! {
    /// Unchecked C-SVC hyperparameters; `check()` gives a [`CSvc`].
    pub struct CSvcParams =>
    /// A checked C-SVC.
    CSvc { c: f64 }
    /// Box constraint C (> 0); tolerance 1e-3, libsvm's iteration cap, shrinking on.
    new;
    |p| mkc_core::validate::positive("C", p.c)
}

/// Relative margin of [`CSvc::solve_below`]: a solve is cut only when an iterate's dual
/// value exceeds `j_max` by this times `1 + |j_max|`, far above the rounding of the
/// value followed step by step (~1e-13 relative after 10⁴ steps).
pub const J_MARGIN: f64 = 1e-9;

/// A fitted C-SVC.
#[derive(Clone, Debug)]
pub struct SvcModel {
    /// Dual variables α (0 ≤ α_i ≤ C, yᵀα = 0).
    pub alpha: Vec<f64>,
    /// Bias b (= −ρ of libsvm).
    pub b: f64,
    /// Dual objective in maximisation form `Σα − ½αᵀ(yyᵀ ∘ sK)α` (RMKC eq. 11); libsvm
    /// reports its negative.
    pub objective: f64,
    /// Decision values on the training points, `f_i = Σ_j α_j y_j s K_ij + b`.
    pub decision: Vec<f64>,
    /// Indices with α_i > 0, increasing.
    pub support: Vec<usize>,
    /// SMO iterations, whether the tolerance was met, the final maximal KKT violation.
    pub status: SolveStatus,
    /// The factorisation carried to the next warm start ([`CSvcParams::carry_factor`];
    /// `None` unless it is on).
    pub factor: Option<KernelFactor>,
}

/// The Cholesky factor of a model's free set, carried to the next warm start on the
/// same kernel ([`CSvcParams::carry_factor`], [`CSvc::solve_from`]): kept free of the
/// labels (`s K_BB + δI = (S L)(S L)ᵀ` for a sign vector S that takes the labels out),
/// so that labels flipped before the next solve only change signs, and tied to the
/// kernel scale `s` it was made with (a solve at another scale does not use it).
#[derive(Clone, Debug)]
pub struct KernelFactor {
    factor: FreeFactor,
    scale: f64,
}

impl KernelFactor {
    /// Number of variables factorised.
    pub fn len(&self) -> usize {
        self.factor.len()
    }

    /// Whether no variable is factorised (never, for a factor a solve hands out).
    pub fn is_empty(&self) -> bool {
        self.factor.is_empty()
    }

    /// From a solve's factor of `Q = s Y K Y` (labels `y`): the labels taken out.
    fn from_solve(mut factor: FreeFactor, y: &[f64], scale: f64) -> Self {
        for (d, &v) in factor.sign.iter_mut().zip(&factor.vars) {
            *d *= y[v];
        }
        Self { factor, scale }
    }

    /// The factor of `Q = s Y K Y` for labels `y` (shared, not copied: only the signs
    /// are new).
    fn for_labels(&self, y: &[f64]) -> FreeFactor {
        let f = &self.factor;
        FreeFactor {
            sign: f.sign.iter().zip(&f.vars).map(|(d, &v)| d * y[v]).collect(),
            vars: f.vars.clone(),
            l: f.l.clone(),
            ridge: f.ridge,
        }
    }
}

impl CSvc {
    /// The box constraint C.
    pub fn c(&self) -> f64 {
        self.c
    }

    /// Fit on kernel `k` (validated here) with labels `y ∈ {−1, +1}ⁿ` (both classes).
    pub fn fit(&self, k: MatRef<'_, f64>, y: &[f64]) -> Result<SvcModel> {
        self.solve(&CheckedKernel::new(k)?, 1.0, y, None)
    }

    /// Fit from a previous α (e.g. before a label flip): repaired to feasibility (clip to
    /// `[0, C]`, then restore `yᵀα = 0`; see the crate docs) and used as the start.
    pub fn fit_warm(&self, k: MatRef<'_, f64>, y: &[f64], prev_alpha: &[f64]) -> Result<SvcModel> {
        self.solve(&CheckedKernel::new(k)?, 1.0, y, Some(prev_alpha))
    }

    /// Warm start from a previous model on the same kernel `K` (labels `prev_y`, scale
    /// `prev_scale`), after labels flipped and/or the scale changed (RMKC: one flip, and
    /// `K̃/E` with a new `E`). The start gradient is rebuilt from `prev.decision` in
    /// O(n · #flipped labels with α ≠ 0) instead of O(n · #nonzero α):
    /// `u = K(α ∘ y) = (f − b)/s_prev`, corrected by `K_{:,j} α_j (y_j − y_prev_j)`,
    /// then `G_i = s y_i u_i − 1`. `prev` must come from this kernel. With
    /// [`CSvcParams::carry_factor`] and [`CSvcParams::warm_polish`] on, the warm-start
    /// polish starts from `prev`'s factor ([`KernelFactor`]) when it was made at this
    /// scale, instead of factorising.
    pub fn solve_from<K: AsSvcKernel + ?Sized>(
        &self,
        k: &K,
        scale: f64,
        y: &[f64],
        prev: &SvcModel,
        prev_y: &[f64],
        prev_scale: f64,
    ) -> Result<SvcModel> {
        let k = k.as_svc_kernel();
        let n = k.size();
        mkc_core::validate::len("labels y", y.len(), n)?;
        mkc_core::validate::len("previous labels", prev_y.len(), n)?;
        mkc_core::validate::len("previous alpha", prev.alpha.len(), n)?;
        mkc_core::validate::len("previous decision values", prev.decision.len(), n)?;
        mkc_core::validate::binary_labels("labels y", y)?;
        mkc_core::validate::binary_labels("previous labels", prev_y)?;
        mkc_core::validate::positive("kernel scale", scale)?;
        mkc_core::validate::positive("previous kernel scale", prev_scale)?;
        let mut u: Vec<f64> = prev
            .decision
            .iter()
            .map(|f| (f - prev.b) / prev_scale)
            .collect();
        let plain = k.signed(1.0, None)?;
        for j in 0..n {
            let d = prev.alpha[j] * (y[j] - prev_y[j]);
            if d != 0.0 {
                crate::qmatrix::QMatrix::add_column(&plain, j, d, &mut u);
            }
        }
        let g: Vec<f64> = u
            .iter()
            .zip(y)
            .map(|(ui, yi)| scale * yi * ui - 1.0)
            .collect();
        let carried = match &prev.factor {
            Some(f) if self.smo.carries_factor() && f.scale.to_bits() == scale.to_bits() => {
                Some(f.for_labels(y))
            }
            _ => None,
        };
        Ok(self
            .solve_impl(k, scale, y, Some(&prev.alpha), Some(&g), None, carried)?
            .expect("no floor, no cut"))
    }

    /// The general entry point: kernel `scale · K` for a kernel checked once, optional
    /// warm start. RMKC solves eq. (10) as `solve(&k_tilde, 1.0 / e, &y, Some(&prev))`.
    pub fn solve<K: AsSvcKernel + ?Sized>(
        &self,
        k: &K,
        scale: f64,
        y: &[f64],
        warm: Option<&[f64]>,
    ) -> Result<SvcModel> {
        self.solve_inner(k.as_svc_kernel(), scale, y, warm, None)
    }

    /// [`CSvc::solve`] from α = 0 for a caller that only needs the model if its dual
    /// objective J stays below `j_max` (RMKC's initial splits: only the least J counts):
    /// `None` as soon as an SMO iterate's dual value exceeds `j_max` by the relative
    /// margin [`J_MARGIN`] (SMO never lowers the dual value, so the optimum's exceeds
    /// `j_max` too), else the model, the same as [`CSvc::solve`]'s.
    pub fn solve_below<K: AsSvcKernel + ?Sized>(
        &self,
        k: &K,
        scale: f64,
        y: &[f64],
        j_max: f64,
    ) -> Result<Option<SvcModel>> {
        mkc_core::validate::finite_slice("j_max", &[j_max])?;
        let floor = -(j_max + J_MARGIN * (1.0 + j_max.abs()));
        let model = self.solve_impl(k.as_svc_kernel(), scale, y, None, None, Some(floor), None)?;
        Ok(model)
    }

    fn solve_inner(
        &self,
        k: SvcKernel<'_>,
        scale: f64,
        y: &[f64],
        warm: Option<&[f64]>,
        gradient: Option<&[f64]>,
    ) -> Result<SvcModel> {
        Ok(self
            .solve_impl(k, scale, y, warm, gradient, None, None)?
            .expect("no floor, no cut"))
    }

    #[allow(clippy::too_many_arguments)]
    fn solve_impl(
        &self,
        k: SvcKernel<'_>,
        scale: f64,
        y: &[f64],
        warm: Option<&[f64]>,
        gradient: Option<&[f64]>,
        floor: Option<f64>,
        carried: Option<FreeFactor>,
    ) -> Result<Option<SvcModel>> {
        let n = k.size();
        mkc_core::validate::len("labels y", y.len(), n)?;
        mkc_core::validate::binary_labels("labels y", y)?;
        mkc_core::validate::positive("kernel scale", scale)?;
        let q = k.signed(scale, Some(y))?;
        let p = vec![-1.0; n];
        let lower = vec![0.0; n];
        let upper = vec![self.c; n];
        let problem = Problem {
            p: &p,
            y,
            delta: 0.0,
            lower: &lower,
            upper: &upper,
        };
        let sol = match (warm, gradient, floor) {
            (_, _, Some(f)) => self.smo.solve_with_floor(&q, &problem, warm, f)?,
            (Some(a), Some(g), None) => match carried {
                Some(c) => self.smo.solve_carried(&q, &problem, a, g, c)?,
                None => self.smo.solve_with_gradient(&q, &problem, a, g)?,
            },
            _ => self.smo.solve(&q, &problem, warm)?,
        };
        if let SvcKernel::Sum(sum) = k {
            // Columns formed during the solve may have overflowed (`KernelSum` docs).
            sum.check_overflow()?;
        }
        if sol.floored {
            return Ok(None);
        }
        let b = -sol.rho;
        let decision = sol
            .gradient
            .iter()
            .zip(y)
            .map(|(g, yi)| yi * (g + 1.0) + b)
            .collect();
        let support = (0..n).filter(|&i| sol.alpha[i] > 0.0).collect();
        let factor = sol.factor.map(|f| KernelFactor::from_solve(f, y, scale));
        Ok(Some(SvcModel {
            factor,
            b,
            objective: -sol.objective,
            decision,
            support,
            status: sol.status,
            alpha: sol.alpha,
        }))
    }
}
