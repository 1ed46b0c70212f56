//! `mkc.datasets.fetch`: [`mkc_data::fetch::fetch`] (what `mkc datasets fetch` runs)
//! from Python. Each file's outcome comes back as a dict; a file that failed carries its
//! error as the Python exception [`crate::errors::to_py`] makes of it (the same type and
//! message as everywhere else in the package), which the Python side raises.

use crate::errors::IntoPyResult;
use mkc_core::{Error, Result};
use mkc_data::fetch::{FetchOptions, FileReport, Outcome, Progress};
use mkc_data::registry::DownloadSource;
use mkc_data::{DataDir, Registry};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// A duration in seconds from Python: finite and positive (`zero_ok`: or zero).
fn seconds(name: &str, s: f64, zero_ok: bool) -> Result<Duration> {
    if !s.is_finite() || s < 0.0 || (s == 0.0 && !zero_ok) || s > 1e9 {
        let bound = if zero_ok { "≥ 0" } else { "> 0" };
        return Err(Error::param(
            name,
            s,
            format!("must be a finite number of seconds {bound}"),
        ));
    }
    Ok(Duration::from_secs_f64(s))
}

/// The options of one fetch as the Python side passes them (a dict; seconds as
/// floats), checked by [`FetchOptions::validate`] too. The stale-lock age is the
/// default or twice the timeout, whichever is longer.
#[derive(FromPyObject)]
#[pyo3(from_item_all)]
pub struct Settings {
    attempts: i64,
    timeout: f64,
    backoff: f64,
    max_backoff: f64,
    lock_wait: f64,
    local_copies: Vec<PathBuf>,
}

impl Settings {
    fn options(self) -> Result<FetchOptions> {
        let timeout = seconds("timeout", self.timeout, false)?;
        let mut local_copies = self.local_copies;
        // As `mkc datasets fetch`: the checkout the package was built from holds the
        // committed files (absent when the wheel was built elsewhere).
        let repo_data = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data");
        if let Ok(dir) = repo_data.canonicalize() {
            local_copies.push(dir);
        }
        let defaults = FetchOptions::default();
        let attempts = u32::try_from(self.attempts)
            .map_err(|_| Error::param("attempts", self.attempts, "must be in 1..=20"))?;
        let opts = FetchOptions {
            attempts,
            backoff: seconds("backoff", self.backoff, true)?,
            max_backoff: seconds("max_backoff", self.max_backoff, true)?,
            timeout,
            lock_wait: seconds("lock_wait", self.lock_wait, true)?,
            stale_lock: defaults.stale_lock.max(2 * timeout),
            local_copies,
        };
        opts.validate()?;
        Ok(opts)
    }
}

/// Calls a Python callable with each file's summary line as the file is done.
struct Callback(Option<Py<PyAny>>);

impl Progress for Callback {
    fn finish(&self, report: &FileReport) {
        if let Some(cb) = &self.0 {
            // A failing callback must not stop the fetch: its error is printed as
            // Python prints unraisable exceptions.
            Python::attach(|py| {
                if let Err(e) = cb.call1(py, (report.summary(),)) {
                    e.write_unraisable(py, Some(cb.bind(py)));
                }
            });
        }
    }
}

/// `fetched`, `copied`, `present`, `manual` or `failed`.
fn status(r: &FileReport) -> &'static str {
    match &r.result {
        Ok(Outcome::Present) => "present",
        Ok(Outcome::Copied { .. }) => "copied",
        Ok(Outcome::Fetched { .. }) => "fetched",
        Err(_) if r.is_manual() => "manual",
        Err(_) => "failed",
    }
}

/// One file's report as a dict: `file` (data-directory-relative), `dataset`, `path`,
/// `size`, `sha256`, `status`, `source` (the URL or folder it came from), `resumed_from`
/// (bytes of an earlier download kept), `summary` (the CLI's line) and `error` (the
/// exception, or None).
fn report_dict<'py>(py: Python<'py>, r: FileReport) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("file", &r.download.rel)?;
    d.set_item("dataset", &r.download.dataset)?;
    d.set_item("path", r.path.display().to_string())?;
    d.set_item("size", r.download.size)?;
    d.set_item("sha256", &r.download.sha256)?;
    d.set_item("status", status(&r))?;
    d.set_item("summary", r.summary())?;
    let (source, resumed) = match &r.result {
        Ok(Outcome::Fetched {
            url, resumed_from, ..
        }) => (Some(url.clone()), *resumed_from),
        Ok(Outcome::Copied { from }) => (Some(from.display().to_string()), 0),
        _ => (None, 0),
    };
    d.set_item("source", source)?;
    d.set_item("resumed_from", resumed)?;
    let manual = match &r.download.source {
        DownloadSource::Manual { how } if r.is_manual() => Some(how.clone()),
        _ => None,
    };
    d.set_item("manual", manual)?;
    let error = r
        .result
        .err()
        .map(|e| crate::errors::to_py(e).into_value(py));
    d.set_item("error", error)?;
    Ok(d)
}

/// Fetch every file of the datasets `names` into the data directory (`data_dir`, else
/// `$MKC_DATA_DIR`, else `./data`) from the built-in registry or the registry file
/// `registry`, with `options` (a dict: `attempts`, `timeout`, `backoff`,
/// `max_backoff`, `lock_wait` in seconds, `local_copies`); `progress` is called with
/// each file's line when it is done. One dict per file (see `report_dict`), in the
/// order fetched. Raises before anything is fetched for no names, an unknown name or
/// bad options.
#[pyfunction]
#[pyo3(signature = (names, options, data_dir=None, registry=None, progress=None))]
pub fn fetch<'py>(
    py: Python<'py>,
    names: Vec<String>,
    options: Settings,
    data_dir: Option<PathBuf>,
    registry: Option<PathBuf>,
    progress: Option<Py<PyAny>>,
) -> PyResult<Bound<'py, PyList>> {
    let opts = options.options().py()?;
    let reg = match &registry {
        Some(p) => Registry::from_path(p),
        None => Registry::load_default(),
    }
    .py()?;
    let dir = DataDir::resolve(data_dir.as_deref());
    let refs: Vec<&str> = names.iter().map(String::as_str).collect();
    let cb = Callback(progress);
    let reports = py
        .detach(|| mkc_data::fetch::fetch(&reg, &refs, &dir, &opts, &cb))
        .py()?;
    let out = PyList::empty(py);
    for r in reports {
        out.append(report_dict(py, r)?)?;
    }
    Ok(out)
}
