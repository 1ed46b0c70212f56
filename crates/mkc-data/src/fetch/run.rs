//! Fetching one file: present? → lock → local copy → download (retries, resume,
//! verification, rename).

use super::lock::{self, Lock};
use super::{FetchOptions, Outcome, Progress};
use crate::datadir::{sha256_file, DataDir};
use crate::registry::{Download, DownloadSource, UNVERIFIED};
use mkc_core::{Error, Result};
use std::cell::RefCell;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// What is under the final name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    Absent,
    /// The registered size and sha256 (or present, for a file without a checksum).
    Good,
    /// Something else (a different size or checksum).
    Wrong,
}

/// Whether `path` holds the file `d` describes.
fn state(d: &Download, path: &Path) -> Result<State> {
    let Ok(meta) = std::fs::metadata(path) else {
        return Ok(State::Absent);
    };
    if !meta.is_file() {
        return Err(Error::input(
            format!("fetch {}", d.rel),
            format!("{} exists and is not a file", path.display()),
        ));
    }
    if d.sha256 == UNVERIFIED {
        return Ok(State::Good);
    }
    if d.size.is_some_and(|s| s != meta.len()) || sha256_file(path)? != d.sha256 {
        return Ok(State::Wrong);
    }
    Ok(State::Good)
}

/// `<file>.part`, where a download or copy is written before it is verified.
pub(super) fn part_path(target: &Path) -> PathBuf {
    let mut name = target.file_name().unwrap_or_default().to_os_string();
    name.push(".part");
    target.with_file_name(name)
}

/// Verify `part` against `d` and give it its final name; on a mismatch delete it and
/// return the checksum error (naming the final file).
pub(super) fn promote(d: &Download, part: &Path, target: &Path) -> Result<()> {
    if d.sha256 != UNVERIFIED {
        let found = sha256_file(part)?;
        if found != d.sha256 {
            let _ = std::fs::remove_file(part);
            return Err(Error::Checksum {
                path: target.to_path_buf(),
                expected: d.sha256.clone(),
                found,
            });
        }
    }
    std::fs::rename(part, target).map_err(|e| Error::io(target, e))
}

fn same_file(a: &Path, b: &Path) -> bool {
    matches!((a.canonicalize(), b.canonicalize()), (Ok(x), Ok(y)) if x == y)
}

/// Copy `d` from the first local directory holding a verified copy.
fn copy_local(d: &Download, target: &Path, opts: &FetchOptions) -> Result<Option<PathBuf>> {
    for root in &opts.local_copies {
        let src = root.join(&d.rel);
        if !src.is_file() || same_file(&src, target) || state(d, &src)? != State::Good {
            continue;
        }
        let part = part_path(target);
        std::fs::copy(&src, &part).map_err(|e| Error::io(&part, e))?;
        promote(d, &part, target)?;
        return Ok(Some(root.clone()));
    }
    Ok(None)
}

/// The error for a file this fetch cannot get.
fn missing(d: &Download, target: &Path, why: String) -> Error {
    Error::MissingData {
        dataset: d.dataset.clone(),
        file: target.to_path_buf(),
        sha256: d.sha256.clone(),
        hint: why,
    }
}

/// Hosts that answered no request at all during this fetch (no connection, no DNS):
/// later files try them once instead of `attempts` times, so that a fetch without a
/// network ends in seconds.
pub(super) type DeadHosts = RefCell<BTreeSet<String>>;

/// Why a file that is neither present nor in a local copy cannot be had (`None` for a
/// file with a web source).
fn unavailable(d: &Download, target: &Path) -> Option<Error> {
    match &d.source {
        DownloadSource::Web { .. } => None,
        DownloadSource::Repository => Some(missing(
            d,
            target,
            format!(
                "it is committed in the mkc repository as data/{}: run from a checkout \
                 (whose ./data holds it) or pass the checkout's data folder with --from",
                d.rel
            ),
        )),
        DownloadSource::Manual { how } => {
            Some(missing(d, target, format!("no public download: {how}")))
        }
    }
}

/// Fetch one registered file into `dir` (see the [module docs](super)). `Ok` means the
/// file is under its final name with its registered size and sha256.
pub fn fetch_file(
    d: &Download,
    dir: &DataDir,
    opts: &FetchOptions,
    progress: &dyn Progress,
) -> Result<Outcome> {
    opts.validate()?;
    fetch_one(d, dir, opts, progress, &DeadHosts::default())
}

/// [`fetch_file`] with the hosts found dead by earlier files of the same fetch.
pub(super) fn fetch_one(
    d: &Download,
    dir: &DataDir,
    opts: &FetchOptions,
    progress: &dyn Progress,
    dead: &DeadHosts,
) -> Result<Outcome> {
    let target = dir.path(&d.rel);
    let first = state(d, &target)?;
    if first == State::Good {
        return Ok(Outcome::Present);
    }
    if !opts.local_copies.iter().any(|r| r.join(&d.rel).is_file()) {
        if let Some(e) = unavailable(d, &target) {
            return Err(e);
        }
    }
    if let Some(parent) = target.parent() {
        std::fs::create_dir_all(parent).map_err(|e| Error::io(parent, e))?;
    }
    let mut waited = false;
    let lock = lock::acquire(&target, opts.lock_wait, opts.stale_lock, &mut waited)?;
    let now = if waited { state(d, &target)? } else { first };
    if now == State::Good {
        return Ok(Outcome::Present);
    }
    if let Some(from) = copy_local(d, &target, opts)? {
        return Ok(Outcome::Copied { from });
    }
    match &d.source {
        DownloadSource::Web { urls, .. } => {
            let job = Job {
                d,
                target: &target,
                opts,
                progress,
                lock: &lock,
                dead,
            };
            download(&job, urls, now == State::Wrong)
        }
        _ => Err(unavailable(d, &target).unwrap_or_else(|| missing(d, &target, String::new()))),
    }
}

/// What a download needs to know about its file.
#[cfg_attr(not(feature = "fetch"), allow(dead_code))]
pub(super) struct Job<'a> {
    pub(super) d: &'a Download,
    pub(super) target: &'a Path,
    pub(super) opts: &'a FetchOptions,
    pub(super) progress: &'a dyn Progress,
    pub(super) lock: &'a Lock,
    pub(super) dead: &'a DeadHosts,
}

#[cfg(feature = "fetch")]
use super::web::download;

#[cfg(not(feature = "fetch"))]
fn download(job: &Job<'_>, _urls: &[String], _replaced: bool) -> Result<Outcome> {
    Err(missing(
        job.d,
        job.target,
        "mkc-data was built without its `fetch` feature: no downloads (local copies only)".into(),
    ))
}
