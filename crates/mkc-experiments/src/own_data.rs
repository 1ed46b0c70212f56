//! A user's own data in a config: feature files (one matrix, or several views of the
//! same samples) or precomputed kernel files, and a label file, instead of a registered
//! dataset. `configs/example-own-data.toml` is a worked example.
//!
//! ```toml
//! [datasets.mine]
//! features = ["data/view-a.csv", "data/view-b.csv"]   # or kernels = ["K1.npy", "K2.npy"]
//! labels = "data/labels.txt"
//! recipe = "gauss-median"
//! ```
//!
//! Paths are relative to the config file when the config is read from a file
//! ([`crate::reproduce::load_plan`], `mkc run`, `mkc cluster --config`); a missing file
//! makes the row say "data missing" like an absent registered dataset.

use crate::config::DatasetCfg;
use crate::dataset::{RawData, RawFeatures};
use faer::Mat;
use mkc_core::{Error, Result};
use std::path::Path;

/// A matrix file: `.npy`, else CSV of numbers (one row per line).
pub fn read_matrix(path: &Path) -> Result<Mat<f64>> {
    if path.extension().is_some_and(|e| e == "npy") {
        mkc_data::npy::read(path)
    } else {
        mkc_data::csv::read_dense(path, &mkc_data::csv::CsvOptions::new())
    }
}

/// Labels, one per line (any text; blank lines skipped; surrounding quotes dropped),
/// mapped to `0..` in order of first appearance; returns the ids and the names.
pub fn read_labels(path: &Path) -> Result<(Vec<usize>, Vec<String>)> {
    let text = std::fs::read_to_string(path).map_err(|e| Error::io(path, e))?;
    let mut names: Vec<String> = Vec::new();
    let mut ids = Vec::new();
    for line in text.lines() {
        let t = line.trim().trim_matches('"');
        if t.is_empty() {
            continue;
        }
        let id = match names.iter().position(|n| n == t) {
            Some(i) => i,
            None => {
                names.push(t.to_string());
                names.len() - 1
            }
        };
        ids.push(id);
    }
    if ids.is_empty() {
        return Err(Error::parse(
            path,
            "file",
            "no labels (expected one label per line)",
        ));
    }
    Ok((ids, names))
}

/// A file of dataset `key` that must exist (else the row reports it missing).
fn present<'p>(key: &str, path: &'p Path) -> Result<&'p Path> {
    if path.is_file() {
        return Ok(path);
    }
    Err(Error::MissingData {
        dataset: key.to_string(),
        file: path.to_path_buf(),
        sha256: "-".into(),
        hint: "a file of the config's own data (paths are relative to the config file)".into(),
    })
}

/// The name of a view: its file stem.
fn stem(path: &Path) -> String {
    path.file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// Load the own data of row `key` (a row with `features` or `kernels`, and `labels`).
pub fn load(key: &str, cfg: &DatasetCfg) -> Result<RawData> {
    let what = format!("dataset `{key}`");
    let Some(labels) = &cfg.labels else {
        return Err(Error::input(
            &what,
            "own data needs `labels` (a label file)",
        ));
    };
    let (labels, class_names) = read_labels(present(key, labels)?)?;
    let n = labels.len();
    let features = match (&cfg.features, &cfg.kernels) {
        (Some(files), None) => {
            let mut views = Vec::with_capacity(files.len());
            for f in files {
                let x = read_matrix(present(key, f)?)?;
                mkc_core::validate::finite(&format!("{what}: {}", f.display()), x.as_ref())?;
                mkc_core::validate::len(&format!("{what}: rows of {}", f.display()), x.nrows(), n)?;
                views.push((stem(f), x));
            }
            match views.len() {
                1 => RawFeatures::Dense(views.remove(0).1),
                _ => RawFeatures::Views(views),
            }
        }
        (None, Some(files)) => {
            let mut ks = Vec::with_capacity(files.len());
            for f in files {
                let k = read_matrix(present(key, f)?)?;
                mkc_core::validate::square(&format!("{what}: kernel {}", f.display()), k.as_ref())?;
                mkc_core::validate::len(&format!("{what}: rows of {}", f.display()), k.nrows(), n)?;
                ks.push(k);
            }
            RawFeatures::Kernels(ks)
        }
        _ => {
            return Err(Error::input(
                &what,
                "own data needs either `features` or `kernels`",
            ))
        }
    };
    Ok(RawData {
        features,
        labels,
        class_names,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    fn dir(tag: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("mkc-own-{tag}-{}", std::process::id()));
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    fn row(features: &[&str], kernels: &[&str], labels: &str, d: &Path) -> DatasetCfg {
        let files = |v: &[&str]| (!v.is_empty()).then(|| v.iter().map(|f| d.join(f)).collect());
        DatasetCfg {
            features: files(features),
            kernels: files(kernels),
            labels: Some(d.join(labels)),
            ..DatasetCfg::default()
        }
    }

    #[test]
    fn labels_are_numbered_in_order_of_first_appearance() {
        let d = dir("labels");
        std::fs::write(d.join("y.txt"), "b\n\"a\"\n\n b \na\n").unwrap();
        let (ids, names) = read_labels(&d.join("y.txt")).unwrap();
        assert_eq!(
            (ids, names),
            (vec![0, 1, 0, 1], vec!["b".into(), "a".into()])
        );
        std::fs::write(d.join("e.txt"), "\n \n").unwrap();
        assert!(read_labels(&d.join("e.txt")).is_err());
        std::fs::remove_dir_all(&d).ok();
    }

    #[test]
    fn views_kernels_and_their_errors() {
        let d = dir("files");
        std::fs::write(d.join("l.txt"), "x\ny\nx\n").unwrap();
        std::fs::write(d.join("a.csv"), "1,2\n3,4\n5,6\n").unwrap();
        std::fs::write(d.join("b.csv"), "1\n2\n3\n").unwrap();
        std::fs::write(d.join("short.csv"), "1\n2\n").unwrap();
        let eye = Mat::<f64>::identity(3, 3);
        mkc_data::npy::write(d.join("k.npy"), eye.as_ref()).unwrap();
        // Two feature files are two views named by their stems.
        let raw = load("two", &row(&["a.csv", "b.csv"], &[], "l.txt", &d)).unwrap();
        match raw.features {
            RawFeatures::Views(v) => {
                assert_eq!(
                    v.iter()
                        .map(|x| (x.0.as_str(), x.1.ncols()))
                        .collect::<Vec<_>>(),
                    [("a", 2), ("b", 1)]
                )
            }
            _ => panic!("expected views"),
        }
        assert_eq!(
            (raw.labels, raw.class_names),
            (vec![0, 1, 0], vec!["x".into(), "y".into()])
        );
        assert!(matches!(
            load("one", &row(&["a.csv"], &[], "l.txt", &d))
                .unwrap()
                .features,
            RawFeatures::Dense(_)
        ));
        assert!(matches!(
            load("k", &row(&[], &["k.npy"], "l.txt", &d)).unwrap().features,
            RawFeatures::Kernels(ref k) if k.len() == 1
        ));
        // A missing file is "data missing"; a row count that is not n, or a non-square
        // kernel, is an error in words.
        match load("gone", &row(&["nope.csv"], &[], "l.txt", &d)) {
            Err(Error::MissingData { file, .. }) => assert!(file.ends_with("nope.csv")),
            other => panic!("{:?}", other.map(|_| ())),
        }
        assert!(load("short", &row(&["short.csv"], &[], "l.txt", &d)).is_err());
        assert!(load("rect", &row(&[], &["a.csv"], "l.txt", &d)).is_err());
        std::fs::remove_dir_all(&d).ok();
    }
}
