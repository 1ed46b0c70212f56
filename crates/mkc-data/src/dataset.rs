//! The loaded form of a dataset: features (dense, sparse, multi-view or precomputed
//! kernels), integer labels and the class names they index.

use faer::sparse::{SparseRowMat, Triplet};
use faer::Mat;
use mkc_core::{Error, Result};

/// The features of a dataset. Samples are rows (n x d) in every variant.
#[derive(Debug, Clone)]
pub enum Features {
    /// One dense n x d matrix.
    Dense(Mat<f64>),
    /// One sparse n x d matrix (e.g. tf-idf text).
    Sparse(SparseRowMat<usize, f64>),
    /// Several views of the same n samples: `(view name, n x d_v)`.
    Views(Vec<(String, Mat<f64>)>),
    /// Precomputed n x n kernels.
    Kernels(Vec<Mat<f64>>),
}

impl Features {
    /// Number of samples n.
    pub fn n_samples(&self) -> usize {
        match self {
            Features::Dense(m) => m.nrows(),
            Features::Sparse(m) => m.nrows(),
            Features::Views(v) => v.first().map(|(_, m)| m.nrows()).unwrap_or(0),
            Features::Kernels(k) => k.first().map(|m| m.nrows()).unwrap_or(0),
        }
    }

    /// Number of features d (the sum over views; the number of kernels for `Kernels`).
    pub fn n_features(&self) -> usize {
        match self {
            Features::Dense(m) => m.ncols(),
            Features::Sparse(m) => m.ncols(),
            Features::Views(v) => v.iter().map(|(_, m)| m.ncols()).sum(),
            Features::Kernels(k) => k.len(),
        }
    }

    /// The features of the rows `idx` (in that order; kernels keep rows and columns).
    pub fn select_rows(&self, idx: &[usize]) -> Result<Features> {
        let n = self.n_samples();
        if let Some(&bad) = idx.iter().find(|&&i| i >= n) {
            return Err(Error::input(
                "row selection",
                format!("row {bad} out of range ({n} samples)"),
            ));
        }
        let pick = |m: &Mat<f64>| Mat::from_fn(idx.len(), m.ncols(), |i, j| m[(idx[i], j)]);
        Ok(match self {
            Features::Dense(m) => Features::Dense(pick(m)),
            Features::Views(v) => {
                Features::Views(v.iter().map(|(name, m)| (name.clone(), pick(m))).collect())
            }
            Features::Kernels(ks) => Features::Kernels(
                ks.iter()
                    .map(|k| Mat::from_fn(idx.len(), idx.len(), |i, j| k[(idx[i], idx[j])]))
                    .collect(),
            ),
            Features::Sparse(m) => {
                let r = m.as_ref();
                let mut trip = Vec::new();
                for (new, &old) in idx.iter().enumerate() {
                    for (&c, &v) in r.col_idx_of_row_raw(old).iter().zip(r.val_of_row(old)) {
                        trip.push(Triplet::new(new, c, v));
                    }
                }
                Features::Sparse(
                    SparseRowMat::try_new_from_triplets(idx.len(), m.ncols(), &trip)
                        .map_err(|e| Error::input("row selection", format!("{e:?}")))?,
                )
            }
        })
    }
}

/// A dataset: features, one label per sample (an index into `class_names`), and the
/// row of each sample in the source file(s).
#[derive(Debug, Clone)]
pub struct Dataset {
    /// Registry name (or the file name for ad-hoc loads).
    pub name: String,
    /// The features.
    pub features: Features,
    /// `labels[i]` indexes `class_names`.
    pub labels: Vec<usize>,
    /// Class names as written in the source (`"1"`, `"-1"`, `"democrat"`, …).
    pub class_names: Vec<String>,
    /// Row of each sample in the source data (0-based), after any filtering.
    pub rows: Vec<usize>,
}

/// Format a numeric label the way the source files write it (`3`, `-1`, `2.5`).
pub fn format_label(v: f64) -> String {
    if v.fract() == 0.0 && v.abs() < 1e15 {
        format!("{}", v as i64)
    } else {
        format!("{v}")
    }
}

/// Class order used when none is given: numeric ascending when every name is a
/// number, else lexicographic.
pub fn sort_class_names(names: &mut [String]) {
    let all_numeric = names.iter().all(|s| s.parse::<f64>().is_ok());
    if all_numeric {
        names.sort_by(|a, b| {
            a.parse::<f64>()
                .unwrap_or(0.0)
                .total_cmp(&b.parse::<f64>().unwrap_or(0.0))
        });
    } else {
        names.sort();
    }
}

/// Encode label strings as indices into their sorted distinct values (see
/// [`sort_class_names`]).
pub fn encode_labels(raw: &[String]) -> (Vec<usize>, Vec<String>) {
    let mut names: Vec<String> = raw.to_vec();
    names.sort();
    names.dedup();
    sort_class_names(&mut names);
    let labels = raw
        .iter()
        .map(|s| names.iter().position(|n| n == s).unwrap_or(0))
        .collect();
    (labels, names)
}

impl Dataset {
    /// Build a dataset from features and label strings (one per row), checking lengths.
    pub fn from_labels(
        name: impl Into<String>,
        features: Features,
        raw_labels: &[String],
    ) -> Result<Self> {
        let name = name.into();
        let n = features.n_samples();
        if raw_labels.len() != n {
            return Err(Error::shape(
                format!("dataset `{name}` labels"),
                format!("{n} (one per sample)"),
                raw_labels.len().to_string(),
            ));
        }
        let (labels, class_names) = encode_labels(raw_labels);
        Ok(Dataset {
            name,
            features,
            labels,
            class_names,
            rows: (0..n).collect(),
        })
    }

    /// Number of samples.
    pub fn n_samples(&self) -> usize {
        self.labels.len()
    }

    /// Number of features (see [`Features::n_features`]).
    pub fn n_features(&self) -> usize {
        self.features.n_features()
    }

    /// Number of classes.
    pub fn n_classes(&self) -> usize {
        self.class_names.len()
    }

    /// `(class name, count)` in class order.
    pub fn class_counts(&self) -> Vec<(String, usize)> {
        let mut c = vec![0usize; self.class_names.len()];
        for &l in &self.labels {
            c[l] += 1;
        }
        self.class_names.iter().cloned().zip(c).collect()
    }

    /// The samples at `idx` (labels re-encoded so that every remaining class is used).
    pub fn select_rows(&self, idx: &[usize]) -> Result<Dataset> {
        let features = self.features.select_rows(idx)?;
        let raw: Vec<String> = idx
            .iter()
            .map(|&i| self.class_names[self.labels[i]].clone())
            .collect();
        let mut names: Vec<String> = self
            .class_names
            .iter()
            .filter(|c| raw.contains(c))
            .cloned()
            .collect();
        names.dedup();
        let labels = raw
            .iter()
            .map(|s| names.iter().position(|n| n == s).unwrap_or(0))
            .collect();
        Ok(Dataset {
            name: self.name.clone(),
            features,
            labels,
            class_names: names,
            rows: idx.iter().map(|&i| self.rows[i]).collect(),
        })
    }

    /// Keep the samples of `classes` only; class `k` of the result is `classes[k]`.
    /// Errors name a class that does not occur.
    pub fn keep_classes(&self, classes: &[String]) -> Result<Dataset> {
        let mut map = Vec::with_capacity(classes.len());
        for (k, c) in classes.iter().enumerate() {
            if classes[..k].contains(c) {
                return Err(Error::input(
                    format!("dataset `{}`", self.name),
                    format!("class {c:?} listed twice"),
                ));
            }
            let k = self
                .class_names
                .iter()
                .position(|n| n == c)
                .ok_or_else(|| {
                    Error::input(
                        format!("dataset `{}`", self.name),
                        format!(
                            "class {c:?} not present (classes: {})",
                            self.class_names.join(", ")
                        ),
                    )
                })?;
            map.push(k);
        }
        let idx: Vec<usize> = (0..self.n_samples())
            .filter(|&i| map.contains(&self.labels[i]))
            .collect();
        let mut out = self.select_rows(&idx)?;
        out.labels = idx
            .iter()
            .map(|&i| map.iter().position(|&k| k == self.labels[i]).unwrap_or(0))
            .collect();
        out.class_names = classes.to_vec();
        Ok(out)
    }

    /// Labels as ±1 for a two-class dataset: class 0 → +1, class 1 → −1.
    pub fn labels_pm1(&self) -> Result<Vec<f64>> {
        if self.n_classes() != 2 {
            return Err(Error::input(
                format!("dataset `{}` labels", self.name),
                format!("{} classes, ±1 labels need exactly 2", self.n_classes()),
            ));
        }
        Ok(self
            .labels
            .iter()
            .map(|&l| if l == 0 { 1.0 } else { -1.0 })
            .collect())
    }
}
