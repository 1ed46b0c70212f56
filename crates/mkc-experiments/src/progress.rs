//! An indicatif progress bar over the jobs of a run, drawn only when asked for and
//! when stderr is a terminal (hidden in tests and CI logs).

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;

/// A progress bar that may be hidden.
pub struct Progress {
    bar: ProgressBar,
}

impl Progress {
    /// A bar with no jobs yet; hidden unless `show` and stderr is a terminal.
    pub fn new(show: bool) -> Self {
        let bar = ProgressBar::with_draw_target(Some(0), ProgressDrawTarget::hidden());
        if show && std::io::stderr().is_terminal() {
            bar.set_draw_target(ProgressDrawTarget::stderr());
            if let Ok(style) = ProgressStyle::with_template(
                "{spinner} [{elapsed_precise}] {bar:30} {pos}/{len} jobs  {msg}",
            ) {
                bar.set_style(style);
            }
        }
        Progress { bar }
    }
    /// Add `n` jobs to the total.
    pub fn add(&self, n: u64) {
        self.bar.inc_length(n);
    }
    /// `n` jobs done.
    pub fn inc(&self, n: u64) {
        self.bar.inc(n);
    }
    /// Show what is being worked on.
    pub fn message(&self, m: &str) {
        self.bar.set_message(m.to_string());
    }
    /// Remove the bar.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}
