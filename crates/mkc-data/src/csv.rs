//! Dense numeric CSV/TSV (optionally gzip-compressed, detected by its magic bytes).
//!
//! Rules:
//! - one sample per line; blank lines (e.g. a trailing empty line) are skipped; `\r\n`
//!   line ends are accepted; spaces around a field are ignored;
//! - the delimiter is `,` unless the first data line contains a tab (then `\t`), or as
//!   set in [`CsvOptions::delimiter`];
//! - every line must have as many fields as the first one, else an error names the line;
//! - **missing values**: the fields `NaN`, `nan`, `NA`, `?` and the empty field are
//!   *missing*. Under [`NanPolicy::Error`] (the default) a missing value is an error
//!   naming its line and column (1-based); under [`NanPolicy::Allow`] it becomes `NaN`
//!   and the caller decides (the registry's `nan` setting: keep or impute);
//! - `inf`/`infinity` are always errors; anything else that is not a number is an error
//!   naming line, column and text.

use crate::bytes::{parse_err, read_maybe_gz};
use faer::Mat;
use mkc_core::Result;
use std::path::Path;

/// What to do with missing fields (`NaN`, `NA`, `?`, empty).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum NanPolicy {
    /// A missing field is an error naming its line and column.
    #[default]
    Error,
    /// A missing field is read as `f64::NAN`.
    Allow,
}

/// Options of [`read_dense`].
#[derive(Debug, Clone, Default)]
pub struct CsvOptions {
    /// Field separator; `None` = `\t` if the first data line has a tab, else `,`.
    pub delimiter: Option<u8>,
    /// Skip the first non-blank line (a header).
    pub header: bool,
    /// Missing-value policy.
    pub nan: NanPolicy,
}

impl CsvOptions {
    /// Defaults: auto delimiter, no header, missing values are errors.
    pub fn new() -> Self {
        Self::default()
    }
    /// Set the delimiter.
    pub fn delimiter(mut self, d: u8) -> Self {
        self.delimiter = Some(d);
        self
    }
    /// Skip a header line.
    pub fn header(mut self, yes: bool) -> Self {
        self.header = yes;
        self
    }
    /// Set the missing-value policy.
    pub fn nan(mut self, p: NanPolicy) -> Self {
        self.nan = p;
        self
    }
}

/// Read a dense numeric CSV/TSV file (gzip allowed) into an n x d matrix.
pub fn read_dense(path: impl AsRef<Path>, opts: &CsvOptions) -> Result<Mat<f64>> {
    let path = path.as_ref();
    let data = read_maybe_gz(path)?;
    parse_dense(&data, path, opts)
}

/// Is this field a missing-value marker?
pub fn is_missing(field: &str) -> bool {
    matches!(field, "" | "NaN" | "nan" | "NA" | "?")
}

/// Parse a number; integers take a fast path (the bulk of image data).
#[inline]
fn parse_number(t: &str) -> Option<f64> {
    let b = t.as_bytes();
    if !b.is_empty() && b.len() <= 15 {
        let mut v: u64 = 0;
        let mut all_digits = true;
        for &c in b {
            let d = c.wrapping_sub(b'0');
            if d > 9 {
                all_digits = false;
                break;
            }
            v = v * 10 + u64::from(d);
        }
        if all_digits {
            return Some(v as f64);
        }
    }
    t.parse::<f64>().ok()
}

/// Split into non-blank lines with their 1-based line numbers.
fn lines(data: &str) -> impl Iterator<Item = (usize, &str)> {
    data.split('\n')
        .enumerate()
        .map(|(i, l)| (i + 1, l.strip_suffix('\r').unwrap_or(l)))
        .filter(|(_, l)| !l.trim().is_empty())
}

/// Parse CSV/TSV bytes (`path` is used in error messages).
pub fn parse_dense(data: &[u8], path: &Path, opts: &CsvOptions) -> Result<Mat<f64>> {
    let text = std::str::from_utf8(data)
        .map_err(|e| parse_err(path, "text", format!("not UTF-8: {e}")))?;
    let rows: Vec<(usize, &str)> = lines(text).skip(usize::from(opts.header)).collect();
    let Some(&(_, first)) = rows.first() else {
        return Err(parse_err(path, "file", "no data lines"));
    };
    let delim = opts
        .delimiter
        .unwrap_or(if first.contains('\t') { b'\t' } else { b',' }) as char;
    let ncols = first.split(delim).count();
    // the size comes from lines actually present, never from a claim
    let mut m = Mat::<f64>::zeros(rows.len(), ncols);
    for (i, &(lineno, line)) in rows.iter().enumerate() {
        let mut col = 0usize;
        for field in line.split(delim) {
            if col < ncols {
                m[(i, col)] = parse_field(field, lineno, col + 1, path, opts.nan)?;
            }
            col += 1;
        }
        if col != ncols {
            return Err(parse_err(
                path,
                format!("line {lineno}"),
                format!("{col} fields, expected {ncols} (as in the first data line)"),
            ));
        }
    }
    Ok(m)
}

/// One field: a finite number, or a missing value handled by `nan`.
#[inline]
fn parse_field(field: &str, lineno: usize, col: usize, path: &Path, nan: NanPolicy) -> Result<f64> {
    let t = field.trim();
    let parsed = parse_number(t);
    if let Some(v) = parsed {
        if v.is_finite() {
            return Ok(v);
        }
    }
    let at = || format!("line {lineno}, column {col}");
    if is_missing(t) {
        return match nan {
            NanPolicy::Allow => Ok(f64::NAN),
            NanPolicy::Error => Err(parse_err(
                path,
                at(),
                format!("missing value {t:?} (missing values are not allowed for this file)"),
            )),
        };
    }
    Err(match parsed {
        Some(v) => parse_err(path, at(), format!("non-finite value {v}")),
        None => parse_err(path, at(), format!("not a number: {t:?}")),
    })
}

/// Read a one-field-per-line text file (e.g. `labels.csv`) as trimmed strings,
/// skipping blank lines.
pub fn read_strings(path: impl AsRef<Path>) -> Result<Vec<String>> {
    let path = path.as_ref();
    let data = read_maybe_gz(path)?;
    let text = std::str::from_utf8(&data)
        .map_err(|e| parse_err(path, "text", format!("not UTF-8: {e}")))?;
    Ok(lines(text).map(|(_, l)| l.trim().to_string()).collect())
}

/// Read a bundle `split.csv`: `<part>,<row index in that part>` per line.
pub fn read_split(path: impl AsRef<Path>) -> Result<Vec<(String, usize)>> {
    let path = path.as_ref();
    let data = read_maybe_gz(path)?;
    let text = std::str::from_utf8(&data)
        .map_err(|e| parse_err(path, "text", format!("not UTF-8: {e}")))?;
    lines(text)
        .map(|(lineno, l)| {
            let mut f = l.split(',');
            match (
                f.next(),
                f.next().and_then(|s| s.trim().parse::<usize>().ok()),
                f.next(),
            ) {
                (Some(p), Some(i), None) => Ok((p.trim().to_string(), i)),
                _ => Err(parse_err(
                    path,
                    format!("line {lineno}"),
                    format!("expected `<part>,<index>`, found {l:?}"),
                )),
            }
        })
        .collect()
}
