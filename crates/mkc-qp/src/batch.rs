//! Many capped-simplex QPs sharing one Q (SCMK: every column of Z at once).

use faer::{Accum, Mat, MatRef, Par};
use mkc_core::{validate, Result};
use rayon::prelude::*;

use crate::capped_qp::{cold_start, gradient, CappedSimplexSolver, QpMatrix};
use crate::project::{check_upper, make_feasible};

/// Solutions of m problems min ½zᵀQz + c_kᵀz (column k of C) over the capped simplex.
#[derive(Debug, Clone)]
pub struct BatchSolution {
    /// n x m, column k the minimiser of problem k.
    pub z: Mat<f64>,
    /// Objective of each problem.
    pub objective: Vec<f64>,
    /// Final KKT violation of each problem (see [`crate::kkt_violation`]).
    pub kkt_violation: Vec<f64>,
    /// Pair updates performed for each problem.
    pub n_iter: Vec<usize>,
    /// Per-problem convergence (violation ≤ tol).
    pub converged: Vec<bool>,
}

impl BatchSolution {
    /// Whether every problem converged.
    pub fn all_converged(&self) -> bool {
        self.converged.iter().all(|&c| c)
    }
    /// The largest KKT violation.
    pub fn max_kkt_violation(&self) -> f64 {
        self.kkt_violation
            .iter()
            .cloned()
            .fold(f64::NEG_INFINITY, f64::max)
    }
}

impl CappedSimplexSolver {
    /// Solve the m problems given by the columns of C (n x m), all with the same Q, in
    /// parallel over columns (rayon; each column is deterministic, so the result does
    /// not depend on the number of threads).
    ///
    /// Warm start `warm` (n x m, e.g. the previous SCMK iterate; each column projected
    /// onto the capped simplex unless already feasible). The starting gradients G = Q·Z₀ + C come from one
    /// faer matmul when Z₀ is dense (more than 1/8 non-zeros), and from the non-zeros of
    /// each column otherwise (O(n · nnz) — cheaper for the sparse SCMK iterates). Without
    /// a warm start each column starts at its best vertex (see [`Self::solve`]).
    pub fn solve_batch(
        &self,
        q: &QpMatrix<'_>,
        c: MatRef<'_, f64>,
        warm: Option<MatRef<'_, f64>>,
    ) -> Result<BatchSolution> {
        let n = q.dim();
        let m = c.ncols();
        validate::dims("C", c, n, m)?;
        validate::finite("C", c)?;
        check_upper(self.params().upper, n)?;
        let u = self.params().upper;
        // Column-major copies we own and update in place.
        let cm = c.to_owned();
        let mut z = match warm {
            Some(w) => {
                validate::dims("warm start", w, n, m)?;
                validate::finite("warm start", w)?;
                let mut z = w.to_owned();
                z.par_col_iter_mut().for_each(|col| {
                    let col = col
                        .try_as_col_major_mut()
                        .expect("owned Mat columns are contiguous");
                    make_feasible(col.as_slice_mut(), u);
                });
                z
            }
            None => {
                let mut z = Mat::<f64>::zeros(n, m);
                z.par_col_iter_mut().enumerate().for_each(|(k, col)| {
                    let col = col
                        .try_as_col_major_mut()
                        .expect("owned Mat columns are contiguous");
                    col.as_slice_mut()
                        .copy_from_slice(&cold_start(cm.col_as_slice(k), u));
                });
                z
            }
        };
        let nnz: usize = (0..m)
            .map(|k| z.col_as_slice(k).iter().filter(|&&v| v != 0.0).count())
            .sum();
        let dense_start = nnz * 8 > n * m;
        let mut g = cm.clone();
        if dense_start {
            faer::linalg::matmul::matmul(
                g.as_mut(),
                Accum::Add,
                q.as_ref(),
                z.as_ref(),
                1.0,
                Par::rayon(0),
            );
        }
        let stats: Vec<_> = z
            .par_col_iter_mut()
            .zip(g.par_col_iter_mut())
            .enumerate()
            .map(|(k, (zc, gc))| {
                let zs = zc
                    .try_as_col_major_mut()
                    .expect("owned Mat columns are contiguous")
                    .as_slice_mut();
                let gs = gc
                    .try_as_col_major_mut()
                    .expect("owned Mat columns are contiguous")
                    .as_slice_mut();
                let ck = cm.col_as_slice(k);
                if !dense_start {
                    gradient(q, ck, zs, gs);
                }
                self.smo(q, ck, zs, gs)
            })
            .collect();
        Ok(BatchSolution {
            z,
            objective: stats.iter().map(|s| s.objective).collect(),
            kkt_violation: stats.iter().map(|s| s.kkt_violation).collect(),
            n_iter: stats.iter().map(|s| s.n_iter).collect(),
            converged: stats.iter().map(|s| s.converged).collect(),
        })
    }
}
