//! Robust kernel k-means with the ℓ2,1 loss: RKKM on one kernel and RMKKM on several
//! (L. Du, P. Zhou, L. Shi, H. Wang, M. Fan, W. Wang & Y.-D. Shen, "Robust Multiple
//! Kernel K-means using ℓ2,1-norm", IJCAI 2015, pp. 3476–3482). Equation numbers refer
//! to that paper.
//!
//! Kernel k-means minimises the sum of *squared* feature-space distances to the centres,
//! so a few far samples dominate it. RKKM minimises their plain sum (eq. (4)),
//!
//! `J(Z, A) = Σ_i ‖φ(x_i) − v_{ℓ_i}‖`,  `v_c = Σ_{i ∈ c} a_i φ(x_i)`,
//!
//! by reweighting: each sample weighs `1 / (2‖φ(x_i) − v_{ℓ_i}‖)` in a weighted kernel
//! k-means step (eq. (11)–(15)). RMKKM puts the same loss on `K_w = Σ_t w_t K_t` and
//! learns `w ≥ 0` with `Σ_t w_t^γ = 1`, `0 < γ < 1`, in closed form (eq. (19)–(20)).
//!
//! - [`RkkmParams`] → [`Rkkm`] (registry name `rkkm`): a single-kernel method; given
//!   several kernels it runs on their equal-weight mean ([`mkc_core::KernelSet::one_kernel`]).
//!   Papers that report "RKKM" and "RKKM-a" run it on each kernel and take the best and
//!   the average over kernels.
//! - [`RmkkmParams`] → [`Rmkkm`] (registry name `rmkkm`): every kernel of the set; the
//!   weights come back on [`mkc_core::WeightConstraint::PNorm`]`(γ)`.
//! - [`weights`]: the closed-form weight step, public for checking and reuse.
//!
//! Where the crate sits: a robust sibling of the kernel k-means of `mkc-kmeans`. It keeps
//! its own centre representation (weighted indicators, module `centres`) because the
//! sample weights change every pass.
//!
//! Choices the paper leaves open, made here as the authors' code (`csliangdu/RMKKM`)
//! does: the 'sample' start (k distinct random samples as singleton centres); at most 100
//! reweighting passes for RKKM, stopping when the labels repeat; squared distances
//! clamped at machine epsilon; a sample on its centre weighted by the mean of the
//! others. RMKKM's partition step restarts from 10 fresh starts of at most 30 passes on
//! every one of 50 passes by default, as the authors' experiments ran it, and
//! `warm_start` gives the paper's monotone Algorithm 1 instead (see [`RmkkmParams`]).
//! The one deliberate difference: an empty cluster takes the sample farthest from its
//! centre from a cluster that keeps a member (the code can empty another one).
//!
//! Determinism: start r of a fit with seed s draws from `derive(s, r)`; RMKKM's pass p
//! from `derive(derive(s, r), p)`. Every parallel sum is owned by one task and added in a
//! fixed order, so the labels do not depend on the number of threads.
//!
//! ```
//! use faer::Mat;
//! use mkc_robust::prelude::*;
//!
//! // Two groups of points on a line, one far outlier; a linear and a Gaussian kernel.
//! let x: [f64; 7] = [0.0, 0.2, 0.4, 5.0, 5.2, 5.4, 30.0];
//! let lin = Mat::from_fn(7, 7, |i, j| x[i] * x[j]);
//! let rbf = Mat::from_fn(7, 7, |i, j| (-(x[i] - x[j]).powi(2) / 8.0).exp());
//! let kernels = vec![lin, rbf];
//! let data = KernelSet::new(&kernels)?;
//!
//! let fit = RmkkmParams::new().gamma(0.5).max_iter(10).fit(&data, 2, 0)?;
//! assert_eq!(fit.labels[0], fit.labels[2]);
//! assert_ne!(fit.labels[0], fit.labels[4]);
//! let w = fit.kernel_weights.as_ref().unwrap();
//! assert!(w.violation() < 1e-9); // Σ w^γ = 1
//!
//! // RKKM on the Gaussian kernel alone, best of 5 starts.
//! let one = KernelSet::from_refs(vec![kernels[1].as_ref()])?;
//! let fit = RkkmParams::new().n_init(5).fit(&one, 2, 0)?;
//! assert_ne!(fit.labels[0], fit.labels[4]);
//! # Ok::<(), mkc_core::Error>(())
//! ```

#![forbid(unsafe_code)]

mod centres;
mod l21;
mod rkkm;
mod rmkkm;
pub mod weights;

#[cfg(test)]
mod tests;

/// Every count (iteration cap, number of starts) named in `counts` is at least 1; the
/// error names the first that is not.
pub(crate) fn check_counts(counts: &[(&str, usize)]) -> mkc_core::Result<()> {
    for &(name, v) in counts {
        mkc_core::mkc_ensure!(v >= 1, param name, v, "must be at least 1");
    }
    Ok(())
}

pub use rkkm::{Rkkm, RkkmDiagnostics, RkkmInit, RkkmParams};
pub use rmkkm::{Rmkkm, RmkkmDiagnostics, RmkkmParams};

/// The method API and this crate's methods: `use mkc_robust::prelude::*;`.
pub mod prelude {
    pub use crate::{RkkmInit, RkkmParams, RmkkmParams};
    pub use mkc_core::prelude::*;
}
