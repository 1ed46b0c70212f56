//! Where each registered file can be had: the registry's `[downloads]` table.
//!
//! ```toml
//! [downloads]
//! "external/coil20/COIL20_1440n_1024d_20c.mat" = { size = 3024549, github = "csliangdu/RMKKM", commit = "5f0cd9a3ae1993eeaade7701b7085917595cde6d", path = "data/COIL20_1440n_1024d_20c.mat" }
//! "bundle/ionosphere/data.csv" = { size = 74627, committed = true }
//! "external/simplemkkm/CCV_Kmatrix.mat" = { manual = "not public: … put it at …" }
//! ```
//!
//! A `github` entry (repository, commit, path) is fetched from raw.githubusercontent.com
//! and, failing that, from jsDelivr's GitHub CDN, both pinned to the commit; `url` (and
//! `mirror`) give any other pinned address. The sha256 is the one of the dataset's
//! `files` entry, so each checksum is written once.

use super::{Registry, UNVERIFIED};
use crate::datadir::{DataDir, DataDirSource};
use mkc_core::{Error, Result};
use serde::Deserialize;
use std::collections::BTreeMap;

/// One `[downloads]` entry as written (checked into a [`Download`]).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct DownloadToml {
    size: Option<u64>,
    github: Option<String>,
    commit: Option<String>,
    path: Option<String>,
    url: Option<String>,
    mirror: Option<String>,
    #[serde(default)]
    committed: bool,
    manual: Option<String>,
}

/// How a file can be had.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DownloadSource {
    /// Downloadable from these URLs, tried in order (the pinned address, then mirrors).
    Web {
        /// The URLs.
        urls: Vec<String>,
        /// Where the file comes from in words (`owner/repo@commit path`, or the URL).
        origin: String,
    },
    /// Committed in the mkc repository under `data/<rel>`: copied from a checkout.
    Repository,
    /// No public download: what the file is and where to put it.
    Manual {
        /// The registry's explanation.
        how: String,
    },
}

/// A registered file with its checksum, size and source.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Download {
    /// Data-directory-relative path.
    pub rel: String,
    /// The (base) dataset whose `files` list it.
    pub dataset: String,
    /// Expected sha256 (or [`UNVERIFIED`]).
    pub sha256: String,
    /// Size in bytes, when known.
    pub size: Option<u64>,
    /// Where it can be had.
    pub source: DownloadSource,
}

impl Download {
    /// A file that [`crate::fetch`] can download or copy (not a manual one).
    pub fn is_fetchable(&self) -> bool {
        !matches!(self.source, DownloadSource::Manual { .. })
    }
}

/// `owner/repo` with GitHub's characters only.
fn is_repo(s: &str) -> bool {
    let ok = |p: &str| {
        !p.is_empty()
            && p.bytes()
                .all(|c| c.is_ascii_alphanumeric() || b"-_.".contains(&c))
    };
    matches!(s.split_once('/'), Some((o, r)) if ok(o) && ok(r))
}

/// A relative path whose characters need no escaping in a URL.
fn is_url_path(s: &str) -> bool {
    !s.is_empty()
        && !s.starts_with('/')
        && !s.split('/').any(|c| c.is_empty() || c == "..")
        && s.bytes()
            .all(|c| c.is_ascii_alphanumeric() || b"-_.~/".contains(&c))
}

fn is_http_url(s: &str) -> bool {
    (s.starts_with("https://") || s.starts_with("http://")) && !s.chars().any(char::is_whitespace)
}

/// Check one entry; `sha` is the file's registered checksum.
fn check(
    t: &DownloadToml,
    sha: &str,
) -> std::result::Result<(Option<u64>, DownloadSource), String> {
    let kinds = [
        t.github.is_some(),
        t.url.is_some(),
        t.committed,
        t.manual.is_some(),
    ];
    if kinds.iter().filter(|&&k| k).count() != 1 {
        return Err("give exactly one of `github` (with `commit`, `path`), `url`, `committed = true`, `manual`".into());
    }
    if t.github.is_none() && (t.commit.is_some() || t.path.is_some()) {
        return Err("`commit` and `path` belong to a `github` source".into());
    }
    if t.mirror.is_some() && t.url.is_none() {
        return Err("`mirror` needs `url` (a `github` source has its mirror built in)".into());
    }
    if t.size == Some(0) {
        return Err("`size` is 0".into());
    }
    let web = t.github.is_some() || t.url.is_some();
    if (web || t.committed) && t.size.is_none() {
        return Err("`size` (bytes) is required to check a download".into());
    }
    if web && sha == UNVERIFIED {
        return Err(format!(
            "a download must be checked: the file's sha256 is `{UNVERIFIED}`"
        ));
    }
    let source = if let Some(repo) = &t.github {
        let (Some(commit), Some(path)) = (&t.commit, &t.path) else {
            return Err("a `github` source needs `commit` and `path`".into());
        };
        if !is_repo(repo) {
            return Err(format!("`github = \"{repo}\"` is not `owner/repository`"));
        }
        if commit.len() != 40
            || !commit
                .bytes()
                .all(|c| c.is_ascii_hexdigit() && !c.is_ascii_uppercase())
        {
            return Err(format!(
                "`commit = \"{commit}\"` is not a full lower-case commit id (40 hex digits)"
            ));
        }
        if !is_url_path(path) {
            return Err(format!(
                "`path = \"{path}\"` is not a plain relative path (letters, digits, -_.~/)"
            ));
        }
        DownloadSource::Web {
            urls: vec![
                format!("https://raw.githubusercontent.com/{repo}/{commit}/{path}"),
                format!("https://cdn.jsdelivr.net/gh/{repo}@{commit}/{path}"),
            ],
            origin: format!("{repo}@{} {path}", &commit[..7]),
        }
    } else if let Some(url) = &t.url {
        let urls: Vec<String> = std::iter::once(url).chain(&t.mirror).cloned().collect();
        if let Some(bad) = urls.iter().find(|u| !is_http_url(u)) {
            return Err(format!("`{bad}` is not an http(s) URL"));
        }
        DownloadSource::Web {
            origin: url.clone(),
            urls,
        }
    } else if t.committed {
        DownloadSource::Repository
    } else {
        let how = t.manual.clone().unwrap_or_default();
        if how.trim().is_empty() {
            return Err("`manual` must say what the file is and where to put it".into());
        }
        DownloadSource::Manual { how }
    };
    Ok((t.size, source))
}

/// Check the `[downloads]` table against the files of `entries`: every key is a
/// registered file, every entry is well formed. Files without an entry get a manual
/// source saying so (see [`Registry::download`]).
pub(super) fn build(
    source_name: &str,
    entries: &BTreeMap<String, super::DatasetEntry>,
    table: BTreeMap<String, DownloadToml>,
) -> Result<BTreeMap<String, Download>> {
    let mut sha_of: BTreeMap<&str, (&str, &str)> = BTreeMap::new();
    for (name, e) in entries {
        for (rel, sha) in &e.files {
            sha_of.insert(rel, (name, sha));
        }
    }
    let mut out = BTreeMap::new();
    for (rel, t) in table {
        let key = format!("downloads.\"{rel}\"");
        let Some(&(dataset, sha)) = sha_of.get(rel.as_str()) else {
            return Err(Error::config(
                source_name,
                key,
                "not a file of any dataset (`files` of a [datasets.<name>] table)",
            ));
        };
        let (size, source) = check(&t, sha).map_err(|r| Error::config(source_name, &key, r))?;
        out.insert(
            rel.clone(),
            Download {
                rel,
                dataset: dataset.to_string(),
                sha256: sha.to_string(),
                size,
                source,
            },
        );
    }
    Ok(out)
}

impl Registry {
    /// How the registered file `rel` can be had. A file the `[downloads]` table does not
    /// list gets a manual source that says so. Errors for a path no dataset lists.
    pub fn download(&self, rel: &str) -> Result<Download> {
        if let Some(d) = self.downloads.get(rel) {
            return Ok(d.clone());
        }
        let (dataset, sha) = self
            .entries
            .iter()
            .find_map(|(name, e)| e.files.get(rel).map(|sha| (name, sha)))
            .ok_or_else(|| Error::param("file", rel, "not a file of any registered dataset"))?;
        Ok(Download {
            rel: rel.to_string(),
            dataset: dataset.clone(),
            sha256: sha.clone(),
            size: None,
            source: DownloadSource::Manual {
                how: format!(
                    "the registry ({}) records no download for it; put it in the data directory as `{rel}`",
                    self.source_name
                ),
            },
        })
    }

    /// The files of the datasets `names` (derived datasets contribute their base's files)
    /// with their sources, each file once, in the order of the names. Errors name an
    /// unknown dataset.
    pub fn downloads(&self, names: &[&str]) -> Result<Vec<Download>> {
        let mut out: Vec<Download> = Vec::new();
        for name in names {
            for rel in self.files(name)?.keys() {
                if !out.iter().any(|d| &d.rel == rel) {
                    out.push(self.download(rel)?);
                }
            }
        }
        Ok(out)
    }

    /// What fixes a missing file `rel` of dataset `name`: the `mkc datasets fetch`
    /// command (with `--data-dir` when the directory came from the command line), or,
    /// for a file without a public download, the registry's explanation; then where the
    /// file goes.
    pub(super) fn missing_hint(&self, name: &str, rel: &str, dir: &DataDir) -> String {
        let place = dir.hint(rel);
        match self.download(rel).map(|d| d.source) {
            Ok(DownloadSource::Manual { how }) => format!("no public download: {how}; {place}"),
            _ => {
                let flag = match dir.source {
                    DataDirSource::Cli => format!(" --data-dir {}", dir.root.display()),
                    _ => String::new(),
                };
                format!("`mkc datasets fetch {name}{flag}` gets it; or {place}")
            }
        }
    }
}
