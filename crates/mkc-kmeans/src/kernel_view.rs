//! Contiguous column access to a (validated, symmetric) kernel, and shared input checks.

use faer::{Mat, MatRef};
use mkc_core::{Error, Result};
use std::sync::OnceLock;

/// A kernel whose columns are contiguous slices. Borrowed when the input is column-major,
/// or row-major (then its transpose, equal to it by symmetry, is column-major); copied
/// otherwise.
pub struct KernelCols<'a> {
    cols: Cols<'a>,
    /// Whether K_ij and K_ji are the same bits for every pair (checked once, on demand).
    exact: OnceLock<bool>,
}

enum Cols<'a> {
    Borrowed(MatRef<'a, f64>),
    Owned(Mat<f64>),
}

impl<'a> KernelCols<'a> {
    /// `k` must already be validated as symmetric.
    pub fn new(k: MatRef<'a, f64>) -> Self {
        let cols = if k.row_stride() == 1 {
            Cols::Borrowed(k)
        } else if k.col_stride() == 1 {
            Cols::Borrowed(k.transpose())
        } else {
            Cols::Owned(k.to_owned())
        };
        Self {
            cols,
            exact: OnceLock::new(),
        }
    }

    fn mat(&self) -> MatRef<'_, f64> {
        match &self.cols {
            Cols::Borrowed(m) => *m,
            Cols::Owned(m) => m.as_ref(),
        }
    }

    /// Whether the kernel is symmetric bit for bit, K_ij and K_ji the same bits for every
    /// pair (validation only bounds their difference; every kernel of `mkc-kernels` is
    /// exact, built on the lower triangle and mirrored). Then a sum over row r of K may
    /// read column r instead, the same values (±0 count as equal: either gives the same
    /// sums). Computed once by `mkc_core::validate::symmetric_within` at tolerance 0 and
    /// cached; the answer does not depend on the number of threads.
    pub fn exactly_symmetric(&self) -> bool {
        *self
            .exact
            .get_or_init(|| mkc_core::validate::symmetric_within("kernel", self.mat(), 0.0).is_ok())
    }

    pub fn n(&self) -> usize {
        self.mat().nrows()
    }

    /// Column `j` as a slice (= row `j`, by symmetry).
    #[inline]
    pub fn col(&self, j: usize) -> &[f64] {
        let m = self.mat();
        match m.try_as_col_major() {
            Some(c) => c.col(j).as_slice(),
            // Unreachable: both variants are column-major by construction.
            None => &[],
        }
    }

    #[inline]
    pub fn diag(&self, i: usize) -> f64 {
        self.col(i)[i]
    }

    /// Squared feature-space distance K_ii − 2 K_ij + K_jj (GUMKL eq. 1), clamped at 0
    /// against rounding.
    #[inline]
    pub(crate) fn dist(&self, i: usize, j: usize) -> f64 {
        let cj = self.col(j);
        (self.diag(i) - 2.0 * cj[i] + cj[j]).max(0.0)
    }
}

/// Sample weights: `None` means all ones; otherwise length n, finite and > 0.
pub(crate) fn weights(w: Option<&[f64]>, n: usize) -> Result<Vec<f64>> {
    match w {
        None => Ok(vec![1.0; n]),
        Some(w) => {
            mkc_core::validate::len("sample_weight", w.len(), n)?;
            if let Some(i) = w.iter().position(|v| !(v.is_finite() && *v > 0.0)) {
                return Err(Error::input(
                    "sample_weight",
                    format!("weight {} at index {i} is not finite and > 0", w[i]),
                ));
            }
            Ok(w.to_vec())
        }
    }
}

/// Initial labels: length n, every value < k.
pub(crate) fn initial_labels(labels: &[usize], n: usize, k: usize) -> Result<()> {
    mkc_core::validate::len("initial labels", labels.len(), n)?;
    if let Some(i) = labels.iter().position(|&l| l >= k) {
        return Err(Error::input(
            "initial labels",
            format!("label {} at index {i} is not below k = {k}", labels[i]),
        ));
    }
    Ok(())
}
