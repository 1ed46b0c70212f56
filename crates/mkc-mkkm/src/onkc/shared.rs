//! ONKC's work that does not depend on λ, computed once for a grid over λ
//! ([`Onkc::start_for`], [`Onkc::fit_restarts_from`]).
//!
//! The preprocessing, `M_pq = tr(K_p K_q)` and step 1 of the [module docs](super) (γ =
//! 1/m, H = the top-k eigenvectors of the average kernel, the first G-step with its
//! exact rank count) read the kernels, ρ, k, the projection and the eigensolver options
//! only; λ first enters at the γ-step of the first iteration (`Q = (ρ + λ) M`). A grid
//! over λ (the authors search 14 values per ρ) computes them once per ρ and fits every
//! λ from them, with the same results bit for bit. What that saves is one G-step (and
//! the inertia count) per fit: on Digit's ρ ≤ 1 grid of SimpleMKKM's Table 2 (112 fits,
//! 712 G-steps, 104 of them shared away) the CPU time of the whole grid fell from 8m28s
//! to 7m15s, at ρ = 1 (151 G-steps, 13 shared away) from 139 to 130 s: the fits with
//! many iterations (up to 43 at ρ = 1, λ = 2⁻⁵) dominate.

use std::time::{Duration, Instant};

use faer::{Mat, MatRef};
use mkc_core::{Clustering, Error, KernelSet, Result, WeightConstraint};
use mkc_linalg::eigen::EigenOptions;

use super::{Begun, Onkc, OnkcDiagnostics, Projection, State};
use crate::preprocess::{Prepared, Preprocessing};
use crate::restarts::seeded;

/// ONKC's preprocessing, M and step 1 for one ρ ([`Onkc::start_for`]).
#[derive(Debug)]
pub struct OnkcStart {
    rho: f64,
    preprocessing: Preprocessing,
    projection: Projection,
    eigen: EigenOptions,
    /// n, the number of kernels and k it was computed for.
    shape: (usize, usize, usize),
    /// The preprocessed kernels (`None`: the preprocessing is the identity, the set's
    /// own kernels are used).
    kernels: Option<Vec<Mat<f64>>>,
    /// M, the state after step 1 (without `K_γ`) and the diagnostics so far.
    begun: Begun,
    preprocess_time: Duration,
    start_time: Duration,
}

impl OnkcStart {
    /// Seconds of the preprocessing and of M and step 1.
    pub fn seconds(&self) -> (f64, f64) {
        (
            self.preprocess_time.as_secs_f64(),
            self.start_time.as_secs_f64(),
        )
    }

    /// The rank of the first G (eigenvalues kept by its projection).
    pub fn rank(&self) -> usize {
        self.begun.state.nb.rank
    }
}

impl Onkc {
    /// The work of a fit on `data` for `n_clusters` clusters that does not depend on λ,
    /// the tolerance, the iteration cap, the zero-weight threshold or the k-means
    /// options: the kernels preprocessed, M, and step 1 of the [module docs](super) with
    /// this ρ (γ = 1/m, H, the first G). Fits with the same ρ, preprocessing, projection
    /// and eigensolver options start from it ([`Onkc::fit_restarts_from`]); the
    /// experiments runner shares it so across a λ grid.
    ///
    /// Errors: those of the fit's first steps (a set without kernels, a zero kernel,
    /// `n_clusters` 0 or above n, a failed eigensolve).
    pub fn start_for(&self, data: &KernelSet<'_>, n_clusters: usize) -> Result<OnkcStart> {
        let p = &self.params;
        let kernels = data.require_kernels("ONKC")?;
        let prepared = Prepared::trusted(kernels, &p.preprocessing)?;
        let t0 = Instant::now();
        let mut begun = self.begin(&prepared.views(), n_clusters)?;
        // every iteration overwrites K_γ before reading it
        begun.state.k_gamma = Mat::zeros(0, 0);
        let start_time = t0.elapsed();
        let preprocess_time = prepared.time;
        Ok(OnkcStart {
            rho: p.rho,
            preprocessing: p.preprocessing.clone(),
            projection: p.projection,
            eigen: p.eigen.clone(),
            shape: (data.n(), kernels.len(), n_clusters),
            kernels: prepared.into_owned(),
            begun,
            preprocess_time,
            start_time,
        })
    }

    /// [`Clusterer::fit_restarts`](mkc_core::Clusterer::fit_restarts) from a start that
    /// [`Onkc::start_for`] computed on the same `data` and `n_clusters` with this ρ,
    /// preprocessing, projection and eigensolver options: the same runs bit for bit
    /// (labels, weights, objective traces, diagnostics), except the seconds. Their
    /// `"preprocess"` phase is 0 and their `"weights"` phase and `optimisation_time`
    /// leave out the start's seconds ([`OnkcStart::seconds`]), which are the caller's to
    /// share (`eigen_time` includes the first G-step's).
    ///
    /// Errors: those of the fit, and [`Error::InvalidInput`] (for every seed) for a start
    /// made for another ρ, preprocessing, projection, eigensolver options, n, number of
    /// kernels or number of clusters.
    pub fn fit_restarts_from(
        &self,
        data: &KernelSet<'_>,
        n_clusters: usize,
        seeds: &[u64],
        start: &OnkcStart,
    ) -> Vec<Result<Clustering<OnkcDiagnostics>>> {
        let p = &self.params;
        seeded("ONKC", data, n_clusters, seeds, &p.labels, |ks| {
            self.check_start(start, ks, n_clusters)?;
            let t0 = Instant::now();
            let views: Vec<MatRef<'_, f64>> = match &start.kernels {
                Some(own) => own.iter().map(|k| k.as_ref()).collect(),
                None => ks.to_vec(),
            };
            let Begun { reg, state, diag } = &start.begun;
            let state: State = state.clone();
            let mut fit = self.iterate(&views, n_clusters, reg.clone(), state, diag.clone())?;
            fit.diagnostics.optimisation_time = t0.elapsed();
            fit.diagnostics.preprocessing_time = Duration::ZERO;
            Ok(fit.relaxed(WeightConstraint::Simplex))
        })
    }

    fn check_start(&self, st: &OnkcStart, ks: &[MatRef<'_, f64>], k: usize) -> Result<()> {
        let p = &self.params;
        let n = ks.first().map_or(0, |m| m.nrows());
        let same = st.rho == p.rho
            && st.preprocessing == p.preprocessing
            && st.projection == p.projection
            && st.eigen == p.eigen
            && st.shape == (n, ks.len(), k);
        if !same {
            return Err(Error::input(
                "ONKC start",
                format!(
                    "made for ρ = {}, {:?}, {:?} projection, {:?}, n = {}, {} kernels, k = {}; \
                     this fit has ρ = {}, {:?}, {:?} projection, {:?}, n = {n}, {} kernels, \
                     k = {k}",
                    st.rho,
                    st.preprocessing,
                    st.projection,
                    st.eigen,
                    st.shape.0,
                    st.shape.1,
                    st.shape.2,
                    p.rho,
                    p.preprocessing,
                    p.projection,
                    p.eigen,
                    ks.len()
                ),
            ));
        }
        Ok(())
    }
}
