//! Shared helpers: random kernels and problems, an independent KKT check, and a
//! brute-force active-set reference for small problems.
#![allow(dead_code, clippy::needless_range_loop)]

use faer::Mat;
use mkc_svm::{Problem, QMatrix, Smo, SmoSolution};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

pub fn rng(seed: u64) -> StdRng {
    StdRng::seed_from_u64(seed)
}

/// Gram matrix of `n` random points in `d` dimensions plus `ridge · I` (PD when ridge > 0).
pub fn random_gram(r: &mut StdRng, n: usize, d: usize, ridge: f64) -> Mat<f64> {
    let x = Mat::from_fn(n, d, |_, _| r.random::<f64>() * 2.0 - 1.0);
    let mut k = &x * x.transpose();
    for i in 0..n {
        k[(i, i)] += ridge;
    }
    // exact symmetry
    Mat::from_fn(n, n, |i, j| 0.5 * (k[(i, j)] + k[(j, i)]))
}

/// RBF kernel exp(−γ‖x_i − x_j‖²) of random points.
pub fn random_rbf(r: &mut StdRng, n: usize, d: usize, gamma: f64) -> (Mat<f64>, Vec<f64>) {
    let x = Mat::from_fn(n, d, |_, _| r.random::<f64>() * 2.0 - 1.0);
    let y: Vec<f64> = (0..n)
        .map(|i| {
            if x[(i, 0)] + 0.3 * (r.random::<f64>() - 0.5) > 0.0 {
                1.0
            } else {
                -1.0
            }
        })
        .collect();
    let k = Mat::from_fn(n, n, |i, j| {
        let d2: f64 = (0..d).map(|c| (x[(i, c)] - x[(j, c)]).powi(2)).sum();
        (-gamma * d2).exp()
    });
    (k, y)
}

/// Labels with both classes present.
pub fn random_labels(r: &mut StdRng, n: usize) -> Vec<f64> {
    loop {
        let y: Vec<f64> = (0..n)
            .map(|_| if r.random::<bool>() { 1.0 } else { -1.0 })
            .collect();
        if y.iter().any(|&v| v > 0.0) && y.iter().any(|&v| v < 0.0) {
            return y;
        }
    }
}

pub fn dense_q(q: &dyn QMatrix) -> Mat<f64> {
    let n = q.size();
    Mat::from_fn(n, n, |i, j| q.entry(i, j))
}

pub fn objective(q: &Mat<f64>, p: &[f64], a: &[f64]) -> f64 {
    let n = a.len();
    let mut s = 0.0;
    for i in 0..n {
        for j in 0..n {
            s += 0.5 * a[i] * q[(i, j)] * a[j];
        }
        s += p[i] * a[i];
    }
    s
}

/// The data of `min ½αᵀQα + pᵀα, yᵀα = Δ, l ≤ α ≤ u` apart from Q, owned, so that
/// tests can build, vary and pass them around.
#[derive(Clone, Debug)]
pub struct Parts {
    pub p: Vec<f64>,
    pub y: Vec<f64>,
    pub delta: f64,
    pub lo: Vec<f64>,
    pub up: Vec<f64>,
}

impl Parts {
    /// The C-SVC dual: p = −1, 0 ≤ α ≤ C, yᵀα = 0.
    pub fn csvc(y: &[f64], c: f64) -> Self {
        let n = y.len();
        Parts {
            p: vec![-1.0; n],
            y: y.to_vec(),
            delta: 0.0,
            lo: vec![0.0; n],
            up: vec![c; n],
        }
    }

    /// The simplex: p = 0, α ≥ 0, Σα = 1.
    pub fn simplex(n: usize) -> Self {
        Parts {
            p: vec![0.0; n],
            y: vec![1.0; n],
            delta: 1.0,
            lo: vec![0.0; n],
            up: vec![f64::INFINITY; n],
        }
    }

    /// The borrowed form the solver takes.
    pub fn problem(&self) -> Problem<'_> {
        Problem {
            p: &self.p,
            y: &self.y,
            delta: self.delta,
            lower: &self.lo,
            upper: &self.up,
        }
    }

    /// `smo.solve(q, problem, start)`.
    pub fn solve<Q: QMatrix + ?Sized>(
        &self,
        smo: &Smo,
        q: &Q,
        start: Option<&[f64]>,
    ) -> mkc_core::Result<SmoSolution> {
        smo.solve(q, &self.problem(), start)
    }
}

/// Independent KKT check: returns (max violation max(0, m − M), box violation, equality
/// residual).
pub fn kkt(q: &Mat<f64>, parts: &Parts, a: &[f64]) -> (f64, f64, f64) {
    let Parts {
        p,
        y,
        delta,
        lo,
        up,
    } = parts;
    let n = a.len();
    let g: Vec<f64> = (0..n)
        .map(|i| p[i] + (0..n).map(|j| q[(i, j)] * a[j]).sum::<f64>())
        .collect();
    let (mut m_up, mut m_low) = (f64::NEG_INFINITY, f64::NEG_INFINITY);
    let mut box_viol = 0.0f64;
    for t in 0..n {
        box_viol = box_viol.max(lo[t] - a[t]).max(a[t] - up[t]);
        let in_up = if y[t] > 0.0 {
            a[t] < up[t]
        } else {
            a[t] > lo[t]
        };
        let in_low = if y[t] > 0.0 {
            a[t] > lo[t]
        } else {
            a[t] < up[t]
        };
        if in_up {
            m_up = m_up.max(-y[t] * g[t]);
        }
        if in_low {
            m_low = m_low.max(y[t] * g[t]);
        }
    }
    // the solver reports max(0, m − M): a strictly optimal point has violation 0
    let viol = if m_up.is_finite() && m_low.is_finite() {
        (m_up + m_low).max(0.0)
    } else {
        0.0
    };
    let eq = (y.iter().zip(a).map(|(y, a)| y * a).sum::<f64>() - delta).abs();
    (viol, box_viol, eq)
}

/// Solve a small dense system by Gaussian elimination with partial pivoting.
fn solve_dense(mut a: Vec<Vec<f64>>, mut b: Vec<f64>) -> Option<Vec<f64>> {
    let m = b.len();
    for c in 0..m {
        let piv = (c..m).max_by(|&i, &j| a[i][c].abs().total_cmp(&a[j][c].abs()))?;
        if a[piv][c].abs() < 1e-13 {
            return None;
        }
        a.swap(c, piv);
        b.swap(c, piv);
        for r in c + 1..m {
            let f = a[r][c] / a[c][c];
            if f != 0.0 {
                for k in c..m {
                    a[r][k] -= f * a[c][k];
                }
                b[r] -= f * b[c];
            }
        }
    }
    let mut x = vec![0.0; m];
    for r in (0..m).rev() {
        let s: f64 = (r + 1..m).map(|k| a[r][k] * x[k]).sum();
        x[r] = (b[r] - s) / a[r][r];
    }
    Some(x)
}

/// Brute-force optimum of `min ½αᵀQα + pᵀα, yᵀα = Δ, l ≤ α ≤ u` for a positive
/// definite Q: enumerate every assignment of each variable to {lower, upper, free},
/// solve the equality-constrained KKT system on the free set, keep the best feasible
/// point. (For PD Q the optimum is the face minimiser of its own face.)
pub fn brute_force(q: &Mat<f64>, parts: &Parts) -> (f64, Vec<f64>) {
    let Parts {
        p,
        y,
        delta,
        lo,
        up,
    } = parts;
    let n = p.len();
    let mut best = (f64::INFINITY, vec![]);
    let mut code = vec![0u8; n]; // 0 free, 1 lower, 2 upper
    loop {
        let ok = (0..n).all(|t| match code[t] {
            1 => lo[t].is_finite(),
            2 => up[t].is_finite() && up[t] > lo[t],
            _ => up[t] > lo[t],
        });
        if ok {
            let mut a = vec![0.0; n];
            let free: Vec<usize> = (0..n).filter(|&t| code[t] == 0).collect();
            for t in 0..n {
                match code[t] {
                    1 => a[t] = lo[t],
                    2 => a[t] = up[t],
                    _ => {}
                }
            }
            let feasible = if free.is_empty() {
                (y.iter().zip(&a).map(|(y, a)| y * a).sum::<f64>() - delta).abs() < 1e-10
            } else {
                let m = free.len();
                let mut mat = vec![vec![0.0; m + 1]; m + 1];
                let mut rhs = vec![0.0; m + 1];
                for (r, &i) in free.iter().enumerate() {
                    for (c, &j) in free.iter().enumerate() {
                        mat[r][c] = q[(i, j)];
                    }
                    mat[r][m] = y[i];
                    mat[m][r] = y[i];
                    rhs[r] = -p[i]
                        - (0..n)
                            .filter(|&j| code[j] != 0)
                            .map(|j| q[(i, j)] * a[j])
                            .sum::<f64>();
                }
                rhs[m] = delta
                    - (0..n)
                        .filter(|&j| code[j] != 0)
                        .map(|j| y[j] * a[j])
                        .sum::<f64>();
                match solve_dense(mat, rhs) {
                    Some(x) => {
                        for (r, &i) in free.iter().enumerate() {
                            a[i] = x[r];
                        }
                        free.iter()
                            .all(|&i| a[i] >= lo[i] - 1e-12 && a[i] <= up[i] + 1e-12)
                    }
                    None => false,
                }
            };
            if feasible {
                let f = objective(q, p, &a);
                if f < best.0 {
                    best = (f, a);
                }
            }
        }
        // next code
        let mut t = 0;
        loop {
            if t == n {
                return best;
            }
            code[t] += 1;
            if code[t] == 3 {
                code[t] = 0;
                t += 1;
            } else {
                break;
            }
        }
    }
}
