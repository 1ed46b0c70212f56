//! Euclidean projections, in place on a slice: v ← argmin_{z ∈ C} ‖z − v‖.
//!
//! Every function checks its input (non-empty, finite, valid radius/cap) and returns a
//! typed error otherwise; on error `v` is left unchanged.

use mkc_core::{validate, Error, Result};

fn check_vector(what: &str, v: &[f64]) -> Result<()> {
    if v.is_empty() {
        return Err(Error::input(what, "empty vector"));
    }
    validate::finite_slice(what, v)
}

/// The threshold θ with Σ max(v_i − θ, 0) = radius (Held–Wolfe–Crowder / Duchi et al.
/// 2008, sort-based, O(n log n)); requires radius > 0.
fn simplex_threshold(v: &[f64], radius: f64) -> f64 {
    let mut u: Vec<f64> = v.to_vec();
    u.sort_unstable_by(|a, b| b.total_cmp(a));
    let mut cumsum = 0.0;
    let mut theta = (u[0] - radius) / 1.0;
    for (j, &uj) in u.iter().enumerate() {
        cumsum += uj;
        let t = (cumsum - radius) / (j + 1) as f64;
        // ρ = the largest j with u_j − θ_j > 0; the u_j are sorted so the test fails
        // from ρ on and the last passing θ is the threshold.
        if uj - t > 0.0 {
            theta = t;
        } else {
            break;
        }
    }
    theta
}

/// Projection onto the simplex {z ≥ 0, 1ᵀz = radius}, radius > 0.
pub fn project_simplex(v: &mut [f64], radius: f64) -> Result<()> {
    check_vector("v", v)?;
    validate::positive("radius", radius)?;
    let theta = simplex_threshold(v, radius);
    for x in v.iter_mut() {
        *x = (*x - theta).max(0.0);
    }
    Ok(())
}

/// Projection onto the ℓ1 ball {‖z‖₁ ≤ radius}, radius > 0: v itself when inside,
/// otherwise sign(v) ∘ (simplex projection of |v| with the same radius).
pub fn project_l1_ball(v: &mut [f64], radius: f64) -> Result<()> {
    check_vector("v", v)?;
    validate::positive("radius", radius)?;
    if v.iter().map(|x| x.abs()).sum::<f64>() <= radius {
        return Ok(());
    }
    let a: Vec<f64> = v.iter().map(|x| x.abs()).collect();
    let theta = simplex_threshold(&a, radius);
    for x in v.iter_mut() {
        *x = x.signum() * (x.abs() - theta).max(0.0);
    }
    Ok(())
}

/// Projection onto the nonnegative part of the unit sphere {z ≥ 0, ‖z‖₂ = 1}.
///
/// If some v_i > 0 the projection is max(v, 0)/‖max(v, 0)‖ (it maximises zᵀv over the
/// set). If every v_i ≤ 0 it is the unit vector e_k at the largest coordinate k (for
/// z ≥ 0, ‖z‖ = 1 one has Σz_i ≥ 1, so zᵀv ≤ max_i v_i, attained at e_k); ties,
/// where the projection is not unique, go to the lowest index.
pub fn project_nonneg_unit_sphere(v: &mut [f64]) -> Result<()> {
    check_vector("v", v)?;
    // Scale by the largest positive entry first: no overflow or underflow in the norm.
    let m = v.iter().cloned().fold(0.0, f64::max);
    if m > 0.0 {
        let norm = v
            .iter()
            .map(|x| (x.max(0.0) / m).powi(2))
            .sum::<f64>()
            .sqrt();
        for x in v.iter_mut() {
            *x = (x.max(0.0) / m) / norm;
        }
        return Ok(());
    }
    let mut k = 0;
    for (i, &x) in v.iter().enumerate() {
        if x > v[k] {
            k = i;
        }
    }
    v.fill(0.0);
    v[k] = 1.0;
    Ok(())
}

/// Σ_i clamp(v_i − τ, 0, u): continuous, piecewise linear, nonincreasing in τ.
fn capped_sum(v: &[f64], tau: f64, upper: f64) -> f64 {
    v.iter().map(|&x| (x - tau).clamp(0.0, upper)).sum()
}

/// Check the cap of a capped simplex {0 ≤ z ≤ u, 1ᵀz = 1} of dimension n.
pub(crate) fn check_upper(upper: f64, n: usize) -> Result<()> {
    validate::positive("upper", upper)?;
    if upper * (n as f64) < 1.0 - 1e-12 {
        return Err(Error::param(
            "upper",
            upper,
            format!(
                "the capped simplex is empty: n · upper = {} < 1 (n = {n})",
                upper * n as f64
            ),
        ));
    }
    Ok(())
}

/// Projection onto the capped simplex {0 ≤ z ≤ upper, 1ᵀz = 1}: z = clamp(v − τ, 0, u)
/// with τ solving Σ clamp(v_i − τ, 0, u) = 1, found exactly by sorting the 2n
/// breakpoints {v_i − u, v_i}, bisecting over them, and interpolating linearly on the
/// bracketing segment (O(n log n)). Errors when n · upper < 1 (empty set); when
/// n · upper = 1 the set is the single point z = upper · 1.
pub fn project_capped_simplex(v: &mut [f64], upper: f64) -> Result<()> {
    check_vector("v", v)?;
    check_upper(upper, v.len())?;
    capped_in_place(v, upper);
    Ok(())
}

/// Project a warm start onto the capped simplex unless it is already feasible
/// (0 ≤ z ≤ u and |1ᵀz − 1| ≤ 1e-12 · n), in which case it is kept bit for bit.
pub(crate) fn make_feasible(v: &mut [f64], upper: f64) {
    let inside = v.iter().all(|&x| (0.0..=upper).contains(&x));
    if !(inside && (v.iter().sum::<f64>() - 1.0).abs() <= 1e-12 * v.len() as f64) {
        capped_in_place(v, upper);
    }
}

/// [`project_capped_simplex`] without the checks (crate-internal hot path).
pub(crate) fn capped_in_place(v: &mut [f64], upper: f64) {
    let n = v.len();
    if upper * n as f64 <= 1.0 {
        v.fill(upper);
        return;
    }
    let mut bp: Vec<f64> = Vec::with_capacity(2 * n);
    bp.extend(v.iter().map(|&x| x - upper));
    bp.extend(v.iter().copied());
    bp.sort_unstable_by(f64::total_cmp);
    // f(bp[0]) = n·u > 1 and f(bp[2n−1]) = 0 < 1: find lo < hi adjacent with
    // f(bp[lo]) ≥ 1 ≥ f(bp[hi]).
    let (mut lo, mut hi) = (0usize, 2 * n - 1);
    let (mut flo, mut fhi) = (capped_sum(v, bp[lo], upper), 0.0);
    while hi - lo > 1 {
        let mid = (lo + hi) / 2;
        let fm = capped_sum(v, bp[mid], upper);
        if fm >= 1.0 {
            lo = mid;
            flo = fm;
        } else {
            hi = mid;
            fhi = fm;
        }
    }
    let tau = if flo > fhi {
        bp[lo] + (flo - 1.0) * (bp[hi] - bp[lo]) / (flo - fhi)
    } else {
        bp[lo]
    };
    for x in v.iter_mut() {
        *x = (*x - tau).clamp(0.0, upper);
    }
}
