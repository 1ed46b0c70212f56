//! Downloading a file from its URLs: attempts with a doubling back-off per URL, resume
//! from the part file, verification, rename (see the [module docs](super)).

use super::http::{self, Failure};
use super::run::{part_path, promote, Job};
use super::Outcome;
use mkc_core::{Error, Result};
use std::path::Path;

/// The host part of a URL.
fn host(url: &str) -> &str {
    let rest = url.split_once("://").map_or(url, |(_, r)| r);
    rest.split('/').next().unwrap_or(rest)
}

/// How one URL ended.
enum UrlEnd {
    /// The file is under its final name.
    Done,
    /// The URL did not give the file: why, whether the host answered at all, and the
    /// checksum error when it sent wrong bytes.
    Failed {
        why: String,
        answered: bool,
        checksum: Option<Error>,
    },
}

/// Up to `attempts` attempts at `url`, with back-off between them.
fn try_url(job: &Job<'_>, url: &str, part: &Path, size: u64, attempts: u32) -> UrlEnd {
    let agent = http::agent(url, job.opts.timeout);
    let mut wait = job.opts.backoff;
    let mut answered = false;
    let on_bytes = |done: u64| {
        job.progress.bytes(&job.d.rel, done);
        job.lock.touch();
    };
    for attempt in 1..=attempts {
        job.lock.touch();
        let why = match http::attempt(&agent, url, &job.d.rel, part, size, &on_bytes) {
            Ok(()) => {
                return match promote(job.d, part, job.target) {
                    Ok(()) => UrlEnd::Done,
                    Err(e) => UrlEnd::Failed {
                        why: e.to_string(),
                        answered: true,
                        checksum: Some(e),
                    },
                }
            }
            Err(Failure::NextUrl(why)) => {
                return UrlEnd::Failed {
                    why,
                    answered: true,
                    checksum: None,
                }
            }
            Err(Failure::Retry { why, answered: a }) => {
                answered |= a;
                why
            }
        };
        if attempt == attempts {
            return UrlEnd::Failed {
                why: format!("{why} (attempt {attempt} of {attempt})"),
                answered,
                checksum: None,
            };
        }
        job.progress
            .retry(&job.d.rel, &format!("{url}: {why}"), wait);
        job.lock.sleep(wait);
        wait = (wait * 2).min(job.opts.max_backoff);
    }
    UrlEnd::Failed {
        why: "no attempt".into(),
        answered,
        checksum: None,
    }
}

/// Download the job's file from `urls` in order. A host that never answered is tried
/// once by the later files of the same fetch. The error of a wrong download is the
/// checksum error; otherwise it lists each URL's failure.
pub(super) fn download(job: &Job<'_>, urls: &[String], replaced: bool) -> Result<Outcome> {
    let d = job.d;
    let size = d
        .size
        .ok_or_else(|| Error::input(format!("fetch {}", d.rel), "the registry records no size"))?;
    let part = part_path(job.target);
    let have = |p: &Path| std::fs::metadata(p).map(|m| m.len()).unwrap_or(0);
    let fetched = |url: &str, resumed_from: u64| Outcome::Fetched {
        url: url.to_string(),
        resumed_from,
        replaced,
    };
    // complete from an earlier run that stopped before the check
    if have(&part) == size && promote(d, &part, job.target).is_ok() {
        return Ok(fetched(urls.first().map_or("", String::as_str), size));
    }
    let resumed_from = have(&part);
    let (mut errors, mut checksum) = (Vec::new(), None);
    for url in urls {
        let attempts = if job.dead.borrow().contains(host(url)) {
            1
        } else {
            job.opts.attempts
        };
        match try_url(job, url, &part, size, attempts) {
            UrlEnd::Done => return Ok(fetched(url, resumed_from)),
            UrlEnd::Failed {
                why,
                answered,
                checksum: c,
            } => {
                if !answered {
                    job.dead.borrow_mut().insert(host(url).to_string());
                }
                errors.push(format!("{url}: {why}"));
                checksum = checksum.or(c);
            }
        }
    }
    Err(checksum.unwrap_or_else(|| {
        Error::io(
            job.target,
            std::io::Error::other(format!("download failed: {}", errors.join("; "))),
        )
    }))
}
