//! numpy arrays in and out: read-only views of the caller's buffers (no copy when the
//! array is C- or Fortran-contiguous float64), owned results as new arrays.

use faer::{Mat, MatRef};
use mkc_core::{Error, Result};
use numpy::ndarray::Array2;
use numpy::{IntoPyArray, PyArray2, PyReadonlyArrayDyn, PyUntypedArrayMethods};
use pyo3::prelude::*;

/// A matrix taken from a numpy array: a view of its buffer, or a copy when the array
/// is neither C- nor Fortran-contiguous.
pub enum Matrix<'a> {
    /// The array's own memory.
    View(MatRef<'a, f64>),
    /// A copy (strided arrays only).
    Copy(Mat<f64>),
}

impl Matrix<'_> {
    /// The matrix as a faer view.
    pub fn as_mat(&self) -> MatRef<'_, f64> {
        match self {
            Matrix::View(v) => *v,
            Matrix::Copy(m) => m.as_ref(),
        }
    }

    /// Whether the matrix is the caller's memory (no copy was made).
    pub fn is_view(&self) -> bool {
        matches!(self, Matrix::View(_))
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

/// The 2-D array `a` (shape `rows × cols`) as a matrix: a row-major view of a
/// C-contiguous buffer, a column-major view of a Fortran-contiguous one, else a copy.
fn matrix<'a>(a: &'a PyReadonlyArrayDyn<'_, f64>, rows: usize, cols: usize) -> Matrix<'a> {
    let slice = a.as_slice().ok().filter(|s| s.len() == rows * cols);
    match slice {
        Some(s) if a.is_c_contiguous() => Matrix::View(MatRef::from_row_major_slice(s, rows, cols)),
        Some(s) if a.is_fortran_contiguous() => {
            Matrix::View(MatRef::from_column_major_slice(s, rows, cols))
        }
        _ => {
            let v = a.as_array();
            Matrix::Copy(Mat::from_fn(rows, cols, |i, j| v[[i, j]]))
        }
    }
}

/// The one matrix of a 2-D array (e.g. a feature matrix, n × d).
pub fn matrix_2d<'a>(a: &'a PyReadonlyArrayDyn<'_, f64>, what: &str) -> Result<Matrix<'a>> {
    match a.shape() {
        &[rows, cols] => Ok(matrix(a, rows, cols)),
        s => Err(Error::shape(what, "a 2-D array", format!("shape {s:?}"))),
    }
}

/// The kernels of the arrays, in order: a 2-D array is one kernel, a 3-D array of shape
/// `(m, n, n)` is `m` kernels (views of consecutive blocks when C-contiguous).
pub fn kernels<'a>(arrays: &'a [PyReadonlyArrayDyn<'_, f64>]) -> Result<Vec<Matrix<'a>>> {
    let mut out = Vec::new();
    for (p, a) in arrays.iter().enumerate() {
        match *a.shape() {
            [rows, cols] => out.push(matrix(a, rows, cols)),
            [m, rows, cols] => match a.as_slice() {
                Ok(s) if a.is_c_contiguous() && s.len() == m * rows * cols => {
                    let b = rows * cols;
                    out.extend((0..m).map(|q| {
                        let block = &s[q * b..(q + 1) * b];
                        Matrix::View(MatRef::from_row_major_slice(block, rows, cols))
                    }));
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
