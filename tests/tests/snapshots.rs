//! Snapshots of every `--quick` table (what `cargo xtask reproduce --quick` writes to
//! `results/quick/`, without timings). Needs a full data directory (every dataset of
//! `configs/datasets.toml` whose files are public; the SimpleMKKM authors' kernel files
//! are absent and their rows say so): with `MKC_DATA_DIR` unset the test says why it is
//! skipped, since rows without data would change the tables.
//!
//! After changing a config or a method on purpose, accept the new tables with
//! `MKC_DATA_DIR=<data directory> INSTA_UPDATE=always cargo test -p mkc-integration-tests --test snapshots`
//! and review the diff of `tests/tests/snapshots/` (and regenerate `results/quick/` with
//! `cargo xtask reproduce --quick`).

mod common;

use mkc_experiments::registry::RegistrySource;
use mkc_experiments::reproduce::{reproduce, Reproduce};

#[test]
fn quick_tables_match_their_snapshots() {
    let Some(dir) = common::env_data_dir() else {
        eprintln!(
            "skipped: MKC_DATA_DIR is not set (the snapshots are taken with a full data directory: `mkc datasets fetch --all --data-dir DIR` fills one)"
        );
        return;
    };
    let source = RegistrySource::new(Some(&dir)).unwrap();
    let root = common::root();
    let out = reproduce(&Reproduce {
        configs: root.join("configs"),
        results: root.join("results"),
        profile: "quick".into(),
        select: vec![],
        source: &source,
        write: false,
        progress: false,
        resume: false,
        recorded_only: false,
    })
    .unwrap();
    assert!(!out.is_empty());
    // Check every config before failing, so one run shows all the tables that changed.
    let mut failed = Vec::new();
    for r in out {
        let name = format!("quick-{}", r.name);
        let md = r.markdown;
        if std::panic::catch_unwind(|| insta::assert_snapshot!(name.clone(), md)).is_err() {
            failed.push(name);
        }
    }
    assert!(
        failed.is_empty(),
        "tables differ from their snapshots: {failed:?}"
    );
}
