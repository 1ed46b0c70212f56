//! Scalar root finding for AASC's weight step: [`Brent`], a bracketed root finder, and
//! [`roots_between_poles`], which brackets every sign change of a function with known poles.
//!
//! AASC's authors solve their scalar equation with MATLAB's `fsolve` from a start point
//! (a trust-region method that needs no bracket and may return a non-root when there is
//! none). A bracketed method is the robust replacement: it always converges once a sign
//! change is bracketed, and reports when none exists.

use mkc_core::{Error, Result};

/// Brent's bracketed root finder (R. P. Brent, *Algorithms for Minimization without
/// Derivatives*, Prentice-Hall 1973, ch. 4, "zero"): inverse quadratic interpolation and
/// secant steps, safeguarded by bisection so that the bracket shrinks every step.
///
/// ```
/// use mkc_spectral::Brent;
/// let r = Brent::new().solve(|x| x * x - 2.0, 0.0, 2.0)?;
/// assert!((r - 2f64.sqrt()).abs() < 1e-12);
/// # Ok::<(), mkc_core::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Brent {
    /// Absolute tolerance on the root (default 1e-14); the relative tolerance is
    /// 4 · machine epsilon, as in Brent's "zero".
    pub xtol: f64,
    /// Cap on the function evaluations after the two end points (default 200).
    pub max_iter: usize,
}

impl Default for Brent {
    fn default() -> Self {
        Self::new()
    }
}

impl Brent {
    /// Defaults: `xtol = 1e-14`, `max_iter = 200`.
    pub fn new() -> Self {
        Self {
            xtol: 1e-14,
            max_iter: 200,
        }
    }

    /// A root of `f` in `[a, b]`, where `f(a)` and `f(b)` have opposite signs (or one is 0).
    ///
    /// # Errors
    /// `a`, `b` not finite or `a >= b`, or `f(a)`, `f(b)` of the same sign
    /// ([`Error::InvalidInput`]); `f` not finite at a trial point ([`Error::Numerical`]);
    /// `max_iter` evaluations without meeting the tolerance ([`Error::NotConverged`]).
    pub fn solve(&self, mut f: impl FnMut(f64) -> f64, a: f64, b: f64) -> Result<f64> {
        if !(a.is_finite() && b.is_finite() && a < b) {
            return Err(Error::input(
                "Brent bracket",
                format!("need finite a < b, got [{a}, {b}]"),
            ));
        }
        let mut eval = |x: f64| {
            let y = f(x);
            if y.is_finite() {
                Ok(y)
            } else {
                Err(Error::numerical(
                    "Brent root finder",
                    format!("f({x:e}) = {y}"),
                ))
            }
        };
        let (mut a, mut b) = (a, b);
        let (mut fa, mut fb) = (eval(a)?, eval(b)?);
        if fa == 0.0 {
            return Ok(a);
        }
        if fb == 0.0 {
            return Ok(b);
        }
        if fa.signum() == fb.signum() {
            return Err(Error::input(
                "Brent bracket",
                format!("f has the same sign at both ends: f({a:e}) = {fa:e}, f({b:e}) = {fb:e}"),
            ));
        }
        // c is the other end of the bracket [b, c]; d the last step, e the one before.
        let (mut c, mut fc) = (a, fa);
        let mut d = b - a;
        let mut e = d;
        for _ in 0..self.max_iter {
            if fb.signum() == fc.signum() {
                (c, fc) = (a, fa);
                d = b - a;
                e = d;
            }
            if fc.abs() < fb.abs() {
                (a, fa) = (b, fb);
                (b, fb) = (c, fc);
                (c, fc) = (a, fa);
            }
            let tol = 2.0 * f64::EPSILON * b.abs() + 0.5 * self.xtol;
            let m = 0.5 * (c - b);
            if m.abs() <= tol || fb == 0.0 {
                return Ok(b);
            }
            if e.abs() >= tol && fa.abs() > fb.abs() {
                // Secant (a == c) or inverse quadratic interpolation through a, b, c.
                let s = fb / fa;
                let (mut p, mut q) = if a == c {
                    (2.0 * m * s, 1.0 - s)
                } else {
                    let (q, r) = (fa / fc, fb / fc);
                    (
                        s * (2.0 * m * q * (q - r) - (b - a) * (r - 1.0)),
                        (q - 1.0) * (r - 1.0) * (s - 1.0),
                    )
                };
                if p > 0.0 {
                    q = -q;
                } else {
                    p = -p;
                }
                if 2.0 * p < (3.0 * m * q - (tol * q).abs()).min((e * q).abs()) {
                    e = d;
                    d = p / q;
                } else {
                    d = m;
                    e = m;
                }
            } else {
                d = m;
                e = m;
            }
            (a, fa) = (b, fb);
            b += if d.abs() > tol { d } else { tol.copysign(m) };
            fb = eval(b)?;
        }
        Err(Error::NotConverged {
            what: "Brent root finder".into(),
            iterations: self.max_iter,
            residual: fb.abs(),
            tolerance: self.xtol,
        })
    }
}

/// Sample points per interval between two poles in [`roots_between_poles`].
const SAMPLES: usize = 256;

/// Ascending sample points of the real line cut at `poles`, one list per interval on which a
/// function with those poles is continuous (see [`roots_between_poles`]). `poles` must be
/// finite.
pub(crate) fn segments(poles: &[f64]) -> Vec<Vec<f64>> {
    let mut p = poles.to_vec();
    p.sort_by(f64::total_cmp);
    p.dedup();
    let scale = p.iter().fold(1.0f64, |s, &x| s.max(x.abs()));
    let offsets: Vec<f64> = (-128..=128)
        .map(|j| scale * 10f64.powf(f64::from(j) / 16.0))
        .collect();
    let mut segments: Vec<Vec<f64>> = Vec::new();
    match (p.first(), p.last()) {
        (Some(&lo), Some(&hi)) => {
            segments.push(offsets.iter().rev().map(|d| lo - d).collect());
            for w in p.windows(2) {
                let (a, b) = (w[0], w[1]);
                segments.push(
                    (1..SAMPLES)
                        .map(|j| {
                            let t = std::f64::consts::PI * j as f64 / SAMPLES as f64;
                            a + (b - a) * 0.5 * (1.0 - t.cos())
                        })
                        .filter(|&x| x > a && x < b)
                        .collect(),
                );
            }
            segments.push(offsets.iter().map(|d| hi + d).collect());
        }
        _ => segments.push(
            offsets
                .iter()
                .rev()
                .map(|d| -d)
                .chain(std::iter::once(0.0))
                .chain(offsets.iter().copied())
                .collect(),
        ),
    }
    segments
}

/// Every root of `f` that shows as a sign change on a sampling of the real line cut at
/// `poles`, refined by `brent`; ascending, without duplicates.
///
/// Between two consecutive poles `f` is sampled at 255 points spaced as the Chebyshev
/// extrema (dense near the poles); outside the poles at distances `s · 10^(j/16)`,
/// j = −128..=128, from the outermost pole, with `s = max(1, max |pole|)` (without poles:
/// the same distances on both sides of 0). A pair of roots closer than the local sample
/// spacing (a tangency) is missed. Sample points where `f` is not finite are skipped.
///
/// # Errors
/// A pole not finite; errors of [`Brent::solve`] on a bracket.
pub fn roots_between_poles(
    mut f: impl FnMut(f64) -> f64,
    poles: &[f64],
    brent: &Brent,
) -> Result<Vec<f64>> {
    mkc_core::validate::finite_slice("poles", poles)?;
    let segments = segments(poles);
    let mut roots = Vec::new();
    for xs in &segments {
        let mut prev: Option<(f64, f64)> = None;
        for &x in xs {
            let y = f(x);
            if !y.is_finite() {
                prev = None;
                continue;
            }
            if y == 0.0 {
                roots.push(x);
            } else if let Some((x0, _)) =
                prev.filter(|&(_, y0)| y0 != 0.0 && y0.signum() != y.signum())
            {
                roots.push(brent.solve(&mut f, x0, x)?);
            }
            prev = Some((x, y));
        }
    }
    roots.sort_by(f64::total_cmp);
    roots.dedup();
    Ok(roots)
}

/// Distance from the outermost pole, relative to `max(1, max |pole|)`, beyond which an ascent
/// counts as heading to ±∞. Farther out, a function with a finite limit (as AASC's secular
/// function) is flat to rounding, and an ascent would stop at an arbitrary plateau.
pub const FAR: f64 = 1e3;

/// A local maximiser of `f` reached by ascent from `start` without crossing a pole: on the
/// sampling of [`roots_between_poles`], from the sample nearest `start` in its interval,
/// uphill while `f` increases, then golden-section refinement between the neighbouring
/// samples. When `f` keeps increasing up to the last sample of a bounded interval (towards
/// a pole), that sample is returned; when the ascent ends farther than [`FAR`] (relative)
/// beyond the outermost pole, ±∞. `None` when `f` is not finite around `start`.
///
/// # Errors
/// A pole or `start` not finite.
pub fn ascend_between_poles(
    f: impl Fn(f64) -> f64,
    poles: &[f64],
    start: f64,
) -> Result<Option<f64>> {
    mkc_core::validate::finite_slice("poles", poles)?;
    mkc_core::validate::finite_slice("start", &[start])?;
    let segments = segments(poles);
    // The interval of start: the first segment whose last sample is not below start (or
    // the last segment).
    let Some(xs) = segments
        .iter()
        .find(|xs| xs.last().is_some_and(|&l| l >= start))
        .or(segments.last())
    else {
        return Ok(None);
    };
    let Some(mut i) =
        (0..xs.len()).min_by(|&a, &b| (xs[a] - start).abs().total_cmp(&(xs[b] - start).abs()))
    else {
        return Ok(None);
    };
    let y = |j: usize| {
        let v = f(xs[j]);
        if v.is_finite() {
            v
        } else {
            f64::NEG_INFINITY
        }
    };
    if y(i) == f64::NEG_INFINITY {
        return Ok(None);
    }
    let up = i + 1 < xs.len() && y(i + 1) > y(i);
    loop {
        let next = if up { i + 1 } else { i.wrapping_sub(1) };
        if next >= xs.len() || y(next) <= y(i) {
            break;
        }
        i = next;
    }
    let scale = poles.iter().fold(1.0f64, |s, &x| s.max(x.abs()));
    let lo = poles.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = poles.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let (lo, hi) = if poles.is_empty() {
        (0.0, 0.0)
    } else {
        (lo, hi)
    };
    if xs[i] < lo - FAR * scale {
        return Ok(Some(f64::NEG_INFINITY));
    }
    if xs[i] > hi + FAR * scale {
        return Ok(Some(f64::INFINITY));
    }
    if i == 0 || i + 1 == xs.len() {
        return Ok(Some(xs[i]));
    }
    // Golden section for the maximum in [x_{i−1}, x_{i+1}].
    let (mut a, mut b) = (xs[i - 1], xs[i + 1]);
    let r = 0.5 * (5f64.sqrt() - 1.0);
    for _ in 0..100 {
        let (c, d) = (b - r * (b - a), a + r * (b - a));
        if f(c) >= f(d) {
            b = d;
        } else {
            a = c;
        }
    }
    Ok(Some(0.5 * (a + b)))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Plain bisection to 1e-15, an independent reference.
    fn bisect(f: impl Fn(f64) -> f64, mut a: f64, mut b: f64) -> f64 {
        let fa = f(a);
        for _ in 0..200 {
            let m = 0.5 * (a + b);
            if (f(m) > 0.0) == (fa > 0.0) {
                a = m;
            } else {
                b = m;
            }
        }
        0.5 * (a + b)
    }

    #[test]
    fn brent_matches_bisection_on_smooth_and_steep_functions() {
        type Case = (Box<dyn Fn(f64) -> f64>, f64, f64);
        let cases: Vec<Case> = vec![
            (Box::new(|x: f64| x.cos() - x), 0.0, 1.0),
            (Box::new(|x: f64| x.powi(3) - 2.0 * x - 5.0), 2.0, 3.0),
            (Box::new(|x: f64| (x - 0.3).powi(5)), -1.0, 2.0),
            (Box::new(|x: f64| 1e-8 * (x.exp() - 10.0)), 0.0, 5.0),
            (Box::new(|x: f64| (x - 1e-3).atan() * 1e6), -10.0, 10.0),
        ];
        for (f, a, b) in &cases {
            let r = Brent::new().solve(f, *a, *b).unwrap();
            let want = bisect(f, *a, *b);
            assert!((r - want).abs() < 1e-9, "{r} vs {want}");
            // An end point that is a root is returned as it is.
            assert_eq!(Brent::new().solve(|x| x - a, *a, *b).unwrap(), *a);
        }
    }

    #[test]
    fn brent_errors_are_typed() {
        let b = Brent::new();
        for (a, z) in [
            (1.0, 1.0),
            (2.0, 1.0),
            (f64::NAN, 1.0),
            (0.0, f64::INFINITY),
        ] {
            assert!(matches!(
                b.solve(|x| x, a, z),
                Err(Error::InvalidInput { .. })
            ));
        }
        assert!(matches!(
            b.solve(|x| x * x + 1.0, -1.0, 1.0),
            Err(Error::InvalidInput { .. })
        ));
        assert!(matches!(
            b.solve(|x| if x > 0.5 { f64::NAN } else { x - 0.7 }, 0.0, 1.0),
            Err(Error::Numerical { .. })
        ));
        let short = Brent {
            xtol: 1e-300,
            max_iter: 2,
        };
        assert!(matches!(
            short.solve(|x| x.powi(3) - 0.1, 0.0, 1.0),
            Err(Error::NotConverged { .. })
        ));
    }

    #[test]
    fn every_root_between_and_beyond_the_poles_is_found() {
        // Roots −3, 0.5, 2, 2.2, 5 and 40; poles 1 and 4 (each root's sign change is in a
        // different place: left of, between and right of the poles).
        let roots = [-3.0, 0.5, 2.0, 2.2, 5.0, 40.0];
        let f = |x: f64| roots.iter().map(|r| x - r).product::<f64>() / ((x - 1.0) * (x - 4.0));
        let found = roots_between_poles(f, &[4.0, 1.0, 4.0], &Brent::new()).unwrap();
        assert_eq!(found.len(), roots.len(), "{found:?}");
        for (a, b) in found.iter().zip(&roots) {
            assert!((a - b).abs() < 1e-9, "{found:?}");
        }
        // Without poles, and with none: an empty list, not an error.
        let found = roots_between_poles(|x| x - 1e3, &[], &Brent::new()).unwrap();
        assert!((found[0] - 1e3).abs() < 1e-9);
        assert!(roots_between_poles(|x| x * x + 1.0, &[], &Brent::new())
            .unwrap()
            .is_empty());
        assert!(roots_between_poles(|x| x, &[f64::NAN], &Brent::new()).is_err());
    }
}
