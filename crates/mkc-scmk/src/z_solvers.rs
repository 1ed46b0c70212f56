//! The Z-step solvers of one run, built once per fit: SMO (exact, and for
//! [`ZSolver::Auto`] also with a pair-update budget) and the APG step sizes
//! λ_max(ΠK^iΠ), one per kernel (`lipschitz` module).

use faer::MatRef;
use mkc_core::{ParamGuard, Result};
use mkc_qp::{CappedSimplexQp, CappedSimplexSolver};

use crate::apg::{SmoSolvers, SMO_BUDGET_DIV};
use crate::params::{Settings, APG_MAX_ITER};
use crate::step_sizes::StepSizes;
use crate::z_step::{z_step_apg, z_step_smo, ZProblem, ZSolver, ZStep};

/// Everything a Z step (11) needs besides K, P and the previous Z.
pub(crate) struct ZSolvers {
    kind: ZSolver,
    alpha: f64,
    beta: f64,
    qp_tol: f64,
    exact: CappedSimplexSolver,
    /// SMO with a budget of n / SMO_BUDGET_DIV pair updates per column (unless the user
    /// capped them): `Auto` gives SMO the sparse-start columns with this budget while
    /// the projected equality-constrained start has not been computed, and a column
    /// whose solution turns out much denser than its start (α = 0.1 on AR, α ≳ 1 on BA:
    /// thousands of O(n) updates) is finished by APG from that start instead
    /// (`apg::SmoSolvers`).
    capped: CappedSimplexSolver,
    /// λ_max(ΠK^iΠ) per kernel (APG and Auto only).
    lams: Vec<f64>,
    apg_max_iter: usize,
    /// One fixed kernel (SCSK): K is the kernel itself, its λ used as is.
    single: bool,
}

impl ZSolvers {
    /// The solvers for `kernels` (validated, n x n); `learn_weights`: SCMK. The step
    /// sizes are `steps` (checked by the caller to be those of `kernels` under `s`), or
    /// computed here.
    pub(crate) fn new(
        s: &Settings,
        kernels: &[MatRef<'_, f64>],
        learn_weights: bool,
        steps: Option<&StepSizes>,
    ) -> Result<Self> {
        let n = kernels[0].nrows();
        let mut qp = CappedSimplexQp::new(1.0).tol(s.qp_tol);
        if let Some(m) = s.qp_max_iter {
            qp = qp.max_iter(m);
        }
        let exact = qp.check()?;
        let capped = match s.qp_max_iter {
            Some(_) => exact,
            None => qp.max_iter((n / SMO_BUDGET_DIV).max(1)).check()?,
        };
        let lams = match steps {
            Some(st) => st.lams.clone(),
            None => StepSizes::compute(s, kernels)?.lams,
        };
        Ok(Self {
            kind: s.z_solver,
            alpha: s.alpha,
            beta: s.beta,
            qp_tol: s.qp_tol,
            exact,
            capped,
            lams,
            apg_max_iter: s.qp_max_iter.unwrap_or(APG_MAX_ITER),
            single: kernels.len() == 1 && !learn_weights,
        })
    }

    /// Whether K is the one fixed kernel, used in place (no K_w to form).
    pub(crate) fn single(&self) -> bool {
        self.single
    }

    /// Every column of Z by (11) on `k` = K_w with weights `w`, warm-started from `z`.
    pub(crate) fn step(
        &self,
        k: MatRef<'_, f64>,
        p: MatRef<'_, f64>,
        z: MatRef<'_, f64>,
        w: &[f64],
    ) -> Result<ZStep> {
        let x = ZProblem {
            k,
            p,
            alpha: self.alpha,
            beta: self.beta,
            warm: Some(z),
        };
        if self.kind == ZSolver::Smo {
            return z_step_smo(&x, &self.exact);
        }
        // λ_max(ΠK_wΠ) ≤ Σ w_i λ_max(ΠK^iΠ) (w ≥ 0).
        let lam = if self.single {
            self.lams[0]
        } else {
            w.iter().zip(&self.lams).map(|(a, b)| a * b).sum()
        };
        let smo = (self.kind == ZSolver::Auto).then_some(SmoSolvers {
            exact: &self.exact,
            capped: &self.capped,
        });
        z_step_apg(&x, lam, self.qp_tol, self.apg_max_iter, smo)
    }
}
