//! Where the data files are: `--data-dir`, then `$MKC_DATA_DIR`, then `./data`.

use mkc_core::{Error, Result};
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};

/// Environment variable naming the data directory.
pub const ENV_VAR: &str = "MKC_DATA_DIR";

/// How the data directory was chosen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DataDirSource {
    /// Given on the command line (`--data-dir`).
    Cli,
    /// From `$MKC_DATA_DIR`.
    Env,
    /// The default `./data`.
    Default,
}

/// The resolved data directory; registry file paths are relative to it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DataDir {
    /// The directory.
    pub root: PathBuf,
    /// How it was chosen.
    pub source: DataDirSource,
}

impl DataDir {
    /// `cli` if given, else `$MKC_DATA_DIR` if set and non-empty, else `./data`.
    pub fn resolve(cli: Option<&Path>) -> DataDir {
        if let Some(p) = cli {
            return DataDir {
                root: p.to_path_buf(),
                source: DataDirSource::Cli,
            };
        }
        Self::from_env().unwrap_or_else(|| DataDir {
            root: PathBuf::from("data"),
            source: DataDirSource::Default,
        })
    }

    /// `$MKC_DATA_DIR` if set and non-empty (as given: a relative path is taken from the
    /// working directory), else `None`.
    pub fn from_env() -> Option<DataDir> {
        let v = std::env::var_os(ENV_VAR).filter(|v| !v.is_empty())?;
        Some(DataDir {
            root: PathBuf::from(v),
            source: DataDirSource::Env,
        })
    }

    /// A data directory at `root` (as if given on the command line).
    pub fn at(root: impl Into<PathBuf>) -> DataDir {
        DataDir {
            root: root.into(),
            source: DataDirSource::Cli,
        }
    }

    /// The full path of a registry-relative file.
    pub fn path(&self, rel: &str) -> PathBuf {
        self.root.join(rel)
    }

    /// Explain where a missing file must go.
    pub fn hint(&self, rel: &str) -> String {
        let how = match self.source {
            DataDirSource::Cli => "the directory given by --data-dir",
            DataDirSource::Env => "the directory in $MKC_DATA_DIR",
            DataDirSource::Default => "the default ./data (no --data-dir, MKC_DATA_DIR unset)",
        };
        format!(
            "put it at {} ({how}), or point --data-dir or MKC_DATA_DIR at a directory holding `{rel}`",
            self.path(rel).display()
        )
    }
}

/// SHA-256 of a file, lower-case hex (read in blocks: any size).
pub fn sha256_file(path: &Path) -> Result<String> {
    use std::io::Read;
    let mut f = std::fs::File::open(path).map_err(|e| Error::io(path, e))?;
    let mut h = Sha256::new();
    let mut buf = vec![0u8; 1 << 16];
    loop {
        match f.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => h.update(&buf[..n]),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(Error::io(path, e)),
        }
    }
    Ok(hex(&h.finalize()))
}

fn hex(digest: &[u8]) -> String {
    digest.iter().map(|b| format!("{b:02x}")).collect()
}

/// SHA-256 of bytes, lower-case hex.
pub fn sha256_hex(data: &[u8]) -> String {
    hex(&Sha256::digest(data))
}
