//! Symmetric top-k and bottom-k eigenpairs that never hang, never panic and are
//! deterministic.
//!
//! Small problems (n ≤ `dense_below`) and problems where k is a sizeable fraction of n
//! use the dense solver: faer's full `self_adjoint_evd` up to n = 512 ([`dense_sym`] always),
//! above that tridiagonalisation, bisection and inverse iteration for the k wanted pairs
//! only (the method of LAPACK's `dsyevx`; `tridiagonal` module). Everything else uses
//! a thick-restart block Lanczos iteration with full reorthogonalisation and explicit
//! Rayleigh–Ritz ([`krylov`](self) module docs below), which
//! - starts from a seeded random block (or from a caller's basis: [`top_k_warm`]),
//! - replaces directions lost to breakdown (rank-deficient or zero matrices, invariant
//!   subspaces) by seeded random vectors,
//! - accepts a pair only when its *explicitly computed* residual satisfies
//!   ‖Av − λv‖ ≤ tol · ‖A‖₂ (‖A‖₂ estimated by the largest |Ritz value|),
//! - stops after `max_iter` restarts, or (n ≤ `dense_fallback_max_n`) once it has made
//!   more than `dense_switch · n` products with A, i.e. spent more than the dense solver
//!   would: dense fallback when n ≤ `dense_fallback_max_n`,
//!   otherwise `Error::NotConverged`.
//!
//! faer's own `partial_self_adjoint_eigen` is not used: in faer 0.24 it panics when
//! max(64, 2k) ≥ n and can loop forever at tight tolerances (faer-rs#262).
//!
//! Bottom-k uses the same iteration keeping the smallest Ritz values: Krylov subspaces
//! are shift invariant, so this is exactly the spectral-shift method on λ_max·I − A
//! without forming the shift.
//!
//! Known limitation of every block Krylov method: an eigenvalue of multiplicity larger
//! than the block size b is found with at most b copies (in exact arithmetic). The default
//! b = clamp(k, 8, 32) covers all multiplicities up to k for k ≤ 32; set
//! `EigenOptions::block_size` for larger multiplicities.

mod dense;
mod krylov;
mod operator;
mod options;
mod ortho;
mod par;
mod tridiagonal;

pub use dense::{dense_sym, sym_evd};
pub use operator::{SymOperator, WeightedKernelSum};
pub use options::EigenOptions;

use faer::{Mat, MatMut, MatRef};
use mkc_core::{validate, Error, ParamGuard, Result};

/// Eigenpairs: `values[i]` belongs to column i of `vectors` (n x k, orthonormal columns).
/// [`top_k`] sorts values descending, [`bottom_k`] and [`dense_sym`] ascending.
#[derive(Clone, Debug)]
pub struct EigenPairs {
    /// Eigenvalues in the order documented by the function that returned them.
    pub values: Vec<f64>,
    /// Eigenvectors as columns; each signed so its largest-magnitude entry is positive.
    pub vectors: Mat<f64>,
    /// How the pairs were computed (method, iterations, products with A, residual).
    pub info: EigenInfo,
}

/// Which solver produced a result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EigenMethod {
    /// Dense solver: full decomposition (n ≤ 512) or tridiagonalisation, bisection and
    /// inverse iteration for the wanted pairs (n > 512).
    Dense,
    /// Thick-restart block Lanczos.
    BlockLanczos,
}

/// Diagnostics of an eigensolve, for callers that report solver effort.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EigenInfo {
    /// Solver used for the returned pairs.
    pub method: EigenMethod,
    /// Block Lanczos expansion steps (one product of A with a block each); 0 for dense.
    pub iterations: usize,
    /// Products of A with single vectors (columns of the blocks); n for dense.
    pub matvecs: usize,
    /// max_i ‖Av_i − λ_iv_i‖ / ‖A‖₂ of the returned pairs (None when the dense path
    /// skipped the check because k is a large fraction of n).
    pub max_residual: Option<f64>,
    /// True when block Lanczos hit `max_iter` or its budget of products with A
    /// (`EigenOptions::dense_switch`) and the dense solver took over.
    pub fell_back: bool,
}

/// Which end of the spectrum is wanted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Which {
    Top,
    Bottom,
}

/// A top-end and a bottom-end entry point with the same arguments (then `opts`), calling
/// `$solve(input, (k, start, Which::Top | Which::Bottom), opts)`.
macro_rules! top_and_bottom {
    ($(#[$td:meta])* fn $top:ident; $(#[$bd:meta])* fn $bottom:ident;
     ($($arg:ident: $ty:ty),*) => $solve:ident($input:expr; $k:expr, $start:expr)) => {
        $(#[$td])*
        pub fn $top($($arg: $ty,)* opts: &EigenOptions) -> Result<EigenPairs> {
            $solve($input, ($k, $start, Which::Top), opts)
        }
        $(#[$bd])*
        pub fn $bottom($($arg: $ty,)* opts: &EigenOptions) -> Result<EigenPairs> {
            $solve($input, ($k, $start, Which::Bottom), opts)
        }
    };
}

top_and_bottom! {
    /// The k largest eigenpairs of the symmetric matrix `a`, values descending.
    ///
    /// Errors: `a` empty, non-square, non-finite or non-symmetric (relative tolerance
    /// `mkc_core::validate::SYMMETRY_RTOL`); k = 0 or k > n; invalid options;
    /// `NotConverged` only when n > `dense_fallback_max_n` and `max_iter` was reached.
    fn top_k;
    /// The k smallest eigenpairs of the symmetric matrix `a`, values ascending (e.g. the
    /// spectral embedding of a graph Laplacian). Errors as [`top_k`].
    fn bottom_k;
    (a: MatRef<'_, f64>, k: usize) => solve_matrix(a; k, None)
}

top_and_bottom! {
    /// [`top_k`] with k = `start.ncols()`, started from the basis `start` (n x k, e.g. the
    /// eigenvectors of a slightly different matrix). Converges in a few block steps when
    /// `start` is close to the wanted invariant subspace. `start` need not be orthonormal;
    /// a rank-deficient `start` is completed with seeded random vectors.
    fn top_k_warm;
    /// [`bottom_k`] started from `start` (n x k); see [`top_k_warm`].
    fn bottom_k_warm;
    (a: MatRef<'_, f64>, start: MatRef<'_, f64>) => solve_matrix(a; start.ncols(), Some(start))
}

top_and_bottom! {
    /// [`top_k`] for a matrix-free operator, optionally warm-started (`start`: n x k).
    /// The operator is trusted to be symmetric.
    fn top_k_op;
    /// [`bottom_k`] for a matrix-free operator; see [`top_k_op`].
    fn bottom_k_op;
    (op: &dyn SymOperator, k: usize, start: Option<MatRef<'_, f64>>) => solve_op(op; k, start)
}

/// What is asked of a solver: k pairs, an optional start basis, which end.
type Request<'a> = (usize, Option<MatRef<'a, f64>>, Which);

fn solve_matrix(
    a: MatRef<'_, f64>,
    (k, start, which): Request<'_>,
    opts: &EigenOptions,
) -> Result<EigenPairs> {
    let opts = opts.check()?;
    let n = crate::check::check_kernel("a", a)?;
    check_k_start(n, k, start)?;
    lanczos_or_dense(&a, (k, start, which), &opts, || {
        dense::dense_select(a, k, which)
    })
}

fn solve_op(
    op: &dyn SymOperator,
    (k, start, which): Request<'_>,
    opts: &EigenOptions,
) -> Result<EigenPairs> {
    let opts = opts.check()?;
    let n = op.dim();
    if n == 0 {
        return Err(Error::input("op", "operator of dimension 0"));
    }
    check_k_start(n, k, start)?;
    lanczos_or_dense(op, (k, start, which), &opts, || {
        dense::dense_operator(op, k, which)
    })
}

/// Block Lanczos on `op` for the k pairs at `which` end (inputs already checked, `start`
/// optional), or `dense()` when the plan says the dense solver is cheaper, or, for
/// n ≤ `dense_fallback_max_n`, when Lanczos reaches `max_iter` or `dense_switch · n`
/// products with A (then `info.fell_back` is set).
fn lanczos_or_dense(
    op: &dyn SymOperator,
    (k, start, which): Request<'_>,
    opts: &EigenOptions,
    dense: impl Fn() -> Result<EigenPairs>,
) -> Result<EigenPairs> {
    let n = op.dim();
    let plan = krylov::Plan::new(n, k, opts);
    if plan.dense {
        return dense();
    }
    match krylov::solve(op, k, start, which, opts, &plan) {
        Ok(p) => Ok(p),
        Err(Error::NotConverged { .. }) if n <= opts.dense_fallback_max_n => {
            let mut p = dense()?;
            p.info.fell_back = true;
            Ok(p)
        }
        Err(e) => Err(e),
    }
}

fn check_k_start(n: usize, k: usize, start: Option<MatRef<'_, f64>>) -> Result<()> {
    if let Some(s) = start {
        if s.ncols() == 0 {
            return Err(Error::shape(
                "start",
                format!("{n} x k with k >= 1"),
                format!("{} x 0", s.nrows()),
            ));
        }
        validate::dims("start", s, n, s.ncols())?;
        validate::finite("start", s)?;
    }
    if k == 0 {
        return Err(Error::param("k", k, "must be at least 1"));
    }
    if k > n {
        return Err(Error::param(
            "k",
            k,
            format!("larger than the matrix dimension ({n})"),
        ));
    }
    Ok(())
}

/// Signs each column so that its largest-magnitude entry (lowest index on ties) is
/// positive: makes results comparable across solvers and runs.
pub(crate) fn sign_normalize(mut v: MatMut<'_, f64>) {
    for j in 0..v.ncols() {
        let mut best = 0usize;
        let mut bmag = -1.0f64;
        for i in 0..v.nrows() {
            let m = v[(i, j)].abs();
            if m > bmag {
                bmag = m;
                best = i;
            }
        }
        if v.nrows() > 0 && v[(best, j)] < 0.0 {
            for i in 0..v.nrows() {
                v[(i, j)] = -v[(i, j)];
            }
        }
    }
}
