//! The intra-cluster variance E(θ, y) of eq. (6)–(7), kept per basis kernel.
//!
//! For kernel v, with clusters P = {y = +1} and M = {y = −1} (sizes n₊, n₋), the inner
//! sum of eq. (7) telescopes (Σ_{i∈k} Σ_j K_ij/n_k = S_k/n_k) to
//!
//! ```text
//! E_v(y) = (1/N) · ( tr K⁽ᵛ⁾ − S₊⁽ᵛ⁾/n₊ − S₋⁽ᵛ⁾/n₋ ),   S_k⁽ᵛ⁾ = Σ_{j,l∈k} K⁽ᵛ⁾_jl,
//! ```
//!
//! and E(θ, y) = Σ_v θ_v E_v(y) (eq. 7), so ∂E/∂θ_v = E_v (used by eq. 12). An empty
//! cluster contributes 0 (our convention; RMKC never evaluates it, as the SVM needs
//! both classes).
//!
//! We keep, per kernel, the row sums r = K1 (fixed) and u = K1_P (the sums over the
//! positive cluster). Then S₊ = Σ_{i∈P} u_i and S₋ = Σ_{i∈M} (r_i − u_i). Building
//! them costs O(V·N²) once per label vector; a single flip of label i changes u by
//! ±K_{:,i} and S₊, S₋ by closed forms, O(V·N) in all ([`Variance::flip`]).

use faer::MatRef;
use mkc_core::{Error, Result};

/// Per-kernel variance terms E_v(y) for one label vector, updatable by single flips.
#[derive(Clone, Debug)]
pub struct Variance {
    n: usize,
    n_plus: usize,
    y: Vec<f64>,
    trace: Vec<f64>,
    diag: Vec<Vec<f64>>,
    rowsum: Vec<Vec<f64>>,
    plus: Vec<Vec<f64>>,
    s_plus: Vec<f64>,
    s_minus: Vec<f64>,
}

/// `out += a · K[:, j]`.
#[inline]
pub(crate) fn add_col(k: MatRef<'_, f64>, j: usize, a: f64, out: &mut [f64]) {
    match k.col(j).try_as_col_major() {
        Some(c) => out
            .iter_mut()
            .zip(c.as_slice())
            .for_each(|(o, &x)| *o += a * x),
        None => out
            .iter_mut()
            .enumerate()
            .for_each(|(i, o)| *o += a * k[(i, j)]),
    }
}

impl Variance {
    /// Build from the basis kernels (same size N, validated by the caller, e.g. through a
    /// [`mkc_core::KernelSet`]) and labels y ∈ {±1}ᴺ. O(V·N²).
    pub fn new(kernels: &[MatRef<'_, f64>], y: &[f64]) -> Result<Self> {
        let n = y.len();
        if kernels.is_empty() {
            return Err(Error::input("kernels", "no kernels given"));
        }
        for (v, k) in kernels.iter().enumerate() {
            if k.nrows() != n || k.ncols() != n {
                return Err(Error::shape(
                    format!("kernels[{v}]"),
                    format!("{n} x {n} (the number of labels)"),
                    format!("{} x {}", k.nrows(), k.ncols()),
                ));
            }
        }
        if let Some(i) = y.iter().position(|&t| t != 1.0 && t != -1.0) {
            return Err(Error::input(
                "labels y",
                format!("label {} at index {i} is not -1 or +1", y[i]),
            ));
        }
        let v = kernels.len();
        let mut me = Self {
            n,
            n_plus: y.iter().filter(|&&t| t > 0.0).count(),
            y: y.to_vec(),
            trace: vec![0.0; v],
            diag: Vec::with_capacity(v),
            rowsum: Vec::with_capacity(v),
            plus: Vec::with_capacity(v),
            s_plus: vec![0.0; v],
            s_minus: vec![0.0; v],
        };
        for (vi, k) in kernels.iter().enumerate() {
            let diag: Vec<f64> = (0..n).map(|i| k[(i, i)]).collect();
            me.trace[vi] = diag.iter().sum();
            let mut r = vec![0.0; n];
            let mut u = vec![0.0; n];
            for (j, &yj) in y.iter().enumerate() {
                add_col(*k, j, 1.0, &mut r);
                if yj > 0.0 {
                    add_col(*k, j, 1.0, &mut u);
                }
            }
            me.diag.push(diag);
            me.rowsum.push(r);
            me.plus.push(u);
        }
        for vi in 0..v {
            me.refresh_sums(vi);
        }
        Ok(me)
    }

    fn refresh_sums(&mut self, vi: usize) {
        let (u, r) = (&self.plus[vi], &self.rowsum[vi]);
        let (mut sp, mut sm) = (0.0, 0.0);
        for i in 0..self.n {
            if self.y[i] > 0.0 {
                sp += u[i];
            } else {
                sm += r[i] - u[i];
            }
        }
        self.s_plus[vi] = sp;
        self.s_minus[vi] = sm;
    }

    /// The labels this state describes.
    pub fn labels(&self) -> &[f64] {
        &self.y
    }

    /// Number of basis kernels V.
    pub fn n_kernels(&self) -> usize {
        self.trace.len()
    }

    /// E_v(y) for kernel v (eq. 7 without θ_v): the composite E is Σ_v θ_v E_v.
    pub fn term(&self, v: usize) -> f64 {
        from_sums(
            self.trace[v],
            self.s_plus[v],
            self.s_minus[v],
            self.n_plus,
            self.n,
        )
    }

    /// All E_v(y), v = 0..V.
    pub fn terms(&self) -> Vec<f64> {
        (0..self.n_kernels()).map(|v| self.term(v)).collect()
    }

    /// E(θ, y) = Σ_v θ_v E_v(y) (eq. 7).
    pub fn total(&self, theta: &[f64]) -> f64 {
        theta
            .iter()
            .enumerate()
            .map(|(v, t)| t * self.term(v))
            .sum()
    }

    /// Flip label i (y_i ← −y_i), O(V·N): u ← u ± K_{:,i} and closed-form updates of
    /// S₊, S₋ (moving i out of one cluster and into the other).
    pub fn flip(&mut self, kernels: &[MatRef<'_, f64>], i: usize) -> Result<()> {
        if i >= self.n {
            return Err(Error::input(
                "flip",
                format!("index {i} out of range (N = {})", self.n),
            ));
        }
        if kernels.len() != self.n_kernels() {
            return Err(Error::shape(
                "kernels",
                format!("{}", self.n_kernels()),
                format!("{}", kernels.len()),
            ));
        }
        let to_plus = self.y[i] < 0.0;
        for (vi, k) in kernels.iter().enumerate() {
            let kii = self.diag[vi][i];
            let ui = self.plus[vi][i];
            let ri = self.rowsum[vi][i];
            // Σ_{j∈P} K_ij = u_i, Σ_{j∈M} K_ij = r_i − u_i (before the move).
            if to_plus {
                // i leaves M, joins P.
                self.s_minus[vi] -= 2.0 * (ri - ui) - kii;
                self.s_plus[vi] += 2.0 * ui + kii;
                add_col(*k, i, 1.0, &mut self.plus[vi]);
            } else {
                self.s_plus[vi] -= 2.0 * ui - kii;
                self.s_minus[vi] += 2.0 * (ri - ui) + kii;
                add_col(*k, i, -1.0, &mut self.plus[vi]);
            }
        }
        if to_plus {
            self.n_plus += 1;
        } else {
            self.n_plus -= 1;
        }
        self.y[i] = -self.y[i];
        Ok(())
    }
}

/// E for a single (composite) kernel K̃ and labels y, O(N·n₊ + N): eq. (6) through
/// the kernel trick. Used by the initialisation, where every split has its own y.
pub fn composite_variance(k: MatRef<'_, f64>, rowsum: &[f64], y: &[f64], u: &mut [f64]) -> f64 {
    let n = y.len();
    u.iter_mut().for_each(|x| *x = 0.0);
    let mut n_plus = 0usize;
    let mut tr = 0.0;
    for j in 0..n {
        tr += k[(j, j)];
        if y[j] > 0.0 {
            n_plus += 1;
            add_col(k, j, 1.0, u);
        }
    }
    let (mut sp, mut sm) = (0.0, 0.0);
    for i in 0..n {
        if y[i] > 0.0 {
            sp += u[i];
        } else {
            sm += rowsum[i] - u[i];
        }
    }
    from_sums(tr, sp, sm, n_plus, n)
}

/// E from its sums: `(tr K̃ − S₊/n₊ − S₋/n₋) / n`, an empty side contributing nothing
/// (`sp`, `sm`: the within-cluster sums of the positive and negative side).
pub(crate) fn from_sums(tr: f64, sp: f64, sm: f64, n_plus: usize, n: usize) -> f64 {
    let n_minus = n - n_plus;
    let mut e = tr;
    if n_plus > 0 {
        e -= sp / n_plus as f64;
    }
    if n_minus > 0 {
        e -= sm / n_minus as f64;
    }
    e / n as f64
}
