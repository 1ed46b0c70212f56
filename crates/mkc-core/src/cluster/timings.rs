//! Wall-clock timings by phase.

use std::time::Instant;

/// Wall-clock seconds spent in each named phase of a fit (e.g. `"eigensolve"`,
/// `"svm"`, `"kmeans"`), in the order the phases first ran. Repeated phases add up.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Timings {
    phases: Vec<(&'static str, f64)>,
}

impl Timings {
    /// Add `seconds` to `phase`.
    pub fn add(&mut self, phase: &'static str, seconds: f64) {
        match self.phases.iter_mut().find(|(p, _)| *p == phase) {
            Some((_, s)) => *s += seconds,
            None => self.phases.push((phase, seconds)),
        }
    }

    /// Run `f`, charging its wall-clock time to `phase`.
    pub fn time<T>(&mut self, phase: &'static str, f: impl FnOnce() -> T) -> T {
        let t0 = Instant::now();
        let out = f();
        self.add(phase, t0.elapsed().as_secs_f64());
        out
    }

    /// Seconds spent in `phase` (0 when it never ran).
    pub fn get(&self, phase: &str) -> f64 {
        self.phases
            .iter()
            .find(|(p, _)| *p == phase)
            .map_or(0.0, |(_, s)| *s)
    }

    /// The phases and their seconds, in first-run order.
    pub fn phases(&self) -> &[(&'static str, f64)] {
        &self.phases
    }

    /// Total seconds over all phases.
    pub fn total(&self) -> f64 {
        self.phases.iter().map(|(_, s)| s).sum()
    }

    /// Add every phase of `other` (e.g. a sub-solver's timings).
    pub fn merge(&mut self, other: &Timings) {
        for &(p, s) in &other.phases {
            self.add(p, s);
        }
    }
}
