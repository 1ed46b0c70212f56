//! Labels from the relaxed moment matrix: the signs of the leading eigenvector of the
//! relaxed label matrix `F = A Z Aᵀ` (the relaxation of `f fᵀ`, f the outputs), as GMMC
//! and MMC recover labels (Xu et al., NIPS 2004; Valizadegan & Jin, NIPS 2006; LG-MMC,
//! Section 3.1). F is n x n of rank ≤ m; with `Z = VΛVᵀ` and `R = A V Λ^½`, `F = RRᵀ`, so
//! its leading eigenvector is `R u` with u the leading eigenvector of the m x m matrix
//! `RᵀR` (no n x n matrix is formed).

use faer::linalg::matmul::matmul;
use faer::{Accum, Mat, MatRef, Par};
use mkc_core::Result;

/// The leading eigenvector of `F = A Z Aᵀ` (unit length, its largest-magnitude entry
/// positive, lowest index on ties) and the share `λ₁(F)/tr(F)` of its eigenvalue (1 when
/// the relaxation is tight, i.e. Z has rank one).
pub fn leading_direction(a: MatRef<'_, f64>, z: MatRef<'_, f64>) -> Result<(Vec<f64>, f64)> {
    let (n, m) = (a.nrows(), a.ncols());
    let (vals, vecs) = mkc_linalg::eigen::sym_evd(z)?;
    let root = Mat::from_fn(m, m, |i, j| vecs[(i, j)] * vals[j].max(0.0).sqrt());
    let mut r = Mat::<f64>::zeros(n, m);
    matmul(r.as_mut(), Accum::Replace, a, root.as_ref(), 1.0, Par::Seq);
    let mut g = Mat::<f64>::zeros(m, m);
    matmul(
        g.as_mut(),
        Accum::Replace,
        r.transpose(),
        r.as_ref(),
        1.0,
        Par::Seq,
    );
    let (gv, gu) = mkc_linalg::eigen::sym_evd(g.as_ref())?;
    let top = m - 1;
    let trace: f64 = gv.iter().map(|v| v.max(0.0)).sum();
    let share = if trace > 0.0 {
        gv[top].max(0.0) / trace
    } else {
        0.0
    };
    let mut v: Vec<f64> = (0..n)
        .map(|i| (0..m).map(|j| r[(i, j)] * gu[(j, top)]).sum())
        .collect();
    let norm = v.iter().map(|x| x * x).sum::<f64>().sqrt();
    let big = v.iter().enumerate().fold((0, 0.0f64), |(bi, bv), (i, &x)| {
        if x.abs() > bv.abs() {
            (i, x)
        } else {
            (bi, bv)
        }
    });
    let sign = if big.1 < 0.0 { -1.0 } else { 1.0 };
    if norm > 0.0 {
        v.iter_mut().for_each(|x| *x *= sign / norm);
    }
    Ok((v, share))
}

/// Cluster 1 where the direction is positive, 0 elsewhere (zeros go to cluster 0).
pub fn sign_labels(v: &[f64]) -> Vec<usize> {
    v.iter().map(|&x| usize::from(x > 0.0)).collect()
}

/// The signs of `v`, unless they leave the balance set `|1ᵀy| ≤ ℓ` (cluster 1 holding
/// `plus` of n samples with `lo ≤ plus ≤ hi`): then cluster 1 is the `plus` largest
/// entries of v, with `plus` the bound nearest to the sign count (ours: the threshold
/// nearest to 0 that keeps the labelling in the set the relaxation bounds MMC over; when
/// the bias dominates Z, the leading eigenvector is nearly constant and its signs put
/// every sample in one cluster). Ties by the lower index.
pub fn balanced_labels(v: &[f64], lo: usize, hi: usize) -> Vec<usize> {
    let labels = sign_labels(v);
    let plus = labels.iter().sum::<usize>();
    if (lo..=hi).contains(&plus) {
        return labels;
    }
    let target = plus.clamp(lo, hi);
    let mut order: Vec<usize> = (0..v.len()).collect();
    order.sort_by(|&a, &b| v[b].total_cmp(&v[a]).then(a.cmp(&b)));
    let mut out = vec![0; v.len()];
    for &i in &order[..target] {
        out[i] = 1;
    }
    out
}
