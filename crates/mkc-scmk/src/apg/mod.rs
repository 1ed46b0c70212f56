//! The Z step (11) for all columns at once by an accelerated projected gradient
//! (FISTA, Beck & Teboulle 2009), the solver the issue asks for.
//!
//! Every column i solves min f_i(z) = zᵀ(αI + K)z + c_iᵀz over {1ᵀz = 1, 0 ≤ z ≤ 1}
//! (c_i = β/2 · d_i − 2K_{:,i}). On that set the cap z ≤ 1 is implied by z ≥ 0 and
//! 1ᵀz = 1, so the projection is the one onto the probability simplex (computed exactly,
//! [`project_simplex`]). All columns share the Hessian 2(αI + K), so the gradients of a
//! block of columns are one matrix product.
//!
//! Choices (not in the paper, which says "many existing QP packages"):
//! - **Step.** Every iterate lies in the affine hull {1ᵀz = 1}, whose directions d have
//!   1ᵀd = 0; on it the gradient is Lipschitz with L = 2(α + λ_max(ΠKΠ)), Π = I − 11ᵀ/n
//!   (the constant direction, where kernels with positive entries have their largest
//!   eigenvalue, does not count). The step is 1/L with λ_max(ΠKΠ) from
//!   [`tangent_lambda_max`](crate::lipschitz::tangent_lambda_max); SCMK bounds it for
//!   K_w = Σ w_i K^i by Σ w_i λ_max(ΠK^iΠ) (each computed once per fit).
//! - **Monotone with restart.** A candidate whose objective exceeds the current
//!   iterate's is rejected and the momentum of that column restarts (t = 1): the next step
//!   is then a plain projected gradient step, which cannot increase f in exact
//!   arithmetic (an increase of a plain step at rounding level, ≤ 1e-13 max(|f|, 1), is
//!   accepted at most 8 times per column). So f never increases beyond rounding and the
//!   Z step never increases J of (7)/(18) when warm-started from the previous Z. Changes
//!   of f are computed as (x − z)ᵀ(α(x + z) + Kx + Kz + c), accurate to the size of the
//!   change. One product K·z per iteration: K·y of the extrapolated point is the same
//!   combination of the stored K·z_k and K·z_{k−1}.
//! - **Stopping.** A column stops when its KKT violation (mkc-qp's measure
//!   max_{z_j>0} g_j − min_{z_j<1} g_j, g the gradient of f, the same measure as the SMO
//!   path) is at most `tol`, or when a plain projected gradient step no longer decreases
//!   f (rounding level); the step stops at `max_iter` iterations (reported as not
//!   converged).
//! - **Work.** Columns are solved in fixed blocks of [`BLOCK`] (in parallel; each block
//!   is sequential, so results do not depend on the number of threads). Products with
//!   columns having at most n/[`SPARSE_RATIO`] non-zeros are sparse sums of kernel
//!   columns (small α gives sparse Z); the others go through one faer product per block.

use faer::linalg::solvers::Solve;
use faer::{Mat, MatRef, Side};
use mkc_core::Result;
use mkc_qp::{CappedSimplexSolver, QpMatrix};

mod block;

use block::{solve_block, BlockOut};
use rayon::prelude::*;

/// Columns per block.
pub(crate) const BLOCK: usize = 16;
/// A column with at most n / SPARSE_RATIO non-zeros is multiplied as a sparse vector.
pub(crate) const SPARSE_RATIO: usize = 8;
/// With SMO enabled ([`crate::ZSolver::Auto`]), a column whose start has at most
/// n / SMO_RATIO non-zeros is solved by SMO.
pub(crate) const SMO_RATIO: usize = 2;
/// SMO's pair-update budget per column is n / SMO_BUDGET_DIV (alternate module).
pub(crate) const SMO_BUDGET_DIV: usize = 4;

/// What the APG Z step returns.
pub(crate) struct ApgOut {
    pub z: Mat<f64>,
    /// Σ_i f_i(z_i).
    pub objective: f64,
    pub max_kkt_violation: f64,
    /// Largest number of iterations over the blocks.
    pub iterations: usize,
    /// SMO pair updates of the columns finished by SMO.
    pub pair_updates: usize,
    pub converged: bool,
}

/// Exact Euclidean projection of `v` onto the probability simplex, in place.
///
/// θ with Σ max(v_i − θ, 0) = 1 satisfies θ ≥ max v − 1, so only entries above
/// max v − 1 can be positive; Michelot's fixed point (θ ← (Σ_{I} v − 1)/|I|, drop
/// v_i ≤ θ from I) then finds θ from that superset of the support in a few passes.
pub(crate) fn project_simplex(v: &mut [f64], buf: &mut Vec<f64>) {
    let vmax = v.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    buf.clear();
    buf.extend(v.iter().copied().filter(|&x| x > vmax - 1.0));
    let theta = loop {
        let theta = (buf.iter().sum::<f64>() - 1.0) / buf.len() as f64;
        let before = buf.len();
        buf.retain(|&x| x > theta);
        if buf.len() == before || buf.is_empty() {
            break theta;
        }
    };
    for x in v.iter_mut() {
        *x = (*x - theta).max(0.0);
    }
}

/// The SMO solvers of [`crate::ZSolver::Auto`]: `exact` runs to its tolerance, `capped`
/// stops after a budget of pair updates per column. The budget applies when the
/// projected equality-constrained start has not been computed: a column that exhausts it
/// (its solution is much denser than its start) is then finished by APG from the better
/// of its SMO iterate and that start ([`solve`]).
#[derive(Clone, Copy)]
pub(crate) struct SmoSolvers<'a> {
    pub exact: &'a CappedSimplexSolver,
    pub capped: &'a CappedSimplexSolver,
}

/// The problem data shared by the column blocks.
pub(crate) struct Problem<'a> {
    /// K (exactly symmetric) as an n² column-major slice.
    pub kc: &'a [f64],
    /// The n x n linear terms C.
    pub c: MatRef<'a, f64>,
    pub alpha: f64,
    /// An upper bound on λ_max(ΠKΠ).
    pub lam: f64,
    pub tol: f64,
    pub max_iter: usize,
    /// Also try the projected equality-constrained minimiser as a start ([`newton_start`]).
    pub newton: bool,
    /// Solve columns whose start is sparse by SMO (`None`: APG for every column).
    pub smo: Option<SmoSolvers<'a>>,
}

/// Solve (11) for every column from `warm` (projected onto the simplex if infeasible;
/// the identity when `None`).
pub(crate) fn solve(pb: &Problem<'_>, warm: Option<MatRef<'_, f64>>) -> Result<ApgOut> {
    let n = pb.c.nrows();
    let lip = 2.0 * (pb.alpha + pb.lam.max(0.0));
    let newton = if pb.newton { newton_start(pb) } else { None };
    let q = match pb.smo {
        Some(_) => {
            let q = Mat::from_fn(n, n, |i, j| {
                2.0 * pb.kc[j * n + i] + if i == j { 2.0 * pb.alpha } else { 0.0 }
            });
            Some(q)
        }
        None => None,
    };
    let qm = match &q {
        Some(q) => Some(QpMatrix::new(q.as_ref())?),
        None => None,
    };
    let starts: Vec<usize> = (0..n).step_by(BLOCK).collect();
    let smo = match (pb.smo, &qm) {
        (Some(s), Some(q)) if newton.is_some() => Some((s.exact, q)),
        (Some(s), Some(q)) => Some((s.capped, q)),
        _ => None,
    };
    let mut blocks: Vec<BlockOut> = starts
        .par_iter()
        .map(|&j0| {
            let b = BLOCK.min(n - j0);
            let mut z0 = vec![0.0; n * b];
            for (jj, col) in z0.chunks_mut(n).enumerate() {
                match warm {
                    Some(w) => {
                        for (i, x) in col.iter_mut().enumerate() {
                            *x = w[(i, j0 + jj)];
                        }
                    }
                    None => col[j0 + jj] = 1.0,
                }
            }
            let zn = newton.as_ref().map(|m| block_of(m.as_ref(), j0, b));
            let cb = block_of(pb.c, j0, b);
            solve_block(pb, n, &cb, z0, zn, lip, smo)
        })
        .collect();
    // SMO ran out of its budget on some column (its solution is much denser than the
    // start): finish those blocks by APG, now also from the projected equality-
    // constrained minimiser, which is close to the solution when it has few zeros.
    if newton.is_none() && blocks.iter().any(|b| b.smo_exhausted) {
        if let Some(m) = newton_start(pb) {
            let redo: Vec<(BlockOut, usize)> = starts
                .par_iter()
                .zip(&blocks)
                .enumerate()
                .filter(|(_, (_, blk))| blk.smo_exhausted)
                .map(|(t, (&j0, blk))| {
                    let b = BLOCK.min(n - j0);
                    let zn = block_of(m.as_ref(), j0, b);
                    let cb = block_of(pb.c, j0, b);
                    let mut out = solve_block(pb, n, &cb, blk.z.clone(), Some(zn), lip, None);
                    out.pair_updates += blk.pair_updates;
                    out.iterations += blk.iterations;
                    (out, t)
                })
                .collect();
            for (out, t) in redo {
                blocks[t] = out;
            }
        }
    }
    let mut z = Mat::<f64>::zeros(n, n);
    let mut out = ApgOut {
        z: Mat::new(),
        objective: 0.0,
        max_kkt_violation: f64::NEG_INFINITY,
        iterations: 0,
        pair_updates: 0,
        converged: true,
    };
    for (&j0, blk) in starts.iter().zip(&blocks) {
        for (jj, col) in blk.z.chunks(n).enumerate() {
            for (i, &x) in col.iter().enumerate() {
                z[(i, j0 + jj)] = x;
            }
        }
        out.objective += blk.objective;
        out.max_kkt_violation = out.max_kkt_violation.max(blk.max_kkt);
        out.iterations = out.iterations.max(blk.iterations);
        out.pair_updates += blk.pair_updates;
        out.converged &= blk.converged;
    }
    out.z = z;
    Ok(out)
}

/// The minimiser of (11) on the affine hull {1ᵀz = 1} (dropping z ≥ 0), projected onto
/// the simplex: z_i = A_i + μ_i u with A = −H⁻¹C/2, u = H⁻¹1, H = αI + K and μ_i fixing
/// 1ᵀz_i = 1. Exact when the solution has no zeros, which is the regime (large α, dense
/// Z) where APG from the previous Z needs most iterations. One Cholesky factorisation of
/// H and one solve with n + 1 right-hand sides (faer). `None` if H is not numerically
/// positive definite.
fn newton_start(pb: &Problem<'_>) -> Option<Mat<f64>> {
    let n = pb.c.nrows();
    let h = Mat::from_fn(n, n, |i, j| {
        pb.kc[j * n + i] + if i == j { pb.alpha } else { 0.0 }
    });
    let llt = h.llt(Side::Lower).ok()?;
    let mut rhs = Mat::from_fn(
        n,
        n + 1,
        |i, j| if j < n { -0.5 * pb.c[(i, j)] } else { 1.0 },
    );
    llt.solve_in_place(rhs.as_mut());
    let u: Vec<f64> = (0..n).map(|i| rhs[(i, n)]).collect();
    let su: f64 = u.iter().sum();
    if !(su.is_finite() && su > 0.0) {
        return None;
    }
    let mut z = Mat::<f64>::zeros(n, n);
    let mut buf = Vec::with_capacity(n);
    let mut col = vec![0.0; n];
    for j in 0..n {
        let sa: f64 = (0..n).map(|i| rhs[(i, j)]).sum();
        let mu = (1.0 - sa) / su;
        for (i, x) in col.iter_mut().enumerate() {
            *x = rhs[(i, j)] + mu * u[i];
        }
        if col.iter().any(|x| !x.is_finite()) {
            return None;
        }
        project_simplex(&mut col, &mut buf);
        for (i, &x) in col.iter().enumerate() {
            z[(i, j)] = x;
        }
    }
    Some(z)
}

/// Columns j0..j0 + b of `m`, column-major.
fn block_of(m: MatRef<'_, f64>, j0: usize, b: usize) -> Vec<f64> {
    let n = m.nrows();
    let mut v = vec![0.0; n * b];
    for (jj, col) in v.chunks_mut(n).enumerate() {
        for (i, x) in col.iter_mut().enumerate() {
            *x = m[(i, j0 + jj)];
        }
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;
    use mkc_core::ParamGuard;
    use mkc_qp::CappedSimplexQp;

    /// Columns whose SMO budget runs out are finished by APG from the projected
    /// equality-constrained start: same solution as exact SMO, KKT within the tolerance.
    #[test]
    fn exhausted_smo_budget_is_finished_by_apg() {
        let n = 24;
        let x: Vec<f64> = (0..n)
            .map(|i| (i % 3) as f64 * 2.0 + 0.05 * i as f64)
            .collect();
        let kc: Vec<f64> = (0..n * n)
            .map(|t| (-(x[t % n] - x[t / n]).powi(2) / 8.0).exp())
            .collect();
        let c = Mat::from_fn(n, n, |i, j| {
            -2.0 * kc[j * n + i] + 0.01 * ((i * 7 + j) % 5) as f64
        });
        let exact = CappedSimplexQp::new(1.0).tol(1e-12).check().unwrap();
        let capped = CappedSimplexQp::new(1.0)
            .tol(1e-8)
            .max_iter(1)
            .check()
            .unwrap();
        let h = Mat::from_fn(n, n, |i, j| {
            2.0 * kc[j * n + i] + if i == j { 2.0 } else { 0.0 }
        });
        let q = QpMatrix::new(h.as_ref()).unwrap();
        // A sparse warm start: the next sample, so SMO gets every column.
        let warm = Mat::from_fn(n, n, |i, j| if i == (j + 1) % n { 1.0 } else { 0.0 });
        let lam = {
            let k = Mat::from_fn(n, n, |i, j| kc[j * n + i]);
            crate::lipschitz::tangent_lambda_max(k.as_ref(), 0).unwrap()
        };
        let pb = Problem {
            kc: &kc,
            c: c.as_ref(),
            alpha: 1.0,
            lam,
            tol: 1e-8,
            max_iter: 100_000,
            newton: false,
            smo: Some(SmoSolvers {
                exact: &exact,
                capped: &capped,
            }),
        };
        let out = solve(&pb, Some(warm.as_ref())).unwrap();
        assert!(
            out.converged && out.max_kkt_violation <= 1e-8,
            "{}",
            out.max_kkt_violation
        );
        assert!(out.iterations > 0, "APG finished the exhausted columns");
        for j in 0..n {
            let col: Vec<f64> = (0..n).map(|i| c[(i, j)]).collect();
            let w: Vec<f64> = (0..n).map(|i| warm[(i, j)]).collect();
            let sol = exact.solve(&q, &col, Some(&w)).unwrap();
            for i in 0..n {
                assert!((out.z[(i, j)] - sol.z[i]).abs() < 1e-6, "z[{i},{j}]");
            }
        }
    }

    #[test]
    fn simplex_projection_matches_mkc_qp() {
        let mut buf = Vec::new();
        let mut s = 7u64;
        for trial in 0..200 {
            let n = 1 + trial % 17;
            let v: Vec<f64> = (0..n)
                .map(|_| {
                    s = s
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    ((s >> 11) as f64 / (1u64 << 53) as f64 - 0.5) * (1.0 + (trial % 5) as f64)
                })
                .collect();
            let (mut a, mut b) = (v.clone(), v.clone());
            project_simplex(&mut a, &mut buf);
            mkc_qp::project_capped_simplex(&mut b, 1.0).unwrap();
            for (x, y) in a.iter().zip(&b) {
                assert!((x - y).abs() < 1e-12, "{v:?}: {a:?} vs {b:?}");
            }
            assert!((a.iter().sum::<f64>() - 1.0).abs() < 1e-12);
        }
    }
}
