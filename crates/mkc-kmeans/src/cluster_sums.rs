//! The one kernel product per kernel k-means iteration: `S = K·W·E`, i.e.
//! `S[j, c] = Σ_{i ∈ c} w_i K_ji` (E the n x k 0/1 indicator, W = diag(w)).
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
//! The panels run under `pulp`'s runtime dispatch, so the loops are compiled for the
//! widest vector instructions the CPU has (the crate itself is built for baseline
//! x86-64); no multiply–add is fused, so the arithmetic is the same on every instruction
//! set. (Reading (B) from the upper triangle instead, sixteen contiguous entries per
//! column added as one vector, was measured 1.65x slower at n = 2000: one new page per
//! column.)
//!
//! Determinism: panels are split into a fixed number of groups (a function of n and k
//! only, never of the number of threads); each group sums into its own buffer in a
//! fixed order, and the buffers are added in group order. The result is bitwise
//! identical on 1 or 64 threads.

use crate::kernel_view::KernelCols;
use faer::traits::pulp::{self, Simd, WithSimd};
use rayon::prelude::*;

/// Columns per panel (their accumulators, PANEL x k, stay in L1).
const PANEL: usize = 16;
/// At most this many partial buffers (and parallel tasks).
const MAX_GROUPS: usize = 8;
/// Memory budget for the partial buffers, in f64 values.
const BUFFER_BUDGET: usize = 1 << 23;

/// Per-cluster sums `S[j, c]`, stored cluster-major (`S[c * n + j]`).
pub(crate) struct ClusterSums {
    n: usize,
    k: usize,
    /// Panel ranges of every group.
    groups: Vec<(usize, usize)>,
    parts: Vec<Vec<f64>>,
    sum: Vec<f64>,
}

impl ClusterSums {
    pub(crate) fn new(n: usize, k: usize) -> Self {
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
        let parts = vec![vec![0.0; n * k]; groups.len()];
        Self {
            n,
            k,
            groups,
            parts,
            sum: vec![0.0; n * k],
        }
    }

    /// S[j, c].
    #[inline]
    pub(crate) fn get(&self, j: usize, c: usize) -> f64 {
        self.sum[c * self.n + j]
    }

    /// Recompute S for `labels` and weights `w` (all labels < k).
    pub(crate) fn compute(&mut self, kc: &KernelCols<'_>, labels: &[usize], w: &[f64]) {
        let k = self.k;
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
                    buf,
                });
            });
        let (first, rest) = self
            .parts
            .split_first()
            .map(|(f, r)| (f.as_slice(), r))
            .unwrap_or((&[], &[]));
        self.sum.copy_from_slice(first);
        for part in rest {
            for (s, v) in self.sum.iter_mut().zip(part) {
                *s += v;
            }
        }
    }
}

/// The panels `p0..p1` of one group into its buffer, compiled for the CPU's widest
/// vector instructions.
struct Panels<'a, 'b> {
    kc: &'a KernelCols<'b>,
    labels: &'a [usize],
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
        let mut acc = vec![0.0; PANEL * k];
        for p in p0..p1 {
            let (j0, j1) = (p * PANEL, ((p + 1) * PANEL).min(n));
            // (A) S[j0.., label_j] += w_j K[j0.., j]
            for j in j0..j1 {
                let c = labels[j];
                axpy(&mut buf[c * n + j0..(c + 1) * n], w[j], &kc.col(j)[j0..]);
            }
            if j1 == n {
                continue;
            }
            below_panel(kc, labels, w, n, k, (j0, j1), buf, &mut acc);
        }
    }
}

/// (B) S[j, label_i] += w_i K[i, j] for i ≥ j1, from the lower triangle: row by row over
/// the panel, so the accumulations of the PANEL columns are independent (no dependency
/// chain). Accumulator (t, c) at `acc[t * k + c]`.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn below_panel(
    kc: &KernelCols<'_>,
    labels: &[usize],
    w: &[f64],
    n: usize,
    k: usize,
    (j0, j1): (usize, usize),
    buf: &mut [f64],
    acc: &mut [f64],
) {
    acc.iter_mut().for_each(|v| *v = 0.0);
    let mut cols: [&[f64]; PANEL] = [&[]; PANEL];
    for (slot, j) in cols.iter_mut().zip(j0..j1) {
        *slot = &kc.col(j)[j1..];
    }
    let cols = &cols[..j1 - j0];
    let (lab, wt) = (&labels[j1..], &w[j1..]);
    for (r, (&c, &wi)) in lab.iter().zip(wt).enumerate() {
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

#[inline(always)]
fn axpy(dst: &mut [f64], a: f64, src: &[f64]) {
    for (d, s) in dst.iter_mut().zip(src) {
        *d += a * *s;
    }
}
