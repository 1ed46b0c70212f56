//! Wall-clock timings by phase.

use std::time::Instant;

/// Wall-clock seconds of a fit: the whole run ([`Timings::wall`]) and each named phase
/// (e.g. `"eigensolve"`, `"svm"`, `"kmeans"`), in the order the phases first ran.
/// Repeated phases add up.
///
/// The wall time is set by [`crate::DynClusterer`] around each fit when the method left
/// it at 0; methods whose restarts share work ([`crate::Clusterer::fit_restarts`]) set
/// each run's wall time to its own part plus an equal share of the shared part.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Timings {
    wall: f64,
    phases: Vec<(&'static str, f64)>,
}

impl Timings {
    /// Wall-clock seconds of the whole fit (0 when not measured).
    pub fn wall(&self) -> f64 {
        self.wall
    }

    /// Set the wall-clock seconds of the whole fit.
    pub fn set_wall(&mut self, seconds: f64) {
        self.wall = seconds;
    }

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

/// `1.23 s (svm 0.80 s, kmeans 0.40 s)`: the wall time, then each phase in first-run order.
impl std::fmt::Display for Timings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:.2} s", self.wall)?;
        for (i, (p, s)) in self.phases.iter().enumerate() {
            let sep = if i == 0 { " (" } else { ", " };
            write!(f, "{sep}{p} {s:.2} s")?;
        }
        if !self.phases.is_empty() {
            write!(f, ")")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::Timings;

    #[test]
    fn display_lists_wall_time_then_phases_in_order() {
        let mut t = Timings::default();
        assert_eq!(t.to_string(), "0.00 s");
        t.set_wall(1.234);
        t.add("svm", 0.8);
        t.add("kmeans", 0.4);
        t.add("svm", 0.01);
        assert_eq!(t.to_string(), "1.23 s (svm 0.81 s, kmeans 0.40 s)");
    }
}
