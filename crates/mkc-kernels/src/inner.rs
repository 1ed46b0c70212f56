//! Inner products (the Gram matrix X·Xᵀ) from dense or sparse CSR features, computed
//! once and shared by every kernel built on the same data, and the parallel tiled
//! elementwise map that turns it into a full symmetric kernel matrix.

use faer::linalg::matmul::triangular::{matmul, BlockStructure};
use faer::reborrow::*;
use faer::sparse::SparseRowMatRef;
use faer::{Accum, Mat, MatMut, MatRef, Par};
use mkc_core::{validate, Error, Result};
use rayon::prelude::*;

use crate::width::{pair_stats, DistStats};

/// Tile edge of the symmetric map (a 64 x 64 tile of f64 is 32 KiB: stays in cache).
const TILE: usize = 64;

/// The Gram matrix G = X·Xᵀ of the samples (rows of X) with its diagonal.
///
/// Only the lower triangle (diagonal included) of `g` is computed and read: the
/// elementwise map [`Inner::map`] mirrors it, so every kernel built from it is exactly
/// symmetric (f(G_ij, G_ii, G_jj) is evaluated once per unordered pair).
#[derive(Debug, Clone)]
pub struct Inner {
    g: Mat<f64>,
    diag: Vec<f64>,
}

impl Inner {
    /// G = X·Xᵀ for dense features (n x d, rows = samples), lower triangle by one
    /// triangular faer matmul (half the flops of the full product), in parallel.
    pub fn dense(x: MatRef<'_, f64>) -> Result<Self> {
        validate::non_empty("features", x)?;
        validate::finite("features", x)?;
        let n = x.nrows();
        let mut g = Mat::<f64>::zeros(n, n);
        matmul(
            g.as_mut(),
            BlockStructure::TriangularLower,
            Accum::Replace,
            x,
            BlockStructure::Rectangular,
            x.transpose(),
            BlockStructure::Rectangular,
            1.0,
            Par::rayon(0),
        );
        let diag = (0..n).map(|i| g[(i, i)]).collect();
        Ok(Self { g, diag })
    }

    /// G = X·Xᵀ for sparse CSR features (n x d). Column j of the lower triangle is
    /// computed by scattering row j into a dense buffer of length d (one per rayon
    /// task) and taking sparse dot products with rows i ≥ j: O(n · nnz) work and
    /// O(d) memory per thread, no densification of X. Duplicate column indices in a
    /// row are summed, as in the dense matrix they represent.
    pub fn sparse(x: SparseRowMatRef<'_, usize, f64>) -> Result<Self> {
        let (n, d) = (x.nrows(), x.ncols());
        if n == 0 || d == 0 {
            return Err(Error::input(
                "features",
                format!("empty matrix ({n} x {d})"),
            ));
        }
        let sym = x.symbolic();
        let (col_idx, val) = (sym.col_idx(), x.val());
        for i in 0..n {
            for p in sym.row_range(i) {
                let v = val[p];
                if !v.is_finite() {
                    return Err(Error::NonFinite {
                        what: "features".into(),
                        row: i,
                        col: col_idx[p],
                        value: v,
                    });
                }
            }
        }
        let mut g = Mat::<f64>::zeros(n, n);
        g.par_col_iter_mut().enumerate().for_each_init(
            || vec![0.0f64; d],
            |buf, (j, col)| {
                let rj = sym.row_range(j);
                for p in rj.clone() {
                    buf[col_idx[p]] += val[p];
                }
                let mut col = col;
                for i in j..n {
                    let mut s = 0.0;
                    for p in sym.row_range(i) {
                        s += val[p] * buf[col_idx[p]];
                    }
                    col[i] = s;
                }
                for p in rj {
                    buf[col_idx[p]] = 0.0;
                }
            },
        );
        let diag = (0..n).map(|i| g[(i, i)]).collect();
        Ok(Self { g, diag })
    }

    /// Number of samples.
    pub fn n(&self) -> usize {
        self.diag.len()
    }

    /// ‖x_i‖² for every sample.
    pub fn diag(&self) -> &[f64] {
        &self.diag
    }

    /// G_ij for i ≥ j (the stored triangle).
    #[inline]
    fn lower(&self, i: usize, j: usize) -> f64 {
        self.g.col_as_slice(j)[i]
    }

    /// Squared distance ‖x_i − x_j‖² = G_ii + G_jj − 2 G_ij for i ≥ j, clamped at 0
    /// (cancellation can make it a tiny negative number); exactly 0 on the diagonal.
    #[inline]
    pub fn sq_dist_lower(&self, i: usize, j: usize) -> f64 {
        if i == j {
            0.0
        } else {
            (self.diag[i] + self.diag[j] - 2.0 * self.lower(i, j)).max(0.0)
        }
    }

    /// The full symmetric n x n matrix M_ij = f(G_ij, G_ii, G_jj, i, j) for a symmetric
    /// `f` (f(g, a, b) = f(g, b, a)): f is evaluated once per unordered pair, on the
    /// lower triangle (parallel over columns, contiguous reads and writes), and the
    /// result is mirrored into the upper triangle.
    pub fn map<F>(&self, f: F) -> Mat<f64>
    where
        F: Fn(f64, f64, f64, usize, usize) -> f64 + Sync,
    {
        let n = self.n();
        let mut out = Mat::<f64>::zeros(n, n);
        out.par_col_iter_mut().enumerate().for_each(|(j, col)| {
            let col = col
                .try_as_col_major_mut()
                .expect("owned Mat columns are contiguous")
                .as_slice_mut();
            let gj = self.g.col_as_slice(j);
            let dj = self.diag[j];
            for i in j..n {
                col[i] = f(gj[i], self.diag[i], dj, i, j);
            }
        });
        mirror_lower(out.as_mut());
        out
    }

    /// The Gram matrix itself, mirrored to full symmetric form (no copy).
    pub fn into_full(mut self) -> Mat<f64> {
        mirror_lower(self.g.as_mut());
        self.g
    }

    /// Pairwise squared Euclidean distances (full symmetric matrix, zero diagonal).
    pub fn sq_dists(&self) -> Mat<f64> {
        self.map(|g, a, b, i, j| {
            if i == j {
                0.0
            } else {
                (a + b - 2.0 * g).max(0.0)
            }
        })
    }

    /// Statistics of the squared distances over the pairs i ≠ j
    /// ([`crate::width::DistStats`], with the median when `median` is set).
    pub fn dist_stats(&self, median: bool) -> Result<DistStats> {
        let n = self.n();
        if n < 2 {
            return Err(Error::input(
                "features",
                "a data-dependent kernel width needs at least 2 samples",
            ));
        }
        Ok(pair_stats(n, |i, j| self.sq_dist_lower(i, j), median))
    }

    /// [`Inner::dist_stats`] when `need` is set, else `None` (no work).
    pub fn dist_stats_if(&self, need: bool, median: bool) -> Result<Option<DistStats>> {
        need.then(|| self.dist_stats(median)).transpose()
    }
}

/// Copy the strictly lower triangle of a square matrix into the upper one. For each
/// 64-column block J (in turn), the rows above it are written from the transposed
/// rows J of the columns to its left, in parallel over 64-row chunks.
fn mirror_lower(mut m: MatMut<'_, f64>) {
    let n = m.nrows();
    for j0 in (0..n).step_by(TILE) {
        let jw = TILE.min(n - j0);
        let (left, right) = m.rb_mut().split_at_col_mut(j0);
        let mut blk = right.subcols_mut(0, jw);
        // the diagonal tile
        for jj in 0..jw {
            for ii in 0..jj {
                blk[(j0 + ii, jj)] = blk[(j0 + jj, ii)];
            }
        }
        if j0 == 0 {
            continue;
        }
        let src = left.rb().subrows(j0, jw); // jw x j0, rows J of the columns left of J
        blk.subrows_mut(0, j0)
            .par_row_chunks_mut(TILE)
            .enumerate()
            .for_each(|(ib, mut dst)| {
                let i0 = ib * TILE;
                for jj in 0..dst.ncols() {
                    for ii in 0..dst.nrows() {
                        dst[(ii, jj)] = src[(jj, i0 + ii)];
                    }
                }
            });
    }
}
