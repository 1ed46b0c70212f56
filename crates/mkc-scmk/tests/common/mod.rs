//! Shared by the acceptance tests: small data, kernels, the KKT conditions of (11)
//! recomputed from scratch, and the parameter builders.
#![allow(dead_code)]

use faer::{Mat, MatRef};
use mkc_scmk::{ScmkParams, ScskParams, ZSolver};

pub const SOLVERS: [ZSolver; 3] = [ZSolver::Auto, ZSolver::Apg, ZSolver::Smo];

/// Deterministic pseudo-random numbers in [0, 1).
pub fn lcg(seed: u64) -> impl FnMut() -> f64 {
    let mut s = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    move || {
        s = s
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (s >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// `groups` clusters of `m` points in 3-d around well separated centres, plus noise.
pub fn points(groups: usize, m: usize, spread: f64, seed: u64) -> Mat<f64> {
    let mut r = lcg(seed);
    Mat::from_fn(groups * m, 3, |i, j| {
        let g = (i / m) as f64;
        let centre = if j == 0 {
            4.0 * g
        } else {
            (g * (j as f64 + 1.0)).sin()
        };
        centre + spread * (r() - 0.5)
    })
}

pub fn gaussian(x: MatRef<'_, f64>, s: f64) -> Mat<f64> {
    let n = x.nrows();
    Mat::from_fn(n, n, |i, j| {
        let d: f64 = (0..x.ncols())
            .map(|t| (x[(i, t)] - x[(j, t)]).powi(2))
            .sum();
        (-d / s).exp()
    })
}

pub fn linear_scaled(x: MatRef<'_, f64>) -> Mat<f64> {
    let n = x.nrows();
    let k = Mat::from_fn(n, n, |i, j| {
        (0..x.ncols()).map(|t| x[(i, t)] * x[(j, t)]).sum::<f64>()
    });
    let mx = (0..n)
        .flat_map(|j| (0..n).map(move |i| (i, j)))
        .fold(0.0f64, |m, (i, j)| m.max(k[(i, j)]));
    Mat::from_fn(n, n, |i, j| k[(i, j)] / mx)
}

/// max over columns of the KKT violation of (11), recomputed from scratch, and the
/// largest feasibility error.
pub fn kkt_of_11(
    k: MatRef<'_, f64>,
    p: MatRef<'_, f64>,
    z: MatRef<'_, f64>,
    alpha: f64,
    beta: f64,
) -> (f64, f64) {
    let n = k.nrows();
    let (mut viol, mut feas) = (f64::NEG_INFINITY, 0.0f64);
    for i in 0..n {
        let g: Vec<f64> = (0..n)
            .map(|j| {
                let kz: f64 = (0..n).map(|a| k[(j, a)] * z[(a, i)]).sum();
                let d: f64 = (0..p.ncols())
                    .map(|t| (p[(i, t)] - p[(j, t)]).powi(2))
                    .sum();
                2.0 * (alpha * z[(j, i)] + kz) + 0.5 * beta * d - 2.0 * k[(j, i)]
            })
            .collect();
        let hi = (0..n)
            .filter(|&j| z[(j, i)] > 0.0)
            .map(|j| g[j])
            .fold(f64::NEG_INFINITY, f64::max);
        let lo = (0..n)
            .filter(|&j| z[(j, i)] < 1.0)
            .map(|j| g[j])
            .fold(f64::INFINITY, f64::min);
        viol = viol.max(hi - lo);
        let sum: f64 = (0..n).map(|j| z[(j, i)]).sum();
        feas = feas.max((sum - 1.0).abs());
        for j in 0..n {
            feas = feas.max((-z[(j, i)]).max(z[(j, i)] - 1.0));
        }
    }
    (viol, feas)
}

pub fn combine(w: &[f64], ks: &[Mat<f64>]) -> Mat<f64> {
    let n = ks[0].nrows();
    Mat::from_fn(n, n, |i, j| {
        w.iter().zip(ks).map(|(a, k)| a * k[(i, j)]).sum()
    })
}

/// SCSK with α and β.
pub fn scsk(alpha: f64, beta: f64) -> ScskParams {
    ScskParams::new().alpha(alpha).beta(beta)
}

/// SCMK with α and β.
pub fn scmk(alpha: f64, beta: f64) -> ScmkParams {
    ScmkParams::new().alpha(alpha).beta(beta)
}
