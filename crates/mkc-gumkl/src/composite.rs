//! The composite kernel of eq. (4), `K̃ = Σ_v w_v^p K_v`, kept in one reused n x n buffer,
//! and the per-view within-cluster variances that the weight updates need.
//!
//! Scaling: clustering with `K̃` is invariant to a positive rescaling of `K̃`, while `w_v^p`
//! underflows for large p (e.g. `(1/6)^500`). The buffer therefore holds
//! `K̃ / max_v w_v^p = Σ_v (w_v / w_max)^p K_v`; objectives are never read off the buffer but
//! computed exactly from the per-view terms (eq. 6), so the scale does not leak into results.
//! For p = ∞ the buffer holds the uniform sum `Σ_v K_v`.

use faer::{Mat, MatRef};
use mkc_core::{check_n_clusters, Error, KernelSet, Result};

/// The composite kernel buffer.
#[derive(Debug, Clone)]
pub struct Composite {
    buf: Mat<f64>,
    coeffs: Vec<f64>,
}

impl Composite {
    /// A zero n x n buffer for `n_views` views.
    pub fn new(n: usize, n_views: usize) -> Self {
        Self {
            buf: Mat::zeros(n, n),
            coeffs: vec![0.0; n_views],
        }
    }

    /// The views of a multiple kernel method (every kernel of the set; an
    /// [`Error::InvalidInput`] naming `method` when the set holds features only), with the
    /// number of clusters checked, and a buffer for their composite kernel.
    pub(crate) fn for_set<'s, 'a>(
        data: &'s KernelSet<'a>,
        method: &str,
        n_clusters: usize,
    ) -> Result<(&'s [MatRef<'a, f64>], Self)> {
        let kernels = data.require_kernels(method)?;
        check_n_clusters(data, n_clusters, 1)?;
        Ok((kernels, Self::new(data.n(), kernels.len())))
    }

    /// Recompute the buffer for weights `w` and exponent `p` (eq. 4, Algorithm 1 line 5).
    /// The kernels must be n x n (already validated by the caller).
    pub fn update(&mut self, kernels: &[MatRef<'_, f64>], w: &[f64], p: f64) -> Result<()> {
        mkc_core::validate::len("composite weights", w.len(), kernels.len())?;
        mkc_core::validate::len("composite kernels", kernels.len(), self.coeffs.len())?;
        if p == f64::INFINITY {
            self.coeffs.fill(1.0);
        } else {
            mkc_core::validate::finite_slice("composite weights", w)?;
            let w_max = w.iter().cloned().fold(0.0, f64::max);
            if w_max <= 0.0 {
                return Err(Error::input("composite weights", "all weights are zero"));
            }
            for (c, &wv) in self.coeffs.iter_mut().zip(w) {
                *c = (wv / w_max).powf(p);
            }
        }
        mkc_linalg::weighted_sum_into(self.buf.as_mut(), &self.coeffs, kernels)
    }

    /// The current composite kernel (up to the positive scale described in the module docs).
    pub fn kernel(&self) -> MatRef<'_, f64> {
        self.buf.as_ref()
    }

    /// Move the buffer out.
    pub fn into_kernel(self) -> Mat<f64> {
        self.buf
    }
}

/// Per-view terms of eq. (6) for a medoid partition: `E_v = Σ_i (K_ii − 2 K_{i l} + K_{l l})`,
/// `l = medoids[labels[i]]`. O(n) per view.
pub fn medoid_view_objectives(
    kernels: &[MatRef<'_, f64>],
    labels: &[usize],
    medoids: &[usize],
) -> Result<Vec<f64>> {
    let n = kernels.first().map_or(0, |k| k.nrows());
    mkc_core::validate::len("labels", labels.len(), n)?;
    if let Some(i) = labels.iter().position(|&c| c >= medoids.len()) {
        return Err(Error::input(
            "labels",
            format!("label {} at index {i} has no medoid", labels[i]),
        ));
    }
    if let Some(c) = medoids.iter().position(|&m| m >= n) {
        return Err(Error::input(
            "medoids",
            format!("medoid {c} = {} is not below n = {n}", medoids[c]),
        ));
    }
    Ok(kernels
        .iter()
        .map(|k| {
            labels
                .iter()
                .enumerate()
                .map(|(i, &c)| {
                    let l = medoids[c];
                    k[(i, i)] - 2.0 * k[(i, l)] + k[(l, l)]
                })
                .sum::<f64>()
        })
        .collect())
}

/// Per-view kernel k-means objectives for a partition (MVKKM's `D_v`):
/// `D_v = tr(K_v) − tr(Yᵀ K_v Y)` with `Y` the cluster indicator scaled by `1/sqrt(|C_c|)`.
/// Empty clusters contribute nothing.
pub fn mean_view_objectives(
    kernels: &[MatRef<'_, f64>],
    labels: &[usize],
    n_clusters: usize,
) -> Result<Vec<f64>> {
    let n = kernels.first().map_or(0, |k| k.nrows());
    mkc_core::validate::len("labels", labels.len(), n)?;
    let mut sizes = vec![0usize; n_clusters];
    for (i, &c) in labels.iter().enumerate() {
        match sizes.get_mut(c) {
            Some(s) => *s += 1,
            None => {
                return Err(Error::input(
                    "labels",
                    format!("label {c} at index {i} is not below {n_clusters}"),
                ))
            }
        }
    }
    let y = Mat::from_fn(n, n_clusters, |i, c| {
        if labels[i] == c {
            1.0 / (sizes[c] as f64).sqrt()
        } else {
            0.0
        }
    });
    let between = mkc_linalg::trace_quadratic_many(kernels, y.as_ref())?;
    Ok(kernels
        .iter()
        .zip(between)
        .map(|(k, b)| (0..n).map(|i| k[(i, i)]).sum::<f64>() - b)
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gram(x: &[[f64; 2]]) -> Mat<f64> {
        Mat::from_fn(x.len(), x.len(), |i, j| {
            x[i][0] * x[j][0] + x[i][1] * x[j][1]
        })
    }

    #[test]
    fn composite_is_the_scaled_weighted_sum() {
        let a = Mat::from_fn(3, 3, |i, j| (i + j) as f64);
        let b = Mat::from_fn(3, 3, |i, j| if i == j { 2.0 } else { 0.5 });
        let mut c = Composite::new(3, 2);
        c.update(&[a.as_ref(), b.as_ref()], &[0.25, 0.75], 2.0)
            .unwrap();
        let s = 0.75f64.powi(2);
        for i in 0..3 {
            for j in 0..3 {
                let want = (0.0625 * a[(i, j)] + 0.5625 * b[(i, j)]) / s;
                assert!((c.kernel()[(i, j)] - want).abs() < 1e-12);
            }
        }
        c.update(&[a.as_ref(), b.as_ref()], &[0.5, 0.5], f64::INFINITY)
            .unwrap();
        assert!((c.kernel()[(0, 0)] - 2.0).abs() < 1e-15);
        // No underflow for large p.
        c.update(&[a.as_ref(), b.as_ref()], &[0.5, 0.5], 2000.0)
            .unwrap();
        assert!((c.kernel()[(0, 0)] - 2.0).abs() < 1e-12);
        assert!(c
            .update(&[a.as_ref(), b.as_ref()], &[0.0, 0.0], 2.0)
            .is_err());
    }

    #[test]
    fn view_objectives_by_brute_force() {
        let x = [[0.0, 0.0], [1.0, 0.0], [0.0, 2.0], [5.0, 5.0], [6.0, 5.0]];
        let k = gram(&x);
        let labels = [0, 0, 0, 1, 1];
        // Medoids 1 and 3.
        let e = medoid_view_objectives(&[k.as_ref()], &labels, &[1, 3]).unwrap()[0];
        let d2 = |a: [f64; 2], b: [f64; 2]| (a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2);
        let want: f64 = (0..5)
            .map(|i| d2(x[i], x[if labels[i] == 0 { 1 } else { 3 }]))
            .sum();
        assert!((e - want).abs() < 1e-12);
        // Means.
        let d = mean_view_objectives(&[k.as_ref()], &labels, 2).unwrap()[0];
        let m0 = [1.0 / 3.0, 2.0 / 3.0];
        let m1 = [5.5, 5.0];
        let want: f64 = (0..5)
            .map(|i| d2(x[i], if labels[i] == 0 { m0 } else { m1 }))
            .sum();
        assert!((d - want).abs() < 1e-12, "{d} vs {want}");
        assert!(mean_view_objectives(&[k.as_ref()], &labels, 1).is_err());
        assert!(medoid_view_objectives(&[k.as_ref()], &labels, &[1]).is_err());
        assert!(medoid_view_objectives(&[k.as_ref()], &labels[..4], &[1, 3]).is_err());
    }
}
