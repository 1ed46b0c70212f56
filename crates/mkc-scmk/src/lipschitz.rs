//! The step size of the APG Z step: λ_max(ΠKΠ), Π = I − 11ᵀ/n, the largest eigenvalue of
//! K on the directions {1ᵀd = 0} along which the constraint 1ᵀz = 1 of (11) lets z move.
//!
//! Computed once per kernel (block Lanczos of mkc-linalg on the operator x ↦ ΠKΠx, tol
//! 1e-8, the Ritz value enlarged by 1e-6 relative so that it bounds λ_max from above:
//! a top Ritz value θ with residual r satisfies λ_max ≤ θ + r). For K_w = Σ w_i K^i with
//! w ≥ 0, λ_max(ΠK_wΠ) ≤ Σ w_i λ_max(ΠK^iΠ) (ΠK_wΠ is a non-negative sum of PSD-ordered
//! terms; Weyl), which is the bound SCMK uses without a new eigensolve per iteration.

use faer::linalg::matmul::matmul;
use faer::{Accum, MatMut, MatRef, Par};
use mkc_core::Result;
use mkc_linalg::{eigen, EigenOptions, SymOperator};

/// x ↦ ΠKΠx.
struct Centred<'a> {
    k: MatRef<'a, f64>,
}

fn centre_columns(mut x: MatMut<'_, f64>) {
    let n = x.nrows() as f64;
    for j in 0..x.ncols() {
        let mean = x.as_ref().col(j).iter().sum::<f64>() / n;
        for v in x.as_mut().col_mut(j).iter_mut() {
            *v -= mean;
        }
    }
}

impl SymOperator for Centred<'_> {
    fn dim(&self) -> usize {
        self.k.nrows()
    }
    fn apply(&self, x: MatRef<'_, f64>, mut out: MatMut<'_, f64>, _par: Par) {
        let mut xc = x.to_owned();
        centre_columns(xc.as_mut());
        // Sequential: the result must not depend on the number of threads.
        matmul(
            out.as_mut(),
            Accum::Replace,
            self.k,
            xc.as_ref(),
            1.0,
            Par::Seq,
        );
        centre_columns(out);
    }
}

/// An upper bound on λ_max(ΠKΠ) for a symmetric K (validated by the caller); ≥ 0.
pub(crate) fn tangent_lambda_max(k: MatRef<'_, f64>, seed: u64) -> Result<f64> {
    if k.nrows() == 1 {
        return Ok(0.0);
    }
    let opts = EigenOptions::default().tol(1e-8).seed(seed);
    let op = Centred { k };
    let top = eigen::top_k_op(&op, 1, None, &opts)?;
    let theta = top.values.first().copied().unwrap_or(0.0).max(0.0);
    Ok(theta * (1.0 + 1e-6) + 1e-12)
}
