//! The in-memory form of MATLAB variables, conversions to faer matrices, and the pieces
//! both file readers ([`super::v5`], `super::v73`) build variables from: the empty
//! array, char arrays, element counts, the header text and checked sparse matrices.

use faer::sparse::{SparseRowMat, Triplet};
use faer::Mat;
use mkc_core::{Error, Result};

/// MATLAB array class (`mxClassID`), as stored in a MAT file's array flags.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MatClass {
    /// `double` (mxDOUBLE_CLASS = 6).
    Double,
    /// `single` (7).
    Single,
    /// `int8` (8).
    Int8,
    /// `uint8` (9); MATLAB's `logical` is stored as uint8 with the logical flag.
    UInt8,
    /// `int16` (10).
    Int16,
    /// `uint16` (11).
    UInt16,
    /// `int32` (12).
    Int32,
    /// `uint32` (13).
    UInt32,
    /// `int64` (14).
    Int64,
    /// `uint64` (15).
    UInt64,
}

impl MatClass {
    /// From the numeric `mxClassID`; `None` for non-numeric classes.
    pub fn from_id(id: u8) -> Option<Self> {
        Some(match id {
            6 => MatClass::Double,
            7 => MatClass::Single,
            8 => MatClass::Int8,
            9 => MatClass::UInt8,
            10 => MatClass::Int16,
            11 => MatClass::UInt16,
            12 => MatClass::Int32,
            13 => MatClass::UInt32,
            14 => MatClass::Int64,
            15 => MatClass::UInt64,
            _ => return None,
        })
    }

    /// From the `MATLAB_class` attribute of a v7.3 (HDF5) dataset.
    pub fn from_name(name: &str) -> Option<Self> {
        Some(match name {
            "double" => MatClass::Double,
            "single" => MatClass::Single,
            "int8" => MatClass::Int8,
            "uint8" | "logical" => MatClass::UInt8,
            "int16" => MatClass::Int16,
            "uint16" => MatClass::UInt16,
            "int32" => MatClass::Int32,
            "uint32" => MatClass::UInt32,
            "int64" => MatClass::Int64,
            "uint64" => MatClass::UInt64,
            _ => return None,
        })
    }
}

/// One MATLAB variable.
///
/// Numeric data of every class is widened to `f64` (int64/uint64 values beyond 2^53
/// are rounded to the nearest double; no file in this field holds such values).
/// Dimensions are MATLAB's, and data is in MATLAB's column-major order.
#[derive(Debug, Clone, PartialEq)]
pub enum MatArray {
    /// A dense numeric or logical array.
    Numeric {
        /// Storage class.
        class: MatClass,
        /// `true` for MATLAB `logical` arrays.
        logical: bool,
        /// MATLAB dimensions (at least 2).
        dims: Vec<usize>,
        /// Real part, column-major, `dims.iter().product()` values.
        real: Vec<f64>,
        /// Imaginary part for complex arrays.
        imag: Option<Vec<f64>>,
    },
    /// A sparse matrix in MATLAB's compressed-column form.
    Sparse {
        /// Rows.
        nrows: usize,
        /// Columns.
        ncols: usize,
        /// `true` for sparse logical matrices.
        logical: bool,
        /// Row index of each stored value (`ir`).
        row_idx: Vec<usize>,
        /// Column pointers (`jc`, `ncols + 1` entries).
        col_ptr: Vec<usize>,
        /// Stored real values (`pr`).
        values: Vec<f64>,
        /// Stored imaginary values (`pi`) for complex sparse matrices.
        imag: Option<Vec<f64>>,
    },
    /// A character array (UTF-16 code units decoded; rows of a 2-D char matrix are
    /// joined with `\n`).
    Char {
        /// MATLAB dimensions.
        dims: Vec<usize>,
        /// The text.
        text: String,
    },
    /// A cell array (elements in column-major order).
    Cell {
        /// MATLAB dimensions.
        dims: Vec<usize>,
        /// The elements.
        items: Vec<MatArray>,
    },
    /// A struct array: field names and, per field, one value per struct element.
    Struct {
        /// MATLAB dimensions.
        dims: Vec<usize>,
        /// `(field name, values in column-major element order)`.
        fields: Vec<(String, Vec<MatArray>)>,
    },
    /// A class this reader does not decode (objects, function handles, opaque).
    Unsupported {
        /// The `mxClassID`.
        class_id: u8,
    },
}

impl MatArray {
    /// MATLAB dimensions of the variable (empty for unsupported classes).
    pub fn dims(&self) -> Vec<usize> {
        match self {
            MatArray::Numeric { dims, .. } | MatArray::Char { dims, .. } => dims.clone(),
            MatArray::Cell { dims, .. } | MatArray::Struct { dims, .. } => dims.clone(),
            MatArray::Sparse { nrows, ncols, .. } => vec![*nrows, *ncols],
            MatArray::Unsupported { .. } => Vec::new(),
        }
    }

    /// A short description for error messages (`"uint8 840x768"`).
    pub fn describe(&self) -> String {
        let d = self
            .dims()
            .iter()
            .map(|v| v.to_string())
            .collect::<Vec<_>>()
            .join("x");
        match self {
            MatArray::Numeric { class, logical, .. } => {
                if *logical {
                    format!("logical {d}")
                } else {
                    format!("{class:?} {d}").to_lowercase()
                }
            }
            MatArray::Sparse { .. } => format!("sparse {d}"),
            MatArray::Char { .. } => format!("char {d}"),
            MatArray::Cell { .. } => format!("cell {d}"),
            MatArray::Struct { .. } => format!("struct {d}"),
            MatArray::Unsupported { class_id } => format!("unsupported class {class_id}"),
        }
    }

    /// A 2-D real array (dense or sparse) as a dense faer matrix, MATLAB orientation.
    pub fn to_mat(&self, what: &str) -> Result<Mat<f64>> {
        match self {
            MatArray::Numeric {
                dims, real, imag, ..
            } => {
                if imag.is_some() {
                    return Err(Error::input(
                        what,
                        "complex array; only real data is supported",
                    ));
                }
                if dims.len() != 2 {
                    return Err(Error::shape(what, "a 2-D array", self.describe()));
                }
                let (r, c) = (dims[0], dims[1]);
                if r.checked_mul(c) != Some(real.len()) {
                    return Err(Error::shape(
                        what,
                        format!("{} values for dims {dims:?}", r.saturating_mul(c)),
                        real.len().to_string(),
                    ));
                }
                Ok(Mat::from_fn(r, c, |i, j| real[i + j * r]))
            }
            MatArray::Sparse { .. } => {
                let c = self.real_csc(what)?;
                let mut m = Mat::<f64>::zeros(c.nrows, c.ncols);
                c.for_each(|i, j, v| m[(i, j)] += v);
                Ok(m)
            }
            _ => Err(Error::input(
                what,
                format!("expected a numeric matrix, found {}", self.describe()),
            )),
        }
    }

    /// A sparse real matrix as a faer row-major sparse matrix (rows = samples).
    pub fn to_sparse_row(&self, what: &str) -> Result<SparseRowMat<usize, f64>> {
        let c = self.real_csc(what)?;
        let mut trip = Vec::with_capacity(c.col_ptr[c.ncols]);
        c.for_each(|i, j, v| trip.push(Triplet::new(i, j, v)));
        SparseRowMat::try_new_from_triplets(c.nrows, c.ncols, &trip)
            .map_err(|e| Error::input(what, format!("cannot build sparse matrix: {e:?}")))
    }

    /// The checked compressed-column parts of a real sparse matrix.
    fn real_csc(&self, what: &str) -> Result<Csc<'_>> {
        match self {
            MatArray::Sparse {
                nrows,
                ncols,
                row_idx,
                col_ptr,
                values,
                imag,
                ..
            } => {
                if imag.is_some() {
                    return Err(Error::input(
                        what,
                        "complex sparse matrix; only real data is supported",
                    ));
                }
                // the fields are public, so a hand-built value may break the invariants
                check_csc(*nrows, *ncols, row_idx, col_ptr)
                    .and_then(|nnz| {
                        if values.len() < nnz {
                            Err(format!("{} values for {nnz} non-zeros", values.len()))
                        } else {
                            Ok(())
                        }
                    })
                    .map_err(|r| Error::input(what, format!("inconsistent sparse matrix: {r}")))?;
                Ok(Csc {
                    nrows: *nrows,
                    ncols: *ncols,
                    row_idx,
                    col_ptr,
                    values,
                })
            }
            _ => Err(Error::input(
                what,
                format!("expected a sparse matrix, found {}", self.describe()),
            )),
        }
    }

    /// A real vector (1 x n, n x 1, or any array with one non-singleton dimension).
    pub fn to_vec(&self, what: &str) -> Result<Vec<f64>> {
        match self {
            MatArray::Numeric {
                dims,
                real,
                imag: None,
                ..
            } => {
                if dims.iter().filter(|&&d| d != 1).count() > 1 {
                    return Err(Error::shape(what, "a vector", self.describe()));
                }
                Ok(real.clone())
            }
            _ => Err(Error::input(
                what,
                format!("expected a real numeric vector, found {}", self.describe()),
            )),
        }
    }

    /// The elements of a cell array.
    pub fn cells(&self, what: &str) -> Result<&[MatArray]> {
        match self {
            MatArray::Cell { items, .. } => Ok(items),
            _ => Err(Error::input(
                what,
                format!("expected a cell array, found {}", self.describe()),
            )),
        }
    }

    /// The text of a char array.
    pub fn text(&self, what: &str) -> Result<&str> {
        match self {
            MatArray::Char { text, .. } => Ok(text),
            _ => Err(Error::input(
                what,
                format!("expected a char array, found {}", self.describe()),
            )),
        }
    }
}

/// Borrowed compressed-column parts of a checked real sparse matrix.
struct Csc<'a> {
    nrows: usize,
    ncols: usize,
    row_idx: &'a [usize],
    col_ptr: &'a [usize],
    values: &'a [f64],
}

impl Csc<'_> {
    /// `f(row, col, value)` for every stored entry, column by column.
    fn for_each(&self, mut f: impl FnMut(usize, usize, f64)) {
        for j in 0..self.ncols {
            for k in self.col_ptr[j]..self.col_ptr[j + 1] {
                f(self.row_idx[k], j, self.values[k]);
            }
        }
    }
}

/// Check MATLAB's compressed-column indices: `jc` has `ncols + 1` entries,
/// non-decreasing from 0, and `ir` holds at least `nnz = jc[ncols]` row indices, the
/// first `nnz` of them below `nrows`. Returns `nnz`, or the reason it is broken.
pub(crate) fn check_csc(
    nrows: usize,
    ncols: usize,
    ir: &[usize],
    jc: &[usize],
) -> std::result::Result<usize, String> {
    if jc.len() != ncols.saturating_add(1) {
        return Err(format!(
            "jc has {} entries, {ncols} columns need {}",
            jc.len(),
            ncols as u128 + 1
        ));
    }
    if jc[0] != 0 || jc.windows(2).any(|w| w[0] > w[1]) {
        return Err("column pointers jc are not non-decreasing from 0".into());
    }
    let nnz = jc[ncols];
    if nnz > ir.len() {
        return Err(format!("jc claims {nnz} non-zeros, ir holds {}", ir.len()));
    }
    if let Some(k) = ir[..nnz].iter().position(|&r| r >= nrows) {
        return Err(format!(
            "row index {} at entry {k} is out of range ({nrows} rows)",
            ir[k]
        ));
    }
    Ok(nnz)
}

/// The sparse variable from indices already passed by [`check_csc`] (`nnz` non-zeros)
/// and the values read from a file: at least `nnz` real (and, if given, imaginary)
/// values, trimmed to `nnz` like the row indices. The error is the reason.
pub(crate) fn sparse_from_csc(
    (nrows, ncols, logical): (usize, usize, bool),
    (mut row_idx, col_ptr, nnz): (Vec<usize>, Vec<usize>, usize),
    mut values: Vec<f64>,
    imag: Option<Vec<f64>>,
) -> std::result::Result<MatArray, String> {
    if values.len() < nnz {
        return Err(format!("{} values for {nnz} non-zeros", values.len()));
    }
    values.truncate(nnz);
    let imag = match imag {
        Some(im) if im.len() < nnz => {
            return Err(format!("{} imaginary values for {nnz} non-zeros", im.len()))
        }
        Some(mut im) => {
            im.truncate(nnz);
            Some(im)
        }
        None => None,
    };
    row_idx.truncate(nnz);
    Ok(MatArray::Sparse {
        nrows,
        ncols,
        logical,
        row_idx,
        col_ptr,
        values,
        imag,
    })
}

impl MatArray {
    /// MATLAB's `[]` (a 0 x 0 double), as an empty element stands for.
    pub(crate) fn empty() -> Self {
        MatArray::Numeric {
            class: MatClass::Double,
            logical: false,
            dims: vec![0, 0],
            real: vec![],
            imag: None,
        }
    }

    /// A char array from its characters in MATLAB's column-major order (rows of a 2-D
    /// char matrix joined with `\n`).
    pub(crate) fn char_array(dims: Vec<usize>, chars: &[char]) -> Self {
        let text = reshape_text(chars, &dims);
        MatArray::Char { dims, text }
    }
}

/// UTF-16 code units as characters (unpaired surrogates become U+FFFD).
pub(crate) fn utf16_chars(units: impl IntoIterator<Item = u16>) -> Vec<char> {
    char::decode_utf16(units)
        .map(|r| r.unwrap_or(char::REPLACEMENT_CHARACTER))
        .collect()
}

/// Column-major char matrix → rows joined by '\n'.
fn reshape_text(chars: &[char], dims: &[usize]) -> String {
    let rows = dims.first().copied().unwrap_or(1);
    if rows <= 1 || chars.len() % rows != 0 {
        return chars.iter().collect();
    }
    let cols = chars.len() / rows;
    let mut out = String::with_capacity(chars.len() + rows);
    for i in 0..rows {
        if i > 0 {
            out.push('\n');
        }
        for j in 0..cols {
            out.push(chars[i + j * rows]);
        }
    }
    out
}

/// Number of elements of an array of MATLAB dimensions `dims` (`None` on overflow).
pub(crate) fn element_count(dims: &[usize]) -> Option<usize> {
    dims.iter().try_fold(1usize, |acc, &d| acc.checked_mul(d))
}

/// The descriptive text of a MAT header (its first 116 bytes), without trailing NULs
/// and spaces; empty when the data is shorter.
pub(crate) fn header_text(data: &[u8]) -> String {
    data.get(..116)
        .map(|h| {
            String::from_utf8_lossy(h)
                .trim_end_matches(['\0', ' '])
                .to_string()
        })
        .unwrap_or_default()
}

/// The variables of a MAT file, in file order.
#[derive(Debug, Clone, PartialEq)]
pub struct MatFile {
    /// The 116-byte descriptive text of the header (trimmed).
    pub header: String,
    /// `(name, value)` for every variable.
    pub vars: Vec<(String, MatArray)>,
}

impl MatFile {
    /// The variable called `name`.
    pub fn get(&self, name: &str) -> Option<&MatArray> {
        self.vars.iter().find(|(n, _)| n == name).map(|(_, v)| v)
    }

    /// The variable called `name`, or an error listing the variables present.
    pub fn require(&self, name: &str) -> Result<&MatArray> {
        self.get(name).ok_or_else(|| {
            let names: Vec<&str> = self.vars.iter().map(|(n, _)| n.as_str()).collect();
            Error::input(
                format!("MAT variable `{name}`"),
                format!("not in the file (variables: {})", names.join(", ")),
            )
        })
    }
}
