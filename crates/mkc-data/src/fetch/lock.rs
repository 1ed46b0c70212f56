//! One fetch of a file at a time: a lock file `<file>.lock` next to the target, made
//! with `create_new` (atomic on every platform; std's `File::lock` needs Rust 1.89,
//! newer than the workspace's 1.85). The holder refreshes its modification time while
//! it works; a lock untouched for `stale` is left by a process that died and is removed.
//! Two waiters can both judge the same lock stale and both go on: the size and sha256
//! check of every download still keeps a wrong file from taking the final name.

use mkc_core::{Error, Result};
use std::cell::Cell;
use std::fs::{File, OpenOptions};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant, SystemTime};

/// How often a waiter looks at the lock again.
const POLL: Duration = Duration::from_millis(50);
/// How often the holder refreshes the lock's modification time (at most).
#[cfg_attr(not(feature = "fetch"), allow(dead_code))]
const TOUCH: Duration = Duration::from_millis(500);

/// A held lock; removed on drop.
#[cfg_attr(not(feature = "fetch"), allow(dead_code))]
pub(super) struct Lock {
    path: PathBuf,
    file: File,
    touched: Cell<Instant>,
}

#[cfg_attr(not(feature = "fetch"), allow(dead_code))]
impl Lock {
    /// Refresh the lock's modification time (rate-limited), so that waiters know the
    /// holder is alive.
    pub(super) fn touch(&self) {
        if self.touched.get().elapsed() >= TOUCH {
            let _ = self.file.set_modified(SystemTime::now());
            self.touched.set(Instant::now());
        }
    }

    /// Sleep `d` in short steps, touching the lock.
    pub(super) fn sleep(&self, d: Duration) {
        let end = Instant::now() + d;
        while let Some(left) = end.checked_duration_since(Instant::now()) {
            if left.is_zero() {
                break;
            }
            std::thread::sleep(left.min(TOUCH));
            self.touch();
        }
    }
}

impl Drop for Lock {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.path);
    }
}

/// The lock file of `target`.
pub(super) fn lock_path(target: &Path) -> PathBuf {
    let mut name = target.file_name().unwrap_or_default().to_os_string();
    name.push(".lock");
    target.with_file_name(name)
}

fn is_stale(path: &Path, stale: Duration) -> bool {
    std::fs::metadata(path)
        .and_then(|m| m.modified())
        .ok()
        .and_then(|t| SystemTime::now().duration_since(t).ok())
        .is_some_and(|age| age > stale)
}

/// Take the lock of `target`, waiting up to `wait` for another holder. `waited` is set
/// when another holder had it (the caller then checks whether it left the file).
pub(super) fn acquire(
    target: &Path,
    wait: Duration,
    stale: Duration,
    waited: &mut bool,
) -> Result<Lock> {
    let path = lock_path(target);
    let start = Instant::now();
    loop {
        match OpenOptions::new().write(true).create_new(true).open(&path) {
            Ok(file) => {
                return Ok(Lock {
                    path,
                    file,
                    touched: Cell::new(Instant::now()),
                })
            }
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                *waited = true;
                if is_stale(&path, stale) {
                    let _ = std::fs::remove_file(&path);
                    continue;
                }
                if start.elapsed() >= wait {
                    return Err(Error::io(
                        &path,
                        std::io::Error::new(
                            std::io::ErrorKind::TimedOut,
                            format!(
                                "another fetch of this file has held the lock for over {} s; \
                                 remove the lock file if no fetch is running",
                                wait.as_secs()
                            ),
                        ),
                    ));
                }
                std::thread::sleep(POLL);
            }
            Err(e) => return Err(Error::io(&path, e)),
        }
    }
}
