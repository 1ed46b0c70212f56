//! J(γ) of eq. (6) on a subspace shared by all γ: Rayleigh–Ritz for the whole family
//! `K_γ = Σ_p γ_p² K_p` at once.
//!
//! The subspace has an orthonormal basis Q (n x r); the products `P_p = K_p Q` and the
//! projections `B_p = Qᵀ K_p Q` (r x r) are kept for every base kernel. For any γ,
//! `Qᵀ K_γ Q = Σ_p γ_p² B_p`, so the Ritz pairs of `K_γ` on span Q cost one r x r
//! eigendecomposition (no product with an n x n matrix), and their residuals
//! `K_γ U − U Θ = (Σ_p γ_p² P_p) Y − Q Y Θ` cost O(m n r k). The sum of the k largest Ritz
//! values is a lower bound of J(γ) (Cauchy interlacing); it equals J(γ) up to
//! O(‖residual‖²/gap).
//!
//! [`Subspace::certify`] makes the Ritz pairs at one γ eigenpairs to a residual
//! tolerance (the same test as `mkc_linalg::eigen`: `‖K_γ u − θ u‖ ≤ tol · θ_max`) by
//! adding the residual block to the basis until it passes (a block Davidson iteration
//! without preconditioner, i.e. block Krylov steps). Each added column costs one
//! product with every base kernel. The basis grows along the path of γ, so later trial
//! points of the line search are accurate with few or no new products. When the basis
//! reaches its capacity it is restarted to the leading Ritz vectors at the current γ.
//!
//! Choices (ours; the paper solves every eigenproblem exactly): capacity
//! `clamp(16k, 64, 256)` columns (at most n), restart to the `6k` leading Ritz vectors
//! (at most half the capacity); expansions use the residuals of the unconverged pairs
//! only; columns whose norm drops below 1e-10 of their size by orthogonalisation are
//! dropped. A large capacity matters: on Digit (k = 10) a capacity of 80 with restarts
//! needed 53 expansions, 160 without restarts 23. Every expansion reads each base
//! kernel once, which costs about the same for one column as for a few dozen.

use faer::linalg::matmul::matmul;
use faer::{Accum, Mat, MatMut, MatRef, Par};
use mkc_core::{Error, Result};
use mkc_linalg::SymOperator;

mod dense;
mod residual;
mod solve;
#[cfg(test)]
mod tests;

pub(crate) use dense::matmul_rows_seq;
use dense::product;

/// Rows per block of the parallel residual product.
const ROWS: usize = 256;

/// Relative norm below which an orthogonalised new column is dropped.
const DROP: f64 = 1e-10;

/// Ritz pairs of `K_γ` on the subspace.
#[derive(Clone, Debug)]
pub(crate) struct Ritz {
    /// The k largest Ritz values, descending.
    pub values: Vec<f64>,
    /// Their coordinates in the basis (r x k).
    pub y: Mat<f64>,
    /// Largest |Ritz value| (estimate of ‖K_γ‖₂).
    pub scale: f64,
}

impl Ritz {
    /// Sum of the k largest Ritz values (a lower bound of J).
    pub fn value(&self) -> f64 {
        self.values.iter().sum()
    }
}

/// A certified evaluation: Ritz pairs whose residuals passed, with the alignments
/// `tr(Hᵀ K_p H)` of Theorem 1's gradient.
pub(crate) struct Certified {
    pub ritz: Ritz,
    pub h: Mat<f64>,
    pub alignments: Vec<f64>,
}

/// The shared subspace (see the module docs).
pub(crate) struct Subspace<'a> {
    kernels: &'a [MatRef<'a, f64>],
    k: usize,
    cap: usize,
    keep: usize,
    r: usize,
    q: Mat<f64>,
    p: Vec<Mat<f64>>,
    b: Vec<Mat<f64>>,
    /// Scratch: Σ_p γ_p² B_p.
    comb: Mat<f64>,
    /// Trial cache: orthonormal coordinates (rows: basis columns, zero-padded as the
    /// basis grows) of a small subspace of span Q made of leading Ritz vectors at
    /// earlier trial points; trial points are first tried on it (small EVD).
    cache: Option<Mat<f64>>,
    /// Trial points answered from the cache.
    pub cache_hits: usize,
    /// Products with single vectors of single base kernels so far.
    pub kernel_matvecs: usize,
    /// Restarts of the basis.
    pub restarts: usize,
    /// Expansions (each one pass over every base kernel).
    pub expansions: usize,
}

impl<'a> Subspace<'a> {
    /// An empty subspace for `k` wanted pairs (kernels validated by the caller).
    pub fn new(kernels: &'a [MatRef<'a, f64>], k: usize) -> Self {
        let n = kernels.first().map_or(0, |m| m.nrows());
        let cap = (16 * k).clamp(64, 256).max(2 * k).min(n);
        let keep = (6 * k).min(cap / 2).max(k.min(cap));
        Self {
            kernels,
            k,
            cap,
            keep,
            r: 0,
            q: Mat::zeros(n, cap),
            p: kernels.iter().map(|_| Mat::zeros(n, cap)).collect(),
            b: kernels.iter().map(|_| Mat::zeros(cap, cap)).collect(),
            comb: Mat::zeros(cap, cap),
            cache: None,
            cache_hits: 0,
            kernel_matvecs: 0,
            restarts: 0,
            expansions: 0,
        }
    }

    /// Add the columns of `x` (orthogonalised against the basis; dependent columns are
    /// dropped); restart first when they do not fit, keeping the leading Ritz vectors
    /// at `gamma`. Returns the number of columns added.
    pub fn expand(&mut self, x: MatRef<'_, f64>, gamma: &[f64]) -> Result<usize> {
        if self.r + x.ncols() > self.cap && self.r > self.keep {
            self.restart(gamma)?;
        }
        let added = self.orthonormalise_into_basis(x);
        if added == 0 {
            return Ok(0);
        }
        self.expansions += 1;
        self.project_new(added)?;
        self.r += added;
        Ok(added)
    }

    /// Orthonormalise the columns of `x` against the basis and among themselves and
    /// write them after the basis (columns `r..r + added`; not yet part of it). Returns
    /// `added`: dependent columns are dropped, and no more than the capacity is taken.
    fn orthonormalise_into_basis(&mut self, x: MatRef<'_, f64>) -> usize {
        let n = self.q.nrows();
        let c = x.ncols();
        let mut z = x.to_owned();
        let refs: Vec<f64> = (0..c).map(|j| z.col(j).norm_l2()).collect();
        let r = self.r;
        // two block Gram–Schmidt passes against the basis
        if r > 0 {
            let qr = self.q.as_ref().subcols(0, r);
            let mut coef = Mat::<f64>::zeros(r, c);
            for _ in 0..2 {
                matmul(
                    coef.as_mut(),
                    Accum::Replace,
                    qr.transpose(),
                    z.as_ref(),
                    1.0,
                    Par::Seq,
                );
                matmul(z.as_mut(), Accum::Add, qr, coef.as_ref(), -1.0, Par::Seq);
            }
        }
        // columns among themselves (twice), dropping dependent ones
        let mut added = 0usize;
        for j in 0..c {
            if self.r + added >= self.cap {
                break;
            }
            let mut col: Vec<f64> = (0..n).map(|i| z[(i, j)]).collect();
            for _ in 0..2 {
                for t in 0..added {
                    let qt = self.q.col(r + t);
                    let d: f64 = (0..n).map(|i| qt[i] * col[i]).sum();
                    for (i, v) in col.iter_mut().enumerate() {
                        *v -= d * qt[i];
                    }
                }
            }
            let norm = col.iter().map(|v| v * v).sum::<f64>().sqrt();
            if !norm.is_finite() || norm <= DROP * refs[j] {
                continue;
            }
            if r > 0 {
                // one more pass against the old basis for this column (cheap, n r)
                let qr = self.q.as_ref().subcols(0, r);
                let mut cm = faer::Mat::from_fn(n, 1, |i, _| col[i]);
                let mut coef = Mat::<f64>::zeros(r, 1);
                matmul(
                    coef.as_mut(),
                    Accum::Replace,
                    qr.transpose(),
                    cm.as_ref(),
                    1.0,
                    Par::Seq,
                );
                matmul(cm.as_mut(), Accum::Add, qr, coef.as_ref(), -1.0, Par::Seq);
                for (i, v) in col.iter_mut().enumerate() {
                    *v = cm[(i, 0)];
                }
            }
            let norm = col.iter().map(|v| v * v).sum::<f64>().sqrt();
            if norm.is_nan() || norm <= DROP * refs[j] {
                continue;
            }
            let mut dst = self.q.col_mut(r + added);
            for (i, v) in col.iter().enumerate() {
                dst[i] = v / norm;
            }
            added += 1;
        }
        added
    }

    /// The products `P_p = K_p Q` and projections `B_p = Qᵀ K_p Q` for the `added` new
    /// columns `r..r + added` of the basis.
    fn project_new(&mut self, added: usize) -> Result<()> {
        let r = self.r;
        let end = r + added;
        let new_q = self.q.as_ref().subcols(r, added);
        for (kp, (pp, bp)) in self
            .kernels
            .iter()
            .zip(self.p.iter_mut().zip(self.b.iter_mut()))
        {
            kp.apply(new_q, pp.as_mut().subcols_mut(r, added), Par::rayon(0));
            self.kernel_matvecs += added;
            // B_p[0..end, r..end] = Q[:, 0..end]ᵀ P_p[:, r..end]
            let mut blk = Mat::<f64>::zeros(end, added);
            matmul(
                blk.as_mut(),
                Accum::Replace,
                self.q.as_ref().subcols(0, end).transpose(),
                pp.as_ref().subcols(r, added),
                1.0,
                Par::Seq,
            );
            if !blk.as_ref().norm_max().is_finite() {
                return Err(Error::numerical(
                    "SimpleMKKM subspace",
                    "non-finite projected kernel",
                ));
            }
            for jj in 0..added {
                let j = r + jj;
                for i in 0..end {
                    let v = if i >= r && i != j {
                        0.5 * (blk[(i, jj)] + blk[(j, i - r)])
                    } else {
                        blk[(i, jj)]
                    };
                    bp[(i, j)] = v;
                    bp[(j, i)] = v;
                }
            }
        }
        Ok(())
    }

    /// Replace the basis by its `keep` leading Ritz vectors at `gamma`.
    fn restart(&mut self, gamma: &[f64]) -> Result<()> {
        let r = self.r;
        let keep = self.keep.min(r);
        let (vals, vecs) = self.ritz_all(gamma)?;
        let _ = vals;
        let y = Mat::from_fn(r, keep, |i, j| vecs[(i, r - 1 - j)]);
        let n = self.q.nrows();
        let mut tmp = Mat::<f64>::zeros(n, keep);
        let prod = |dst: &mut Mat<f64>, src: MatRef<'_, f64>| {
            matmul_rows_seq(dst.as_mut(), src, y.as_ref());
        };
        prod(&mut tmp, self.q.as_ref().subcols(0, r));
        self.q.as_mut().subcols_mut(0, keep).copy_from(&tmp);
        for (pp, bp) in self.p.iter_mut().zip(self.b.iter_mut()) {
            prod(&mut tmp, pp.as_ref().subcols(0, r));
            pp.as_mut().subcols_mut(0, keep).copy_from(&tmp);
            let by = product(bp.as_ref().submatrix(0, 0, r, r), y.as_ref());
            let mut small = product(y.transpose(), by.as_ref());
            mkc_linalg::symmetrize(small.as_mut())?;
            bp.as_mut()
                .submatrix_mut(0, 0, keep, keep)
                .copy_from(&small);
        }
        self.r = keep;
        self.restarts += 1;
        self.cache = None;
        Ok(())
    }

    /// Σ_p γ_p² B_p into the scratch matrix; all Ritz values (ascending) and vectors.
    fn ritz_all(&mut self, gamma: &[f64]) -> Result<(Vec<f64>, Mat<f64>)> {
        let r = self.r;
        combine_projections(&self.b, gamma, self.comb.as_mut().submatrix_mut(0, 0, r, r));
        mkc_linalg::eigen::sym_evd(self.comb.as_ref().submatrix(0, 0, r, r))
    }

    /// The k leading Ritz pairs at `gamma` (requires r ≥ k).
    pub fn ritz(&mut self, gamma: &[f64]) -> Result<Ritz> {
        self.ritz_n(gamma, self.k)
    }

    /// The `k` leading Ritz pairs at `gamma` (requires r ≥ k).
    fn ritz_n(&mut self, gamma: &[f64], k: usize) -> Result<Ritz> {
        let r = self.r;
        if r < k {
            return Err(Error::numerical(
                "SimpleMKKM subspace",
                format!("basis of dimension {r} < k = {k}"),
            ));
        }
        let (vals, vecs) = self.ritz_all(gamma)?;
        let k = k.min(r);
        let values: Vec<f64> = (0..k).map(|j| vals[r - 1 - j]).collect();
        let y = Mat::from_fn(r, k, |i, j| vecs[(i, r - 1 - j)]);
        let scale = vals[0].abs().max(vals[r - 1].abs());
        if values.iter().any(|v| !v.is_finite()) {
            return Err(Error::numerical(
                "SimpleMKKM subspace",
                "non-finite Ritz value",
            ));
        }
        Ok(Ritz { values, y, scale })
    }
}

/// `dst = Σ_p γ_p² B_p` on the leading blocks of the projections (of dst's size): the
/// projection `Qᵀ K_γ Q` of the combined kernel.
fn combine_projections(b: &[Mat<f64>], gamma: &[f64], mut dst: MatMut<'_, f64>) {
    let r = dst.nrows();
    dst.fill(0.0);
    for (g, bp) in gamma.iter().zip(b) {
        let c = g * g;
        if c != 0.0 {
            dst += faer::Scale(c) * bp.as_ref().submatrix(0, 0, r, r);
        }
    }
}
