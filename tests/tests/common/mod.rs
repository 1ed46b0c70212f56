//! Helpers shared by the integration tests.
#![allow(dead_code)]

pub mod blobs;

use std::path::{Path, PathBuf};

/// The repository root.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_default()
}

/// The committed small datasets (`./data`).
pub fn committed_data() -> PathBuf {
    root().join("data")
}

/// `$MKC_DATA_DIR`, a relative value taken from the repository root (where the README's
/// test command runs), or `None` when unset.
pub fn env_data_dir() -> Option<PathBuf> {
    let v = std::env::var_os("MKC_DATA_DIR").filter(|v| !v.is_empty())?;
    let p = PathBuf::from(v);
    Some(if p.is_absolute() { p } else { root().join(p) })
}

/// A fresh temporary directory for one test.
pub fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("mkc-it-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("temp dir");
    d
}

/// Write `text` to `dir/name` and return the path.
pub fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).expect("write test file");
    p
}
