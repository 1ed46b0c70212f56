//! Reduced gradient on the simplex and the descent direction, eqs. (7)–(9).
//!
//! Conventions (from the authors' code, which follows SimpleMKL's `mklsvmupdate`):
//! - the gradient is first scaled to unit Euclidean norm ([`unit_normalised`]); this
//!   changes only the length of the direction, which the line search absorbs;
//! - `u` is the index of the largest weight (first one on ties), as the paper says after
//!   eq. (8);
//! - the direction of the coordinate `u` is `d_u = −Σ_{p≠u} d_p` over the *kept*
//!   coordinates, not eq. (8)'s sum over all `p ≠ u`. The two agree unless a coordinate
//!   at zero is frozen by eq. (9); then eq. (8) would leave the simplex (Σ d ≠ 0),
//!   whereas this form keeps `Σ_p d_p = 0` exactly.

/// Weights at or below this are "at zero" for eq. (9) (machine precision, as the
/// authors' `numericalprecision`).
pub const ZERO_WEIGHT: f64 = f64::EPSILON;

/// `g / ‖g‖₂` (unchanged when `g = 0`).
pub fn unit_normalised(g: &[f64]) -> Vec<f64> {
    let norm = g.iter().map(|v| v * v).sum::<f64>().sqrt();
    if norm > 0.0 {
        g.iter().map(|v| v / norm).collect()
    } else {
        g.to_vec()
    }
}

/// Index of the largest weight (the first one on ties).
pub fn largest_index(gamma: &[f64]) -> usize {
    let mut u = 0;
    for (p, &v) in gamma.iter().enumerate() {
        if v > gamma[u] {
            u = p;
        }
    }
    u
}

/// The reduced gradient of eqs. (7)–(8) relative to coordinate `u`:
/// `r_p = g_p − g_u` for `p ≠ u` and `r_u = Σ_{p≠u} (g_u − g_p)`.
pub fn reduced_gradient(g: &[f64], u: usize) -> Vec<f64> {
    let gu = g[u];
    let mut r: Vec<f64> = g.iter().map(|&gp| gp - gu).collect();
    r[u] = g
        .iter()
        .enumerate()
        .filter(|&(p, _)| p != u)
        .map(|(_, &gp)| gu - gp)
        .sum();
    r
}

/// A descent direction on the simplex.
#[derive(Clone, Debug, PartialEq)]
pub struct Direction {
    /// The direction `d` (Σ_p d_p = 0).
    pub d: Vec<f64>,
    /// The reference coordinate `u` (largest weight).
    pub u: usize,
}

/// Eq. (9): `d_p = 0` if `γ_p = 0` and `r_p > 0`; `d_p = −r_p` for the other `p ≠ u`;
/// `d_u = −Σ_{p≠u} d_p` (see the module docs). `g` is the gradient (any scale).
pub fn descent_direction(gamma: &[f64], g: &[f64]) -> Direction {
    let u = largest_index(gamma);
    let r = reduced_gradient(g, u);
    let mut d = vec![0.0; gamma.len()];
    for (p, (dp, (&gp, &rp))) in d.iter_mut().zip(gamma.iter().zip(&r)).enumerate() {
        if p != u && !(gp <= ZERO_WEIGHT && rp > 0.0) {
            *dp = -rp;
        }
    }
    d[u] = -d
        .iter()
        .enumerate()
        .filter(|&(p, _)| p != u)
        .map(|(_, v)| v)
        .sum::<f64>();
    Direction { d, u }
}

/// Restrict a direction after some weights reached zero during the line search
/// (SimpleMKL's boundary walk): coordinates with `γ_p ≤ ZERO_WEIGHT` and `d_p ≤ 0` are
/// frozen and `d_u` re-balanced so that Σ d = 0.
pub fn restrict_direction(gamma: &[f64], dir: &mut Direction) {
    for (p, (dp, &gp)) in dir.d.iter_mut().zip(gamma).enumerate() {
        if p != dir.u && gp <= ZERO_WEIGHT && *dp <= 0.0 {
            *dp = 0.0;
        }
    }
    let u = dir.u;
    dir.d[u] = -dir
        .d
        .iter()
        .enumerate()
        .filter(|&(p, _)| p != u)
        .map(|(_, v)| v)
        .sum::<f64>();
}

/// Largest `α` with `γ + α d ≥ 0`: `min_{d_p < 0} −γ_p / d_p`; `None` when no
/// coordinate decreases (then the direction is 0 on the simplex).
pub fn max_step(gamma: &[f64], d: &[f64]) -> Option<f64> {
    gamma
        .iter()
        .zip(d)
        .filter(|&(_, &dp)| dp < 0.0)
        .map(|(&gp, &dp)| (-gp / dp).max(0.0))
        .min_by(|a, b| a.total_cmp(b))
}

/// `γ + α d` projected back onto the simplex against rounding: entries below
/// [`ZERO_WEIGHT`] set to 0, then divided by the sum (the authors' code does the same).
pub fn step_on_simplex(gamma: &[f64], d: &[f64], alpha: f64) -> Vec<f64> {
    let mut out: Vec<f64> = gamma
        .iter()
        .zip(d)
        .map(|(&g, &dp)| g + alpha * dp)
        .collect();
    clean_simplex(&mut out);
    out
}

/// Set weights below [`ZERO_WEIGHT`] to 0 and renormalise to sum 1.
pub fn clean_simplex(gamma: &mut [f64]) {
    for v in gamma.iter_mut() {
        if *v < ZERO_WEIGHT {
            *v = 0.0;
        }
    }
    let s: f64 = gamma.iter().sum();
    if s > 0.0 {
        gamma.iter_mut().for_each(|v| *v /= s);
    }
}

/// First-order optimality residual of `min_{γ ∈ Δ} J(γ)` at `γ` for the gradient `g`,
/// measured on the unit-normalised gradient `ĝ` with `λ = ĝ_u` (`u` = largest weight):
/// `max( max_{γ_p>0} |ĝ_p − λ|, max_{γ_p=0} (λ − ĝ_p)₊ )`. It is 0 exactly at a KKT
/// point (`g_p = λ` on the support, `g_p ≥ λ` off it) and equals `max_{p≠u} |d_p|` of
/// eq. (9) computed from `ĝ`.
pub fn kkt_residual(gamma: &[f64], g: &[f64]) -> f64 {
    let gh = unit_normalised(g);
    let dir = descent_direction(gamma, &gh);
    dir.d
        .iter()
        .enumerate()
        .filter(|&(p, _)| p != dir.u)
        .map(|(_, v)| v.abs())
        .fold(0.0, f64::max)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn eqs_7_8_by_hand() {
        let g = [3.0, 1.0, 2.0];
        let r = reduced_gradient(&g, 0);
        // r_1 = 1 − 3, r_2 = 2 − 3, r_0 = (3 − 1) + (3 − 2)
        assert_eq!(r, vec![3.0, -2.0, -1.0]);
        let d = descent_direction(&[0.5, 0.2, 0.3], &g);
        assert_eq!(d.u, 0);
        assert_eq!(d.d, vec![-3.0, 2.0, 1.0]);
    }

    #[test]
    fn zero_weight_with_positive_reduced_gradient_is_frozen() {
        // γ_1 = 0 and r_1 = g_1 − g_0 = 1 > 0 → d_1 = 0; d_2 = −(0.5 − 1) = 0.5; d_0 = −0.5.
        let d = descent_direction(&[0.7, 0.0, 0.3], &[1.0, 2.0, 0.5]);
        assert_eq!(d.d, vec![-0.5, 0.0, 0.5]);
        // A zero weight with negative reduced gradient re-enters.
        let d = descent_direction(&[0.7, 0.0, 0.3], &[1.0, 0.0, 1.0]);
        assert!(d.d[1] > 0.0);
    }

    #[test]
    fn max_step_and_simplex_step() {
        assert_eq!(max_step(&[0.5, 0.5], &[-1.0, 1.0]), Some(0.5));
        assert_eq!(max_step(&[0.5, 0.5], &[0.0, 0.0]), None);
        let g = step_on_simplex(&[0.5, 0.5], &[-1.0, 1.0], 0.5);
        assert_eq!(g, vec![0.0, 1.0]);
    }

    #[test]
    fn kkt_residual_zero_at_equal_gradients() {
        assert!(kkt_residual(&[0.2, 0.3, 0.5], &[4.0, 4.0, 4.0]) < 1e-15);
        assert!(kkt_residual(&[0.0, 0.5, 0.5], &[9.0, 4.0, 4.0]) < 1e-15);
        assert!(kkt_residual(&[0.0, 0.5, 0.5], &[1.0, 4.0, 4.0]) > 0.1);
        assert!(kkt_residual(&[0.2, 0.3, 0.5], &[1.0, 4.0, 4.0]) > 0.1);
    }

    proptest! {
        #[test]
        fn direction_keeps_sum_zero_feasible_and_descends(
            raw in proptest::collection::vec(0.0f64..1.0, 2..7),
            g in proptest::collection::vec(-5.0f64..5.0, 7),
            zero_mask in proptest::collection::vec(any::<bool>(), 7),
        ) {
            let m = raw.len();
            let mut gamma: Vec<f64> = raw.iter().zip(&zero_mask).map(|(&v, &z)| if z { 0.0 } else { v + 0.01 }).collect();
            if gamma.iter().all(|&v| v == 0.0) { gamma[0] = 1.0; }
            clean_simplex(&mut gamma);
            let g = &g[..m];
            let dir = descent_direction(&gamma, g);
            let s: f64 = dir.d.iter().sum();
            prop_assert!(s.abs() < 1e-12);
            // directional derivative gᵀd ≤ 0 (descent)
            let slope: f64 = g.iter().zip(&dir.d).map(|(a, b)| a * b).sum();
            prop_assert!(slope <= 1e-12, "slope {}", slope);
            // a feasible step exists and stays on the simplex
            if let Some(a) = max_step(&gamma, &dir.d) {
                let next = step_on_simplex(&gamma, &dir.d, a);
                prop_assert!(next.iter().all(|&v| v >= 0.0));
                prop_assert!((next.iter().sum::<f64>() - 1.0).abs() < 1e-12);
            }
        }
    }
}
