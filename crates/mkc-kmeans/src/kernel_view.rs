//! Contiguous column access to a (validated, symmetric) kernel, and shared input checks.

use faer::{Mat, MatRef};
use mkc_core::{Error, Result};
use rayon::prelude::*;
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

/// Side of the tiles of the exact-symmetry pass.
const TILE: usize = 64;

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
    /// read column r instead, the same values. Computed once, tile by tile in parallel,
    /// and cached; the answer does not depend on the number of threads.
    pub fn exactly_symmetric(&self) -> bool {
        *self.exact.get_or_init(|| {
            let n = self.n();
            let ntiles = n.div_ceil(TILE);
            (0..ntiles).into_par_iter().all(|tj| {
                let (j0, j1) = (tj * TILE, ((tj + 1) * TILE).min(n));
                (tj..ntiles).all(|ti| {
                    let (i0, i1) = (ti * TILE, ((ti + 1) * TILE).min(n));
                    (j0..j1).all(|j| {
                        let cj = self.col(j);
                        (i0.max(j + 1)..i1).all(|i| cj[i].to_bits() == self.col(i)[j].to_bits())
                    })
                })
            })
        })
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
