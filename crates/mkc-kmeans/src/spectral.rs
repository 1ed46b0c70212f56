//! Spectral clustering with a kernel as the affinity (Ng, Jordan & Weiss, NIPS 2002,
//! "On spectral clustering: analysis and an algorithm"), the SC baseline of the SCMK paper.
//!
//! Steps (NJW's algorithm):
//! 1. affinity A = K with a zero diagonal (NJW set A_ii = 0);
//! 2. M = D^{−1/2} A D^{−1/2}, D = diag(A1) (the normalised affinity; its top eigenvectors
//!    are the bottom ones of the normalised Laplacian I − M);
//! 3. X = the c eigenvectors of M with the largest eigenvalues (n x c);
//! 4. Y = X with every row scaled to unit length;
//! 5. k-means on the rows of Y, `n_init` seeded k-means++ replicates, the lowest inertia
//!    wins (the SCMK paper: "we repeat clustering 20 times and present the results with the
//!    best objective values", hence the default `n_init = 20`).
//!
//! Choices NJW leave open, written down here:
//! - Affinities must be non-negative: a kernel with negative entries (e.g. linear on
//!   centred data) is rejected with a typed error, unless `clip_negative(true)` asks for
//!   A = max(K, 0) explicitly.
//! - A sample with zero degree (isolated) gets D^{−1/2} = 0, hence a zero row in X and Y;
//!   k-means then puts it with the cluster whose centre is closest to the origin.
//! - Only the top c eigenpairs are computed (`mkc_linalg::eigen::top_k`: thick-restart
//!   block Lanczos, a dense decomposition for small n), bit-identical for any number of
//!   threads.
//!   Degenerate top eigenvalues make the basis of their eigenspace arbitrary; the row
//!   normalisation and k-means are invariant to the rotation within that space.
//!
//! ```
//! use faer::Mat;
//! use mkc_core::ParamGuard;
//! use mkc_kmeans::SpectralParams;
//!
//! // Two blocks of 3 with strong within-block affinity and a weak link between them.
//! let k = Mat::from_fn(6, 6, |i, j| if (i < 3) == (j < 3) { 1.0 } else { 0.01 });
//! let fit = SpectralParams::new().check()?.fit_affinity(k.as_ref(), 2, 3)?;
//! assert_eq!(fit.labels[0], fit.labels[2]);
//! assert_ne!(fit.labels[0], fit.labels[3]);
//! # Ok::<(), mkc_core::Error>(())
//! ```

use faer::{Mat, MatRef};
use mkc_core::{validate, Error, ParamGuard, Result};

use crate::{KMeans, KMeansFit, KMeansParams};

mkc_core::params! {
    /// Hyperparameters of spectral clustering (unchecked builder).
    pub struct SpectralParams {
        /// k-means replicates on the embedding; the lowest inertia wins (the SCMK paper's
        /// protocol: 20).
        #[must_use]
        n_init: usize = 20,
        /// Lloyd iterations per replicate.
        #[must_use]
        max_iter: usize = 100,
        /// Use max(K, 0) as the affinity instead of rejecting negative entries (default false).
        #[must_use]
        clip_negative: bool = false,
    }
    /// Defaults: `n_init = 20` k-means replicates (the SCMK paper's protocol),
    /// `max_iter = 100` Lloyd iterations each, negative affinities rejected. The number of
    /// clusters (and eigenvectors) and the seed are given when fitting.
    new;
}

mkc_core::checked! {
    /// Checked spectral clustering parameters; [`Spectral::fit_affinity`] runs the algorithm
    /// on one affinity matrix, [`Clusterer::fit`](mkc_core::Clusterer::fit) on a
    /// [`KernelSet`](mkc_core::KernelSet) (its kernel, or the mean of its kernels, as the
    /// affinity).
    pub struct Spectral(SpectralParams);
    |p| crate::check_loop(Some(p.n_init), p.max_iter, None)
}

/// Result of spectral clustering.
#[derive(Debug, Clone, PartialEq)]
pub struct SpectralFit {
    /// Cluster of every sample, in `0..k`.
    pub labels: Vec<usize>,
    /// The row-normalised embedding Y (n x k).
    pub embedding: Mat<f64>,
    /// The k largest eigenvalues of D^{−1/2} A D^{−1/2}, descending (all in [−1, 1]).
    pub eigenvalues: Vec<f64>,
    /// k-means inertia of the winning replicate on Y.
    pub inertia: f64,
}

impl Spectral {
    /// [`Spectral::fit_affinity`] on an affinity already validated.
    fn fit_valid(&self, k: MatRef<'_, f64>, n_clusters: usize, seed: u64) -> Result<SpectralFit> {
        let n = k.nrows();
        validate::n_clusters(n_clusters, n, 1)?;
        let clip = self.p.clip_negative;
        for j in 0..n {
            for i in 0..n {
                if k[(i, j)] < 0.0 && !clip {
                    return Err(Error::input(
                        "affinity",
                        format!(
                            "entry ({i}, {j}) = {:e} is negative: spectral clustering needs non-negative affinities",
                            k[(i, j)]
                        ),
                    ));
                }
            }
        }
        // A = K (or max(K, 0)) off the diagonal, symmetrised exactly.
        let aff = |i: usize, j: usize| {
            let v = 0.5 * (k[(i, j)] + k[(j, i)]);
            if clip {
                v.max(0.0)
            } else {
                v
            }
        };
        let deg: Vec<f64> = (0..n)
            .map(|i| (0..n).filter(|&j| j != i).map(|j| aff(i, j)).sum())
            .collect();
        if deg.iter().all(|&d| d <= 0.0) {
            return Err(Error::input(
                "affinity",
                "no positive off-diagonal entry: every sample is isolated",
            ));
        }
        let dinv: Vec<f64> = deg
            .iter()
            .map(|&d| if d > 0.0 { 1.0 / d.sqrt() } else { 0.0 })
            .collect();
        let m = Mat::from_fn(n, n, |i, j| {
            if i == j {
                0.0
            } else {
                aff(i, j) * dinv[i] * dinv[j]
            }
        });
        let c = n_clusters;
        // The top c eigenpairs only (mkc-linalg: thick-restart block Lanczos, dense for
        // small n; bit-identical for any thread count), values descending.
        let pairs =
            mkc_linalg::eigen::top_k(m.as_ref(), c, &mkc_linalg::eigen::EigenOptions::default())?;
        let eigenvalues = pairs.values;
        if eigenvalues.iter().any(|v| !v.is_finite()) {
            return Err(Error::numerical(
                "spectral clustering eigendecomposition",
                "non-finite eigenvalue",
            ));
        }
        let mut y = pairs.vectors;
        let kmeans = KMeansParams::new()
            .n_init(self.p.n_init)
            .max_iter(self.p.max_iter)
            .check()?;
        let km = normalize_rows_and_cluster(&mut y, &kmeans, c, seed)?;
        Ok(SpectralFit {
            labels: km.labels,
            embedding: y,
            eigenvalues,
            inertia: km.inertia,
        })
    }
}

/// Steps 4–5 of NJW's algorithm: scale every row of the embedding `y` (n x c) to unit
/// length in place (a zero row stays zero), then cluster the rows with `kmeans`. Public so
/// that the multiple kernel spectral methods (`mkc-spectral`: AASC, MVSpec) end the same
/// way.
///
/// # Errors
/// As [`KMeans::fit_features`] (`y` non-finite, `n_clusters` out of range).
pub fn normalize_rows_and_cluster(
    y: &mut Mat<f64>,
    kmeans: &KMeans,
    n_clusters: usize,
    seed: u64,
) -> Result<KMeansFit> {
    mkc_linalg::unit_rows(y.as_mut());
    kmeans.fit_features(y.as_ref(), n_clusters, seed)
}

/// Diagnostics of spectral clustering ([`Clustering::diagnostics`](mkc_core::Clustering::diagnostics)).
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct SpectralDiagnostics {
    /// The k largest eigenvalues of D^{−1/2} A D^{−1/2}, descending.
    pub eigenvalues: Vec<f64>,
    /// k-means inertia of the winning replicate on the embedding.
    pub inertia: f64,
}

impl mkc_core::Diagnostics for SpectralDiagnostics {
    fn entries(&self) -> Vec<(String, f64)> {
        let mut e = vec![("inertia".to_string(), self.inertia)];
        e.extend(
            self.eigenvalues
                .iter()
                .enumerate()
                .map(|(i, &v)| (format!("eigenvalue_{}", i + 1), v)),
        );
        e
    }
}

kernel_method! {
    Spectral(SpectralParams) -> SpectralFit, "sc";
    /// Cluster with the affinity `k` (n x n, symmetric, finite, non-negative).
    ///
    /// # Errors
    /// `k` empty, non-square, non-finite, non-symmetric, with a negative entry (unless
    /// `clip_negative`), or with no positive off-diagonal entry; k > n; a failed
    /// eigendecomposition.
    pub fn fit_affinity("affinity");
    /// Spectral clustering with the set's kernel (or the mean of its kernels) as the
    /// affinity. Not iterative: empty objective trace, 0 iterations.
    fn fit("spectral clustering") -> SpectralDiagnostics { eigenvalues, inertia };
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Same partition up to a relabelling.
    fn same_partition(a: &[usize], b: &[usize]) -> bool {
        let mut map = std::collections::HashMap::new();
        let mut back = std::collections::HashMap::new();
        a.iter()
            .zip(b)
            .all(|(x, y)| *map.entry(*x).or_insert(*y) == *y && *back.entry(*y).or_insert(*x) == *x)
    }

    fn lcg(seed: u64) -> impl FnMut() -> f64 {
        let mut next = crate::lcg(seed.wrapping_add(0x9E37_79B9_7F4A_7C15));
        move || (next() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// Noisy block-diagonal affinity: blocks of the given sizes, within-block
    /// affinities in [0.5, 1], across-block in [0, 0.05].
    fn blocks(sizes: &[usize], seed: u64) -> (Mat<f64>, Vec<usize>) {
        let truth: Vec<usize> = sizes
            .iter()
            .enumerate()
            .flat_map(|(g, &m)| std::iter::repeat_n(g, m))
            .collect();
        let n = truth.len();
        let mut r = lcg(seed);
        let mut a = Mat::<f64>::zeros(n, n);
        for j in 0..n {
            for i in 0..=j {
                let v = if truth[i] == truth[j] {
                    0.5 + 0.5 * r()
                } else {
                    0.05 * r()
                };
                a[(i, j)] = v;
                a[(j, i)] = v;
            }
        }
        (a, truth)
    }

    #[test]
    fn block_diagonal_affinity_recovers_the_blocks() {
        for (t, sizes) in [vec![5, 7, 9], vec![3, 3, 3, 3], vec![20, 4]]
            .iter()
            .enumerate()
        {
            let (a, truth) = blocks(sizes, t as u64);
            let fit = SpectralParams::new()
                .check()
                .unwrap()
                .fit_affinity(a.as_ref(), sizes.len(), 1)
                .unwrap();
            assert!(
                same_partition(&fit.labels, &truth),
                "{sizes:?}: {:?}",
                fit.labels
            );
            // the top eigenvalue of D^{-1/2} A D^{-1/2} is 1 (eigenvector D^{1/2} 1)
            assert!((fit.eigenvalues[0] - 1.0).abs() < 1e-10);
            assert!(fit.eigenvalues.windows(2).all(|w| w[0] >= w[1]));
            for r in 0..a.nrows() {
                let norm: f64 = (0..sizes.len())
                    .map(|c| fit.embedding[(r, c)].powi(2))
                    .sum();
                assert!((norm - 1.0).abs() < 1e-12);
            }
        }
    }

    #[test]
    fn exact_blocks_give_eigenvalue_one_with_multiplicity_c() {
        // Disconnected blocks: M has eigenvalue 1 with multiplicity = number of blocks.
        let truth = [0usize, 0, 0, 1, 1, 2, 2, 2, 2];
        let n = truth.len();
        let a = Mat::from_fn(n, n, |i, j| if truth[i] == truth[j] { 1.0 } else { 0.0 });
        let fit = SpectralParams::new()
            .check()
            .unwrap()
            .fit_affinity(a.as_ref(), 3, 0)
            .unwrap();
        for v in &fit.eigenvalues {
            assert!((v - 1.0).abs() < 1e-10, "{:?}", fit.eigenvalues);
        }
        assert!(same_partition(&fit.labels, &truth));
    }

    #[test]
    fn invariant_to_a_permutation_of_the_samples() {
        let (a, _) = blocks(&[6, 8, 5], 9);
        let n = a.nrows();
        let perm: Vec<usize> = (0..n).map(|i| (i * 7 + 3) % n).collect();
        let b = Mat::from_fn(n, n, |i, j| a[(perm[i], perm[j])]);
        let p = SpectralParams::new().check().unwrap();
        let fa = p.fit_affinity(a.as_ref(), 3, 4).unwrap();
        let fb = p.fit_affinity(b.as_ref(), 3, 4).unwrap();
        let permuted: Vec<usize> = perm.iter().map(|&i| fa.labels[i]).collect();
        assert!(same_partition(&permuted, &fb.labels));
        for (x, y) in fa.eigenvalues.iter().zip(&fb.eigenvalues) {
            assert!((x - y).abs() < 1e-10);
        }
    }

    #[test]
    fn isolated_samples_and_determinism() {
        let (mut a, _) = blocks(&[4, 4], 2);
        // sample 0 isolated
        for j in 0..a.ncols() {
            if j != 0 {
                a[(0, j)] = 0.0;
                a[(j, 0)] = 0.0;
            }
        }
        let p = SpectralParams::new().check().unwrap();
        let f = p.fit_affinity(a.as_ref(), 2, 11).unwrap();
        assert!((0..2).all(|c| f.embedding[(0, c)] == 0.0));
        assert_eq!(f, p.fit_affinity(a.as_ref(), 2, 11).unwrap());
    }

    #[test]
    fn bad_inputs_and_parameters_are_typed_errors() {
        let (a, _) = blocks(&[3, 3], 5);
        let ok = SpectralParams::new().check().unwrap();
        let mut nan = a.clone();
        nan[(0, 1)] = f64::NAN;
        assert!(matches!(
            ok.fit_affinity(nan.as_ref(), 2, 0),
            Err(Error::NonFinite { .. })
        ));
        let mut asym = a.clone();
        asym[(0, 1)] += 1.0;
        assert!(matches!(
            ok.fit_affinity(asym.as_ref(), 2, 0),
            Err(Error::NotSymmetric { .. })
        ));
        let mut neg = a.clone();
        neg[(0, 1)] = -0.5;
        neg[(1, 0)] = -0.5;
        assert!(matches!(
            ok.fit_affinity(neg.as_ref(), 2, 0),
            Err(Error::InvalidInput { .. })
        ));
        // clipped explicitly: the same as a zero entry
        let mut zero = a.clone();
        zero[(0, 1)] = 0.0;
        zero[(1, 0)] = 0.0;
        let clip = SpectralParams::new().clip_negative(true).check().unwrap();
        assert_eq!(
            clip.fit_affinity(neg.as_ref(), 2, 0).unwrap().embedding,
            ok.fit_affinity(zero.as_ref(), 2, 0).unwrap().embedding
        );
        assert!(matches!(
            ok.fit_affinity(Mat::<f64>::zeros(3, 4).as_ref(), 2, 0),
            Err(Error::Shape { .. })
        ));
        assert!(matches!(
            ok.fit_affinity(Mat::<f64>::zeros(0, 0).as_ref(), 2, 0),
            Err(Error::InvalidInput { .. })
        ));
        assert!(matches!(
            ok.fit_affinity(Mat::<f64>::identity(4, 4).as_ref(), 2, 0),
            Err(Error::InvalidInput { .. })
        ));
        for k in [0, 7] {
            assert!(matches!(
                ok.fit_affinity(a.as_ref(), k, 0),
                Err(Error::InvalidParam { .. })
            ));
        }
        for bad in [
            SpectralParams::new().n_init(0),
            SpectralParams::new().max_iter(0),
        ] {
            assert!(matches!(bad.check(), Err(Error::InvalidParam { .. })));
        }
    }
}
