//! The APG step sizes of a fit, λ_max(ΠK^iΠ) for every kernel the method reads (`apg`
//! and `lipschitz` module docs): one block Lanczos solve per kernel, seeded by the
//! eigensolver options and independent of α, β and every other setting. The experiments
//! runner computes them once for all the points of an (α, β) grid on the same kernels
//! ([`Scsk::step_sizes`](crate::Scsk::step_sizes), [`Scmk::step_sizes`](crate::Scmk::step_sizes))
//! and the fits start from them ([`Scsk::fit_restarts_with`](crate::Scsk::fit_restarts_with),
//! [`Scmk::fit_restarts_with`](crate::Scmk::fit_restarts_with)), bit for bit the runs of
//! `fit_restarts`.

use std::time::Instant;

use faer::MatRef;
use mkc_core::{Error, Result};

use crate::lipschitz::tangent_lambda_max;
use crate::params::Settings;
use crate::ZSolver;

/// λ_max(ΠK^iΠ) for the kernels of one fit (none for [`ZSolver::Smo`], which takes no
/// step), with what they were made for.
#[derive(Debug, Clone, PartialEq)]
pub struct StepSizes {
    pub(crate) lams: Vec<f64>,
    /// n, the number of kernels and the eigensolver seed they were computed with.
    shape: (usize, usize, u64),
    apg: bool,
    seconds: f64,
}

impl StepSizes {
    /// The step sizes of `kernels` (validated, n x n) under `s`.
    pub(crate) fn compute(s: &Settings, kernels: &[MatRef<'_, f64>]) -> Result<Self> {
        let t0 = Instant::now();
        let apg = s.z_solver != ZSolver::Smo;
        let lams = if apg {
            kernels
                .iter()
                .map(|k| tangent_lambda_max(*k, s.eigen.seed))
                .collect::<Result<_>>()?
        } else {
            Vec::new()
        };
        Ok(Self {
            lams,
            shape: (kernels[0].nrows(), kernels.len(), s.eigen.seed),
            apg,
            seconds: t0.elapsed().as_secs_f64(),
        })
    }

    /// The upper bounds on λ_max(ΠK^iΠ), one per kernel (empty for SMO).
    pub fn values(&self) -> &[f64] {
        &self.lams
    }

    /// Seconds it took to compute them.
    pub fn seconds(&self) -> f64 {
        self.seconds
    }

    /// These step sizes belong to a fit of `kernels` under `s`: the same n, number of
    /// kernels, eigensolver seed and kind of Z solver (APG or not).
    pub(crate) fn check(&self, s: &Settings, kernels: &[MatRef<'_, f64>]) -> Result<()> {
        let want = (kernels[0].nrows(), kernels.len(), s.eigen.seed);
        let apg = s.z_solver != ZSolver::Smo;
        if self.shape != want || self.apg != apg {
            return Err(Error::input(
                "step sizes",
                format!(
                    "made for n = {}, {} kernels, eigensolver seed {}, {} Z solver; this fit \
                     has n = {}, {} kernels, seed {}, {} Z solver",
                    self.shape.0,
                    self.shape.1,
                    self.shape.2,
                    if self.apg { "an APG" } else { "the SMO" },
                    want.0,
                    want.1,
                    want.2,
                    if apg { "an APG" } else { "the SMO" },
                ),
            ));
        }
        Ok(())
    }
}
