//! The most violated label vector (Section 3.5): eq. (11) with the ℓ2 norm replaced by
//! the ∞-norm (eq. 13), split by sign (eq. 14) into linear programs over the label set
//! (eq. 15), each solved exactly by sorting (Proposition 2).
//!
//! Eq. (15), `max_ŷ cᵀŷ` over `ŷ ∈ {±1}ⁿ, −β ≤ 1ᵀŷ ≤ β`: with p the number of +1's the
//! constraint reads `p_lo = ⌈(n−β)/2⌉ ≤ p ≤ ⌊(n+β)/2⌋ = p_hi`. By Proposition 2 the +1's
//! go to the p largest c_i, and the objective grows with p while the next c is positive,
//! so `p* = clamp(#{c_i > 0}, p_lo, p_hi)` ([`solve_lp`]; ties in c broken by the lower
//! index). The paper's wording — the first (n−β)/2 sorted entries −1, the last (n−β)/2
//! +1, the rest set to maximise cᵀŷ — is the same rule.
//!
//! Samples with α_i = 0 have c_i = 0 and any label is optimal for them; we break such
//! ties (ours) by the secondary objective `Σ_i s·x_ij ŷ_i` of the winning feature j and
//! sign s, so those samples follow the same split of feature j as the others, instead
//! of an order-dependent fill ([`solve_lp_tiebreak`]; the value of eq. 15 is unchanged).
//!
//! For eq. (13) only the optimal *values* over all d features and both signs are needed
//! before the winner's label vector is built; [`most_violated`] gets each value from the
//! entries with α_i > 0 (the others have c_i = 0) by a selection instead of a sort:
//! the value is `Σ|c_i|` minus twice the smallest entries that the balance forces to the
//! wrong side. That is O(|supp α|) per feature instead of O(n log n).

use faer::MatRef;
use mkc_core::{Error, Result};
use rayon::prelude::*;

/// `(p_lo, p_hi)`: the admissible numbers of +1 labels under balance β. Errors when β
/// is negative or not finite, when β ≥ n (one cluster would be feasible) or when no
/// integer p fits (e.g. β < 1 with n odd).
pub fn plus_range(n: usize, beta: f64) -> Result<(usize, usize)> {
    if !(beta.is_finite() && beta >= 0.0) {
        return Err(Error::param("balance", beta, "β must be finite and >= 0"));
    }
    if n < 2 {
        return Err(Error::input(
            "data",
            format!("{n} sample(s); clustering needs at least 2"),
        ));
    }
    if beta >= n as f64 {
        return Err(Error::param(
            "balance",
            beta,
            format!("β must be < n = {n} (otherwise all samples in one cluster are feasible)"),
        ));
    }
    let nf = n as f64;
    let lo = ((nf - beta) / 2.0).ceil().max(0.0) as usize;
    let hi = (((nf + beta) / 2.0).floor() as usize).min(n);
    if lo > hi {
        return Err(Error::param(
            "balance",
            beta,
            format!("no labelling of n = {n} samples has |1ᵀy| ≤ β; use β ≥ 1"),
        ));
    }
    Ok((lo, hi))
}

/// Eq. (15) by sorting (Proposition 2): the optimal `ŷ` and its value `cᵀŷ`.
pub fn solve_lp(c: &[f64], beta: f64) -> Result<(Vec<f64>, f64)> {
    solve_lp_ordered(c, None, beta)
}

/// Eq. (15) with ties among the optimal ŷ broken by a secondary objective `keyᵀŷ`
/// (lexicographic: `cᵀŷ` first, then `keyᵀŷ`, then lower indices get +1).
pub fn solve_lp_tiebreak(c: &[f64], key: &[f64], beta: f64) -> Result<(Vec<f64>, f64)> {
    mkc_core::validate::len("key", key.len(), c.len())?;
    mkc_core::validate::finite_slice("key", key)?;
    solve_lp_ordered(c, Some(key), beta)
}

fn solve_lp_ordered(c: &[f64], key: Option<&[f64]>, beta: f64) -> Result<(Vec<f64>, f64)> {
    let n = c.len();
    mkc_core::validate::finite_slice("c", c)?;
    let (lo, hi) = plus_range(n, beta)?;
    let k = |i: usize| key.map_or(0.0, |k| k[i]);
    // Entries that want +1: c > 0, or c = 0 with a positive key.
    let positive = (0..n)
        .filter(|&i| c[i] > 0.0 || (c[i] == 0.0 && k(i) > 0.0))
        .count();
    let p = positive.clamp(lo, hi);
    let mut order: Vec<usize> = (0..n).collect();
    // Descending (c, key), ties to the lower index.
    order.sort_by(|&a, &b| {
        c[b].total_cmp(&c[a])
            .then(k(b).total_cmp(&k(a)))
            .then(a.cmp(&b))
    });
    let mut y = vec![-1.0; n];
    for &i in &order[..p] {
        y[i] = 1.0;
    }
    let value = c.iter().zip(&y).map(|(a, b)| a * b).sum();
    Ok((y, value))
}

/// The most violated label vector found by eqs. (13)–(15).
#[derive(Clone, Debug)]
pub struct Violated {
    /// ŷ ∈ B.
    pub labels: Vec<f64>,
    /// The feature j attaining the maximum of eq. (13).
    pub feature: usize,
    /// The sign of eq. (14) (+1: maximise Σ α_i ŷ_i x_ij, −1: its negative).
    pub sign: f64,
    /// `max_j |Σ_i α_i ŷ_i x_ij|` (eq. 13).
    pub value: f64,
}

/// Sum of the q smallest entries of `buf` (all entries ≥ 0); reorders `buf`.
fn sum_smallest(buf: &mut [f64], q: usize) -> f64 {
    if q == 0 {
        return 0.0;
    }
    if q >= buf.len() {
        return buf.iter().sum();
    }
    buf.select_nth_unstable_by(q - 1, f64::total_cmp);
    buf[..q].iter().sum()
}

/// The value of eq. (15) for one sign: `own` = magnitudes of the entries that want +1,
/// `other` = magnitudes of those that want −1, `zeros` = entries equal to 0.
fn lp_value(
    total: f64,
    own: &mut [f64],
    other: &mut [f64],
    zeros: usize,
    lo: usize,
    hi: usize,
) -> f64 {
    let a = own.len();
    let adjust = if a < lo {
        let q = lo - a;
        if q <= zeros {
            0.0
        } else {
            sum_smallest(other, q - zeros)
        }
    } else if a > hi {
        sum_smallest(own, a - hi)
    } else {
        0.0
    };
    total - 2.0 * adjust
}

/// Eq. (13): over every feature (column of `x`, n x d) and both signs, the best label
/// vector of eq. (15) for `c = α ∘ x_j`; returns the maximiser (ties: lowest feature,
/// then the + sign). Features are scored in parallel; the result does not depend on
/// the number of threads.
pub fn most_violated(x: MatRef<'_, f64>, alpha: &[f64], beta: f64) -> Result<Violated> {
    let (n, d) = (x.nrows(), x.ncols());
    mkc_core::validate::len("alpha", alpha.len(), n)?;
    mkc_core::mkc_ensure!(d > 0, input "features", "no feature columns");
    mkc_core::validate::finite_slice("alpha", alpha)?;
    let (lo, hi) = plus_range(n, beta)?;
    let support: Vec<usize> = (0..n).filter(|&i| alpha[i] != 0.0).collect();
    let scores: Vec<(f64, f64)> = (0..d)
        .into_par_iter()
        .map_init(
            || {
                (
                    Vec::with_capacity(support.len()),
                    Vec::with_capacity(support.len()),
                )
            },
            |(pos, neg), j| {
                pos.clear();
                neg.clear();
                let col = x.col(j);
                let mut total = 0.0;
                for &i in &support {
                    let c = alpha[i] * col[i];
                    if c > 0.0 {
                        pos.push(c);
                        total += c;
                    } else if c < 0.0 {
                        neg.push(-c);
                        total -= c;
                    }
                }
                let zeros = n - pos.len() - neg.len();
                let plus = lp_value(total, pos, neg, zeros, lo, hi);
                let minus = lp_value(total, neg, pos, zeros, lo, hi);
                (plus, minus)
            },
        )
        .collect();
    let (mut best, mut feature, mut sign) = (f64::NEG_INFINITY, 0, 1.0);
    for (j, &(p, m)) in scores.iter().enumerate() {
        if p > best {
            (best, feature, sign) = (p, j, 1.0);
        }
        if m > best {
            (best, feature, sign) = (m, j, -1.0);
        }
    }
    if !best.is_finite() {
        return Err(Error::numerical(
            "most violated label",
            "non-finite score (non-finite features?)",
        ));
    }
    let col = x.col(feature);
    let c: Vec<f64> = (0..n).map(|i| sign * alpha[i] * col[i]).collect();
    let key: Vec<f64> = (0..n).map(|i| sign * col[i]).collect();
    let (labels, value) = solve_lp_tiebreak(&c, &key, beta)?;
    Ok(Violated {
        labels,
        feature,
        sign,
        value,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use faer::Mat;

    /// Every ŷ ∈ B for n ≤ 14, as ±1 vectors.
    fn all_feasible(n: usize, beta: f64) -> Vec<Vec<f64>> {
        (0u32..1 << n)
            .map(|m| {
                (0..n)
                    .map(|i| if m >> i & 1 == 1 { 1.0 } else { -1.0 })
                    .collect::<Vec<f64>>()
            })
            .filter(|y| y.iter().sum::<f64>().abs() <= beta)
            .collect()
    }

    fn lcg(state: &mut u64) -> f64 {
        *state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((*state >> 11) as f64 / (1u64 << 53) as f64) * 2.0 - 1.0
    }

    #[test]
    fn sorting_solves_eq15_exactly_against_brute_force() {
        let mut s = 7u64;
        for n in 2..=14usize {
            for &beta in &[0.0, 1.0, 2.0, 0.3 * n as f64, n as f64 - 1.0] {
                if plus_range(n, beta).is_err() {
                    continue;
                }
                let feas = all_feasible(n, beta);
                for trial in 0..6 {
                    // Some trials with ties and zeros.
                    let c: Vec<f64> = (0..n)
                        .map(|i| match trial {
                            0 => 0.0,
                            1 => ((i % 3) as f64) - 1.0,
                            _ => lcg(&mut s),
                        })
                        .collect();
                    let (y, v) = solve_lp(&c, beta).unwrap();
                    assert!(y.iter().sum::<f64>().abs() <= beta, "n={n} β={beta}");
                    let key: Vec<f64> = (0..n).map(|_| lcg(&mut s)).collect();
                    let (y2, v2) = solve_lp_tiebreak(&c, &key, beta).unwrap();
                    assert!(y2.iter().sum::<f64>().abs() <= beta);
                    assert!((v2 - v).abs() < 1e-12);
                    // Lexicographic: among the optimal ŷ, the best keyᵀŷ.
                    let best2 = feas
                        .iter()
                        .filter(|y| {
                            (c.iter().zip(y.iter()).map(|(a, b)| a * b).sum::<f64>() - v).abs()
                                < 1e-12
                        })
                        .map(|y| key.iter().zip(y).map(|(a, b)| a * b).sum::<f64>())
                        .fold(f64::NEG_INFINITY, f64::max);
                    let k2: f64 = key.iter().zip(&y2).map(|(a, b)| a * b).sum();
                    assert!(
                        (k2 - best2).abs() < 1e-12,
                        "n={n} β={beta} trial {trial}: {k2} vs {best2}"
                    );
                    let brute = feas
                        .iter()
                        .map(|y| c.iter().zip(y).map(|(a, b)| a * b).sum::<f64>())
                        .fold(f64::NEG_INFINITY, f64::max);
                    assert!((v - brute).abs() < 1e-12, "n={n} β={beta} {v} vs {brute}");
                }
            }
        }
    }

    #[test]
    fn eq13_equals_brute_force_of_the_infinity_norm() {
        let mut s = 11u64;
        for n in [3usize, 6, 9, 12, 14] {
            for &beta in &[1.0, 2.0, 4.0] {
                if plus_range(n, beta).is_err() {
                    continue;
                }
                let d = 4;
                let x = Mat::from_fn(n, d, |_, _| lcg(&mut s));
                // α on the simplex with some zeros.
                let mut alpha: Vec<f64> = (0..n)
                    .map(|i| if i % 4 == 1 { 0.0 } else { lcg(&mut s).abs() })
                    .collect();
                let sum: f64 = alpha.iter().sum();
                alpha.iter_mut().for_each(|a| *a /= sum);
                let got = most_violated(x.as_ref(), &alpha, beta).unwrap();
                let mut brute = 0.0f64;
                for y in all_feasible(n, beta) {
                    for j in 0..d {
                        let v: f64 = (0..n).map(|i| alpha[i] * y[i] * x[(i, j)]).sum();
                        brute = brute.max(v.abs());
                    }
                }
                assert!(
                    (got.value - brute).abs() < 1e-12,
                    "n={n}: {} vs {brute}",
                    got.value
                );
                // The returned vector attains the value and is feasible.
                let v: f64 = (0..n)
                    .map(|i| alpha[i] * got.labels[i] * x[(i, got.feature)])
                    .sum();
                assert!((v.abs() - brute).abs() < 1e-12);
                assert!(got.labels.iter().sum::<f64>().abs() <= beta);
            }
        }
    }

    #[test]
    fn infeasible_balances_are_errors() {
        assert!(plus_range(5, 0.0).is_err()); // n odd, β < 1
        assert!(plus_range(4, 0.0).is_ok());
        assert!(plus_range(4, 4.0).is_err()); // β ≥ n
        assert!(plus_range(4, f64::NAN).is_err());
        assert!(plus_range(1, 0.5).is_err());
        assert!(solve_lp(&[1.0, f64::NAN], 1.0).is_err());
        let x = Mat::from_fn(3, 2, |i, j| (i + j) as f64);
        assert!(most_violated(x.as_ref(), &[0.5, 0.5], 1.0).is_err());
    }
}
