//! The kernel-weight step of RMKKM (eq. (17)–(20)) against its closed form, brute force
//! and finite differences.

use mkc_core::seed;
use mkc_robust::weights::{kernel_weights, l21_objective, proxy_coefficients};
use rand::Rng;

fn random_e(n: usize, m: usize, s: u64) -> Vec<Vec<f64>> {
    let mut rng = seed::rng(s);
    (0..m)
        .map(|t| {
            (0..n)
                .map(|_| rng.random_range(0.0..1.0) * (1.0 + t as f64))
                .collect()
        })
        .collect()
}

/// A random point of `{w ≥ 0, Σ w^γ = 1}`: `w = v^{1/γ}` for v on the simplex.
fn feasible(m: usize, gamma: f64, rng: &mut seed::Rng) -> Vec<f64> {
    let v: Vec<f64> = (0..m).map(|_| rng.random_range(0.0..1.0)).collect();
    let s: f64 = v.iter().sum();
    v.iter().map(|x| (x / s).powf(1.0 / gamma)).collect()
}

#[test]
fn closed_form_is_feasible_and_minimises_the_proxy() {
    let mut rng = seed::rng(1);
    for &gamma in &[0.1, 0.3, 0.5, 0.9] {
        let h = [0.7, 2.0, 0.1, 5.0];
        let w = kernel_weights(&h, gamma).unwrap();
        let norm: f64 = w.iter().map(|x| x.powf(gamma)).sum();
        assert!((norm - 1.0).abs() < 1e-12, "γ = {gamma}: Σ w^γ = {norm}");
        // KKT of eq. (18): h_t = λ γ w_t^{γ−1} with one λ for every t.
        let lambda: Vec<f64> = h
            .iter()
            .zip(&w)
            .map(|(ht, wt)| ht / (gamma * wt.powf(gamma - 1.0)))
            .collect();
        for l in &lambda {
            assert!((l - lambda[0]).abs() < 1e-9 * lambda[0]);
        }
        // No feasible point does better on Σ w h.
        let best: f64 = w.iter().zip(&h).map(|(a, b)| a * b).sum();
        for _ in 0..20000 {
            let v = feasible(4, gamma, &mut rng);
            let val: f64 = v.iter().zip(&h).map(|(a, b)| a * b).sum();
            assert!(val >= best * (1.0 - 1e-12), "γ = {gamma}: {val} < {best}");
        }
    }
}

#[test]
fn closed_form_matches_the_formula_and_survives_extreme_exponents() {
    let h = [0.5, 1.5, 3.0];
    let gamma: f64 = 0.4;
    let (a, b) = (1.0 / (gamma - 1.0), gamma / (gamma - 1.0));
    let denom = h
        .iter()
        .map(|x: &f64| x.powf(b))
        .sum::<f64>()
        .powf(1.0 / gamma);
    let want: Vec<f64> = h.iter().map(|x| x.powf(a) / denom).collect();
    let got = kernel_weights(&h, gamma).unwrap();
    for (g, w) in got.iter().zip(&want) {
        assert!((g - w).abs() < 1e-12 * w);
    }
    // γ → 1 concentrates on the smallest h; tiny h would overflow a direct formula.
    let w = kernel_weights(&[1e-300, 1e-290, 1.0], 0.99).unwrap();
    assert!(w.iter().all(|x| x.is_finite()));
    assert!(w[0] > 0.99 && w[2] < 1e-100, "{w:?}");
    // Small γ: w_t ∝ h_t^{−1/(1−γ)}, tending to 1/h_t (the paper's "Discussion of γ"
    // says equal weights, which eq. (20) does not give).
    let w = kernel_weights(&[1.0, 2.0, 4.0], 0.05).unwrap();
    assert!(
        (w[0] / w[2] / 4f64.powf(1.0 / 0.95) - 1.0).abs() < 1e-9,
        "{w:?}"
    );
}

#[test]
fn proxy_coefficients_are_the_gradient_of_the_objective() {
    let e = random_e(25, 4, 2);
    let w = [0.2, 0.5, 0.1, 0.7];
    let h = proxy_coefficients(&e, &w).unwrap();
    for t in 0..4 {
        let step = 1e-6;
        let mut up = w;
        up[t] += step;
        let mut down = w;
        down[t] -= step;
        let fd = (l21_objective(&e, &up) - l21_objective(&e, &down)) / (2.0 * step);
        assert!(
            (fd - h[t]).abs() < 1e-6 * h[t].abs().max(1.0),
            "t = {t}: {fd} vs {}",
            h[t]
        );
    }
}

#[test]
fn weight_step_never_increases_the_objective_from_a_feasible_point() {
    let mut rng = seed::rng(3);
    for s in 0..50 {
        let gamma = 0.1 + 0.8 * (s % 9) as f64 / 8.0;
        let e = random_e(30, 5, 100 + s);
        let w = feasible(5, gamma, &mut rng);
        let before = l21_objective(&e, &w);
        let h = proxy_coefficients(&e, &w).unwrap();
        let next = kernel_weights(&h, gamma).unwrap();
        let after = l21_objective(&e, &next);
        assert!(after <= before * (1.0 + 1e-12), "{after} > {before}");
    }
}

#[test]
fn bad_inputs_are_typed_errors() {
    use mkc_core::Error;
    for g in [0.0, 1.0, -0.5, f64::NAN, 1.5] {
        let e = kernel_weights(&[1.0, 2.0], g).unwrap_err();
        assert!(
            matches!(&e, Error::InvalidParam { name, .. } if name == "gamma"),
            "{e}"
        );
    }
    assert!(matches!(
        kernel_weights(&[], 0.5),
        Err(Error::InvalidInput { .. })
    ));
    assert!(matches!(
        kernel_weights(&[1.0, 0.0], 0.5),
        Err(Error::InvalidInput { .. })
    ));
    assert!(matches!(
        kernel_weights(&[1.0, f64::NAN], 0.5),
        Err(Error::InvalidInput { .. })
    ));
    let e = random_e(5, 2, 1);
    assert!(proxy_coefficients(&e, &[0.5]).is_err());
    assert!(proxy_coefficients(&[], &[]).is_err());
    let ragged = vec![vec![1.0; 5], vec![1.0; 4]];
    assert!(proxy_coefficients(&ragged, &[0.5, 0.5]).is_err());
    let nan = vec![vec![1.0, f64::NAN]];
    assert!(matches!(
        proxy_coefficients(&nan, &[1.0]),
        Err(Error::InvalidInput { .. })
    ));
}
