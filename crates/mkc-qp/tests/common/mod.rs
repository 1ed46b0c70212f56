//! Independent reference: exhaustive active-set enumeration for tiny capped-simplex QPs.
#![allow(dead_code)]

use faer::Mat;

/// Solve the dense system a·x = b by faer's LU with partial pivoting; `None` when
/// (numerically) singular: a pivot below 1e-12.
fn solve(a: Vec<Vec<f64>>, b: Vec<f64>) -> Option<Vec<f64>> {
    use faer::linalg::solvers::Solve;
    let m = b.len();
    let lu = Mat::from_fn(m, m, |i, j| a[i][j]).partial_piv_lu();
    if (0..m).any(|i| lu.U()[(i, i)].abs() < 1e-12) {
        return None;
    }
    let x = lu.solve(Mat::from_fn(m, 1, |i, _| b[i]));
    Some((0..m).map(|i| x[(i, 0)]).collect())
}

pub fn objective(q: &Mat<f64>, c: &[f64], z: &[f64]) -> f64 {
    let n = c.len();
    let mut f = 0.0;
    for i in 0..n {
        f += c[i] * z[i];
        for j in 0..n {
            f += 0.5 * z[i] * q[(i, j)] * z[j];
        }
    }
    f
}

/// min ½zᵀQz + cᵀz over {0 ≤ z ≤ u, 1ᵀz = total} by enumerating every assignment of
/// each coordinate to {at 0, at u, free} (u = ∞ allowed), solving the equality-
/// constrained stationarity system on the free set, and keeping the best feasible
/// candidate. Exact for a positive definite Q (the optimum is one of the candidates).
pub fn exhaustive(q: &Mat<f64>, c: &[f64], u: f64, total: f64) -> Vec<f64> {
    let n = c.len();
    let states = if u.is_finite() { 3usize } else { 2 };
    let mut best: Option<(f64, Vec<f64>)> = None;
    for code in 0..states.pow(n as u32) {
        let mut s = vec![0usize; n];
        let mut cc = code;
        for v in s.iter_mut() {
            *v = cc % states;
            cc /= states;
        }
        // state 0: z = 0, 1: free, 2: z = u
        let free: Vec<usize> = (0..n).filter(|&i| s[i] == 1).collect();
        let mut z: Vec<f64> = (0..n).map(|i| if s[i] == 2 { u } else { 0.0 }).collect();
        let fixed_sum: f64 = z.iter().sum();
        if free.is_empty() {
            if (fixed_sum - total).abs() > 1e-12 {
                continue;
            }
        } else {
            let m = free.len();
            let mut a = vec![vec![0.0; m + 1]; m + 1];
            let mut b = vec![0.0; m + 1];
            for (r, &i) in free.iter().enumerate() {
                for (k, &j) in free.iter().enumerate() {
                    a[r][k] = q[(i, j)];
                }
                a[r][m] = -1.0; // − μ
                b[r] = -c[i]
                    - (0..n)
                        .filter(|&j| s[j] == 2)
                        .map(|j| q[(i, j)] * u)
                        .sum::<f64>();
                a[m][r] = 1.0;
            }
            b[m] = total - fixed_sum;
            let Some(x) = solve(a, b) else { continue };
            for (r, &i) in free.iter().enumerate() {
                z[i] = x[r];
            }
            if free.iter().any(|&i| z[i] < -1e-12 || z[i] > u + 1e-12) {
                continue;
            }
        }
        let f = objective(q, c, &z);
        if best.as_ref().is_none_or(|(bf, _)| f < *bf) {
            best = Some((f, z));
        }
    }
    best.expect("feasible set non-empty").1
}

/// ‖a − b‖².
pub fn dist2(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| (x - y).powi(2)).sum()
}
