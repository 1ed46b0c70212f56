//! LIBSVM / SVMlight sparse text: `<label> <index>:<value> …` per line, indices
//! 1-based. `#` starts a comment; a `qid:<n>` token is ignored; blank lines are
//! skipped; indices must be strictly increasing within a line (as both formats
//! require) — a repeated or decreasing index is an error naming the line.

use crate::bytes::{parse_err, read_maybe_gz};
use faer::sparse::{SparseRowMat, Triplet};
use mkc_core::{Error, Result};
use std::path::Path;

/// A LIBSVM file: sparse features (n x d, rows = samples) and the label of each row.
#[derive(Debug, Clone)]
pub struct LibsvmData {
    /// n x d sparse matrix; d = the largest index seen (or `n_features` if given).
    pub features: SparseRowMat<usize, f64>,
    /// The label of each row, as written.
    pub labels: Vec<f64>,
}

/// Read a LIBSVM/SVMlight file (gzip allowed). `n_features` fixes d (an index above
/// it is an error); `None` takes the largest index present.
pub fn read(path: impl AsRef<Path>, n_features: Option<usize>) -> Result<LibsvmData> {
    let path = path.as_ref();
    let data = read_maybe_gz(path)?;
    parse(&data, path, n_features)
}

/// Parse LIBSVM bytes (`path` is used in error messages).
pub fn parse(data: &[u8], path: &Path, n_features: Option<usize>) -> Result<LibsvmData> {
    let text = std::str::from_utf8(data)
        .map_err(|e| parse_err(path, "text", format!("not UTF-8: {e}")))?;
    let mut labels = Vec::new();
    let mut trip: Vec<Triplet<usize, usize, f64>> = Vec::new();
    let mut max_idx = 0usize;
    for (k, raw) in text.split('\n').enumerate() {
        let lineno = k + 1;
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let at = |what: String| parse_err(path, format!("line {lineno}"), what);
        let mut tokens = line.split_ascii_whitespace();
        let label_tok = tokens.next().unwrap_or("");
        let label: f64 = label_tok
            .parse()
            .map_err(|_| at(format!("label {label_tok:?} is not a number")))?;
        if !label.is_finite() {
            return Err(at(format!("label {label_tok:?} is not finite")));
        }
        let row = labels.len();
        labels.push(label);
        let mut prev = 0usize;
        for tok in tokens {
            let (i, v) = tok
                .split_once(':')
                .ok_or_else(|| at(format!("token {tok:?} is not index:value")))?;
            if i == "qid" {
                continue;
            }
            let idx: usize = i
                .parse()
                .map_err(|_| at(format!("index {i:?} is not a positive integer")))?;
            if idx == 0 {
                return Err(at("index 0: LIBSVM indices start at 1".into()));
            }
            if idx <= prev {
                return Err(at(format!(
                    "index {idx} after {prev}: indices must increase"
                )));
            }
            if let Some(d) = n_features {
                if idx > d {
                    return Err(at(format!("index {idx} exceeds n_features = {d}")));
                }
            }
            let val: f64 = v
                .parse()
                .map_err(|_| at(format!("value {v:?} is not a number")))?;
            if !val.is_finite() {
                return Err(at(format!("value {v:?} at index {idx} is not finite")));
            }
            prev = idx;
            max_idx = max_idx.max(idx);
            trip.push(Triplet::new(row, idx - 1, val));
        }
    }
    if labels.is_empty() {
        return Err(parse_err(path, "file", "no data lines"));
    }
    let d = n_features.unwrap_or(max_idx);
    let features = SparseRowMat::try_new_from_triplets(labels.len(), d, &trip).map_err(|e| {
        Error::input(
            path.display().to_string(),
            format!("cannot build sparse matrix: {e:?}"),
        )
    })?;
    Ok(LibsvmData { features, labels })
}
