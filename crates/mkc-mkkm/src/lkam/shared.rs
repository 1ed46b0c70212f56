//! LKAM's work that does not depend on λ, computed once for a grid over λ
//! ([`Lkam::local_structure`], [`Lkam::fit_restarts_with`]).
//!
//! Step 0 of the [module docs](super) — the preprocessing, the τ-nearest neighbourhoods,
//! the count matrix A, the localised kernels and HE — depends on the kernels, τ and the
//! preprocessing only, and the alternation after it reads only the localised kernels and
//! HE (kept here: m n x n matrices). At n = 2236 with ten kernels it is most of a fit: the
//! alternation after it takes a few top-k eigensolves. A grid over λ (the authors search
//! 11 values per τ) can compute it once per τ and fit every λ from it, with the same
//! results bit for bit.

use std::time::{Duration, Instant};

use faer::MatRef;
use mkc_core::{Clustering, Error, KernelSet, Result, WeightConstraint};

use super::{Lkam, LkamDiagnostics, Local};
use crate::preprocess::{Prepared, Preprocessing};
use crate::restarts::seeded;

/// LKAM's step 0 on the preprocessed kernels for one τ ([`Lkam::local_structure`]).
#[derive(Debug)]
pub struct LocalStructure {
    tau: f64,
    preprocessing: Preprocessing,
    /// n and the number of kernels it was computed for.
    shape: (usize, usize),
    local: Local,
    preprocess_time: Duration,
}

impl LocalStructure {
    /// Seconds of the preprocessing and of step 0 (neighbourhoods, A, localised kernels,
    /// HE).
    pub fn seconds(&self) -> (f64, f64) {
        (
            self.preprocess_time.as_secs_f64(),
            self.local.time.as_secs_f64(),
        )
    }

    /// The neighbourhood size `s = round(τ n)`.
    pub fn neighbourhood_size(&self) -> usize {
        self.local.s
    }
}

impl Lkam {
    /// The work of a fit on `data` that does not depend on λ, the tolerance, the
    /// iteration cap, the zero-weight threshold or the k-means options: the kernels
    /// preprocessed, then step 0 of the [module docs](super) with this τ. Fits with the
    /// same τ and preprocessing start from it ([`Lkam::fit_restarts_with`]); the
    /// experiments runner shares it so across a λ grid.
    ///
    /// Errors: a set without kernels ([`Error::InvalidInput`]), a zero kernel, and τ
    /// giving no neighbour or every sample ([`Error::InvalidParam`] `tau`).
    pub fn local_structure(&self, data: &KernelSet<'_>) -> Result<LocalStructure> {
        let p = &self.params;
        let kernels = data.require_kernels("LKAM")?;
        let prepared = Prepared::trusted(kernels, &p.preprocessing)?;
        let local = Local::new(&prepared.views(), p.tau)?;
        let preprocess_time = prepared.time;
        Ok(LocalStructure {
            tau: p.tau,
            preprocessing: p.preprocessing.clone(),
            shape: (data.n(), kernels.len()),
            local,
            preprocess_time,
        })
    }

    /// [`Clusterer::fit_restarts`](mkc_core::Clusterer::fit_restarts) from a structure
    /// that [`Lkam::local_structure`] computed on the same `data` with this τ and
    /// preprocessing: the same runs bit for bit (labels, weights, objective traces,
    /// diagnostics), except the seconds. Their `"preprocess"` phase is 0 and their
    /// `"weights"` phase and `neighbourhood_time` leave out the structure's seconds
    /// ([`LocalStructure::seconds`]), which are the caller's to share.
    ///
    /// Errors: those of the fit, and [`Error::InvalidInput`] (for every seed) for a
    /// structure made for another τ, preprocessing, n or number of kernels.
    pub fn fit_restarts_with(
        &self,
        data: &KernelSet<'_>,
        n_clusters: usize,
        seeds: &[u64],
        structure: &LocalStructure,
    ) -> Vec<Result<Clustering<LkamDiagnostics>>> {
        let p = &self.params;
        seeded("LKAM", data, n_clusters, seeds, &p.labels, |ks| {
            self.check_structure(structure, ks)?;
            let t0 = Instant::now();
            mkc_core::validate::n_clusters(n_clusters, structure.shape.0, 1)?;
            let mut fit = self.optimise_local(&structure.local, Duration::ZERO, n_clusters)?;
            fit.diagnostics.optimisation_time = t0.elapsed();
            fit.diagnostics.preprocessing_time = Duration::ZERO;
            Ok(fit.relaxed(WeightConstraint::Simplex))
        })
    }

    fn check_structure(&self, st: &LocalStructure, ks: &[MatRef<'_, f64>]) -> Result<()> {
        let p = &self.params;
        let n = ks.first().map_or(0, |k| k.nrows());
        if st.tau != p.tau || st.preprocessing != p.preprocessing || st.shape != (n, ks.len()) {
            return Err(Error::input(
                "LKAM local structure",
                format!(
                    "made for τ = {}, {:?}, n = {}, {} kernels; this fit has τ = {}, {:?}, \
                     n = {n}, {} kernels",
                    st.tau,
                    st.preprocessing,
                    st.shape.0,
                    st.shape.1,
                    p.tau,
                    p.preprocessing,
                    ks.len()
                ),
            ));
        }
        Ok(())
    }
}
