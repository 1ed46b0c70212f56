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

/// Rows of S computed together by [`by_rows`].
const ROWS: usize = 4;

/// Weighted-indicator centres: `labels[i]` is the cluster whose centre sample `i`
/// supports with coefficient `coef[i]` (0: the sample supports no centre).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Centres {
    pub(crate) labels: Vec<usize>,
    pub(crate) coef: Vec<f64>,
    pub(crate) k: usize,
}

/// `S = K·A` (n × k, stored cluster-major: `S_rc` at `s[c·n + r]`) and `T_c = a_cᵀ K a_c`.
pub(crate) struct Products {
    s: Vec<f64>,
    t: Vec<f64>,
    n: usize,
}

impl Products {
    /// `−2 S_rc + T_c`: the squared distance of sample r to centre c without its K_rr.
    #[inline]
    pub(crate) fn rel(&self, r: usize, c: usize) -> f64 {
        self.t[c] - 2.0 * self.s[c * self.n + r]
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

    /// `S = K·A` and `T` (one pass over K, rows in parallel, each S_rc summed over the
    /// support in ascending sample order, so the result is the same bit for bit on either
    /// path below and for any number of threads).
    pub(crate) fn products(&self, kc: &KernelCols<'_>) -> Products {
        self.products_by(kc, kc.exactly_symmetric())
    }

    /// [`Centres::products`] by columns ([`by_columns`], `K` must be exactly symmetric)
    /// or by rows ([`by_rows`]).
    pub(crate) fn products_by(&self, kc: &KernelCols<'_>, columns: bool) -> Products {
        let (n, k) = (kc.n(), self.k);
        let support: Vec<(usize, usize, f64)> = (0..n)
            .filter(|&i| self.coef[i] != 0.0)
            .map(|i| (i, self.labels[i], self.coef[i]))
            .collect();
        let mut s = vec![0.0; n * k];
        if columns {
            by_columns(kc, &self.members(), n, &mut s);
        } else {
            by_rows(kc, &support, k, &mut s);
        }
        let mut t = vec![0.0; k];
        for &(i, c, a) in &support {
            t[c] += a * s[c * n + i];
        }
        Products { s, t, n }
    }

    /// The support of every cluster: (sample, coefficient), samples ascending.
    fn members(&self) -> Vec<Vec<(usize, f64)>> {
        let mut members: Vec<Vec<(usize, f64)>> = vec![Vec::new(); self.k];
        for (i, &a) in self.coef.iter().enumerate().filter(|(_, &a)| a != 0.0) {
            members[self.labels[i]].push((i, a));
        }
        members
    }

    /// Squared distance of every sample to its own centre, `K_ii − 2 S_{i,ℓ_i} + T_{ℓ_i}`,
    /// for the kernel `kc` (eq. (16) for one kernel). Only the own cluster's support is
    /// read, Σ_c |c|² kernel entries in all.
    pub(crate) fn own_distances(&self, kc: &KernelCols<'_>) -> Vec<f64> {
        let n = kc.n();
        let members = self.members();
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

/// S (cluster-major, see [`Products`]) row by row: `S_rc += a_i K_ir` reading column r
/// of K, a gather over the support. ROWS rows at a time, so that each support entry
/// feeds ROWS independent sums (one row alone waits on `row[c]` from one term to the
/// next), into a row-major buffer then transposed.
fn by_rows(kc: &KernelCols<'_>, support: &[(usize, usize, f64)], k: usize, s: &mut [f64]) {
    let n = kc.n();
    let mut rows = vec![0.0; n * k];
    rows.par_chunks_mut(ROWS * k)
        .enumerate()
        .for_each(|(b, block)| {
            let r0 = b * ROWS;
            if block.len() == ROWS * k {
                let cols: [&[f64]; ROWS] = std::array::from_fn(|q| kc.col(r0 + q));
                for &(i, c, a) in support {
                    for (q, col) in cols.iter().enumerate() {
                        block[q * k + c] += a * col[i];
                    }
                }
            } else {
                for (q, row) in block.chunks_mut(k).enumerate() {
                    let col = kc.col(r0 + q);
                    for &(i, c, a) in support {
                        row[c] += a * col[i];
                    }
                }
            }
        });
    for (r, row) in rows.chunks(k).enumerate() {
        for (c, &v) in row.iter().enumerate() {
            s[c * n + r] = v;
        }
    }
}

/// S for an exactly symmetric K (`KernelCols::exactly_symmetric`): K_ir = K_ri, so row
/// c of Sᵀ is Σ a_i K[:, i] over the support of cluster c, one vectorised `axpy` of a
/// contiguous column per support entry (`pulp` dispatch; no multiply–add is fused), the
/// clusters in parallel. Same terms in the same order as [`by_rows`].
fn by_columns(kc: &KernelCols<'_>, members: &[Vec<(usize, f64)>], n: usize, s: &mut [f64]) {
    s.par_chunks_mut(n).zip(members).for_each(|(out, support)| {
        faer::traits::pulp::Arch::new().dispatch(
            #[inline(always)]
            || {
                for &(i, a) in support {
                    for (d, x) in out.iter_mut().zip(kc.col(i)) {
                        *d += a * *x;
                    }
                }
            },
        );
    });
}
