//! The non-zeros of Z, column by column. The SCMK iterates are sparse (each sample is
//! expressed by a few others), so the traces of eqs. (18) and (20) are summed over the
//! supports: O(Σ_i nnz_i²) per kernel instead of the O(n³) of a dense K·Z.

use faer::MatRef;

/// Row indices and values of the non-zeros of each column of Z.
#[derive(Debug, Clone)]
pub(crate) struct ColumnSupport {
    pub idx: Vec<Vec<usize>>,
    pub val: Vec<Vec<f64>>,
}

impl ColumnSupport {
    pub fn new(z: MatRef<'_, f64>) -> Self {
        let (mut idx, mut val) = (Vec::with_capacity(z.ncols()), Vec::with_capacity(z.ncols()));
        for j in 0..z.ncols() {
            let nnz = z.col(j).iter().filter(|&&v| v != 0.0).count();
            let (mut ij, mut vj) = (Vec::with_capacity(nnz), Vec::with_capacity(nnz));
            for (i, &v) in z.col(j).iter().enumerate() {
                if v != 0.0 {
                    ij.push(i);
                    vj.push(v);
                }
            }
            idx.push(ij);
            val.push(vj);
        }
        Self { idx, val }
    }

    /// Number of non-zeros.
    pub fn nnz(&self) -> usize {
        self.idx.iter().map(Vec::len).sum()
    }
}
