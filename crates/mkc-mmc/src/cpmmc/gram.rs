//! The centred Gram operator `G = Φ̃Φ̃ᵀ` of the samples, `Φ̃ = Φ − 1φ̄ᵀ` (features
//! centred on their mean), seen only through the two products CPMMC needs.
//!
//! Eliminating the bias of the balance constraint leaves every weight vector in the span
//! of the centred samples, `w = Φ̃ᵀβ` (see the `dual` module), so the method needs
//! `H = UᵀGU` (the Hessian of the cutting-plane dual, U holding one coefficient vector
//! per cut) and the decision values `Gβ`. Two implementations:
//! - [`FeatureGram`]: explicit features X (n × d), `G = X̃X̃ᵀ` never formed:
//!   `X̃ᵀU = XᵀU − x̄(1ᵀU)` and `X̃a = Xa − (x̄ᵀa)1` (O(ndm); MNIST runs this way).
//! - [`KernelGram`]: a precomputed kernel K, `G = HKH` with `H = I − 11ᵀ/n`
//!   (`HU` centres the columns of U, then one product with K).

use faer::linalg::matmul::matmul;
use faer::{Accum, Mat, MatRef, Par};

/// The two products of `G` that CPMMC uses.
pub(crate) trait Gram: Sync {
    /// Number of samples n.
    fn n(&self) -> usize;
    /// `UᵀGU` (m × m) for `U` (n × m).
    fn gram(&self, u: MatRef<'_, f64>) -> Mat<f64>;
    /// `Gv` for `v` (n).
    fn apply(&self, v: &[f64]) -> Vec<f64>;
}

/// `G = X̃X̃ᵀ` of a feature matrix X (n × d, validated by the caller).
pub(crate) struct FeatureGram<'a> {
    x: MatRef<'a, f64>,
    mean: Mat<f64>,
}

impl<'a> FeatureGram<'a> {
    pub(crate) fn new(x: MatRef<'a, f64>) -> Self {
        let n = x.nrows() as f64;
        let mean = Mat::from_fn(x.ncols(), 1, |j, _| x.col(j).iter().sum::<f64>() / n);
        FeatureGram { x, mean }
    }

    /// `X̃ᵀU` (d × m).
    fn project(&self, u: MatRef<'_, f64>) -> Mat<f64> {
        let mut a = Mat::<f64>::zeros(self.x.ncols(), u.ncols());
        matmul(
            a.as_mut(),
            Accum::Replace,
            self.x.transpose(),
            u,
            1.0,
            Par::Seq,
        );
        let sums = Mat::from_fn(1, u.ncols(), |_, j| u.col(j).iter().sum::<f64>());
        matmul(
            a.as_mut(),
            Accum::Add,
            self.mean.as_ref(),
            sums.as_ref(),
            -1.0,
            Par::Seq,
        );
        a
    }
}

impl Gram for FeatureGram<'_> {
    fn n(&self) -> usize {
        self.x.nrows()
    }
    fn gram(&self, u: MatRef<'_, f64>) -> Mat<f64> {
        let a = self.project(u);
        let mut h = Mat::<f64>::zeros(u.ncols(), u.ncols());
        matmul(
            h.as_mut(),
            Accum::Replace,
            a.transpose(),
            a.as_ref(),
            1.0,
            Par::Seq,
        );
        h
    }
    fn apply(&self, v: &[f64]) -> Vec<f64> {
        let vm = Mat::from_fn(v.len(), 1, |i, _| v[i]);
        let a = self.project(vm.as_ref());
        let shift: f64 = (0..a.nrows()).map(|j| self.mean[(j, 0)] * a[(j, 0)]).sum();
        let mut f = Mat::<f64>::zeros(self.x.nrows(), 1);
        matmul(
            f.as_mut(),
            Accum::Replace,
            self.x,
            a.as_ref(),
            1.0,
            Par::Seq,
        );
        (0..f.nrows()).map(|i| f[(i, 0)] - shift).collect()
    }
}

/// `G = HKH` of a precomputed kernel K (validated by the caller).
pub(crate) struct KernelGram<'a> {
    k: MatRef<'a, f64>,
}

impl<'a> KernelGram<'a> {
    pub(crate) fn new(k: MatRef<'a, f64>) -> Self {
        KernelGram { k }
    }
}

/// `HU`: every column of `u` minus its mean.
fn centre_columns(u: MatRef<'_, f64>) -> Mat<f64> {
    let n = u.nrows() as f64;
    let means: Vec<f64> = (0..u.ncols())
        .map(|j| u.col(j).iter().sum::<f64>() / n)
        .collect();
    Mat::from_fn(u.nrows(), u.ncols(), |i, j| u[(i, j)] - means[j])
}

impl Gram for KernelGram<'_> {
    fn n(&self) -> usize {
        self.k.nrows()
    }
    fn gram(&self, u: MatRef<'_, f64>) -> Mat<f64> {
        let uc = centre_columns(u);
        let mut ku = Mat::<f64>::zeros(u.nrows(), u.ncols());
        matmul(
            ku.as_mut(),
            Accum::Replace,
            self.k,
            uc.as_ref(),
            1.0,
            Par::Seq,
        );
        let mut h = Mat::<f64>::zeros(u.ncols(), u.ncols());
        matmul(
            h.as_mut(),
            Accum::Replace,
            uc.transpose(),
            ku.as_ref(),
            1.0,
            Par::Seq,
        );
        // Symmetric by construction up to rounding; make it exactly so for the QP.
        Mat::from_fn(u.ncols(), u.ncols(), |i, j| 0.5 * (h[(i, j)] + h[(j, i)]))
    }
    fn apply(&self, v: &[f64]) -> Vec<f64> {
        let vm = Mat::from_fn(v.len(), 1, |i, _| v[i]);
        let vc = centre_columns(vm.as_ref());
        let mut kv = Mat::<f64>::zeros(v.len(), 1);
        matmul(
            kv.as_mut(),
            Accum::Replace,
            self.k,
            vc.as_ref(),
            1.0,
            Par::Seq,
        );
        let out = centre_columns(kv.as_ref());
        (0..v.len()).map(|i| out[(i, 0)]).collect()
    }
}
