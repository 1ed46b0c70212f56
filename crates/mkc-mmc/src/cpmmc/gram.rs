//! The centred Gram operator `G = Φ̃Φ̃ᵀ` of the samples, `Φ̃ = Φ − 1φ̄ᵀ` (features
//! centred on their mean), seen only through the products CPMMC needs.
//!
//! Eliminating the bias of the balance constraint leaves every weight vector in the span
//! of the centred samples, `w = Φ̃ᵀβ` (`dual` module). Each cut j has a coefficient
//! vector `u_j` (column of U, `U_ij = c_ij sᵢ/n`) and an *embedding* `e_j`, from which
//! the dual's Hessian `H = UᵀGU` and the decision values `G U λ` follow:
//! - [`FeatureGram`]: explicit features X (n × d); `e_j = X̃ᵀu_j` (d), `H = EᵀE`,
//!   decision values `X̃(Eλ)`; `X̃ᵀU = XᵀU − x̄(1ᵀU)` and `X̃a = Xa − (x̄ᵀa)1`, so G is
//!   never formed (O(nd) per product: MNIST runs this way).
//! - [`KernelGram`]: a precomputed kernel K, `G = HKH` (`H = I − 11ᵀ/n`);
//!   `e_j = G u_j` (n), `H = UᵀE`, decision values `Eλ`.
//!
//! Embeddings are linear in U, so when a CCCP step flips a few signs only the changed
//! rows of U are embedded ([`Gram::embed_rows`], `cuts` module).

use faer::linalg::matmul::matmul;
use faer::{Accum, Mat, MatRef, Par};

/// The products of `G` that CPMMC uses.
pub(crate) trait Gram: Sync {
    /// Number of samples n.
    fn n(&self) -> usize;
    /// The embedding of the columns of `u` (n × m).
    fn embed(&self, u: MatRef<'_, f64>) -> Mat<f64>;
    /// The embedding of the n × m matrix that is `rows` on the samples `idx` and 0
    /// elsewhere (`rows` is |idx| × m).
    fn embed_rows(&self, idx: &[usize], rows: MatRef<'_, f64>) -> Mat<f64>;
    /// `H = UᵀGU` from U and its embedding E (symmetric).
    fn hessian(&self, u: MatRef<'_, f64>, e: MatRef<'_, f64>) -> Mat<f64>;
    /// `G U λ` from the combined embedding `Eλ`.
    fn decision(&self, e_lambda: &[f64]) -> Vec<f64>;
    /// `Gv` for `v` (n).
    fn apply(&self, v: &[f64]) -> Vec<f64> {
        let e = self.embed(column(v).as_ref());
        self.decision(&e.col(0).iter().copied().collect::<Vec<_>>())
    }
}

fn column(v: &[f64]) -> Mat<f64> {
    Mat::from_fn(v.len(), 1, |i, _| v[i])
}

fn product(a: MatRef<'_, f64>, b: MatRef<'_, f64>) -> Mat<f64> {
    let mut out = Mat::<f64>::zeros(a.nrows(), b.ncols());
    matmul(out.as_mut(), Accum::Replace, a, b, 1.0, Par::Seq);
    out
}

fn symmetrised(h: Mat<f64>) -> Mat<f64> {
    Mat::from_fn(h.nrows(), h.ncols(), |i, j| 0.5 * (h[(i, j)] + h[(j, i)]))
}

/// Column sums of `u` as a 1 × m matrix.
fn column_sums(u: MatRef<'_, f64>) -> Mat<f64> {
    Mat::from_fn(1, u.ncols(), |_, j| u.col(j).iter().sum::<f64>())
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

    /// `Zᵀrows − x̄(1ᵀrows)` for the sample rows Z of X.
    fn centred_t_product(&self, z: MatRef<'_, f64>, rows: MatRef<'_, f64>) -> Mat<f64> {
        let mut a = product(z.transpose(), rows);
        let sums = column_sums(rows);
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
    fn embed(&self, u: MatRef<'_, f64>) -> Mat<f64> {
        self.centred_t_product(self.x, u)
    }
    fn embed_rows(&self, idx: &[usize], rows: MatRef<'_, f64>) -> Mat<f64> {
        let z = Mat::from_fn(idx.len(), self.x.ncols(), |r, j| self.x[(idx[r], j)]);
        self.centred_t_product(z.as_ref(), rows)
    }
    fn hessian(&self, _u: MatRef<'_, f64>, e: MatRef<'_, f64>) -> Mat<f64> {
        symmetrised(product(e.transpose(), e))
    }
    fn decision(&self, e_lambda: &[f64]) -> Vec<f64> {
        let a = column(e_lambda);
        let shift: f64 = (0..a.nrows()).map(|j| self.mean[(j, 0)] * a[(j, 0)]).sum();
        let f = product(self.x, a.as_ref());
        (0..f.nrows()).map(|i| f[(i, 0)] - shift).collect()
    }
}

/// `G = HKH` of a precomputed kernel K (validated by the caller).
pub(crate) struct KernelGram<'a> {
    k: MatRef<'a, f64>,
    /// `K1` (row sums).
    row_sums: Vec<f64>,
}

impl<'a> KernelGram<'a> {
    pub(crate) fn new(k: MatRef<'a, f64>) -> Self {
        KernelGram {
            k,
            row_sums: row_sums(k),
        }
    }
}

/// `K1`: each row's entries added left to right, as `(0..n).map(|j| k[(i, j)]).sum()`
/// would (the same additions in the same order, so the same bits), but sweeping the
/// columns in memory order: walking a row of a column-major n x n kernel touches a new
/// page at every entry (Spambase, n = 4601: about a second a fit, most of a CPMMC fit on
/// a Gaussian kernel; this way a few milliseconds).
pub(crate) fn row_sums(k: MatRef<'_, f64>) -> Vec<f64> {
    // Where `Sum` for f64 starts (−0.0 in current Rust, the neutral element).
    let start: f64 = std::iter::empty::<f64>().sum();
    let mut sums = vec![start; k.nrows()];
    for j in 0..k.ncols() {
        for (s, v) in sums.iter_mut().zip(k.col(j).iter()) {
            *s += *v;
        }
    }
    sums
}

/// `HM`: every column of `m` minus its mean.
fn centre_columns(mut m: Mat<f64>) -> Mat<f64> {
    let n = m.nrows() as f64;
    for j in 0..m.ncols() {
        let mean = m.col(j).iter().sum::<f64>() / n;
        m.col_mut(j).iter_mut().for_each(|v| *v -= mean);
    }
    m
}

impl Gram for KernelGram<'_> {
    fn n(&self) -> usize {
        self.k.nrows()
    }
    fn embed(&self, u: MatRef<'_, f64>) -> Mat<f64> {
        let uc = centre_columns(u.to_owned());
        centre_columns(product(self.k, uc.as_ref()))
    }
    fn embed_rows(&self, idx: &[usize], rows: MatRef<'_, f64>) -> Mat<f64> {
        // K H R = K[:, idx] R_idx − (K1)(1ᵀR)/n, then centred.
        let n = self.k.nrows();
        let cols = Mat::from_fn(n, idx.len(), |i, r| self.k[(i, idx[r])]);
        let mut kr = product(cols.as_ref(), rows);
        let means = column_sums(rows);
        for j in 0..kr.ncols() {
            let mj = means[(0, j)] / n as f64;
            for i in 0..n {
                kr[(i, j)] -= self.row_sums[i] * mj;
            }
        }
        centre_columns(kr)
    }
    fn hessian(&self, u: MatRef<'_, f64>, e: MatRef<'_, f64>) -> Mat<f64> {
        symmetrised(product(u.transpose(), e))
    }
    fn decision(&self, e_lambda: &[f64]) -> Vec<f64> {
        e_lambda.to_vec()
    }
}
