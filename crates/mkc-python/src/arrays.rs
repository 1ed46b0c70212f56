//! numpy arrays in and out: read-only views of the caller's buffers (no copy when the
//! array is C- or Fortran-contiguous float64), owned results as new arrays.
//!
//! The workspace's methods run on column-major faer matrices, and their passes over a
//! kernel (validation, preprocessing, weighted sums) walk it column by column: a
//! row-major view makes those passes strided (measured on Digit, n = 2000: SimpleMKKM
//! used 5–15% more CPU time). A kernel is symmetric by contract (checked to
//! [`mkc_core::validate::SYMMETRY_RTOL`]), so a C-ordered kernel is read through the
//! column-major view of its buffer, that is as its transpose: the kernel itself, bit for
//! bit, when it is exactly symmetric, and within the checked asymmetry otherwise.
//! Errors are reported in the caller's orientation ([`Matrix::exact`]). Feature
//! matrices are never transposed.

use faer::{Mat, MatRef};
use mkc_core::{Error, Result};
use numpy::ndarray::Array2;
use numpy::{IntoPyArray, PyArray2, PyReadonlyArrayDyn, PyUntypedArrayMethods};
use pyo3::prelude::*;

/// A matrix taken from a numpy array: a view of its buffer, or a copy when the array
/// is neither C- nor Fortran-contiguous.
pub enum Matrix<'a> {
    /// The array's own memory; `transposed` when the view is the column-major reading
    /// of a C-ordered kernel (the array's transpose).
    View {
        /// The column-major view.
        view: MatRef<'a, f64>,
        /// Whether `view` is the array's transpose.
        transposed: bool,
    },
    /// A copy (strided arrays only), in the array's orientation.
    Copy(Mat<f64>),
}

impl Matrix<'_> {
    /// The matrix as the methods read it (column-major where the memory allows).
    pub fn as_mat(&self) -> MatRef<'_, f64> {
        match self {
            Matrix::View { view, .. } => *view,
            Matrix::Copy(m) => m.as_ref(),
        }
    }

    /// The matrix in the caller's orientation (for error messages that name entries).
    pub fn exact(&self) -> MatRef<'_, f64> {
        match self {
            Matrix::View {
                view,
                transposed: true,
            } => view.transpose(),
            other => other.as_mat(),
        }
    }

    /// Whether the matrix is the caller's memory (no copy was made).
    pub fn is_view(&self) -> bool {
        matches!(self, Matrix::View { .. })
    }
}

/// Borrow `obj` read-only as a float64 array; `what` names it in the `TypeError`.
pub fn borrow<'py>(obj: &Bound<'py, PyAny>, what: &str) -> PyResult<PyReadonlyArrayDyn<'py, f64>> {
    obj.extract::<PyReadonlyArrayDyn<'py, f64>>().map_err(|_| {
        let ty = obj
            .get_type()
            .name()
            .map_or_else(|_| "?".to_string(), |n| n.to_string());
        pyo3::exceptions::PyTypeError::new_err(format!(
            "{what}: expected a numpy array of float64, got {ty}"
        ))
    })
}

/// The `rows × cols` block `s` of a C-ordered array: for a kernel, the column-major
/// view of the buffer (its transpose, see the module docs); else the row-major view.
fn c_block(s: &[f64], rows: usize, cols: usize, kernel: bool) -> Matrix<'_> {
    if kernel {
        Matrix::View {
            view: MatRef::from_column_major_slice(s, cols, rows),
            transposed: true,
        }
    } else {
        Matrix::View {
            view: MatRef::from_row_major_slice(s, rows, cols),
            transposed: false,
        }
    }
}

/// The 2-D array `a` (shape `rows × cols`) as a matrix: a view of a C- or
/// Fortran-contiguous buffer, else a copy.
fn matrix<'a>(
    a: &'a PyReadonlyArrayDyn<'_, f64>,
    rows: usize,
    cols: usize,
    kernel: bool,
) -> Matrix<'a> {
    let slice = a.as_slice().ok().filter(|s| s.len() == rows * cols);
    match slice {
        Some(s) if a.is_c_contiguous() => c_block(s, rows, cols, kernel),
        Some(s) if a.is_fortran_contiguous() => Matrix::View {
            view: MatRef::from_column_major_slice(s, rows, cols),
            transposed: false,
        },
        _ => {
            let v = a.as_array();
            Matrix::Copy(Mat::from_fn(rows, cols, |i, j| v[[i, j]]))
        }
    }
}

/// The one matrix of a 2-D array (e.g. a feature matrix, n × d), never transposed.
pub fn matrix_2d<'a>(a: &'a PyReadonlyArrayDyn<'_, f64>, what: &str) -> Result<Matrix<'a>> {
    match a.shape() {
        &[rows, cols] => Ok(matrix(a, rows, cols, false)),
        s => Err(Error::shape(what, "a 2-D array", format!("shape {s:?}"))),
    }
}

/// The kernels of the arrays, in order: a 2-D array is one kernel, a 3-D array of shape
/// `(m, n, n)` is `m` kernels (views of consecutive blocks when C-contiguous).
pub fn kernels<'a>(arrays: &'a [PyReadonlyArrayDyn<'_, f64>]) -> Result<Vec<Matrix<'a>>> {
    let mut out = Vec::new();
    for (p, a) in arrays.iter().enumerate() {
        match *a.shape() {
            [rows, cols] => out.push(matrix(a, rows, cols, true)),
            [m, rows, cols] => match a.as_slice() {
                Ok(s) if a.is_c_contiguous() && s.len() == m * rows * cols => {
                    let b = rows * cols;
                    out.extend((0..m).map(|q| c_block(&s[q * b..(q + 1) * b], rows, cols, true)));
                }
                _ => {
                    let v = a.as_array();
                    out.extend(
                        (0..m).map(|q| Matrix::Copy(Mat::from_fn(rows, cols, |i, j| v[[q, i, j]]))),
                    );
                }
            },
            ref s => {
                return Err(Error::shape(
                    format!("kernels[{p}]"),
                    "an n × n array (or an (m, n, n) stack)",
                    format!("shape {s:?}"),
                ))
            }
        }
    }
    Ok(out)
}

/// A new numpy array holding `m` (one copy, row-major).
pub fn to_numpy<'py>(py: Python<'py>, m: MatRef<'_, f64>) -> Bound<'py, PyArray2<f64>> {
    Array2::from_shape_fn((m.nrows(), m.ncols()), |(i, j)| m[(i, j)]).into_pyarray(py)
}
