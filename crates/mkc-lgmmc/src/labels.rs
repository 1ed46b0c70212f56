//! Cluster labels from `M = Σ_t μ_t ŷ_t ŷ_tᵀ` (Section 3.1), through the thin factor
//! `F = Y diag(μ)^½` (n x T, Section 3.6): the top eigenvector of `M = FFᵀ` is
//! `F v / ‖F v‖` with v the top eigenvector of the T x T matrix `FᵀF`, an O(nT²)
//! computation; M itself is never formed.

use faer::{linalg::matmul::matmul, Accum, Mat, Par};
use mkc_core::{Error, Result};

/// The top eigenpair of `M = Σ_t μ_t y_t y_tᵀ`: (eigenvalue, unit eigenvector signed so
/// that its largest-magnitude entry, lowest index on ties, is positive). Terms with
/// μ_t = 0 are dropped.
pub fn top_eigenvector(labels: &[Vec<f64>], mu: &[f64]) -> Result<(f64, Vec<f64>)> {
    mkc_core::validate::len("mu", mu.len(), labels.len())?;
    let active: Vec<usize> = (0..mu.len()).filter(|&t| mu[t] > 0.0).collect();
    let Some(&first) = active.first() else {
        return Err(Error::input("mu", "no label vector has a positive weight"));
    };
    let n = labels[first].len();
    let t = active.len();
    let f = Mat::from_fn(n, t, |i, s| labels[active[s]][i] * mu[active[s]].sqrt());
    let mut g = Mat::<f64>::zeros(t, t);
    matmul(
        g.as_mut(),
        Accum::Replace,
        f.transpose(),
        f.as_ref(),
        1.0,
        Par::Seq,
    );
    // Exact symmetry for the dense solver.
    let g = Mat::from_fn(t, t, |a, b| 0.5 * (g[(a, b)] + g[(b, a)]));
    let eig = mkc_linalg::eigen::dense_sym(g.as_ref())?;
    let lambda = eig.values[t - 1];
    if lambda.is_nan() || lambda <= 0.0 {
        return Err(Error::numerical(
            "top eigenvector of M",
            "largest eigenvalue is not positive",
        ));
    }
    let v = eig.vectors.col(t - 1);
    let mut u: Vec<f64> = (0..n)
        .map(|i| (0..t).map(|s| f[(i, s)] * v[s]).sum::<f64>())
        .collect();
    let norm = u.iter().map(|x| x * x).sum::<f64>().sqrt();
    let mut big = 0usize;
    for i in 0..n {
        if u[i].abs() > u[big].abs() {
            big = i;
        }
    }
    let s = if u[big] < 0.0 { -1.0 } else { 1.0 } / norm;
    u.iter_mut().for_each(|x| *x *= s);
    Ok((lambda, u))
}

/// Labels in {0, 1} from the signs of the top eigenvector of M: 1 where the entry is
/// positive, 0 otherwise (zeros go to cluster 0).
pub fn labels_from_mu(labels: &[Vec<f64>], mu: &[f64]) -> Result<Vec<usize>> {
    let (_, u) = top_eigenvector(labels, mu)?;
    Ok(u.iter().map(|&v| usize::from(v > 0.0)).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thin_factor_eigenvector_equals_the_dense_one() {
        let n = 30;
        let ys: Vec<Vec<f64>> = (0..4)
            .map(|t| {
                (0..n)
                    .map(|i| if (i * (t + 3) + t) % 7 < 3 { 1.0 } else { -1.0 })
                    .collect()
            })
            .collect();
        let mu = [0.5, 0.3, 0.0, 0.2];
        let (lam, u) = top_eigenvector(&ys, &mu).unwrap();
        let m = Mat::from_fn(n, n, |i, j| {
            (0..4).map(|t| mu[t] * ys[t][i] * ys[t][j]).sum::<f64>()
        });
        let dense = mkc_linalg::eigen::dense_sym(m.as_ref()).unwrap();
        let (dl, dv) = (dense.values[n - 1], dense.vectors.col(n - 1));
        assert!((lam - dl).abs() < 1e-10 * dl, "{lam} vs {dl}");
        assert!(
            dense.values[n - 2] < dl - 1e-6,
            "test needs a simple top eigenvalue"
        );
        let dot: f64 = (0..n).map(|i| u[i] * dv[i]).sum();
        assert!((dot.abs() - 1.0).abs() < 1e-10);
        for i in 0..n {
            assert!((u[i] - dot.signum() * dv[i]).abs() < 1e-10);
        }
    }

    #[test]
    fn rank_one_m_gives_back_its_labels_and_bad_mu_fails() {
        let y = vec![1.0, -1.0, -1.0, 1.0];
        let l = labels_from_mu(std::slice::from_ref(&y), &[1.0]).unwrap();
        assert_eq!(l, vec![1, 0, 0, 1]);
        assert!(labels_from_mu(std::slice::from_ref(&y), &[0.0]).is_err());
        assert!(labels_from_mu(&[y], &[0.5, 0.5]).is_err());
    }
}
