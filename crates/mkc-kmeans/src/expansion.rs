//! k-means with many clusters: distances by the expansion ‖x‖² + ‖c‖² − 2xᵀc.
//!
//! Lloyd's assignment takes all xᵀc from one faer product `X Cᵀ` ([`assign_gemm`]).
//! k-means++ seeding takes xᵀy from [`dot`] (four partial sums);
//! [`Expansion::seed_dists`] evaluates the same sums for one candidate against all rows
//! at once with the rows in SIMD lanes: every lane performs [`dot`]'s operations in
//! [`dot`]'s order, so every distance is bit-identical to the per-pair formula and the
//! seeds are the same.

use crate::seeding::Known;
use faer::traits::pulp::{self, Simd, WithSimd};
use faer::{Mat, MatRef};

/// Rows are padded to a multiple of this (the widest SIMD block: 2 × 8 lanes).
const PAD: usize = 16;
/// Relative widening of the pruning bounds against the rounding of their own arithmetic.
const SLACK: f64 = 1e-9;

/// xᵀy with four independent partial sums (vectorisable).
#[inline]
pub(crate) fn dot(a: &[f64], b: &[f64]) -> f64 {
    let mut acc = [0.0f64; 4];
    let (ca, cb) = (a.chunks_exact(4), b.chunks_exact(4));
    let (ra, rb) = (ca.remainder(), cb.remainder());
    for (x, y) in ca.zip(cb) {
        for l in 0..4 {
            acc[l] += x[l] * y[l];
        }
    }
    finish_dot(acc, ra, rb)
}

/// The end of [`dot`]: the four partial sums and the remainder, in [`dot`]'s order.
#[inline(always)]
fn finish_dot(acc: [f64; 4], ra: &[f64], rb: &[f64]) -> f64 {
    (acc[0] + acc[1]) + (acc[2] + acc[3]) + tail_sum(ra, rb)
}

/// The remainder's sum in [`dot`] (for no remainder: the empty sum).
#[inline(always)]
fn tail_sum(ra: &[f64], rb: &[f64]) -> f64 {
    ra.iter().zip(rb).map(|(x, y)| x * y).sum()
}

/// The rows of X (n x d) in the layouts the kernels read, and their squared norms.
pub(crate) struct Expansion<'a> {
    pub(crate) n: usize,
    pub(crate) d: usize,
    /// Row-major X.
    pub(crate) rows: &'a [f64],
    /// ‖x_i‖² by [`dot`].
    pub(crate) nx: Vec<f64>,
    /// `nx` padded with zeros to length `np`.
    nxp: Vec<f64>,
    /// Bound on |computed − exact| of every seeding distance (see [`Expansion::seed_dists`]).
    margin: f64,
    /// Xᵀ, d x `np`, rows padded with zeros to `np` = n rounded up to [`PAD`].
    xt: Vec<f64>,
    np: usize,
}

impl<'a> Expansion<'a> {
    pub(crate) fn new(rows: &'a [f64], n: usize, d: usize) -> Self {
        let np = n.div_ceil(PAD) * PAD;
        let mut xt = vec![0.0; d * np];
        for i in 0..n {
            for t in 0..d {
                xt[t * np + i] = rows[i * d + t];
            }
        }
        let nx: Vec<f64> = rows.chunks_exact(d).map(|r| dot(r, r)).collect();
        let mut nxp = nx.clone();
        nxp.resize(np, 0.0);
        // max(0, ‖x‖² + ‖y‖² − 2xᵀy) with each of the three sums of d products off by at
        // most (d + 4)u times its absolute terms, and three more roundings: within
        // (d + 8)u (‖x‖ + ‖y‖)² ≤ (d + 8)u · 4R² of the exact squared distance; twice that.
        let r2 = nx.iter().fold(0.0f64, |a, &v| a.max(v)) * (1.0 + SLACK);
        let margin = (2 * d + 16) as f64 * (f64::EPSILON / 2.0) * 4.0 * r2 * (1.0 + SLACK);
        Self {
            n,
            d,
            rows,
            nx,
            nxp,
            margin,
            xt,
            np,
        }
    }

    pub(crate) fn row(&self, i: usize) -> &[f64] {
        &self.rows[i * self.d..(i + 1) * self.d]
    }

    /// `out[i]` = max(0, ‖x_i‖² + ‖x_j‖² − 2 dot(x_i, x_j)) for every row i: the k-means++
    /// distances to candidate j, bit-identical to the per-pair formula.
    ///
    /// With `known` (Elkan's triangle inequality, as in Elkan 2003, "Using the triangle
    /// inequality to accelerate k-means"): a block of rows whose every row i provably has
    /// d(i, j) > `closest[i]` is not computed. With s the nearest chosen centre of i,
    /// ‖x_i − x_j‖ ≥ ‖x_j − x_s‖ − ‖x_i − x_s‖, and A = d(j, s) − M > 4B, B = closest[i] + M
    /// (M the rounding margin, `margin`) gives d(i, j) ≥ A/4 − M > closest[i]; that lower
    /// bound is written instead (the contract of `kmeans_plus_plus_cols`).
    pub(crate) fn seed_dists(&self, j: usize, known: Option<&Known<'_>>, out: &mut [f64]) {
        pulp::Arch::new().dispatch(SeedDists {
            e: self,
            j,
            known,
            out,
        });
    }

    /// Whether every row of block `i0..i1` provably has d(i, j) > `closest[i]`; then their
    /// lower bounds A/4 − M (see [`Expansion::seed_dists`]) are written to `out`.
    fn skip_block(
        &self,
        known: &Known<'_>,
        j: usize,
        i0: usize,
        i1: usize,
        out: &mut [f64],
    ) -> bool {
        let m = self.margin;
        let a = |i: usize| known.chosen[known.nearest[i]][j] - m;
        let far = |i: usize| a(i) > 4.0 * (known.closest[i] + m) * (1.0 + 4.0 * SLACK);
        if !(i0..i1).all(far) {
            return false;
        }
        for (i, o) in (i0..i1).zip(&mut out[i0..i1]) {
            *o = a(i) * 0.25 * (1.0 - SLACK) - m;
        }
        true
    }

    /// `gram` (n x k) = X Cᵀ by one sequential faer product.
    pub(crate) fn gram(&self, centres: &[f64], gram: &mut Mat<f64>) {
        let k = centres.len() / self.d;
        faer::linalg::matmul::matmul(
            gram.as_mut(),
            faer::Accum::Replace,
            MatRef::from_row_major_slice(self.rows, self.n, self.d),
            MatRef::from_row_major_slice(centres, k, self.d).transpose(),
            1.0,
            faer::Par::Seq,
        );
    }
}

struct SeedDists<'e, 'a, 'o> {
    e: &'e Expansion<'a>,
    j: usize,
    known: Option<&'o Known<'o>>,
    out: &'o mut [f64],
}

impl WithSimd for SeedDists<'_, '_, '_> {
    type Output = ();
    #[inline(always)]
    fn with_simd<S: Simd>(self, simd: S) -> Self::Output {
        let SeedDists { e, j, known, out } = self;
        let (d, lanes) = (e.d, S::F64_LANES);
        // Xᵀ as vectors: coordinate t of rows i0.. starts at vector (t·np + i0) / lanes.
        let (xv, _) = S::as_simd_f64s(&e.xt);
        let step = e.np / lanes;
        let y = e.row(j);
        let q = d / 4;
        let zero = simd.splat_f64s(0.0);
        let mut buf = [[0.0f64; PAD]; 4];
        // With d a multiple of 4 the remainder sum is empty: its value (the empty sum)
        // is added as a constant, and the whole epilogue runs in lanes.
        let tail_free = d % 4 == 0;
        let empty_tail = simd.splat_f64s(tail_sum(&[], &[]));
        let (nxv, _) = S::as_simd_f64s(&e.nxp);
        let nxj = simd.splat_f64s(e.nx[j]);
        let two = simd.splat_f64s(2.0);
        for i0 in (0..e.n).step_by(2 * lanes) {
            if let Some(kn) = known {
                if e.skip_block(kn, j, i0, (i0 + 2 * lanes).min(e.n), out) {
                    continue;
                }
            }
            let v0 = i0 / lanes;
            // acc[2l + b]: partial sum l of [`dot`] for the rows of vector b.
            let mut acc = [zero; 8];
            for m in 0..q {
                for l in 0..4 {
                    let t = 4 * m + l;
                    let yv = simd.splat_f64s(y[t]);
                    let at = t * step + v0;
                    acc[2 * l] = simd.add_f64s(acc[2 * l], simd.mul_f64s(xv[at], yv));
                    acc[2 * l + 1] = simd.add_f64s(acc[2 * l + 1], simd.mul_f64s(xv[at + 1], yv));
                }
            }
            if tail_free {
                // (a0 + a1) + (a2 + a3) + tail, lane-wise, as `finish_dot` does
                for b in 0..2 {
                    let v = simd.add_f64s(
                        simd.add_f64s(
                            simd.add_f64s(acc[b], acc[2 + b]),
                            simd.add_f64s(acc[4 + b], acc[6 + b]),
                        ),
                        empty_tail,
                    );
                    let raw = simd.sub_f64s(simd.add_f64s(nxv[v0 + b], nxj), simd.mul_f64s(two, v));
                    let (dst, _) = S::as_mut_simd_f64s(&mut buf[0][b * lanes..(b + 1) * lanes]);
                    dst[0] = raw;
                }
                for r in 0..(2 * lanes).min(e.n - i0) {
                    out[i0 + r] = buf[0][r].max(0.0);
                }
                continue;
            }
            for (l, b) in buf.iter_mut().enumerate() {
                let (dst, _) = S::as_mut_simd_f64s(&mut b[..2 * lanes]);
                dst[0] = acc[2 * l];
                dst[1] = acc[2 * l + 1];
            }
            let m = (2 * lanes).min(e.n - i0);
            for (r, o) in out[i0..i0 + m].iter_mut().enumerate() {
                let i = i0 + r;
                let acc4 = [buf[0][r], buf[1][r], buf[2][r], buf[3][r]];
                let v = finish_dot(acc4, &e.row(i)[4 * q..], &y[4 * q..]);
                *o = (e.nx[i] + e.nx[j] - 2.0 * v).max(0.0);
            }
        }
    }
}

/// Assignment by the expansion (nearest centre, ties to the lowest index) from one
/// sequential faer product `X Cᵀ` into `gram` (n x k); sets `labels` and `dist`, returns
/// the inertia.
pub(crate) fn assign_gemm(
    e: &Expansion<'_>,
    centres: &[f64],
    gram: &mut Mat<f64>,
    labels: &mut [usize],
    dist: &mut [f64],
) -> f64 {
    let nc: Vec<f64> = centres.chunks_exact(e.d).map(|c| dot(c, c)).collect();
    e.gram(centres, gram);
    let mut total = 0.0;
    for i in 0..e.n {
        let mut best = (f64::INFINITY, 0);
        for (c, &ncc) in nc.iter().enumerate() {
            let v = (e.nx[i] + ncc - 2.0 * gram[(i, c)]).max(0.0);
            if v < best.0 {
                best = (v, c);
            }
        }
        labels[i] = best.1;
        dist[i] = best.0;
        total += best.0;
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The lane-parallel k-means++ distances equal the per-pair formula bit for bit, for
    /// dimensions with and without a remainder and row counts off the SIMD block.
    #[test]
    fn seed_dists_equal_the_per_pair_formula() {
        let mut lcg = crate::lcg(3);
        let mut next = || (lcg() >> 11) as f64 / (1u64 << 53) as f64 - 0.3;
        for (n, d) in [
            (1, 1),
            (5, 3),
            (17, 4),
            (40, 7),
            (33, 120),
            (100, 61),
            (16, 8),
        ] {
            let mut rows: Vec<f64> = (0..n * d).map(|_| next()).collect();
            rows[0] = 0.0; // a zero coordinate and duplicate rows: distances of exactly 0
            if n > 2 {
                let r1 = rows[..d].to_vec();
                rows[2 * d..3 * d].copy_from_slice(&r1);
            }
            let e = Expansion::new(&rows, n, d);
            let mut out = vec![f64::NAN; n];
            for j in 0..n {
                e.seed_dists(j, None, &mut out);
                for (i, &o) in out.iter().enumerate() {
                    let want = (e.nx[i] + e.nx[j] - 2.0 * dot(e.row(i), e.row(j))).max(0.0);
                    assert_eq!(o.to_bits(), want.to_bits(), "n {n} d {d} ({i}, {j})");
                }
            }
        }
    }

    /// k-means++ with the pruned lane-parallel distances picks the same centres as with
    /// the per-pair formula, on tight groups (where most blocks are skipped) and on
    /// unstructured data; and a skipped row's lower bound never exceeds its distance.
    #[test]
    fn pruned_seeding_picks_the_same_centres() {
        use crate::seeding::{kmeans_plus_plus, kmeans_plus_plus_cols};
        let mut lcg = crate::lcg(9);
        let mut next = || (lcg() >> 11) as f64 / (1u64 << 53) as f64;
        for (n, d, k, spread) in [(400, 12, 40, 0.01), (300, 7, 33, 1.0), (97, 5, 50, 0.1)] {
            let groups = k;
            let centres: Vec<f64> = (0..groups * d).map(|_| 10.0 * next()).collect();
            let rows: Vec<f64> = (0..n * d)
                .map(|t| centres[((t / d) % groups) * d + t % d] + spread * next())
                .collect();
            let e = Expansion::new(&rows, n, d);
            let w = vec![1.0; n];
            let row = |i: usize| &rows[i * d..(i + 1) * d];
            for seed in 0..3 {
                let plain =
                    kmeans_plus_plus(n, k, &w, &mut mkc_core::seed::rng(seed), |i, j, _| {
                        (e.nx[i] + e.nx[j] - 2.0 * dot(row(i), row(j))).max(0.0)
                    });
                let mut exact = vec![0.0; n];
                let mut skipped = 0;
                let pruned = kmeans_plus_plus_cols(
                    n,
                    k,
                    &w,
                    &mut mkc_core::seed::rng(seed),
                    |c, known, out| {
                        e.seed_dists(c, known, out);
                        e.seed_dists(c, None, &mut exact);
                        for (o, x) in out.iter().zip(&exact) {
                            assert!(o <= x, "bound {o} above distance {x}");
                            skipped += usize::from(o < x);
                        }
                    },
                );
                assert_eq!(plain, pruned, "n {n} d {d} k {k} seed {seed}");
                assert!(spread > 0.5 || skipped > 0, "nothing skipped");
            }
        }
    }
}
