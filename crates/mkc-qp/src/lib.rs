//! Euclidean projections onto the simplex, the ℓ1 ball, the nonnegative part of the
//! unit sphere and the capped simplex {0 ≤ z ≤ u, 1ᵀz = 1}, and a fast warm-startable
//! solver for min ½zᵀQz + cᵀz over the capped simplex (the SCMK column subproblem),
//! for one problem or for many problems sharing Q (all columns of SCMK's Z at once).
//!
//! ```
//! use faer::Mat;
//! use mkc_core::ParamGuard;
//! use mkc_qp::{project_capped_simplex, project_simplex, CappedSimplexQp, QpMatrix};
//!
//! let mut v = vec![0.9, 0.5, -0.2];
//! project_simplex(&mut v, 1.0).unwrap();
//! assert!((v.iter().sum::<f64>() - 1.0).abs() < 1e-12 && v[2] == 0.0);
//!
//! let mut w = vec![3.0, 1.0, 0.0, 0.0];
//! project_capped_simplex(&mut w, 0.4).unwrap(); // at most 0.4 each
//! assert_eq!(w[0], 0.4);
//!
//! // SCMK column problem: Q = 2(αI + K), c = −2 K[:, i] (β = 0), u = 1.
//! let n = 6;
//! let k = Mat::from_fn(n, n, |i, j| (-((i as f64 - j as f64).powi(2)) / 4.0).exp());
//! let q = Mat::from_fn(n, n, |i, j| 2.0 * (k[(i, j)] + if i == j { 0.1 } else { 0.0 }));
//! let c: Vec<f64> = (0..n).map(|j| -2.0 * k[(j, 2)]).collect();
//! let qm = QpMatrix::new(q.as_ref()).unwrap();
//! let solver = CappedSimplexQp::new(1.0).tol(1e-10).check().unwrap();
//! let sol = solver.solve(&qm, &c, None).unwrap();
//! assert!(sol.converged && sol.kkt_violation <= 1e-10);
//! // warm-started at its own optimum it stops at once
//! let again = solver.solve(&qm, &c, Some(&sol.z)).unwrap();
//! assert_eq!(again.n_iter, 0);
//! ```

#![forbid(unsafe_code)]

mod batch;
mod capped_qp;
mod project;

pub use batch::BatchSolution;
pub use capped_qp::{kkt_violation, CappedSimplexQp, CappedSimplexSolver, QpMatrix, QpSolution};
pub use project::{
    project_capped_simplex, project_l1_ball, project_nonneg_unit_sphere, project_simplex,
};
