//! The one kernel product per kernel k-means iteration: `S = K·W·E`, i.e.
//! `S[j, c] = Σ_{i ∈ c} w_i K_ji` (E the n x k 0/1 indicator, W = diag(w)), for one run
//! or for several runs on the same kernel at once (the restarts of a fit in lockstep).
//!
//! Why not a dense `K·H` matmul: H has one non-zero per row, so the dense product does
//! n²k multiply-adds of which n²(k−1) are by zero. Written as sparse sums it is n²
//! multiply-adds, and — the real cost, since the product is memory-bound — it can use
//! the symmetry of K to read only its lower triangle, half the memory traffic of `K·H`.
//!
//! K is cut into panels of `PANEL` columns. For panel J = [j0, j1) and each column j ∈ J:
//! - (A) the column below the panel's top, K[j0.., j], is added (`axpy`) into the
//!   accumulator of cluster `label_j`: S[i, label_j] += w_j K_ij for i ≥ j0;
//! - (B) the same column below the panel, K[j1.., j], read again from cache, is summed
//!   by cluster into S[j, ·]: S[j, label_i] += w_i K_ij for i ≥ j1 (the transposed half).
//!
//! Every pair (i, j) is counted exactly once in each direction.
//!
//! Several runs (label vectors) share one pass over K: (A) goes down the panel in tiles
//! of `TILE` rows and adds the tile of each of the panel's columns to every run's
//! accumulators while it is in L1; (B) reads the panel's sixteen entries of a row once
//! (each times w_i) and adds them, as one short vector, to the accumulator row of every
//! run's cluster of that row. One run alone keeps the single-run loops (the whole
//! column in (A), one scalar accumulator per column and cluster in (B)), as fast as
//! before runs were batched. Each sum S[j, c] of a run receives the same terms in the
//! same order as when the run is computed alone (tiles only reorder updates of distinct
//! entries; accumulator rows only regroup independent sums), so the results are the
//! same bits for any number of runs. At n = 2000, k = 10 a pass for ten runs costs about
//! what four single-run passes cost (measured on mfeat's fou kernel, one thread: a fit
//! with ten restarts 2.3x less CPU time; the single pass is bound by reading K from
//! memory in (A) and by one scalar update per entry in (B)).
//!
//! The panels run under `pulp`'s runtime dispatch, so the loops are compiled for the
//! widest vector instructions the CPU has (the crate itself is built for baseline
//! x86-64); no multiply–add is fused, so the arithmetic is the same on every instruction
//! set. (Reading (B) from the upper triangle instead, sixteen contiguous entries per
//! column added as one vector, was measured 1.65x slower at n = 2000: one new page per
//! column.)
//!
//! Determinism: panels are split into a fixed number of groups (a function of n and k
//! only, never of the number of threads or of runs); each group sums into its own
//! buffer in a fixed order, and the buffers are added in group order. The result is
//! bitwise identical on 1 or 64 threads.

use crate::kernel_view::KernelCols;
use faer::traits::pulp::{self, Simd, WithSimd};
use rayon::prelude::*;

/// Columns per panel (their accumulators, PANEL x k, stay in L1).
const PANEL: usize = 16;
/// Rows per tile of (A) (a tile of a column is 2 KiB).
const TILE: usize = 128;
/// At most this many partial buffers (and parallel tasks).
const MAX_GROUPS: usize = 8;
/// Memory budget for the partial buffers of one run, in f64 values (it sets the groups).
const BUFFER_BUDGET: usize = 1 << 23;
/// Memory budget for the partial buffers of the runs of one pass, in f64 values (more
/// runs than fit in it take several passes).
const BATCH_BUDGET: usize = 1 << 24;

/// Per-cluster sums `S[j, c]` of up to `runs` label vectors, stored run-major, then
/// cluster-major (`S[(r * k + c) * n + j]`).
pub(crate) struct ClusterSums {
    n: usize,
    k: usize,
    /// Panel ranges of every group.
    groups: Vec<(usize, usize)>,
    /// Runs per pass over K.
    batch: usize,
    parts: Vec<Vec<f64>>,
    sum: Vec<f64>,
}

/// The sums of one run (a view into [`ClusterSums`]).
#[derive(Clone, Copy)]
pub(crate) struct RunSums<'a> {
    n: usize,
    sum: &'a [f64],
}

impl RunSums<'_> {
    /// S[j, c].
    #[inline]
    pub(crate) fn get(&self, j: usize, c: usize) -> f64 {
        self.sum[c * self.n + j]
    }
}

impl ClusterSums {
    /// Room for the sums of up to `runs` label vectors (at least one).
    pub(crate) fn new(n: usize, k: usize, runs: usize) -> Self {
        let runs = runs.max(1);
        let n_panels = n.div_ceil(PANEL);
        let by_memory = (BUFFER_BUDGET / (n * k).max(1)).max(1);
        let g = MAX_GROUPS.min(by_memory).min(n_panels).max(1);
        // Balance the groups by area: panel p costs about n − p·PANEL.
        let cost = |p: usize| (n - p * PANEL) as f64;
        let total: f64 = (0..n_panels).map(cost).sum();
        let mut groups = Vec::with_capacity(g);
        let (mut start, mut acc) = (0, 0.0);
        for p in 0..n_panels {
            acc += cost(p);
            if groups.len() + 1 < g && acc >= total * (groups.len() + 1) as f64 / g as f64 {
                groups.push((start, p + 1));
                start = p + 1;
            }
        }
        groups.push((start, n_panels));
        let batch = (BATCH_BUDGET / (groups.len() * n * k).max(1)).clamp(1, runs);
        let parts = vec![vec![0.0; batch * n * k]; groups.len()];
        Self {
            n,
            k,
            groups,
            batch,
            parts,
            sum: vec![0.0; runs * n * k],
        }
    }

    /// The sums of run `r` of the last [`ClusterSums::compute`].
    pub(crate) fn run(&self, r: usize) -> RunSums<'_> {
        let len = self.n * self.k;
        RunSums {
            n: self.n,
            sum: &self.sum[r * len..(r + 1) * len],
        }
    }

    /// Recompute S for every label vector of `labels` (at most the `runs` given to
    /// [`ClusterSums::new`], all labels < k) and weights `w`: run r's sums are then
    /// [`ClusterSums::run`]`(r)`. One pass over K per batch of runs.
    pub(crate) fn compute(&mut self, kc: &KernelCols<'_>, labels: &[&[usize]], w: &[f64]) {
        let len = self.n * self.k;
        for (b, chunk) in labels.chunks(self.batch).enumerate() {
            let at = b * self.batch * len;
            self.pass(kc, chunk, w, at);
        }
    }

    /// One pass over K for the runs `labels`, their sums written from `sum[at..]`.
    fn pass(&mut self, kc: &KernelCols<'_>, labels: &[&[usize]], w: &[f64], at: usize) {
        let k = self.k;
        let len = labels.len() * self.n * k;
        self.parts
            .par_iter_mut()
            .zip(self.groups.par_iter())
            .for_each(|(buf, &(p0, p1))| {
                pulp::Arch::new().dispatch(Panels {
                    kc,
                    labels,
                    w,
                    k,
                    panels: (p0, p1),
                    buf: &mut buf[..len],
                });
            });
        let sum = &mut self.sum[at..at + len];
        let (first, rest) = self
            .parts
            .split_first()
            .map(|(f, r)| (&f[..len], r))
            .unwrap_or((&[], &[]));
        sum.copy_from_slice(first);
        for part in rest {
            for (s, v) in sum.iter_mut().zip(&part[..len]) {
                *s += v;
            }
        }
    }
}

/// The panels `p0..p1` of one group into its buffer (every run's), compiled for the
/// CPU's widest vector instructions.
struct Panels<'a, 'b> {
    kc: &'a KernelCols<'b>,
    labels: &'a [&'a [usize]],
    w: &'a [f64],
    k: usize,
    panels: (usize, usize),
    buf: &'a mut [f64],
}

impl WithSimd for Panels<'_, '_> {
    type Output = ();
    #[inline(always)]
    fn with_simd<S: Simd>(self, _simd: S) {
        let Panels {
            kc,
            labels,
            w,
            k,
            panels: (p0, p1),
            buf,
        } = self;
        let n = kc.n();
        buf.iter_mut().for_each(|v| *v = 0.0);
        let mut acc = vec![[0.0; PANEL]; labels.len() * k];
        for p in p0..p1 {
            let (j0, j1) = (p * PANEL, ((p + 1) * PANEL).min(n));
            // (A) S[j0.., label_j] += w_j K[j0.., j], a tile of rows at a time for
            // several runs (the whole column for one)
            let tile = if labels.len() == 1 { n } else { TILE };
            let mut i0 = j0;
            while i0 < n {
                let i1 = (i0 + tile).min(n);
                for (r, l) in labels.iter().enumerate() {
                    for j in j0..j1 {
                        let at = (r * k + l[j]) * n;
                        axpy(&mut buf[at + i0..at + i1], w[j], &kc.col(j)[i0..i1]);
                    }
                }
                i0 = i1;
            }
            if j1 == n {
                continue;
            }
            match labels {
                [one] => below_panel_one(kc, one, w, (n, k), (j0, j1), buf, &mut acc),
                _ => below_panel(kc, labels, w, (n, k), (j0, j1), buf, &mut acc),
            }
        }
    }
}

/// (B) S[j, label_i] += w_i K[i, j] for i ≥ j1, from the lower triangle: row by row over
/// the panel, the row's entries (times w_i) added to the accumulator row of its cluster
/// in every run, so each accumulation is a chain over i in order as for one run alone.
/// Accumulator (run r, cluster c, column t) at `acc[r * k + c][t]`.
#[inline(always)]
fn below_panel(
    kc: &KernelCols<'_>,
    labels: &[&[usize]],
    w: &[f64],
    (n, k): (usize, usize),
    (j0, j1): (usize, usize),
    buf: &mut [f64],
    acc: &mut [[f64; PANEL]],
) {
    acc.iter_mut().for_each(|v| *v = [0.0; PANEL]);
    let width = j1 - j0;
    let mut cols: [&[f64]; PANEL] = [&[]; PANEL];
    for (slot, j) in cols.iter_mut().zip(j0..j1) {
        *slot = &kc.col(j)[j1..];
    }
    // entries past a narrower last panel's columns stay 0 (never written back)
    let mut row = [0.0; PANEL];
    for (at, (&wi, li)) in w[j1..].iter().zip(j1..).enumerate() {
        for (v, col) in row.iter_mut().zip(&cols[..width]) {
            *v = wi * col[at];
        }
        for (r, l) in labels.iter().enumerate() {
            add_row(&mut acc[r * k + l[li]], &row);
        }
    }
    for (rc, a) in acc.iter().enumerate() {
        let b0 = rc * n + j0;
        for (d, s) in buf[b0..b0 + width].iter_mut().zip(a) {
            *d += *s;
        }
    }
}

/// (B) for one run, as before runs were batched: one scalar accumulator per (column,
/// cluster), `acc[c][t]` (the same sums as [`below_panel`]'s; faster for one run, whose
/// rows [`below_panel`] would write and read back at once).
#[inline(always)]
fn below_panel_one(
    kc: &KernelCols<'_>,
    labels: &[usize],
    w: &[f64],
    (n, k): (usize, usize),
    (j0, j1): (usize, usize),
    buf: &mut [f64],
    acc: &mut [[f64; PANEL]],
) {
    acc.iter_mut().for_each(|v| *v = [0.0; PANEL]);
    let mut cols: [&[f64]; PANEL] = [&[]; PANEL];
    for (slot, j) in cols.iter_mut().zip(j0..j1) {
        *slot = &kc.col(j)[j1..];
    }
    let cols = &cols[..j1 - j0];
    let (lab, wt) = (&labels[j1..], &w[j1..]);
    for (r, (&c, &wi)) in lab.iter().zip(wt).enumerate() {
        for (t, col) in cols.iter().enumerate() {
            acc[c][t] += wi * col[r];
        }
    }
    for (c, a) in acc.iter().enumerate().take(k) {
        let b0 = c * n + j0;
        for (d, s) in buf[b0..b0 + cols.len()].iter_mut().zip(a) {
            *d += *s;
        }
    }
}

#[inline(always)]
fn add_row(dst: &mut [f64; PANEL], src: &[f64; PANEL]) {
    for (d, s) in dst.iter_mut().zip(src) {
        *d += *s;
    }
}

#[inline(always)]
fn axpy(dst: &mut [f64], a: f64, src: &[f64]) {
    for (d, s) in dst.iter_mut().zip(src) {
        *d += a * *s;
    }
}

/// The single-run product as it was before runs were batched (one axpy down the whole
/// column in (A), one scalar accumulator per (column, cluster) in (B)): the reference
/// the batched product is tested against, bit for bit.
#[cfg(test)]
pub(crate) mod reference {
    use super::{KernelCols, MAX_GROUPS, PANEL};
    use rayon::prelude::*;

    /// S for one label vector, `S[c * n + j]`.
    pub(crate) fn sums(kc: &KernelCols<'_>, labels: &[usize], w: &[f64], k: usize) -> Vec<f64> {
        let n = kc.n();
        let groups = super::ClusterSums::new(n, k, 1).groups;
        assert!(groups.len() <= MAX_GROUPS);
        let parts: Vec<Vec<f64>> = groups
            .par_iter()
            .map(|&(p0, p1)| {
                let mut buf = vec![0.0; n * k];
                let mut acc = vec![0.0; PANEL * k];
                for p in p0..p1 {
                    let (j0, j1) = (p * PANEL, ((p + 1) * PANEL).min(n));
                    for j in j0..j1 {
                        let c = labels[j];
                        for (d, s) in buf[c * n + j0..(c + 1) * n]
                            .iter_mut()
                            .zip(&kc.col(j)[j0..])
                        {
                            *d += w[j] * *s;
                        }
                    }
                    if j1 == n {
                        continue;
                    }
                    acc.iter_mut().for_each(|v| *v = 0.0);
                    let cols: Vec<&[f64]> = (j0..j1).map(|j| &kc.col(j)[j1..]).collect();
                    for (r, (&c, &wi)) in labels[j1..].iter().zip(&w[j1..]).enumerate() {
                        for (t, col) in cols.iter().enumerate() {
                            acc[t * k + c] += wi * col[r];
                        }
                    }
                    for (t, j) in (j0..j1).enumerate() {
                        for c in 0..k {
                            buf[c * n + j] += acc[t * k + c];
                        }
                    }
                }
                buf
            })
            .collect();
        let mut sum = parts[0].clone();
        for part in &parts[1..] {
            for (s, v) in sum.iter_mut().zip(part) {
                *s += v;
            }
        }
        sum
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use faer::Mat;

    fn noise(i: usize, j: usize, salt: usize) -> f64 {
        let z = (i * 7919 + j * 104_729 + salt * 1_299_709) % 10_007;
        z as f64 / 10_007.0 - 0.5
    }

    /// The batched product of several runs equals the single-run reference bit for bit,
    /// and the brute-force sums to rounding: sizes below, at and above a panel and a
    /// tile, one and several groups, unit and non-unit weights, one to five runs.
    #[test]
    fn batched_runs_equal_the_single_run_reference_bit_for_bit() {
        for (n, k) in [(1, 1), (7, 3), (16, 2), (33, 4), (300, 5), (613, 7)] {
            let b = Mat::from_fn(n, n, |i, j| noise(i, j, n));
            let kern = Mat::from_fn(n, n, |i, j| b[(i, j)] + b[(j, i)]);
            let kc = KernelCols::new(kern.as_ref());
            for unit in [true, false] {
                let w: Vec<f64> = (0..n)
                    .map(|i| if unit { 1.0 } else { 1.5 + noise(i, 0, 1) })
                    .collect();
                let labels: Vec<Vec<usize>> = (0..5)
                    .map(|r| (0..n).map(|i| (i * (r + 3) + i / 5 + r) % k).collect())
                    .collect();
                let mut sums = ClusterSums::new(n, k, 5);
                for runs in 1..=5 {
                    let refs: Vec<&[usize]> = labels[..runs].iter().map(|l| &l[..]).collect();
                    sums.compute(&kc, &refs, &w);
                    for (r, l) in labels[..runs].iter().enumerate() {
                        let want = reference::sums(&kc, l, &w, k);
                        let got = sums.run(r);
                        for c in 0..k {
                            for j in 0..n {
                                let (g, e) = (got.get(j, c), want[c * n + j]);
                                assert_eq!(g.to_bits(), e.to_bits(), "n {n} run {r}/{runs}");
                                let brute: f64 = (0..n)
                                    .filter(|&i| l[i] == c)
                                    .map(|i| w[i] * kern[(j, i)])
                                    .sum();
                                assert!((g - brute).abs() < 1e-9 * (1.0 + brute.abs()));
                            }
                        }
                    }
                }
            }
        }
    }

    /// The groups depend on n and k only, not on the number of runs.
    #[test]
    fn groups_do_not_depend_on_the_number_of_runs() {
        for (n, k) in [(100, 3), (2000, 10), (20_000, 50)] {
            let one = ClusterSums::new(n, k, 1).groups;
            assert_eq!(one, ClusterSums::new(n, k, 10).groups);
            assert!(!one.is_empty() && one.len() <= MAX_GROUPS);
        }
    }
}
