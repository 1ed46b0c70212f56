//! Contiguous column access to a (validated, symmetric) kernel, and shared input checks.

use faer::{Mat, MatRef};
use mkc_core::{Error, Result};

/// A kernel whose columns are contiguous slices. Borrowed when the input is column-major,
/// or row-major (then its transpose, equal to it by symmetry, is column-major); copied
/// otherwise.
pub enum KernelCols<'a> {
    Borrowed(MatRef<'a, f64>),
    Owned(Mat<f64>),
}

impl<'a> KernelCols<'a> {
    /// `k` must already be validated as symmetric.
    pub fn new(k: MatRef<'a, f64>) -> Self {
        if k.row_stride() == 1 {
            KernelCols::Borrowed(k)
        } else if k.col_stride() == 1 {
            KernelCols::Borrowed(k.transpose())
        } else {
            KernelCols::Owned(k.to_owned())
        }
    }

    fn mat(&self) -> MatRef<'_, f64> {
        match self {
            KernelCols::Borrowed(m) => *m,
            KernelCols::Owned(m) => m.as_ref(),
        }
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
