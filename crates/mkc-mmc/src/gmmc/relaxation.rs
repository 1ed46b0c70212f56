//! The GMMC relaxation as data: explicit features with a bias column, C and the balance,
//! and the functions both sides of the SDP are made of (the crate docs of
//! [`crate::gmmc`] derive them).
//!
//! Notation: `A = [Φ 1]` (n x m, m = r + 1) with Φ centred (column means 0), so the
//! outputs are `f = A z`, `z = (w, b)`, and the balance `|1ᵀf| ≤ ℓ` is `|b| ≤ β = ℓ/n`.
//! `J = diag(1, …, 1, 0)` picks w out of z.
//!
//! - Primal (P1): `min_{Z ⪰ 0} ½ tr(JZ) + C Σ_i (1 − s_i)` with `s_i = min(1, √(a_iᵀZa_i))`,
//!   `Z_bb ≤ β²` (the Shor relaxation of the QCQP (P0), `Z ≈ z zᵀ`).
//! - Dual (D1): `max_{γ ≥ 0, ν ≥ 0} Σ_i h_C(γ_i) − ν β²` s.t.
//!   `S(γ, ν) = ½J + ν e_b e_bᵀ − Σ_i γ_i a_i a_iᵀ ⪰ 0`, with
//!   `h_C(γ) = min_{0 ≤ s ≤ 1} C(1 − s) + γ s²` (= γ for γ ≤ C/2, C − C²/(4γ) above).

use faer::linalg::matmul::matmul;
use faer::{Accum, Mat, MatRef, Par};
use mkc_core::{Error, Result};

/// One GMMC relaxation: features, C and the balance (validated by [`Relaxation::new`]).
#[derive(Clone, Debug)]
pub struct Relaxation {
    /// `A = [Φ 1]`, n x m, Φ centred.
    pub(crate) a: Mat<f64>,
    pub(crate) c: f64,
    /// β = ℓ / n: the bound on |b|.
    pub(crate) beta: f64,
}

impl Relaxation {
    /// The relaxation on features `phi` (n x r, any r ≥ 0; centred here), regularisation
    /// `c > 0` and balance `ell` (|1ᵀf| ≤ ℓ, 0 < ℓ < n).
    ///
    /// # Errors
    /// Non-finite features, n < 2, C not positive, ℓ outside (0, n).
    pub fn new(phi: MatRef<'_, f64>, c: f64, ell: f64) -> Result<Self> {
        mkc_core::validate::finite("features", phi)?;
        mkc_core::validate::positive("C", c)?;
        let n = phi.nrows();
        if n < 2 {
            return Err(Error::input(
                "data",
                format!("{n} sample(s); GMMC needs at least 2"),
            ));
        }
        if !(ell.is_finite() && ell > 0.0 && ell < n as f64) {
            return Err(Error::param(
                "balance",
                ell,
                format!("the balance ℓ of |1ᵀf| ≤ ℓ must lie in (0, n = {n})"),
            ));
        }
        let r = phi.ncols();
        let mut a = Mat::<f64>::zeros(n, r + 1);
        for j in 0..r {
            let mean = (0..n).map(|i| phi[(i, j)]).sum::<f64>() / n as f64;
            for i in 0..n {
                a[(i, j)] = phi[(i, j)] - mean;
            }
        }
        for i in 0..n {
            a[(i, r)] = 1.0;
        }
        Ok(Self {
            a,
            c,
            beta: ell / n as f64,
        })
    }

    /// Number of samples n.
    pub fn n(&self) -> usize {
        self.a.nrows()
    }

    /// Size m = r + 1 of the moment matrix Z (features and bias).
    pub fn m(&self) -> usize {
        self.a.ncols()
    }

    /// The same features with another C (the LMI of (D1) does not depend on C, so a
    /// solution for one C is a strictly feasible start for another: warm starts along
    /// a grid).
    pub fn with_c(&self, c: f64) -> Result<Self> {
        mkc_core::validate::positive("C", c)?;
        Ok(Self { c, ..self.clone() })
    }

    /// The centred features with their bias column, `A = [Φ 1]`.
    pub fn design(&self) -> MatRef<'_, f64> {
        self.a.as_ref()
    }

    /// `h_C(γ)`: the ξ-part of the Lagrangian minimised, `min_{0≤s≤1} C(1−s) + γs²`.
    pub(crate) fn h(&self, g: f64) -> f64 {
        let c = self.c;
        if g <= 0.5 * c {
            g
        } else {
            c - c * c / (4.0 * g)
        }
    }

    /// The dual objective of (D1), `Σ h_C(γ_i) − ν β²` (a lower bound on (P1) whenever
    /// `S(γ, ν) ⪰ 0`).
    pub fn dual_objective(&self, gamma: &[f64], nu: f64) -> f64 {
        gamma.iter().map(|&g| self.h(g)).sum::<f64>() - nu * self.beta * self.beta
    }

    /// `S(γ, ν) = ½J + ν e_b e_bᵀ − Aᵀ diag(γ) A` (m x m).
    pub fn slack(&self, gamma: &[f64], nu: f64) -> Mat<f64> {
        let (n, m) = (self.n(), self.m());
        let scaled = Mat::from_fn(n, m, |i, j| gamma[i].max(0.0).sqrt() * self.a[(i, j)]);
        let mut s = Mat::<f64>::zeros(m, m);
        matmul(
            s.as_mut(),
            Accum::Replace,
            scaled.transpose(),
            scaled.as_ref(),
            -1.0,
            Par::Seq,
        );
        for j in 0..m - 1 {
            s[(j, j)] += 0.5;
        }
        s[(m - 1, m - 1)] += nu;
        s
    }

    /// `a_iᵀ Z a_i` for every sample (the relaxed squared outputs, diag of `AZAᵀ`).
    pub fn squared_outputs(&self, z: MatRef<'_, f64>) -> Vec<f64> {
        let (n, m) = (self.n(), self.m());
        let mut az = Mat::<f64>::zeros(n, m);
        matmul(
            az.as_mut(),
            Accum::Replace,
            self.a.as_ref(),
            z,
            1.0,
            Par::Seq,
        );
        (0..n)
            .map(|i| (0..m).map(|j| az[(i, j)] * self.a[(i, j)]).sum())
            .collect()
    }

    /// The primal objective of (P1) at a moment matrix Z (with the best slacks
    /// `s_i = min(1, √(a_iᵀZa_i))`), and its balance violation `max(0, Z_bb − β²)`.
    pub fn primal_objective(&self, z: MatRef<'_, f64>) -> (f64, f64) {
        let m = self.m();
        let reg = 0.5 * (0..m - 1).map(|j| z[(j, j)]).sum::<f64>();
        let loss: f64 = self
            .squared_outputs(z)
            .iter()
            .map(|&t| 1.0 - t.max(0.0).sqrt().min(1.0))
            .sum();
        let violation = (z[(m - 1, m - 1)] - self.beta * self.beta).max(0.0);
        (reg + self.c * loss, violation)
    }

    /// Restore the balance of a PSD moment matrix by scaling its bias row and column
    /// (`Z ← DZD`, `D = diag(1, …, 1, θ)`, θ ≤ 1): stays PSD, meets `Z_bb ≤ β²`.
    pub(crate) fn repair_balance(&self, z: &mut Mat<f64>) {
        let b = self.m() - 1;
        let zbb = z[(b, b)];
        let cap = self.beta * self.beta;
        if zbb > cap {
            let theta = (cap / zbb).sqrt();
            for j in 0..=b {
                z[(b, j)] *= theta;
                z[(j, b)] *= theta;
            }
        }
    }
}
