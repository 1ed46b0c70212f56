//! SCMK, Algorithm 2: twin learning of similarity and clustering with multiple kernels,
//! problem (18): Algorithm 1's steps on K_w = Σ w_i K^i (17), then the weights by (22).

use faer::MatRef;
use mkc_core::{validate, Result};

use crate::alternate::alternate;
use crate::fit::TwinFit;
use crate::params::Settings;

/// Checked SCMK parameters (from [`ScmkParams`](crate::ScmkParams)).
#[derive(Debug, Clone, PartialEq)]
pub struct Scmk {
    pub(crate) s: Settings,
}

impl Scmk {
    /// Run Algorithm 2 on the kernels K^1 … K^r (each n x n, symmetric PSD).
    ///
    /// # Errors
    /// No kernels; a kernel empty, non-square, non-finite or non-symmetric; kernels of
    /// different sizes; c > n; a clearly negative reconstruction cost (20) (a kernel that
    /// is not PSD).
    pub fn fit(&self, kernels: &[MatRef<'_, f64>]) -> Result<TwinFit> {
        let n = validate::kernels("kernels", kernels)?;
        validate::n_clusters(self.s.n_clusters, n, 1)?;
        alternate(&self.s, kernels, true)
    }
}
