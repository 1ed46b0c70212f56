//! Solving on the subspace: Ritz pairs to a residual tolerance (expanding the basis),
//! trial points of the line search (with the small trial cache), and certified
//! evaluations at accepted points.

use faer::Mat;
use mkc_core::Result;

use super::dense::{orthonormalise_columns, product};
use super::{combine_projections, matmul_rows_seq, Certified, Ritz, Subspace};

impl Subspace<'_> {
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
            if self.r < self.k {
                return Ok(None);
            }
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
        }
        Ok(None)
    }

    /// J at a line-search trial point to relative residual `tol`: first on the trial
    /// cache (Rayleigh–Ritz on a small subspace of span Q), else on the whole basis
    /// ([`Subspace::converge`]), whose leading `2k` Ritz vectors then join the cache.
    /// Returns the sum of the k leading Ritz values (a lower bound of J in both cases).
    pub fn trial(&mut self, gamma: &[f64], tol: f64, max_expansions: usize) -> Result<f64> {
        if let Some(value) = self.trial_on_cache(gamma, tol)? {
            self.cache_hits += 1;
            return Ok(value);
        }
        let value = match self.converge(gamma, tol, max_expansions)? {
            Some((ritz, _)) => ritz.value(),
            None => self.ritz(gamma)?.value(),
        };
        self.add_to_cache(gamma)?;
        Ok(value)
    }

    /// The sum of the k leading Ritz values at `gamma` on the trial cache, when their
    /// relative residual is at most `tol`.
    fn trial_on_cache(&self, gamma: &[f64], tol: f64) -> Result<Option<f64>> {
        let (r, k) = (self.r, self.k);
        let Some(z) = &self.cache else {
            return Ok(None);
        };
        let s = z.ncols();
        let zr = Mat::from_fn(r, s, |i, j| if i < z.nrows() { z[(i, j)] } else { 0.0 });
        let mut bg = Mat::<f64>::zeros(r, r);
        combine_projections(&self.b, gamma, bg.as_mut());
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
        let hit = rel <= tol && ritz.values.iter().all(|v| v.is_finite());
        Ok(hit.then(|| ritz.value()))
    }

    /// Add the leading `2k` Ritz vectors at `gamma` to the trial cache (which restarts
    /// from them when it would exceed `6k` columns).
    fn add_to_cache(&mut self, gamma: &[f64]) -> Result<()> {
        let (r, k) = (self.r, self.k);
        let extra = self.ritz_n(gamma, (2 * k).min(r))?.y;
        let mut z = match self.cache.take() {
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
        Ok(())
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
