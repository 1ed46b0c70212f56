//! Selected eigenpairs of a symmetric tridiagonal matrix T (diagonal `d`, off-diagonal
//! `e`): the eigenvalues by bisection on Sturm counts, the eigenvectors by inverse
//! iteration — the method of LAPACK's `dstebz` + `dstein` (used by `dsyevx`), in
//! O(n·(k·steps + k·iterations)) work for k pairs instead of the O(n³) of divide and
//! conquer on every pair.
//!
//! Choices made here (LAPACK leaves them to the caller or fixes them differently):
//! - **Bisection** runs every wanted index for the same fixed number of halvings of the
//!   Gershgorin interval, down to a width of ε·‖T‖ (absolute accuracy, as divide and
//!   conquer gives), up to [`LANES`] indices at once so that the Sturm recurrences of
//!   different indices fill the vector units (`pulp` dispatch; the arithmetic of each
//!   index is independent of the others, so batching does not change any value).
//! - **Inverse iteration** factors T − λI once per eigenvalue (partial pivoting, pivots
//!   below ε·‖T‖ replaced by ±ε·‖T‖), starts from a seeded random vector (seed
//!   [`START_SEED`], stream = eigenvalue index) and stops two iterations after the
//!   residual estimate 1/‖(T − λI)⁻¹x‖ falls below n·ε·‖T‖, at most [`MAX_ITER`] solves.
//! - **Clusters**: eigenvalues closer than 10⁻³·‖T‖ to their neighbour (dstein's
//!   criterion) form a cluster; within it each iterate is orthogonalised (classical
//!   Gram–Schmidt, two passes) against the cluster's earlier vectors. Unlike `dstein`,
//!   equal eigenvalues are not separated by 10·ε·|λ| before factoring: the random
//!   starts and the orthogonalisation already give distinct vectors, and the
//!   separations add up to residuals of m·10·ε·|λ| in a cluster of m equal values.
//!   Clusters are independent and run in parallel: no result depends on the number of
//!   threads.
//! - **Acceptance**: the returned vectors must be orthonormal to 10⁻¹¹ (every pair,
//!   checked with one k×k Gram matrix); otherwise, or when an iteration does not converge
//!   or T is zero or non-finite, the functions return `None` and the caller uses the
//!   full divide-and-conquer decomposition.

use faer::linalg::matmul::matmul;
use faer::prelude::{Reborrow, ReborrowMut};
use faer::{Accum, Mat, MatRef, Par};
use mkc_core::seed;
use rand::Rng;
use rayon::prelude::*;

/// Indices bisected together (the width of one batch of Sturm recurrences).
pub(crate) const LANES: usize = 32;
/// Solves per eigenvector before inverse iteration gives up.
const MAX_ITER: usize = 5;
/// Iterations after the residual test first passes (as `dstein`).
const EXTRA: usize = 2;
/// Seed of the starting vectors.
const START_SEED: u64 = 0x0074_7269_6469_6167;
/// Neighbours closer than this times ‖T‖ share a cluster.
const CLUSTER_GAP: f64 = 1e-3;
/// Largest accepted |zᵢᵀzⱼ − δᵢⱼ|.
const ORTHO_TOL: f64 = 1e-11;

/// A symmetric tridiagonal matrix with its Gershgorin interval.
pub(crate) struct Tridiagonal<'a> {
    d: &'a [f64],
    e: &'a [f64],
    e2: Vec<f64>,
    /// Gershgorin bounds, widened by rounding slack.
    lo: f64,
    hi: f64,
    /// max(|lo|, |hi|) before widening: the scale ‖T‖ of every tolerance.
    norm: f64,
    /// Smallest magnitude a Sturm pivot may take.
    pivmin: f64,
}

impl<'a> Tridiagonal<'a> {
    /// `d` (n ≥ 2) and `e` (n − 1). `None` when T is zero or has a non-finite entry.
    pub(crate) fn new(d: &'a [f64], e: &'a [f64]) -> Option<Self> {
        let n = d.len();
        let finite = d.iter().chain(e).all(|x| x.is_finite());
        if n < 2 || e.len() + 1 != n || !finite {
            return None;
        }
        let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
        for i in 0..n {
            let r = if i > 0 { e[i - 1].abs() } else { 0.0 } + e.get(i).map_or(0.0, |x| x.abs());
            lo = lo.min(d[i] - r);
            hi = hi.max(d[i] + r);
        }
        let norm = lo.abs().max(hi.abs());
        if !norm.is_finite() || norm == 0.0 {
            return None;
        }
        let e2: Vec<f64> = e.iter().map(|x| x * x).collect();
        let pivmin = f64::MIN_POSITIVE * e2.iter().fold(1.0f64, |m, &x| m.max(x));
        let slack = 2.1 * (norm * f64::EPSILON * n as f64 + 2.0 * pivmin);
        Some(Self {
            d,
            e,
            e2,
            lo: lo - slack,
            hi: hi + slack,
            norm,
            pivmin,
        })
    }

    /// The eigenvalues with the given ascending-order indices (each < n), to ε·‖T‖.
    pub(crate) fn eigenvalues(&self, indices: &[usize]) -> Vec<f64> {
        let width = self.hi - self.lo;
        let steps = (width / (f64::EPSILON * self.norm))
            .log2()
            .ceil()
            .clamp(1.0, 128.0) as usize;
        let mut out = vec![0.0; indices.len()];
        out.par_chunks_mut(LANES)
            .zip(indices.par_chunks(LANES))
            .for_each(|(vals, idx)| {
                let mut batch = Batch::new(self.lo, self.hi, idx);
                faer::traits::pulp::Arch::new().dispatch(
                    #[inline(always)]
                    || {
                        for _ in 0..steps {
                            batch.halve(self);
                        }
                    },
                );
                for (v, (a, b)) in vals.iter_mut().zip(batch.lo.iter().zip(&batch.hi)) {
                    *v = a + 0.5 * (b - a);
                }
            });
        out
    }

    /// Orthonormal eigenvectors (n x k) for the ascending eigenvalues `values` (from
    /// [`Self::eigenvalues`]; `first` is the index of `values[0]`, used to seed the start
    /// vectors). `None` when inverse iteration does not converge or the result is not
    /// orthonormal to [`ORTHO_TOL`].
    pub(crate) fn eigenvectors(&self, values: &[f64], first: usize) -> Option<Mat<f64>> {
        let n = self.d.len();
        let k = values.len();
        let mut starts = vec![0];
        for j in 1..k {
            if values[j] - values[j - 1] > CLUSTER_GAP * self.norm {
                starts.push(j);
            }
        }
        starts.push(k);
        let mut z = Mat::<f64>::zeros(n, k);
        let clusters: Vec<(usize, faer::MatMut<'_, f64>)> = {
            let mut rest = z.as_mut();
            let mut out = Vec::with_capacity(starts.len() - 1);
            for w in starts.windows(2) {
                let (this, tail) = rest.split_at_col_mut(w[1] - w[0]);
                out.push((w[0], this));
                rest = tail;
            }
            out
        };
        let ok = clusters.into_par_iter().all(|(j0, cols)| {
            let m = cols.ncols();
            self.cluster(&values[j0..j0 + m], first + j0, cols)
        });

        if !ok || !orthonormal(&z) {
            return None;
        }
        Some(z)
    }

    /// Inverse iteration for one cluster (its eigenvalues ascending) into `out`'s columns.
    fn cluster(&self, values: &[f64], first: usize, mut out: faer::MatMut<'_, f64>) -> bool {
        let n = self.d.len();
        let tiny = f64::EPSILON * self.norm;
        let target = n as f64 * f64::EPSILON * self.norm;
        let mut lu = Lu::new(n);
        let mut x = vec![0.0; n];
        let mut coef = Mat::<f64>::zeros(values.len(), 1);
        for (c, &lambda) in values.iter().enumerate() {
            lu.factor(self.d, self.e, lambda);
            let mut rng = seed::rng(seed::derive(START_SEED, (first + c) as u64));
            x.iter_mut()
                .for_each(|v| *v = rng.random::<f64>() * 2.0 - 1.0);
            normalise(&mut x);
            let mut passed = None;
            for it in 0..MAX_ITER {
                lu.solve(&mut x, tiny);
                let growth = norm2(&x);
                if !growth.is_finite() || growth == 0.0 {
                    return false;
                }
                x.iter_mut().for_each(|v| *v /= growth);
                // twice: the solve amplifies the cluster's earlier directions as much
                // as the wanted one, so one pass cancels too much to stay orthogonal
                for _ in 0..2 {
                    orthogonalise(&mut x, out.as_ref().subcols(0, c), &mut coef);
                    normalise(&mut x);
                }
                if passed.is_none() && growth * target >= 1.0 {
                    passed = Some(it);
                }
                if passed.is_some_and(|p| it >= p + EXTRA) {
                    break;
                }
            }
            if passed.is_none() {
                return false;
            }
            out.as_mut()
                .col_mut(c)
                .iter_mut()
                .zip(&x)
                .for_each(|(d, s)| *d = *s);
        }
        true
    }
}

/// Bisection state of up to [`LANES`] indices: λ_idx ∈ [lo, hi).
struct Batch {
    idx: [f64; LANES],
    lo: [f64; LANES],
    hi: [f64; LANES],
}

impl Batch {
    fn new(lo: f64, hi: f64, idx: &[usize]) -> Self {
        // unused lanes repeat the last index (their results are dropped)
        let last = *idx.last().unwrap_or(&0);
        Self {
            idx: std::array::from_fn(|j| idx.get(j).copied().unwrap_or(last) as f64),
            lo: [lo; LANES],
            hi: [hi; LANES],
        }
    }

    /// One bisection step of every lane: count the eigenvalues below each midpoint
    /// (Sturm sequence of T − xI, pivots of magnitude ≤ pivmin replaced by −pivmin) and
    /// keep the half that holds the lane's eigenvalue.
    #[inline(always)]
    fn halve(&mut self, t: &Tridiagonal<'_>) {
        let x: [f64; LANES] = std::array::from_fn(|j| self.lo[j] + 0.5 * (self.hi[j] - self.lo[j]));
        let pivmin = t.pivmin;
        let fix = |q: f64| if q.abs() <= pivmin { -pivmin } else { q };
        let mut q = [0.0; LANES];
        let mut count = [0.0; LANES];
        for j in 0..LANES {
            q[j] = fix(t.d[0] - x[j]);
            count[j] = if q[j] < 0.0 { 1.0 } else { 0.0 };
        }
        for (&di, &e2) in t.d[1..].iter().zip(&t.e2) {
            for j in 0..LANES {
                q[j] = fix((di - x[j]) - e2 / q[j]);
                count[j] += if q[j] < 0.0 { 1.0 } else { 0.0 };
            }
        }
        for j in 0..LANES {
            if count[j] > self.idx[j] {
                self.hi[j] = x[j];
            } else {
                self.lo[j] = x[j];
            }
        }
    }
}

/// T − λI = P·L·U by Gaussian elimination with partial pivoting: U upper triangular
/// with two superdiagonals, L unit lower bidiagonal (multipliers `l`), `swap[k]` when
/// rows k and k + 1 were exchanged.
struct Lu {
    u0: Vec<f64>,
    u1: Vec<f64>,
    u2: Vec<f64>,
    l: Vec<f64>,
    swap: Vec<bool>,
}

impl Lu {
    fn new(n: usize) -> Self {
        Self {
            u0: vec![0.0; n],
            u1: vec![0.0; n],
            u2: vec![0.0; n],
            l: vec![0.0; n],
            swap: vec![false; n],
        }
    }

    fn factor(&mut self, d: &[f64], e: &[f64], lambda: f64) {
        let n = d.len();
        // the pending row k: its entries in columns k and k + 1
        let (mut c0, mut c1) = (d[0] - lambda, e[0]);
        for k in 0..n - 1 {
            let (b, a, c) = (
                e[k],
                d[k + 1] - lambda,
                if k + 2 < n { e[k + 1] } else { 0.0 },
            );
            if c0.abs() >= b.abs() {
                let m = if c0 != 0.0 { b / c0 } else { 0.0 };
                (self.u0[k], self.u1[k], self.u2[k]) = (c0, c1, 0.0);
                (self.l[k], self.swap[k]) = (m, false);
                (c0, c1) = (a - m * c1, c);
            } else {
                let m = c0 / b;
                (self.u0[k], self.u1[k], self.u2[k]) = (b, a, c);
                (self.l[k], self.swap[k]) = (m, true);
                (c0, c1) = (c1 - m * a, -m * c);
            }
        }
        self.u0[n - 1] = c0;
    }

    /// x ← (T − λI)⁻¹x, pivots of magnitude below `tiny` replaced by ±`tiny`.
    fn solve(&self, x: &mut [f64], tiny: f64) {
        let n = x.len();
        for k in 0..n - 1 {
            if self.swap[k] {
                x.swap(k, k + 1);
            }
            x[k + 1] -= self.l[k] * x[k];
        }
        let piv = |p: f64| {
            if p.abs() >= tiny {
                p
            } else if p < 0.0 {
                -tiny
            } else {
                tiny
            }
        };
        for k in (0..n).rev() {
            let mut s = x[k];
            if k + 1 < n {
                s -= self.u1[k] * x[k + 1];
            }
            if k + 2 < n {
                s -= self.u2[k] * x[k + 2];
            }
            x[k] = s / piv(self.u0[k]);
        }
    }
}

fn norm2(x: &[f64]) -> f64 {
    x.iter().map(|v| v * v).sum::<f64>().sqrt()
}

fn normalise(x: &mut [f64]) {
    let s = norm2(x);
    if s > 0.0 {
        x.iter_mut().for_each(|v| *v /= s);
    }
}

/// x ← x − Z·(Zᵀx) (one classical Gram–Schmidt pass against the columns of `z`;
/// `coef` holds at least z.ncols() rows).
fn orthogonalise(x: &mut [f64], z: MatRef<'_, f64>, coef: &mut Mat<f64>) {
    let c = z.ncols();
    if c == 0 {
        return;
    }
    let mut coef = coef.as_mut().subrows_mut(0, c);
    let mut x = faer::MatMut::from_column_major_slice_mut(x, z.nrows(), 1);
    matmul(
        coef.rb_mut(),
        Accum::Replace,
        z.transpose(),
        x.rb(),
        1.0,
        Par::Seq,
    );
    matmul(x.rb_mut(), Accum::Add, z, coef.rb(), -1.0, Par::Seq);
}

/// Every |zᵢᵀzⱼ − δᵢⱼ| ≤ [`ORTHO_TOL`].
fn orthonormal(z: &Mat<f64>) -> bool {
    let k = z.ncols();
    let mut g = Mat::<f64>::zeros(k, k);
    faer::linalg::matmul::matmul(g.as_mut(), Accum::Replace, z.transpose(), z, 1.0, Par::Seq);
    (0..k).all(|j| (0..k).all(|i| (g[(i, j)] - if i == j { 1.0 } else { 0.0 }).abs() <= ORTHO_TOL))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Dense T and its full decomposition (faer, divide and conquer).
    fn reference(d: &[f64], e: &[f64]) -> (Vec<f64>, Mat<f64>) {
        let n = d.len();
        let t = Mat::<f64>::from_fn(n, n, |i, j| match i.abs_diff(j) {
            0 => d[i],
            1 => e[i.min(j)],
            _ => 0.0,
        });
        crate::eigen::par::sym_evd_unchecked(t.as_ref()).unwrap()
    }

    /// max_j ‖T z_j − λ_j z_j‖.
    fn residual(d: &[f64], e: &[f64], values: &[f64], z: &Mat<f64>) -> f64 {
        let n = d.len();
        let mut worst = 0.0f64;
        for (j, &l) in values.iter().enumerate() {
            let r = (0..n)
                .map(|i| {
                    let mut t = (d[i] - l) * z[(i, j)];
                    if i > 0 {
                        t += e[i - 1] * z[(i - 1, j)];
                    }
                    if i + 1 < n {
                        t += e[i] * z[(i + 1, j)];
                    }
                    t * t
                })
                .sum::<f64>()
                .sqrt();
            worst = worst.max(r);
        }
        worst
    }

    /// Bisection against divide and conquer, and inverse iteration's residuals and
    /// orthogonality, on the classic hard cases: Wilkinson's W⁺₂₁ (pairs of eigenvalues
    /// equal to 14 digits), exactly repeated eigenvalues (a direct sum of equal blocks), a
    /// glued matrix with tiny couplings, a zero diagonal (eigenvalues ±), and a random one.
    #[test]
    fn pairs_match_divide_and_conquer_on_hard_cases() {
        let mut rng = seed::rng(3);
        let mut cases: Vec<(&str, Vec<f64>, Vec<f64>)> = vec![
            (
                "wilkinson21",
                (0..21).map(|i| (10.0 - i as f64).abs()).collect(),
                vec![1.0; 20],
            ),
            (
                "repeated",
                (0..40).map(|i| [1.0, 2.0, 3.0, 4.0][i % 4]).collect(),
                (0..39)
                    .map(|i| if i % 4 == 3 { 0.0 } else { 0.5 })
                    .collect(),
            ),
            (
                "glued",
                (0..60).map(|i| 1.0 + (i % 10) as f64 * 0.1).collect(),
                (0..59)
                    .map(|i| if i % 10 == 9 { 1e-10 } else { 1.0 })
                    .collect(),
            ),
            (
                "zero diagonal",
                vec![0.0; 50],
                (0..49).map(|i| 1.0 + i as f64 * 0.01).collect(),
            ),
        ];
        cases.push((
            "random",
            (0..300).map(|_| rng.random::<f64>() - 0.5).collect(),
            (0..299).map(|_| rng.random::<f64>() - 0.5).collect(),
        ));
        for (name, d, e) in &cases {
            let n = d.len();
            let t = Tridiagonal::new(d, e).unwrap();
            let (s, _) = reference(d, e);
            let all: Vec<usize> = (0..n).collect();
            let values = t.eigenvalues(&all);
            for (i, (a, b)) in values.iter().zip(&s).enumerate() {
                assert!(
                    (a - b).abs() <= n as f64 * f64::EPSILON * t.norm,
                    "{name} {i}: {a} vs {b}"
                );
            }
            for (lo, k) in [(0, n), (0, 3), (n - 5, 5), (n / 2 - 2, 4)] {
                let z = t
                    .eigenvectors(&values[lo..lo + k], lo)
                    .unwrap_or_else(|| panic!("{name}"));
                let r = residual(d, e, &values[lo..lo + k], &z);
                assert!(
                    r <= n as f64 * f64::EPSILON * t.norm,
                    "{name} lo={lo} k={k}: {r:e}"
                );
                assert!(orthonormal(&z), "{name} lo={lo} k={k}");
            }
        }
    }

    /// Bisection to 4ε·‖T‖ of the closed form of a tridiagonal Toeplitz matrix,
    /// λ_j = a + 2b·cos(jπ/(n + 1)) (divide and conquer, the reference above, is only
    /// accurate to a few n·ε·‖T‖: on the random case it is off by 22ε·‖T‖ where a
    /// 40-digit bisection agrees with ours to 1ε).
    #[test]
    fn bisection_meets_the_closed_form() {
        let (n, a, b) = (500, 0.3, -1.7);
        let (d, e) = (vec![a; n], vec![b; n - 1]);
        let t = Tridiagonal::new(&d, &e).unwrap();
        let all: Vec<usize> = (0..n).collect();
        let mut exact: Vec<f64> = (1..=n)
            .map(|j| a + 2.0 * b * (j as f64 * std::f64::consts::PI / (n + 1) as f64).cos())
            .collect();
        exact.sort_by(f64::total_cmp);
        for (j, (v, x)) in t.eigenvalues(&all).iter().zip(&exact).enumerate() {
            assert!(
                (v - x).abs() <= 4.0 * f64::EPSILON * t.norm,
                "{j}: {v} vs {x}"
            );
        }
    }

    /// A zero or non-finite T is refused (the caller takes divide and conquer).
    #[test]
    fn zero_and_non_finite_matrices_are_refused() {
        assert!(Tridiagonal::new(&[0.0; 4], &[0.0; 3]).is_none());
        assert!(Tridiagonal::new(&[1.0, f64::NAN], &[0.5]).is_none());
        assert!(Tridiagonal::new(&[1.0, 2.0], &[f64::INFINITY]).is_none());
        assert!(Tridiagonal::new(&[1.0, 2.0], &[]).is_none());
    }

    /// The LU solve inverts T − λI (checked by multiplying back) with and without row
    /// exchanges.
    #[test]
    fn lu_solve_inverts_the_shifted_matrix() {
        let d = [0.1, -2.0, 3.0, 0.01, 5.0, -1.0];
        let e = [4.0, 0.2, -3.0, 7.0, 0.5];
        let lambda = 0.3;
        let mut lu = Lu::new(6);
        lu.factor(&d, &e, lambda);
        assert!(lu.swap.iter().any(|&s| s) && lu.swap.iter().any(|&s| !s));
        let b = [1.0, -2.0, 0.5, 3.0, 0.0, 1.5];
        let mut x = b;
        lu.solve(&mut x, 1e-300);
        for i in 0..6 {
            let mut t = (d[i] - lambda) * x[i];
            if i > 0 {
                t += e[i - 1] * x[i - 1];
            }
            if i < 5 {
                t += e[i] * x[i + 1];
            }
            assert!((t - b[i]).abs() < 1e-12, "row {i}: {t} vs {}", b[i]);
        }
    }
}
