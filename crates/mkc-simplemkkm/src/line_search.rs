//! One-dimensional line searches on a step `α ∈ [0, α_max]`, as small reusable types.
//!
//! Each search minimises a scalar function `φ(α)` (here `φ(α) = J(γ + α d)`, eq. (6)) that
//! may fail (`Result`), and reports how it stopped through a named [`Termination`].
//! The paper (after eq. (9)) only says "a one-dimensional line search strategy such as
//! Armijo's rule"; the authors' code uses the golden-section search of SimpleMKL
//! (Rakotomamonjy et al., 2008), which is [`GoldenSection`] here. [`Armijo`] backtracking
//! is the option the paper names.

use mkc_core::{validate, Result};
use mkc_mkkm::params::at_least_one;

/// The golden ratio φ = (1 + √5) / 2.
pub const GOLDEN_RATIO: f64 = 1.618_033_988_749_895;

/// Why a line search stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Termination {
    /// Golden section: the bracket became narrower than [`BracketWidth`] allows.
    BracketWidth,
    /// Armijo: the sufficient-decrease condition ([`ArmijoCondition`]) holds.
    SufficientDecrease,
    /// The evaluation budget ran out; the best point seen is returned.
    MaxEvaluations,
    /// The direction is not a descent direction (slope ≥ 0) or the interval is empty;
    /// the step is 0.
    NoDescent,
}

/// Result of a line search: the chosen step, `φ` there, and the work done.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LineSearchResult {
    /// Chosen step α (0 means "do not move").
    pub step: f64,
    /// φ(step).
    pub value: f64,
    /// Number of calls of φ made by the search.
    pub evaluations: usize,
    /// How the search stopped.
    pub termination: Termination,
}

/// Stopping condition of the golden-section search (SimpleMKL's):
/// stop when `hi − lo ≤ delta_max · |scale|` or when `hi ≤ ε` (machine epsilon).
///
/// `scale` is the unclipped distance to the simplex boundary along the direction
/// (`deltmax` in the authors' code), so `delta_max` is a relative width.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BracketWidth {
    /// Relative width.
    pub delta_max: f64,
    /// The length the width is relative to.
    pub scale: f64,
}

impl BracketWidth {
    /// Whether the bracket `[lo, hi]` is narrow enough.
    pub fn satisfied(&self, lo: f64, hi: f64) -> bool {
        hi - lo <= self.delta_max * self.scale.abs() || hi <= f64::EPSILON
    }
}

/// Golden-section search on a bracket `[lo, hi]` whose end values are known.
///
/// Each round places the two golden points `l < r` in `[a, b]`, takes the smallest of
/// `φ(a), φ(l), φ(r), φ(b)` (first one on ties) and keeps the sub-bracket around it
/// (SimpleMKL's four-point rule: min at `a` → `[a, l]`, at `l` → `[a, r]`, at `r` →
/// `[l, b]`, at `b` → `[r, b]`). Unlike the authors' code, which evaluates both golden
/// points in every round, an interior point that is a golden point of the new bracket
/// is reused, so most rounds cost one evaluation instead of two (same iterates).
/// The result is the best of the last four points (or of the two ends when the bracket
/// is already narrow enough).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GoldenSection {
    /// Relative bracket width at which to stop ([`BracketWidth::delta_max`]). Default 1e-3.
    pub delta_max: f64,
    /// Evaluation budget. Default 100.
    pub max_evaluations: usize,
}

impl Default for GoldenSection {
    fn default() -> Self {
        Self {
            delta_max: 1e-3,
            max_evaluations: 100,
        }
    }
}

impl GoldenSection {
    /// A search with relative width `delta_max` and the default budget.
    pub fn new(delta_max: f64) -> Self {
        Self {
            delta_max,
            ..Self::default()
        }
    }

    /// Validate the settings.
    pub fn check(&self) -> Result<()> {
        validate::positive("golden_section.delta_max", self.delta_max)?;
        at_least_one("golden_section.max_evaluations", self.max_evaluations)
    }

    /// Minimise `phi` on `[lo.0, hi.0]` given `lo = (a, φ(a))`, `hi = (b, φ(b))`; the
    /// width condition is `BracketWidth { delta_max: self.delta_max, scale }`.
    pub fn minimise<F>(
        &self,
        mut phi: F,
        lo: (f64, f64),
        hi: (f64, f64),
        scale: f64,
    ) -> Result<LineSearchResult>
    where
        F: FnMut(f64) -> Result<f64>,
    {
        let cond = BracketWidth {
            delta_max: self.delta_max,
            scale,
        };
        let (mut a, mut fa) = lo;
        let (mut b, mut fb) = hi;
        if a.is_nan() || b.is_nan() || b <= a {
            return Ok(LineSearchResult {
                step: a,
                value: fa,
                evaluations: 0,
                termination: Termination::NoDescent,
            });
        }
        // Best of the two ends (first on ties, as MATLAB's `min`).
        let mut best = if fb < fa { (b, fb) } else { (a, fa) };
        let mut evaluations = 0usize;
        // An interior point carried over to the next round: `Left` becomes the new `l`,
        // `Right` the new `r`.
        let mut carry: Option<(Slot, f64, f64)> = None;
        while !cond.satisfied(a, b) {
            if evaluations >= self.max_evaluations {
                return Ok(LineSearchResult {
                    step: best.0,
                    value: best.1,
                    evaluations,
                    termination: Termination::MaxEvaluations,
                });
            }
            // Golden points of [a, b]: r = a + (b − a)/φ, l = a + (r − a)/φ.
            let mut r = a + (b - a) / GOLDEN_RATIO;
            let mut l = a + (r - a) / GOLDEN_RATIO;
            let (fl, fr);
            match carry.take() {
                Some((Slot::Right, x, fx)) => {
                    r = x;
                    fr = fx;
                    l = a + (r - a) / GOLDEN_RATIO;
                    fl = phi(l)?;
                    evaluations += 1;
                }
                Some((Slot::Left, x, fx)) => {
                    l = x;
                    fl = fx;
                    fr = phi(r)?;
                    evaluations += 1;
                }
                None => {
                    fr = phi(r)?;
                    fl = phi(l)?;
                    evaluations += 2;
                }
            }
            let pts = [(a, fa), (l, fl), (r, fr), (b, fb)];
            let c = argmin_first(&pts);
            best = pts[c];
            match c {
                0 => {
                    b = l;
                    fb = fl;
                }
                1 => {
                    b = r;
                    fb = fr;
                    carry = Some((Slot::Right, l, fl));
                }
                2 => {
                    a = l;
                    fa = fl;
                    carry = Some((Slot::Left, r, fr));
                }
                _ => {
                    a = r;
                    fa = fr;
                }
            }
        }
        Ok(LineSearchResult {
            step: best.0,
            value: best.1,
            evaluations,
            termination: Termination::BracketWidth,
        })
    }
}

#[derive(Clone, Copy, Debug)]
enum Slot {
    Left,
    Right,
}

fn argmin_first(pts: &[(f64, f64)]) -> usize {
    let mut c = 0;
    for (i, p) in pts.iter().enumerate() {
        if p.1 < pts[c].1 {
            c = i;
        }
    }
    c
}

/// Armijo's sufficient-decrease condition `φ(α) ≤ φ(0) + c1 · α · φ'(0)`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ArmijoCondition {
    /// φ(0).
    pub value0: f64,
    /// φ'(0) (negative for a descent direction).
    pub slope0: f64,
    /// The constant c1 ∈ (0, 1).
    pub c1: f64,
}

impl ArmijoCondition {
    /// Whether `value = φ(step)` decreases enough.
    pub fn satisfied(&self, step: f64, value: f64) -> bool {
        value <= self.value0 + self.c1 * step * self.slope0
    }
}

/// Backtracking line search with Armijo's rule (the paper's suggestion after eq. (9)):
/// try `α_max, ρ α_max, ρ² α_max, …` until [`ArmijoCondition`] holds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Armijo {
    /// Sufficient-decrease constant c1 ∈ (0, 1). Default 1e-4.
    pub c1: f64,
    /// Backtracking factor ρ ∈ (0, 1). Default 0.5.
    pub shrink: f64,
    /// Evaluation budget. Default 40.
    pub max_evaluations: usize,
}

impl Default for Armijo {
    fn default() -> Self {
        Self {
            c1: 1e-4,
            shrink: 0.5,
            max_evaluations: 40,
        }
    }
}

impl Armijo {
    /// Validate the settings.
    pub fn check(&self) -> Result<()> {
        if !(self.c1 > 0.0 && self.c1 < 1.0) {
            return Err(mkc_core::Error::param(
                "armijo.c1",
                self.c1,
                "must lie in (0, 1)",
            ));
        }
        if !(self.shrink > 0.0 && self.shrink < 1.0) {
            return Err(mkc_core::Error::param(
                "armijo.shrink",
                self.shrink,
                "must lie in (0, 1)",
            ));
        }
        at_least_one("armijo.max_evaluations", self.max_evaluations)
    }

    /// Search `α ∈ (0, step_max]` given `φ(0) = value0` and `φ'(0) = slope0`. When the
    /// budget runs out without sufficient decrease the step is 0 (no move).
    pub fn search<F>(
        &self,
        mut phi: F,
        value0: f64,
        slope0: f64,
        step_max: f64,
    ) -> Result<LineSearchResult>
    where
        F: FnMut(f64) -> Result<f64>,
    {
        let none = |evaluations, termination| LineSearchResult {
            step: 0.0,
            value: value0,
            evaluations,
            termination,
        };
        if slope0.is_nan() || slope0 >= 0.0 || step_max.is_nan() || step_max <= 0.0 {
            return Ok(none(0, Termination::NoDescent));
        }
        let cond = ArmijoCondition {
            value0,
            slope0,
            c1: self.c1,
        };
        let mut step = step_max;
        for e in 1..=self.max_evaluations {
            let v = phi(step)?;
            if cond.satisfied(step, v) {
                return Ok(LineSearchResult {
                    step,
                    value: v,
                    evaluations: e,
                    termination: Termination::SufficientDecrease,
                });
            }
            step *= self.shrink;
        }
        Ok(none(self.max_evaluations, Termination::MaxEvaluations))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn golden_finds_minimum_of_a_parabola_with_one_evaluation_per_round() {
        let f = |x: f64| (x - 0.37).powi(2);
        let mut calls = 0;
        let gs = GoldenSection::new(1e-6);
        let r = gs
            .minimise(
                |x| {
                    calls += 1;
                    Ok(f(x))
                },
                (0.0, f(0.0)),
                (1.0, f(1.0)),
                1.0,
            )
            .unwrap();
        assert_eq!(r.termination, Termination::BracketWidth);
        assert!((r.step - 0.37).abs() < 2e-6, "{r:?}");
        assert_eq!(calls, r.evaluations);
        // ln(1e6)/ln(φ) ≈ 28.7 rounds; with reuse one call per round plus the first.
        assert!(r.evaluations <= 32, "{}", r.evaluations);
    }

    #[test]
    fn golden_minimum_at_the_left_end_returns_zero_step() {
        let r = GoldenSection::new(1e-3)
            .minimise(Ok, (0.0, 0.0), (0.5, 0.5), 0.5)
            .unwrap();
        assert_eq!(r.step, 0.0);
        assert_eq!(r.value, 0.0);
    }

    #[test]
    fn golden_minimum_at_the_right_end() {
        let r = GoldenSection::new(1e-4)
            .minimise(|x| Ok(-x), (0.0, 0.0), (2.0, -2.0), 2.0)
            .unwrap();
        assert_eq!(r.step, 2.0);
    }

    #[test]
    fn golden_respects_budget_and_propagates_errors() {
        let r = GoldenSection {
            delta_max: 1e-12,
            max_evaluations: 5,
        }
        .minimise(|x| Ok((x - 0.3).abs()), (0.0, 0.3), (1.0, 0.7), 1.0)
        .unwrap();
        assert_eq!(r.termination, Termination::MaxEvaluations);
        assert!(r.evaluations <= 6);
        let e = GoldenSection::new(1e-3).minimise(
            |_| Err(mkc_core::Error::numerical("phi", "boom")),
            (0.0, 1.0),
            (1.0, 2.0),
            1.0,
        );
        assert!(e.is_err());
    }

    #[test]
    fn golden_empty_bracket() {
        let r = GoldenSection::default()
            .minimise(|_| unreachable!(), (0.0, 1.0), (0.0, 1.0), 1.0)
            .unwrap();
        assert_eq!(r.termination, Termination::NoDescent);
        assert_eq!(r.step, 0.0);
    }

    #[test]
    fn armijo_backtracks_until_sufficient_decrease() {
        // φ(α) = (α − 0.1)², φ(0) = 0.01, φ'(0) = −0.2.
        let r = Armijo::default()
            .search(|a| Ok((a - 0.1f64).powi(2)), 0.01, -0.2, 1.0)
            .unwrap();
        assert_eq!(r.termination, Termination::SufficientDecrease);
        assert!(r.step <= 0.2 && r.step > 0.0);
        assert!(ArmijoCondition {
            value0: 0.01,
            slope0: -0.2,
            c1: 1e-4
        }
        .satisfied(r.step, r.value));
        // ascent direction: no step
        let r = Armijo::default()
            .search(|_| unreachable!(), 0.0, 0.5, 1.0)
            .unwrap();
        assert_eq!((r.step, r.termination), (0.0, Termination::NoDescent));
    }

    #[test]
    fn bad_settings_are_rejected() {
        assert!(GoldenSection::new(0.0).check().is_err());
        assert!(GoldenSection::new(f64::NAN).check().is_err());
        assert!(Armijo {
            c1: 1.5,
            ..Armijo::default()
        }
        .check()
        .is_err());
        assert!(Armijo {
            shrink: 0.0,
            ..Armijo::default()
        }
        .check()
        .is_err());
        assert!(Armijo {
            max_evaluations: 0,
            ..Armijo::default()
        }
        .check()
        .is_err());
        assert!(GoldenSection::default().check().is_ok() && Armijo::default().check().is_ok());
    }
}
