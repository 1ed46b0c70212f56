//! The objectives (7) (SCSK) and (18) (SCMK):
//!
//! J(Z, P, w) = Σ_i w_i h_i + α‖Z‖²_F + β tr(PᵀLP),
//!
//! with h_i the reconstruction costs (20) (for SCSK one kernel with w = 1) and, by (10),
//! tr(PᵀLP) = ½ Σ_ij ‖P_i − P_j‖² z_ij for L = D − (Z + Zᵀ)/2.
//!
//! Algorithms 1 and 2 are block-coordinate descent on J: the P step (8) is the exact
//! minimiser over PᵀP = I (Ky Fan), the Z step (11) is a convex QP solved by a descent
//! method started at the previous Z (so it never increases J even before convergence),
//! and the w step (22) is the exact minimiser of (19) = J in w. Hence the J recorded
//! after each complete iteration is non-increasing (up to the eigensolver's tolerance),
//! from the second iteration on for SCMK: the authors' start w_i = 1/r violates
//! Σ √w_i = 1, so J(w_0) is not comparable. Each trace entry is J(Z_t, P_t, w_t), with
//! P_t the indicator used in iteration t's Z step (the eigenvectors of L(Z_{t−1})).

use faer::MatRef;
use mkc_core::{validate, Result};
use rayon::prelude::*;

use crate::support::ColumnSupport;
use crate::weights::costs;

/// The terms of J.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Objective {
    /// Σ_i w_i h_i (eq. (19)).
    pub reconstruction: f64,
    /// ‖Z‖²_F.
    pub frobenius: f64,
    /// tr(PᵀLP) (eq. (10)).
    pub laplacian: f64,
    /// reconstruction + α · frobenius + β · laplacian.
    pub total: f64,
}

/// J(Z, P, w) of eq. (18) (eq. (7) with one kernel and w = (1)).
///
/// # Errors
/// Invalid kernels, `w` of another length than `kernels` or non-finite, Z not n x n,
/// P not n x c, non-finite Z or P, α ≤ 0, β < 0.
pub fn objective(
    kernels: &[MatRef<'_, f64>],
    w: &[f64],
    z: MatRef<'_, f64>,
    p: MatRef<'_, f64>,
    alpha: f64,
    beta: f64,
) -> Result<Objective> {
    let n = validate::kernels("kernels", kernels)?;
    validate::len("w", w.len(), kernels.len())?;
    validate::finite_slice("w", w)?;
    validate::dims("Z", z, n, n)?;
    validate::finite("Z", z)?;
    crate::z_step::check_indicator(p, n)?;
    validate::positive("alpha", alpha)?;
    validate::non_negative("beta", beta)?;
    let s = ColumnSupport::new(z);
    let h = costs(kernels, z, &s);
    Ok(assemble(&h, w, &s, p, alpha, beta))
}

/// J from precomputed costs h (eq. (20)) and support of Z.
pub(crate) fn assemble(
    h: &[f64],
    w: &[f64],
    s: &ColumnSupport,
    p: MatRef<'_, f64>,
    alpha: f64,
    beta: f64,
) -> Objective {
    let reconstruction = w.iter().zip(h).map(|(a, b)| a * b).sum::<f64>();
    let frobenius = s.val.iter().flatten().map(|v| v * v).sum::<f64>();
    let laplacian = laplacian_term(s, p);
    Objective {
        reconstruction,
        frobenius,
        laplacian,
        total: reconstruction + alpha * frobenius + beta * laplacian,
    }
}

/// Pairs of samples whose squared distance in P is summed side by side in
/// [`laplacian_term`].
const CHAINS: usize = 8;

/// tr(PᵀLP) = ½ Σ_j Σ_{i ∈ supp z_j} ‖P_i − P_j‖² z_ij (eq. (10)): the terms ½ d z added
/// in the order of the support, column after column, d from [`support_distances`].
fn laplacian_term(s: &ColumnSupport, p: MatRef<'_, f64>) -> f64 {
    let dists = support_distances(s, p);
    let mut laplacian = 0.0;
    for (val, d) in s.val.iter().zip(&dists) {
        for (&v, &d) in val.iter().zip(d) {
            laplacian += 0.5 * d * v;
        }
    }
    laplacian
}

/// ‖P_i − P_j‖² for every non-zero z_ij, column j by column j in the order of its
/// support, each summed over the columns of P in order. From a row-major copy of P, the
/// distances of a column's support in parallel chains and the columns in parallel: each
/// is the same sum in the same order as one pair at a time, so the same bits.
fn support_distances(s: &ColumnSupport, p: MatRef<'_, f64>) -> Vec<Vec<f64>> {
    let (n, c) = (p.nrows(), p.ncols());
    let rows: Vec<f64> = (0..n)
        .flat_map(|i| (0..c).map(move |t| p[(i, t)]))
        .collect();
    let row = |i: usize| &rows[i * c..(i + 1) * c];
    s.idx
        .par_iter()
        .enumerate()
        .map(|(j, idx)| {
            let pj = row(j);
            let mut out = Vec::with_capacity(idx.len());
            let mut chunks = idx.chunks_exact(CHAINS);
            for chunk in &mut chunks {
                let pi: [&[f64]; CHAINS] = std::array::from_fn(|q| row(chunk[q]));
                let mut d = [0.0f64; CHAINS];
                for (t, &y) in pj.iter().enumerate() {
                    for q in 0..CHAINS {
                        d[q] += (pi[q][t] - y).powi(2);
                    }
                }
                out.extend_from_slice(&d);
            }
            for &i in chunks.remainder() {
                let d: f64 = row(i).iter().zip(pj).map(|(x, y)| (x - y).powi(2)).sum();
                out.push(d);
            }
            out
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use faer::Mat;

    /// Random Z (each column a few or many non-zeros) and P with c not a multiple of the
    /// chains.
    fn data(n: usize, c: usize, density: f64, seed: u64) -> (Mat<f64>, Mat<f64>) {
        let mut s = seed;
        let mut next = move || {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (s >> 11) as f64 / (1u64 << 53) as f64
        };
        let z = Mat::from_fn(n, n, |_, _| if next() < density { next() } else { 0.0 });
        let p = Mat::from_fn(n, c, |_, _| next() - 0.5);
        (z, p)
    }

    /// The distances and the term as they were summed before the chains: one pair at a
    /// time.
    fn one_pair_at_a_time(s: &ColumnSupport, p: MatRef<'_, f64>) -> (Vec<u64>, u64) {
        let c = p.ncols();
        let mut laplacian = 0.0;
        let mut dists = Vec::new();
        for (j, (idx, val)) in s.idx.iter().zip(&s.val).enumerate() {
            for (&i, &v) in idx.iter().zip(val) {
                let d: f64 = (0..c).map(|t| (p[(i, t)] - p[(j, t)]).powi(2)).sum();
                dists.push(d.to_bits());
                laplacian += 0.5 * d * v;
            }
        }
        (dists, laplacian.to_bits())
    }

    /// The chained, parallel distances and tr(PᵀLP) equal the pair-at-a-time sums bit
    /// for bit, for sparse and dense Z, c below and above the chain count, on 1 and 2
    /// threads.
    #[test]
    fn laplacian_term_is_the_pair_at_a_time_sum() {
        for (n, c, density) in [(40, 3, 0.1), (53, 13, 0.9), (64, 36, 0.5), (9, 8, 1.0)] {
            let (z, p) = data(n, c, density, (n * c) as u64);
            let s = ColumnSupport::new(z.as_ref());
            let (want_d, want) = one_pair_at_a_time(&s, p.as_ref());
            for threads in [1, 2] {
                let pool = rayon::ThreadPoolBuilder::new()
                    .num_threads(threads)
                    .build()
                    .unwrap();
                let (d, l) = pool.install(|| {
                    (
                        support_distances(&s, p.as_ref()),
                        laplacian_term(&s, p.as_ref()),
                    )
                });
                let d: Vec<u64> = d.into_iter().flatten().map(f64::to_bits).collect();
                assert!(d == want_d, "n={n} c={c} threads={threads}");
                assert_eq!(l.to_bits(), want, "n={n} c={c} threads={threads}");
            }
        }
    }
}
