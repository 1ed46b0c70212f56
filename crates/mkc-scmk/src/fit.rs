//! What SCSK and SCMK return.

use faer::Mat;

/// The result of [`Scsk::fit`](crate::Scsk::fit) or [`Scmk::fit`](crate::Scmk::fit).
#[derive(Debug, Clone)]
pub struct TwinFit {
    /// Cluster of every sample, in `0..c` (k-means on the rows of `p`).
    pub labels: Vec<usize>,
    /// The learned similarity Z (n x n; each column on the capped simplex).
    pub z: Mat<f64>,
    /// The indicator P (n x c): the bottom-c eigenvectors of L = D − (Z_{t−1} + Z_{t−1}ᵀ)/2
    /// used in the last Z step (the authors' order: P is computed at the start of an
    /// iteration and the final k-means runs on it).
    pub p: Mat<f64>,
    /// Final kernel weights (Σ √w_i = 1 after the first SCMK iteration; `[1.0]` for SCSK).
    pub weights: Vec<f64>,
    /// Diagnostics.
    pub info: TwinInfo,
}

/// Diagnostics of an SCSK / SCMK run.
#[derive(Debug, Clone, Default)]
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
