//! ONKC's steps against their definitions on small problems.

use super::projection::{
    kept_eigenvalues, neighbourhood_kernel, project_psd, shifted_kernel, Projection, EIGEN_FLOOR,
};
use super::*;
use crate::simplex_qp::quadratic_form;
use faer::Mat;

/// Deterministic numbers in [−0.5, 0.5).
fn noise(i: usize, j: usize, salt: usize) -> f64 {
    let z = (i * 7919 + j * 104_729 + salt * 1_299_709) % 10_007;
    z as f64 / 10_007.0 - 0.5
}

/// A symmetric matrix with both signs in its spectrum.
fn symmetric(n: usize, salt: usize) -> Mat<f64> {
    let b = Mat::from_fn(n, n, |i, j| noise(i, j, salt));
    Mat::from_fn(n, n, |i, j| b[(i, j)] + b[(j, i)])
}

/// Three centred Gaussian kernels of points on a line (two groups).
fn kernels(n: usize) -> Vec<Mat<f64>> {
    (0..3)
        .map(|v| {
            let x: Vec<f64> = (0..n)
                .map(|i| (i % 2) as f64 * 2.0 + (v as f64 + 0.5) * noise(i, v, 7))
                .collect();
            let k = Mat::from_fn(n, n, |i, j| (-(x[i] - x[j]).powi(2)).exp());
            let mut k = k;
            mkc_linalg::center_in_place(k.as_mut()).unwrap();
            k
        })
        .collect()
}

/// `kernels(n)`, `K_γ = Σ_p γ_p K_p`, its top-2 eigenvectors H and `M_pq = tr(K_p K_q)`.
struct Setup {
    ks: Vec<Mat<f64>>,
    kg: Mat<f64>,
    h: Mat<f64>,
    m: Mat<f64>,
}

fn setup(n: usize, gamma: &[f64], eigen: &mkc_linalg::eigen::EigenOptions) -> Setup {
    let ks = kernels(n);
    let views: Vec<_> = ks.iter().map(|m| m.as_ref()).collect();
    let kg = mkc_linalg::weighted_sum(gamma, &views).unwrap();
    let h = mkc_linalg::eigen::top_k(kg.as_ref(), 2, eigen)
        .unwrap()
        .vectors;
    let m = crate::mkkm_mir::regularisation_matrix(&views).unwrap();
    Setup { ks, kg, h, m }
}

impl Setup {
    /// The ONKC objective at G with this H, `K_γ` and M.
    fn objective(&self, g: &Mat<f64>, gamma: &[f64], rho: f64, lambda: f64) -> f64 {
        let (h, kg, m) = (self.h.as_ref(), self.kg.as_ref(), self.m.as_ref());
        objective(g.as_ref(), h, kg, gamma, m, rho, lambda).unwrap()
    }
}

fn eigenvalues(a: &Mat<f64>) -> Vec<f64> {
    mkc_linalg::eigen::sym_evd(a.as_ref()).unwrap().0
}

fn inner(a: &Mat<f64>, b: &Mat<f64>) -> f64 {
    mkc_linalg::frobenius_inner(a.as_ref(), b.as_ref()).unwrap()
}

#[test]
fn projection_satisfies_the_optimality_conditions_of_its_definition() {
    // G = argmin_{G ⪰ 0} ‖G − A‖ iff G ⪰ 0, G − A ⪰ 0 and ⟨G, G − A⟩ = 0.
    for (n, salt, shift) in [(12, 1, 0.0), (12, 2, 1.5), (12, 3, -1.5), (30, 4, 0.3)] {
        let mut a = symmetric(n, salt);
        for i in 0..n {
            a[(i, i)] += shift; // many kept (shift > 0) or many dropped (< 0) eigenvalues
        }
        let nb = project_psd(a.clone(), 2).unwrap();
        let g = &nb.g;
        let scale = eigenvalues(&a).iter().fold(0.0f64, |m, v| m.max(v.abs()));
        assert!(eigenvalues(g)[0] > -1e-12 * scale, "G ⪰ 0");
        let gap = Mat::from_fn(n, n, |i, j| g[(i, j)] - a[(i, j)]);
        assert!(eigenvalues(&gap)[0] > -1e-12 * scale, "G − A ⪰ 0");
        assert!(inner(g, &gap).abs() < 1e-10 * scale * scale);
        // no random PSD matrix is closer to A
        let dist = |p: &Mat<f64>| {
            inner(
                &Mat::from_fn(n, n, |i, j| p[(i, j)] - a[(i, j)]),
                &Mat::from_fn(n, n, |i, j| p[(i, j)] - a[(i, j)]),
            )
        };
        for s in 0..5 {
            let b = Mat::from_fn(n, n, |i, j| noise(i, j, 100 + s));
            let p = Mat::from_fn(n, n, |i, j| {
                g[(i, j)] + 0.01 * (0..n).map(|t| b[(i, t)] * b[(j, t)]).sum::<f64>()
            });
            assert!(dist(g) <= dist(&p));
        }
        // the rank is the number of positive eigenvalues; top = G's top eigenpairs
        let pos = eigenvalues(&a)
            .iter()
            .filter(|&&v| v > f64::EPSILON)
            .count();
        assert_eq!(nb.rank, pos);
        let ev_g = eigenvalues(g);
        let top2 = ev_g[n - 1] + ev_g[n - 2];
        let aligned = mkc_linalg::trace_quadratic(g.as_ref(), nb.top.as_ref()).unwrap();
        assert!((aligned - top2).abs() < 1e-10 * scale);
        assert!((nb.top_values.iter().sum::<f64>() - top2).abs() < 1e-10 * scale);
    }
}

#[test]
fn inertia_counts_the_eigenvalues_above_the_floor() {
    // indefinite (2 x 2 pivots), mostly positive, mostly negative, PSD of low rank, zero
    // three positive eigenvalues, the rest at −1e-3 (clear of the floor)
    let low_rank = {
        let b = Mat::from_fn(40, 3, |i, j| noise(i, j, 11));
        let bb = b.as_ref() * b.as_ref().transpose();
        Mat::from_fn(40, 40, |i, j| bb[(i, j)] - if i == j { 1e-3 } else { 0.0 })
    };
    for (a, label) in [
        (symmetric(40, 1), "indefinite"),
        (
            Mat::from_fn(40, 40, |i, j| {
                symmetric(40, 2)[(i, j)] + if i == j { 2.0 } else { 0.0 }
            }),
            "shifted up",
        ),
        (
            Mat::from_fn(40, 40, |i, j| {
                symmetric(40, 3)[(i, j)] - if i == j { 2.0 } else { 0.0 }
            }),
            "shifted down",
        ),
        (low_rank, "three positive"),
        (Mat::zeros(40, 40), "zero"),
    ] {
        let want = eigenvalues(&a).iter().filter(|&&v| v > EIGEN_FLOOR).count();
        assert_eq!(kept_eigenvalues(a.as_ref()).unwrap(), want, "{label}");
    }
}

#[test]
fn g_step_minimises_the_objective_over_psd_matrices() {
    let gamma = [0.2, 0.5, 0.3];
    let st = setup(16, &gamma, &Default::default());
    let (kg, h) = (&st.kg, &st.h);
    for rho in [0.125, 1.0, 16.0] {
        let nb = neighbourhood_kernel(
            kg.as_ref(),
            h.as_ref(),
            rho,
            2,
            Projection::Dense,
            0,
            &Default::default(),
        )
        .unwrap();
        let f = |g: &Mat<f64>| st.objective(g, &gamma, rho, 1.0);
        let best = f(&nb.g);
        // K_γ itself, G scaled, and G plus PSD perturbations are all worse
        assert!(best <= f(kg));
        for s in [0.9, 1.1] {
            assert!(best <= f(&Mat::from_fn(16, 16, |i, j| s * nb.g[(i, j)])));
        }
        let v = Mat::from_fn(16, 1, |i, _| noise(i, 3, 9));
        let p = Mat::from_fn(16, 16, |i, j| nb.g[(i, j)] + 0.05 * v[(i, 0)] * v[(j, 0)]);
        assert!(best <= f(&p));
        // A as the projection's input is K_γ − (1/ρ)(I − HHᵀ) entry by entry
        let a = shifted_kernel(kg.as_ref(), h.as_ref(), rho);
        let hh = h.as_ref() * h.as_ref().transpose();
        for (i, j) in [(0, 0), (3, 7), (15, 2)] {
            let eye = if i == j { 1.0 } else { 0.0 };
            let want = kg[(i, j)] - (eye - hh[(i, j)]) / rho;
            assert!((a[(i, j)] - want).abs() < 1e-13);
        }
    }
}

#[test]
fn objective_equals_its_direct_evaluation() {
    let gamma = [0.6, 0.0, 0.4];
    let st = setup(10, &gamma, &Default::default());
    let (ks, kg, h) = (&st.ks, &st.kg, &st.h);
    let g = Mat::from_fn(10, 10, |i, j| {
        kg[(i, j)] + 0.1 * noise(i.min(j), i.max(j), 5)
    });
    let (rho, lambda) = (0.5, 3.0);
    // tr(G (I − HHᵀ)) + (ρ/2)‖G − K_γ‖² + (λ/2) Σ_pq γ_p γ_q tr(K_p K_q), all by loops
    let hh = h.as_ref() * h.as_ref().transpose();
    let mut direct = 0.0;
    for i in 0..10 {
        for j in 0..10 {
            let eye = if i == j { 1.0 } else { 0.0 };
            direct += g[(i, j)] * (eye - hh[(j, i)]);
            direct += 0.5 * rho * (g[(i, j)] - kg[(i, j)]).powi(2);
        }
    }
    for p in 0..3 {
        for q in 0..3 {
            let t: f64 = (0..10)
                .flat_map(|i| (0..10).map(move |j| (i, j)))
                .map(|(i, j)| ks[p][(i, j)] * ks[q][(j, i)])
                .sum();
            direct += 0.5 * lambda * gamma[p] * gamma[q] * t;
        }
    }
    let value = st.objective(&g, &gamma, rho, lambda);
    assert!(
        (value - direct).abs() < 1e-11 * direct.abs(),
        "{value} vs {direct}"
    );
}

#[test]
fn gamma_step_is_the_objective_over_the_simplex() {
    // For fixed G and H, objective(γ) − [½ γᵀ(ρ+λ)Mγ − ρ Σ_p γ_p tr(K_p G)] is a constant
    // (so the QP is the γ-step), and the QP's γ beats a fine grid on the objective.
    let ks = kernels(12);
    let views: Vec<_> = ks.iter().map(|m| m.as_ref()).collect();
    let m = crate::mkkm_mir::regularisation_matrix(&views).unwrap();
    let g = Mat::from_fn(12, 12, |i, j| ks[1][(i, j)] + 0.2 * ks[2][(i, j)]);
    let h = mkc_linalg::eigen::top_k(g.as_ref(), 2, &Default::default())
        .unwrap()
        .vectors;
    let (rho, lambda) = (2.0, 0.5);
    let c: Vec<f64> = views
        .iter()
        .map(|k| -rho * mkc_linalg::frobenius_inner(*k, g.as_ref()).unwrap())
        .collect();
    let q = Mat::from_fn(3, 3, |i, j| (rho + lambda) * m[(i, j)]);
    let full = |gm: &[f64]| {
        let kg = mkc_linalg::weighted_sum(gm, &views).unwrap();
        objective(
            g.as_ref(),
            h.as_ref(),
            kg.as_ref(),
            gm,
            m.as_ref(),
            rho,
            lambda,
        )
        .unwrap()
    };
    let qp = |gm: &[f64]| {
        0.5 * quadratic_form(q.as_ref(), gm) + c.iter().zip(gm).map(|(a, b)| a * b).sum::<f64>()
    };
    let offset = full(&[1.0 / 3.0; 3]) - qp(&[1.0 / 3.0; 3]);
    let mut best_grid = f64::INFINITY;
    for gm in crate::simplex_qp::grid3(100) {
        let f = full(&gm);
        assert!((f - qp(&gm) - offset).abs() < 1e-9 * f.abs().max(1.0));
        best_grid = best_grid.min(f);
    }
    let gamma = crate::simplex_qp::simplex_weights(q.as_ref(), &c, None, 0.0, "ONKC").unwrap();
    assert!(full(&gamma) <= best_grid + 1e-12 * best_grid.abs());
}

#[test]
fn trace_never_increases_and_weights_stay_on_the_simplex() {
    let ks = kernels(40);
    let views: Vec<_> = ks.iter().map(|m| m.as_ref()).collect();
    for (rho, lambda) in [
        (2f64.powi(-7), 2f64.powi(-6)),
        (1.0, 1.0),
        (2f64.powi(9), 2f64.powi(7)),
    ] {
        let fit = OnkcParams::new()
            .rho(rho)
            .lambda(lambda)
            .tol(1e-9)
            .max_iter(15)
            .fit_kernels(&views, 2)
            .unwrap();
        fit.assert_descends_on_simplex(&format!("ρ = {rho}, λ = {lambda}"));
        assert!(fit.gamma.iter().all(|&g| g >= 0.0));
        assert_eq!(fit.diagnostics.method.rank_trace.len(), fit.iterations + 1);
        assert_eq!(fit.diagnostics.weight_trace.len(), fit.iterations + 1);
    }
}

#[test]
fn low_rank_projection_equals_the_full_one() {
    // n = 300 > the eigensolver's dense size, so block Lanczos runs; small ρ, low rank
    let eigen = crate::default_eigen_options();
    let Setup { kg, h, .. } = setup(300, &[0.3, 0.3, 0.4], &eigen);
    for (rho, hint) in [(2f64.powi(-7), 0), (0.05, 0), (0.05, 10)] {
        let auto = neighbourhood_kernel(
            kg.as_ref(),
            h.as_ref(),
            rho,
            2,
            Projection::Auto,
            hint,
            &eigen,
        )
        .unwrap();
        let dense = neighbourhood_kernel(
            kg.as_ref(),
            h.as_ref(),
            rho,
            2,
            Projection::Dense,
            0,
            &eigen,
        )
        .unwrap();
        assert!(!auto.dense && dense.dense, "ρ = {rho}: rank {}", dense.rank);
        assert_eq!(auto.rank, dense.rank);
        let scale = dense.top_values[0];
        let diff = (0..300)
            .flat_map(|j| (0..300).map(move |i| (i, j)))
            .map(|(i, j)| (auto.g[(i, j)] - dense.g[(i, j)]).abs())
            .fold(0.0, f64::max);
        assert!(diff < 1e-7 * scale, "ρ = {rho}: {diff}");
        let aligned = |nb: &Neighbourhood| {
            mkc_linalg::trace_quadratic(dense.g.as_ref(), nb.top.as_ref()).unwrap()
        };
        assert!((aligned(&auto) - aligned(&dense)).abs() < 1e-7 * scale);
    }
    // a full-rank kernel keeps every eigenvalue: the full decomposition is used
    let full = Mat::from_fn(300, 300, |i, j| kg[(i, j)] + if i == j { 0.5 } else { 0.0 });
    let big = neighbourhood_kernel(
        full.as_ref(),
        h.as_ref(),
        512.0,
        2,
        Projection::Auto,
        0,
        &eigen,
    )
    .unwrap();
    assert!(big.dense && big.rank == 300);
}
