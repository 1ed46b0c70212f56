//! The y update, Algorithm 2 (CLUSTER_UPD): two phases, both from y⁽⁰⁾ = y.
//!
//! - Phase 1 builds up to L candidates by moving instances from +1 to −1; phase 2 by
//!   moving instances from −1 to +1. Each candidate adds one flip (eq. 14) to the
//!   previous one; the instance is chosen by eq. (13): among the unflipped instances
//!   of the phase's source cluster, the one with the smallest y_i f_i (f the decision
//!   values of the SVM for the current candidate); ties go to the lowest index.
//! - The balance bound caps each phase: L₁ ≤ (ℓ + Σy⁽⁰⁾)/2, L₂ ≤ (ℓ − Σy⁽⁰⁾)/2
//!   (floored), and each phase leaves at least one instance in its source cluster
//!   (the SVM of eq. 10 needs both classes).
//! - The result is the best of the 2L + 1 label vectors (y⁽⁰⁾ and both phases' candidates,
//!   eq. 15): the least J, ties to the earliest in the order y⁽⁰⁾, phase 1, phase 2, so
//!   y changes only on a strict decrease.
//! - Every SVM solve is warm-started from the previous candidate's solution on the same
//!   K̃ ([`mkc_svm::CSvc::solve_from`], O(N) per flipped support vector), and the
//!   variance terms are updated in O(V·N) per flip ([`Variance::flip`]).
//! - The two phases run in parallel (`rayon::join`): they share nothing but y⁽⁰⁾.

use crate::objective::{evaluate_from, Evaluation};
use crate::params::Rmkc;
use crate::variance::Variance;
use faer::MatRef;
use mkc_core::Result;
use mkc_svm::KernelSum;

/// Outcome of one label step.
#[derive(Clone, Debug)]
pub struct LabelStep {
    /// The variance state of the chosen labels (holds y').
    pub var: Variance,
    /// J and the SVM at y'.
    pub eval: Evaluation,
    /// Number of flips of y' relative to y⁽⁰⁾ (0: unchanged).
    pub n_flips: usize,
    /// Candidates evaluated (SVM solves).
    pub n_candidates: usize,
}

/// Maximum number of moves out of the cluster `sign` allowed by the balance bound ℓ
/// and by keeping the source cluster non-empty, capped at L.
pub fn phase_length(l: usize, ell: f64, y: &[f64], sign: f64) -> usize {
    let sum: f64 = y.iter().sum();
    let room = ((ell + sign * sum) / 2.0 + 1e-9).floor().max(0.0) as usize;
    let source = y.iter().filter(|&&t| t == sign).count();
    l.min(room).min(source.saturating_sub(1))
}

/// The best candidate of one phase: (variance state, evaluation, flips), if any
/// candidate lowered J strictly below `j0`; and the number of candidates evaluated.
type PhaseBest = (Option<(Variance, Evaluation, usize)>, usize);

/// What the two phases share: the parameters, the basis kernels, K̃(θ) and θ.
struct Shared<'s, 'a> {
    rmkc: &'s Rmkc,
    kernels: &'s [MatRef<'a, f64>],
    k_tilde: &'s KernelSum<'a>,
    theta: &'s [f64],
}

/// One phase of Algorithm 2: up to `len` flips out of the cluster `sign`, each chosen
/// by eq. (13) and re-solved warm from the previous candidate (eq. 14).
fn phase(
    sh: &Shared<'_, '_>,
    sign: f64,
    len: usize,
    var0: &Variance,
    ev0: &Evaluation,
) -> Result<PhaseBest> {
    let y0 = var0.labels();
    let mut best: Option<(Variance, Evaluation, usize)> = None;
    let mut best_j = ev0.j;
    let mut n_candidates = 0;
    let mut var = var0.clone();
    let mut ev = ev0.clone();
    let mut prev_y = y0.to_vec();
    for step in 0..len {
        // eq. (13): unflipped instances of the source cluster, least y_i f_i.
        let y = var.labels();
        let mut pick: Option<(usize, f64)> = None;
        for i in 0..y.len() {
            if y[i] == sign && y[i] == y0[i] {
                let m = y[i] * ev.model.decision[i];
                if pick.is_none_or(|(_, b)| m < b) {
                    pick = Some((i, m));
                }
            }
        }
        let Some((i, _)) = pick else { break };
        prev_y.copy_from_slice(var.labels());
        var.flip(sh.kernels, i)?;
        ev = evaluate_from(&sh.rmkc.svc, sh.k_tilde, &var, sh.theta, &ev, &prev_y)?;
        n_candidates += 1;
        if ev.j < best_j {
            best_j = ev.j;
            best = Some((var.clone(), ev.clone(), step + 1));
        }
    }
    Ok((best, n_candidates))
}

/// Algorithm 2 from (θ, y⁽⁰⁾) on the composite kernel `k_tilde` = K̃(θ) (columns formed
/// as the solves read them; the two phases share them).
/// `ev0` is the evaluation at y⁽⁰⁾. The two phases are independent (both start from
/// y⁽⁰⁾) and run in parallel (`rayon::join`); the result does not depend on the
/// number of threads.
pub fn label_step(
    rmkc: &Rmkc,
    kernels: &[MatRef<'_, f64>],
    k_tilde: &KernelSum<'_>,
    theta: &[f64],
    ell: f64,
    var0: Variance,
    ev0: Evaluation,
) -> Result<LabelStep> {
    let y0 = var0.labels();
    let len1 = phase_length(rmkc.l, ell, y0, 1.0);
    let len2 = phase_length(rmkc.l, ell, y0, -1.0);
    let sh = Shared {
        rmkc,
        kernels,
        k_tilde,
        theta,
    };
    let (p1, p2) = rayon::join(
        || phase(&sh, 1.0, len1, &var0, &ev0),
        || phase(&sh, -1.0, len2, &var0, &ev0),
    );
    let ((b1, c1), (b2, c2)) = (p1?, p2?);
    let n_candidates = c1 + c2;
    // eq. (15): least J, ties to the earliest (y⁽⁰⁾, then phase 1, then phase 2).
    let best = match (b1, b2) {
        (Some(a), Some(b)) => Some(if b.1.j < a.1.j { b } else { a }),
        (a, b) => a.or(b),
    };
    Ok(match best {
        Some((var, eval, n_flips)) => LabelStep {
            var,
            eval,
            n_flips,
            n_candidates,
        },
        None => LabelStep {
            var: var0,
            eval: ev0,
            n_flips: 0,
            n_candidates,
        },
    })
}
