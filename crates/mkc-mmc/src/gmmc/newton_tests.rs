//! The Newton step's work against the code it replaced (kept here as the reference): the
//! lower-triangular products equal faer's full products bit for bit, and the step, the
//! line search's barrier change and the domain's factor are those of the previous
//! allocation-per-step code, bit for bit, on iterates of several sizes (small products
//! through nano-gemm, large ones through the lower-triangular kernel, depths above one
//! block of 512).

use super::newton::*;
use super::relaxation::Relaxation;
use faer::linalg::matmul::matmul;
use faer::linalg::triangular_solve::solve_upper_triangular_in_place;
use faer::{Accum, Mat, Par};
use mkc_core::{Error, Result};

/// The previous `domain`: the factor of the whole slack matrix.
fn domain_reference(rel: &Relaxation, it: &Iterate) -> Option<Mat<f64>> {
    let positive = |v: &[f64]| v.iter().all(|&x| x > 0.0 && x.is_finite());
    if !(positive(&it.gamma) && positive(&it.eta) && it.nu.is_finite()) {
        return None;
    }
    cholesky(&rel.slack(&it.gamma, it.nu))
}

/// The previous `barrier_change` (fresh matrices per call).
fn barrier_change_reference(
    rel: &Relaxation,
    it: &Iterate,
    dir: &[f64],
    alpha: f64,
    t: f64,
    l: &Mat<f64>,
) -> Option<f64> {
    let (n, m, c) = (rel.n(), rel.m(), rel.c);
    let mut change = -alpha * dir[2 * n] * rel.beta * rel.beta;
    for i in 0..n {
        let (g, dg) = (it.gamma[i], alpha * dir[i]);
        let (e, de) = (it.eta[i], alpha * dir[n + i]);
        let (rg, re) = (dg / g, de / e);
        if rg.is_nan() || re.is_nan() || rg <= -1.0 || re <= -1.0 {
            return None;
        }
        // Δ[−u²/(4γ)] with u = C − η, du = −Δη, without cancellation.
        let (u, du) = (c - e, -de);
        let quad = -(2.0 * u * du * g + du * du * g - u * u * dg) / (4.0 * g * (g + dg));
        change += -de + quad + t * (rg.ln_1p() + re.ln_1p());
    }
    // S' − S = αΔν e_b e_bᵀ − Σ αΔγ_i a_i a_iᵀ.
    let root = Mat::from_fn(n, m, |i, j| rel.a[(i, j)] * (alpha * dir[i]).abs().sqrt());
    let signed = Mat::from_fn(n, m, |i, j| {
        if dir[i] > 0.0 {
            -root[(i, j)]
        } else {
            root[(i, j)]
        }
    });
    let mut ds = Mat::<f64>::zeros(m, m);
    matmul(
        ds.as_mut(),
        Accum::Replace,
        root.transpose(),
        signed.as_ref(),
        1.0,
        Par::Seq,
    );
    ds[(m - 1, m - 1)] += alpha * dir[2 * n];
    let half = lower_solve(l, ds.as_ref());
    let full = lower_solve(l, half.transpose());
    let mut shifted = Mat::from_fn(m, m, |i, j| 0.5 * (full[(i, j)] + full[(j, i)]));
    for i in 0..m {
        shifted[(i, i)] += 1.0;
    }
    let f = cholesky(&shifted)?;
    let logdet: f64 = (0..m).map(|i| 2.0 * (f[(i, i)] - 1.0).ln_1p()).sum();
    let total = change + t * logdet;
    total.is_finite().then_some(total)
}

/// The previous `newton_step` (the whole of P, the system filled row by row).
fn newton_step_reference(
    rel: &Relaxation,
    it: &Iterate,
    t: f64,
    l: &Mat<f64>,
) -> Result<NewtonStep> {
    let (n, m, c) = (rel.n(), rel.m(), rel.c);
    // Bᵀ = L⁻¹Aᵀ (m x n); w = L⁻¹e_b; P = BBᵀ into the γ-block of h.
    let bt = lower_solve(l, rel.a.transpose());
    let mut eb = Mat::<f64>::zeros(m, 1);
    eb[(m - 1, 0)] = 1.0;
    let w = lower_solve(l, eb.as_ref());
    let sbb: f64 = (0..m).map(|j| w[(j, 0)].powi(2)).sum();
    let mut h = Mat::<f64>::zeros(n + 1, n + 1);
    matmul(
        h.as_mut().submatrix_mut(0, 0, n, n),
        Accum::Replace,
        bt.transpose(),
        bt.as_ref(),
        1.0,
        Par::Seq,
    );
    let mut grad = vec![0.0; 2 * n + 1];
    let mut rhs = vec![0.0; n + 1];
    let mut elim = vec![(0.0, 0.0); n];
    let mut residual_cost = 0.0;
    for i in 0..n {
        let (g, e) = (it.gamma[i], it.eta[i]);
        let u = c - e;
        let q: f64 = (0..m).map(|j| bt[(j, i)] * w[(j, 0)]).sum();
        grad[i] = u * u / (4.0 * g * g) + t / g - t * h[(i, i)];
        grad[n + i] = -1.0 + u / (2.0 * g) + t / e;
        residual_cost += (g + c) * grad[i].abs() + e * grad[n + i].abs();
        for j in 0..n {
            h[(i, j)] = t * h[(i, j)] * h[(i, j)];
        }
        // Eliminate η_i: b = −∂²/∂γ∂η, d = −∂²/∂η².
        let b = u / (2.0 * g * g);
        let d = 1.0 / (2.0 * g) + t / (e * e);
        elim[i] = (b, d);
        h[(i, i)] += u * u / (2.0 * g * g * g) + t / (g * g) - b * b / d;
        rhs[i] = grad[i] - b * grad[n + i] / d;
        h[(i, n)] = -t * q * q;
        h[(n, i)] = h[(i, n)];
    }
    grad[2 * n] = -rel.beta * rel.beta + t * sbb;
    residual_cost += it.nu * grad[2 * n].abs();
    rhs[n] = grad[2 * n];
    h[(n, n)] = t * sbb * sbb;
    let x = solve_spd_reference(h, &rhs)?;
    let mut dir = vec![0.0; 2 * n + 1];
    for i in 0..n {
        let (b, d) = elim[i];
        dir[i] = x[i];
        dir[n + i] = (grad[n + i] - b * x[i]) / d;
    }
    dir[2 * n] = x[n];
    Ok(NewtonStep {
        grad,
        dir,
        residual_cost,
    })
}

/// The previous system solve (the factor of a copy, a ridge on failure).
fn solve_spd_reference(mut h: Mat<f64>, r: &[f64]) -> Result<Vec<f64>> {
    let k = h.nrows();
    let f = cholesky(&h).or_else(|| {
        let ridge = 1e-12 * (0..k).map(|i| h[(i, i)]).fold(0.0, f64::max);
        for i in 0..k {
            h[(i, i)] += ridge;
        }
        cholesky(&h)
    });
    let f = f.ok_or_else(|| Error::numerical("GMMC Newton system", "not positive definite"))?;
    let mut x = lower_solve(&f, Mat::from_fn(k, 1, |i, _| r[i]).as_ref());
    solve_upper_triangular_in_place(f.transpose(), x.as_mut(), Par::Seq);
    Ok((0..k).map(|i| x[(i, 0)]).collect())
}

/// Deterministic numbers in [−½, ½).
fn noise(i: usize, j: usize, salt: usize) -> f64 {
    let mut h = (i as u64)
        .wrapping_mul(0x9e37_79b9_7f4a_7c15)
        .wrapping_add((j as u64).wrapping_mul(0xbf58_476d_1ce4_e5b9))
        .wrapping_add(salt as u64);
    h ^= h >> 31;
    h = h.wrapping_mul(0x94d0_49bb_1331_11eb);
    h ^= h >> 29;
    (h >> 11) as f64 / (1u64 << 53) as f64 - 0.5
}

fn same(a: &Mat<f64>, b: &Mat<f64>) -> bool {
    a.nrows() == b.nrows()
        && a.ncols() == b.ncols()
        && (0..a.ncols())
            .all(|j| (0..a.nrows()).all(|i| a[(i, j)].to_bits() == b[(i, j)].to_bits()))
}

fn bits(v: &[f64]) -> Vec<u64> {
    v.iter().map(|x| x.to_bits()).collect()
}

#[test]
fn lower_product_is_the_full_products_lower_triangle() {
    // (depth k, size p): nano-gemm sizes, the switch at 16³, the kernel's edges, a depth
    // of more than one 512-block, a single column.
    for (k, p) in [
        (3, 5),
        (16, 16),
        (17, 16),
        (2, 60),
        (9, 132),
        (60, 61),
        (301, 200),
        (600, 40),
        (1200, 7),
        (50, 1),
    ] {
        for alpha in [1.0, -1.0] {
            let a = Mat::from_fn(k, p, |i, j| noise(i, j, k * p));
            let b = Mat::from_fn(k, p, |i, j| noise(i, j, k + p));
            for (lhs, rhs) in [(&a, &a), (&a, &b)] {
                let mut full = Mat::<f64>::zeros(p, p);
                matmul(
                    full.as_mut(),
                    Accum::Replace,
                    lhs.transpose(),
                    rhs.as_ref(),
                    alpha,
                    Par::Seq,
                );
                let mut lower = Mat::from_fn(p, p, |_, _| f64::NAN);
                lower_product(lower.as_mut(), lhs.as_ref(), rhs.as_ref(), alpha);
                for j in 0..p {
                    for i in j..p {
                        assert_eq!(
                            lower[(i, j)].to_bits(),
                            full[(i, j)].to_bits(),
                            "k = {k}, p = {p}, ({i}, {j})"
                        );
                    }
                }
            }
        }
    }
}

/// A relaxation on n samples with r features and an interior iterate: γ around the
/// solver's start (`1/(4‖Φ‖²)`, scaled by `spread`), η in (C/10, C), ν above 2Σγ.
fn problem(n: usize, r: usize, c: f64, spread: f64, salt: usize) -> (Relaxation, Iterate) {
    let phi = Mat::from_fn(n, r, |i, j| {
        noise(i, j, salt) + if i % 2 == 0 { 0.3 } else { -0.3 }
    });
    let rel = Relaxation::new(phi.as_ref(), c, 0.3 * n as f64).unwrap();
    let a = rel.design();
    let fro: f64 = (0..n)
        .map(|i| (0..r).map(|j| a[(i, j)].powi(2)).sum::<f64>())
        .sum();
    let g0 = 1.0 / (4.0 * fro);
    let gamma: Vec<f64> = (0..n)
        .map(|i| g0 * spread * (0.6 + noise(i, 0, salt + 1)))
        .collect();
    let eta: Vec<f64> = (0..n)
        .map(|i| c * (0.55 + 0.8 * noise(i, 1, salt + 2)))
        .collect();
    let nu = 2.0 * gamma.iter().sum::<f64>() * (1.5 + noise(0, 2, salt));
    (rel, Iterate { gamma, eta, nu })
}

#[test]
fn newton_step_line_search_and_domain_are_the_previous_code_bit_for_bit() {
    // (n, r): tiny (nano-gemm everywhere), linear-kernel shapes, a Gaussian rank 300.
    for (n, r, c) in [
        (8, 2, 1.0),
        (20, 5, 100.0),
        (132, 8, 0.1),
        (351, 34, 5.0),
        (400, 300, 1.0),
    ] {
        let mut ws = Workspace::new(&problem(n, r, c, 1.0, 0).0);
        for (spread, t) in [(1.0, 1.0), (3.0, 1e-3), (3.9, 1e-6)] {
            let (rel, it) = problem(n, r, c, spread, n + r);
            let l = domain(&rel, &it, &mut ws).expect("in the domain");
            let l_ref = domain_reference(&rel, &it).unwrap();
            assert!(same(&l, &l_ref), "domain n = {n}, r = {r}");
            let step = newton_step(&rel, &it, t, &l, &mut ws).unwrap();
            let step_ref = newton_step_reference(&rel, &it, t, &l_ref).unwrap();
            assert_eq!(
                bits(&step.grad),
                bits(&step_ref.grad),
                "gradient n = {n}, r = {r}"
            );
            assert_eq!(
                bits(&step.dir),
                bits(&step_ref.dir),
                "direction n = {n}, r = {r}, t = {t}"
            );
            assert_eq!(
                step.residual_cost.to_bits(),
                step_ref.residual_cost.to_bits()
            );
            for alpha in [1.0, 0.37, 1e-3] {
                let change = barrier_change(&rel, &it, &step.dir, alpha, t, &l, &mut ws);
                let change_ref = barrier_change_reference(&rel, &it, &step.dir, alpha, t, &l_ref);
                assert_eq!(change.map(f64::to_bits), change_ref.map(f64::to_bits));
            }
        }
    }
}

#[test]
fn the_factor_in_the_workspace_is_read_only_below_the_diagonal() {
    // The system is factored in place with its strict upper triangle left as it was
    // (garbage from earlier steps): the solve must not read it.
    let (rel, it) = problem(150, 20, 1.0, 1.0, 9);
    let mut ws = Workspace::new(&rel);
    let l = domain(&rel, &it, &mut ws).unwrap();
    let first = newton_step(&rel, &it, 0.1, &l, &mut ws).unwrap();
    ws.poison_upper();
    let again = newton_step(&rel, &it, 0.1, &l, &mut ws).unwrap();
    assert_eq!(bits(&first.dir), bits(&again.dir));
    assert!(first.dir.iter().all(|d| d.is_finite()));
}
