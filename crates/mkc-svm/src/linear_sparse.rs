//! A sparse companion of the stored rows for the two products every linear solver step
//! makes, `Xw` and `Xᵀβ`, when most entries of each column equal one value.
//!
//! Image data are the case in point: MNIST's pixels are 0 on about 80% of the entries,
//! and after the per-column scaling to [−1, 1] and the centring of [`crate::LinearFeatures`]
//! each column is still one constant (the image of 0) on those entries, so the stored rows
//! are dense but `x_i = v + s_i` with a per-column reference vector `v` and sparse
//! deviations `s_i`. Then
//!
//! ```text
//! x_iᵀw = vᵀw + s_iᵀw,      Σ_i β_i x_i = (Σ_i β_i) v + Σ_i β_i s_i,
//! ```
//!
//! which read `nnz(S)` entries instead of n·d: at n·d = 11 · 10⁶ (MNIST 3 vs 8 with 785
//! kept pixels) a dense pass streams 88 MB from memory, the sparse one about a quarter
//! of that. The reference of a column is its majority value (the Boyer–Moore vote, one
//! pass); the companion is built only when the deviations fill at most [`MAX_DENSITY`]
//! of the matrix. The sums
//! are accumulated in another order than the dense ones, so results agree with them to
//! rounding, not bit for bit.

/// Build the companion only when at most this share of the entries deviate.
pub(crate) const MAX_DENSITY: f64 = 0.5;

/// The deviations `S = X − 1vᵀ` in compressed sparse rows, and `v`.
#[derive(Clone, Debug)]
pub(crate) struct SparseRows {
    reference: Vec<f64>,
    /// Row i's entries are `start[i]..start[i + 1]`.
    start: Vec<usize>,
    col: Vec<u32>,
    val: Vec<f64>,
}

impl SparseRows {
    /// The companion of the row-major `data` (n x d), or `None` when it would not pay
    /// (more than [`MAX_DENSITY`] of the entries deviate from their column's reference).
    pub(crate) fn build(data: &[f64], n: usize, d: usize) -> Option<Self> {
        if n == 0 || d == 0 || u32::try_from(d).is_err() {
            return None;
        }
        let reference: Vec<f64> = (0..d).map(|j| column_reference(data, n, d, j)).collect();
        let nnz = data
            .chunks_exact(d)
            .map(|row| row.iter().zip(&reference).filter(|(x, v)| x != v).count())
            .sum::<usize>();
        if nnz as f64 > MAX_DENSITY * (n * d) as f64 {
            return None;
        }
        let mut start = Vec::with_capacity(n + 1);
        let (mut col, mut val) = (Vec::with_capacity(nnz), Vec::with_capacity(nnz));
        start.push(0);
        for row in data.chunks_exact(d) {
            for (j, (&x, &v)) in row.iter().zip(&reference).enumerate() {
                if x != v {
                    col.push(j as u32);
                    val.push(x - v);
                }
            }
            start.push(col.len());
        }
        Some(Self {
            reference,
            start,
            col,
            val,
        })
    }

    /// `x_iᵀw` for every i.
    pub(crate) fn products(&self, w: &[f64]) -> Vec<f64> {
        let vw: f64 = self.reference.iter().zip(w).map(|(v, x)| v * x).sum();
        self.start
            .windows(2)
            .map(|s| {
                let (cols, vals) = (&self.col[s[0]..s[1]], &self.val[s[0]..s[1]]);
                vw + cols
                    .iter()
                    .zip(vals)
                    .map(|(&j, &x)| x * w[j as usize])
                    .sum::<f64>()
            })
            .collect()
    }

    /// `Σ_i β_i x_i`.
    pub(crate) fn combine(&self, beta: &[f64]) -> Vec<f64> {
        let total: f64 = beta.iter().sum();
        let mut w: Vec<f64> = self.reference.iter().map(|v| total * v).collect();
        for (s, &b) in self.start.windows(2).zip(beta) {
            if b != 0.0 {
                for (&j, &x) in self.col[s[0]..s[1]].iter().zip(&self.val[s[0]..s[1]]) {
                    w[j as usize] += b * x;
                }
            }
        }
        w
    }
}

/// Column j's majority value (more than half of its entries) if it has one, found by
/// the Boyer–Moore vote in one pass; otherwise some value of the column (any reference
/// gives the same products, a majority one the fewest deviations).
fn column_reference(data: &[f64], n: usize, d: usize, j: usize) -> f64 {
    let (mut cand, mut count) = (data[j], 0usize);
    for i in 0..n {
        let x = data[i * d + j];
        if count == 0 {
            (cand, count) = (x, 1);
        } else if x == cand {
            count += 1;
        } else {
            count -= 1;
        }
    }
    cand
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The products through the companion equal the dense ones to rounding, on data whose
    /// columns are mostly one value (not always the minimum).
    #[test]
    fn sparse_products_match_the_dense_ones() {
        let (n, d) = (57, 13);
        let mut next = crate::test_uniform(0x2545_f491_4f6c_dd1du64);
        let background: Vec<f64> = (0..d).map(|j| j as f64 * 0.3 - 1.0).collect();
        let data: Vec<f64> = (0..n * d)
            .map(|k| {
                let j = k % d;
                if next() < 0.8 {
                    background[j]
                } else {
                    4.0 * next() - 2.0
                }
            })
            .collect();
        let sp = SparseRows::build(&data, n, d).expect("sparse enough");
        assert_eq!(sp.reference, background);
        let w: Vec<f64> = (0..d).map(|_| next() - 0.5).collect();
        let beta: Vec<f64> = (0..n)
            .map(|i| if i % 5 == 0 { 0.0 } else { next() - 0.5 })
            .collect();
        let xw = sp.products(&w);
        for i in 0..n {
            let dense: f64 = (0..d).map(|j| data[i * d + j] * w[j]).sum();
            assert!(
                (xw[i] - dense).abs() < 1e-12,
                "row {i}: {} vs {dense}",
                xw[i]
            );
        }
        let c = sp.combine(&beta);
        for j in 0..d {
            let dense: f64 = (0..n).map(|i| beta[i] * data[i * d + j]).sum();
            assert!(
                (c[j] - dense).abs() < 1e-12,
                "column {j}: {} vs {dense}",
                c[j]
            );
        }
    }

    /// Dense data get no companion.
    #[test]
    fn dense_data_are_left_alone() {
        let data: Vec<f64> = (0..200).map(|k| k as f64 * 0.37).collect();
        assert!(SparseRows::build(&data, 20, 10).is_none());
    }
}
