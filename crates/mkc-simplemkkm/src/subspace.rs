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
use faer::reborrow::*;
use faer::{Accum, Mat, MatMut, MatRef, Par};
use mkc_core::{Error, Result};
use mkc_linalg::SymOperator;

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
        let n = self.q.nrows();
        let c = x.ncols();
        if self.r + c > self.cap && self.r > self.keep {
            self.restart(gamma)?;
        }
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
        if added == 0 {
            return Ok(0);
        }
        self.expansions += 1;
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
            if blk.as_ref().norm_max().is_nan() || !blk.as_ref().norm_max().is_finite() {
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
        self.r = end;
        Ok(added)
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
        let mut comb = self.comb.as_mut().submatrix_mut(0, 0, r, r);
        comb.fill(0.0);
        for (g, bp) in gamma.iter().zip(&self.b) {
            let c = g * g;
            if c != 0.0 {
                comb += faer::Scale(c) * bp.as_ref().submatrix(0, 0, r, r);
            }
        }
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

    /// Residual block `K_γ U − U Θ` (n x k) of Ritz pairs at `gamma`, and the largest
    /// column norm relative to `ritz.scale`.
    pub fn residual(&self, gamma: &[f64], ritz: &Ritz) -> (Mat<f64>, f64) {
        let res = self.residual_block(gamma, ritz);
        let worst = (0..res.ncols())
            .map(|j| res.col(j).norm_l2())
            .fold(0.0f64, f64::max);
        let rel = if ritz.scale > 0.0 {
            worst / ritz.scale
        } else {
            worst
        };
        (res, rel)
    }

    /// Largest relative residual norm of Ritz pairs at `gamma` without forming the
    /// residual: with `U = Q Y` and `Qᵀ K_γ Q Y = Y Θ`, `‖K_γ u − θ u‖² = ‖P_γ y‖² − θ²`
    /// (`P_γ = Σ_p γ_p² P_p`). The difference cancels to about 1e-16 θ², so this is used
    /// only for the loose trial tolerance (≥ 1e-6; certification forms the residual).
    fn residual_norm(&self, gamma: &[f64], ritz: &Ritz) -> f64 {
        use rayon::prelude::*;
        let (n, r, k) = (self.q.nrows(), self.r, ritz.y.ncols());
        let nblocks = n.div_ceil(ROWS);
        // per row block: Σ_j ‖(P_γ Y)_block e_j‖² — blocks summed in order (deterministic)
        let parts: Vec<Vec<f64>> = (0..nblocks)
            .into_par_iter()
            .map(|b| {
                let r0 = b * ROWS;
                let rows = ROWS.min(n - r0);
                let mut pg = Mat::<f64>::zeros(rows, r);
                for (g, pp) in gamma.iter().zip(&self.p) {
                    let c = g * g;
                    if c != 0.0 {
                        pg += faer::Scale(c) * pp.as_ref().submatrix(r0, 0, rows, r);
                    }
                }
                let mut py = Mat::<f64>::zeros(rows, k);
                matmul(
                    py.as_mut(),
                    Accum::Replace,
                    pg.as_ref(),
                    ritz.y.as_ref(),
                    1.0,
                    Par::Seq,
                );
                (0..k).map(|j| py.col(j).squared_norm_l2()).collect()
            })
            .collect();
        let worst = (0..k)
            .map(|j| {
                let sq: f64 = parts.iter().map(|p| p[j]).sum();
                (sq - ritz.values[j] * ritz.values[j]).max(0.0).sqrt()
            })
            .fold(0.0f64, f64::max);
        if ritz.scale > 0.0 {
            worst / ritz.scale
        } else {
            worst
        }
    }

    fn residual_block(&self, gamma: &[f64], ritz: &Ritz) -> Mat<f64> {
        use rayon::prelude::*;
        let (n, r, k) = (self.q.nrows(), self.r, ritz.y.ncols());
        let mut res = Mat::<f64>::zeros(n, k);
        let ytheta = Mat::from_fn(r, k, |i, j| ritz.y[(i, j)] * ritz.values[j]);
        let terms: Vec<(MatRef<'_, f64>, MatRef<'_, f64>, f64)> = gamma
            .iter()
            .zip(&self.p)
            .filter(|(g, _)| **g != 0.0)
            .map(|(g, pp)| (pp.as_ref().subcols(0, r), ritz.y.as_ref(), g * g))
            .chain(std::iter::once((
                self.q.as_ref().subcols(0, r),
                ytheta.as_ref(),
                -1.0,
            )))
            .collect();
        // parallel over fixed blocks of rows, each sequential: bit-identical for any
        // number of threads
        res.as_mut()
            .transpose_mut()
            .par_col_chunks_mut(ROWS)
            .enumerate()
            .for_each(|(b, blk)| {
                let r0 = b * ROWS;
                let rows = blk.ncols();
                let mut blk = blk.transpose_mut();
                for (lhs, rhs, c) in &terms {
                    matmul(
                        blk.rb_mut(),
                        Accum::Add,
                        lhs.subrows(r0, rows),
                        *rhs,
                        *c,
                        Par::Seq,
                    );
                }
            });
        res
    }

    /// Ritz pairs at `gamma` whose relative residual is at most `tol`, expanding the
    /// basis with the residual block as needed (at most `max_expansions` times).
    /// Returns `None` when the residual could not be brought below `tol`.
    pub fn converge(
        &mut self,
        gamma: &[f64],
        tol: f64,
        max_expansions: usize,
    ) -> Result<Option<(Ritz, f64)>> {
        for _ in 0..=max_expansions {
            if self.r >= self.k {
                let ritz = self.ritz(gamma)?;
                let (res, rel) = self.residual(gamma, &ritz);
                if rel <= tol {
                    return Ok(Some((ritz, rel)));
                }
                // expand with the residuals of the pairs that have not converged
                let bad: Vec<usize> = (0..self.k)
                    .filter(|&j| res.col(j).norm_l2() > tol * ritz.scale)
                    .collect();
                let x = Mat::from_fn(res.nrows(), bad.len(), |i, j| res[(i, bad[j])]);
                if self.expand(x.as_ref(), gamma)? == 0 {
                    return Ok(None);
                }
            } else {
                return Ok(None);
            }
        }
        Ok(None)
    }

    /// J at a line-search trial point to relative residual `tol`: first on the trial
    /// cache (Rayleigh–Ritz on a small subspace of span Q), else on the whole basis
    /// ([`Subspace::converge`]), whose leading `2k` Ritz vectors then join the cache.
    /// Returns the sum of the k leading Ritz values (a lower bound of J in both cases).
    pub fn trial(&mut self, gamma: &[f64], tol: f64, max_expansions: usize) -> Result<f64> {
        let (r, k) = (self.r, self.k);
        if let Some(z) = &self.cache {
            let s = z.ncols();
            let zr = Mat::from_fn(r, s, |i, j| if i < z.nrows() { z[(i, j)] } else { 0.0 });
            let mut bg = Mat::<f64>::zeros(r, r);
            for (g, bp) in gamma.iter().zip(&self.b) {
                let c = g * g;
                if c != 0.0 {
                    bg += faer::Scale(c) * bp.as_ref().submatrix(0, 0, r, r);
                }
            }
            let bz = product(bg.as_ref(), zr.as_ref());
            let mut small = product(zr.transpose(), bz.as_ref());
            mkc_linalg::symmetrize(small.as_mut())?;
            let (vals, vecs) = mkc_linalg::eigen::sym_evd(small.as_ref())?;
            let y = Mat::from_fn(s, k, |i, j| vecs[(i, s - 1 - j)]);
            let ritz = Ritz {
                values: (0..k).map(|j| vals[s - 1 - j]).collect(),
                y: product(zr.as_ref(), y.as_ref()),
                scale: vals[0].abs().max(vals[s - 1].abs()),
            };
            let rel = if tol >= 1e-6 {
                self.residual_norm(gamma, &ritz)
            } else {
                self.residual(gamma, &ritz).1
            };
            if rel <= tol && ritz.values.iter().all(|v| v.is_finite()) {
                self.cache_hits += 1;
                return Ok(ritz.value());
            }
        }
        let value = match self.converge(gamma, tol, max_expansions)? {
            Some((ritz, _)) => ritz.value(),
            None => self.ritz(gamma)?.value(),
        };
        // add the leading 2k Ritz vectors at this point to the cache
        let r = self.r;
        let extra = self.ritz_n(gamma, (2 * k).min(r))?.y;
        let old = self.cache.take();
        let mut z = match old {
            Some(z) if z.ncols() + extra.ncols() <= 6 * k => {
                let mut all = Mat::<f64>::zeros(r, z.ncols() + extra.ncols());
                all.as_mut()
                    .submatrix_mut(0, 0, z.nrows(), z.ncols())
                    .copy_from(&z);
                all.as_mut()
                    .subcols_mut(z.ncols(), extra.ncols())
                    .copy_from(&extra);
                all
            }
            _ => extra,
        };
        orthonormalise_columns(z.as_mut());
        self.cache = Some(z);
        Ok(value)
    }

    /// As [`Subspace::converge`] with the eigenvectors H = Q Y and the alignments
    /// `tr(Hᵀ K_p H) = tr(Yᵀ B_p Y)` (Theorem 1; no product with an n x n matrix).
    pub fn certify(
        &mut self,
        gamma: &[f64],
        tol: f64,
        max_expansions: usize,
    ) -> Result<Option<Certified>> {
        let Some((ritz, _)) = self.converge(gamma, tol, max_expansions)? else {
            return Ok(None);
        };
        Ok(Some(self.certified(ritz)))
    }

    fn certified(&self, ritz: Ritz) -> Certified {
        let (n, r, k) = (self.q.nrows(), self.r, self.k);
        let mut h = Mat::<f64>::zeros(n, k);
        matmul_rows_seq(h.as_mut(), self.q.as_ref().subcols(0, r), ritz.y.as_ref());
        let alignments = self
            .b
            .iter()
            .map(|bp| {
                let by = product(bp.as_ref().submatrix(0, 0, r, r), ritz.y.as_ref());
                (0..k)
                    .map(|j| (0..r).map(|i| ritz.y[(i, j)] * by[(i, j)]).sum::<f64>())
                    .sum()
            })
            .collect();
        Certified {
            ritz,
            h,
            alignments,
        }
    }
}

/// `dst = lhs · rhs`, sequential (small inner dimension).
pub(crate) fn matmul_rows_seq(dst: MatMut<'_, f64>, lhs: MatRef<'_, f64>, rhs: MatRef<'_, f64>) {
    matmul(dst, Accum::Replace, lhs, rhs, 1.0, Par::Seq);
}

/// Orthonormalise the columns of a small matrix in place (modified Gram–Schmidt twice);
/// dependent columns become zero.
fn orthonormalise_columns(mut z: MatMut<'_, f64>) {
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
fn product(a: MatRef<'_, f64>, b: MatRef<'_, f64>) -> Mat<f64> {
    let mut out = Mat::<f64>::zeros(a.nrows(), b.ncols());
    matmul(out.as_mut(), Accum::Replace, a, b, 1.0, Par::Seq);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Three symmetric PSD test kernels (Gaussians of 1-D points with different widths).
    fn kernels(n: usize) -> Vec<Mat<f64>> {
        [0.3, 1.0, 3.0]
            .iter()
            .enumerate()
            .map(|(v, &w)| {
                let x: Vec<f64> = (0..n)
                    .map(|i| ((i * 37 + v * 11) % n) as f64 / n as f64 * 6.0 + (i % 4) as f64)
                    .collect();
                Mat::from_fn(n, n, |i, j| (-(x[i] - x[j]).powi(2) / (2.0 * w * w)).exp())
            })
            .collect()
    }

    fn dense_top(ks: &[MatRef<'_, f64>], gamma: &[f64], k: usize) -> Vec<f64> {
        let c: Vec<f64> = gamma.iter().map(|g| g * g).collect();
        let kg = mkc_linalg::weighted_sum(&c, ks).unwrap();
        let e = mkc_linalg::eigen::dense_sym(kg.as_ref()).unwrap();
        e.values.iter().rev().take(k).copied().collect()
    }

    #[test]
    fn ritz_sums_are_lower_bounds_and_certify_is_exact() {
        let n = 120;
        let owned = kernels(n);
        let ks: Vec<MatRef<'_, f64>> = owned.iter().map(|m| m.as_ref()).collect();
        let k = 4;
        let mut sub = Subspace::new(&ks, k);
        let start = Mat::from_fn(n, k, |i, j| ((i * (j + 3)) % 7) as f64 - 3.0);
        let g0 = [0.2, 0.3, 0.5];
        assert_eq!(sub.expand(start.as_ref(), &g0).unwrap(), k);
        for gamma in [[0.2, 0.3, 0.5], [0.6, 0.1, 0.3], [0.0, 0.5, 0.5]] {
            let exact = dense_top(&ks, &gamma, k);
            let j: f64 = exact.iter().sum();
            let lower = sub.ritz(&gamma).unwrap().value();
            assert!(lower <= j * (1.0 + 1e-12), "{lower} > {j}");
            let c = sub.certify(&gamma, 1e-10, 60).unwrap().unwrap();
            for (a, b) in c.ritz.values.iter().zip(&exact) {
                assert!((a - b).abs() <= 1e-9 * exact[0], "{a} vs {b}");
            }
            // alignments tr(Hᵀ K_p H) from the projections equal the direct ones
            let direct = mkc_linalg::trace_quadratic_many(&ks, c.h.as_ref()).unwrap();
            for (a, b) in c.alignments.iter().zip(&direct) {
                assert!((a - b).abs() <= 1e-10 * b.abs().max(1.0), "{a} vs {b}");
            }
            // H has orthonormal columns
            let hth = c.h.transpose() * c.h.as_ref();
            assert!((hth - Mat::<f64>::identity(k, k)).norm_max() < 1e-12);
            // the residual as computed by the subspace is the true one
            let cg: Vec<f64> = gamma.iter().map(|g| g * g).collect();
            let kg = mkc_linalg::weighted_sum(&cg, &ks).unwrap();
            let r = kg.as_ref() * c.h.as_ref()
                - Mat::from_fn(n, k, |i, jj| c.h[(i, jj)] * c.ritz.values[jj]);
            assert!(r.norm_max() <= 1e-9 * exact[0]);
        }
        assert!(sub.kernel_matvecs >= 3 * k);
    }

    #[test]
    fn dependent_columns_are_dropped_and_restart_keeps_the_leading_ritz_values() {
        let n = 40;
        let owned = kernels(n);
        let ks: Vec<MatRef<'_, f64>> = owned.iter().map(|m| m.as_ref()).collect();
        let k = 2;
        let mut sub = Subspace::new(&ks, k);
        let gamma = [0.5, 0.25, 0.25];
        let x = Mat::from_fn(n, 3, |i, j| {
            if j == 2 {
                2.0 * (i as f64).sin()
            } else {
                ((i + j) as f64).cos() + j as f64 * (i as f64).sin()
            }
        });
        // third column = 2 × (second − first) is dependent on the first two
        let mut x = x;
        for i in 0..n {
            x[(i, 2)] = 2.0 * (x[(i, 1)] - x[(i, 0)]);
        }
        assert_eq!(sub.expand(x.as_ref(), &gamma).unwrap(), 2);
        assert_eq!(sub.expand(x.as_ref(), &gamma).unwrap(), 0);
        // fill the subspace (capacity n = 40): the Ritz values become the eigenvalues
        let c = sub.certify(&gamma, 1e-10, 100).unwrap().unwrap();
        let exact = dense_top(&ks, &gamma, k);
        for (a, b) in c.ritz.values.iter().zip(&exact) {
            assert!((a - b).abs() <= 1e-9 * exact[0]);
        }
        let before = sub.ritz(&gamma).unwrap().values;
        let r = sub.r;
        if r > sub.keep {
            sub.restart(&gamma).unwrap();
            assert_eq!(sub.r, sub.keep);
            let after = sub.ritz(&gamma).unwrap().values;
            for (a, b) in after.iter().zip(&before) {
                assert!((a - b).abs() <= 1e-11 * before[0]);
            }
        }
    }
}
