//! A precomputed kernel checked once (square, non-empty, finite, symmetric), so that
//! callers who re-solve many times on one kernel (RMKC's label flips, LG-MMC's
//! cutting-plane rounds) pay the O(n²) check once.

use faer::MatRef;
use mkc_core::Result;

/// A kernel matrix that passed [`CheckedKernel::new`]. Cheap to copy.
#[derive(Clone, Copy, Debug)]
pub struct CheckedKernel<'a> {
    k: MatRef<'a, f64>,
}

/// Tile size of the blocked symmetry check (two 32 x 32 tiles of f64 fit in L1).
const TILE: usize = 32;

impl<'a> CheckedKernel<'a> {
    /// Check `k`: non-empty, square, every entry finite, and symmetric within
    /// [`mkc_core::validate::SYMMETRY_RTOL`]` · max|K|` (as `mkc_core::validate::kernel`,
    /// but in one cache-blocked pass). Positive semidefiniteness is not checked: SMO
    /// only needs it for global optimality, and non-positive curvature is handled.
    pub fn new(k: MatRef<'a, f64>) -> Result<Self> {
        mkc_core::validate::non_empty("kernel", k)?;
        let n = mkc_core::validate::square("kernel", k)?;
        let Some(kc) = k.try_as_col_major() else {
            mkc_core::validate::kernel("kernel", k)?;
            return Ok(Self { k });
        };
        let cols: Vec<&[f64]> = (0..n).map(|j| kc.col(j).as_slice()).collect();
        // One pass over the upper triangle by tiles: the tile below the diagonal is read
        // column-wise (contiguously) into a transposed L1 buffer, then compared with the
        // tile above. Branch-free accumulation: `x − x` is NaN exactly when x is not finite.
        let mut buf = vec![0.0f64; TILE * TILE];
        let (mut max_abs, mut worst, mut nonfinite) = (0.0f64, 0.0f64, 0.0f64);
        for jb in (0..n).step_by(TILE) {
            let je = (jb + TILE).min(n);
            for ib in (0..=jb).step_by(TILE) {
                let ie = (ib + TILE).min(n);
                let w = ie - ib;
                // buf[(j − jb) * TILE + (i − ib)] = K[j, i]
                for i in ib..ie {
                    for (jj, &v) in cols[i][jb..je].iter().enumerate() {
                        buf[jj * TILE + (i - ib)] = v;
                    }
                }
                for j in jb..je {
                    let upper = &cols[j][ib..ie];
                    let lower = &buf[(j - jb) * TILE..(j - jb) * TILE + w];
                    #[allow(clippy::eq_op)] // x − x: NaN exactly for non-finite x
                    for (&a, &b) in upper.iter().zip(lower) {
                        nonfinite += (a - a) + (b - b);
                        max_abs = max_abs.max(a.abs());
                        worst = worst.max((a - b).abs());
                    }
                }
            }
        }
        if nonfinite.is_nan() {
            mkc_core::validate::finite("kernel", k)?;
        }
        let tol = if max_abs == 0.0 {
            mkc_core::validate::SYMMETRY_RTOL
        } else {
            mkc_core::validate::SYMMETRY_RTOL * max_abs
        };
        if worst > tol {
            mkc_core::validate::symmetric("kernel", k, mkc_core::validate::SYMMETRY_RTOL)?;
        }
        Ok(Self { k })
    }

    /// The kernel.
    pub fn as_ref(&self) -> MatRef<'a, f64> {
        self.k
    }

    /// n.
    pub fn size(&self) -> usize {
        self.k.nrows()
    }
}
