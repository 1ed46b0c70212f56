//! What SCSK and SCMK return: the contract's typed diagnostics ([`TwinDiagnostics`]) and
//! the engines' full result ([`TwinFit`], with Z, P and per-iteration traces).

use faer::Mat;
use mkc_core::Diagnostics;

/// The full result of the engines [`Scsk::fit_kernel`](crate::Scsk::fit_kernel) and
/// [`Scmk::fit_kernels`](crate::Scmk::fit_kernels).
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct TwinFit {
    /// Cluster of every sample, in `0..c` (k-means on the rows of `p`).
    pub labels: Vec<usize>,
    /// The learned similarity Z (n x n; each column on the capped simplex).
    pub z: Mat<f64>,
    /// The indicator P (n x c): the bottom-c eigenvectors of L = D − (Z_{t−1} + Z_{t−1}ᵀ)/2
    /// used in the last Z step (the authors' order: P is computed at the start of an
    /// iteration and the final k-means runs on it).
    pub p: Mat<f64>,
    /// Final kernel weights (Σ √w_i = 1, eq. (22), for SCMK; `[1.0]` for SCSK).
    pub weights: Vec<f64>,
    /// Per-iteration traces.
    pub info: TwinInfo,
}

/// Per-iteration traces of an SCSK / SCMK run.
#[derive(Debug, Clone, Default)]
#[non_exhaustive]
pub struct TwinInfo {
    /// Iterations performed.
    pub iterations: usize,
    /// Whether the stopping rule ‖Z − Z_old‖_F/‖Z_old‖_F < tol fired before `max_iter`.
    pub converged: bool,
    /// J(Z_t, P_t, w_t) of eq. (7) / (18) after every iteration (see the `objective`
    /// module for why it is non-increasing).
    pub objective: Vec<f64>,
    /// ‖Z_t − Z_{t−1}‖_F / ‖Z_{t−1}‖_F after every iteration.
    pub rel_change: Vec<f64>,
    /// Kernel weights at the start of every iteration, then the final ones
    /// (`iterations + 1` entries; entry t are the weights of K_w in iteration t's Z step).
    pub weights_trace: Vec<Vec<f64>>,
    /// Reconstruction costs h (eq. (20)) of the final Z.
    pub costs: Vec<f64>,
    /// Largest KKT violation of the column QPs (11) in every iteration.
    pub max_kkt_violation: Vec<f64>,
    /// Whether every column QP met `qp_tol`, per iteration.
    pub qp_converged: Vec<bool>,
    /// SMO pair updates summed over the columns, per iteration (0 with APG).
    pub qp_pair_updates: Vec<usize>,
    /// APG iterations of the Z step (largest over the column blocks), per iteration
    /// (0 with SMO).
    pub apg_iterations: Vec<usize>,
    /// Wall-clock seconds of every iteration's phases: [K_w and P step (eigensolve),
    /// Z step (QPs (11)), h / w / objective]. Diagnostics only (not deterministic).
    pub seconds: Vec<[f64; 3]>,
    /// Non-zeros of Z after every iteration.
    pub z_nnz: Vec<usize>,
    /// The c smallest eigenvalues of the last Laplacian (Σ = tr(PᵀLP) of the final P).
    pub eigenvalues: Vec<f64>,
    /// Inertia of the winning k-means replicate on P.
    pub kmeans_inertia: f64,
}

/// The diagnostics of an SCSK or SCMK fit through the method API (summaries of
/// [`TwinInfo`]; the engines return the traces themselves).
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct TwinDiagnostics {
    /// Largest KKT violation of the column QPs (11) over all iterations.
    pub max_kkt_violation: f64,
    /// Non-zeros of the final Z.
    pub z_nnz: usize,
    /// APG iterations of the Z steps, summed over the iterations.
    pub apg_iterations: usize,
    /// SMO pair updates of the Z steps, summed over the iterations.
    pub smo_pair_updates: usize,
    /// Whether every column QP met `qp_tol` in every iteration.
    pub qp_converged: bool,
    /// ‖Z − Z_old‖_F/‖Z_old‖_F of the last iteration (the stopping rule's quantity).
    pub rel_change: f64,
    /// Reconstruction costs h (eq. (20)) of the final Z, one per kernel.
    pub costs: Vec<f64>,
    /// Inertia of the winning k-means replicate on P.
    pub kmeans_inertia: f64,
}

impl TwinDiagnostics {
    /// The summary of `info`.
    pub(crate) fn of(info: &TwinInfo) -> Self {
        Self {
            max_kkt_violation: info
                .max_kkt_violation
                .iter()
                .copied()
                .fold(f64::NEG_INFINITY, f64::max),
            z_nnz: info.z_nnz.last().copied().unwrap_or(0),
            apg_iterations: info.apg_iterations.iter().sum(),
            smo_pair_updates: info.qp_pair_updates.iter().sum(),
            qp_converged: info.qp_converged.iter().all(|&c| c),
            rel_change: info.rel_change.last().copied().unwrap_or(f64::INFINITY),
            costs: info.costs.clone(),
            kmeans_inertia: info.kmeans_inertia,
        }
    }
}

impl Diagnostics for TwinDiagnostics {
    /// `max_kkt_violation`, `z_nnz`, `apg_iterations`, `smo_pair_updates` (the names of
    /// the experiments' run records), `qp_converged` (0/1), `rel_change`,
    /// `kmeans_inertia`.
    fn entries(&self) -> Vec<(String, f64)> {
        vec![
            ("max_kkt_violation".into(), self.max_kkt_violation),
            ("z_nnz".into(), self.z_nnz as f64),
            ("apg_iterations".into(), self.apg_iterations as f64),
            ("smo_pair_updates".into(), self.smo_pair_updates as f64),
            (
                "qp_converged".into(),
                f64::from(u8::from(self.qp_converged)),
            ),
            ("rel_change".into(), self.rel_change),
            ("kmeans_inertia".into(), self.kmeans_inertia),
        ]
    }
}
