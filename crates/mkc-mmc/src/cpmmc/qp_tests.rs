//! The interior-point solver of CPMMC's dual (`qp` module) against brute force over
//! active sets, closed forms and its KKT conditions, on random QPs and on CPMMC duals
//! that stalled earlier versions.

use super::dual::StepData;
use super::qp::{kkt_residuals, solve_std_qp, QpSolution};
use faer::{Mat, MatRef};
use mkc_core::Error;
use rand::Rng;

/// Brute force for `min ½xᵀQx + cᵀx, Ax = b, x ≥ 0`: every choice of the zero set, the
/// rest from the equality-constrained KKT system, keeping those with x ≥ 0 and z ≥ 0.
fn brute_force_qp(q: MatRef<'_, f64>, c: &[f64], a: MatRef<'_, f64>, b: &[f64]) -> f64 {
    use faer::linalg::solvers::Solve;
    let (nv, p) = (c.len(), b.len());
    let mut best = f64::INFINITY;
    for mask in 0u32..(1 << nv) {
        let free: Vec<usize> = (0..nv).filter(|i| mask & (1 << i) != 0).collect();
        let f = free.len();
        // [Q_FF  −A_Fᵀ; A_F 0] [x_F; y] = [−c_F; b], with a tiny ridge for singular Q_FF.
        let kkt = Mat::from_fn(f + p, f + p, |i, j| match (i < f, j < f) {
            (true, true) => q[(free[i], free[j])] + if i == j { 1e-13 } else { 0.0 },
            (true, false) => -a[(j - f, free[i])],
            (false, true) => a[(i - f, free[j])],
            _ => 0.0,
        });
        let rhs = Mat::from_fn(f + p, 1, |i, _| if i < f { -c[free[i]] } else { b[i - f] });
        let sol = kkt.full_piv_lu().solve(&rhs);
        let mut x = vec![0.0; nv];
        for (k, &i) in free.iter().enumerate() {
            x[i] = sol[(k, 0)];
        }
        let feasible = x.iter().all(|v| v.is_finite() && *v >= -1e-9)
            && (0..p).all(|r| ((0..nv).map(|j| a[(r, j)] * x[j]).sum::<f64>() - b[r]).abs() < 1e-7);
        if !feasible {
            continue;
        }
        let obj = 0.5
            * (0..nv)
                .map(|i| (0..nv).map(|j| x[i] * q[(i, j)] * x[j]).sum::<f64>())
                .sum::<f64>()
            + (0..nv).map(|i| c[i] * x[i]).sum::<f64>();
        best = best.min(obj);
    }
    best
}

fn qp_objective(q: MatRef<'_, f64>, c: &[f64], x: &[f64]) -> f64 {
    let nv = x.len();
    0.5 * (0..nv)
        .map(|i| (0..nv).map(|j| x[i] * q[(i, j)] * x[j]).sum::<f64>())
        .sum::<f64>()
        + (0..nv).map(|i| c[i] * x[i]).sum::<f64>()
}

#[test]
fn interior_point_matches_brute_force_on_small_qps() {
    let mut rng = mkc_core::seed::rng(7);
    for trial in 0..40 {
        let nv = 3 + trial % 4;
        let rank = 1 + trial % nv; // rank-deficient Q as in CPMMC's dual
        let g = Mat::from_fn(rank, nv, |_, _| rng.random_range(-1.0..1.0));
        let q = Mat::from_fn(nv, nv, |i, j| {
            (0..rank).map(|r| g[(r, i)] * g[(r, j)]).sum()
        });
        let c: Vec<f64> = (0..nv).map(|_| rng.random_range(-1.0..1.0)).collect();
        // Row 0: a budget 1ᵀx = 2 (bounded feasible set); row 1 (half the trials): random,
        // with b = A x₀ for a feasible x₀.
        let p = 1 + trial % 2;
        let a = Mat::from_fn(p, nv, |r, _| {
            if r == 0 {
                1.0
            } else {
                rng.random_range(-1.0..1.0)
            }
        });
        let x0: Vec<f64> = (0..nv).map(|_| rng.random_range(0.0..1.0)).collect();
        let t = 2.0 / x0.iter().sum::<f64>();
        let b: Vec<f64> = (0..p)
            .map(|r| (0..nv).map(|j| a[(r, j)] * x0[j] * t).sum())
            .collect();
        let sol = solve_std_qp(q.as_ref(), &c, a.as_ref(), &b, 1e-11, 200).unwrap();
        let (rp, rd, comp) = kkt_residuals(q.as_ref(), &c, a.as_ref(), &b, &sol);
        assert!(
            rp < 1e-9 && rd < 1e-9 && comp < 1e-9,
            "trial {trial}: {rp} {rd} {comp}"
        );
        assert!(sol.x.iter().chain(&sol.z).all(|v| *v >= 0.0));
        let ours = qp_objective(q.as_ref(), &c, &sol.x);
        let brute = brute_force_qp(q.as_ref(), &c, a.as_ref(), &b);
        assert!(
            (ours - brute).abs() < 1e-7,
            "trial {trial}: {ours} vs {brute}"
        );
    }
}

/// A CPMMC dual (Diabetes, linear kernel, C = 100, β = 0.3n; 3 cuts) on which Mehrotra's
/// steps without the safeguard cycle with μ ≈ 1e-2 for ever.
#[test]
fn interior_point_does_not_cycle_on_a_degenerate_cpmmc_dual() {
    let h = [
        [0.09215616198566381, 0.04343013430862101, 0.0478755545247423],
        [
            0.04343013430862101,
            0.022271170732513435,
            0.01964996237496381,
        ],
        [
            0.0478755545247423,
            0.01964996237496381,
            0.035518011004682604,
        ],
    ];
    let q = Mat::from_fn(6, 6, |i, j| if i < 3 && j < 3 { h[i][j] } else { 0.0 });
    let c = [
        -1.0,
        -0.4661458333333333,
        -0.5533854166666666,
        0.3,
        0.3,
        0.0,
    ];
    let s_bar = [
        -0.12239583333333316,
        -0.07031250000000001,
        0.016927083333333336,
    ];
    let a = Mat::from_fn(2, 6, |r, j| match (r, j) {
        (0, j) if j < 3 => s_bar[j],
        (0, 3) => -1.0,
        (0, 4) => 1.0,
        (1, j) if j != 3 && j != 4 => 1.0,
        _ => 0.0,
    });
    let b = [0.0, 100.0];
    let sol = solve_std_qp(q.as_ref(), &c, a.as_ref(), &b, 1e-10, 200).unwrap();
    let (rp, rd, comp) = kkt_residuals(q.as_ref(), &c, a.as_ref(), &b, &sol);
    assert!(rp < 1e-8 && rd < 1e-8 && comp < 1e-8, "{rp} {rd} {comp}");
    let brute = brute_force_qp(q.as_ref(), &c, a.as_ref(), &b);
    assert!((qp_objective(q.as_ref(), &c, &sol.x) - brute).abs() < 1e-7);
}

#[test]
fn interior_point_rejects_bad_input() {
    let q = Mat::<f64>::identity(2, 2);
    let a = Mat::from_fn(1, 2, |_, _| 1.0);
    let shape = solve_std_qp(q.as_ref(), &[0.0; 3], a.as_ref(), &[1.0], 1e-10, 50);
    assert!(matches!(shape, Err(Error::Shape { .. })), "{shape:?}");
    let nan = solve_std_qp(q.as_ref(), &[f64::NAN, 0.0], a.as_ref(), &[1.0], 1e-10, 50);
    assert!(matches!(nan, Err(Error::NonFinite { .. })), "{nan:?}");
    let capped = solve_std_qp(q.as_ref(), &[0.0, 0.0], a.as_ref(), &[1.0], 1e-14, 1);
    assert!(
        matches!(capped, Err(Error::NotConverged { .. })),
        "{capped:?}"
    );
}

/// Solve the standard-form dual of one CCCP step (`dual` module) with data `H`, `c̄`,
/// `s̄` at (C, κ) and check it: KKT residuals below 1e-8, the brute-force optimum.
fn solve_cpmmc_dual(step: StepData, c: f64, kappa: f64, what: &str) -> QpSolution {
    let (q, lin, a, b) = step.standard_form(c, kappa);
    let (q, a) = (q.as_ref(), a.as_ref());
    let sol = solve_std_qp(q, &lin, a, &b, 1e-10, 200).unwrap_or_else(|e| panic!("{what}: {e}"));
    let (rp, rd, comp) = kkt_residuals(q, &lin, a, &b, &sol);
    assert!(
        rp < 1e-8 && rd < 1e-8 && comp < 1e-8,
        "{what}: {rp} {rd} {comp}"
    );
    assert!(sol.x.iter().chain(&sol.z).all(|v| *v >= 0.0), "{what}");
    let (ours, brute) = (
        qp_objective(q, &lin, &sol.x),
        brute_force_qp(q, &lin, a, &b),
    );
    assert!((ours - brute).abs() < 1e-7, "{what}: {ours} vs {brute}");
    sol
}

/// The dual that stopped CPMMC on MNIST3vs8 (linear path, C = 5, β = 0.03n, seed 0 of the
/// LG-MMC run; two cuts). Its optimum is interior in λ, `λ = H⁻¹(c̄ − κs̄)` with
/// `ν₁ = s̄ᵀλ`, `ν₂ = 0` (only `b̃ ≤ κ` active). Without the safeguard's backtracking the
/// σ = 0.3 step raised μ (a QP's complementarity after a step of length α is
/// `(1 − α(1 − σ))μ + α²dxᵀQdx/N`), Mehrotra's next step lowered it again, and the
/// iterates cycled with period 4 (μ between 5e-3 and 2e-2) to the 200-iteration cap.
#[test]
fn interior_point_converges_on_the_mnist_3v8_dual_at_c_5() {
    let h = Mat::from_fn(2, 2, |i, j| {
        [
            [13.91696392990122, 5.493065521666655],
            [5.493065521666655, 3.567922086111069],
        ][i][j]
    });
    let c_bar = vec![0.9999999999999999, 0.5149649147930688];
    let s_bar = vec![0.08219962766719233, 0.062294142918515476];
    let kappa = 0.03;
    let step = StepData {
        h: h.clone(),
        c_bar: c_bar.clone(),
        s_bar: s_bar.clone(),
    };
    let sol = solve_cpmmc_dual(step, 5.0, kappa, "MNIST3vs8 C = 5");
    assert!(sol.iterations <= 30, "{} iterations", sol.iterations);
    // Closed form: H λ = c̄ − κ s̄ (2 × 2 inverse), ν₁ = s̄ᵀλ.
    let r = [c_bar[0] - kappa * s_bar[0], c_bar[1] - kappa * s_bar[1]];
    let det = h[(0, 0)] * h[(1, 1)] - h[(0, 1)] * h[(1, 0)];
    let lambda = [
        (h[(1, 1)] * r[0] - h[(0, 1)] * r[1]) / det,
        (h[(0, 0)] * r[1] - h[(1, 0)] * r[0]) / det,
    ];
    let nu1 = s_bar[0] * lambda[0] + s_bar[1] * lambda[1];
    let expect = [lambda[0], lambda[1], nu1, 0.0, 5.0 - lambda[0] - lambda[1]];
    for (i, (got, want)) in sol.x.iter().zip(expect).enumerate() {
        assert!(
            (got - want).abs() < 1e-8,
            "x[{i}] = {got}, closed form {want}"
        );
    }
}

/// Random CPMMC duals shaped like the ones of the feature path on MNIST (‖ã_j‖ large
/// against c̄ ≤ 1, small s̄), with duplicated and nearly parallel cuts (a singular or
/// ill-conditioned H), over LG-MMC's C grid and both balances: each converges to the
/// brute-force optimum.
#[test]
fn interior_point_converges_on_cpmmc_duals_with_repeated_cuts() {
    let mut rng = mkc_core::seed::rng(22);
    for trial in 0..120 {
        let (m, d) = (1 + trial % 4, 6);
        let scale = [0.1, 1.0, 4.0][trial % 3];
        let mut e = Mat::from_fn(d, m, |_, _| scale * rng.random_range(-1.0..1.0));
        let mut c_bar: Vec<f64> = (0..m).map(|_| rng.random_range(0.2..1.0)).collect();
        let mut s_bar: Vec<f64> = c_bar
            .iter()
            .map(|cb| cb * rng.random_range(-0.15..0.15))
            .collect();
        if m > 1 && trial % 2 == 0 {
            // The last cut repeats the first (exactly, or up to 1e-9).
            let eps = if trial % 4 == 0 { 0.0 } else { 1e-9 };
            for i in 0..d {
                e[(i, m - 1)] = e[(i, 0)] * (1.0 + eps);
            }
            c_bar[m - 1] = c_bar[0];
            s_bar[m - 1] = s_bar[0];
        }
        let h = Mat::from_fn(m, m, |j, k| (0..d).map(|i| e[(i, j)] * e[(i, k)]).sum());
        let c = [0.1, 0.5, 1.0, 5.0, 10.0, 100.0][trial % 6];
        let kappa = [0.03, 0.3][(trial / 6) % 2];
        let what = format!("trial {trial} (m = {m}, C = {c})");
        solve_cpmmc_dual(StepData { h, c_bar, s_bar }, c, kappa, &what);
    }
}

/// Duals within ±5 % of the MNIST3vs8 one (cut norms, their angle, c̄₂, s̄) at C = 5:
/// about half of them cycled to the iteration cap before the safeguard backtracked.
#[test]
fn interior_point_converges_near_the_mnist_3v8_dual() {
    let mut rng = mkc_core::seed::rng(22);
    for trial in 0..200 {
        let mut p = || 1.0 + 0.05 * rng.random_range(-1.0..1.0);
        let (n0, n1) = (13.917f64.sqrt() * p(), 3.568f64.sqrt() * p());
        let g = n0 * n1 * 0.776 * p();
        let h = Mat::from_fn(2, 2, |i, j| [[n0 * n0, g], [g, n1 * n1]][i][j]);
        let c_bar = vec![1.0, 0.515 * p()];
        let s_bar = vec![0.0822 * p(), 0.0623 * p()];
        let what = format!("trial {trial}");
        solve_cpmmc_dual(StepData { h, c_bar, s_bar }, 5.0, 0.03, &what);
    }
}
