//! The closed-form weight updates of GUMKL, eqs. (7) and (8), and the weighted objective (6).
//!
//! Given the per-view within-cluster variances `E_v` of a fixed partition, eq. (6) reads
//! `Ẽ(w) = Σ_v w_v^p E_v`, to be minimised over the simplex. For p > 1 it is convex and the
//! minimiser is eq. (7), `w_v = 1 / Σ_v' (E_v / E_v')^{1/(p−1)}`, i.e. `w_v ∝ E_v^{−1/(p−1)}`
//! (the same rule MVKKM uses with its `D_v`). For p = 1 it is a linear program whose minimiser
//! is the vertex of the smallest `E_v`, eq. (8). For p → ∞, eq. (7) tends to `1/V`.
//!
//! Numerical choices (not in the paper):
//! * eq. (7) is evaluated in log space, `w = softmax(−ln E / (p − 1))`, so that neither large p
//!   nor tiny/huge `E_v` overflow;
//! * a view whose `E_v` is zero (relative to the largest, below 1e-12) is a perfect fit; eq. (7)
//!   tends to putting all the weight on such views, shared equally when there are several;
//! * ties in eq. (8) go to the lowest view index;
//! * a negative `E_v` (impossible for a PSD kernel, up to rounding) is an error.

use mkc_core::{Error, Result};

/// Relative size below which a view's within-cluster variance counts as exactly zero.
pub const ZERO_VARIANCE_RTOL: f64 = 1e-12;

fn check_objectives(e: &[f64]) -> Result<f64> {
    if e.is_empty() {
        return Err(Error::input("view objectives", "no views"));
    }
    mkc_core::validate::finite_slice("view objectives", e)?;
    let max = e.iter().fold(0.0f64, |m, &x| m.max(x.abs()));
    for (v, &x) in e.iter().enumerate() {
        if x < -ZERO_VARIANCE_RTOL * max {
            return Err(Error::numerical(
                "GUMKL weight update",
                format!("view {v} has negative within-cluster variance {x:e}; is its kernel positive semidefinite?"),
            ));
        }
    }
    Ok(max)
}

/// The optimal weights for fixed clusters: eq. (7) for p > 1, eq. (8) for p = 1, uniform for
/// p = ∞. `e[v]` is the within-cluster variance `E_v` of view v (eq. 6); `out` receives the
/// weights (on the simplex).
pub fn optimal_weights(e: &[f64], p: f64, out: &mut [f64]) -> Result<()> {
    crate::params::check_p(p)?;
    mkc_core::validate::len("weights", out.len(), e.len())?;
    let max = check_objectives(e)?;
    let v_count = e.len();
    if p == f64::INFINITY {
        out.fill(1.0 / v_count as f64);
        return Ok(());
    }
    let zero = |x: f64| x <= ZERO_VARIANCE_RTOL * max;
    let n_zero = e.iter().filter(|&&x| zero(x)).count();
    if n_zero > 0 && p > 1.0 {
        // Limit of eq. (7) as E_v → 0: all the weight on the zero-variance views.
        for (w, &x) in out.iter_mut().zip(e) {
            *w = if zero(x) { 1.0 / n_zero as f64 } else { 0.0 };
        }
        return Ok(());
    }
    if p == 1.0 {
        // Eq. (8): the vertex of the smallest E_v, lowest index on ties.
        let best = e
            .iter()
            .enumerate()
            .fold(0, |b, (v, &x)| if x < e[b] { v } else { b });
        out.fill(0.0);
        out[best] = 1.0;
        return Ok(());
    }
    // Eq. (7) as a softmax of a_v = −ln(E_v)/(p − 1).
    let inv = 1.0 / (p - 1.0);
    let a_max = e
        .iter()
        .map(|&x| -x.ln() * inv)
        .fold(f64::NEG_INFINITY, f64::max);
    let mut sum = 0.0;
    for (w, &x) in out.iter_mut().zip(e) {
        *w = (-x.ln() * inv - a_max).exp();
        sum += *w;
    }
    for w in out.iter_mut() {
        *w /= sum;
    }
    Ok(())
}

/// Convenience form of [`optimal_weights`] returning a new vector.
pub fn optimal_weights_vec(e: &[f64], p: f64) -> Result<Vec<f64>> {
    let mut w = vec![0.0; e.len()];
    optimal_weights(e, p, &mut w)?;
    Ok(w)
}

/// The coefficient of view v in the composite kernel (eq. 4): `w_v^p`; for p = ∞ the
/// coefficient is 1 (the uniform *sum* Σ_v K_v, as in the paper's baseline).
pub fn coefficient(w: f64, p: f64) -> f64 {
    if p == f64::INFINITY {
        1.0
    } else {
        w.powf(p)
    }
}

/// Eq. (6): `Σ_v w_v^p E_v` (p = ∞: `Σ_v E_v`, the objective of the uniform sum).
pub fn weighted_objective(w: &[f64], e: &[f64], p: f64) -> f64 {
    w.iter().zip(e).map(|(&w, &e)| coefficient(w, p) * e).sum()
}

/// MVKKM's stabilisation (authors' code): weights below `floor` are set to 0 and the rest
/// renormalised to sum 1. A no-op for `floor = 0`.
pub fn prune_small(w: &mut [f64], floor: f64) {
    if floor <= 0.0 {
        return;
    }
    // Keep the largest weight whatever the floor, so that the sum stays positive.
    let max = w.iter().cloned().fold(0.0, f64::max);
    for x in w.iter_mut() {
        if *x < floor && *x < max {
            *x = 0.0;
        }
    }
    let s: f64 = w.iter().sum();
    for x in w.iter_mut() {
        *x /= s;
    }
}

/// The weights behind the last partition of an alternation (MVKKM, MVSpec, AASC) whose
/// `trace` holds `w(0)` and then every weight update, after `steps` partition steps (one
/// objective each), and whose current weights are `w`. Each step but a converged last one
/// is followed by an update, so the trace is one longer than `steps` exactly when the
/// iteration cap stopped the loop right after an update that no partition used: that
/// update is dropped from the trace and the weights before it are returned. Otherwise
/// `w` is returned unchanged.
pub fn weights_in_use(trace: &mut Vec<Vec<f64>>, steps: usize, w: Vec<f64>) -> Vec<f64> {
    if trace.len() > steps {
        trace.pop();
        return trace.last().cloned().unwrap_or(w);
    }
    w
}

#[cfg(test)]
mod tests {
    use super::*;

    fn on_simplex(w: &[f64]) -> bool {
        w.iter().all(|&x| x >= 0.0) && (w.iter().sum::<f64>() - 1.0).abs() < 1e-12
    }

    /// Projected-gradient descent on eq. (6) over the simplex (an independent minimiser).
    fn projected_gradient(e: &[f64], p: f64) -> Vec<f64> {
        let v = e.len();
        let mut w = vec![1.0 / v as f64; v];
        let scale = e.iter().cloned().fold(0.0, f64::max);
        let mut step = 0.1 / (p * scale);
        for _ in 0..200_000 {
            let g: Vec<f64> = w
                .iter()
                .zip(e)
                .map(|(&w, &e)| p * w.max(0.0).powf(p - 1.0) * e)
                .collect();
            let mut y: Vec<f64> = w.iter().zip(&g).map(|(&w, &g)| w - step * g).collect();
            mkc_qp::project_simplex(&mut y, 1.0).unwrap();
            w = y;
            step *= 0.99995;
        }
        w
    }

    #[test]
    fn eq7_matches_closed_form_and_projected_gradient() {
        let e = [3.0, 1.0, 7.5];
        for p in [1.5, 2.0, 3.0, 5.0] {
            let w = optimal_weights_vec(&e, p).unwrap();
            assert!(on_simplex(&w));
            // Eq. (7) written literally.
            for v in 0..3 {
                let lit = 1.0
                    / (0..3)
                        .map(|u| (e[v] / e[u]).powf(1.0 / (p - 1.0)))
                        .sum::<f64>();
                assert!((w[v] - lit).abs() < 1e-14, "p = {p}");
            }
            let pg = projected_gradient(&e, p);
            let (f, fpg) = (
                weighted_objective(&w, &e, p),
                weighted_objective(&pg, &e, p),
            );
            assert!(
                f <= fpg + 1e-12,
                "p = {p}: closed form {f} vs projected gradient {fpg}"
            );
            for v in 0..3 {
                assert!((w[v] - pg[v]).abs() < 1e-3, "p = {p}: {w:?} vs {pg:?}");
            }
        }
    }

    #[test]
    fn eq7_is_the_grid_minimum_for_two_and_three_views() {
        let cases: [&[f64]; 3] = [&[2.0, 5.0], &[0.3, 0.31, 4.0], &[10.0, 1.0, 1.0]];
        for e in cases {
            for p in [1.2, 2.0, 2.5, 4.0, 10.0] {
                let w = optimal_weights_vec(e, p).unwrap();
                let f = weighted_objective(&w, e, p);
                let steps = 400;
                let mut best = f64::INFINITY;
                for i in 0..=steps {
                    for j in 0..=(if e.len() == 3 { steps - i } else { 0 }) {
                        let a = i as f64 / steps as f64;
                        let b = j as f64 / steps as f64;
                        let g: Vec<f64> = if e.len() == 2 {
                            vec![a, 1.0 - a]
                        } else {
                            vec![a, b, (1.0 - a - b).max(0.0)]
                        };
                        best = best.min(weighted_objective(&g, e, p));
                    }
                }
                assert!(
                    f <= best + 1e-12,
                    "{e:?}, p = {p}: eq. 7 gives {f}, grid {best}"
                );
            }
        }
    }

    #[test]
    fn p_one_picks_least_variance_view_and_p_inf_is_uniform() {
        assert_eq!(
            optimal_weights_vec(&[3.0, 0.5, 2.0], 1.0).unwrap(),
            vec![0.0, 1.0, 0.0]
        );
        assert_eq!(
            optimal_weights_vec(&[1.0, 2.0, 1.0], 1.0).unwrap(),
            vec![1.0, 0.0, 0.0]
        );
        let u = optimal_weights_vec(&[3.0, 0.5, 2.0], f64::INFINITY).unwrap();
        assert!(u.iter().all(|&x| (x - 1.0 / 3.0).abs() < 1e-15));
        // p → ∞ limit of eq. (7) and monotone flattening in p.
        let e = [3.0, 0.5, 2.0];
        let mut prev_spread = f64::INFINITY;
        for p in [1.5, 2.0, 3.0, 5.0, 10.0, 100.0, 1e6] {
            let w = optimal_weights_vec(&e, p).unwrap();
            let spread =
                w.iter().cloned().fold(0.0, f64::max) - w.iter().cloned().fold(1.0, f64::min);
            assert!(spread < prev_spread);
            prev_spread = spread;
        }
        assert!(prev_spread < 1e-5);
    }

    #[test]
    fn extreme_values_stay_on_the_simplex() {
        for e in [[1e-300, 1.0, 1e300], [1e-20, 1e-20, 1e-19], [5.0, 5.0, 5.0]] {
            for p in [1.0, 1.0001, 1.5, 3.0, 1e9, f64::INFINITY] {
                let w = optimal_weights_vec(&e, p).unwrap();
                assert!(on_simplex(&w), "{e:?} {p}: {w:?}");
            }
        }
        // A zero-variance view takes everything (shared among zero views).
        assert_eq!(
            optimal_weights_vec(&[0.0, 1.0, 0.0], 2.0).unwrap(),
            vec![0.5, 0.0, 0.5]
        );
    }

    #[test]
    fn bad_inputs() {
        let mut out = [0.0; 2];
        assert!(matches!(
            optimal_weights(&[1.0, f64::NAN], 2.0, &mut out),
            Err(Error::NonFinite { row: 1, .. })
        ));
        assert!(matches!(
            optimal_weights(&[1.0, -1.0], 2.0, &mut out),
            Err(Error::Numerical { .. })
        ));
        assert!(matches!(
            optimal_weights(&[1.0, 1.0, 1.0], 2.0, &mut out),
            Err(Error::Shape { .. })
        ));
        assert!(matches!(
            optimal_weights(&[], 2.0, &mut []),
            Err(Error::InvalidInput { .. })
        ));
        assert!(matches!(
            optimal_weights(&[1.0, 2.0], 0.5, &mut out),
            Err(Error::InvalidParam { .. })
        ));
    }

    proptest::proptest! {
        /// Eq. (7)/(8) lands on the simplex and beats every vertex and a perturbed point.
        #[test]
        fn closed_form_is_optimal_on_the_simplex(
            e in proptest::collection::vec(1e-6f64..1e6, 2..7),
            p in 1.0f64..20.0,
            pert in proptest::collection::vec(0.0f64..1.0, 7),
        ) {
            let w = optimal_weights_vec(&e, p).unwrap();
            proptest::prop_assert!(on_simplex(&w));
            let f = weighted_objective(&w, &e, p);
            for v in 0..e.len() {
                let mut g = vec![0.0; e.len()];
                g[v] = 1.0;
                proptest::prop_assert!(f <= weighted_objective(&g, &e, p) * (1.0 + 1e-12));
            }
            let mut g: Vec<f64> = w.iter().zip(&pert).map(|(&a, &b)| 0.9 * a + 0.1 * b).collect();
            let s: f64 = g.iter().sum();
            g.iter_mut().for_each(|x| *x /= s);
            proptest::prop_assert!(f <= weighted_objective(&g, &e, p) * (1.0 + 1e-12));
        }
    }

    #[test]
    fn prune_keeps_simplex() {
        let mut w = [0.5, 4e-6, 0.5 - 4e-6];
        prune_small(&mut w, 1e-5);
        assert_eq!(w[1], 0.0);
        assert!(on_simplex(&w));
        let mut tiny = [1e-6, 1e-6];
        prune_small(&mut tiny, 1e-5);
        assert!(on_simplex(&tiny));
    }

    #[test]
    fn an_unused_last_update_is_dropped() {
        let (w0, w1, w2) = (vec![0.5, 0.5], vec![0.2, 0.8], vec![0.1, 0.9]);
        // Capped after two steps, each followed by an update: w2 was never used.
        let mut trace = vec![w0.clone(), w1.clone(), w2.clone()];
        assert_eq!(weights_in_use(&mut trace, 2, w2.clone()), w1);
        assert_eq!(trace, [w0.clone(), w1.clone()]);
        // Converged at the second step: no update after it, nothing dropped.
        let mut trace = vec![w0.clone(), w1.clone()];
        assert_eq!(weights_in_use(&mut trace, 2, w1.clone()), w1);
        assert_eq!(trace.len(), 2);
    }
}
