//! Fetching one file: present? → lock → local copy → download (retries, resume,
//! verification, rename).

use super::lock::{self, Lock};
use super::{FetchOptions, Outcome, Progress};
use crate::datadir::{sha256_file, DataDir};
use crate::registry::{Download, DownloadSource, UNVERIFIED};
use mkc_core::{Error, Result};
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
fn promote(d: &Download, part: &Path, target: &Path) -> Result<()> {
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

/// Fetch one registered file into `dir` (see the [module docs](super)). `Ok` means the
/// file is under its final name with its registered size and sha256.
pub fn fetch_file(
    d: &Download,
    dir: &DataDir,
    opts: &FetchOptions,
    progress: &dyn Progress,
) -> Result<Outcome> {
    opts.validate()?;
    let target = dir.path(&d.rel);
    let first = state(d, &target)?;
    if first == State::Good {
        return Ok(Outcome::Present);
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
            download(d, &target, urls, opts, progress, &lock, now == State::Wrong)
        }
        DownloadSource::Repository => Err(missing(
            d,
            &target,
            format!(
                "it is committed in the mkc repository as data/{}: run from a checkout \
                 (whose ./data holds it) or pass the checkout's data folder with --from",
                d.rel
            ),
        )),
        DownloadSource::Manual { how } => {
            Err(missing(d, &target, format!("no public download: {how}")))
        }
    }
}

#[cfg(not(feature = "fetch"))]
fn download(
    d: &Download,
    target: &Path,
    _urls: &[String],
    _opts: &FetchOptions,
    _progress: &dyn Progress,
    _lock: &Lock,
    _replaced: bool,
) -> Result<Outcome> {
    Err(missing(
        d,
        target,
        "mkc-data was built without its `fetch` feature: no downloads (local copies only)".into(),
    ))
}

/// Download `d` from `urls` in order: attempts with back-off per URL, resume from the
/// part file, verify, rename.
#[cfg(feature = "fetch")]
fn download(
    d: &Download,
    target: &Path,
    urls: &[String],
    opts: &FetchOptions,
    progress: &dyn Progress,
    lock: &Lock,
    replaced: bool,
) -> Result<Outcome> {
    use super::http::{self, Failure};
    let size = d
        .size
        .ok_or_else(|| Error::input(format!("fetch {}", d.rel), "the registry records no size"))?;
    let part = part_path(target);
    let resumed_from = std::fs::metadata(&part).map(|m| m.len()).unwrap_or(0);
    if resumed_from == size {
        // complete from an earlier run that stopped before the check
        if promote(d, &part, target).is_ok() {
            return Ok(Outcome::Fetched {
                url: urls.first().cloned().unwrap_or_default(),
                resumed_from,
                replaced,
            });
        }
    }
    let resumed_from = std::fs::metadata(&part).map(|m| m.len()).unwrap_or(0);
    let mut errors = Vec::new();
    let mut checksum = None;
    for url in urls {
        let agent = http::agent(url, opts.timeout);
        let mut wait = opts.backoff;
        for attempt in 1..=opts.attempts {
            lock.touch();
            let on_bytes = |done: u64| {
                progress.bytes(&d.rel, done);
                lock.touch();
            };
            match http::attempt(&agent, url, &d.rel, &part, size, &on_bytes) {
                Ok(()) => match promote(d, &part, target) {
                    Ok(()) => {
                        return Ok(Outcome::Fetched {
                            url: url.clone(),
                            resumed_from,
                            replaced,
                        })
                    }
                    Err(e) => {
                        errors.push(format!("{url}: {e}"));
                        checksum = Some(e);
                        break;
                    }
                },
                Err(Failure::NextUrl(why)) => {
                    errors.push(format!("{url}: {why}"));
                    break;
                }
                Err(Failure::Retry(why)) if attempt == opts.attempts => {
                    errors.push(format!("{url}: {why} (attempt {attempt} of {attempt})"));
                }
                Err(Failure::Retry(why)) => {
                    progress.retry(&d.rel, &format!("{url}: {why}"), wait);
                    lock.sleep(wait);
                    wait = (wait * 2).min(opts.max_backoff);
                }
            }
        }
    }
    Err(checksum.unwrap_or_else(|| {
        Error::io(
            target,
            std::io::Error::other(format!("download failed: {}", errors.join("; "))),
        )
    }))
}
