//! The kernel-weight step of RMKKM (Du et al. 2015, eq. (17)–(20)), public so that the
//! closed forms can be checked or reused: with the partition and the centres fixed and
//! `e_it` the squared distance of sample i to its centre in kernel t (eq. (16)),
//!
//! - the weights minimise `Σ_i sqrt(Σ_t w_t e_it)` over `w ≥ 0, Σ_t w_t^γ = 1` (eq. (17));
//! - its half-quadratic proxy at the current `w` is `Σ_t w_t h_t` with
//!   `h_t = Σ_i e_it / (2 sqrt(Σ_t' w_t' e_it'))` (eq. (18)–(19));
//! - the proxy's minimiser on the constraint set, for `0 < γ < 1`, is
//!   `w_t = h_t^{1/(γ−1)} / (Σ_t' h_t'^{γ/(γ−1)})^{1/γ}` (eq. (20)).
//!
//! Because `sqrt(x) ≤ x / (2 sqrt(a)) + sqrt(a) / 2` with equality at `x = a`, one step
//! from a feasible `w` never increases eq. (17).

use mkc_core::{validate, Error, Result};

/// Squared distances are clamped at this before square roots (machine epsilon, as the
/// authors' code).
pub const DIST_FLOOR: f64 = f64::EPSILON;

/// The ℓ2,1 objective of eq. (17): `Σ_i sqrt(max(Σ_t w_t e_it, eps))`, with `e[t][i]`.
pub fn l21_objective(e: &[Vec<f64>], w: &[f64]) -> f64 {
    combined(e, w)
        .into_iter()
        .map(|x| x.max(DIST_FLOOR).sqrt())
        .sum()
}

/// `Σ_t w_t e[t][i]` for every sample i.
fn combined(e: &[Vec<f64>], w: &[f64]) -> Vec<f64> {
    let n = e.first().map_or(0, Vec::len);
    (0..n)
        .map(|i| e.iter().zip(w).map(|(et, &wt)| wt * et[i]).sum())
        .collect()
}

/// The proxy coefficients `h_t` of eq. (19) at weights `w`, from `e[t][i]` (squared
/// distances, each clamped at [`DIST_FLOOR`]).
///
/// # Errors
/// `e` empty, of ragged length, or not finite; `w` of the wrong length.
pub fn proxy_coefficients(e: &[Vec<f64>], w: &[f64]) -> Result<Vec<f64>> {
    if e.is_empty() {
        return Err(Error::input("distances", "no kernel"));
    }
    validate::len("kernel weights", w.len(), e.len())?;
    let n = e[0].len();
    for (t, et) in e.iter().enumerate() {
        validate::len("distances per kernel", et.len(), n)?;
        if let Some(i) = et.iter().position(|x| !x.is_finite()) {
            return Err(Error::input(
                "distances",
                format!("e[{t}][{i}] = {} is not finite", et[i]),
            ));
        }
    }
    let e: Vec<Vec<f64>> = e
        .iter()
        .map(|et| et.iter().map(|&x| x.max(DIST_FLOOR)).collect())
        .collect();
    let scale: Vec<f64> = combined(&e, w)
        .into_iter()
        .map(|x| 0.5 / x.max(DIST_FLOOR).sqrt())
        .collect();
    Ok(e.iter()
        .map(|et| et.iter().zip(&scale).map(|(x, s)| x * s).sum())
        .collect())
}

/// The weights of eq. (20) for proxy coefficients `h > 0` and exponent `0 < γ < 1`,
/// computed in log space (`h^{1/(γ−1)}` overflows for γ near 1 otherwise). The result
/// satisfies `Σ_t w_t^γ = 1`.
///
/// # Errors
/// `γ` outside (0, 1); `h` empty or with an entry that is not finite and > 0.
pub fn kernel_weights(h: &[f64], gamma: f64) -> Result<Vec<f64>> {
    check_gamma(gamma)?;
    if h.is_empty() {
        return Err(Error::input("proxy coefficients", "no kernel"));
    }
    if let Some(t) = h.iter().position(|x| !(x.is_finite() && *x > 0.0)) {
        return Err(Error::input(
            "proxy coefficients",
            format!("h[{t}] = {} is not finite and > 0", h[t]),
        ));
    }
    let a = 1.0 / (gamma - 1.0);
    let logs: Vec<f64> = h.iter().map(|x| x.ln()).collect();
    // log Σ_t h_t^{γ/(γ−1)}, by log-sum-exp.
    let terms: Vec<f64> = logs.iter().map(|l| gamma * a * l).collect();
    let top = terms.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let lse = top + terms.iter().map(|x| (x - top).exp()).sum::<f64>().ln();
    Ok(logs.iter().map(|l| (a * l - lse / gamma).exp()).collect())
}

/// `0 < γ < 1` (eq. (7)).
pub(crate) fn check_gamma(gamma: f64) -> Result<()> {
    mkc_core::mkc_ensure!(
        gamma.is_finite() && gamma > 0.0 && gamma < 1.0,
        param "gamma", gamma, "must be in (0, 1)"
    );
    Ok(())
}
