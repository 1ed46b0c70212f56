//! Second-order working-set selection (Fan, Chen & Lin 2005, "Working set selection
//! using second order information for training SVM", JMLR 6; WSS 2 there, as in
//! libsvm):
//!
//! 1. `i = argmax { −y_t G_t : t ∈ I_up }` (the maximal-violating first index);
//! 2. `j = argmin { −b_it² / a_it : t ∈ I_low, b_it = −y_i G_i + y_t G_t > 0 }` with
//!    `a_it = Q_ii + Q_tt − 2 y_i y_t Q_it` (raised to τ = 1e-12 when smaller), i.e. the pair
//!    whose one-dimensional Newton step decreases the objective most.
//!
//! Stops when `m(α) − M(α) = max_{I_up} −yG + max_{I_low} yG < ε` (the maximal KKT
//! violation). Only active (unshrunk) variables are scanned, through the packed arrays
//! of the state (contiguous, in active-position order). Ties go to the lowest index
//! (strict comparisons over increasing positions; the active list is increasing).

use crate::qmatrix::QMatrix;
use crate::state::{State, TAU};

/// Independent running maxima in the two passes of the selection.
const LANES: usize = 4;

/// The outcome of one selection.
pub(crate) enum Selection {
    /// `m(α) − M(α) < ε` on the active set.
    Optimal,
    /// Working pair `(i, j)` and their positions in the active list. Column `i`
    /// (at the active rows) has been fetched (`State::col_i`).
    Pair {
        i: usize,
        pos_i: usize,
        j: usize,
        pos_j: usize,
    },
}

#[inline(always)]
pub(crate) fn select<Q: QMatrix + ?Sized>(s: &mut State<'_, Q>, eps: f64) -> Selection {
    // Step 1: the maximal violator i in I_up and, in the same pass, M' = max_{I_low} yG
    // (it does not depend on i; non-members carry −∞ penalties). When m − M' < ε the
    // active set is optimal and no column is read.
    let (gmax, pos_i, gmax2) = scan(&s.py, &s.pg, &s.pup, &s.plow);
    if pos_i == usize::MAX || gmax == f64::NEG_INFINITY || gmax + gmax2 < eps {
        return Selection::Optimal;
    }
    let i = s.active[pos_i];
    s.fetch_col_i(i);

    // Step 2: the second-order choice of j in I_low (minimising −b²/a is maximising
    // b²/a). Non-members of I_low and b ≤ 0 get b² = 0, which never wins.
    let (yi, qdi) = (s.y[i], s.qd[i]);
    let m = s.active.len();
    let best_pos = second_order_j(
        gmax,
        yi,
        qdi,
        &s.py,
        &s.pg,
        &s.plow,
        &s.pqd,
        &s.col_i()[..m],
    );
    if best_pos == usize::MAX {
        return Selection::Optimal;
    }
    Selection::Pair {
        i,
        pos_i,
        j: s.active[best_pos],
        pos_j: best_pos,
    }
}

/// One pass over the packed active set: the first position maximising `up_pen − yG`
/// and the maximum of `low_pen + yG`. Four independent lanes break the loop-carried
/// dependency of the running maxima; ties go to the lowest position.
#[inline(always)]
fn scan(y: &[f64], g: &[f64], up_pen: &[f64], low_pen: &[f64]) -> (f64, usize, f64) {
    let m = g.len();
    let (y, up_pen, low_pen) = (&y[..m], &up_pen[..m], &low_pen[..m]);
    let mut up = [f64::NEG_INFINITY; LANES];
    let mut arg = [usize::MAX; LANES];
    let mut low = [f64::NEG_INFINITY; LANES];
    let full = m / LANES * LANES;
    let mut p = 0;
    while p < full {
        for k in 0..LANES {
            let t = p + k;
            let yg = y[t] * g[t];
            let vu = up_pen[t] - yg;
            let vl = low_pen[t] + yg;
            low[k] = if vl > low[k] { vl } else { low[k] };
            if vu > up[k] {
                up[k] = vu;
                arg[k] = t;
            }
        }
        p += LANES;
    }
    for t in full..m {
        let yg = y[t] * g[t];
        let (vu, vl) = (up_pen[t] - yg, low_pen[t] + yg);
        low[0] = if vl > low[0] { vl } else { low[0] };
        if vu > up[0] || (vu == up[0] && t < arg[0]) {
            up[0] = vu;
            arg[0] = t;
        }
    }
    let (mut best, mut best_t) = (f64::NEG_INFINITY, usize::MAX);
    for k in 0..LANES {
        if up[k] > best || (up[k] == best && arg[k] < best_t) {
            best = up[k];
            best_t = arg[k];
        }
    }
    let low_max = low
        .iter()
        .fold(f64::NEG_INFINITY, |a, &b| if b > a { b } else { a });
    (best, best_t, low_max)
}

/// Step 2 over the packed active set: the first position maximising `b² / a` with
/// `b = max(m + y_t G_t + low_pen_t, 0)` and `a = max(Q_ii + Q_tt − 2 y_i y_t Q_it, τ)`;
/// `usize::MAX` when every `b` is 0. Candidates are compared by cross-multiplication
/// (`b_t² a_best > b_best² a_t`, all a > 0) to keep divisions out of the loop. [`LANES`]
/// independent running maxima (each over every `LANES`-th position, ties to its earliest
/// position) are merged at the end, ties to the lowest position, so the result is the
/// first maximiser as in a sequential scan while the compare-and-select chains overlap.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn second_order_j(
    gmax: f64,
    yi: f64,
    qdi: f64,
    y: &[f64],
    g: &[f64],
    low_pen: &[f64],
    qd: &[f64],
    col_i: &[f64],
) -> usize {
    let m = col_i.len();
    let (y, g, low_pen, qd) = (&y[..m], &g[..m], &low_pen[..m], &qd[..m]);
    let mut bb_best = [0.0f64; LANES];
    let mut a_best = [1.0f64; LANES];
    let mut pos_best = [usize::MAX; LANES];
    let two_yi = 2.0 * yi;
    // (b², a) of position t. Branch-free: max(a, τ) instead of libsvm's "τ if a ≤ 0"
    // (they differ only for 0 < a < τ = 1e-12), and max(b, 0)² for "b > 0 only".
    let gain = |t: usize| {
        let a = (qdi + qd[t] - two_yi * y[t] * col_i[t]).max(TAU);
        let b = (gmax + y[t] * g[t] + low_pen[t]).max(0.0);
        (b * b, a)
    };
    let full = m / LANES * LANES;
    let mut p = 0;
    while p < full {
        for k in 0..LANES {
            let t = p + k;
            let (bb, a) = gain(t);
            let better = bb * a_best[k] > bb_best[k] * a;
            bb_best[k] = if better { bb } else { bb_best[k] };
            a_best[k] = if better { a } else { a_best[k] };
            pos_best[k] = if better { t } else { pos_best[k] };
        }
        p += LANES;
    }
    for t in full..m {
        let (bb, a) = gain(t);
        // lane 0 holds positions < full only, so a later t wins only if strictly better
        if bb * a_best[0] > bb_best[0] * a {
            (bb_best[0], a_best[0], pos_best[0]) = (bb, a, t);
        }
    }
    let (mut bb, mut a, mut pos) = (0.0f64, 1.0f64, usize::MAX);
    for k in 0..LANES {
        if pos_best[k] == usize::MAX {
            continue;
        }
        let (lhs, rhs) = (bb_best[k] * a, bb * a_best[k]);
        if lhs > rhs || (lhs == rhs && pos_best[k] < pos) {
            (bb, a, pos) = (bb_best[k], a_best[k], pos_best[k]);
        }
    }
    pos
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The sequential rule the lanes must reproduce: the first position maximising b²/a
    /// under the cross-multiplied comparison.
    #[allow(clippy::too_many_arguments)]
    fn sequential(
        gmax: f64,
        yi: f64,
        qdi: f64,
        y: &[f64],
        g: &[f64],
        low: &[f64],
        qd: &[f64],
        ci: &[f64],
    ) -> usize {
        let (mut bb_best, mut a_best, mut best) = (0.0f64, 1.0f64, usize::MAX);
        for t in 0..ci.len() {
            let a = (qdi + qd[t] - 2.0 * yi * y[t] * ci[t]).max(TAU);
            let b = (gmax + y[t] * g[t] + low[t]).max(0.0);
            if b * b * a_best > bb_best * a {
                (bb_best, a_best, best) = (b * b, a, t);
            }
        }
        best
    }

    #[test]
    fn lanes_pick_the_first_maximiser() {
        let mut next = crate::test_uniform(0x2545_f491_4f6c_dd1du64);
        for m in [0usize, 1, 3, 4, 5, 8, 13, 64, 257] {
            for trial in 0..50 {
                // Few distinct values so that exact ties (and b = 0) are common.
                let levels = if trial % 2 == 0 { 3.0 } else { 1000.0 };
                let mut pick =
                    |lo: f64, hi: f64| lo + (hi - lo) * (next() * levels).floor() / levels;
                let y: Vec<f64> = (0..m)
                    .map(|_| if pick(0.0, 1.0) < 0.5 { -1.0 } else { 1.0 })
                    .collect();
                let g: Vec<f64> = (0..m).map(|_| pick(-2.0, 2.0)).collect();
                let low: Vec<f64> = (0..m)
                    .map(|_| {
                        if pick(0.0, 1.0) < 0.3 {
                            f64::NEG_INFINITY
                        } else {
                            0.0
                        }
                    })
                    .collect();
                let qd: Vec<f64> = (0..m).map(|_| pick(0.5, 1.5)).collect();
                let ci: Vec<f64> = (0..m).map(|_| pick(-1.0, 1.0)).collect();
                let (gmax, yi, qdi) = (
                    pick(-1.0, 2.0),
                    if trial % 3 == 0 { -1.0 } else { 1.0 },
                    1.0,
                );
                assert_eq!(
                    second_order_j(gmax, yi, qdi, &y, &g, &low, &qd, &ci),
                    sequential(gmax, yi, qdi, &y, &g, &low, &qd, &ci),
                    "m = {m}, trial {trial}"
                );
            }
        }
    }
}
