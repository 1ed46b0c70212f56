//! Initial labels (Section 3): pairs of instances drawn k-means++-style in the feature
//! space of the initial composite kernel K̃(θ⁽⁰⁾); each pair splits the data by the
//! nearest member; the split with the least J(θ⁽⁰⁾, y) is kept.
//!
//! Choices the paper leaves open (ours):
//! - Number of pairs: max(1, round(f · N)), f = 0.25 by default.
//! - The first member is uniform over all N instances; the second is drawn with
//!   probability proportional to its feature-space distance d(i, j) =
//!   sqrt(K̃_ii + K̃_jj − 2K̃_ij) from the first, as the paper says ("proportional to its
//!   distance"), not k-means++'s squared distance: on Optdigits 1-7 (C = 1, 10 seeds)
//!   the D² draw left 2 of 10 runs in a 70% local optimum, the D draw none. If every
//!   distance is 0 the draw is uniform over the others. Pairs are drawn independently
//!   (with replacement).
//! - Assignment: +1 to the instances at least as close to the first member as to the
//!   second (ties to the first), −1 to the rest; the second member is always −1.
//! - Balance: a split with |Σy| > ℓ is repaired by moving, from the larger cluster, the
//!   instances with the smallest d²(·, other member) − d²(·, own member) (ties to the
//!   lowest index) until |Σy| ≤ ℓ. The members themselves are not moved.
//! - Ties in J between splits go to the earliest pair. A split identical to an earlier
//!   one (up to swapping the two labels, which leaves J unchanged) is evaluated once.
//!   The distinct splits are evaluated in [`INIT_CHUNKS`] contiguous chunks in
//!   parallel. Every split's SVM starts from α = 0, and once its chunk has a best J a
//!   solve stops as soon as its dual value exceeds that J (it cannot win: SMO never
//!   lowers the dual value; [`mkc_svm::CSvc::solve_below`]), so the winner is the split
//!   that complete solves would choose. Before, each solve was warm-started from the
//!   previous split's solution and run to the end; splits of random pairs differ in
//!   many labels, so the warm start's repair cost more than it saved at C ≤ 1, and every
//!   losing split was solved in full. Satellite 1 vs 2 (558 splits), p = 2, seed 3, user
//!   CPU seconds of the whole fit: C = 0.01 7.14 → 4.60, C = 1 5.65 → 4.39, C = 100
//!   4.23 → 3.28, the same final J to the last digit in all three.

use crate::objective::Evaluation;
use crate::params::Rmkc;
use crate::variance::add_col;
#[cfg(any(doc, test))]
use crate::variance::composite_variance;
use faer::linalg::matmul::matmul;
use faer::{Accum, Mat, MatRef, Par};
use mkc_core::{Error, Result};
use mkc_svm::CheckedKernel;
use rand::Rng as _;
use rayon::prelude::*;

/// Number of chunks the distinct splits are evaluated in (in parallel; warm starts
/// chain within a chunk). Fixed, so results do not depend on the thread count.
pub const INIT_CHUNKS: usize = 8;

/// Feature-space squared distance from K̃.
#[inline]
fn d2(k: MatRef<'_, f64>, i: usize, j: usize) -> f64 {
    (k[(i, i)] + k[(j, j)] - 2.0 * k[(i, j)]).max(0.0)
}

/// The split of one pair (a, b), balance-repaired.
pub fn split(k: MatRef<'_, f64>, a: usize, b: usize, ell: f64) -> Vec<f64> {
    let n = k.nrows();
    let mut y: Vec<f64> = (0..n)
        .map(|t| {
            if d2(k, t, a) <= d2(k, t, b) {
                1.0
            } else {
                -1.0
            }
        })
        .collect();
    y[a] = 1.0;
    y[b] = -1.0;
    let sum: f64 = y.iter().sum();
    if sum.abs() > ell {
        let big = sum.signum();
        let (own, other) = if big > 0.0 { (a, b) } else { (b, a) };
        let mut movable: Vec<(f64, usize)> = (0..n)
            .filter(|&t| y[t] == big && t != own)
            .map(|t| (d2(k, t, other) - d2(k, t, own), t))
            .collect();
        movable.sort_by(|p, q| p.0.total_cmp(&q.0).then(p.1.cmp(&q.1)));
        let mut s = sum;
        for (_, t) in movable {
            if s.abs() <= ell {
                break;
            }
            y[t] = -big;
            s -= 2.0 * big;
        }
    }
    y
}

/// The partner b of a pair whose first member is `a`: drawn with probability
/// proportional to its feature-space distance d(a, b) (uniform over the others when
/// every distance is 0). `w` is an N-long scratch buffer.
fn draw_partner(k: MatRef<'_, f64>, a: usize, rng: &mut impl rand::Rng, w: &mut [f64]) -> usize {
    let n = k.nrows();
    let mut total = 0.0;
    for (j, wj) in w.iter_mut().enumerate() {
        *wj = if j == a { 0.0 } else { d2(k, a, j).sqrt() };
        total += *wj;
    }
    if !(total > 0.0 && total.is_finite()) {
        let r = rng.random_range(0..n - 1);
        return if r >= a { r + 1 } else { r };
    }
    let r = rng.random::<f64>() * total;
    let mut acc = 0.0;
    for (j, &wj) in w.iter().enumerate() {
        acc += wj;
        if wj > 0.0 && acc > r {
            return j;
        }
    }
    w.iter().rposition(|&x| x > 0.0).unwrap_or((a + 1) % n)
}

/// Draw `n_pairs` pairs from one RNG stream (sequentially) and return their distinct
/// splits in draw order: a split equal to an earlier one, or to its mirror image (which
/// has the same J), is dropped.
fn distinct_splits(k: MatRef<'_, f64>, n_pairs: usize, ell: f64, seed: u64) -> Vec<Vec<f64>> {
    let n = k.nrows();
    let mut rng = mkc_core::seed::rng(seed);
    let mut w = vec![0.0; n];
    let mut splits: Vec<Vec<f64>> = Vec::with_capacity(n_pairs);
    let mut seen = std::collections::HashSet::with_capacity(n_pairs);
    for _ in 0..n_pairs {
        let a = rng.random_range(0..n);
        let b = draw_partner(k, a, &mut rng, &mut w);
        let y = split(k, a, b, ell);
        let key: Vec<bool> = y.iter().map(|&t| (t > 0.0) == (y[0] > 0.0)).collect();
        if seen.insert(key) {
            splits.push(y);
        }
    }
    splits
}

/// The best split of one chunk (its index in the whole list and its evaluation), if any
/// split had a positive variance; and the SVM solves made.
type ChunkBest = (Option<(usize, Evaluation)>, usize);

/// Evaluate the splits `splits[first..first + len]` in order; the least J wins, ties to
/// the earliest. Splits with E ≤ 0 are skipped. Every split is solved from α = 0, and
/// once the chunk has a best J, with that J as the bound of [`mkc_svm::CSvc::solve_below`]:
/// a split whose SMO iterate already exceeds it cannot win (SMO never lowers the dual
/// value) and is dropped there. The winner is the split the complete solves would choose;
/// the solves made count the dropped ones too.
fn evaluate_chunk(
    rmkc: &Rmkc,
    k_tilde: &CheckedKernel<'_>,
    rowsum: &[f64],
    splits: &[Vec<f64>],
    first: usize,
    len: usize,
) -> Result<ChunkBest> {
    let k = k_tilde.as_ref();
    let chunk = &splits[first..first + len];
    let variances = chunk_variances(k, rowsum, chunk);
    let mut best: Option<(usize, Evaluation)> = None;
    let mut solves = 0;
    for ((idx, y), &e) in (first..).zip(chunk).zip(&variances) {
        if !(e.is_finite() && e > 0.0) {
            continue;
        }
        solves += 1;
        let model = match &best {
            Some((_, b)) => match rmkc.svc.solve_below(k_tilde, 1.0 / e, y, b.j)? {
                Some(m) => m,
                None => continue,
            },
            None => rmkc.svc.solve(k_tilde, 1.0 / e, y, None)?,
        };
        let ev = Evaluation {
            j: model.objective,
            e,
            model,
        };
        if best.as_ref().is_none_or(|(_, b)| ev.j < b.j) {
            best = Some((idx, ev));
        }
    }
    Ok((best, solves))
}

/// E(θ⁽⁰⁾, y) of every split of a chunk, eq. (6) through the kernel trick as
/// [`composite_variance`], with the within-cluster sums `u = K̃ 1₊` of all the chunk's
/// splits from one product `K̃ P` (P the splits' 0/1 indicators of +1; sequential faer
/// product, so the same result whatever the thread count). One product runs at matrix
/// speed where a column sum per positive instance and split streamed K̃ from memory
/// once per split: Satellite 1 vs 2 (n = 2236, 558 splits) spent about half of an RMKC
/// fit in those sums.
fn chunk_variances(k: MatRef<'_, f64>, rowsum: &[f64], splits: &[Vec<f64>]) -> Vec<f64> {
    let n = k.nrows();
    let p = Mat::from_fn(
        n,
        splits.len(),
        |i, s| {
            if splits[s][i] > 0.0 {
                1.0
            } else {
                0.0
            }
        },
    );
    let mut u = Mat::<f64>::zeros(n, splits.len());
    matmul(u.as_mut(), Accum::Replace, k, p.as_ref(), 1.0, Par::Seq);
    let tr: f64 = (0..n).map(|j| k[(j, j)]).sum();
    splits
        .iter()
        .enumerate()
        .map(|(s, y)| {
            let (mut sp, mut sm, mut n_plus) = (0.0, 0.0, 0usize);
            for i in 0..n {
                if y[i] > 0.0 {
                    sp += u[(i, s)];
                    n_plus += 1;
                } else {
                    sm += rowsum[i] - u[(i, s)];
                }
            }
            crate::variance::from_sums(tr, sp, sm, n_plus, n)
        })
        .collect()
}

/// Draw the pairs, evaluate every split, return the labels and evaluation with least J,
/// and the number of SVM solves made.
pub fn initial_labels(
    rmkc: &Rmkc,
    k_tilde: &CheckedKernel<'_>,
    ell: f64,
    seed: u64,
) -> Result<(Vec<f64>, Evaluation, usize)> {
    let k = k_tilde.as_ref();
    let n = k.nrows();
    if n < 2 {
        return Err(Error::input(
            "kernels",
            format!("RMKC needs at least 2 points, got {n}"),
        ));
    }
    let n_pairs = ((rmkc.init_pairs * n as f64).round() as usize).max(1);
    let mut rowsum = vec![0.0; n];
    for j in 0..n {
        add_col(k, j, 1.0, &mut rowsum);
    }
    // 1. Draw every pair (one RNG stream, sequential) and build its split.
    let mut splits = distinct_splits(k, n_pairs, ell, seed);
    // 2. Evaluate the distinct splits in INIT_CHUNKS contiguous chunks in parallel. The
    //    chunking is fixed, so the result does not depend on the number of threads.
    let chunk = splits.len().div_ceil(INIT_CHUNKS).max(1);
    let results: Vec<Result<ChunkBest>> = (0..splits.len().div_ceil(chunk))
        .into_par_iter()
        .map(|c| {
            let first = c * chunk;
            let len = chunk.min(splits.len() - first);
            evaluate_chunk(rmkc, k_tilde, &rowsum, &splits, first, len)
        })
        .collect();
    let mut best: Option<(usize, Evaluation)> = None;
    let mut solves = 0;
    for r in results {
        let (b, s) = r?;
        solves += s;
        if let Some((i, ev)) = b {
            if best.as_ref().is_none_or(|(_, cur)| ev.j < cur.j) {
                best = Some((i, ev));
            }
        }
    }
    let best = best.map(|(i, ev)| (splits.swap_remove(i), ev, solves));
    best.ok_or_else(|| {
        Error::numerical(
            "RMKC initialisation",
            "every split has zero variance E(θ, y)",
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The variances of a chunk from one product equal [`composite_variance`]'s, split
    /// by split (including a one-cluster split).
    #[test]
    fn chunk_variances_match_the_per_split_sums() {
        let n = 37;
        let x: Vec<f64> = (0..n).map(|i| ((i * 7919) % 101) as f64 / 50.0).collect();
        let k = Mat::from_fn(n, n, |i, j| (-(x[i] - x[j]).powi(2)).exp() + 0.1);
        let mut rowsum = vec![0.0; n];
        for j in 0..n {
            add_col(k.as_ref(), j, 1.0, &mut rowsum);
        }
        let splits: Vec<Vec<f64>> = (0..9)
            .map(|s| {
                (0..n)
                    .map(|i| {
                        if s == 0 || (i * (s + 3)) % 5 < 2 {
                            1.0
                        } else {
                            -1.0
                        }
                    })
                    .collect()
            })
            .collect();
        let got = chunk_variances(k.as_ref(), &rowsum, &splits);
        let mut u = vec![0.0; n];
        for (s, y) in splits.iter().enumerate() {
            let want = composite_variance(k.as_ref(), &rowsum, y, &mut u);
            assert!(
                (got[s] - want).abs() <= 1e-13 * want.abs().max(1.0),
                "split {s}: {} vs {want}",
                got[s]
            );
        }
    }
}
