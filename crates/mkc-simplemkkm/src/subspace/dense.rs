//! Small dense helpers of the subspace, all sequential (bit-identical whatever the number
//! of threads).

use faer::linalg::matmul::matmul;
use faer::{Accum, Mat, MatMut, MatRef, Par};

/// `dst = lhs · rhs`, sequential (small inner dimension).
pub(crate) fn matmul_rows_seq(dst: MatMut<'_, f64>, lhs: MatRef<'_, f64>, rhs: MatRef<'_, f64>) {
    matmul(dst, Accum::Replace, lhs, rhs, 1.0, Par::Seq);
}

/// Orthonormalise the columns of a small matrix in place (modified Gram–Schmidt twice);
/// dependent columns become zero.
pub(super) fn orthonormalise_columns(mut z: MatMut<'_, f64>) {
    let (n, s) = (z.nrows(), z.ncols());
    for j in 0..s {
        let before = (0..n).map(|i| z[(i, j)] * z[(i, j)]).sum::<f64>().sqrt();
        for _ in 0..2 {
            for t in 0..j {
                let d: f64 = (0..n).map(|i| z[(i, t)] * z[(i, j)]).sum();
                for i in 0..n {
                    let v = z[(i, t)];
                    z[(i, j)] -= d * v;
                }
            }
        }
        let norm = (0..n).map(|i| z[(i, j)] * z[(i, j)]).sum::<f64>().sqrt();
        let scale = if norm > 1e-10 * before && norm > 0.0 {
            1.0 / norm
        } else {
            0.0
        };
        for i in 0..n {
            z[(i, j)] *= scale;
        }
    }
}

/// `a · b`, sequential (bit-identical whatever the number of threads).
pub(super) fn product(a: MatRef<'_, f64>, b: MatRef<'_, f64>) -> Mat<f64> {
    let mut out = Mat::<f64>::zeros(a.nrows(), b.ncols());
    matmul(out.as_mut(), Accum::Replace, a, b, 1.0, Par::Seq);
    out
}
