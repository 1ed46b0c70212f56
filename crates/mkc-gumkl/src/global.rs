//! Global kernel k-means (Tzortzis & Likas, IEEE TNN 2009), MVKKM's initialisation.
//!
//! Clusters are added one at a time. To go from m − 1 to m clusters, the exact method tries
//! every point j as the seed of the new cluster — the (m − 1)-cluster solution with point j
//! moved into cluster m − 1 — runs kernel k-means from there, and keeps the run of least
//! objective (ties: lowest j). Candidates run in parallel with rayon and are reduced in index
//! order, so the result does not depend on the number of threads.
//!
//! The fast variant tries only the point with the largest guaranteed reduction
//! `b_j = Σ_i max(d_i − ‖φ(x_j) − φ(x_i)‖², 0)` (eq. 3 of GUMKL with `d_i` the squared distance
//! of x_i to its cluster *mean*), starting from the partition in which every point closer to
//! `φ(x_j)` than to its mean joins the new cluster.

use faer::MatRef;
use mkc_core::{Error, Result};
use rayon::prelude::*;

use crate::inner;

/// Squared feature-space distance of every point to the mean of its own cluster.
fn distances_to_own_mean(k: MatRef<'_, f64>, labels: &[usize], m: usize) -> Vec<f64> {
    let n = labels.len();
    let mut size = vec![0usize; m];
    for &c in labels {
        size[c] += 1;
    }
    // s[i] = Σ_{j ∈ C(i)} K_ij; within[c] = Σ_{i,j ∈ C} K_ij.
    let s: Vec<f64> = (0..n)
        .into_par_iter()
        .map(|i| {
            (0..n)
                .filter(|&j| labels[j] == labels[i])
                .map(|j| k[(j, i)])
                .sum()
        })
        .collect();
    let mut within = vec![0.0; m];
    for i in 0..n {
        within[labels[i]] += s[i];
    }
    (0..n)
        .map(|i| {
            let c = labels[i];
            let sz = size[c] as f64;
            (k[(i, i)] - 2.0 * s[i] / sz + within[c] / (sz * sz)).max(0.0)
        })
        .collect()
}

/// Global kernel k-means on one kernel; `fast` selects the fast variant. Returns labels `0..m`.
pub fn global_kernel_kmeans(
    k: MatRef<'_, f64>,
    m: usize,
    fast: bool,
    max_iter: usize,
) -> Result<Vec<usize>> {
    let n = mkc_core::validate::kernel("global kernel k-means kernel", k)?;
    mkc_core::validate::n_clusters(m, n, 1)?;
    let mut labels = vec![0usize; n];
    for c in 1..m {
        let sizes = {
            let mut s = vec![0usize; c];
            labels.iter().for_each(|&l| s[l] += 1);
            s
        };
        let best = if fast {
            let d = distances_to_own_mean(k, &labels, c);
            let bound = |j: usize| -> f64 {
                (0..n)
                    .map(|i| (d[i] - (k[(i, i)] - 2.0 * k[(i, j)] + k[(j, j)])).max(0.0))
                    .sum()
            };
            let b: Vec<f64> = (0..n).into_par_iter().map(bound).collect();
            let j = (0..n).fold(0, |best, j| if b[j] > b[best] { j } else { best });
            let mut init = labels.clone();
            for i in 0..n {
                if k[(i, i)] - 2.0 * k[(i, j)] + k[(j, j)] < d[i] || i == j {
                    init[i] = c;
                }
            }
            if (0..c).any(|cc| !init.contains(&cc)) {
                // The new cluster swallowed a whole old one: seed it with the single point only.
                init = labels.clone();
                init[j] = c;
            }
            let r = inner::kernel_kmeans_from(k, &init, c + 1, max_iter, crate::mvkkm::INNER_TOL)?;
            Some(r.labels)
        } else {
            let runs: Vec<Option<(f64, Vec<usize>)>> = (0..n)
                .into_par_iter()
                .map(|j| {
                    if sizes[labels[j]] < 2 {
                        return Ok(None); // moving j would empty its cluster
                    }
                    let mut init = labels.clone();
                    init[j] = c;
                    let r = inner::kernel_kmeans_from(
                        k,
                        &init,
                        c + 1,
                        max_iter,
                        crate::mvkkm::INNER_TOL,
                    )?;
                    Ok(Some((r.objective, r.labels)))
                })
                .collect::<Result<_>>()?;
            let mut best: Option<(f64, Vec<usize>)> = None;
            for run in runs.into_iter().flatten() {
                if best.as_ref().is_none_or(|b| run.0 < b.0) {
                    best = Some(run);
                }
            }
            best.map(|b| b.1)
        };
        labels = best.ok_or_else(|| {
            Error::input(
                "global kernel k-means",
                format!("cannot split the data into {} clusters", c + 1),
            )
        })?;
    }
    Ok(labels)
}
