//! A [`Progress`] for command lines: a byte bar per file on standard error when it is
//! a terminal, and one line per file on standard output ([`FileReport::summary`]).

use super::{FileReport, Progress};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::sync::Mutex;
use std::time::Duration;

/// Progress bar (terminal only) and one line per file.
#[derive(Debug)]
pub struct TermProgress {
    bar: Mutex<Option<ProgressBar>>,
    terminal: bool,
}

impl Default for TermProgress {
    fn default() -> Self {
        TermProgress::new()
    }
}

impl TermProgress {
    /// A bar when standard error is a terminal; lines in any case.
    pub fn new() -> Self {
        TermProgress {
            bar: Mutex::new(None),
            terminal: std::io::stderr().is_terminal(),
        }
    }

    fn with_bar(&self, f: impl FnOnce(&ProgressBar)) {
        if let Ok(guard) = self.bar.lock() {
            if let Some(b) = guard.as_ref() {
                f(b);
            }
        }
    }
}

impl Progress for TermProgress {
    fn start(&self, rel: &str, size: Option<u64>) {
        if !self.terminal {
            return;
        }
        let bar = ProgressBar::with_draw_target(size, ProgressDrawTarget::stderr());
        let style = ProgressStyle::with_template(
            "{msg} [{bar:30}] {bytes}/{total_bytes} {bytes_per_sec} {eta}",
        )
        .map(|s| s.progress_chars("=> "))
        .unwrap_or_else(|_| ProgressStyle::default_bar());
        bar.set_style(style);
        bar.set_message(rel.to_string());
        if let Ok(mut guard) = self.bar.lock() {
            *guard = Some(bar);
        }
    }

    fn bytes(&self, _rel: &str, done: u64) {
        self.with_bar(|b| b.set_position(done));
    }

    fn retry(&self, rel: &str, why: &str, wait: Duration) {
        let line = format!("retry    {rel} in {:.1} s: {why}", wait.as_secs_f64());
        match self.bar.lock().ok().and_then(|g| g.clone()) {
            Some(b) => b.suspend(|| eprintln!("{line}")),
            None => eprintln!("{line}"),
        }
    }

    fn finish(&self, report: &FileReport) {
        if let Ok(mut guard) = self.bar.lock() {
            if let Some(b) = guard.take() {
                b.finish_and_clear();
            }
        }
        println!("{}", report.summary());
    }
}
