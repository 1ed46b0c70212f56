//! Checking the constraint set `{α : yᵀα = Δ, l ≤ α ≤ u}` and repairing a warm start.
//!
//! Repair (our choice; the problem statement leaves it open): first clip α to the box
//! and compute the gradient `G = Qα + p` there (O(n · #nonzero α)); then restore
//! `yᵀα = Δ` greedily: with `r = Δ − yᵀα`, the coordinates that can move in the helpful
//! direction `d_t = sign(r) · y_t` are ranked by the directional derivative `d_t G_t`
//! (steepest descent first, ties to the lowest index), and the best one is moved to its
//! bound or until `r = 0`, whichever comes first; `G` is updated (one column) and the
//! next coordinate is chosen. Each unit of movement changes `yᵀα` by one, so the total
//! movement is always `|r|`; moving every chosen coordinate as far as it goes touches the
//! fewest coordinates, and ranking by the gradient moves the ones the objective wants
//! moved (after a C-SVC label flip: the flipped sample's α, which now sits on the right
//! side of the hyperplane, goes first).

use crate::qmatrix::QMatrix;
use crate::state::State;
use mkc_core::{Error, Result};

/// Validate bounds and the equality target: lengths, no NaN, `l_t < +∞`, `u_t > −∞`,
/// `l_t ≤ u_t`, `y_t ∈ {−1, +1}`, `Δ` finite and within `[min yᵀα, max yᵀα]` over the box.
pub(crate) fn check(y: &[f64], lower: &[f64], upper: &[f64], delta: f64, n: usize) -> Result<()> {
    mkc_core::validate::len("y", y.len(), n)?;
    mkc_core::validate::len("lower bounds", lower.len(), n)?;
    mkc_core::validate::len("upper bounds", upper.len(), n)?;
    if let Some(t) = y.iter().position(|&v| v != 1.0 && v != -1.0) {
        return Err(Error::input(
            "y",
            format!("entry {} at index {t} is not -1 or +1", y[t]),
        ));
    }
    for t in 0..n {
        let (l, u) = (lower[t], upper[t]);
        if l.is_nan() || l == f64::INFINITY {
            return Err(Error::input(
                "lower bounds",
                format!("l[{t}] = {l} (must be < +inf)"),
            ));
        }
        if u.is_nan() || u == f64::NEG_INFINITY {
            return Err(Error::input(
                "upper bounds",
                format!("u[{t}] = {u} (must be > -inf)"),
            ));
        }
        if l > u {
            return Err(Error::input(
                "bounds",
                format!("infeasible box at index {t}: l = {l} > u = {u}"),
            ));
        }
    }
    mkc_core::mkc_ensure!(delta.is_finite(), param "delta", delta, "must be finite");
    let (lo, hi) = reachable(y, lower, upper);
    let slack = 1e-12 * (1.0 + delta.abs());
    if delta < lo - slack || delta > hi + slack {
        return Err(Error::input(
            "equality constraint",
            format!("yᵀα = {delta} is unreachable within the box (range [{lo}, {hi}])"),
        ));
    }
    Ok(())
}

/// `[min, max]` of `yᵀα` over the box.
fn reachable(y: &[f64], lower: &[f64], upper: &[f64]) -> (f64, f64) {
    let (mut lo, mut hi) = (0.0, 0.0);
    for ((&yt, &l), &u) in y.iter().zip(lower).zip(upper) {
        if yt > 0.0 {
            lo += l;
            hi += u;
        } else {
            lo -= u;
            hi -= l;
        }
    }
    (lo, hi)
}

/// Clip `alpha` to the box; returns the indices changed.
pub(crate) fn clip(alpha: &mut [f64], lower: &[f64], upper: &[f64]) -> Vec<usize> {
    let mut changed = Vec::new();
    for (t, ((a, &l), &u)) in alpha.iter_mut().zip(lower).zip(upper).enumerate() {
        let c = a.clamp(l, u);
        if c != *a {
            *a = c;
            changed.push(t);
        }
    }
    changed
}

/// Restore `yᵀα = Δ` on a box-feasible state, greedily along the steepest helpful
/// coordinate (see the module docs), keeping `G` (and `Ḡ`) exact. Returns the indices
/// moved.
pub(crate) fn restore_equality<Q: QMatrix + ?Sized>(
    s: &mut State<'_, Q>,
    delta: f64,
) -> Vec<usize> {
    let mut moved = Vec::new();
    let scale = 1.0 + delta.abs() + s.alpha.iter().map(|a| a.abs()).sum::<f64>();
    let tol = 1e-14 * scale;
    for _ in 0..=s.n {
        let sum: f64 = s.y.iter().zip(&s.alpha).map(|(y, a)| y * a).sum();
        let need = delta - sum;
        if need.abs() <= tol {
            break;
        }
        let dir = need.signum();
        let (mut best, mut best_score) = (usize::MAX, f64::NEG_INFINITY);
        for t in 0..s.n {
            let d = dir * s.y[t];
            let (room, _) = s.room(t, d);
            if room > 0.0 {
                let score = -d * s.g[t];
                if score > best_score {
                    best_score = score;
                    best = t;
                }
            }
        }
        if best == usize::MAX {
            break;
        }
        let t = best;
        let d = dir * s.y[t];
        let (room, bound) = s.room(t, d);
        let step = need.abs();
        let old = s.alpha[t];
        s.alpha[t] = if step >= room { bound } else { old + d * step };
        s.apply_single_change(t, old);
        moved.push(t);
    }
    moved
}
