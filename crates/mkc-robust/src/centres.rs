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
//!
//! Several sets of centres on the same kernel (the fresh starts of one partition step,
//! run in lockstep by `l21::run_many`) take their S together ([`products_many`]): K is
//! copied once into [`Panels`] of 32 rows with a sample's entries contiguous, and each
//! panel serves every set, every entry of S summed in registers in the same order as
//! [`Centres::products`] sums it in memory, so the results are the same bit for bit.
//! Measured (one thread, `min` of 30 repetitions on a loaded machine; S of 10 sets of
//! weighted centres): n = 1404, k = 36 (BA) 10.5 → 4.2 ms; n = 165, k = 15 (YALE)
//! 0.18 → 0.05 ms; n = 840, k = 120 (AR, clusters of 7) 2.0 → 2.0 ms. The assignment
//! ([`Products::assign`]) takes the rows of a block in SIMD lanes.

use faer::traits::pulp::{Simd, WithSimd};
use mkc_kmeans::KernelCols;
use rayon::prelude::*;
use std::borrow::Cow;

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

/// `S = K·A` (n × k) and `T_c = a_cᵀ K a_c`. S is stored cluster-major (`S_rc` at
/// `s[c·n + r]`, [`Centres::products`]) or in blocks of rows shared by several sets of
/// centres ([`products_many`]): block β (rows β·B .. β·B + len, len = B except in the last
/// block) holds the block's rows of every (set, cluster) column in turn, `groups` columns
/// per block, this set's first at `first`.
pub(crate) struct Products<'a> {
    s: Cow<'a, [f64]>,
    t: Vec<f64>,
    n: usize,
    block: usize,
    groups: usize,
    first: usize,
}

impl Products<'_> {
    /// Where row r of S starts and the stride between its clusters: `S_rc` is at
    /// `base + c · stride`.
    #[inline]
    pub(crate) fn row(&self, r: usize) -> (usize, usize) {
        let r0 = r - r % self.block;
        let len = self.block.min(self.n - r0);
        (r0 * self.groups + self.first * len + (r - r0), len)
    }

    /// `−2 S_rc + T_c`: the squared distance of sample r to centre c without its K_rr.
    #[inline]
    pub(crate) fn rel(&self, r: usize, c: usize) -> f64 {
        let (base, stride) = self.row(r);
        self.t[c] - 2.0 * self.s[base + c * stride]
    }

    /// The nearest centre of every sample (ties to the lowest index, as a scan over c
    /// with a strict `<`) and its squared distance K_rr + (−2 S_rc + T_c): the rows of a
    /// block in SIMD lanes, each lane computing what [`Products::rel`] computes.
    pub(crate) fn assign(&self, kc: &KernelCols<'_>) -> (Vec<usize>, Vec<f64>) {
        let mut labels = vec![0; self.n];
        let mut dist = vec![0.0; self.n];
        faer::traits::pulp::Arch::new().dispatch(Assign {
            p: self,
            kc,
            labels: &mut labels,
            dist: &mut dist,
        });
        (labels, dist)
    }
}

/// [`Products::assign`] as a SIMD operation.
struct Assign<'a, 'p, 'k> {
    p: &'a Products<'p>,
    kc: &'a KernelCols<'k>,
    labels: &'a mut [usize],
    dist: &'a mut [f64],
}

impl WithSimd for Assign<'_, '_, '_> {
    type Output = ();
    #[inline(always)]
    fn with_simd<S: Simd>(self, simd: S) -> Self::Output {
        let Assign {
            p,
            kc,
            labels,
            dist,
        } = self;
        let lanes = S::F64_LANES;
        let two = simd.splat_f64s(2.0);
        let mut best_v = [0.0; 16];
        let mut idx_v = [0.0; 16];
        let mut r0 = 0;
        while r0 < p.n {
            let (base, len) = p.row(r0);
            let nvec = len / lanes;
            for v in 0..nvec {
                let mut best = simd.splat_f64s(f64::INFINITY);
                let mut idx = simd.splat_f64s(0.0);
                for (c, &t) in p.t.iter().enumerate() {
                    let off = base + c * len + v * lanes;
                    let (sv, _) = S::as_simd_f64s(&p.s[off..off + lanes]);
                    // t − 2s, as in `rel`.
                    let d = simd.sub_f64s(simd.splat_f64s(t), simd.mul_f64s(two, sv[0]));
                    let closer = simd.less_than_f64s(d, best);
                    best = simd.select_f64s(closer, d, best);
                    idx = simd.select_f64s(closer, simd.splat_f64s(c as f64), idx);
                }
                let (bs, _) = S::as_mut_simd_f64s(&mut best_v[..lanes]);
                bs[0] = best;
                let (is, _) = S::as_mut_simd_f64s(&mut idx_v[..lanes]);
                is[0] = idx;
                for q in 0..lanes {
                    let r = r0 + v * lanes + q;
                    labels[r] = idx_v[q] as usize;
                    dist[r] = kc.diag(r) + best_v[q];
                }
            }
            for r in r0 + nvec * lanes..r0 + len {
                let (rb, stride) = p.row(r);
                let mut best = (f64::INFINITY, 0);
                for (c, &t) in p.t.iter().enumerate() {
                    let d = t - 2.0 * p.s[rb + c * stride];
                    if d < best.0 {
                        best = (d, c);
                    }
                }
                labels[r] = best.1;
                dist[r] = kc.diag(r) + best.0;
            }
            r0 += len;
        }
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
    pub(crate) fn products(&self, kc: &KernelCols<'_>) -> Products<'static> {
        self.products_by(kc, kc.exactly_symmetric())
    }

    /// [`Centres::products`] by columns ([`by_columns`], `K` must be exactly symmetric)
    /// or by rows ([`by_rows`]).
    pub(crate) fn products_by(&self, kc: &KernelCols<'_>, columns: bool) -> Products<'static> {
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
        Products {
            s: Cow::Owned(s),
            t,
            n,
            block: n.max(1),
            groups: k,
            first: 0,
        }
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

/// Rows of S per task of [`products_many`] (a multiple of 16).
const ROW_BLOCK: usize = 32;

/// An exactly symmetric kernel in panels of [`ROW_BLOCK`] rows, each panel's rows
/// interleaved: panel β holds K[r, i] for r in β·B .. β·B + len (len = B except in the last
/// panel) at `(i · len + r − β·B)`, so that a sample's entries for the panel's rows are
/// contiguous. Built once per kernel (n² copies) and read by every pass of
/// [`products_many`].
pub(crate) struct Panels {
    data: Vec<f64>,
    n: usize,
}

impl Panels {
    /// The panels of `kc`, or `None` when K is not exactly symmetric
    /// (`KernelCols::exactly_symmetric`): the panels hold K[i, r] read from column r.
    pub(crate) fn new(kc: &KernelCols<'_>) -> Option<Self> {
        if !kc.exactly_symmetric() {
            return None;
        }
        let n = kc.n();
        let mut data = vec![0.0; n * n];
        data.par_chunks_mut(ROW_BLOCK * n)
            .enumerate()
            .for_each(|(blk, panel)| {
                let r0 = blk * ROW_BLOCK;
                let len = panel.len() / n;
                for q in 0..len {
                    for (i, &x) in kc.col(r0 + q).iter().enumerate() {
                        panel[i * len + q] = x;
                    }
                }
            });
        Some(Self { data, n })
    }
}

/// [`Centres::products`] of several sets of centres on one kernel, bit for bit.
///
/// With the kernel's [`Panels`], one panel of rows at a time (in parallel): for every set
/// and cluster, the panel's rows of S_c = Σ_{i ∈ c} a_i K[:, i] are summed in registers
/// over the cluster's samples in ascending order, starting from 0, without fused
/// multiply–adds: the same sums in the same order as [`by_columns`], so the same bits.
/// The panel (ROW_BLOCK × n) stays in the core's cache for every set and cluster, and no
/// partial sum goes through memory. Without panels (K not exactly symmetric) every set
/// takes [`Centres::products`].
pub(crate) fn products_many<'b>(
    kc: &KernelCols<'_>,
    panels: Option<&Panels>,
    sets: &[&Centres],
    buf: &'b mut Vec<f64>,
) -> Vec<Products<'b>> {
    let Some(panels) = panels.filter(|p| p.n == kc.n()) else {
        return sets.iter().map(|c| c.products(kc)).collect();
    };
    let n = kc.n();
    let m = sets.len();
    let Some(k) = sets.first().map(|c| c.k) else {
        return Vec::new();
    };
    debug_assert!(sets.iter().all(|c| c.k == k));
    // The support of every (set, cluster), samples ascending: `groups[g]..groups[g + 1]`
    // of `support` for g = set · k + cluster.
    let mut groups = vec![0usize; m * k + 1];
    for (t, c) in sets.iter().enumerate() {
        for (i, &a) in c.coef.iter().enumerate() {
            if a != 0.0 {
                groups[t * k + c.labels[i] + 1] += 1;
            }
        }
    }
    for g in 0..m * k {
        groups[g + 1] += groups[g];
    }
    let mut support = vec![(0usize, 0.0f64); groups[m * k]];
    let mut next = groups.clone();
    for (t, c) in sets.iter().enumerate() {
        for (i, &a) in c.coef.iter().enumerate() {
            if a != 0.0 {
                let g = t * k + c.labels[i];
                support[next[g]] = (i, a);
                next[g] += 1;
            }
        }
    }
    // Block-major (see [`Products`]); every entry is written below.
    buf.resize(n * m * k, 0.0);
    buf.par_chunks_mut(ROW_BLOCK * m * k)
        .zip(panels.data.par_chunks(ROW_BLOCK * n))
        .for_each(|(out, panel)| {
            faer::traits::pulp::Arch::new().dispatch(RowBlock {
                panel,
                groups: &groups,
                support: &support,
                out,
            })
        });
    let buf: &'b [f64] = buf;
    sets.iter()
        .enumerate()
        .map(|(t, c)| {
            let mut p = Products {
                s: Cow::Borrowed(buf),
                t: vec![0.0; k],
                n,
                block: ROW_BLOCK,
                groups: m * k,
                first: t * k,
            };
            for i in (0..n).filter(|&i| c.coef[i] != 0.0) {
                let cl = c.labels[i];
                let (base, stride) = p.row(i);
                p.t[cl] += c.coef[i] * buf[base + cl * stride];
            }
            p
        })
        .collect()
}

/// One panel of [`products_many`]: `out` holds, for every (set, cluster) group, the
/// panel's rows of its S column.
struct RowBlock<'a> {
    panel: &'a [f64],
    groups: &'a [usize],
    support: &'a [(usize, f64)],
    out: &'a mut [f64],
}

impl WithSimd for RowBlock<'_> {
    type Output = ();
    #[inline(always)]
    fn with_simd<S: Simd>(self, simd: S) -> Self::Output {
        let RowBlock {
            panel,
            groups,
            support,
            out,
        } = self;
        let n_groups = groups.len() - 1;
        let len = out.len() / n_groups;
        let lanes = S::F64_LANES;
        let nvec = len / lanes;
        for (g, dst) in out.chunks_exact_mut(len).enumerate() {
            let members = &support[groups[g]..groups[g + 1]];
            // Whole vectors, eight (else four, else one) at a time in registers.
            let mut v0 = 0;
            while v0 < nvec {
                let w = match nvec - v0 {
                    8.. => 8,
                    4..=7 => 4,
                    _ => 1,
                };
                let (dv, _) = S::as_mut_simd_f64s(&mut dst[v0 * lanes..(v0 + w) * lanes]);
                match w {
                    8 => dv.copy_from_slice(&panel_sums::<S, 8>(simd, panel, len, v0, members)),
                    4 => dv.copy_from_slice(&panel_sums::<S, 4>(simd, panel, len, v0, members)),
                    _ => dv.copy_from_slice(&panel_sums::<S, 1>(simd, panel, len, v0, members)),
                }
                v0 += w;
            }
            // Rows left over (the last panel only).
            for (q, d) in dst.iter_mut().enumerate().skip(nvec * lanes) {
                let mut s = 0.0;
                for &(i, a) in members {
                    s += a * panel[i * len + q];
                }
                *d = s;
            }
        }
    }
}

/// Σ a_i x_i over `members` for vectors v0 .. v0 + W of the panel's rows (x_i the
/// sample's interleaved rows), from 0, in the members' order: s + a·x lane by lane,
/// rounded twice as in the scalar sum (no fused multiply–add). W accumulators held in
/// registers.
#[inline(always)]
fn panel_sums<S: Simd, const W: usize>(
    simd: S,
    panel: &[f64],
    len: usize,
    v0: usize,
    members: &[(usize, f64)],
) -> [S::f64s; W] {
    let lanes = S::F64_LANES;
    let mut acc = [simd.splat_f64s(0.0); W];
    for &(i, a) in members {
        let av = simd.splat_f64s(a);
        let off = i * len + v0 * lanes;
        let (xv, _) = S::as_simd_f64s(&panel[off..off + W * lanes]);
        let xv = &xv[..W];
        for j in 0..W {
            acc[j] = simd.add_f64s(acc[j], simd.mul_f64s(av, xv[j]));
        }
    }
    acc
}
