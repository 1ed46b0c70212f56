//! The dataset registry (`configs/datasets.toml`): name → files with checksums, format
//! and variable names, label source, row/class/view selection, preprocessing and the
//! expected n, d and class counts.
//!
//! Derived datasets (`base = "…"`) reuse the files and reading rules of a registered
//! dataset and add their own selection (`split`, `classes`, `views`) and preprocessing
//! (appended to the base's). Loading order: read → drop missing labels (if allowed) →
//! NaN handling → `split` → `classes` → `views` → `preprocess` → check `expect`.
//!
//! The `[downloads]` table says where each file can be had (see [`Download`]);
//! [`crate::fetch`] uses it.

mod download;
mod load;
mod schema;

pub use download::{Download, DownloadSource};
pub use schema::{DatasetEntry, Expect, Format, NanHandling};

/// The checksum of a file a user supplies and we have never seen (e.g. the SimpleMKKM
/// authors' `*_Kmatrix.mat` kernels): the file is required, its bytes are not verified,
/// and the loaded data is still checked against `expect` (n, d, number of classes).
pub const UNVERIFIED: &str = "unverified";

use crate::datadir::{sha256_file, DataDir};
use crate::dataset::Dataset;
use mkc_core::{Error, Result};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The registry shipped with mkc (compiled in from `configs/datasets.toml`).
pub const DEFAULT_REGISTRY: &str = include_str!("../../../../configs/datasets.toml");

/// Presence of one file of a dataset in a data directory.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileStatus {
    /// Registry-relative path.
    pub rel: String,
    /// Full path in the data directory.
    pub path: PathBuf,
    /// Expected sha256.
    pub sha256: String,
    /// Whether the file exists (the checksum is verified on load, not here).
    pub present: bool,
}

/// Presence of all files of a dataset.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Status {
    /// One entry per file.
    pub files: Vec<FileStatus>,
}

impl Status {
    /// Every file is present.
    pub fn is_present(&self) -> bool {
        self.files.iter().all(|f| f.present)
    }
    /// The files that are missing.
    pub fn missing(&self) -> Vec<&FileStatus> {
        self.files.iter().filter(|f| !f.present).collect()
    }
}

/// One line of `mkc datasets`.
#[derive(Debug, Clone, PartialEq)]
pub struct DatasetSummary {
    /// Registry name.
    pub name: String,
    /// Description.
    pub description: String,
    /// Expected samples.
    pub n: usize,
    /// Expected features (sum over views; number of kernels for kernel files).
    pub d: usize,
    /// Expected number of classes.
    pub n_classes: usize,
    /// `Some(base)` for derived datasets.
    pub base: Option<String>,
    /// Whether every file is in the data directory.
    pub present: bool,
}

/// The dataset registry.
#[derive(Debug, Clone)]
pub struct Registry {
    source_name: String,
    entries: BTreeMap<String, DatasetEntry>,
    downloads: BTreeMap<String, Download>,
}

/// Turn a TOML error into a config error naming the offending key where it can.
fn toml_error(source_name: &str, e: toml::de::Error) -> Error {
    let msg = e.message().to_string();
    let key = msg
        .split('`')
        .nth(1)
        .filter(|_| {
            msg.contains("unknown field")
                || msg.contains("missing field")
                || msg.contains("unknown variant")
        })
        .unwrap_or("(syntax)")
        .to_string();
    let at = e
        .span()
        .map(|s| format!(" (at byte {})", s.start))
        .unwrap_or_default();
    Error::config(source_name, key, format!("{msg}{at}"))
}

impl Registry {
    /// The registry compiled into this build (`configs/datasets.toml`).
    pub fn load_default() -> Result<Registry> {
        Registry::from_toml_str(DEFAULT_REGISTRY, "configs/datasets.toml")
    }

    /// Read a registry file.
    pub fn from_path(path: impl AsRef<Path>) -> Result<Registry> {
        let path = path.as_ref();
        let text = std::fs::read_to_string(path).map_err(|e| Error::io(path, e))?;
        Registry::from_toml_str(&text, &path.display().to_string())
    }

    /// Parse and validate registry TOML (`source_name` appears in errors).
    pub fn from_toml_str(text: &str, source_name: &str) -> Result<Registry> {
        let file: schema::RegistryFile =
            toml::from_str(text).map_err(|e| toml_error(source_name, e))?;
        let downloads = download::build(source_name, &file.datasets, file.downloads)?;
        let reg = Registry {
            source_name: source_name.to_string(),
            entries: file.datasets,
            downloads,
        };
        reg.validate()?;
        Ok(reg)
    }

    fn cfg(&self, name: &str, key: &str, reason: impl Into<String>) -> Error {
        Error::config(&self.source_name, format!("datasets.{name}.{key}"), reason)
    }

    fn validate(&self) -> Result<()> {
        for (name, e) in &self.entries {
            match &e.base {
                Some(b) => {
                    let base = self
                        .entries
                        .get(b)
                        .ok_or_else(|| self.cfg(name, "base", format!("unknown dataset `{b}`")))?;
                    if base.base.is_some() {
                        return Err(self.cfg(
                            name,
                            "base",
                            format!("`{b}` is itself derived; derive from its base"),
                        ));
                    }
                    if e.format.is_some() || !e.files.is_empty() {
                        return Err(self.cfg(
                            name,
                            "files",
                            "a derived dataset takes format and files from its base",
                        ));
                    }
                }
                None => {
                    if e.format.is_none() {
                        return Err(self.cfg(name, "format", "required (or give `base`)"));
                    }
                    if e.files.is_empty() {
                        return Err(self.cfg(name, "files", "at least one file is required"));
                    }
                }
            }
            for (rel, sha) in &e.files {
                let is_sha = sha.len() == 64
                    && sha
                        .bytes()
                        .all(|c| c.is_ascii_hexdigit() && !c.is_ascii_uppercase());
                if sha != UNVERIFIED && !is_sha {
                    return Err(self.cfg(
                        name,
                        &format!("files.\"{rel}\""),
                        format!("`{sha}` is not a lower-case sha256 (or `{UNVERIFIED}`)"),
                    ));
                }
                if rel.starts_with('/') || rel.split('/').any(|c| c == "..") {
                    return Err(self.cfg(
                        name,
                        &format!("files.\"{rel}\""),
                        "paths must be relative, inside the data directory",
                    ));
                }
            }
            if matches!(&e.classes, Some(c) if c.is_empty()) {
                return Err(self.cfg(name, "classes", "empty list"));
            }
            if e.preprocess
                .contains(&crate::preprocess::Preprocess::OneHot)
                && e.one_hot_columns.is_empty()
            {
                return Err(self.cfg(
                    name,
                    "one_hot_columns",
                    "`one_hot` needs the columns to encode",
                ));
            }
            match (e.expect.classes.is_empty(), e.expect.n_classes) {
                (true, None) => {
                    return Err(self.cfg(name, "expect", "give `classes` (counts) or `n_classes`"))
                }
                (false, Some(k)) if k != e.expect.classes.len() => {
                    return Err(self.cfg(
                        name,
                        "expect.n_classes",
                        format!("{k}, but `classes` lists {}", e.expect.classes.len()),
                    ))
                }
                _ => {}
            }
            let total: usize = e.expect.classes.values().sum();
            if !e.expect.classes.is_empty() && total != e.expect.n {
                return Err(self.cfg(
                    name,
                    "expect.classes",
                    format!("counts sum to {total}, expect.n is {}", e.expect.n),
                ));
            }
        }
        Ok(())
    }

    /// Registered names, sorted.
    pub fn names(&self) -> Vec<&str> {
        self.entries.keys().map(String::as_str).collect()
    }

    /// The entry called `name` (an error lists close names).
    pub fn entry(&self, name: &str) -> Result<&DatasetEntry> {
        self.entries.get(name).ok_or_else(|| {
            let close: Vec<&str> = self
                .names()
                .into_iter()
                .filter(|n| {
                    n.contains(name)
                        || name.contains(*n)
                        || n.split('-').next() == name.split('-').next()
                })
                .collect();
            Error::param(
                "dataset",
                name,
                if close.is_empty() {
                    "not in the registry (`mkc datasets` lists them)".to_string()
                } else {
                    format!("not in the registry; did you mean {}?", close.join(", "))
                },
            )
        })
    }

    /// The files of `name` (a derived dataset's are its base's).
    pub fn files(&self, name: &str) -> Result<&BTreeMap<String, String>> {
        let e = self.entry(name)?;
        match &e.base {
            Some(b) => Ok(&self.entry(b)?.files),
            None => Ok(&e.files),
        }
    }

    /// Which files of `name` are present in `dir`.
    pub fn status(&self, name: &str, dir: &DataDir) -> Result<Status> {
        let files = self.files(name)?;
        Ok(Status {
            files: files
                .iter()
                .map(|(rel, sha)| {
                    let path = dir.path(rel);
                    FileStatus {
                        rel: rel.clone(),
                        present: path.is_file(),
                        path,
                        sha256: sha.clone(),
                    }
                })
                .collect(),
        })
    }

    /// One summary per dataset (for `mkc datasets`).
    pub fn summaries(&self, dir: &DataDir) -> Result<Vec<DatasetSummary>> {
        self.entries
            .iter()
            .map(|(name, e)| {
                Ok(DatasetSummary {
                    name: name.clone(),
                    description: e.description.clone(),
                    n: e.expect.n,
                    d: e.expect.d,
                    n_classes: e.expect.n_classes.unwrap_or(e.expect.classes.len()),
                    base: e.base.clone(),
                    present: self.status(name, dir)?.is_present(),
                })
            })
            .collect()
    }

    /// Check that every file of `name` is present and has its registered checksum.
    pub fn verify(&self, name: &str, dir: &DataDir) -> Result<()> {
        for f in self.status(name, dir)?.files {
            if !f.present {
                return Err(Error::MissingData {
                    dataset: name.to_string(),
                    file: f.path,
                    sha256: f.sha256,
                    hint: self.missing_hint(name, &f.rel, dir),
                });
            }
            if f.sha256 == UNVERIFIED {
                continue;
            }
            let found = sha256_file(&f.path)?;
            if found != f.sha256 {
                return Err(Error::Checksum {
                    path: f.path,
                    expected: f.sha256,
                    found,
                });
            }
        }
        Ok(())
    }

    /// For example programs and benchmarks: the dataset `name` of the default registry
    /// from the user's data directory (`MKC_DATA_DIR`, else `./data`), or `None` after
    /// printing why it is not there (missing file, and how to get it), so the program
    /// can end cleanly instead of failing on a fresh machine.
    ///
    /// # Errors
    /// Only a broken default registry; a missing or unreadable dataset is `Ok(None)`.
    pub fn load_or_skip(name: &str) -> Result<Option<Dataset>> {
        match Registry::load_default()?.load(name, &DataDir::resolve(None)) {
            Ok(ds) => Ok(Some(ds)),
            Err(e) => {
                println!("skip: {name} is not available in the data directory: {e}");
                Ok(None)
            }
        }
    }

    /// Load `name` from `dir`: verify checksums, read, select, preprocess, and check
    /// the result against the entry's `expect`.
    pub fn load(&self, name: &str, dir: &DataDir) -> Result<Dataset> {
        self.verify(name, dir)?;
        let entry = self.entry(name)?;
        let (base, eff) = match &entry.base {
            Some(b) => (self.entry(b)?, entry),
            None => (entry, entry),
        };
        let ds = load::load(name, base, eff, self.files(name)?, dir)?;
        let exp = &entry.expect;
        let counts: BTreeMap<String, usize> = ds.class_counts().into_iter().collect();
        let classes_ok = if exp.classes.is_empty() {
            exp.n_classes.is_none_or(|k| k == counts.len())
        } else {
            counts == exp.classes
        };
        if ds.n_samples() != exp.n || ds.n_features() != exp.d || !classes_ok {
            return Err(self.cfg(
                name,
                "expect",
                format!(
                    "loaded n = {}, d = {}, classes {:?}; the registry expects n = {}, d = {}, classes {:?} ({} classes)",
                    ds.n_samples(),
                    ds.n_features(),
                    counts,
                    exp.n,
                    exp.d,
                    exp.classes,
                    exp.n_classes.unwrap_or(exp.classes.len())
                ),
            ));
        }
        Ok(ds)
    }
}
