//! Rust errors as Python exceptions, with the same message.
//!
//! Every [`mkc_core::Error`] becomes a `ValueError` (bad values, shapes, non-finite or
//! non-symmetric kernels, out-of-range parameters, numerical failures, malformed files),
//! except file-system problems: a missing file or dataset is `FileNotFoundError`, any
//! other I/O error `OSError`. Python values of the wrong type (a parameter of the wrong
//! kind, an unknown parameter name, an array of the wrong dtype) are `TypeError`.

use mkc_core::Error;
use pyo3::exceptions::{PyFileNotFoundError, PyOSError, PyTypeError, PyValueError};
use pyo3::PyErr;

/// The Python exception for a Rust error (the message is the error's `Display`).
pub fn to_py(e: Error) -> PyErr {
    let msg = e.to_string();
    match &e {
        Error::MissingData { .. } => PyFileNotFoundError::new_err(msg),
        Error::Io { source, .. } if source.kind() == std::io::ErrorKind::NotFound => {
            PyFileNotFoundError::new_err(msg)
        }
        Error::Io { .. } => PyOSError::new_err(msg),
        _ => PyValueError::new_err(msg),
    }
}

/// The same error raised as `TypeError` (the value has the wrong Python type or names
/// no parameter of the method).
pub fn type_error(e: Error) -> PyErr {
    PyTypeError::new_err(e.to_string())
}

/// `result.py()?`: convert a workspace result at the FFI boundary.
pub trait IntoPyResult<T> {
    /// The result with its error as a Python exception (see [`to_py`]).
    fn py(self) -> pyo3::PyResult<T>;
}

impl<T> IntoPyResult<T> for mkc_core::Result<T> {
    fn py(self) -> pyo3::PyResult<T> {
        self.map_err(to_py)
    }
}
