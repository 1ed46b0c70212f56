//! Cluster centres of robust kernel k-means in feature space, as weighted indicators
//! (Du et al. 2015, eq. (11)–(12)): centre `c` is `v_c = Σ_{i ∈ c} a_i φ(x_i)` with
//! `a_i ≥ 0` summing to 1 over the cluster, so that every distance needs only kernel
//! entries:
//!
//! ‖φ(x_r) − v_c‖² = K_rr − 2 S_rc + T_c,  S_rc = Σ_{i ∈ c} a_i K_ir,  T_c = Σ_{i ∈ c} a_i S_ic.
//!
//! A is n × k with one non-zero per row, so `S = K·A` costs n² multiply-adds (one pass
//! over K), not the n²k of a dense product. Kernels are read by column through
//! `mkc_kmeans::KernelCols` (contiguous columns of a symmetric kernel).

use mkc_kmeans::KernelCols;
use rayon::prelude::*;

/// Weighted-indicator centres: `labels[i]` is the cluster whose centre sample `i`
/// supports with coefficient `coef[i]` (0: the sample supports no centre).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Centres {
    pub(crate) labels: Vec<usize>,
    pub(crate) coef: Vec<f64>,
    pub(crate) k: usize,
}

/// `S = K·A` (row-major n × k) and `T_c = a_cᵀ K a_c`.
pub(crate) struct Products {
    s: Vec<f64>,
    t: Vec<f64>,
    k: usize,
}

impl Products {
    /// `−2 S_rc + T_c`: the squared distance of sample r to centre c without its K_rr.
    #[inline]
    pub(crate) fn rel(&self, r: usize, c: usize) -> f64 {
        self.t[c] - 2.0 * self.s[r * self.k + c]
    }
}

impl Centres {
    /// Singleton centres on the samples `seeds` (centre c = φ(x_{seeds[c]})), the 'sample'
    /// start of the authors' code.
    pub(crate) fn singletons(n: usize, seeds: &[usize]) -> Self {
        let mut labels = vec![0; n];
        let mut coef = vec![0.0; n];
        for (c, &i) in seeds.iter().enumerate() {
            labels[i] = c;
            coef[i] = 1.0;
        }
        Centres {
            labels,
            coef,
            k: seeds.len(),
        }
    }

    /// Centres from labels and positive per-sample weights: `a_i = s_i / Σ_{l ∈ c} s_l`
    /// (eq. (12); plain means for unit weights). Empty clusters get no support.
    pub(crate) fn weighted(labels: Vec<usize>, s: &[f64], k: usize) -> Self {
        let mut total = vec![0.0; k];
        for (&l, &w) in labels.iter().zip(s) {
            total[l] += w;
        }
        let coef = labels
            .iter()
            .zip(s)
            .map(|(&l, &w)| if total[l] > 0.0 { w / total[l] } else { 0.0 })
            .collect();
        Centres { labels, coef, k }
    }

    /// `S = K·A` and `T` (one pass over K, rows in parallel, each summed in a fixed order).
    pub(crate) fn products(&self, kc: &KernelCols<'_>) -> Products {
        let (n, k) = (kc.n(), self.k);
        let support: Vec<(usize, usize, f64)> = (0..n)
            .filter(|&i| self.coef[i] != 0.0)
            .map(|i| (i, self.labels[i], self.coef[i]))
            .collect();
        let mut s = vec![0.0; n * k];
        s.par_chunks_mut(k).enumerate().for_each(|(r, row)| {
            let col = kc.col(r);
            for &(i, c, a) in &support {
                row[c] += a * col[i];
            }
        });
        let mut t = vec![0.0; k];
        for &(i, c, a) in &support {
            t[c] += a * s[i * k + c];
        }
        Products { s, t, k }
    }

    /// Squared distance of every sample to its own centre, `K_ii − 2 S_{i,ℓ_i} + T_{ℓ_i}`,
    /// for the kernel `kc` (eq. (16) for one kernel). Only the own cluster's support is
    /// read, Σ_c |c|² kernel entries in all.
    pub(crate) fn own_distances(&self, kc: &KernelCols<'_>) -> Vec<f64> {
        let n = kc.n();
        let mut members: Vec<Vec<(usize, f64)>> = vec![Vec::new(); self.k];
        for i in (0..n).filter(|&i| self.coef[i] != 0.0) {
            members[self.labels[i]].push((i, self.coef[i]));
        }
        let s_own: Vec<f64> = (0..n)
            .into_par_iter()
            .map(|r| {
                let col = kc.col(r);
                members[self.labels[r]]
                    .iter()
                    .map(|&(i, a)| a * col[i])
                    .sum()
            })
            .collect();
        // T_c = Σ_{i ∈ c} a_i S_ic, where S_ic is the own-cluster sum of a support sample.
        let mut t = vec![0.0; self.k];
        for (c, m) in members.iter().enumerate() {
            t[c] = m.iter().map(|&(i, a)| a * s_own[i]).sum();
        }
        (0..n)
            .map(|r| kc.diag(r) - 2.0 * s_own[r] + t[self.labels[r]])
            .collect()
    }
}
