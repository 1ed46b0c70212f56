//! A weighted sum of checked kernels `K̃ = Σ_v w_v K_v` whose columns are formed when a
//! solver first reads them ([`KernelSum`]), for callers that solve once or a few times on
//! each of many combinations.
//!
//! RMKC's θ step (eq. 12) solves eq. (10) once per Armijo trial θ, warm-started from the
//! current α: on Satellite 1 vs 2 (n = 2236, 10 kernels) such a solve reads 60–230
//! support vectors' columns and takes 1–160 SMO iterations, while forming K̃(θ) reads
//! every entry of every kernel with θ_v > 0 and checking it reads K̃ once more: the
//! forming and the check were about half of an RMKC run. A [`KernelSum`] forms a column
//! (one pass over column j of each kernel with w_v ≠ 0) only when the solver asks for it
//! and keeps it for the next reads, so a solve pays for the columns it uses.
//!
//! **The same numbers as the formed matrix.** Column j is `w_a K_a[:, j]`, then
//! `+= w_b K_b[:, j]` for the next term, in the order of the kernels, leaving out the
//! terms with w_v = 0 ([`mkc_linalg::nonzero_terms`]): the operations of
//! [`mkc_linalg::weighted_sum_into`] on those terms (the same function,
//! [`mkc_linalg::weighted_column_into`]), so a solve on a [`KernelSum`] gives the iterates of a solve on the formed K̃,
//! bit for bit (test `solves_on_the_sum_equal_solves_on_the_formed_matrix`). Leaving
//! out a zero term changes no entry (x + 0·K = x), except that an exact zero sum may
//! be +0 where the full sum gave −0.
//!
//! **Checked by construction.** The kernels are checked once ([`KernelStack::new`], or
//! the checks a [`KernelSet`] made when it was built, [`KernelStack::from_set`]:
//! square, equal sizes, finite, symmetric, as [`crate::CheckedKernel::new`]). A sum of
//! symmetric matrices formed entry by entry in the same order is symmetric (within the
//! kernels' own symmetry tolerance, weighted), so no O(n²) pass is made per sum. Finite
//! kernels and weights can still overflow: a formed column is checked (it is in cache
//! then) and [`KernelSum::overflowed`] tells; the solvers check it after solving and
//! return [`Error::Numerical`].

use faer::MatRef;
use mkc_core::{Error, KernelSet, Result};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::OnceLock;

/// Checked kernels of one size, ready to be summed with weights ([`KernelStack::sum`]).
#[derive(Clone, Debug)]
pub struct KernelStack<'a> {
    kernels: Vec<MatRef<'a, f64>>,
    n: usize,
}

impl<'a> KernelStack<'a> {
    /// Check every kernel (non-empty, square, finite, symmetric, one size:
    /// `mkc_core::validate::kernels`, one pass over each).
    ///
    /// # Errors
    /// Those of `validate::kernels`, naming `kernels[v]`.
    pub fn new(kernels: &[MatRef<'a, f64>]) -> Result<Self> {
        let n = mkc_core::validate::kernels("kernels", kernels)?;
        Ok(Self {
            kernels: kernels.to_vec(),
            n,
        })
    }

    /// The kernels of a set, which checked them when it was built (no pass here).
    ///
    /// # Errors
    /// [`Error::InvalidInput`] for a set without kernels (features only).
    pub fn from_set(set: &KernelSet<'a>) -> Result<Self> {
        let kernels = set.require_kernels("KernelStack")?;
        Ok(Self {
            kernels: kernels.to_vec(),
            n: set.n(),
        })
    }

    /// n.
    pub fn size(&self) -> usize {
        self.n
    }

    /// Number of kernels.
    pub fn len(&self) -> usize {
        self.kernels.len()
    }

    /// Whether there are no kernels (never, for a stack [`KernelStack::new`] made).
    pub fn is_empty(&self) -> bool {
        self.kernels.is_empty()
    }

    /// `Σ_v w_v K_v`, no column formed yet (module docs).
    ///
    /// # Errors
    /// [`Error::Shape`] for a weight count other than the number of kernels,
    /// [`Error::NonFinite`] for a non-finite weight, [`Error::Numerical`] if the diagonal
    /// overflows.
    pub fn sum(&self, weights: &[f64]) -> Result<KernelSum<'a>> {
        mkc_core::validate::len("weights", weights.len(), self.kernels.len())?;
        mkc_core::validate::finite_slice("weights", weights)?;
        let (coeffs, terms) = mkc_linalg::nonzero_terms(weights, &self.kernels)?;
        let n = self.n;
        // The diagonal with the arithmetic of a formed column (`form`).
        let diag = (0..n)
            .map(|i| {
                let mut d = 0.0;
                for (t, (w, k)) in coeffs.iter().zip(&terms).enumerate() {
                    let x = w * k[(i, i)];
                    d = if t == 0 { x } else { d + x };
                }
                d
            })
            .collect();
        let sum = KernelSum {
            n,
            coeffs,
            terms,
            diag,
            cols: (0..n).map(|_| OnceLock::new()).collect(),
            overflowed: AtomicBool::new(false),
        };
        sum.check_finite(&sum.diag)?;
        Ok(sum)
    }
}

/// `K̃ = Σ_v w_v K_v` with columns formed on first read and kept ([`KernelStack::sum`];
/// module docs). Solve on it with [`crate::CSvc::solve`] and
/// [`crate::CSvc::solve_from`] (it is an [`crate::AsSvcKernel`]); several threads
/// may read it at once.
///
/// ```
/// use faer::Mat;
/// use mkc_svm::KernelStack;
///
/// let a = Mat::from_fn(3, 3, |i, j| if i == j { 2.0 } else { 0.5 });
/// let b = Mat::from_fn(3, 3, |i, j| (i + j) as f64);
/// let stack = KernelStack::new(&[a.as_ref(), b.as_ref()])?;
/// let sum = stack.sum(&[0.5, 2.0])?;
/// assert_eq!(sum.formed_columns(), 0);
/// assert_eq!(sum.column(1), &[0.25 + 2.0, 1.0 + 4.0, 0.25 + 6.0][..]);
/// assert_eq!(sum.formed_columns(), 1);
/// assert!(stack.sum(&[1.0]).is_err());
/// assert!(!sum.overflowed());
/// # Ok::<(), mkc_core::Error>(())
/// ```
#[derive(Debug)]
pub struct KernelSum<'a> {
    n: usize,
    /// The non-zero weights and their kernels, in order.
    coeffs: Vec<f64>,
    terms: Vec<MatRef<'a, f64>>,
    diag: Vec<f64>,
    cols: Vec<OnceLock<Box<[f64]>>>,
    overflowed: AtomicBool,
}

impl KernelSum<'_> {
    /// n.
    pub fn size(&self) -> usize {
        self.n
    }

    /// The diagonal `K̃_ii` (formed with the sum).
    pub fn diagonal(&self) -> &[f64] {
        &self.diag
    }

    /// Column `j` of K̃, formed now if not yet (panics if `j ≥ n`, as indexing does).
    pub fn column(&self, j: usize) -> &[f64] {
        self.cols[j].get_or_init(|| self.form(j))
    }

    /// Whether a formed column (or the diagonal) had a non-finite entry: finite kernels
    /// and weights whose sum overflows. The solvers check it after a solve.
    pub fn overflowed(&self) -> bool {
        self.overflowed.load(Ordering::Relaxed)
    }

    /// [`Error::Numerical`] if [`KernelSum::overflowed`].
    pub fn check_overflow(&self) -> Result<()> {
        if self.overflowed() {
            return Err(Error::numerical(
                "KernelSum",
                "overflow: the weighted sum of the kernels is not finite",
            ));
        }
        Ok(())
    }

    /// Flag and report non-finite values of `v`.
    fn check_finite(&self, v: &[f64]) -> Result<()> {
        if !v.iter().all(|x| x.is_finite()) {
            self.overflowed.store(true, Ordering::Relaxed);
        }
        self.check_overflow()
    }

    /// Number of columns formed so far.
    pub fn formed_columns(&self) -> usize {
        self.cols.iter().filter(|c| c.get().is_some()).count()
    }

    /// Column `j`: the operations of `weighted_sum_into` on the non-zero terms
    /// (`mkc_linalg::weighted_column_into`, the function it forms its columns with).
    fn form(&self, j: usize) -> Box<[f64]> {
        let mut o = vec![0.0; self.n];
        // The sizes agree (checked when the stack was made), so an error cannot occur;
        // it would be flagged like an overflow. The flag is read after the solve; the
        // column is used as it is until then.
        if mkc_linalg::weighted_column_into(&mut o, j, &self.coeffs, &self.terms).unwrap_or(true) {
            self.overflowed.store(true, Ordering::Relaxed);
        }
        o.into_boxed_slice()
    }
}
