//! Registry parsing and data-directory errors, on small registries written here.

use mkc_core::Error;
use mkc_data::{DataDir, Features, Registry};
use std::path::{Path, PathBuf};

fn repo_data() -> DataDir {
    DataDir::at(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../data"))
}

const SHA_A: &str = "f6a1a3a2bd6e1d1b8e1cfe6f0a9a5b6b8bd8e0f7b3a0ed4b2f1f9c7f4c5c3a2a";

fn one(extra: &str) -> String {
    format!(
        "[datasets.toy]\ndescription = \"toy\"\nformat = \"bundle\"\n{extra}\nfiles = {{ \"toy/data.csv\" = \"{SHA_A}\", \"toy/labels.csv\" = \"{SHA_A}\" }}\nexpect = {{ n = 2, d = 1, classes = {{ a = 1, b = 1 }} }}\n"
    )
}

#[test]
fn unknown_keys_are_errors_naming_the_key() {
    let e = Registry::from_toml_str(&one("colour = \"red\""), "test.toml").unwrap_err();
    match &e {
        Error::Config { key, .. } => assert_eq!(key, "colour", "{e}"),
        other => panic!("{other:?}"),
    }
    let e = Registry::from_toml_str("[sets.toy]\n", "test.toml").unwrap_err();
    assert!(
        matches!(&e, Error::Config { key, .. } if key == "sets"),
        "{e}"
    );
    let e = Registry::from_toml_str(&one("preprocess = [\"whiten\"]"), "test.toml").unwrap_err();
    assert!(e.to_string().contains("whiten"), "{e}");
    let e = Registry::from_toml_str(&one("format = 3"), "test.toml");
    assert!(e.is_err());
}

#[test]
fn semantic_errors_name_the_key() {
    let derived = format!("{}\n[datasets.sub]\ndescription = \"d\"\nbase = \"nope\"\nexpect = {{ n = 0, d = 0, classes = {{}} }}\n", one(""));
    // (registry text, what its error names)
    let cases = [
        (one("").replace(SHA_A, "abc"), "sha256"),
        (one("").replace("b = 1", "b = 5"), "expect.classes"),
        (one("preprocess = [\"one_hot\"]"), "one_hot_columns"),
        (one("").replace("toy/data.csv", "../etc/passwd"), "relative"),
        (derived, "datasets.sub.base"),
    ];
    for (text, names) in cases {
        let e = Registry::from_toml_str(&text, "t").unwrap_err().to_string();
        assert!(e.contains(names), "{names}: {e}");
    }
    let with_files = format!(
        "{}\n[datasets.sub]\ndescription = \"d\"\nbase = \"toy\"\nformat = \"csv\"\nexpect = {{ n = 0, d = 0, classes = {{}} }}\n",
        one("")
    );
    assert!(Registry::from_toml_str(&with_files, "t").is_err());
    let reg = Registry::from_toml_str(&one(""), "t").unwrap();
    assert!(reg
        .entry("toys")
        .unwrap_err()
        .to_string()
        .contains("did you mean toy"));
}

#[test]
fn missing_file_names_file_sha_and_where_to_put_it() {
    let reg = Registry::from_toml_str(&one(""), "t").unwrap();
    let dir = DataDir::at("/nonexistent/mkc-data");
    let st = reg.status("toy", &dir).unwrap();
    assert!(!st.is_present() && st.missing().len() == 2);
    let e = reg.load("toy", &dir).unwrap_err();
    let msg = e.to_string();
    assert!(matches!(e, Error::MissingData { .. }));
    assert!(
        msg.contains("toy/data.csv") && msg.contains(SHA_A) && msg.contains("MKC_DATA_DIR"),
        "{msg}"
    );
}

#[test]
fn wrong_checksum_is_an_error() {
    let dir = std::env::temp_dir().join(format!("mkc-data-sum-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("toy")).unwrap();
    std::fs::write(dir.join("toy/data.csv"), "1\n2\n").unwrap();
    std::fs::write(dir.join("toy/labels.csv"), "a\nb\n").unwrap();
    let reg = Registry::from_toml_str(&one(""), "t").unwrap();
    let e = reg.load("toy", &DataDir::at(&dir)).unwrap_err();
    assert!(matches!(e, Error::Checksum { .. }), "{e}");
    // with the right checksums it loads, and NaN labels are refused
    // the registry with the files' own checksums, loaded
    let load = || {
        let sha = |p: &Path| mkc_data::datadir::sha256_file(p).unwrap();
        let text = one("")
            .replacen(SHA_A, &sha(&dir.join("toy/data.csv")), 1)
            .replacen(SHA_A, &sha(&dir.join("toy/labels.csv")), 1);
        Registry::from_toml_str(&text, "t")
            .unwrap()
            .load("toy", &DataDir::at(&dir))
    };
    let ds = load().unwrap();
    assert_eq!(
        (ds.n_samples(), ds.class_names.clone()),
        (2, vec!["a".to_string(), "b".to_string()])
    );
    std::fs::write(dir.join("toy/labels.csv"), "a\nNaN\n").unwrap();
    let e = load().unwrap_err();
    assert!(e.to_string().contains("missing"), "{e}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn data_dir_resolution_order() {
    let cli = DataDir::resolve(Some(Path::new("/x")));
    assert_eq!(
        (cli.root.as_path(), cli.source),
        (Path::new("/x"), mkc_data::DataDirSource::Cli)
    );
    // (the environment variable is read by `resolve(None)`; not mutated here because
    // tests run in parallel threads)
    let none = DataDir::resolve(None);
    match std::env::var_os("MKC_DATA_DIR") {
        Some(v) if !v.is_empty() => assert_eq!(none.root, PathBuf::from(v)),
        _ => assert_eq!(none.root, PathBuf::from("data")),
    }
}

/// The committed bundle sets load from `data/` without any environment.
#[test]
fn committed_sets_and_derived_subsets_load() {
    let reg = Registry::load_default().unwrap();
    let dir = repo_data();
    let committed: Vec<&str> = reg
        .names()
        .into_iter()
        .filter(|n| reg.status(n, &dir).map(|s| s.is_present()).unwrap_or(false))
        .collect();
    assert!(committed.len() >= 17 + 10, "{committed:?}");
    // the base sets (every derived set is loaded by the MKC_DATA_DIR test)
    let committed: Vec<&str> = committed
        .into_iter()
        .filter(|n| reg.entry(n).unwrap().base.is_none())
        .collect();
    assert_eq!(committed.len(), 17);
    for name in &committed {
        reg.load(name, &dir)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
    }
    // optdigits 3 vs 8 from the tes part: 357 samples (the classic MMC pair size)
    let p = reg.load("optdigits-3v8", &dir).unwrap();
    assert_eq!(p.n_samples(), 357);
    assert!(
        p.rows.iter().all(|&r| r >= 3823),
        "tes rows come after the 3823 tra rows"
    );
    assert_eq!(p.class_names, vec!["3", "8"]);
    // Digit: the fac, fou, kar views in that order
    let d = reg.load("digit", &dir).unwrap();
    let Features::Views(v) = &d.features else {
        panic!()
    };
    let names: Vec<(&str, usize)> = v.iter().map(|(n, m)| (n.as_str(), m.ncols())).collect();
    assert_eq!(names, vec![("fac", 216), ("fou", 76), ("kar", 64)]);
    // one-hot + [0,1]: every column in [0, 1], indicator columns sum to 1 per attribute
    let a = reg.load("australian-onehot", &dir).unwrap();
    let Features::Dense(x) = &a.features else {
        panic!()
    };
    assert!(x
        .col_iter()
        .all(|c| c.iter().all(|&v| (0.0..=1.0).contains(&v))));
    // echocardiogram: the `?` label dropped, NaNs imputed
    let e = reg.load("echocardiogram", &dir).unwrap();
    let Features::Dense(x) = &e.features else {
        panic!()
    };
    assert_eq!(e.n_samples(), 131);
    assert!(x.col_iter().all(|c| c.iter().all(|v| v.is_finite())));
}
