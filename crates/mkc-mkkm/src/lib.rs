//! The multiple kernel k-means family: the systems SimpleMKKM (Liu, Zhu, Liu, Hospedales,
//! Wang, Wang — *SimpleMKKM: Simple Multiple Kernel K-means*, ICML 2021) is compared with
//! in its Table 2, each through the workspace's one method API ([`mkc_core::Clusterer`]):
//!
//! | registry name | method | module |
//! | --- | --- | --- |
//! | `mkkm` | MKKM (Huang, Chuang & Chen, IEEE Trans. Fuzzy Systems, 2012) | [`mkkm`] |
//! | `mkkm-mir` | MKKM-MiR (Liu, Dou, Wang & Yin, AAAI 2016) | [`mkkm_mir`] |
//! | `lf-mvc` | LF-MVC (Wang, Liu, Zhu et al., IJCAI 2019), late fusion alignment | [`lf_mvc`] |
//! | `lmkkm` | LMKKM (Gönen & Margolin, NIPS 2014), sample-specific gating | [`lmkkm`] |
//! | `mkkm-mm` | MKKM-MM (Bang, Yu & Wu, arXiv 2018), min–max with ℓ2-norm weights | [`mkkm_mm`] |
//! | `onkc` | ONKC (Liu, Zhou, Wang, Li, Dou, Zhu & Yin, AAAI 2017) | [`onkc`] |
//! | `lkam` | LKAM (Li, Liu, Wang, Dou, Yin & Zhu, IJCAI 2016) | [`lkam`] |
//!
//! Weights reported ([`mkc_core::KernelWeights`]): γ on the simplex (MKKM, MKKM-MiR,
//! ONKC, LKAM), the mean gating weight per kernel on the simplex (LMKKM), θ or β of
//! unit ℓ2 norm (MKKM-MM, LF-MVC). Every method's H and weights are deterministic; its
//! restarts ([`mkc_core::Clusterer::fit_restarts`]) optimise once and run the seeded
//! k-means per seed, as the SimpleMKKM authors score every column of their table.
//!
//! # Speed and memory (Digit: n = 2000, 3 kernels, k = 10)
//! `cargo bench -p mkc-mkkm --bench digit` fits each method once through the contract;
//! it prints the iterations and the time per iteration. LMKKM never forms the authors'
//! (nP)² QP matrix ([`lmkkm`]): its memory is the kernels plus one n x n buffer, so with
//! P = 3 it fits in 24 GiB up to n = 21 450 (28 370 with kernels already normalised).
//!
//! # What the family shares (used by `mkc-simplemkkm` too)
//! - [`preprocess`]: every kernel centred, then scaled to unit diagonal (the SimpleMKKM
//!   authors' `kcenter`, `knorm`), before any method runs ([`Preprocessing`]).
//! - [`objective`]: the top-k eigen step — H = the top-k eigenvectors of a combined
//!   kernel `Σ_p c_p K_p` formed in one reused buffer ([`Objective`]).
//! - [`fit`]: the one result type, [`KernelFit`] (weights, H, objective trace,
//!   iterations, [`FamilyDiagnostics`]) every method returns from `fit_kernels`, and the
//!   relative-change [`StopRule`].
//! - [`alternation`]: the alternation of MKKM, MKKM-MiR, LKAM and KAMM-A (H step, then a
//!   weight update from `b_p = tr K_p − tr(Hᵀ K_p H)`).
//! - [`labels`]: final labels — rows of H normalised to unit length, then k-means with 10
//!   replicates of 100 iterations ([`labels_from_h`]).
//! - [`restarts`]: the contract's fit — the deterministic part (weights, H) once, then the
//!   seeded k-means per seed ([`clusterer_by_relaxation!`]).
//! - [`params`]: [`default_eigen_options`] and the parameter checks every method shares.
//!
//! # Example
//! ```
//! use faer::Mat;
//! use mkc_mkkm::prelude::*;
//!
//! // 60 points in 3 groups, three views of them (one noisy).
//! let n = 60;
//! let x = |i: usize, noise: f64| {
//!     let c = (i % 3) as f64 * 3.0;
//!     let wiggle = ((i * 7919) % 13) as f64 / 13.0 - 0.5;
//!     (c + noise * wiggle, -c + noise * wiggle * 0.5)
//! };
//! let rbf = |noise: f64| Mat::from_fn(n, n, |i, j| {
//!     let (a, b) = (x(i, noise), x(j, noise));
//!     (-((a.0 - b.0).powi(2) + (a.1 - b.1).powi(2)) / 8.0).exp()
//! });
//! let kernels = vec![rbf(0.5), rbf(1.0), rbf(8.0)];
//! let data = KernelSet::new(&kernels)?;
//!
//! let methods: Vec<Box<dyn DynClusterer>> = vec![
//!     Box::new(MkkmParams::new()),
//!     Box::new(MkkmMirParams::new().lambda(0.5)),
//! ];
//! for m in &methods {
//!     let fit = m.fit_dyn(&data, 3, 42)?;
//!     assert_eq!(fit.labels.len(), n);
//!     assert!(fit.kernel_weights.as_ref().unwrap().violation() < 1e-9);
//! }
//! # Ok::<(), mkc_core::Error>(())
//! ```

#![forbid(unsafe_code)]

pub mod alternation;
pub mod fit;
pub mod labels;
pub mod lf_mvc;
pub mod lkam;
pub mod lmkkm;
pub mod mkkm;
pub mod mkkm_mir;
pub mod mkkm_mm;
pub mod objective;
pub mod onkc;
pub mod params;
pub mod preprocess;
pub mod restarts;
pub mod simplex_qp;

pub use fit::{FamilyDiagnostics, KernelFit, MethodDiagnostics, RelativeTo, StopRule};
pub use labels::{labels_from_h, labels_from_h_with, row_normalised, LabelOptions};
pub use lf_mvc::{procrustes, LatePartitions, LfMvc, LfMvcDiagnostics, LfMvcFit, LfMvcParams};
pub use lkam::{Lkam, LkamDiagnostics, LkamFit, LkamParams, LocalAlignment, LocalStructure};
pub use lmkkm::{GatingSteps, Lmkkm, LmkkmDiagnostics, LmkkmFit, LmkkmParams};
pub use mkkm::{closed_form_weights, Mkkm, MkkmDiagnostics, MkkmFit};
pub use mkkm_mir::{MkkmMir, MkkmMirDiagnostics, MkkmMirFit};
pub use mkkm_mm::{l2_weights, MkkmMm, MkkmMmDiagnostics, MkkmMmFit, MkkmMmParams, MkkmMmSteps};
pub use objective::{EvalStats, Evaluation, Objective};
pub use onkc::{
    Neighbourhoods, Onkc, OnkcDiagnostics, OnkcFit, OnkcParams, OnkcStart, Projections,
};
pub use params::{default_eigen_options, MkkmMirParams, MkkmParams};
pub use preprocess::Preprocessing;

/// The method API and this crate's methods: `use mkc_mkkm::prelude::*;`.
pub mod prelude {
    pub use crate::{
        LfMvcParams, LkamParams, LmkkmParams, MkkmMirParams, MkkmMmParams, MkkmParams, OnkcParams,
    };
    pub use mkc_core::prelude::*;
}
