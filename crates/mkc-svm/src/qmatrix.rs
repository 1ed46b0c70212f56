//! The Hessian `Q` of the dual, seen through the [`QMatrix`] trait, and its dense
//! implementations: [`DenseSigned`] (`Q_ij = s · σ_i σ_j K_ij`, read straight from a
//! precomputed kernel, no cache), [`SumOf`] (a sum of such terms, e.g. LG-MMC's label
//! kernels `Σ_t μ_t K ∘ y_t y_tᵀ`) and [`WithDiagonal`] (`Q + D`, e.g. `+ I/C`).
//!
//! The solver only ever asks for whole columns (written into a reused buffer) and the
//! diagonal, so an implementation pays one dynamic dispatch per column, never per
//! element. `Q` must be symmetric (a column is also a row).

use crate::kernel_sum::KernelSum;
use faer::MatRef;

/// The symmetric Hessian `Q` of the problem `min ½αᵀQα + pᵀα`.
///
/// Row lists (`rows`) passed by the solver are strictly increasing (the active set).
///
/// Implementations must be symmetric (`entry(i, j) == entry(j, i)`); the solver reads
/// rows through [`QMatrix::column_into`]. Positive semidefiniteness is assumed but not
/// required: non-positive curvature along a working pair is replaced by a tiny
/// positive number as in libsvm.
pub trait QMatrix: Sync {
    /// Number of variables n.
    fn size(&self) -> usize;
    /// One entry `Q_ij`.
    fn entry(&self, i: usize, j: usize) -> f64;
    /// The diagonal: `out[i] = Q_ii` for all i (`out.len() == size()`).
    fn diagonal_into(&self, out: &mut [f64]) {
        for (i, o) in out.iter_mut().enumerate() {
            *o = self.entry(i, i);
        }
    }
    /// Column `j` in full: `out[k] = Q_kj` for all k (`out.len() == size()`).
    fn column_into(&self, j: usize, out: &mut [f64]) {
        for (k, o) in out.iter_mut().enumerate() {
            *o = self.entry(k, j);
        }
    }
    /// Column `j` at the given rows: `out[t] = Q_{rows[t], j}` (`out.len() >= rows.len()`).
    fn column_at(&self, j: usize, rows: &[usize], out: &mut [f64]) {
        for (o, &r) in out.iter_mut().zip(rows) {
            *o = self.entry(r, j);
        }
    }
    /// `out += c · Q_{:,j}` over all rows.
    fn add_column(&self, j: usize, c: f64, out: &mut [f64]) {
        for (k, o) in out.iter_mut().enumerate() {
            *o += c * self.entry(k, j);
        }
    }
    /// `out[r] += c · Q_{r,j}` for every `r` in `rows` (scatter into a full-length `out`).
    fn add_column_at(&self, j: usize, c: f64, rows: &[usize], out: &mut [f64]) {
        for &r in rows {
            out[r] += c * self.entry(r, j);
        }
    }
    /// `out[k] += a · extra[k] + b · Q_kj` over all rows (the SMO gradient update, with
    /// the other column already in `extra`; one fused pass for [`DenseSigned`]).
    fn add_column_with(&self, j: usize, b: f64, a: f64, extra: &[f64], out: &mut [f64]) {
        for (o, &e) in out.iter_mut().zip(extra) {
            *o += a * e;
        }
        self.add_column(j, b, out);
    }
}

/// Evaluate `$body` with `$pairs` an iterator of `(σ_r, K_rj)` over all rows (or over
/// `$rows`, in their order) of column `j` of a [`DenseSigned`]: specialised for a
/// contiguous column with and without signs (then σ_r = 1) and for a strided one, so
/// the choice is made once per column and the loops stay tight. Callers form
/// `c · σ_r · K_rj` in that order (`c · 1 · K` is `c · K` exactly).
macro_rules! signed_column {
    ($q:expr, $j:expr, |$pairs:ident| $body:expr) => {{
        let (q, j) = ($q, $j);
        match (q.column(j), q.signs) {
            (Ok(kc), Some(s)) => {
                let $pairs = s.iter().copied().zip(kc.iter().copied());
                $body
            }
            (Ok(kc), None) => {
                let $pairs = kc.iter().map(|&kv| (1.0, kv));
                $body
            }
            (Err(col), _) => {
                let $pairs = (0..col.nrows()).map(|r| (q.sign(r), col[r]));
                $body
            }
        }
    }};
    ($q:expr, $j:expr, $rows:expr, |$pairs:ident| $body:expr) => {{
        let (q, j, rows) = ($q, $j, $rows);
        match (q.column(j), q.signs) {
            (Ok(kc), Some(s)) => {
                let $pairs = rows.iter().map(|&r| (s[r], kc[r]));
                $body
            }
            (Ok(kc), None) => {
                let $pairs = rows.iter().map(|&r| (1.0, kc[r]));
                $body
            }
            (Err(col), _) => {
                let $pairs = rows.iter().map(|&r| (q.sign(r), col[r]));
                $body
            }
        }
    }};
}

/// `Q_ij = scale · σ_i σ_j K_ij` for a dense precomputed kernel `K` and a sign pattern
/// `σ` (`None` = all ones). Reads `K` in place; columns of a column-major `K` are read
/// as contiguous slices. [`DenseSigned::on_sum`] reads the columns of a [`KernelSum`]
/// instead, formed when first read, with the same arithmetic on them.
///
/// The kernel is *not* validated here (the front ends validate once; see
/// [`crate::CheckedKernel`]); the constructor checks sizes only.
#[derive(Clone, Copy, Debug)]
pub struct DenseSigned<'a> {
    k: Source<'a>,
    scale: f64,
    signs: Option<&'a [f64]>,
}

/// Where a [`DenseSigned`] reads K.
#[derive(Clone, Copy, Debug)]
enum Source<'a> {
    Matrix(MatRef<'a, f64>),
    Sum(&'a KernelSum<'a>),
}

impl<'a> DenseSigned<'a> {
    /// `Q = scale · (σσᵀ) ∘ K`. Errors if `K` is not square, `σ` has the wrong length or
    /// `scale` is not finite.
    pub fn new(k: MatRef<'a, f64>, scale: f64, signs: Option<&'a [f64]>) -> mkc_core::Result<Self> {
        let n = mkc_core::validate::square("kernel", k)?;
        Self::with_source(Source::Matrix(k), n, scale, signs)
    }

    /// `Q = scale · (σσᵀ) ∘ K̃` for a [`KernelSum`] K̃ (columns formed on first read).
    /// Errors as [`DenseSigned::new`].
    pub fn on_sum(
        k: &'a KernelSum<'a>,
        scale: f64,
        signs: Option<&'a [f64]>,
    ) -> mkc_core::Result<Self> {
        Self::with_source(Source::Sum(k), k.size(), scale, signs)
    }

    fn with_source(
        k: Source<'a>,
        n: usize,
        scale: f64,
        signs: Option<&'a [f64]>,
    ) -> mkc_core::Result<Self> {
        if let Some(s) = signs {
            mkc_core::validate::len("signs", s.len(), n)?;
        }
        mkc_core::mkc_ensure!(scale.is_finite(), param "scale", scale, "must be finite");
        Ok(Self { k, scale, signs })
    }

    /// The underlying kernel matrix (`None` for a [`KernelSum`]).
    pub fn kernel(&self) -> Option<MatRef<'a, f64>> {
        match self.k {
            Source::Matrix(k) => Some(k),
            Source::Sum(_) => None,
        }
    }

    /// Column `j` of K: a slice where it is one (a column-major matrix, or a sum), else
    /// the strided column of the matrix.
    #[inline(always)]
    fn column(&self, j: usize) -> std::result::Result<&'a [f64], faer::ColRef<'a, f64>> {
        match self.k {
            Source::Matrix(k) => {
                let c = k.col(j);
                c.try_as_col_major().map(|c| c.as_slice()).ok_or(c)
            }
            Source::Sum(s) => Ok(s.column(j)),
        }
    }

    /// `K_ij`.
    #[inline(always)]
    fn k_entry(&self, i: usize, j: usize) -> f64 {
        match self.k {
            Source::Matrix(k) => k[(i, j)],
            Source::Sum(s) => s.column(j)[i],
        }
    }

    /// The scale factor `s`.
    pub fn scale(&self) -> f64 {
        self.scale
    }

    #[inline(always)]
    fn sign(&self, i: usize) -> f64 {
        match self.signs {
            Some(s) => s[i],
            None => 1.0,
        }
    }

    /// `out[k] (+)= c · σ_k K_kj` over all k; `ACC` chooses `+=` or `=`.
    #[inline(always)]
    fn column_scaled<const ACC: bool>(&self, j: usize, c: f64, out: &mut [f64]) {
        signed_column!(self, j, |pairs| {
            for (o, (sv, kv)) in out.iter_mut().zip(pairs) {
                put::<ACC>(o, c * sv * kv);
            }
        })
    }

    /// `out[t] (+)= c · σ_r K_rj` for `r = rows[t]`; `ACC` chooses `+=` or `=`.
    #[inline(always)]
    fn column_at_scaled<const ACC: bool>(&self, j: usize, c: f64, rows: &[usize], out: &mut [f64]) {
        signed_column!(self, j, rows, |pairs| {
            for (o, (sv, kv)) in out.iter_mut().zip(pairs) {
                put::<ACC>(o, c * sv * kv);
            }
        })
    }
}

/// `*o += v` when `ACC`, else `*o = v` (resolved at compile time).
#[inline(always)]
pub(crate) fn put<const ACC: bool>(o: &mut f64, v: f64) {
    if ACC {
        *o += v
    } else {
        *o = v
    }
}

impl QMatrix for DenseSigned<'_> {
    fn size(&self) -> usize {
        match self.k {
            Source::Matrix(k) => k.nrows(),
            Source::Sum(s) => s.size(),
        }
    }
    #[inline]
    fn entry(&self, i: usize, j: usize) -> f64 {
        self.scale * self.sign(i) * self.sign(j) * self.k_entry(i, j)
    }
    fn diagonal_into(&self, out: &mut [f64]) {
        for (i, o) in out.iter_mut().enumerate() {
            // σ_i² = 1 for a sign pattern, but σ may be any real weight: keep it general.
            let s = self.sign(i);
            let kii = match self.k {
                Source::Matrix(k) => k[(i, i)],
                Source::Sum(sum) => sum.diagonal()[i],
            };
            *o = self.scale * s * s * kii;
        }
    }
    #[inline(always)]
    fn column_into(&self, j: usize, out: &mut [f64]) {
        self.column_scaled::<false>(j, self.scale * self.sign(j), out);
    }
    #[inline(always)]
    fn column_at(&self, j: usize, rows: &[usize], out: &mut [f64]) {
        self.column_at_scaled::<false>(j, self.scale * self.sign(j), rows, out);
    }
    #[inline(always)]
    fn add_column(&self, j: usize, c: f64, out: &mut [f64]) {
        self.column_scaled::<true>(j, c * self.scale * self.sign(j), out);
    }
    #[inline(always)]
    fn add_column_at(&self, j: usize, c: f64, rows: &[usize], out: &mut [f64]) {
        let c = c * self.scale * self.sign(j);
        signed_column!(self, j, rows, |pairs| {
            for (&r, (sv, kv)) in rows.iter().zip(pairs) {
                out[r] += c * sv * kv;
            }
        })
    }
    #[inline(always)]
    fn add_column_with(&self, j: usize, b: f64, a: f64, extra: &[f64], out: &mut [f64]) {
        let b = b * self.scale * self.sign(j);
        signed_column!(self, j, |pairs| {
            for ((o, &e), (sv, kv)) in out.iter_mut().zip(extra).zip(pairs) {
                *o += a * e + b * sv * kv;
            }
        })
    }
}

/// `Q = Σ_t Q_t` for terms `Q_t = s_t · (σ_t σ_tᵀ) ∘ K_t` — LG-MMC's
/// `Σ_t μ_t K ∘ y_t y_tᵀ` with `s_t = μ_t` (the kernels may differ between terms).
/// A column costs one pass per term. For many terms on one kernel it is cheaper to
/// form `K ∘ (Σ_t μ_t y_t y_tᵀ)` once and use a single [`DenseSigned`].
#[derive(Clone, Debug)]
pub struct SumOf<'a> {
    terms: Vec<DenseSigned<'a>>,
}

impl<'a> SumOf<'a> {
    /// At least one term, all of the same size.
    pub fn new(terms: Vec<DenseSigned<'a>>) -> mkc_core::Result<Self> {
        let Some(first) = terms.first() else {
            return Err(mkc_core::Error::input("SumOf", "no terms"));
        };
        let n = first.size();
        for (t, q) in terms.iter().enumerate() {
            if q.size() != n {
                return Err(mkc_core::Error::shape(
                    format!("SumOf term {t}"),
                    format!("{n} x {n}"),
                    format!("{0} x {0}", q.size()),
                ));
            }
        }
        Ok(Self { terms })
    }

    /// The terms.
    pub fn terms(&self) -> &[DenseSigned<'a>] {
        &self.terms
    }
}

impl QMatrix for SumOf<'_> {
    fn size(&self) -> usize {
        self.terms[0].size()
    }
    fn entry(&self, i: usize, j: usize) -> f64 {
        self.terms.iter().map(|q| q.entry(i, j)).sum()
    }
    fn diagonal_into(&self, out: &mut [f64]) {
        out.fill(0.0);
        for q in &self.terms {
            for (i, o) in out.iter_mut().enumerate() {
                *o += q.entry(i, i);
            }
        }
    }
    fn column_into(&self, j: usize, out: &mut [f64]) {
        for (t, q) in self.terms.iter().enumerate() {
            let c = q.scale * q.sign(j);
            match t {
                0 => q.column_scaled::<false>(j, c, out),
                _ => q.column_scaled::<true>(j, c, out),
            }
        }
    }
    fn column_at(&self, j: usize, rows: &[usize], out: &mut [f64]) {
        for (t, q) in self.terms.iter().enumerate() {
            let c = q.scale * q.sign(j);
            match t {
                0 => q.column_at_scaled::<false>(j, c, rows, out),
                _ => q.column_at_scaled::<true>(j, c, rows, out),
            }
        }
    }
    fn add_column(&self, j: usize, c: f64, out: &mut [f64]) {
        for q in &self.terms {
            q.add_column(j, c, out);
        }
    }
    fn add_column_at(&self, j: usize, c: f64, rows: &[usize], out: &mut [f64]) {
        for q in &self.terms {
            q.add_column_at(j, c, rows, out);
        }
    }
}

/// `Q + diag(d)`: an inner Hessian plus a diagonal (LG-MMC's `I/C`, eq. 3).
#[derive(Clone, Debug)]
pub struct WithDiagonal<Q> {
    inner: Q,
    diag: Vec<f64>,
}

impl<Q: QMatrix> WithDiagonal<Q> {
    /// `Q + diag(d)`; `d` must have length n and finite entries.
    pub fn new(inner: Q, diag: Vec<f64>) -> mkc_core::Result<Self> {
        mkc_core::validate::len("diagonal", diag.len(), inner.size())?;
        mkc_core::validate::finite_slice("diagonal", &diag)?;
        Ok(Self { inner, diag })
    }

    /// `Q + c·I`.
    pub fn constant(inner: Q, c: f64) -> mkc_core::Result<Self> {
        let n = inner.size();
        Self::new(inner, vec![c; n])
    }

    /// The inner matrix.
    pub fn inner(&self) -> &Q {
        &self.inner
    }
}

impl<Q: QMatrix> QMatrix for WithDiagonal<Q> {
    fn size(&self) -> usize {
        self.inner.size()
    }
    fn entry(&self, i: usize, j: usize) -> f64 {
        self.inner.entry(i, j) + if i == j { self.diag[i] } else { 0.0 }
    }
    fn diagonal_into(&self, out: &mut [f64]) {
        self.inner.diagonal_into(out);
        for (o, d) in out.iter_mut().zip(&self.diag) {
            *o += d;
        }
    }
    fn column_into(&self, j: usize, out: &mut [f64]) {
        self.inner.column_into(j, out);
        out[j] += self.diag[j];
    }
    fn column_at(&self, j: usize, rows: &[usize], out: &mut [f64]) {
        self.inner.column_at(j, rows, out);
        if let Ok(t) = rows.binary_search(&j) {
            out[t] += self.diag[j];
        }
    }
    fn add_column(&self, j: usize, c: f64, out: &mut [f64]) {
        self.inner.add_column(j, c, out);
        out[j] += c * self.diag[j];
    }
    fn add_column_at(&self, j: usize, c: f64, rows: &[usize], out: &mut [f64]) {
        self.inner.add_column_at(j, c, rows, out);
        if rows.binary_search(&j).is_ok() {
            out[j] += c * self.diag[j];
        }
    }
    fn add_column_with(&self, j: usize, b: f64, a: f64, extra: &[f64], out: &mut [f64]) {
        self.inner.add_column_with(j, b, a, extra, out);
        out[j] += b * self.diag[j];
    }
}

impl<Q: QMatrix + ?Sized> QMatrix for &Q {
    fn size(&self) -> usize {
        (**self).size()
    }
    fn entry(&self, i: usize, j: usize) -> f64 {
        (**self).entry(i, j)
    }
    fn diagonal_into(&self, out: &mut [f64]) {
        (**self).diagonal_into(out)
    }
    fn column_into(&self, j: usize, out: &mut [f64]) {
        (**self).column_into(j, out)
    }
    fn column_at(&self, j: usize, rows: &[usize], out: &mut [f64]) {
        (**self).column_at(j, rows, out)
    }
    fn add_column(&self, j: usize, c: f64, out: &mut [f64]) {
        (**self).add_column(j, c, out)
    }
    fn add_column_at(&self, j: usize, c: f64, rows: &[usize], out: &mut [f64]) {
        (**self).add_column_at(j, c, rows, out)
    }
    fn add_column_with(&self, j: usize, b: f64, a: f64, extra: &[f64], out: &mut [f64]) {
        (**self).add_column_with(j, b, a, extra, out)
    }
}
