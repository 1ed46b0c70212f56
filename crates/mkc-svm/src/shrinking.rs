//! Shrinking and gradient reconstruction (libsvm's heuristics, Chang & Lin 2011, §5).
//!
//! Every `min(n, 1000)` iterations, variables at a bound whose gradient says they will
//! stay there are removed from the active set: with `m = max_{I_up} −yG` and
//! `M' = max_{I_low} yG` over the active set, a variable only in `I_up` is shrunk when
//! `−y_t G_t < −M'`, one only in `I_low` when `y_t G_t < −m`; free variables are never
//! shrunk, variables fixed by `l_t = u_t` always. The first time `m + M' ≤ 10ε` the
//! whole set is reactivated once (libsvm's `unshrink`). Before the final optimality
//! test the gradient of the inactive variables is rebuilt as `G_t = p_t + Σ_{α_j ≠ 0} Q_tj α_j`
//! (one column per nonzero α), or as `G_t = G_ref_t + Σ_{α_j moved} Q_tj (α_j − α_ref_j)` from
//! the last point where `G` was exact everywhere, whichever touches fewer columns (after a
//! warm start few variables move). libsvm instead keeps `Ḡ = Σ_{j at upper bound} C_j Q_{:,j}`
//! up to date, which costs a full column on every bound-status change; with the kernel
//! in memory a status change is as expensive as an iteration and happens in most
//! iterations, while reconstructions are rare, so we recompute instead.

use crate::qmatrix::QMatrix;
use crate::state::{State, IN_LOW, IN_UP};

pub(crate) fn shrink<Q: QMatrix + ?Sized>(s: &mut State<'_, Q>, eps: f64) {
    let (mut gmax1, mut gmax2) = (f64::NEG_INFINITY, f64::NEG_INFINITY);
    for ((&y, &g), (&up, &low)) in s.py.iter().zip(&s.pg).zip(s.pup.iter().zip(&s.plow)) {
        let yg = y * g;
        // penalties are 0 for members, −∞ otherwise
        gmax1 = gmax1.max(up - yg);
        gmax2 = gmax2.max(low + yg);
    }
    if !s.unshrink && gmax1 + gmax2 <= eps * 10.0 {
        s.unshrink = true;
        reconstruct_gradient(s);
    }
    let keep: Vec<bool> = s
        .active
        .iter()
        .zip(&s.pg)
        .map(|(&t, &g)| {
            let yg = s.y[t] * g;
            let sets = s.sets[t];
            match (sets & IN_UP != 0, sets & IN_LOW != 0) {
                (true, true) => true,
                (true, false) => -yg >= -gmax2,
                (false, true) => yg >= -gmax1,
                (false, false) => false,
            }
        })
        .collect();
    if keep.iter().all(|&k| k) {
        return;
    }
    s.unpack_g();
    let mut it = keep.iter();
    s.active.retain(|_| *it.next().unwrap_or(&true));
    s.compact_packed(&keep);
    // Cached columns are kept and compacted lazily (the `cache` module).
    if s.all_active {
        s.cache.reset(&s.active);
    } else {
        s.cache.shrink_to(&s.active);
    }
    s.all_active = false;
}

/// Rebuild `G` on the inactive variables and reactivate everything.
pub(crate) fn reconstruct_gradient<Q: QMatrix + ?Sized>(s: &mut State<'_, Q>) {
    s.unpack_g();
    if s.all_active {
        return;
    }
    let mut is_active = vec![false; s.n];
    for &t in &s.active {
        is_active[t] = true;
    }
    let inactive: Vec<usize> = (0..s.n).filter(|&t| !is_active[t]).collect();
    let moved = (0..s.n).filter(|&j| s.alpha[j] != s.alpha_ref[j]).count();
    let nonzero = s.alpha.iter().filter(|&&a| a != 0.0).count();
    if moved < nonzero {
        // From the reference point: G_t = G_ref_t + Σ_{α_j moved} Q_tj (α_j − α_ref_j).
        let d: Vec<f64> = (0..s.n).map(|j| s.alpha[j] - s.alpha_ref[j]).collect();
        add_columns_at(s.q, &d, &inactive, &s.g_ref, &mut s.g);
    } else {
        add_columns_at(s.q, &s.alpha, &inactive, &s.p, &mut s.g);
    }
    s.active = (0..s.n).collect();
    s.all_active = true;
    s.cache.reset(&s.active);
    s.set_reference();
    s.pack();
}

/// `out[t] = base[t] + Σ_{c_j ≠ 0} c_j Q_tj` for every `t` in `rows`, adding the columns
/// in increasing `j`. When `rows` hold at least half of the variables the columns are
/// added in full into a scratch vector (contiguous reads) and `rows` copied out; each
/// entry sees the same additions in the same order either way. Compiled for the best
/// instruction set the CPU has, as the SMO loop.
fn add_columns_at<Q: QMatrix + ?Sized>(
    q: &Q,
    c: &[f64],
    rows: &[usize],
    base: &[f64],
    out: &mut [f64],
) {
    pulp::Arch::new().dispatch(AddColumns {
        q,
        c,
        rows,
        base,
        out,
    })
}

struct AddColumns<'a, Q: QMatrix + ?Sized> {
    q: &'a Q,
    c: &'a [f64],
    rows: &'a [usize],
    base: &'a [f64],
    out: &'a mut [f64],
}

impl<Q: QMatrix + ?Sized> pulp::WithSimd for AddColumns<'_, Q> {
    type Output = ();
    #[inline(always)]
    fn with_simd<S: pulp::Simd>(self, _simd: S) {
        let AddColumns {
            q,
            c,
            rows,
            base,
            out,
        } = self;
        let nonzero = c.iter().enumerate().filter(|(_, &v)| v != 0.0);
        if 2 * rows.len() >= out.len() {
            let mut full = base.to_vec();
            for (j, &v) in nonzero {
                q.add_column(j, v, &mut full);
            }
            for &t in rows {
                out[t] = full[t];
            }
        } else {
            for &t in rows {
                out[t] = base[t];
            }
            for (j, &v) in nonzero {
                q.add_column_at(j, v, rows, out);
            }
        }
    }
}
