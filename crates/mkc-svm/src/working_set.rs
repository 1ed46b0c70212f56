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

/// The outcome of one selection.
pub(crate) enum Selection {
    /// `m(α) − M(α) < ε` on the active set.
    Optimal,
    /// Working pair `(i, j)` and their positions in the active list. Column `i`
    /// (at the active rows) has been left in `State::col_i`.
    Pair {
        i: usize,
        pos_i: usize,
        j: usize,
        pos_j: usize,
    },
}

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

    // Step 2: the second-order choice of j in I_low. Minimising −b²/a is maximising
    // b²/a; candidates are compared by cross-multiplication (b_t² a_best > b_best² a_t,
    // all a > 0) to keep divisions out of the loop. Non-members of I_low and b ≤ 0 get
    // b² = 0, which never wins.
    let (yi, qdi) = (s.y[i], s.qd[i]);
    let (mut bb_best, mut a_best) = (0.0f64, 1.0f64);
    let mut best_pos = usize::MAX;
    let m = s.active.len();
    let it = s.py.iter().zip(&s.pg).zip(&s.plow).zip(&s.pqd).zip(&s.col_i[..m]);
    for (pos, ((((&yt, &gt), &pen), &qdt), &qit)) in it.enumerate() {
        let b = gmax + yt * gt + pen;
        // Branch-free: max(a, τ) instead of libsvm's "τ if a ≤ 0" (they differ only for
        // 0 < a < τ = 1e-12), and max(b, 0)² for "b > 0 only".
        let a = (qdi + qdt - 2.0 * yi * yt * qit).max(TAU);
        let b = b.max(0.0);
        let bb = b * b;
        if bb * a_best > bb_best * a {
            bb_best = bb;
            a_best = a;
            best_pos = pos;
        }
    }
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
    const L: usize = 4;
    let m = g.len();
    let (y, up_pen, low_pen) = (&y[..m], &up_pen[..m], &low_pen[..m]);
    let mut up = [f64::NEG_INFINITY; L];
    let mut arg = [usize::MAX; L];
    let mut low = [f64::NEG_INFINITY; L];
    let full = m / L * L;
    let mut p = 0;
    while p < full {
        for k in 0..L {
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
        p += L;
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
    for k in 0..L {
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
