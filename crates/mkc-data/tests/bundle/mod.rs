//! The data bundle the acceptance tests check against: the data directory of
//! `$MKC_DATA_DIR` (resolved by [`DataDir::resolve`]) when it holds the data's own notes
//! (`external/README.md`, the folders' `SOURCE.md`, the bundles' `meta.toml`). A directory
//! filled by `mkc datasets fetch` holds the data files only.

use mkc_data::{DataDir, DataDirSource};

/// The data bundle, or `None` with the reason printed (the test then passes without
/// checking anything). A `$MKC_DATA_DIR` that is not a directory is an error.
pub fn data_bundle() -> Option<DataDir> {
    let dir = DataDir::resolve(None);
    if dir.source != DataDirSource::Env {
        eprintln!(
            "skipped: MKC_DATA_DIR is not set (point it at the data bundle, the directory \
             holding external/README.md, to run this test)"
        );
        return None;
    }
    assert!(
        dir.root.is_dir(),
        "MKC_DATA_DIR = {} is not a directory",
        dir.root.display()
    );
    if !dir.path("external/README.md").is_file() {
        eprintln!(
            "skipped: {} has no data notes (external/README.md, SOURCE.md, meta.toml): \
             point MKC_DATA_DIR at the data bundle to run this test",
            dir.root.display()
        );
        return None;
    }
    Some(dir)
}
