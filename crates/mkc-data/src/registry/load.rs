//! Reading a registry entry's files into a [`Dataset`].

use super::schema::{DatasetEntry, Format, NanHandling};
use crate::csv::{self, CsvOptions, NanPolicy};
use crate::datadir::DataDir;
use crate::dataset::{format_label, Dataset, Features};
use crate::mat::{read_any, MatArray};
use crate::preprocess::{self, Preprocess};
use faer::Mat;
use mkc_core::{Error, Result};
use std::collections::BTreeMap;
use std::path::PathBuf;

/// Raw content of a dataset's files before selection.
struct Raw {
    features: Features,
    /// `None` = missing label.
    labels: Vec<Option<String>>,
    /// Bundle `split.csv` part of each row.
    split: Option<Vec<String>>,
}

impl Raw {
    fn unsplit(features: Features, labels: Vec<Option<String>>) -> Raw {
        Raw {
            features,
            labels,
            split: None,
        }
    }
}

/// A registry entry's error: `key` of `datasets.<name>`.
fn entry_error(name: &str, key: &str, msg: impl Into<String>) -> Error {
    Error::config(
        "dataset registry",
        format!("datasets.{name}.{key}"),
        msg.into(),
    )
}

fn label_of(v: f64) -> Option<String> {
    if v.is_nan() {
        None
    } else {
        Some(format_label(v))
    }
}

fn find(files: &BTreeMap<String, String>, pred: impl Fn(&str) -> bool) -> Option<&str> {
    files.keys().map(String::as_str).find(|f| pred(f))
}

fn need<'a>(
    name: &str,
    files: &'a BTreeMap<String, String>,
    what: &str,
    pred: impl Fn(&str) -> bool,
) -> Result<&'a str> {
    find(files, pred).ok_or_else(|| entry_error(name, "files", format!("no {what} file listed")))
}

/// What the per-format readers share: the entry, its files and where they are.
struct Source<'a> {
    name: &'a str,
    e: &'a DatasetEntry,
    files: &'a BTreeMap<String, String>,
    dir: &'a DataDir,
    nan: NanPolicy,
}

impl Source<'_> {
    fn path(&self, rel: &str) -> PathBuf {
        self.dir.path(rel)
    }

    fn need(&self, what: &str, pred: impl Fn(&str) -> bool) -> Result<&str> {
        need(self.name, self.files, what, pred)
    }

    /// The first listed file (single-file formats).
    fn first(&self) -> &str {
        self.files.keys().next().map(String::as_str).unwrap_or("")
    }

    fn dense(&self, rel: &str) -> Result<Mat<f64>> {
        csv::read_dense(self.path(rel), &CsvOptions::new().nan(self.nan))
    }

    /// A labels file of one label per line (missing-value markers become `None`).
    fn labels(&self, rel: &str) -> Result<Vec<Option<String>>> {
        Ok(csv::read_strings(self.path(rel))?
            .into_iter()
            .map(|s| if csv::is_missing(&s) { None } else { Some(s) })
            .collect())
    }

    fn config_error(&self, key: &str, msg: impl Into<String>) -> Error {
        entry_error(self.name, key, msg)
    }
}

fn read_raw(
    name: &str,
    e: &DatasetEntry,
    files: &BTreeMap<String, String>,
    dir: &DataDir,
) -> Result<Raw> {
    let nan = if e.nan == NanHandling::Error {
        NanPolicy::Error
    } else {
        NanPolicy::Allow
    };
    let src = Source {
        name,
        e,
        files,
        dir,
        nan,
    };
    match e.format.unwrap_or(Format::Bundle) {
        Format::Bundle => read_bundle(&src),
        Format::Mat => read_mat(&src),
        Format::Csv => read_csv(&src),
        Format::Libsvm => {
            let d = crate::libsvm::read(src.path(src.first()), None)?;
            Ok(Raw::unsplit(
                Features::Sparse(d.features),
                d.labels.into_iter().map(label_of).collect(),
            ))
        }
        Format::Npy => {
            let x = src.need(".npy features", |f| f.ends_with(".npy"))?;
            let l = src.need("labels", |f| !f.ends_with(".npy"))?;
            let features = Features::Dense(crate::npy::read(src.path(x))?);
            Ok(Raw::unsplit(features, src.labels(l)?))
        }
        Format::Kmatrix => {
            let file = src.need(".mat", |f| f.ends_with(".mat"))?;
            let (ks, y) = crate::kmatrix::read_kmatrix_vars(
                src.path(file),
                e.features_var.as_deref().unwrap_or("KH"),
                e.labels_var.as_deref().unwrap_or("Y"),
            )?;
            Ok(Raw::unsplit(
                Features::Kernels(ks),
                y.into_iter().map(label_of).collect(),
            ))
        }
    }
}

/// A bundle directory: `data.csv[.gz]` or `views/*.csv`, `labels.csv`, optional `split.csv`.
fn read_bundle(src: &Source) -> Result<Raw> {
    let views: Vec<&str> = src
        .files
        .keys()
        .map(String::as_str)
        .filter(|f| f.contains("/views/"))
        .collect();
    let features = if views.is_empty() {
        let data = src.need("data.csv[.gz]", |f| {
            f.ends_with("/data.csv") || f.ends_with("/data.csv.gz")
        })?;
        Features::Dense(src.dense(data)?)
    } else {
        let mut vs = Vec::new();
        for v in views {
            let stem = v
                .rsplit('/')
                .next()
                .unwrap_or(v)
                .trim_end_matches(".gz")
                .trim_end_matches(".csv");
            vs.push((stem.to_string(), src.dense(v)?));
        }
        Features::Views(vs)
    };
    let labels = src.labels(src.need("labels.csv", |f| f.ends_with("/labels.csv"))?)?;
    let split = match find(src.files, |f| f.ends_with("/split.csv")) {
        Some(s) => Some(
            csv::read_split(src.path(s))?
                .into_iter()
                .map(|(part, _)| part)
                .collect(),
        ),
        None => None,
    };
    Ok(Raw {
        features,
        labels,
        split,
    })
}

/// A MAT file: features (dense, sparse, or a cell array of views) and a label vector.
fn read_mat(src: &Source) -> Result<Raw> {
    let e = src.e;
    let mat = read_any(src.path(src.need(".mat", |f| f.ends_with(".mat"))?))?;
    let fv = e.features_var.as_deref().unwrap_or("X");
    let lv = e.labels_var.as_deref().unwrap_or("y");
    let x = mat.require(fv)?;
    let features = match x {
        MatArray::Sparse { .. } => Features::Sparse(x.to_sparse_row(fv)?),
        MatArray::Cell { items, .. } => {
            let names: Vec<String> = match &e.view_names {
                Some(n) if n.len() == items.len() => n.clone(),
                Some(n) => {
                    return Err(src.config_error(
                        "view_names",
                        format!("{} names for {} cells", n.len(), items.len()),
                    ))
                }
                None => (1..=items.len()).map(|k| format!("view{k}")).collect(),
            };
            let mut vs = Vec::with_capacity(items.len());
            for (k, (n, it)) in names.into_iter().zip(items).enumerate() {
                vs.push((n, it.to_mat(&format!("{fv}{{{}}}", k + 1))?));
            }
            Features::Views(vs)
        }
        _ => Features::Dense(x.to_mat(fv)?),
    };
    let labels = mat.require(lv)?.to_vec(lv)?;
    Ok(Raw::unsplit(
        features,
        labels.into_iter().map(label_of).collect(),
    ))
}

/// One CSV file whose `label_column` (negative: from the end) holds the labels.
fn read_csv(src: &Source) -> Result<Raw> {
    let e = src.e;
    let opts = CsvOptions::new().header(e.header).nan(src.nan);
    let m = csv::read_dense(src.path(src.first()), &opts)?;
    let lc = e
        .label_column
        .ok_or_else(|| src.config_error("label_column", "required for format = \"csv\""))?;
    let d = m.ncols() as i64;
    let col = if lc < 0 { d + lc } else { lc };
    if col < 0 || col >= d {
        return Err(src.config_error("label_column", format!("{lc} is outside the {d} columns")));
    }
    let col = col as usize;
    let labels = m.col(col).iter().map(|&v| label_of(v)).collect();
    let x = Mat::from_fn(m.nrows(), m.ncols() - 1, |i, j| {
        m[(i, if j < col { j } else { j + 1 })]
    });
    Ok(Raw::unsplit(Features::Dense(x), labels))
}

fn map_views(f: Features, g: impl Fn(&Mat<f64>) -> Result<Mat<f64>>) -> Result<Features> {
    Ok(match f {
        Features::Dense(m) => Features::Dense(g(&m)?),
        Features::Views(v) => Features::Views(
            v.into_iter()
                .map(|(n, m)| Ok((n, g(&m)?)))
                .collect::<Result<_>>()?,
        ),
        other => other,
    })
}

/// Load dataset `name`: `base` holds the reading rules, `eff` the selection (they are
/// the same entry for a non-derived dataset).
pub(super) fn load(
    name: &str,
    base: &DatasetEntry,
    eff: &DatasetEntry,
    files: &BTreeMap<String, String>,
    dir: &DataDir,
) -> Result<Dataset> {
    let raw = read_raw(name, base, files, dir)?;
    let n = check_lengths(name, &raw)?;
    // missing labels
    let drop = base.drop_missing_labels || eff.drop_missing_labels;
    if let Some(i) = raw.labels.iter().position(Option::is_none) {
        if !drop {
            return Err(Error::input(
                format!("dataset `{name}` labels"),
                format!("label of sample {i} (0-based) is missing; set drop_missing_labels = true to drop such samples"),
            ));
        }
    }
    let mut keep: Vec<usize> = (0..n).filter(|&i| raw.labels[i].is_some()).collect();
    let mut features = raw.features;
    // NaN handling (over the rows with labels)
    if keep.len() != n {
        features = features.select_rows(&keep)?;
    }
    if base.nan == NanHandling::ImputeMean {
        features = map_views(features, |m| {
            let mut m = m.clone();
            preprocess::impute_mean(&mut m)?;
            Ok(m)
        })?;
    }
    let labels: Vec<String> = keep
        .iter()
        .map(|&i| raw.labels[i].clone().unwrap_or_default())
        .collect();
    let mut ds = Dataset::from_labels(name, features, &labels)?;
    ds.rows = keep.clone();
    if let Some(parts) = eff.split.as_ref().or(base.split.as_ref()) {
        let idx = split_rows(name, &ds, raw.split.as_deref(), &keep, parts)?;
        ds = ds.select_rows(&idx)?;
        keep = idx.iter().map(|&i| keep[i]).collect();
        ds.rows = keep.clone();
    }
    // classes
    if let Some(classes) = eff.classes.as_ref().or(base.classes.as_ref()) {
        ds = ds.keep_classes(classes)?;
    }
    if let Some(views) = eff.views.as_ref().or(base.views.as_ref()) {
        ds.features = select_views(name, &ds.features, views)?;
    }
    preprocess_steps(name, &mut ds, base, eff)?;
    ds.name = name.to_string();
    Ok(ds)
}

/// The number of samples, after checking that labels and split have one entry each.
fn check_lengths(name: &str, raw: &Raw) -> Result<usize> {
    let n = raw.features.n_samples();
    if raw.labels.len() != n {
        return Err(Error::shape(
            format!("dataset `{name}` labels"),
            format!("{n} (one per sample)"),
            raw.labels.len().to_string(),
        ));
    }
    if let Some(s) = &raw.split {
        if s.len() != n {
            return Err(Error::shape(
                format!("dataset `{name}` split.csv"),
                format!("{n} rows"),
                s.len().to_string(),
            ));
        }
    }
    Ok(n)
}

/// Rows of `ds` (whose row `i` is file row `keep[i]`) in the split `parts`.
fn split_rows(
    name: &str,
    ds: &Dataset,
    split: Option<&[String]>,
    keep: &[usize],
    parts: &[String],
) -> Result<Vec<usize>> {
    let err = |msg: String| entry_error(name, "split", msg);
    let split = split.ok_or_else(|| err("the dataset has no split.csv".into()))?;
    let idx: Vec<usize> = (0..ds.n_samples())
        .filter(|&i| parts.contains(&split[keep[i]]))
        .collect();
    if idx.is_empty() {
        return Err(err(format!("no row is in parts {parts:?}")));
    }
    Ok(idx)
}

/// The views named in `views`, in that order.
fn select_views(name: &str, features: &Features, views: &[String]) -> Result<Features> {
    let err = |msg: String| entry_error(name, "views", msg);
    let Features::Views(vs) = features else {
        return Err(err("the dataset is not multi-view".into()));
    };
    let mut out = Vec::with_capacity(views.len());
    for v in views {
        let m = vs.iter().find(|(n, _)| n == v).ok_or_else(|| {
            let have: Vec<&str> = vs.iter().map(|(n, _)| n.as_str()).collect();
            err(format!("no view `{v}` (views: {})", have.join(", ")))
        })?;
        out.push(m.clone());
    }
    Ok(Features::Views(out))
}

/// The preprocessing steps: the base entry's, then the derived entry's.
fn preprocess_steps(
    name: &str,
    ds: &mut Dataset,
    base: &DatasetEntry,
    eff: &DatasetEntry,
) -> Result<()> {
    let mut steps: Vec<(Preprocess, &[usize])> = base
        .preprocess
        .iter()
        .map(|&s| (s, base.one_hot_columns.as_slice()))
        .collect();
    if !std::ptr::eq(base, eff) {
        steps.extend(
            eff.preprocess
                .iter()
                .map(|&s| (s, eff.one_hot_columns.as_slice())),
        );
    }
    for (step, cols) in steps {
        if matches!(ds.features, Features::Sparse(_) | Features::Kernels(_)) {
            if step == Preprocess::UnitRows {
                if let Features::Sparse(m) = &ds.features {
                    ds.features = Features::Sparse(unit_rows_sparse(m)?);
                    continue;
                }
            }
            return Err(entry_error(
                name,
                "preprocess",
                format!("{step:?} is not available for sparse or kernel data"),
            ));
        }
        ds.features = map_views(
            std::mem::replace(&mut ds.features, Features::Kernels(Vec::new())),
            |m| preprocess::apply(m, step, cols),
        )?;
    }
    Ok(())
}

fn unit_rows_sparse(
    m: &faer::sparse::SparseRowMat<usize, f64>,
) -> Result<faer::sparse::SparseRowMat<usize, f64>> {
    use faer::sparse::{SparseRowMat, Triplet};
    let r = m.as_ref();
    let mut trip = Vec::new();
    for i in 0..m.nrows() {
        let vals = r.val_of_row(i);
        let norm = vals.iter().map(|v| v * v).sum::<f64>().sqrt();
        for (&c, &v) in r.col_idx_of_row_raw(i).iter().zip(vals) {
            trip.push(Triplet::new(i, c, if norm > 0.0 { v / norm } else { v }));
        }
    }
    SparseRowMat::try_new_from_triplets(m.nrows(), m.ncols(), &trip)
        .map_err(|e| Error::input("unit rows", format!("{e:?}")))
}
