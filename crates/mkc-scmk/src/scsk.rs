//! SCSK, Algorithm 1: twin learning of similarity and clustering with a single kernel,
//! problem (7).

use faer::MatRef;
use mkc_core::{validate, Result};

use crate::alternate::alternate;
use crate::fit::TwinFit;
use crate::params::Settings;

/// Checked SCSK parameters (from [`ScskParams`](crate::ScskParams)).
#[derive(Debug, Clone, PartialEq)]
pub struct Scsk {
    pub(crate) s: Settings,
}

impl Scsk {
    /// Run Algorithm 1 on one kernel K (n x n, symmetric PSD). `weights` of the fit is `[1.0]`.
    ///
    /// # Errors
    /// K empty, non-square, non-finite or non-symmetric; c > n.
    pub fn fit(&self, k: MatRef<'_, f64>) -> Result<TwinFit> {
        let n = validate::kernel("K", k)?;
        validate::n_clusters(self.s.n_clusters, n, 1)?;
        alternate(&self.s, &[k], false)
    }
}
