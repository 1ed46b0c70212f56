//! Matrix-free symmetric operators: anything that can multiply a block of vectors.

use faer::linalg::matmul::matmul;
use faer::reborrow::*;
use faer::{Accum, Mat, MatMut, MatRef, Par};
use mkc_core::{validate, Error, Result};

/// A symmetric linear operator A (n x n) applied to blocks of vectors.
///
/// The eigensolvers only touch A through [`apply`](SymOperator::apply), so a combined
/// kernel Σ_p c_p K_p need never be formed ([`WeightedKernelSum`]). Implementations must
/// be symmetric; the solvers cannot check this for a general operator.
pub trait SymOperator: Sync {
    /// The dimension n.
    fn dim(&self) -> usize;
    /// `out = A · x` for `x` and `out` of size n x b (out is overwritten).
    fn apply(&self, x: MatRef<'_, f64>, out: MatMut<'_, f64>, par: Par);
}

impl SymOperator for MatRef<'_, f64> {
    fn dim(&self) -> usize {
        self.nrows()
    }
    fn apply(&self, x: MatRef<'_, f64>, out: MatMut<'_, f64>, par: Par) {
        product(out, Accum::Replace, *self, x, 1.0, par);
    }
}

impl SymOperator for Mat<f64> {
    fn dim(&self) -> usize {
        self.nrows()
    }
    fn apply(&self, x: MatRef<'_, f64>, out: MatMut<'_, f64>, par: Par) {
        product(out, Accum::Replace, self.as_ref(), x, 1.0, par);
    }
}

/// `out (+)= alpha · a · x`: sequential for `Par::Seq`, otherwise parallel over fixed row
/// blocks (bit-identical for any number of threads).
fn product(
    out: MatMut<'_, f64>,
    accum: Accum,
    a: MatRef<'_, f64>,
    x: MatRef<'_, f64>,
    alpha: f64,
    par: Par,
) {
    match par {
        Par::Seq => matmul(out, accum, a, x, alpha, Par::Seq),
        _ => super::par::matmul_rows(out, accum, a, x, alpha),
    }
}

/// The operator Σ_p c_p K_p, applied as Σ_p c_p (K_p X) without forming the sum.
///
/// Cheaper than [`weighted_sum`](crate::weighted_sum) + one solve only when few products
/// are needed; each product costs m times a product with one kernel.
#[derive(Clone, Debug)]
pub struct WeightedKernelSum<'a> {
    coeffs: Vec<f64>,
    kernels: Vec<MatRef<'a, f64>>,
}

impl<'a> WeightedKernelSum<'a> {
    /// Validates the kernels (same size, finite, symmetric) and the coefficients (finite,
    /// one per kernel).
    pub fn new(coeffs: &[f64], kernels: &[MatRef<'a, f64>]) -> Result<Self> {
        if kernels.is_empty() {
            return Err(Error::input("kernels", "no kernels given"));
        }
        validate::len("coeffs", coeffs.len(), kernels.len())?;
        validate::finite_slice("coeffs", coeffs)?;
        let n = crate::check::check_kernel("kernels[0]", kernels[0])?;
        for (p, k) in kernels.iter().enumerate().skip(1) {
            validate::dims(&format!("kernels[{p}]"), *k, n, n)?;
            crate::check::check_kernel(&format!("kernels[{p}]"), *k)?;
        }
        Ok(WeightedKernelSum {
            coeffs: coeffs.to_vec(),
            kernels: kernels.to_vec(),
        })
    }

    /// The coefficients c_p.
    pub fn coeffs(&self) -> &[f64] {
        &self.coeffs
    }
}

impl SymOperator for WeightedKernelSum<'_> {
    fn dim(&self) -> usize {
        self.kernels[0].nrows()
    }
    fn apply(&self, x: MatRef<'_, f64>, mut out: MatMut<'_, f64>, par: Par) {
        let mut first = true;
        for (&c, k) in self.coeffs.iter().zip(&self.kernels) {
            if c == 0.0 {
                continue;
            }
            let acc = if first { Accum::Replace } else { Accum::Add };
            product(out.rb_mut(), acc, *k, x, c, par);
            first = false;
        }
        if first {
            out.fill(0.0);
        }
    }
}
