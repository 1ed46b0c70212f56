//! The objective J(θ, y) through the dual (eqs. 10–11): a C-SVC on the kernel K̃/E(θ, y),
//! K̃ = Σ_v θ_v K⁽ᵛ⁾ (eq. 3), whose optimal dual value is J (strong duality).

use crate::variance::Variance;
use faer::{Mat, MatRef};
use mkc_core::{Error, Result};
use mkc_svm::{AsSvcKernel, CSvc, SvcModel};

/// K̃ = Σ_v θ_v K⁽ᵛ⁾ (eq. 3) into a preallocated N x N matrix.
pub fn composite_into(
    dst: &mut Mat<f64>,
    theta: &[f64],
    kernels: &[MatRef<'_, f64>],
) -> Result<()> {
    // Kernels with θ_v = 0 are left out (θ on the simplex or the sphere is often sparse).
    let (w, ks) = mkc_linalg::nonzero_terms(theta, kernels)?;
    if w.is_empty() {
        return mkc_linalg::weighted_sum_into(dst.as_mut(), theta, kernels);
    }
    mkc_linalg::weighted_sum_into(dst.as_mut(), &w, &ks)
}

/// One evaluation of J at (θ, y).
#[derive(Clone, Debug)]
pub struct Evaluation {
    /// J(θ, y), eq. (11).
    pub j: f64,
    /// E(θ, y), eq. (7).
    pub e: f64,
    /// The C-SVC solution of eq. (10) (kernel scale 1/E).
    pub model: SvcModel,
}

/// E(θ, y) from the per-kernel terms, checked to be finite and > 0 (a zero variance,
/// e.g. all points identical in feature space, makes eq. 10 undefined).
pub fn variance_total(var: &Variance, theta: &[f64]) -> Result<f64> {
    let e = var.total(theta);
    if !(e.is_finite() && e > 0.0) {
        return Err(Error::numerical(
            "RMKC variance E(θ, y)",
            format!("E = {e:e}; eq. (10) needs E > 0 (are all points identical in feature space?)"),
        ));
    }
    Ok(e)
}

/// J(θ, y) by eq. (11): solve eq. (10) on the composite kernel `k_tilde` (K̃(θ), formed
/// and checked, or a [`mkc_svm::KernelSum`] formed column by column as the solver reads
/// it) with scale 1/E, warm-started from `warm` (an α) if given.
pub fn evaluate<K: AsSvcKernel + ?Sized>(
    svc: &CSvc,
    k_tilde: &K,
    var: &Variance,
    theta: &[f64],
    warm: Option<&[f64]>,
) -> Result<Evaluation> {
    let e = variance_total(var, theta)?;
    let model = svc.solve(k_tilde, 1.0 / e, var.labels(), warm)?;
    Ok(Evaluation {
        j: model.objective,
        e,
        model,
    })
}

/// J after labels changed on the same K̃: warm start from the previous evaluation with
/// the O(N) per-flip gradient rebuild of [`CSvc::solve_from`].
pub fn evaluate_from<K: AsSvcKernel + ?Sized>(
    svc: &CSvc,
    k_tilde: &K,
    var: &Variance,
    theta: &[f64],
    prev: &Evaluation,
    prev_y: &[f64],
) -> Result<Evaluation> {
    let e = variance_total(var, theta)?;
    let model = svc.solve_from(
        k_tilde,
        1.0 / e,
        var.labels(),
        &prev.model,
        prev_y,
        1.0 / prev.e,
    )?;
    Ok(Evaluation {
        j: model.objective,
        e,
        model,
    })
}

/// The primal value of eq. (5), ½E‖w‖² + C Σ ξ_i, from a dual solution: with
/// w = Σ_i α_i y_i φ̃(x_i)/E (the stationarity condition of eq. 5), E‖w‖² =
/// βᵀK̃β/E for β = α ∘ y, and ξ_i = max(0, 1 − y_i f_i). Equals J at the optimum.
pub fn primal_value(k_tilde: MatRef<'_, f64>, y: &[f64], e: f64, c: f64, model: &SvcModel) -> f64 {
    let beta: Vec<f64> = model.alpha.iter().zip(y).map(|(a, t)| a * t).collect();
    let q = quad_support(k_tilde, &beta, &model.support);
    let n = y.len();
    let mut slack = 0.0;
    for i in 0..n {
        let mut f = model.b;
        for &j in &model.support {
            f += beta[j] * k_tilde[(i, j)] / e;
        }
        slack += (1.0 - y[i] * f).max(0.0);
    }
    0.5 * q / e + c * slack
}

/// βᵀKβ over the support (β_j = 0 elsewhere), O(N·|SV|) reads in column order.
pub fn quad_support(k: MatRef<'_, f64>, beta: &[f64], support: &[usize]) -> f64 {
    let mut q = 0.0;
    for &j in support {
        let col = k.col(j);
        let mut s = 0.0;
        for &i in support {
            s += beta[i] * col[i];
        }
        q += beta[j] * s;
    }
    q
}
