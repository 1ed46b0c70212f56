//! LKAM's local structure: the τ-nearest neighbourhoods, the count matrix A, the
//! localised kernels `L_p = (1/n) A ∘ K_p` and the local regulariser HE.
//!
//! - `N_i` = the `s = round(τ n)` samples other than i with the largest average-kernel
//!   similarity `K̄_ji` (`K̄ = (1/m) Σ_p K_p`), ties broken towards the lower index — the
//!   authors' `genarateNeighborhood`: a stable descending sort of column i of
//!   `K̄ − 1e8 I`, so i itself is never its own neighbour.
//! - `A = S Sᵀ` with `S_ji = [j ∈ N_i]`, i.e. `A_jl = #{i : j, l ∈ N_i}` (one product;
//!   exact, the entries are small integers). A is PSD, so every `A ∘ K_p` is.
//! - The local alignment cost of LKAM, `(1/n) Σ_i tr(K^{(i)} (I − H^{(i)} H^{(i)ᵀ}))`
//!   over the blocks `K^{(i)} = K[N_i, N_i]`, `H^{(i)} = H[N_i, :]`, equals
//!   `tr L − tr(Hᵀ L H)` with `L = (1/n) A ∘ K`: the per-sample blocks are never formed.
//! - `HE_pq = (1/n) Σ_i tr(K_p^{(i)} K_q^{(i)}) = (1/n) ⟨A, K_p ∘ K_q⟩ = ⟨L_p, K_q⟩`
//!   (the authors' `calHessian(KH, NS, 1)`), O(n² m²) instead of their O(n s³ m²).

use faer::linalg::matmul::matmul;
use faer::{Accum, Mat, MatRef, Par};
use mkc_core::{Error, Result};
use rayon::prelude::*;

/// The neighbourhood size `s = round(τ n)`; an `InvalidParam` naming `tau` unless
/// `1 ≤ s ≤ n − 1`.
pub fn neighbourhood_size(tau: f64, n: usize) -> Result<usize> {
    let s = (tau * n as f64).round();
    if !(s >= 1.0 && s <= n as f64 - 1.0) {
        return Err(Error::param(
            "tau",
            tau,
            format!(
                "round(tau · n) must lie in 1..={} for n = {n}",
                n.saturating_sub(1)
            ),
        ));
    }
    Ok(s as usize)
}

/// `N_i` for every sample i (module docs), each sorted by decreasing similarity.
pub fn neighbourhoods(kernels: &[MatRef<'_, f64>], s: usize) -> Vec<Vec<usize>> {
    let n = kernels[0].nrows();
    let m = kernels.len() as f64;
    (0..n)
        .into_par_iter()
        .map(|i| {
            let sim = |j: usize| kernels.iter().map(|k| k[(j, i)]).sum::<f64>() / m;
            let mut order: Vec<(usize, f64)> =
                (0..n).filter(|&j| j != i).map(|j| (j, sim(j))).collect();
            // stable: equal similarities keep the lower index first
            order.sort_by(|a, b| b.1.total_cmp(&a.1));
            order.into_iter().take(s).map(|(j, _)| j).collect()
        })
        .collect()
}

/// `A = S Sᵀ`, `A_jl = #{i : j, l ∈ N_i}`.
pub fn count_matrix(hoods: &[Vec<usize>]) -> Mat<f64> {
    let n = hoods.len();
    let mut s = Mat::<f64>::zeros(n, n);
    for (i, hood) in hoods.iter().enumerate() {
        for &j in hood {
            s[(j, i)] = 1.0;
        }
    }
    let mut a = Mat::<f64>::zeros(n, n);
    matmul(
        a.as_mut(),
        Accum::Replace,
        s.as_ref(),
        s.transpose(),
        1.0,
        Par::rayon(0),
    );
    a
}

/// `L = (1/n) A ∘ K`.
pub fn localised(a: MatRef<'_, f64>, k: MatRef<'_, f64>) -> Mat<f64> {
    let n = a.nrows() as f64;
    Mat::from_fn(a.nrows(), a.ncols(), |i, j| a[(i, j)] * k[(i, j)] / n)
}

/// `HE_pq = ⟨L_p, K_q⟩`, symmetrised.
pub fn local_regulariser(
    local: &[MatRef<'_, f64>],
    kernels: &[MatRef<'_, f64>],
) -> Result<Mat<f64>> {
    let m = kernels.len();
    let mut he = Mat::<f64>::zeros(m, m);
    for p in 0..m {
        for q in p..m {
            let v = 0.5
                * (mkc_linalg::frobenius_inner(local[p], kernels[q])?
                    + mkc_linalg::frobenius_inner(local[q], kernels[p])?);
            he[(p, q)] = v;
            he[(q, p)] = v;
        }
    }
    Ok(he)
}
