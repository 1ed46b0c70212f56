//! The working set Ω of CPMMC with, per cut, its coefficient vector and embedding at the
//! current signs (`gram` module), kept up to date incrementally: a CCCP step that flips
//! the signs of a few samples re-embeds only those rows of U, and a new cut embeds one
//! column. This makes a step cost O(flips · d · m + d m²) on the feature path instead of
//! O(n d m).

use super::gram::Gram;
use faer::Mat;

/// The cuts `c_j ∈ {0, 1}ⁿ`, the signs s, `U_ij = c_ij sᵢ/n` and `E = embed(U)`.
pub(crate) struct CutSet {
    /// The cuts, in order of generation.
    pub cuts: Vec<Vec<bool>>,
    /// Current signs (±1).
    pub signs: Vec<f64>,
    /// `U` (n × m).
    pub u: Mat<f64>,
    /// Embedding of U (columns per cut).
    pub e: Mat<f64>,
}

impl CutSet {
    /// One cut at signs `s`.
    pub(crate) fn new(gram: &dyn Gram, first: Vec<bool>, s: Vec<f64>) -> Self {
        let u = Self::column(&first, &s);
        let e = gram.embed(u.as_ref());
        CutSet {
            cuts: vec![first],
            signs: s,
            u,
            e,
        }
    }

    fn column(c: &[bool], s: &[f64]) -> Mat<f64> {
        let inv = 1.0 / s.len() as f64;
        Mat::from_fn(s.len(), 1, |i, _| if c[i] { s[i] * inv } else { 0.0 })
    }

    /// Add cut `c` at the current signs.
    pub(crate) fn push(&mut self, gram: &dyn Gram, c: Vec<bool>) {
        let col = Self::column(&c, &self.signs);
        let e = gram.embed(col.as_ref());
        self.u = append(&self.u, &col);
        self.e = append(&self.e, &e);
        self.cuts.push(c);
    }

    /// Move to signs `s`: only the rows whose sign changed are re-embedded.
    pub(crate) fn set_signs(&mut self, gram: &dyn Gram, s: &[f64]) {
        let idx: Vec<usize> = (0..s.len()).filter(|&i| s[i] != self.signs[i]).collect();
        if idx.is_empty() {
            return;
        }
        let inv = 1.0 / s.len() as f64;
        let m = self.cuts.len();
        let delta = Mat::from_fn(idx.len(), m, |r, j| {
            let i = idx[r];
            if self.cuts[j][i] {
                (s[i] - self.signs[i]) * inv
            } else {
                0.0
            }
        });
        let de = gram.embed_rows(&idx, delta.as_ref());
        self.e += de;
        for (r, &i) in idx.iter().enumerate() {
            for j in 0..m {
                self.u[(i, j)] += delta[(r, j)];
            }
            self.signs[i] = s[i];
        }
    }

    /// `Eλ`: the combined embedding of `w = Φ̃ᵀUλ`.
    pub(crate) fn combine(&self, lambda: &[f64]) -> Vec<f64> {
        (0..self.e.nrows())
            .map(|i| {
                lambda
                    .iter()
                    .enumerate()
                    .map(|(j, l)| self.e[(i, j)] * l)
                    .sum()
            })
            .collect()
    }

    /// `c̄_j = (1/n) Σᵢ c_ij`.
    pub(crate) fn c_bar(&self) -> Vec<f64> {
        let inv = 1.0 / self.signs.len() as f64;
        self.cuts
            .iter()
            .map(|c| c.iter().filter(|&&b| b).count() as f64 * inv)
            .collect()
    }

    /// `s̄_j = (1/n) Σᵢ c_ij sᵢ` (column sums of U).
    pub(crate) fn s_bar(&self) -> Vec<f64> {
        (0..self.u.ncols())
            .map(|j| self.u.col(j).iter().sum())
            .collect()
    }
}

/// `[a, b]` side by side.
fn append(a: &Mat<f64>, b: &Mat<f64>) -> Mat<f64> {
    let k = a.ncols();
    Mat::from_fn(a.nrows(), k + b.ncols(), |i, j| {
        if j < k {
            a[(i, j)]
        } else {
            b[(i, j - k)]
        }
    })
}
