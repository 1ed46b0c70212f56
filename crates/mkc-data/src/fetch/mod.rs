//! Getting the registered files into a data directory: `mkc datasets fetch` as a
//! library.
//!
//! Each file of the requested datasets is taken, in this order, from
//! 1. the data directory itself, when it holds the file with the registered size and
//!    sha256 (nothing is done: [`Outcome::Present`]);
//! 2. a local directory of [`FetchOptions::local_copies`] holding a verified copy at
//!    the same relative path (the repository's `data/` folder for committed files, a
//!    shared data folder);
//! 3. its recorded URLs (a file of a public repository pinned to a commit, then its
//!    mirror), over HTTP(S) with the `fetch` feature.
//!
//! A download goes to `<file>.part` in the target directory and is renamed to its final
//! name only after its size and sha256 match the registry, so a file under its final
//! name is always complete. An interrupted download is resumed with an HTTP `Range`
//! request, by a retry or by a later fetch; a failed attempt that may succeed later
//! (connection lost, timeout, HTTP 5xx) is retried after a back-off that doubles up
//! to [`FetchOptions::max_backoff`], at most [`FetchOptions::attempts`] times per URL
//! (once, for the later files of a fetch, at a host that never answered).
//! A checksum mismatch deletes the download; the error names the file, the expected
//! and the received sha256. Concurrent fetches of one file (threads or processes)
//! download it once: a lock file `<file>.lock` lets one work while the others wait,
//! then find the file present.
//!
//! ```no_run
//! use mkc_data::fetch::{fetch, FetchOptions, Silent};
//! use mkc_data::{DataDir, Registry};
//!
//! let registry = Registry::load_default()?;
//! let dir = DataDir::resolve(None);
//! for r in fetch(&registry, &["coil20-3v19"], &dir, &FetchOptions::default(), &Silent)? {
//!     println!("{}", r.summary());
//! }
//! # Ok::<(), mkc_core::Error>(())
//! ```

#[cfg(feature = "fetch")]
mod http;
mod lock;
#[cfg(feature = "fetch")]
mod progress;
mod run;
#[cfg(feature = "fetch")]
mod web;

#[cfg(feature = "fetch")]
pub use progress::TermProgress;
pub use run::fetch_file;

use crate::datadir::DataDir;
use crate::registry::{Download, DownloadSource, Registry};
use mkc_core::{Error, Result};
use std::path::PathBuf;
use std::time::Duration;

/// How to fetch.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FetchOptions {
    /// Attempts per URL, 1..=20 (default 4).
    pub attempts: u32,
    /// Wait before the second attempt; doubled after each failure (default 1 s).
    pub backoff: Duration,
    /// Longest wait between attempts (default 30 s).
    pub max_backoff: Duration,
    /// Connect timeout and the longest wait for any read or write of a request: a
    /// server silent for this long fails the attempt (default 30 s).
    pub timeout: Duration,
    /// How long to wait for another fetch of the same file (default 10 min).
    pub lock_wait: Duration,
    /// A lock file untouched this long was left by a fetch that died and is removed;
    /// at least twice `timeout` (default 2 min).
    pub stale_lock: Duration,
    /// Directories holding files at their registry paths, searched before the network;
    /// a file is copied only with the registered size and sha256.
    pub local_copies: Vec<PathBuf>,
}

impl Default for FetchOptions {
    fn default() -> Self {
        FetchOptions {
            attempts: 4,
            backoff: Duration::from_secs(1),
            max_backoff: Duration::from_secs(30),
            timeout: Duration::from_secs(30),
            lock_wait: Duration::from_secs(600),
            stale_lock: Duration::from_secs(120),
            local_copies: Vec::new(),
        }
    }
}

impl FetchOptions {
    /// Check the options (typed errors naming the field).
    pub fn validate(&self) -> Result<()> {
        let secs = |d: Duration| format!("{} s", d.as_secs_f64());
        if !(1..=20).contains(&self.attempts) {
            return Err(Error::param("attempts", self.attempts, "must be in 1..=20"));
        }
        if self.timeout.is_zero() {
            return Err(Error::param(
                "timeout",
                secs(self.timeout),
                "must be positive",
            ));
        }
        if self.backoff > self.max_backoff {
            return Err(Error::param(
                "backoff",
                secs(self.backoff),
                format!("exceeds max_backoff = {}", secs(self.max_backoff)),
            ));
        }
        if self.stale_lock < 2 * self.timeout {
            return Err(Error::param(
                "stale_lock",
                secs(self.stale_lock),
                format!(
                    "must be at least twice the timeout ({}), or a live fetch could lose its lock",
                    secs(self.timeout)
                ),
            ));
        }
        Ok(())
    }
}

/// What a fetch did with one file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// Already in the data directory with the registered size and sha256 (for a file
    /// without a recorded checksum: present).
    Present,
    /// Copied from a local directory.
    Copied {
        /// The directory it came from.
        from: PathBuf,
    },
    /// Downloaded.
    Fetched {
        /// The URL that served it.
        url: String,
        /// Bytes already on disk from an interrupted download when it started.
        resumed_from: u64,
        /// A file with the wrong size or checksum was under the name and is replaced.
        replaced: bool,
    },
}

/// One file of a fetch: what it is, where it goes, what happened.
#[derive(Debug)]
pub struct FileReport {
    /// The file, its checksum, size and source.
    pub download: Download,
    /// Its path in the data directory.
    pub path: PathBuf,
    /// What was done, or why it failed.
    pub result: Result<Outcome>,
}

impl FileReport {
    /// Whether the file is now in the data directory.
    pub fn is_ok(&self) -> bool {
        self.result.is_ok()
    }

    /// A file that has no public download (not a failure of the fetch itself).
    pub fn is_manual(&self) -> bool {
        !self.download.is_fetchable() && self.result.is_err()
    }

    /// One line: `fetched`, `present`, `copied`, `manual` or `failed`, the file, and
    /// the details (source, size, error).
    pub fn summary(&self) -> String {
        let rel = &self.download.rel;
        let size = self.download.size.map(human_bytes).unwrap_or_default();
        match &self.result {
            Ok(Outcome::Present) => format!("present  {rel}"),
            Ok(Outcome::Copied { from }) => {
                format!("copied   {rel} ({size} from {})", from.display())
            }
            Ok(Outcome::Fetched {
                url,
                resumed_from,
                replaced,
            }) => {
                let mut s = format!("fetched  {rel} ({size} from {url}");
                if *resumed_from > 0 {
                    s.push_str(&format!(", resumed at {}", human_bytes(*resumed_from)));
                }
                if *replaced {
                    s.push_str(", replacing a file with the wrong checksum");
                }
                s + ")"
            }
            Err(_) if self.is_manual() => match &self.download.source {
                DownloadSource::Manual { how } => {
                    format!("manual   {rel}: no public download: {how}")
                }
                _ => format!("manual   {rel}"),
            },
            Err(e) => format!("failed   {rel}: {e}"),
        }
    }
}

/// Hears what a fetch is doing (every method does nothing by default).
pub trait Progress {
    /// Work on a file starts (`size` when known).
    fn start(&self, _rel: &str, _size: Option<u64>) {}
    /// `done` bytes of the file are on disk.
    fn bytes(&self, _rel: &str, _done: u64) {}
    /// An attempt failed; another follows after `wait`.
    fn retry(&self, _rel: &str, _why: &str, _wait: Duration) {}
    /// The file is done (see [`FileReport::summary`]).
    fn finish(&self, _report: &FileReport) {}
}

/// A [`Progress`] that shows nothing.
#[derive(Debug, Clone, Copy, Default)]
pub struct Silent;

impl Progress for Silent {}

/// `1234567` → `1.2 MB` (decimal units).
pub fn human_bytes(n: u64) -> String {
    let x = n as f64;
    if n < 1000 {
        format!("{n} B")
    } else if x < 1e6 {
        format!("{:.1} kB", x / 1e3)
    } else if x < 1e9 {
        format!("{:.1} MB", x / 1e6)
    } else {
        format!("{:.2} GB", x / 1e9)
    }
}

/// Fetch every file of the datasets `names` (derived datasets: their base's files;
/// each file once) into `dir`, one after the other. Returns one report per file: a
/// file that fails does not stop the others. Errors (before anything is fetched) for
/// no names, an unknown name or invalid options.
pub fn fetch(
    registry: &Registry,
    names: &[&str],
    dir: &DataDir,
    opts: &FetchOptions,
    progress: &dyn Progress,
) -> Result<Vec<FileReport>> {
    if names.is_empty() {
        return Err(Error::input("fetch", "no dataset named"));
    }
    opts.validate()?;
    let files = registry.downloads(names)?;
    let mut out = Vec::with_capacity(files.len());
    let dead = run::DeadHosts::default();
    for d in files {
        progress.start(&d.rel, d.size);
        let result = run::fetch_one(&d, dir, opts, progress, &dead);
        let report = FileReport {
            path: dir.path(&d.rel),
            download: d,
            result,
        };
        progress.finish(&report);
        out.push(report);
    }
    Ok(out)
}
